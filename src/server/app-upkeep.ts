// The app's indexes and the upkeep the server's timers ask of them: preload, sync, eviction,
// retries, compaction, and a watch on the database file.
import type { IndexOptions } from '../engine/locator-index'
import { IndexRegistry } from '../indexes/registry'
import type { Store } from '../store'
import { isBusyError } from '../store/db'
import type { Log } from './app-log'

/** Small bounds for the indexes and their JSON (tests, to reach compactions and layouts in a few writes); defaults otherwise. */
export type IndexUpkeep = {
  index?: Omit<IndexOptions, 'schedule'>
  reorderMinBytes?: number
  backlogMin?: number
  backgroundBuildMin?: number
  coldBuildMin?: number
  /** The clock answers are made at (open now, and how long answers hold); tests set one. */
  now?: () => number
  /** The clock the indexes' retries are counted on (ms, performance.now()); tests step one. */
  clock?: () => number
}

/** The process's indexes, each event of their upkeep logged. */
export function createRegistry(
  store: Store,
  log: Log,
  upkeep: IndexUpkeep | undefined,
  buildRetryMs: number | undefined,
): IndexRegistry {
  const registry: IndexRegistry = new IndexRegistry(store, undefined, {
    ...upkeep,
    buildRetryMs,
    onRebuilt: (locatorId, locations, ms, inBackground) =>
      log({
        level: 'info',
        message: inBackground
          ? "index built again after it was let go, in background tasks: its queries waited meanwhile, other locators' did not"
          : 'index built again after it was let go; requests waited meanwhile',
        locator: locatorId,
        locations,
        ms: Math.round(ms),
      }),
    onBacklog: (locatorId, changes) =>
      log({
        level: 'info',
        message:
          'many location changes committed at once (a bulk import): the index is built again from the rows rather than changed one by one',
        locator: locatorId,
        changes,
      }),
    onBuiltInBackground: (locatorId, locations, ms) =>
      log({
        level: 'info',
        message: 'index built again in the background and swapped in; answers showed the locator as it was meanwhile',
        locator: locatorId,
        locations,
        ms: Math.round(ms),
      }),
    onRewound: (applied, now, cause) =>
      log({
        level: 'warn',
        message:
          cause === 'pruned'
            ? 'the change log was pruned past the changes this process had applied (it applied none for an hour): every index is built again from the rows'
            : 'the change log went back (a backup restored into the database file, or another file put in its place): every index is built again from the rows',
        applied_seq: applied,
        log_seq: now,
      }),
    onBuildFailed: (locatorId, e) => {
      store.noteDamage(e) // a damaged page: writes refused from now on
      log({
        level: 'error',
        message: `index not built from its rows: its locator's public queries answer 503 until they are repaired (tried again every ${registry.buildRetryMs / 1000} s)`,
        locator: locatorId,
        error: (e as Error)?.message ?? String(e),
        stack: (e as Error)?.stack,
      })
    },
  })
  return registry
}

/** What the server's timers (src/server/upkeep.ts) and start ask of the app's indexes. */
export function appUpkeep(store: Store, registry: IndexRegistry, log: Log) {
  /** preload() calls under way: /readyz says "loading" while any is. */
  let preloading = 0
  /** What the last checkFile() found: logged again only when it changes. */
  let movedSeen: string | null = null
  let damageTold = false
  return {
    preloading: () => preloading,
    /**
     * Builds every locator's index (those with the Query API on) now rather than on its first query,
     * and waits for their background work; /readyz answers 503 meanwhile. A locator whose index
     * cannot be built is logged and skipped (/readyz then says so). Resolves with what it loaded.
     */
    async preload(): Promise<{ locators: number; locations: number; failed: number }> {
      preloading++
      try {
        const { failed, ...loaded } = await registry.preload() // each failure logged as it happened (onBuildFailed)
        return { ...loaded, failed: failed.length }
      } finally {
        preloading--
      }
    },
    /** Tries again the index builds that failed (registry.retryFailedBuilds); the idle sync calls it every second. */
    retryFailedBuilds(): void {
      registry.retryFailedBuilds()
    },
    /** Compacts the indexes with enough changes to fold in that no write reached in `quietMs`, or whose base is `staleMs` old (registry.settleDeltas); the idle sync calls it every second. */
    settleDeltas(quietMs: number, staleMs: number): void {
      registry.settleDeltas(quietMs, staleMs)
    },
    /**
     * Lets go of the indexes no public request has asked for in `idleMs` (registry.evictIdle; their
     * next query builds them again), one log line each. The idle sync calls it every second.
     * Returns how many it let go.
     */
    evictIdle(idleMs: number): number {
      const gone = registry.evictIdle(idleMs)
      for (const { locatorId, locations } of gone) {
        log({
          level: 'info',
          message: 'index let go: not queried for a while (INDEX_IDLE_MINUTES); its next query builds it again',
          locator: locatorId,
          locations,
        })
      }
      return gone.length
    },
    /**
     * Applies what was committed since the last query (by any process), as each query does first:
     * the idle sync runs it now and then, so changes are applied, and locators made or turned
     * public are built, while no query asks (a worker learns of the demo locator its primary makes
     * so); the app runs it after each Management API write. A failure is left for the next query
     * to meet: a writer holding the database (busy) silently, anything else logged. With a budget
     * (ms: the idle sync's), false when it stopped with changes left (registry.sync).
     */
    sync(budgetMs?: number): boolean {
      try {
        return registry.sync(budgetMs)
      } catch (e) {
        store.noteDamage(e)
        if (!isBusyError(e))
          log({
            level: 'error',
            message: 'applying committed changes failed',
            error: (e as Error)?.message,
            stack: (e as Error)?.stack,
          })
        return true
      }
    },
    /**
     * Logs, once, that the database file was deleted or replaced under this process (its writes are
     * then refused with 503, and /readyz says failed), and once when the path names it again; and
     * once that it was found damaged (for good: writes refused until a restart).
     * The idle sync calls it every second.
     */
    checkFile(): void {
      const damaged = store.damaged()
      if (damaged !== null && !damageTold) {
        damageTold = true
        log({ level: 'error', message: damaged.message })
      }
      const moved = store.fileMoved()?.message ?? null
      if (moved === movedSeen) return
      movedSeen = moved
      log(
        moved === null
          ? { level: 'info', message: 'the database file is back at its path: writes are taken again' }
          : { level: 'error', message: moved },
      )
    },
  }
}
