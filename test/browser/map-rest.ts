// The widget's map at rest: what the browser tests that read its bubbles, dots and pins wait for,
// in place of a quiet network and a delay, which a slow page outlasts.
import type { Page, Response } from 'playwright-core'
import type { PageDocument } from './browser'

/** GET /clusters's box for the whole world: the widget's first ask. */
const WORLD = '-180,-90,180,90'

type Answer = { data: { clusters: { count: number }[]; locations: { name: string }[]; total: number } }

const clustersFor = (world: boolean) => (r: Response) =>
  r.url().includes('/clusters?') && (new URL(r.url()).searchParams.get('bbox') === WORLD) === world

/**
 * Runs `open` (the page's goto) and resolves, with the world's answer, the view's and its URL, once the map
 * has drawn the clusters
 * of a view that holds every store the world's answer does. The widget fits its view to the
 * world's clusters, then zooms out while the view's answer holds fewer (browse.ts); it moves the map
 * no further after such an answer, which follows a move's end.
 */
export async function openFirstMap(
  page: Page,
  open: () => Promise<unknown>,
): Promise<{ world: Answer['data']; view: Answer['data']; url: string }> {
  const answer = async (r: Response) => ((await r.json()) as Answer).data
  const world = page.waitForResponse(clustersFor(true)).then(answer)
  const whole = page.waitForResponse(
    // An answer the page dropped (its request aborted by the next move) may have no body to read.
    async (r) => clustersFor(false)(r) && (await answer(r).catch(() => null))?.total === (await world).total,
  )
  await open()
  const response = await whole
  const view = await answer(response)
  const drawn = { clusters: view.clusters.length, dots: view.locations.map((l) => l.name).sort() }
  await page.waitForFunction((drawn) => {
    const { document } = globalThis as unknown as { document: PageDocument }
    const dots = Array.from(document.querySelectorAll('.sl-dot')).map((d) => d.getAttribute('aria-label'))
    return (
      document.querySelectorAll('.sl-cluster').length === drawn.clusters &&
      JSON.stringify(dots.sort()) === JSON.stringify(drawn.dots) &&
      document.querySelector('.leaflet-zoom-anim') === null
    )
  }, drawn)
  return { world: await world, view, url: response.url() }
}

let calls = 0

/**
 * Resolves once the map is still: no zoom animation under way, and its panes and pins where they
 * were a frame before (a pan glides frame by frame). Called after the change that moves the map.
 */
export async function mapAtRest(page: Page): Promise<void> {
  // A key of this call's own: a view kept by an earlier call is no frame before.
  const key = `slMapAt${++calls}`
  await page.waitForFunction((key) => {
    type Box = { getBoundingClientRect: () => { x: number; y: number } }
    type Document = { querySelector: (s: string) => unknown; querySelectorAll: (s: string) => ArrayLike<Box> }
    const { document } = globalThis as unknown as { document: Document }
    const at = (s: string) => Array.from(document.querySelectorAll(s)).map((e) => e.getBoundingClientRect())
    const view =
      document.querySelector('.leaflet-zoom-anim') === null
        ? JSON.stringify(at('.leaflet-map-pane, .sl-marker, .sl-pin').map((r) => [r.x, r.y]))
        : ''
    const before = globalThis as unknown as Record<string, string>
    const still = view !== '' && view === before[key]
    before[key] = view
    return still
  }, key)
}
