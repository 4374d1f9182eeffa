// The finder page (/l/{token}) in a real browser, around the widget it holds: its own header and
// footer on a phone; the locator's unit it names. The app answers through request interception:
// no port is opened.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { setLocatorSettings } from '../../src/operator'
import { type Fixture, makeFixture } from '../public/fixture'
import { answeredBy, chromiumPath, heldUntilReleased, launch, newPage, screenshot } from './browser'

/** The origin the pages are asked at; every request to it is answered by the fixture's app. */
const ORIGIN = 'http://stores.test'

let f: Fixture
let browser: Browser

describe.skipIf(chromiumPath === null)('the finder page in Chromium', () => {
  beforeAll(async () => {
    ;[f, browser] = await Promise.all([makeFixture(), launch()])
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    f?.env.close()
  })

  test('on a phone, a name of one long word wraps: the page never scrolls sideways', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, {
      name: 'Fahrradhandelsgesellschaft Kurfürstendammeinkaufszentrum',
    })
    const page = await newPage(browser, { viewport: { width: 320, height: 700 } })
    try {
      await answeredBy(page, ORIGIN, f.env.app)
      await page.goto(`${ORIGIN}/l/${f.token}?lang=de`)
      await page.getByRole('search').waitFor()
      await screenshot(page, 'finder-page-phone')
      const [scroll, client] = await page.locator('html').evaluate((e) => [e.scrollWidth, e.clientWidth])
      expect(scroll).toBe(client)
    } finally {
      await page.close()
    }
  })

  test('a locator in km: its first search goes without waiting for the filters, and all is in km', async () => {
    const unit = f.env.store.locators.get(f.env.locatorId)!.defaultUnit
    setLocatorSettings(f.env.store, f.env.locatorId, { unit: 'km' })
    const page = await newPage(browser, { viewport: { width: 1280, height: 900 } })
    try {
      await answeredBy(page, ORIGIN, f.env.app)
      // The filters never answered: the page, not they, names the unit.
      await heldUntilReleased(page, '**/filters*')
      const asked = page.waitForRequest((r) => new URL(r.url()).pathname.endsWith('/locations'))
      await page.goto(`${ORIGIN}/l/${f.token}?sl_place=Paris`, { waitUntil: 'commit' })
      const search = await asked
      expect(new URL(search.url()).searchParams.get('unit')).toBe('km')
      // Answered however long the place data takes to load on its first search.
      await search.response()
      await page.locator('.sl-item').first().waitFor()
      const distances = await page.locator('.sl-distance').allTextContents()
      expect(distances.length).toBeGreaterThan(0)
      expect(distances.filter((d) => !/\skm$/.test(d))).toEqual([])
      expect((await page.locator('.sl-radius option').allTextContents()).filter((o) => /mi/.test(o))).toEqual([])
      // The map's scale: one line, metric.
      await page.locator('.leaflet-control-scale-line').first().waitFor()
      const scale = await page.locator('.leaflet-control-scale-line').allTextContents()
      expect(['m', 'km']).toContain(scale.map((t) => t.split(' ')[1]).join())
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
      setLocatorSettings(f.env.store, f.env.locatorId, { unit })
    }
  })

  test('a locator in km, its snippet on a page of its own with no data-unit: the scale is metric only', async () => {
    const unit = f.env.store.locators.get(f.env.locatorId)!.defaultUnit
    setLocatorSettings(f.env.store, f.env.locatorId, { unit: 'km' })
    const page = await newPage(browser, { viewport: { width: 1280, height: 900 } })
    const shop = `<!doctype html><html lang="de"><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><div data-storeloc="${f.token}"></div><script src="${ORIGIN}/widget.js" async></script></body></html>`
    try {
      await answeredBy(page, ORIGIN, f.env.app, async (url) =>
        url.startsWith('http://shop.test/') ? { type: 'text/html; charset=utf-8', body: shop } : undefined,
      )
      await page.goto('http://shop.test/filialen.html?sl_place=Paris')
      await page.locator('.sl-item').first().waitFor()
      expect(await page.locator('.sl-distance').first().textContent()).toMatch(/\skm$/)
      await page.locator('.leaflet-control-scale-line').first().waitFor()
      const scale = await page.locator('.leaflet-control-scale-line').allTextContents()
      expect(scale.map((t) => t.split(/\s/)[1])).toEqual([expect.stringMatching(/^k?m$/)])
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await page.close()
      setLocatorSettings(f.env.store, f.env.locatorId, { unit })
    }
  })
})
