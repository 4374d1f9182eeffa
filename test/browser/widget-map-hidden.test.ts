// A finder hidden by its page (a tab not shown: display none), in a real browser against the demo
// data: its map, at 0 x 0 meanwhile, keeps its view and asks for nothing; shown again, it shows
// what it showed.
import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { chromiumPath, networkSettled, newPage, pastZoomEnd, watchRequests } from './browser'
import { hostPage, useDemoBrowser } from './server'

const demo = useDemoBrowser()

/** The map's scale as it reads: its zoom, at the latitude shown. */
const view = (page: Page) =>
  page.evaluate<string>("document.querySelector('#f .leaflet-control-scale-line').textContent")

const display = (page: Page, value: string) =>
  page.evaluate(`document.querySelector('#tab').style.display = '${value}'`)

describe.skipIf(chromiumPath === null)('a finder its page hides, in Chromium', () => {
  test('hidden before any search, its map asks for no clusters, and shows the same view again', async () => {
    const host = hostPage(
      `<div id="tab"><div id="f" data-storeloc="${demo.server.token}"></div></div><script src="${demo.server.url}/widget.js"></script>`,
    )
    const page = await newPage(demo.browser, { viewport: { width: 1200, height: 800 } })
    watchRequests(page)
    const asked: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/clusters?')) asked.push(new URL(r.url()).searchParams.get('bbox') ?? '')
    })
    try {
      await page.goto(host.url)
      await page.locator('#f .sl-cluster').first().waitFor()
      await pastZoomEnd(page)
      await networkSettled(page)
      const before = await view(page)
      const shownFor = asked.length
      await display(page, 'none')
      await pastZoomEnd(page)
      await networkSettled(page)
      // At 0 x 0 a view is one point: a fit there would zoom in on it and ask for its clusters.
      expect(asked.slice(shownFor)).toEqual([])
      await display(page, '')
      await pastZoomEnd(page)
      await networkSettled(page)
      expect(await view(page)).toBe(before)
      // Shown again, what it asks for is a box, not a point.
      for (const bbox of asked.slice(shownFor)) {
        const [west, south, east, north] = bbox.split(',').map(Number)
        expect(west! < east! && south! < north!, asked.join(' ')).toBe(true)
      }
    } finally {
      host.stop()
      await page.close()
    }
  })
})
