// A start's waits and checks before it serves: for another process's write lock, without holding
// the event loop, the database read whole, and its lines (a schema upgrade's notices, the
// geocoder data's build steps); the database, the geocoder and the first start's bootstrap
// through them. What requests are answered meanwhile (the port is bound before the database is
// opened) is starting-answers.ts's.
import type { Config } from '../core/config'
import { createGeocoder, type GeocoderStack } from '../geocode'
import type { Store } from '../store'
import { damagedAtStart } from '../store/damage'
import { isBusyError, schemaVersionAt } from '../store/db'
import { quickCheck } from '../store/integrity'
import { describeProcess, lockHolders } from '../store/lock-holders'
import { MIGRATIONS } from '../store/migrations'
import { bootstrap, displayHost } from './bootstrap'
import { openStoreToStart, START_EXIT, StartError } from './listen'
import { warnGeocoder } from './upkeep'

/** Between two tries for the lock. */
const LOCK_RETRY_MS = 100

/**
 * Runs `attempt` (which fails at once, SQLITE_BUSY, while another process holds the database's
 * write lock) until it does not meet the lock, trying again on a timer so requests are answered
 * meanwhile. Logs one line when it first waits; after `limitMs`, a StartError naming the holder
 * when it can be told.
 */
export async function untilUnlocked<T>(
  path: string,
  limitMs: number,
  attempt: () => T,
  log: (line: Record<string, unknown>) => void,
): Promise<T> {
  const started = performance.now()
  let told = false
  for (;;) {
    try {
      return attempt()
    } catch (e) {
      if (!isBusyError(e)) throw e
    }
    const holder = holderText(path)
    if (performance.now() - started >= limitMs) {
      throw new StartError(
        `Cannot use the database at ${path}: another process has held its write lock for ${Math.round(limitMs / 1000)} s${holder === null ? '' : ` (${holder})`}. Let it finish or stop it, then start again; LOCK_WAIT_SECONDS (--lock-wait) sets how long a start waits.`,
      )
    }
    if (!told) {
      told = true
      log({
        level: 'warn',
        message: 'waiting for the database: another process holds its write lock',
        holder,
        wait_limit_s: limitMs / 1000,
      })
    }
    await Bun.sleep(LOCK_RETRY_MS)
  }
}

/** Thrown by a start's step once a stop has begun (see unlessStopped). */
export const STOPPED = new Error('stopped while starting')

/**
 * A start's steps (an open, a bootstrap, each retried by untilUnlocked) made to throw STOPPED
 * instead once `stopped()`: a stop's drain is no time to write; the stop closes what is open.
 */
export const unlessStopped =
  (stopped: () => boolean) =>
  <T>(step: () => T) =>
  (): T => {
    if (stopped()) throw STOPPED
    return step()
  }

/** The process holding the database's write lock, as words, or null when that cannot be told. */
function holderText(path: string): string | null {
  const writers = lockHolders(path)?.writers.filter((pid) => pid !== process.pid) ?? []
  return writers.length === 0 ? null : writers.map(describeProcess).join(', ')
}

/**
 * A StartError when SQLite's quick_check finds a page of the database damaged: a start serves a
 * file it has read whole, or none (a damaged page met later refuses writes: store.damaged()).
 */
export async function checkWhole(path: string): Promise<void> {
  const found = await quickCheck(path)
  if (found === null) return
  throw new StartError(
    damagedAtStart(path, `SQLite's quick_check: ${found.replace(/\s+/g, ' ').slice(0, 200)}`),
    START_EXIT.NEEDS_OPERATOR,
  )
}

/** The geocoder data's build steps on a terminal, each written over the last; undefined otherwise (plain lines). */
export const progressInPlace = (): ((text: string) => void) | undefined =>
  process.stdout.isTTY ? (text) => process.stdout.write(`\r\x1b[K${text}`) : undefined

/**
 * Before a start upgrades the schema of the database at `path`: a warning line naming the other
 * processes that have it open. One of them may be a server of the older version, which goes on
 * with a schema it does not know (upgrade them together, docs/operations.md, Upgrades). A file
 * that is new, current, or unreadable here is left to the open that follows.
 */
export function warnUpgradeInUse(path: string, log: (line: Record<string, unknown>) => void): void {
  const version = schemaVersionAt(path)
  if (version === null || version === 0 || version >= MIGRATIONS.length) return
  const others = (lockHolders(path)?.users ?? []).filter((pid) => pid !== process.pid)
  if (others.length === 0) return
  log({
    level: 'warn',
    message: `upgrading the database schema from version ${version} to ${MIGRATIONS.length} while other processes have it open: stop any that runs an older storeloc, which cannot use the new schema`,
    processes: others.slice(0, 5).map(describeProcess),
  })
}

/**
 * Once the start's open applied the migrations to a file of schema `from` (store.upgradedFrom,
 * read under the write lock, so a start that waited while another upgraded says nothing): one
 * line saying so, the upgrade's mark in the log (a backup of `from` is the way back).
 */
export function sayUpgraded(from: number | null, path: string, log: (line: Record<string, unknown>) => void): void {
  if (from === null) return
  log({
    level: 'info',
    message: `database schema upgraded from version ${from} to ${MIGRATIONS.length}: an older storeloc cannot use it now; to go back, restore a backup made before`,
    database: path,
  })
}

/** What a start has opened so far: a stop, or a start that fails, closes it. */
export type Opened = { store: Store | null; geocoding: GeocoderStack | null }

/**
 * Opens the database at DATABASE_PATH (waiting out another process's write lock, its schema
 * upgraded and said) and makes the geocoder, each put in `open` once it is. `checked`: the read of
 * the whole file (checkWhole), under way meanwhile in a worker thread, awaited whenever the caller will.
 */
export async function openToStart(
  config: Config,
  open: Opened,
  unlessStopping: ReturnType<typeof unlessStopped>,
  log: (line: Record<string, unknown>) => void,
): Promise<{ store: Store; geocoding: GeocoderStack; checked: Promise<void> }> {
  const path = config.databasePath
  warnUpgradeInUse(path, log)
  const store = await untilUnlocked(
    path,
    config.lockWaitMs,
    unlessStopping(() => openStoreToStart(path, false)),
    log,
  )
  open.store = store
  sayUpgraded(store.upgradedFrom, path, log)
  const checked = checkWhole(path)
  // Handled here, a refusal that comes after the geocoder is made fails the start where the caller
  // awaits it, with no stray trace before.
  checked.catch(() => {})
  const left = new AbortController()
  const making = createGeocoder(config.geocoder, store, (line) => console.log(line), {
    warn: warnGeocoder,
    sayInPlace: progressInPlace(),
    signal: left.signal,
  })
  // A damaged file is refused as soon as the check says so, not after a first start's build of the
  // geocoder's data (a minute): the build is ended (its worker and file), and a geocoder made
  // meanwhile closed, so a caller that goes on (a test) keeps neither.
  try {
    const geocoding = await Promise.race([making, checked.then(() => making)])
    open.geocoding = geocoding
    return { store, geocoding, checked }
  } catch (e) {
    left.abort(e)
    making.then(
      (g) => g.close(),
      () => {},
    )
    throw e
  }
}

/**
 * The first start's bootstrap (bootstrap.ts) once the service listens on `port`, waiting out
 * another process's write lock as the open does.
 */
export function bootstrapToStart(
  config: Config,
  store: Store,
  port: number,
  unlessStopping: ReturnType<typeof unlessStopped>,
  log: (line: Record<string, unknown>) => void,
): Promise<void> {
  const path = config.databasePath
  return untilUnlocked(
    path,
    config.lockWaitMs,
    unlessStopping(() => bootstrap(store, displayHost(config), port, config.demo, path, config.viaNpm)),
    log,
  )
}

/** Closes what `open` holds, the geocoder first. */
export function closeOpened(open: Opened): void {
  open.geocoding?.close()
  open.store?.close()
}
