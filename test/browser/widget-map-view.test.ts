// The map on a phone, in a real browser against the demo data: shown in the list's place, taller,
// it fits the stores listed at its new size, as a search fits them; so again after the list and
// back, and with the phone turned. A map the visitor has moved stays as they left it. Turned on
// its side, the map and the list beside it are no taller than the screen.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { aTurnLater, chromiumPath, newPage, pastZoomEnd } from './browser'
import { searchFinder } from './finder-page'
import { docsSnippet, hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

/** What the callbacks read of the page's elements (this program is typed without the DOM's types). */
type Rect = { left: number; right: number; top: number; bottom: number; width: number; height: number }
type Boxes = { querySelector: (s: string) => { getBoundingClientRect: () => Rect } | null } & {
  querySelectorAll: (s: string) => Iterable<{ getBoundingClientRect: () => Rect }>
}

/**
 * Whether the map is fitted to its stores and the search's centre at its size now: every point
 * within it, and one zoom step more (twice their spread) would not fit them in the room a fit
 * keeps (map.ts: 24 px at the sides, 44 above and below; at the left more by the zoom buttons).
 * And the fit's zoom is over: during it the pins glide to their end while the zoom and the scale
 * keep the old view's until Leaflet drops .leaflet-zoom-anim, and a zoom asked for is dropped.
 */
const fitted = (page: Page) =>
  page.evaluate(() => {
    const { document } = globalThis as unknown as { document: Boxes }
    const map = document.querySelector('.sl-map')!.getBoundingClientRect()
    const points = [...document.querySelectorAll('.sl-marker')].map((el) => {
      const b = el.getBoundingClientRect()
      return [b.left + b.width / 2, b.bottom] as const
    })
    const here = document.querySelector('.sl-here')?.getBoundingClientRect()
    if (here) points.push([here.left + here.width / 2, here.top + here.height / 2])
    const xs = points.map((p) => p[0])
    const ys = points.map((p) => p[1])
    const inside = points.every(([x, y]) => x >= map.left && x <= map.right && y >= map.top && y <= map.bottom)
    const spread = [Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)]
    const tight = 2 * spread[0]! > map.width - 48 - 50 || 2 * spread[1]! > map.height - 88
    const zooming = document.querySelector('.leaflet-zoom-anim') !== null
    return points.length > 1 && inside && tight && !zooming
  })

/** Waits till the map's box is `height` px tall (±2) and fitted, within 10 s (a loaded machine's fit). */
async function fittedAt(page: Page, height: number, what: string) {
  let last = { height: 0, fitted: false }
  for (let i = 0; i < 100; i++) {
    const box = (await page.locator('.sl-map').boundingBox())!
    last = { height: Math.round(box.height), fitted: await fitted(page) }
    if (Math.abs(box.height - height) <= 2 && last.fitted) return
    await Bun.sleep(100)
  }
  expect({ what, ...last }).toEqual({ what, height, fitted: true })
}

describe.skipIf(chromiumPath === null)('the map on a phone, in Chromium', () => {
  test("shown in the list's place it fits the stores at its new size; after the list and back, and turned, too", async () => {
    const page = await newPage(demo.browser, PHONE)
    try {
      // Edinburgh's five stores lie close together: the taller map zooms in on them.
      await searchFinder(page, demo.server, 'Edinburgh')
      await page.locator('.sl-pin').nth(4).waitFor()
      await fittedAt(page, 280, 'below the list')
      await page.getByRole('button', { name: 'Show map' }).tap()
      const tall = Math.round(844 * 0.7)
      await fittedAt(page, tall, 'the map shown')
      await page.getByRole('button', { name: 'Show list' }).tap()
      await fittedAt(page, 280, 'the list again')
      await page.getByRole('button', { name: 'Show map' }).tap()
      await fittedAt(page, tall, 'the map again')
      // Turned: list and map side by side, then the map alone again.
      await page.setViewportSize({ width: 844, height: 390 })
      const side = (await page.locator('.sl-map').boundingBox())!
      expect(side.width).toBeGreaterThan(400)
      await fittedAt(page, Math.round(side.height), 'turned')
      await page.setViewportSize({ width: 390, height: 844 })
      await fittedAt(page, tall, 'turned back')
      // Zoomed in by the visitor: the list and back keep their view, not the fit.
      const scale = page.locator('.leaflet-control-scale-line').first()
      const before = await scale.textContent()
      await page.getByRole('button', { name: 'Zoom in' }).tap()
      await page.waitForFunction((before) => {
        const { document } = globalThis as unknown as {
          document: { querySelector: (s: string) => { textContent: string } }
        }
        return document.querySelector('.leaflet-control-scale-line').textContent !== before
      }, before)
      const zoomed = await scale.textContent()
      await page.getByRole('button', { name: 'Show list' }).tap()
      await page.getByRole('button', { name: 'Show map' }).tap()
      await page.locator('.sl-results').waitFor({ state: 'hidden' })
      // The map's new size is seen in a frame's resize callbacks: a fit made then would zoom after it.
      await aTurnLater(page)
      await pastZoomEnd(page)
      expect(await scale.textContent()).toBe(zoomed)
    } finally {
      await page.close()
    }
  })

  test("turned on its side on a business's page, the map and the list beside it fit in the screen", async () => {
    const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'
    const host = hostPage(docsSnippet(demo.server.url, demo.server.token), VIEWPORT)
    const page = await newPage(demo.browser, PHONE)
    try {
      await searchFinder(page, demo.server, 'Edinburgh', { url: host.url })
      await page.locator('.sl-pin').nth(4).waitFor()
      await page.getByRole('button', { name: 'Show map' }).tap()
      await fittedAt(page, Math.round(844 * 0.7), 'the map shown')
      // Side by side now, as the page's 480 px asks (--sl-map-height), but within 390 px.
      await page.setViewportSize({ width: 844, height: 390 })
      const list = (await page.locator('.sl-results').boundingBox())!
      expect(list.height).toBeLessThanOrEqual(390)
      await fittedAt(page, 390, 'turned')
    } finally {
      host.stop()
      await page.close()
    }
  })

  test('on a phone on its side, the map shown has the stores "Show more stores" added too', async () => {
    // 667 x 375: the list above the map still, the map as high listed as shown alone (280 px).
    const page = await newPage(demo.browser, { ...PHONE, viewport: { width: 667, height: 375 } })
    try {
      await searchFinder(page, demo.server)
      await page.locator('.sl-pin').nth(9).waitFor()
      await page.getByRole('button', { name: 'Show more stores' }).tap()
      await page.locator('.sl-pin').nth(19).waitFor()
      await page.getByRole('button', { name: 'Show map' }).tap()
      await fittedAt(page, 280, 'the map shown')
    } finally {
      await page.close()
    }
  })
})
