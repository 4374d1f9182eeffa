// The map's credit on a phone, in a real browser: a tile server's long credit wraps beside the
// scale, wholly in the map, and covers no part of the scale; on a map too narrow for its words
// beside the scale (a phone's page zoomed in), the scale stands on it.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumPath, newPage, type PageDocument } from './browser'
import { openFirstMap } from './map-rest'
import { hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

/** A credit as tiles' terms ask for: longer than a phone's map is wide, on one line. */
const CREDIT = '© OpenStreetMap contributors, © Example Maps, tiles under CC BY 4.0, data under ODbL'

type Box = { x: number; y: number; width: number; height: number }

/**
 * A phone's page `width` px wide whose map has CREDIT and tiles that load (under `tiles`, else the
 * host's page, no image); `run` gets it and its address.
 */
async function onPhone(
  width: number,
  run: (page: Page, url: string) => Promise<void>,
  tiles = '/tiles',
): Promise<void> {
  const page = await newPage(demo.browser, { viewport: { width, height: 760 }, isMobile: true, hasTouch: true })
  const { url, stop } = hostPage(
    `<div data-storeloc="${demo.server.token}" data-tiles="${tiles}/{z}/{x}/{y}.png" data-tiles-attribution="${CREDIT}"></div><script src="${demo.server.url}/widget.js"></script>`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
  )
  try {
    await run(page, url)
  } finally {
    await page.close()
    stop()
  }
}

const boxOf = async (page: Page, selector: string): Promise<Box> => (await page.locator(selector).boundingBox())!

describe.skipIf(chromiumPath === null)("the map's credit on a phone, in Chromium", () => {
  test('on a 360 px phone a long credit wraps beside the scale, covering none of it', async () => {
    await onPhone(360, async (page, url) => {
      await openFirstMap(page, () => page.goto(url))
      await page.locator('.leaflet-tile-loaded').first().waitFor()
      const credit = page.locator('.leaflet-control-attribution')
      expect(await credit.textContent()).toContain(CREDIT)
      const map = await boxOf(page, '.sl-map')
      const scale = await boxOf(page, '.leaflet-control-scale')
      const box = await boxOf(page, '.leaflet-control-attribution')
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
    })
  })

  test('on a 360 px phone zoomed to 200 % (180 px) the scale stands on the credit, which is whole', async () => {
    // Its map 164 px wide: "contributors," is wider than the room right of the scale's box.
    await onPhone(180, async (page, url) => {
      await page.goto(url)
      await page.locator('.leaflet-tile-loaded').first().waitFor()
      const credit = page.locator('.leaflet-control-attribution')
      expect(await credit.textContent()).toContain(CREDIT)
      const map = await boxOf(page, '.sl-map')
      const scale = await boxOf(page, '.leaflet-control-scale')
      const box = await boxOf(page, '.leaflet-control-attribution')
      expect({ scale, credit: box, above: scale.y + scale.height <= box.y + 1 }).toEqual({
        scale,
        credit: box,
        above: true,
      })
      // Both wholly in the map.
      for (const b of [scale, box]) {
        expect(b.x).toBeGreaterThanOrEqual(map.x)
        expect(b.x + b.width).toBeLessThanOrEqual(map.x + map.width)
        expect(b.y).toBeGreaterThanOrEqual(map.y)
      }
    })
  })

  test('at 180 px, tiles that fail take their credit off, and the scale goes back to the corner', async () => {
    await onPhone(
      180,
      async (page, url) => {
        await page.goto(url)
        const credit = page.locator('.leaflet-control-attribution')
        await credit.waitFor()
        // The tiles dropped, and their credit: Leaflet's own, short, is left.
        await page.waitForFunction(
          (credit) =>
            !(globalThis as unknown as { document: PageDocument }).document
              .querySelector('.sl-map.leaflet-container .leaflet-control-attribution')
              ?.textContent?.includes(credit),
          CREDIT,
        )
        const map = await boxOf(page, '.sl-map')
        const scale = await boxOf(page, '.leaflet-control-scale')
        // Its foot 5 px over the map's (and its 1 px border), as on any map.
        expect({ scale, map, gap: Math.round(map.y + map.height - (scale.y + scale.height)) }).toEqual({
          scale,
          map,
          gap: 6,
        })
      },
      '/no-tiles',
    )
  })
})
