// The widget as a page's developer meets it, in a real browser against the demo: options it
// cannot use said in the console, once each, with the name meant and the values it takes; no
// global of the page's touched, none of its own but Storeloc left; elements marked later filled;
// the list alone where the page's Trusted Types refuse the map's script; an empty token's alert;
// a finder in a tab hidden as it loads, opening its filters once shown; the place search lifting
// the country of the page's language.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumPath, networkSettled, newPage, sentNow, watchRequests } from './browser'
import { docsSnippet, hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

/** What the callbacks below use of the page's window (this program is typed without the DOM's). */
type PageWindow = {
  document: { querySelector: (selector: string) => unknown }
  getComputedStyle: (el: unknown) => { borderLeftStyle: string }
}

/** The page's console warnings from the widget, as they come. */
function warnings(page: Page): string[] {
  const said: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'warning' && m.text().startsWith('storeloc:')) said.push(m.text())
  })
  return said
}

describe.skipIf(chromiumPath === null)("the widget on a developer's page, in Chromium", () => {
  test('options it cannot use are said once each: the name meant, what was given, what it takes', async () => {
    const attrs =
      'data-units="km" data-language="de" data-unit="kilometers" data-directions="waze" data-map="nope" data-heading-level="7" data-filters="servces" data-lang="pt-BR"'
    const { url, stop } = hostPage(
      `<div id="a" data-storeloc="${demo.server.token}" ${attrs}></div><div id="b"></div><script src="${demo.server.url}/widget.js"></script>`,
    )
    const page = await newPage(demo.browser)
    watchRequests(page)
    const said = warnings(page)
    try {
      await page.goto(url)
      await page.locator('#a .sl-form').waitFor()
      await page.waitForFunction(() => 'Storeloc' in globalThis)
      await page.evaluate(`(async () => {
        Storeloc.mount(document.querySelector('#b'), { token: '${demo.server.token}', units: 'km', mapp: false, lang: 'xx' })
        Storeloc.mount(document.querySelector('#a'))
      })()`)
      await page.locator('#b .sl-form').waitFor()
      await networkSettled(page)
      expect(said.sort()).toEqual(
        [
          'storeloc: data-units="km" is no option: did you mean data-unit? It is ignored.',
          'storeloc: data-language="de" is no option: did you mean data-lang? It is ignored.',
          `storeloc: data-unit is "kilometers": it takes km or miles; the locator's unit is used.`,
          'storeloc: data-directions is "waze": it takes google, apple or osm; google is used.',
          'storeloc: data-map is "nope": it takes on or off; on is used.',
          'storeloc: data-heading-level is "7": it takes 2, 3, 4, 5 or 6; 3 is used.',
          'storeloc: data-lang is "pt-BR": it takes en, de, fr, es, it or nl; English is used.',
          'storeloc: lang is "xx": it takes en, de, fr, es, it or nl; English is used.',
          `storeloc: data-filters (filters) names "servces", no filter group of this locator: it has products, services, store_type or _default. Did you mean "services"?`,
          'storeloc: Storeloc.mount has no option units (given "km"): did you mean unit? It is ignored.',
          'storeloc: Storeloc.mount has no option mapp (given false): did you mean map? It is ignored.',
        ].sort(),
      )
    } finally {
      stop()
      await page.close()
    }
  })
  test("the map's Leaflet keeps to itself: the page's window.L stays, and Storeloc is the one global added", async () => {
    const widget = `<div data-storeloc="${demo.server.token}" data-place="London"></div><script src="${demo.server.url}/widget.js"></script>`
    const globals = `<script>window.before = Object.keys(window)</script>${widget}`
    const own = hostPage(globals)
    const theirs = hostPage(`<script>window.L = { mine: true }</script>${widget}`)
    const page = await newPage(demo.browser)
    try {
      await page.goto(own.url)
      await page.locator('.sl-pin').first().waitFor()
      const added = await page.evaluate(() => {
        const g = globalThis as unknown as { before: string[] }
        return Object.keys(g).filter((k) => k !== 'before' && !g.before.includes(k))
      })
      // Leaflet's mark on what it listens to (the window's resize), no name a page would use.
      expect(added).toEqual(['Storeloc', '_leaflet_events'])
      await page.goto(theirs.url)
      await page.locator('.sl-pin').first().waitFor()
      expect(await page.evaluate(() => (globalThis as unknown as { L: unknown }).L)).toEqual({ mine: true })
    } finally {
      own.stop()
      theirs.stop()
      await page.close()
    }
  })
  test('an element marked after the page loaded is filled; moved elsewhere, it keeps its finder', async () => {
    const { url, stop } = hostPage(`<div id="other"></div><script src="${demo.server.url}/widget.js"></script>`)
    const page = await newPage(demo.browser)
    watchRequests(page)
    const asked: string[] = []
    page.on('request', (r) => void (r.url().includes('/public/v1/') && asked.push(r.url())))
    try {
      await page.goto(url)
      await networkSettled(page)
      // As a framework renders a component: the marked element inside another, added at once.
      await page.evaluate(`(() => {
        const section = document.createElement('section')
        section.innerHTML = '<div id="late" data-storeloc="${demo.server.token}" data-place="London"></div>'
        document.querySelector('main').append(section)
      })()`)
      await page.locator('#late .sl-item').first().waitFor()
      await networkSettled(page)
      const before = asked.length
      await page.evaluate(`document.querySelector('#other').append(document.querySelector('#late'))`)
      await sentNow(page)
      expect(await page.locator('#other > #late .sl-item').count()).toBeGreaterThan(0)
      expect(asked.slice(before)).toEqual([])
    } finally {
      stop()
      await page.close()
    }
  })
  test("under Trusted Types, where Leaflet's script is refused, the list has the map's room", async () => {
    const { url, stop } = hostPage(
      docsSnippet(demo.server.url, demo.server.token),
      `<meta http-equiv="Content-Security-Policy" content="require-trusted-types-for 'script'">`,
    )
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    try {
      await page.goto(`${url}?sl_place=London`)
      await page.locator('.sl-item').first().waitFor()
      await page.locator('.sl-map').waitFor({ state: 'hidden' })
      const width = async (selector: string) => (await page.locator(selector).boundingBox())!.width
      expect(await width('.sl-results')).toBe(await width('.sl-main'))
    } finally {
      stop()
      await page.close()
    }
  })
  test("an empty token alone on its page: the widget's alert, its stylesheet loaded for it", async () => {
    const { url, stop } = hostPage(`<div data-storeloc=""></div><script src="${demo.server.url}/widget.js"></script>`)
    const page = await newPage(demo.browser)
    try {
      await page.goto(url)
      const note = page
        .getByRole('alert')
        .filter({ hasText: 'This store finder is set up with a token that is not valid.' })
      await page.waitForFunction(() => {
        const note = (globalThis as unknown as PageWindow).document.querySelector('.sl-error')
        return note !== null && (globalThis as unknown as PageWindow).getComputedStyle(note).borderLeftStyle === 'solid'
      })
      expect(await note.getAttribute('class')).toBe('sl-error')
    } finally {
      stop()
      await page.close()
    }
  })

  test('a finder in a tab hidden as it loads opens its filters when the tab is shown wide', async () => {
    const { url, stop } = hostPage(
      `<div id="tab" hidden><div data-storeloc="${demo.server.token}"></div></div><script src="${demo.server.url}/widget.js"></script>`,
    )
    const page = await newPage(demo.browser, { viewport: { width: 1280, height: 900 } })
    try {
      await page.goto(url)
      const filters = page.locator('.sl-filters-box')
      await filters.waitFor({ state: 'attached' })
      const open = () => filters.evaluate((d) => (d as unknown as { open: boolean }).open)
      expect(await open()).toBe(false)
      await page.locator('#tab').evaluate((tab) => ((tab as unknown as { hidden: boolean }).hidden = false))
      await page.waitForFunction(() =>
        Boolean((globalThis as unknown as PageWindow).document.querySelector('.sl-filters-box[open]')),
      )
      expect(await open()).toBe(true)
    } finally {
      stop()
      await page.close()
    }
  })

  test("a page or a browser in British English: its visitors' Brighton is Sussex's, not the one near the Denver stores", async () => {
    const suggested = async (lang: string, browser = 'en-US') => {
      const { url, stop } = hostPage(
        `<div data-storeloc="${demo.server.token}" data-lang="${lang}" data-map="off"></div><script src="${demo.server.url}/widget.js"></script>`,
      )
      const page = await newPage(demo.browser, { locale: browser })
      try {
        await page.goto(url)
        await page.getByRole('combobox', { name: 'Town or postcode' }).fill('Brighton')
        return await page.locator('.sl-suggestion').first().textContent()
      } finally {
        stop()
        await page.close()
      }
    }
    expect(await suggested('en')).toContain('Brighton, CO, United States')
    expect(await suggested('en-GB')).toContain('Brighton, United Kingdom')
    // A page in English without a region: the browser's, when it speaks English too.
    expect(await suggested('en', 'en-GB')).toContain('Brighton, United Kingdom')
    expect(await suggested('en', 'de-DE')).toContain('Brighton, CO, United States')
  })
})
