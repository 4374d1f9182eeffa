// A start's preload: every locator whose Query API is on has its index built, and its background
// work done, before the first query (PERF-005).
import type { Store } from '../store'
import type { Locator } from '../store/locators'
import type { BuildFailure } from './build-attempts'
import type { Entry } from './entry'

/**
 * A turn of the event loop later (after the timers due now: the background tasks' turn). A timer,
 * not core/slices.ts's setImmediate: waiting on timer-run tasks, that one polls ~1000 times as often.
 */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 1))

/** Whether a locator's Query API can be asked at all (active, its Query API on): the locators whose indexes are built ahead of queries. */
export const servesQueries = (locator: Locator) => locator.active && locator.queryApiEnabled

/** What preload() needs of the registry. */
export type PreloadHost = {
  store: Store
  /** The instant answers are made for (IndexRegistry.now). */
  now(): number
  sync(): void
  /** The locator's index as a query finds it, built or brought up to date (IndexRegistry.entry). */
  entry(locatorId: string): Entry
  /** The locator's index if built, without building it. */
  built(locatorId: string): Entry | undefined
  /** Whether the locator's last build failed on its rows (not on a busy database). */
  failedOnRows(locatorId: string): boolean
  failures(): BuildFailure[]
}

/**
 * Builds the index of every locator whose Query API is on, one after another, and resolves when
 * the work each build leaves to background tasks (the public JSON, FlexSearch, the name order) is
 * done too: the build blocks the event loop, and its tasks take longer still (PERF-005).
 * Otherwise the first query after a start waits for the build, and the next ones share the core
 * with those tasks. A locator whose settings change meanwhile is waited for as it is after the
 * change. Needs the default schedule (tasks that run by themselves).
 */
export async function preload(
  host: PreloadHost,
): Promise<{ locators: number; locations: number; failed: BuildFailure[] }> {
  const ids: string[] = []
  for (const locator of host.store.locators.list()) {
    if (!servesQueries(locator)) continue
    host.sync() // as a query does before it asks for an entry
    try {
      // Its open states found too: at 100k, ~100 ms the first answer would otherwise wait.
      host.entry(locator.id).index.openAt(host.now())
      ids.push(locator.id)
    } catch (e) {
      // One locator's bad rows must not keep the others from loading (buildFailures() tells);
      // anything else (a busy database, a failure not of the build) stops the preload.
      if (!host.failedOnRows(locator.id)) throw e
    }
    await nextTurn()
  }
  // Each locator's entry as a query would find it now: refreshed after a settings change (whose
  // JSON fill then starts again), so every wait ends. One let go meanwhile (turned off, or idle
  // in a preload longer than the idle time) is not built again here.
  const pending = () => {
    host.sync()
    return ids.some((id) => {
      if (host.built(id) === undefined) return false
      const entry = host.entry(id)
      return !(entry.jsonReady && entry.index.settled)
    })
  }
  while (pending()) await nextTurn()
  const kept = ids.filter((id) => host.built(id) !== undefined)
  return {
    locators: kept.length,
    locations: kept.reduce((n, id) => n + host.built(id)!.index.size, 0),
    failed: host.failures(),
  }
}
