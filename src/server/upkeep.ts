// The timers a server runs between requests: the idle sync, the change log's pruning, the
// geocode refresh; and at start, the indexes' preload and the place data's warm-up.
import { jsonLine } from '../core/log-line'
import type { GeocoderStack } from '../geocode'
import { firstToLogDamage, geodataDamage } from '../geocode/embedded/open'
import type { PlaceSource } from '../geocode/embedded/place-source'
import { scheduleGeocodeRefresh } from '../geocode/refresh'
import { placed, placeUnplaced, townsFrom } from '../locations/town'
import type { Store } from '../store'
import { databaseFault, storageFault, storageFaultText } from '../store/db'
import type { App } from './app'

/**
 * Builds the locators' indexes now (src/indexes/registry.ts, preload), so the first queries after a
 * start do not wait for them, and logs it (`about` says which process). A failure is logged, and
 * each index is then built on its first query.
 */
export async function preloadIndexes(app: App, about: Record<string, unknown> = {}): Promise<void> {
  const t0 = performance.now()
  try {
    const loaded = await app.preload()
    console.log(
      jsonLine({
        level: 'info',
        message: 'indexes loaded',
        ...about,
        ...loaded,
        ms: Math.round(performance.now() - t0),
      }),
    )
  } catch (e) {
    console.error(
      jsonLine({
        level: 'error',
        message: 'indexes not preloaded: each is built on its first query',
        error: (e as Error).message,
      }),
    )
  }
}

/**
 * Reads the place search's data (app.warmPlaces) once the process serves: the indexes come first,
 * and GET /places and near= answer 503 with Retry-After until it is read. Logs it (`about` says
 * which process), or the data file's damage, once, as the first answer it refuses would; nothing
 * with GEOCODER=none.
 */
export async function warmPlaces(app: App, about: Record<string, unknown> = {}): Promise<void> {
  const t0 = performance.now()
  const read = await app.warmPlaces()
  if (read)
    console.log(
      jsonLine({ level: 'info', message: 'place data read', ...about, ms: Math.round(performance.now() - t0) }),
    )
  else if (firstToLogDamage()) console.log(jsonLine({ level: 'error', message: geodataDamage() }))
}

/** An HTTP geocoder's failure (the write used the embedded geocoder), as a log line on stderr. */
export const warnGeocoder = (reason: string) =>
  console.error(
    jsonLine({
      level: 'warn',
      message: 'the HTTP geocoder failed; writes use the embedded geocoder meanwhile',
      reason,
    }),
  )

/** How often a server applies what was committed with no query asking (app.sync). */
const IDLE_SYNC_MS = 1_000
/**
 * The most one turn of the idle sync spends applying changes; with more left, it goes on a turn
 * later, so another process's large import never holds a server's event loop (its /healthz too)
 * for long (PERF-021).
 */
const IDLE_SLICE_MS = 4

/**
 * How long a locator's index goes without a change before the idle sync folds its changes into
 * its base (app.settleDeltas), if it has enough of them (LocatorIndex.settle): once after a burst of
 * writes, besides those its delta's bound starts during it. Under writes that never stop, every
 * STALE_COMPACTION_MS instead (a compaction is background work that grows with the index:
 * PERF-030, PERF-036).
 */
const QUIET_COMPACTION_MS = 10_000
const STALE_COMPACTION_MS = 5 * 60_000

/**
 * Applies committed changes now and then, between queries: a locator another process made or
 * turned public (the primary's demo, for a worker) is built before its first query, and other
 * processes' writes are not left for a query to apply. Lets go of the indexes not queried for
 * `indexIdleMs` (0: never), tries failed index builds again, compacts the indexes written to and
 * then left alone or long written to (app.settleDeltas), and logs a database file moved away
 * (app.checkFile). Returns the stop.
 */
export function startIdleSync(app: App, indexIdleMs: number): () => void {
  let more: Timer | undefined
  const tick = () => {
    if (app.sync(IDLE_SLICE_MS)) return // it reports its own failures
    clearTimeout(more)
    more = setTimeout(tick, 1)
    more.unref()
  }
  const timer = setInterval(() => {
    if (indexIdleMs > 0) app.evictIdle(indexIdleMs)
    app.retryFailedBuilds()
    app.settleDeltas(QUIET_COMPACTION_MS, STALE_COMPACTION_MS)
    app.checkFile()
    tick()
  }, IDLE_SYNC_MS)
  timer.unref()
  return () => {
    clearInterval(timer)
    clearTimeout(more)
  }
}

/**
 * How long the change log keeps a change: every process applies them within a second (the idle
 * sync), so only one that applied none for this long (stopped, hung) finds some gone, and builds
 * its indexes again (src/indexes/registry.ts). Without pruning, the log would grow with every
 * write for good (PERF-036).
 */
const CHANGES_KEPT_MS = 60 * 60_000
/** How often the log is pruned (and once at start). */
const PRUNE_EVERY_MS = 10 * 60_000
/** Changes one prune transaction looks at: a slice of the event loop's time in the process that serves (WORKERS=1). */
const PRUNE_SLICE = 2_000

/**
 * Deletes the changes older than CHANGES_KEPT_MS, each locator's last one kept (src/store/changes.ts
 * prune), and the Idempotency-Key answers and hourly byte counts past their 24 hours, now and every
 * PRUNE_EVERY_MS, a slice per shared commit (store.writeSoon: no wait for another process's lock
 * stops requests); then the geocode cache's expired rows, in one statement
 * (a scan of the table: about 8 ms at 100,000 rows), else kept until the next start. In the
 * process that runs the geocode refresh: one per server. A failure is logged (one that met a busy
 * database is tried at the next run). Returns the stop.
 */
export function startChangeLogPrune(store: Store): () => void {
  return everyFromNow(store, PRUNE_EVERY_MS, 'change log not pruned; tried again at the next run', async (stopped) => {
    const end = store.changes.pruneEnd(new Date(Date.now() - CHANGES_KEPT_MS).toISOString())
    while (!stopped() && (await store.writeSoon(() => store.changes.prune(end, PRUNE_SLICE))) < end) {}
    while (!stopped() && (await store.writeSoon(() => store.idempotency.prune(PRUNE_SLICE))) === PRUNE_SLICE) {}
    if (!stopped()) await store.geocodeCache.purgeExpired(Date.now())
  })
}

/**
 * Runs `work` now and every `everyMs`, never two at once, until the returned stop. A failure is
 * logged as `failed` (one that met a busy database is tried at the next run; none once stopped:
 * the store may be closed under it).
 */
function everyFromNow(
  store: Store,
  everyMs: number,
  failed: string,
  work: (stopped: () => boolean) => Promise<void>,
): () => void {
  let running = false
  let stopped = false
  const run = async () => {
    if (running) return
    running = true
    try {
      await work(() => stopped)
    } catch (e) {
      if (!stopped && databaseFault(e) !== 'busy') {
        // A full disk, a read-only file: said in the words the requests' faults are (what to mend).
        const fault = storageFault(e, store.path)
        const message = fault === null ? failed : `${failed}: ${storageFaultText(fault, store.path)}`
        console.error(jsonLine({ level: 'error', message, error: (e as Error)?.message ?? String(e) }))
      }
    } finally {
      running = false
    }
  }
  void run()
  const timer = setInterval(run, everyMs)
  timer.unref()
  return () => {
    stopped = true
    clearInterval(timer)
  }
}

/** Coordinates whose provider limits how long they may be kept are refreshed at start and every REFRESH_EVERY_MS, each run logged. Returns the stop. */
export const startGeocodeRefresh = (store: Store, geocoding: GeocoderStack) =>
  scheduleGeocodeRefresh(store, geocoding.primary ?? geocoding.geocoder, {
    fallback: geocoding.fallback,
    // Placed as every write is: a town the upkeep would name otherwise is not unnamed meanwhile.
    placer: async () => {
      const towns = await townsFrom(geocoding.places)().catch(() => null)
      return (next, current) => placed(next, current, towns)
    },
    log: (line) => (line.level === 'error' ? console.error : console.log)(jsonLine(line)),
  })

/** How often the reverse upkeep looks for locations not placed yet (and once at start). */
const PLACE_EVERY_MS = 60_000

/**
 * Completes the address parts and town names of the locations written without them
 * (locations/town.ts placeUnplaced), at start and every PLACE_EVERY_MS, in the process that runs
 * the geocode refresh. Nothing to do without place data (GEOCODER=none). Returns the stop.
 */
export function startTownUpkeep(store: Store, places: PlaceSource | null): () => void {
  if (places === null) return () => {}
  return everyFromNow(
    store,
    PLACE_EVERY_MS,
    'locations not placed in their towns; tried again at the next run',
    async (stopped) => {
      const placed = await placeUnplaced(store, places.reverse(), stopped)
      if (placed > 0) console.log(jsonLine({ level: 'info', message: 'locations placed in their towns', placed }))
    },
  )
}
