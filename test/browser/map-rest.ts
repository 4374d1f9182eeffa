// The widget's map at rest: what the browser tests that read its bubbles, dots and pins wait for,
// in place of a quiet network and a delay, which a slow page outlasts.
import { errors, type Page, type Response } from 'playwright-core'
import type { PageDocument } from './browser'

/** GET /clusters's box for the whole world: the widget's first ask. */
const WORLD = '-180,-90,180,90'

type Answer = { data: { clusters: { count: number }[]; locations: { name: string }[]; total: number } }

const clustersFor = (world: boolean) => (r: Response) =>
  r.url().includes('/clusters?') && (new URL(r.url()).searchParams.get('bbox') === WORLD) === world

/** How long each of openFirstMap's waits lasts: as long as the pages' actions (browser.ts's newContext). */
const WAIT_MS = 10_000

/** `wait`, its timeout said as `what()` was not seen within WAIT_MS: a slow machine's failure names what it waited for. */
const within = <T>(what: () => string, wait: Promise<T>): Promise<T> =>
  wait.catch((e: unknown) => {
    if (!(e instanceof errors.TimeoutError)) throw e
    throw new Error(`openFirstMap: ${what()} within ${WAIT_MS / 1000} s`, { cause: e })
  })

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
  const timeout = { timeout: WAIT_MS }
  const noWorld = "no answer of GET /clusters for the world's box"
  let worldSeen = false
  // Each body is read once, as its response comes: Chromium may have dropped it by a later read.
  let worldAnswer: Answer['data'] | undefined
  const world = within(
    () => noWorld,
    page
      .waitForResponse(async (r) => {
        if (!clustersFor(true)(r)) return false
        worldSeen = true
        // Dropped as the view's may be (its request aborted by a move): the next world's answer counts.
        const read = await answer(r).catch(() => null)
        if (read === null) return false
        worldAnswer = read
        return true
      }, timeout)
      .then(() => worldAnswer as Answer['data']),
  )
  // Its failure is whole's too, which names it: not left unhandled as whole fails first.
  world.catch(() => {})
  /** The totals of the views' answers read so far, for the message of a wait that fails. */
  const totals: number[] = []
  let viewAnswer: Answer['data'] | undefined
  const whole = within(
    () =>
      worldSeen
        ? `no answer of GET /clusters for a view holding every store (views' totals: ${totals.join(', ') || 'none'})`
        : noWorld,
    page.waitForResponse(async (r) => {
      if (!clustersFor(false)(r)) return false
      // An answer the page dropped (its request aborted by the next move) may have no body to read.
      const read = await answer(r).catch(() => null)
      if (read === null) return false
      totals.push(read.total)
      if (read.total !== (await world).total) return false
      viewAnswer = read
      return true
    }, timeout),
  )
  await open()
  const response = await whole
  const view = viewAnswer as Answer['data']
  // Its stores all drawn, in bubbles and dots: a map too small for its clusters joins some (clusters.ts).
  const stores = view.clusters.reduce((sum, c) => sum + c.count, 0) + view.locations.length
  const drawn = { stores, dots: view.locations.map((l) => l.name) }
  await within(
    () => `the map drew no ${stores} stores in bubbles and dots of ${response.url()}`,
    page.waitForFunction(
      (drawn) => {
        const { document } = globalThis as unknown as { document: PageDocument }
        const dots = Array.from(document.querySelectorAll('.sl-dot')).map((d) => d.getAttribute('aria-label')!)
        // A bubble's name ends with its count written whole ("5.9K: 5,930 stores", "12 345 magasins").
        const counts = Array.from(document.querySelectorAll('.sl-cluster')).map((b) => {
          const numbers = b.getAttribute('aria-label')!.match(/\d[\d.,\s]*\d|\d/g)!
          return Number(numbers[numbers.length - 1]!.replace(/\D/g, ''))
        })
        return (
          counts.reduce((sum, n) => sum + n, dots.length) === drawn.stores &&
          dots.every((name) => drawn.dots.includes(name)) &&
          document.querySelector('.leaflet-zoom-anim') === null
        )
      },
      drawn,
      timeout,
    ),
  )
  return { world: await world, view, url: response.url() }
}

let calls = 0

/**
 * Resolves once the map is drawn and still: no zoom animation under way, and its panes and pins
 * where they were a frame before (a pan glides frame by frame). Called after the change that moves
 * the map.
 */
export async function mapAtRest(page: Page): Promise<void> {
  // A key of this call's own: a view kept by an earlier call is no frame before.
  const key = `slMapAt${++calls}`
  await page.waitForFunction((key) => {
    type Box = { getBoundingClientRect: () => { x: number; y: number } }
    type Document = { querySelector: (s: string) => unknown; querySelectorAll: (s: string) => ArrayLike<Box> }
    const { document } = globalThis as unknown as { document: Document }
    const at = (s: string) => Array.from(document.querySelectorAll(s)).map((e) => e.getBoundingClientRect())
    // No map yet (its code still loading) is no map at rest.
    const view =
      document.querySelector('.leaflet-zoom-anim') === null && document.querySelector('.leaflet-map-pane') !== null
        ? JSON.stringify(at('.leaflet-map-pane, .sl-marker, .sl-pin').map((r) => [r.x, r.y]))
        : ''
    const before = globalThis as unknown as Record<string, string>
    const still = view !== '' && view === before[key]
    before[key] = view
    return still
  }, key)
}
