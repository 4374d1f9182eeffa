// The widget's cluster bubbles as the browser tests place and read them: GET /clusters answered
// with clusters at given places, the bubbles' centres and sizes on the page, a wait for a move drawn.
import type { Page } from 'playwright-core'

export type Placed = { lat: number; lng: number; count: number }

/**
 * Answers the page's GET /clusters with the clusters of `placed` within the box it asks for,
 * wherever the view: the same clusters at the same places at each move. One of a count of 1 is a
 * store alone.
 */
export async function answerPlaced(page: Page, placed: Placed[]): Promise<void> {
  await page.route('**/clusters?*', (route) => {
    const bbox = new URL(route.request().url()).searchParams.get('bbox')!
    const [w, s, e, n] = bbox.split(',').map(Number) as [number, number, number, number]
    const inView = placed
      .map((p, i) => ({ id: `c${i}`, lat: p.lat, lng: p.lng, count: p.count, expansion_zoom: 9 }))
      .filter((c) => c.lng >= w && c.lng <= e && c.lat >= s && c.lat <= n)
    const clusters = inView.filter((c) => c.count > 1)
    const locations = inView.filter((c) => c.count === 1).map(({ id, lat, lng }) => ({ id, lat, lng, name: id }))
    const total = inView.reduce((sum, c) => sum + c.count, 0)
    return route.fulfill({
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ success: true, data: { clusters, locations, total } }),
    })
  })
}

export type Bubble = { x: number; y: number; width: number; count: number }

/** What the test reads of a bubble's element, in the page. */
export type BubbleElement = {
  getBoundingClientRect: () => { x: number; y: number; width: number; height: number }
  getAttribute: (name: string) => string
}

/** The bubbles drawn, their centres in the page's px, each with the count its name says in full. */
export const bubblesOf = (page: Page): Promise<Bubble[]> =>
  page.locator('.sl-cluster').evaluateAll((els) =>
    els.map((el) => {
      const box = (el as unknown as BubbleElement).getBoundingClientRect()
      const name = (el as unknown as BubbleElement).getAttribute('aria-label')
      const count = Number(/([\d,]+) stores/.exec(name)![1]!.replaceAll(',', ''))
      return { x: box.x + box.width / 2, y: box.y + box.height / 2, width: box.width, count }
    }),
  )

/** Resolves after the page's next two frames: what a move asked for is drawn. */
export const twoFrames = (page: Page) =>
  page.evaluate(() => {
    const { requestAnimationFrame: frame } = globalThis as unknown as { requestAnimationFrame: (f: () => void) => void }
    return new Promise<void>((done) => frame(() => frame(() => done())))
  })
