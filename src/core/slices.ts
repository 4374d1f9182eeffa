// Work written as a generator that yields between its steps, run at once or in slices of a few
// milliseconds with other work (a server's other requests) run between them.

/** A generator's result, run at once. */
export function atOnce<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/** How long work runs before it lets the event loop answer others (ms). */
export const SLICE_MS = 4
/** Resolves once the event loop has run what waits (a server's requests, its timers). */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** A generator's result, run in slices of SLICE_MS with other work run between them. */
export async function inSlices<T>(steps: Generator<void, T>): Promise<T> {
  let since = performance.now()
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    if (performance.now() - since < SLICE_MS) continue
    await nextTurn()
    since = performance.now()
  }
}
