// The map's credit on a phone, in a real browser: a tile server's long credit wraps beside the
// scale, wholly in the map, and covers no part of the scale.
import { describe, expect, test } from 'bun:test'
import { chromiumPath, newPage } from './browser'
import { openFirstMap } from './map-rest'
import { hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

/** A credit as tiles' terms ask for: longer than a phone's map is wide, on one line. */
const CREDIT = '© OpenStreetMap contributors, © Example Maps, tiles under CC BY 4.0, data under ODbL'

describe.skipIf(chromiumPath === null)("the map's credit on a phone, in Chromium", () => {
  test('on a 360 px phone a long credit wraps beside the scale, covering none of it', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 360, height: 760 }, isMobile: true, hasTouch: true })
    const { url, stop } = hostPage(
      `<div data-storeloc="${demo.server.token}" data-tiles="/tiles/{z}/{x}/{y}.png" data-tiles-attribution="${CREDIT}"></div><script src="${demo.server.url}/widget.js"></script>`,
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
    )
    try {
      await openFirstMap(page, () => page.goto(url))
      await page.locator('.leaflet-tile-loaded').first().waitFor()
      const credit = page.locator('.leaflet-control-attribution')
      expect(await credit.textContent()).toContain(CREDIT)
      const map = (await page.locator('.sl-map').boundingBox())!
      const scale = (await page.locator('.leaflet-control-scale').boundingBox())!
      const box = (await credit.boundingBox())!
      // The scale's lines (two: no unit given) and its box of 100 px, left of the credit's.
      expect(scale.width).toBeGreaterThanOrEqual(100)
      expect({ scale, credit: box, beside: box.x >= scale.x + scale.width }).toEqual({
        scale,
        credit: box,
        beside: true,
      })
      // Wrapped, not cut: wholly in the map.
      expect(box.height).toBeGreaterThan(20)
      expect(box.x + box.width).toBeLessThanOrEqual(map.x + map.width)
      expect(box.y).toBeGreaterThanOrEqual(map.y)
    } finally {
      await page.close()
      stop()
    }
  })
})
