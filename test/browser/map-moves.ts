// The widget's map as it moves: how many times its view moves after a key or a drag, counted until
// the move is over (an event, not a delay a slow page outlasts), and a drag quick enough to glide.
import type { Page } from 'playwright-core'
import type { PageDocument } from './browser'

type Observer = {
  observe: (target: unknown, options: { attributes: boolean; attributeFilter?: string[] }) => void
  disconnect: () => void
  takeRecords: () => unknown[]
}

/** The page's globals, as the callbacks here use them. */
type Globals = {
  document: PageDocument & {
    elementFromPoint: (x: number, y: number) => { dispatchEvent: (e: unknown) => void }
  }
  addEventListener: (type: string, f: () => void, options: object) => void
  MutationObserver: new (callback: () => void) => Observer
  MouseEvent: new (type: string, init: object) => unknown
  requestAnimationFrame: (f: () => void) => void
  moved: Promise<Moves>
}

/**
 * The map's moves after a key or a drag: how many (its pane's attribute changes, a batch at a
 * time), and whether Leaflet glided (its class on the pane while a pan animates), which a slow
 * page does in as few frames as it has, but does.
 */
export type Moves = { moves: number; glided: boolean }

/**
 * Counts the map's moves from the page's next `event` (a key's, a drag's end) until the move it
 * sets going is over: a pan's glide starts by the frame after the event's, if at all, and its
 * end is the move's. Resolves once listening, with what resolves with the moves.
 */
export async function countMoves(page: Page, event: 'keydown' | 'mouseup'): Promise<() => Promise<Moves>> {
  await page.evaluate((event) => {
    const g = globalThis as unknown as Globals
    const pane = g.document.querySelector('.leaflet-map-pane')!
    let n = 0
    let glided = false
    const gliding = () => pane.classList.contains('leaflet-pan-anim')
    const observer = new g.MutationObserver(() => {
      n++
      glided ||= gliding()
    })
    const counted = () => {
      if (observer.takeRecords().length > 0) n++
      observer.disconnect()
      return { moves: n, glided }
    }
    const over = (done: (moves: Moves) => void) => {
      if (!gliding()) return done(counted())
      glided = true
      const ended = new g.MutationObserver(() => {
        if (gliding()) return
        ended.disconnect()
        done(counted())
      })
      ended.observe(pane, { attributes: true, attributeFilter: ['class'] })
    }
    // Counted from before Leaflet's listeners (capture, on the window), looked at after them and
    // after the frame they ask for.
    g.moved = new Promise((done) =>
      g.addEventListener(
        event,
        () => {
          observer.observe(pane, { attributes: true })
          setTimeout(() => g.requestAnimationFrame(() => setTimeout(() => over(done))))
        },
        { once: true, capture: true },
      ),
    )
  }, event)
  return () => page.evaluate(() => (globalThis as unknown as Globals).moved)
}

/**
 * Drags the map from (`x`, `y`) by `dx` in five moves 8 ms apart and lets go at once, all in one
 * task of the page: Leaflet glides on after a drag whose moves came within 50 ms of its end (by
 * the clock, as it reads them), which moves a frame apart miss when a loaded machine's frames
 * are slow. The page's own mouse events, so the test's round trips to the page do not slow it.
 */
export async function quickDrag(page: Page, x: number, y: number, dx: number): Promise<void> {
  await page.evaluate(
    ([x, y, dx]) => {
      const g = globalThis as unknown as Globals
      const target = g.document.elementFromPoint(x!, y!)
      const send = (type: string, by: number) =>
        target.dispatchEvent(
          new g.MouseEvent(type, { bubbles: true, cancelable: true, clientX: x! + by, clientY: y!, button: 0 }),
        )
      const wait = (ms: number) => {
        const until = Date.now() + ms
        while (Date.now() < until) {}
      }
      send('mousedown', 0)
      for (let step = 1; step <= 5; step++) {
        wait(8)
        send('mousemove', (dx! * step) / 5)
      }
      send('mouseup', dx!)
    },
    [x, y, dx],
  )
}
