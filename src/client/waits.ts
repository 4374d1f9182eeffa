// The client's timers and signals: a wait between tries and a try's own signal, each ended at
// once by the call's AbortSignal and leaving no timer behind once it is over.

/**
 * setTimeout's longest delay, ms (24.8 days): Node and Bun run a longer one, Infinity too, at
 * once. A longer wait or timeoutMs is this long: the script's "no limit" is not 1 ms.
 */
const LONGEST_TIMER = 2 ** 31 - 1

/** The calls' callbacks waiting on each signal a script passes them, run by one listener. */
const aborters = new WeakMap<AbortSignal, { listener: () => void; callbacks: Set<() => void> }>()

/**
 * Runs `fn` when `signal` aborts, until the returned function drops it. One listener on a signal
 * serves every call given it: Node warns past 10 on one signal (11 calls at once of a Promise.all
 * sharing a script's Ctrl-C signal), which its own fetch avoids.
 */
function onAbort(signal: AbortSignal, fn: () => void): () => void {
  let held = aborters.get(signal)
  if (held === undefined) {
    const callbacks = new Set<() => void>()
    const listener = () => {
      aborters.delete(signal)
      for (const callback of callbacks) callback()
    }
    held = { listener, callbacks }
    aborters.set(signal, held)
    signal.addEventListener('abort', listener, { once: true })
  }
  const { listener, callbacks } = held
  callbacks.add(fn)
  return () => {
    if (!callbacks.delete(fn) || callbacks.size > 0 || aborters.get(signal) !== held) return
    aborters.delete(signal)
    signal.removeEventListener('abort', listener)
  }
}

/**
 * A wait of `ms`, ended by `signal` at once with its reason, its timer cleared. The timer is not
 * unref'd: a call waiting between tries holds the process until it settles, as its fetch does.
 */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(
      () => {
        release?.()
        resolve()
      },
      Math.min(ms, LONGEST_TIMER),
    )
    const release =
      signal &&
      onAbort(signal, () => {
        clearTimeout(timer)
        reject(signal.reason)
      })
  })
}

/**
 * `work`, or the signal's reason as soon as it aborts: a fetch that does not heed its signal
 * holds the call no longer. Given the try's own signal, one listener a try.
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const stop = () => reject(signal.reason)
    // Handled even when the signal aborted already: its rejection (a body cut off) is the abort's.
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop))
    if (signal.aborted) return stop()
    signal.addEventListener('abort', stop, { once: true })
  })
}

/**
 * A try's signal: aborted by its own timer at `timeoutMs`, with a TimeoutError as fetch's own
 * timeouts give, or with the call's `signal`, its reason kept. `end` clears the timer and drops the
 * hold on the call's signal: a call leaves no timer behind, however many tries it made (an
 * AbortSignal.timeout's timer runs its length whatever happens). Combined by hand (AbortSignal.any
 * needs Node 20.3). The timer is not unref'd: a try whose fetch keeps nothing alive (a `fetch`
 * option's own) still times out, the process held till then.
 */
export function trySignal(
  timeoutMs: number,
  signal: AbortSignal | undefined,
): { signal: AbortSignal; end: () => void } {
  const tried = new AbortController()
  const timer = setTimeout(
    () => {
      tried.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))
    },
    Math.min(timeoutMs, LONGEST_TIMER),
  )
  const release = signal && onAbort(signal, () => tried.abort(signal.reason))
  let ended = false
  // Called before a wait and again on the way out: the timer is cleared once.
  const end = () => {
    if (ended) return
    ended = true
    clearTimeout(timer)
    release?.()
  }
  return { signal: tried.signal, end }
}
