// The map's cluster bubbles where room is short, in a real browser: a bubble whose cluster is
// dragged a few px from the view's edge stays whole in it, and stays where the drag left it; a
// drag's step sets again only the bubbles it moves; a small map at the world's view draws its many
// clusters joined into fewer bubbles, none covering another, their counts adding up to every
// store; a small map's bubbles, their rings included, and dots stand off its zoom buttons.
import { describe, expect, test } from 'bun:test'
import type { Request } from 'playwright-core'
import { chromiumPath, newPage, type PageDocument } from './browser'
import { answerPlaced, type Bubble, type BubbleElement, bubblesOf, twoFrames } from './map-bubbles'
import { openFirstMap } from './map-rest'
import { hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

describe.skipIf(chromiumPath === null)('cluster bubbles where room is short, in Chromium', () => {
  test('a bubble dragged a few px from the edge stays whole in the view, and stays where the drag leaves it', async () => {
    // Without motion: no glide after the drag, which would move the map on.
    // Tall enough for the whole map to be in sight, below the search form.
    const page = await newPage(demo.browser, { viewport: { width: 1000, height: 1100 }, reducedMotion: 'reduce' })
    try {
      await answerPlaced(page, [
        { lat: 48.85, lng: 2.35, count: 500 },
        { lat: 52.52, lng: 13.4, count: 300 },
      ])
      await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${demo.server.token}`))
      const map = (await page.locator('.sl-map').boundingBox())!
      const east = (bubbles: Bubble[]) => bubbles.find((b) => b.count === 300)!
      // Fitted, 30 px in from the edges or more: drawn on its cluster's place.
      const start = east(await bubblesOf(page))
      // Dragged by whole px, from the map's empty top, until its place is 4 px in from the east edge.
      const dx = Math.round(map.x + map.width - 4 - start.x)
      expect(dx).toBeGreaterThan(20)
      const [x, y] = [map.x + 200, map.y + 100]
      await page.mouse.move(x, y)
      await page.mouse.down()
      for (let step = 1; step <= 10; step++) await page.mouse.move(x + (dx * step) / 10, y)
      await twoFrames(page)
      const dragged = east(await bubblesOf(page))
      // Let go: the drag's end, and the view's clusters drawn again, leave it where it is.
      const answered = page.waitForResponse((r) => r.url().includes('/clusters?'))
      await page.mouse.up()
      await answered
      await twoFrames(page)
      const left = east(await bubblesOf(page))
      expect(Math.abs(left.x - dragged.x)).toBeLessThanOrEqual(1)
      expect(Math.abs(left.y - dragged.y)).toBeLessThanOrEqual(1)
      // Its place 4 px in: the bubble wholly in the view, not cut by its edge (a px of rounding aside).
      expect(dragged.x + dragged.width / 2).toBeLessThanOrEqual(map.x + map.width + 1)
    } finally {
      await page.close()
    }
  })

  test('a drag step over 260 bubbles sets again only those it moves, by the edges', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 1000, height: 1100 }, reducedMotion: 'reduce' })
    try {
      // A grid 2 degrees by 1.5 apart: 40 px or more at the fitted view, none pushed by another.
      const placed = Array.from({ length: 260 }, (_, i) => ({
        lat: 36 + (i % 13) * 1.5,
        lng: -10 + Math.floor(i / 13) * 2,
        count: 5 + (i % 50),
      }))
      await answerPlaced(page, placed)
      await openFirstMap(page, () => page.goto(`${demo.server.url}/l/${demo.server.token}`))
      const map = (await page.locator('.sl-map').boundingBox())!
      const bubbles = (await bubblesOf(page)).length
      expect(bubbles).toBeGreaterThan(200)
      // Counts each bubble's place set (Leaflet's setPosition keeps it on the element), whatever it is.
      await page.evaluate(() => {
        const g = globalThis as unknown as { document: PageDocument; sets: number }
        g.sets = 0
        for (const el of Array.from(g.document.querySelectorAll('.sl-cluster'))) {
          let pos = (el as unknown as { _leaflet_pos: unknown })._leaflet_pos
          Object.defineProperty(el, '_leaflet_pos', {
            get: () => pos,
            set: (value) => {
              g.sets++
              pos = value
            },
          })
        }
      })
      const [x, y] = [map.x + 300, map.y + 100]
      await page.mouse.move(x, y)
      await page.mouse.down()
      const steps = 10
      for (let step = 1; step <= steps; step++) await page.mouse.move(x + step * 15, y + step * 3)
      await twoFrames(page)
      const sets = await page.evaluate(() => (globalThis as unknown as { sets: number }).sets)
      await page.mouse.up()
      // A step moves the bubbles by the edges within the view; the map's pane carries the rest.
      expect(sets).toBeGreaterThan(0)
      expect(sets / steps).toBeLessThan(bubbles / 10)
    } finally {
      await page.close()
    }
  })

  // A fit keeps 30 px round the clusters: the north-west one lands under the buttons, a bubble or a
  // store alone (its dot).
  for (const nw of [120, 1])
    test(`on a 300 x 250 map nothing stands under the zoom buttons, the ${nw === 1 ? 'dot' : 'bubble'} fitted by them included`, async () => {
      const page = await newPage(demo.browser, { viewport: { width: 700, height: 700 } })
      const placed = [
        { lat: 50, lng: 0, count: nw },
        { lat: 47, lng: 5, count: 80 },
        { lat: 44.6, lng: 10.5, count: 60 },
        { lat: 45, lng: 1, count: 40 },
      ]
      const { url, stop } = hostPage(
        `<div style="width: 302px" data-storeloc="${demo.server.token}"></div><script src="${demo.server.url}/widget.js"></script>`,
        '<style>.sl-map { height: 252px !important; }</style>',
      )
      try {
        await answerPlaced(page, placed)
        await openFirstMap(page, () => page.goto(url))
        await twoFrames(page)
        const buttons = (await page.locator('.leaflet-control-zoom').boundingBox())!
        const bubbles = await bubblesOf(page)
        const dots = await page.locator('.sl-dot').evaluateAll((els) =>
          els.map((el) => {
            const box = (el as unknown as BubbleElement).getBoundingClientRect()
            return { x: box.x + box.width / 2, y: box.y + box.height / 2, width: box.width, count: 1 }
          }),
        )
        expect(bubbles.length + dots.length).toBe(placed.length)
        // A bubble's 4 px ring included: it covers no button either.
        for (const b of [...bubbles.map((b) => ({ ...b, width: b.width + 8 })), ...dots]) {
          const r = b.width / 2
          const clear = b.x - r >= buttons.x + buttons.width - 1 || b.y - r >= buttons.y + buttons.height - 1
          expect({ bubble: b, clear }).toEqual({ bubble: b, clear: true })
        }
        if (nw !== 1) return
        // Dragged out from under them, the dot stands on its store's place, where a redraw puts it.
        const dot = page.locator('.sl-dot')
        const [x, y] = [buttons.x + 150, buttons.y + 150]
        await page.mouse.move(x, y)
        await page.mouse.down()
        for (let step = 1; step <= 5; step++) await page.mouse.move(x + step * 20, y + step * 10)
        await twoFrames(page)
        const dragged = (await dot.boundingBox())!
        const answered = page.waitForResponse((r) => r.url().includes('/clusters?'))
        await page.mouse.up()
        await answered
        await twoFrames(page)
        const redrawn = (await dot.boundingBox())!
        expect(Math.abs(dragged.x - redrawn.x)).toBeLessThanOrEqual(1)
        expect(Math.abs(dragged.y - redrawn.y)).toBeLessThanOrEqual(1)
      } finally {
        await page.close()
        stop()
      }
    })

  test('a press on a bubble joined at the world view zooms in to where its clusters part, three steps', async () => {
    // Without motion: the press sets the view at once.
    const page = await newPage(demo.browser, { viewport: { width: 800, height: 800 }, reducedMotion: 'reduce' })
    // The world's answer (made for zoom 5) fitted at zoom 1, where two clusters 6 degrees apart,
    // 8.5 px, are one bubble: they part at zoom 4 (68 px), not at 2 (17 px) nor 3 (34 px).
    const placed = [
      { lat: 48, lng: 0, count: 300 },
      { lat: 48, lng: 6, count: 100 },
      { lat: -33, lng: 151, count: 200 },
      { lat: 40, lng: -74, count: 200 },
    ]
    const { url, stop } = hostPage(
      `<div style="width: 602px" data-storeloc="${demo.server.token}"></div><script src="${demo.server.url}/widget.js"></script>`,
      '<style>.sl-map { height: 402px !important; }</style>',
    )
    try {
      const asked = (r: Request) => new URL(r.url()).searchParams
      const world = (r: Request) => asked(r).get('bbox') === '-180,-90,180,90'
      // The world's answer alone: the views' are left unanswered, so the world's stays drawn.
      await page.route('**/clusters?*', (route) => {
        if (!world(route.request())) return
        const clusters = placed.map((p, i) => ({ id: `c${i}`, ...p, expansion_zoom: 9 }))
        return route.fulfill({
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ success: true, data: { clusters, locations: [], total: 800 } }),
        })
      })
      const view = (r: Request) => r.url().includes('/clusters?') && !world(r)
      const fitted = page.waitForRequest(view)
      await page.goto(url)
      expect(asked(await fitted).get('zoom')).toBe('0')
      const joined = page.locator('.sl-cluster[aria-label^="400 stores"]')
      await joined.waitFor()
      const pressed = page.waitForRequest((r) => view(r) && asked(r).get('zoom') !== '0')
      await joined.click()
      // GET /clusters's zoom is the map's less one.
      expect(asked(await pressed).get('zoom')).toBe('3')
    } finally {
      await page.close()
      stop()
    }
  })

  test('90 clusters on a 200 x 150 map at the world view are joined into bubbles apart, adding up to every store', async () => {
    const page = await newPage(demo.browser, { viewport: { width: 600, height: 600 } })
    // A grid, 10 by 9, 20 degrees apart in longitude, 10.5 in latitude, of 2 to 1,762 stores each:
    // 128 x 68 px at zoom 0, which a fit shows whole on this map, at that zoom.
    const placed = Array.from({ length: 90 }, (_, i) => ({
      lat: -35 + Math.floor(i / 10) * 10.5,
      lng: -100 + (i % 10) * 20,
      count: 2 + ((i * 37) % 89) ** 2 / 4.4,
    })).map((p) => ({ ...p, count: Math.round(p.count) }))
    const total = placed.reduce((sum, p) => sum + p.count, 0)
    // The map's box 200 x 150 px inside its border.
    const { url, stop } = hostPage(
      `<div style="width: 202px" data-storeloc="${demo.server.token}"></div><script src="${demo.server.url}/widget.js"></script>`,
      '<style>.sl-map { height: 152px !important; }</style>',
    )
    try {
      await answerPlaced(page, placed)
      const view = page.waitForResponse(
        (r) => r.url().includes('/clusters?') && !r.url().includes('bbox=-180%2C-90%2C180%2C90'),
      )
      await page.goto(url)
      // Asked once the map is fitted: what is drawn then is at the fitted view, once no zoom animates.
      await view
      await page.waitForFunction((total) => {
        const { document } = globalThis as unknown as { document: PageDocument }
        const names = Array.from(document.querySelectorAll('.sl-cluster')).map((b) => b.getAttribute('aria-label')!)
        const counts = names.map((name) => Number(/([\d,]+) stores/.exec(name)![1]!.replaceAll(',', '')))
        return counts.reduce((sum, n) => sum + n, 0) === total && document.querySelector('.leaflet-zoom-anim') === null
      }, total)
      await twoFrames(page)
      const map = (await page.locator('.sl-map').boundingBox())!
      expect(Math.round(map.width)).toBe(202)
      expect(Math.round(map.height)).toBe(152)
      const bubbles = await bubblesOf(page)
      expect(bubbles.reduce((sum, b) => sum + b.count, 0)).toBe(total)
      expect(bubbles.length).toBeLessThan(20)
      for (const [i, a] of bubbles.entries()) {
        // Each wholly within the map, a px of rounding aside.
        expect(a.x - a.width / 2).toBeGreaterThanOrEqual(map.x - 1)
        expect(a.x + a.width / 2).toBeLessThanOrEqual(map.x + map.width + 1)
        expect(a.y - a.width / 2).toBeGreaterThanOrEqual(map.y - 1)
        expect(a.y + a.width / 2).toBeLessThanOrEqual(map.y + map.height + 1)
        // A ring (4 px, less a px of rounding) may meet another's, but covers no disc.
        for (const b of bubbles.slice(i + 1))
          expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThanOrEqual((a.width + b.width) / 2 + 4 - 1)
      }
    } finally {
      await page.close()
      stop()
    }
  })
})
