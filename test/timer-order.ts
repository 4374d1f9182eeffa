// A bound on a wait that holds on a loaded machine: by the order due timers fire in, not by a clock.

/**
 * Whether `call` settles before a timer of `ms` fires, that timer set once the call's own start
 * (its timers included) has run. A loop's due timers fire in the order they are due, each followed
 * by the promise jobs it starts, however late a loaded machine runs them: this compares the call's
 * deadline with `ms`, not with the machine's speed. So the call must settle by promise jobs alone
 * once its deadline fires: a fallback that needed I/O after it would lose to a sentinel due as well.
 */
export async function settlesBefore(call: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false
  call.then(
    () => (settled = true),
    () => (settled = true),
  )
  await new Promise((started) => setImmediate(started))
  if (settled) return true
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    const done = () => {
      clearTimeout(timer)
      resolve(true)
    }
    call.then(done, done)
  })
}
