// The map's bubbles by its corners, in a real browser: one dragged by the zoom buttons' corner is
// drawn beside them, whole, wherever its place is, and moves no faster than the map along either
// axis; none stands on the scale or the credit.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumPath, newPage } from './browser'
import { answerPlaced, type Bubble, type BubbleElement, bubblesOf, twoFrames } from './map-bubbles'
import { openFirstMap } from './map-rest'
import { hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

/** Three clusters on one line of latitude: a fit draws them across the map's middle, clear of its corners. */
const PLACED = [
  { lat: 48, lng: -5, count: 40 },
  { lat: 48, lng: 5, count: 500 },
  { lat: 48, lng: 15, count: 60 },
]

type Box = { x: number; y: number; width: number; height: number }

/**
 * A page with a 400 x 300 map (inside its 1 px border) fitted to PLACED, without motion: no glide
 * after a drag. `run` gets the map's inner box and the middle bubble as first drawn, on its place.
 */
async function withMap(run: (page: Page, map: Box, middle: Bubble) => Promise<void>, css = ''): Promise<void> {
  const page = await newPage(demo.browser, { viewport: { width: 700, height: 700 }, reducedMotion: 'reduce' })
  const { url, stop } = hostPage(
    `<div style="width: 402px" data-storeloc="${demo.server.token}"></div><script src="${demo.server.url}/widget.js"></script>`,
    `<style>.sl-map { height: 302px !important; } ${css}</style>`,
  )
  try {
    await answerPlaced(page, PLACED)
    await openFirstMap(page, () => page.goto(url))
    await twoFrames(page)
    const outer = (await page.locator('.sl-map').boundingBox())!
    const map = { x: outer.x + 1, y: outer.y + 1, width: outer.width - 2, height: outer.height - 2 }
    await run(page, map, middleOf(await bubblesOf(page)))
  } finally {
    await page.close()
    stop()
  }
}

const middleOf = (bubbles: Bubble[]) => bubbles.find((b) => b.count === 500)!

/** Drags the map by (dx, dy) from an empty spot (x, y), in ten moves; the middle bubble as drawn then, the mouse still down. */
async function dragged(page: Page, [x, y]: [number, number], [dx, dy]: [number, number]): Promise<Bubble> {
  await page.mouse.move(x, y)
  await page.mouse.down()
  for (let step = 1; step <= 10; step++) await page.mouse.move(x + (dx * step) / 10, y + (dy * step) / 10)
  await twoFrames(page)
  return middleOf(await bubblesOf(page))
}

/** A bubble's reach, as spacing.ts keeps it clear: half its width and half its 4 px ring. */
const reach = (b: Bubble) => b.width / 2 + 2

describe.skipIf(chromiumPath === null)('bubbles by the map corners, in Chromium', () => {
  test('a bubble whose place is dragged just above and left of the corner comes in beside the buttons', async () => {
    await withMap(async (page, map, middle) => {
      const r = reach(middle)
      // Its place 3/4 of a reach out of the view both ways: drawn half out, then off the buttons.
      const [dx, dy] = [Math.round(map.x - 0.75 * r - middle.x), Math.round(map.y - 0.75 * r - middle.y)]
      const bubble = await dragged(page, [map.x + 300, map.y + 250], [dx, dy])
      const buttons = (await page.locator('.leaflet-control-zoom').boundingBox())!
      await page.mouse.up()
      // Right of the buttons, its top above their foot: beside them, not dropped below them.
      const at = { left: bubble.x - bubble.width / 2, top: bubble.y - bubble.width / 2 }
      expect(at.left).toBeGreaterThanOrEqual(buttons.x + buttons.width - 1)
      expect(at.top).toBeLessThan(buttons.y + buttons.height)
      // Whole in the view.
      expect(at.top).toBeGreaterThanOrEqual(map.y - 1)
    })
  })

  for (const control of ['scale', 'attribution'])
    test(`a bubble whose place is dragged onto the ${control === 'scale' ? 'scale' : 'credit'} stands clear of it`, async () => {
      await withMap(async (page, map, middle) => {
        const box = (await page.locator(`.leaflet-control-${control}`).boundingBox())!
        const [dx, dy] = [box.x + box.width / 2 - middle.x, box.y + box.height / 2 - middle.y].map(Math.round) as [
          number,
          number,
        ]
        // From an empty spot across the map from the control: the drag stays on the map.
        const from: [number, number] = [map.x + (dx < 0 ? 300 : 100), map.y + 60]
        const bubble = await dragged(page, from, [dx, dy])
        const after = (await page.locator(`.leaflet-control-${control}`).boundingBox())!
        await page.mouse.up()
        const half = bubble.width / 2
        // Its box beside or above the control's, a px of rounding aside.
        const clear =
          bubble.x + half <= after.x + 1 ||
          bubble.x - half >= after.x + after.width - 1 ||
          bubble.y + half <= after.y + 1
        expect({ bubble, control: after, clear }).toEqual({ bubble, control: after, clear: true })
        expect(bubble.y + half).toBeLessThanOrEqual(map.y + map.height + 1)
      })
    })

  test('a bubble whose place is dragged between the scale and a credit 20 px from it stands on neither', async () => {
    // A long credit, as tiles' terms ask for on a phone: its left end 20 px right of the scale's box (10 + 100 px).
    const css = '.sl-map .leaflet-control-attribution { width: 270px; box-sizing: border-box; }'
    await withMap(async (page, map, middle) => {
      const [scale, credit] = await Promise.all(
        ['scale', 'attribution'].map(async (c) => (await page.locator(`.leaflet-control-${c}`).boundingBox())!),
      )
      expect(credit!.x - (scale!.x + scale!.width)).toBeLessThan(reach(middle) * 2)
      const dx = Math.round(map.x + 120 - middle.x)
      const dy = Math.round(map.y + map.height - 8 - middle.y)
      const bubble = await dragged(page, [map.x + 300, map.y + 60], [dx, dy])
      await page.mouse.up()
      const half = bubble.width / 2
      // Above each control, or beside it (a px of rounding aside).
      const clear = (c: Box) =>
        bubble.x + half <= c.x + 1 || bubble.x - half >= c.x + c.width - 1 || bubble.y + half <= c.y + 1
      expect({ bubble, scale, credit, clear: [clear(scale!), clear(credit!)] }).toEqual({
        bubble,
        scale,
        credit,
        clear: [true, true],
      })
    }, css)
  })

  test("on a right-to-left page the scale's lines start at the map's corner, as on any page", async () => {
    await withMap(async (page, map) => {
      const scale = (await page.locator('.leaflet-control-scale').boundingBox())!
      const lines = await page
        .locator('.leaflet-control-scale-line')
        .evaluateAll((els) => els.map((el) => (el as unknown as BubbleElement).getBoundingClientRect()))
      // Its box is 100 px wide, wider than its lines: they keep to its left end, by the corner.
      expect(lines.length).toBeGreaterThan(0)
      for (const line of lines) {
        expect(line.width).toBeLessThan(scale.width - 1)
        expect(Math.abs(line.x - scale.x)).toBeLessThanOrEqual(1)
      }
      expect(scale.x - map.x).toBeLessThanOrEqual(11)
    }, 'html { direction: rtl; }')
  })

  test('a bubble held off the buttons moves no faster than the map along either axis', async () => {
    await withMap(async (page, map, middle) => {
      // Its place under the buttons, 20 px in from the left and 30 from the top.
      const [x, y] = [map.x + 300, map.y + 250]
      let mouse = [x + Math.round(map.x + 20 - middle.x), y + Math.round(map.y + 30 - middle.y)] as const
      let bubble = await dragged(page, [x, y], [mouse[0] - x, mouse[1] - y])
      const moves: number[] = []
      // 4 px a move: down 40, then right 40, out from under the buttons.
      const legs = [...Array(10).fill([0, 4]), ...Array(10).fill([4, 0])] as [number, number][]
      for (const [dx, dy] of legs) {
        mouse = [mouse[0] + dx, mouse[1] + dy]
        await page.mouse.move(...mouse)
        await twoFrames(page)
        const next = middleOf(await bubblesOf(page))
        moves.push(Math.hypot(next.x - bubble.x, next.y - bubble.y))
        bubble = next
      }
      await page.mouse.up()
      // As far as the map moved, 4 px, a px and a half of rounding aside (Leaflet draws at whole px).
      expect(moves.filter((m) => m > 4 + 1.5)).toEqual([])
      // It was pushed: it moved, not stood still nor followed its place alone.
      expect(moves.some((m) => m > 2)).toBe(true)
    })
  })
})
