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

/** `run` on a new page, given the URL of twoFinders(a, b): the page and the host closed after it, passed or not. */
async function withTwoFinders(a: string, b: string, run: (page: Page, url: string) => Promise<void>): Promise<void> {
  const host = twoFinders(a, b)
  const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
  try {
    await run(page, host.url)
  } finally {
    host.stop()
    await page.close()
  }
}

/** #a lists its stores with no map shown: its list as wide as the room of list and map. */
async function listTakesMapRoom(page: Page): Promise<void> {
  await page.locator('#a .sl-item').first().waitFor()
  await page.locator('#a .sl-map').waitFor({ state: 'hidden' })
  const width = async (selector: string) => (await page.locator(selector).boundingBox())!.width
  expect(await width('#a .sl-results')).toBe(await width('#a .sl-main'))
}

describe.skipIf(chromiumPath === null)("the map's own script, in Chromium", () => {
  test('finders with their maps off ask for no file of the map, searching and picking a store', async () => {
    await withTwoFinders('data-map="false" data-place="London"', 'data-map="off"', async (page, url) => {
      watchRequests(page)
      const asked = widgetFiles(page)
      await page.goto(url)
      await page.locator('#a .sl-item').first().waitFor()
      await page.locator('#a .sl-item .sl-name').first().click()
      await page.locator('#a .sl-selected').waitFor()
      await page.locator('#b').getByRole('combobox', { name: 'Town or postcode' }).fill('Paris')
      await page.locator('#b').getByRole('combobox', { name: 'Town or postcode' }).press('Enter')
      await page.locator('#b .sl-item').first().waitFor()
      await networkSettled(page)
      expect(asked.sort()).toEqual(['/widget.css', '/widget.js'])
      expect(await page.locator('.sl-map').count()).toBe(0)
    })
  })

  test('two maps load map.js once, beside Leaflet, and draw with it: pins that pick, bubbles named', async () => {
    await withTwoFinders('data-place="London"', '', async (page, url) => {
      watchRequests(page)
      const asked = widgetFiles(page)
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      await page.goto(url)
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
    })
  })

  test("map.js refused: the finder's list takes the map's room, and searches as before", async () => {
    await withTwoFinders('data-place="London"', 'data-map="false"', async (page, url) => {
      await page.route('**/widget/map.js?v=*', (route) => route.fulfill({ status: 503, body: '' }))
      await page.goto(url)
      await listTakesMapRoom(page)
      await page.locator('#a').getByRole('combobox', { name: 'Town or postcode' }).fill('Paris')
      await page.locator('#a').getByRole('combobox', { name: 'Town or postcode' }).press('Enter')
      await page.locator('#a .sl-status', { hasText: 'Paris' }).waitFor()
      expect(await page.locator('#a .sl-item').count()).toBeGreaterThan(0)
    })
  })

  test("a widget.js of an earlier build, kept in the browser's cache, runs no map.js but its own: its list takes the map's room", async () => {
    await withTwoFinders('data-place="London"', 'data-map="false"', async (page, url) => {
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      const asked = widgetFiles(page)
      // The widget.js of a build before the service's own: it asks for the map.js of that build.
      await page.route('**/widget.js', async (route) => {
        const sent = await route.fetch()
        const body = (await sent.text()).replace(/map\.js\?v=\w+/g, 'map.js?v=0ld')
        await route.fulfill({ response: sent, body })
      })
      await page.goto(url)
      await listTakesMapRoom(page)
      // The service has no map.js of that version (404): none runs.
      expect(asked.filter((p) => p.startsWith('/widget/map'))).toEqual(['/widget/map.js?v=0ld'])
      expect(errors).toEqual([])
    })
  })
})
