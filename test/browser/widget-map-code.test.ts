// map.js, the map's code that widget.js leaves out, in a real browser against the demo data on a
// page of another site: a finder with its map off never asks for it (nor for Leaflet); finders
// with maps load it once a page, beside Leaflet, and draw their pins and bubbles with it; one
// that cannot load leaves the list the map's room, as a refused Leaflet does.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumPath, networkSettled, newPage, watchRequests } from './browser'
import { hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

/** The service's widget files the page asks for (their paths), as it asks. */
function widgetFiles(page: Page): string[] {
  const asked: string[] = []
  page.on('request', (r) => {
    const url = new URL(r.url())
    if (url.origin === new URL(demo.server.url).origin && url.pathname.startsWith('/widget'))
      asked.push(url.pathname + url.search)
  })
  return asked
}

/** A host page with a finder in #a and #b, each with `attrs`. */
const twoFinders = (a: string, b: string) =>
  hostPage(
    `<div id="a" data-storeloc="${demo.server.token}" ${a}></div><div id="b" data-storeloc="${demo.server.token}" ${b}></div><script src="${demo.server.url}/widget.js"></script>`,
  )

describe.skipIf(chromiumPath === null)("the map's own script, in Chromium", () => {
  test('finders with their maps off ask for no file of the map, searching and picking a store', async () => {
    const host = twoFinders('data-map="false" data-place="London"', 'data-map="off"')
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    watchRequests(page)
    const asked = widgetFiles(page)
    try {
      await page.goto(host.url)
      await page.locator('#a .sl-item').first().waitFor()
      await page.locator('#a .sl-item .sl-name').first().click()
      await page.locator('#a .sl-selected').waitFor()
      await page.locator('#b').getByRole('combobox', { name: 'Town or postcode' }).fill('Paris')
      await page.locator('#b').getByRole('combobox', { name: 'Town or postcode' }).press('Enter')
      await page.locator('#b .sl-item').first().waitFor()
      await networkSettled(page)
      expect(asked.sort()).toEqual(['/widget.css', '/widget.js'])
      expect(await page.locator('.sl-map').count()).toBe(0)
    } finally {
      host.stop()
      await page.close()
    }
  })

  test('two maps load map.js once, beside Leaflet, and draw with it: pins that pick, bubbles named', async () => {
    const host = twoFinders('data-place="London"', '')
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    watchRequests(page)
    const asked = widgetFiles(page)
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    try {
      await page.goto(host.url)
      await page.locator('#a .sl-pin').first().waitFor()
      await page.locator('#b .sl-cluster').first().waitFor()
      await networkSettled(page)
      // Each once, though two maps drew: preloaded, then run from the browser's cache.
      const mapFiles = asked.filter((p) => p.startsWith('/widget/') && p !== '/widget/countries.json')
      // map.js by the version widget.js is built with: never another build's.
      expect(mapFiles.sort()).toEqual([
        '/widget/leaflet.css',
        '/widget/leaflet.js',
        expect.stringMatching(/^\/widget\/map\.js\?v=\w+$/),
      ])
      expect(await page.locator('#a .sl-pin').count()).toBe(await page.locator('#a .sl-item').count())
      // A bubble's name: its label, then its count in the finder's words, then what a press does.
      const bubble = page.locator('#b .sl-cluster').first()
      // Read at once: the bubbles are drawn anew as the map settles.
      const [label, name] = await bubble.evaluate((b) => [
        b.querySelector('.sl-cluster-count')?.textContent,
        b.getAttribute('aria-label'),
      ])
      expect(name).toMatch(new RegExp(`^${label}.* stores, Zoom in$`))
      // The third store's pin picks it in the list.
      const third = await page.locator('#a .sl-item').nth(2).getAttribute('data-id')
      await page.locator(`#a .sl-pin[data-id="${third}"]`).click()
      await page.locator(`#a .sl-item.sl-selected[data-id="${third}"]`).waitFor()
      expect(await page.locator(`#a .sl-marker-selected .sl-pin`).getAttribute('data-id')).toBe(third)
      expect(errors).toEqual([])
    } finally {
      host.stop()
      await page.close()
    }
  })

  test("map.js refused: the finder's list takes the map's room, and searches as before", async () => {
    const host = twoFinders('data-place="London"', 'data-map="false"')
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    await page.route('**/widget/map.js?v=*', (route) => route.fulfill({ status: 503, body: '' }))
    try {
      await page.goto(host.url)
      await page.locator('#a .sl-item').first().waitFor()
      await page.locator('#a .sl-map').waitFor({ state: 'hidden' })
      const width = async (selector: string) => (await page.locator(selector).boundingBox())!.width
      expect(await width('#a .sl-results')).toBe(await width('#a .sl-main'))
      await page.locator('#a').getByRole('combobox', { name: 'Town or postcode' }).fill('Paris')
      await page.locator('#a').getByRole('combobox', { name: 'Town or postcode' }).press('Enter')
      await page.locator('#a .sl-status', { hasText: 'Paris' }).waitFor()
      expect(await page.locator('#a .sl-item').count()).toBeGreaterThan(0)
    } finally {
      host.stop()
      await page.close()
    }
  })

  test("a widget.js of an earlier build, kept in the browser's cache, runs no map.js but its own: its list takes the map's room", async () => {
    const host = twoFinders('data-place="London"', 'data-map="false"')
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    const asked = widgetFiles(page)
    // The widget.js of a build before the service's own: it asks for the map.js of that build.
    await page.route('**/widget.js', async (route) => {
      const sent = await route.fetch()
      const body = (await sent.text()).replace(/map\.js\?v=\w+/g, 'map.js?v=0ld')
      await route.fulfill({ response: sent, body })
    })
    try {
      await page.goto(host.url)
      await page.locator('#a .sl-item').first().waitFor()
      await page.locator('#a .sl-map').waitFor({ state: 'hidden' })
      const width = async (selector: string) => (await page.locator(selector).boundingBox())!.width
      expect(await width('#a .sl-results')).toBe(await width('#a .sl-main'))
      // The service has no map.js of that version (404): none runs.
      expect(asked.filter((p) => p.startsWith('/widget/map'))).toEqual(['/widget/map.js?v=0ld'])
      expect(errors).toEqual([])
    } finally {
      host.stop()
      await page.close()
    }
  })
})
