// Entry point: config, store, app, listen, graceful shutdown. Nothing else lives here.
//
// WORKERS=1 (the default): this one process does everything. WORKERS=N > 1: this process is the
// primary. It does the one-time work (migrations, the geocoder data, the first start's locator (and
// its key, in a terminal), the demo, the geocode refresh timer) and serves nothing itself; it runs N workers (this file
// again, with STORELOC_WORKER=1), each with its own database connection and indexes, all listening
// on one port with SO_REUSEPORT so the kernel spreads connections over them. The change log keeps
// their indexes in step (src/public/registry.ts), as it does for any processes on one database.
import type { Subprocess } from 'bun'
import { existsSync } from 'node:fs'
import { createApp, type App } from './server/app'
import { checkWorkers, ConfigError, DEFAULT_DATABASE_PATH, loadConfig, parseWorkers, type Config } from './core/config'
import { createGeocoder, type GeocoderStack } from './geocode'
import { scheduleGeocodeRefresh } from './geocode/refresh'
import { loadDemo } from './operator/demo'
import { createLocator } from './operator/index'
import { openStore, type Store } from './store'
import { databaseFault } from './store/db'

/** A path as one shell word: as it is when it holds nothing a shell reads, else in single quotes. */
const shellWord = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`)

/** The first start's locator's name. */
const FIRST_LOCATOR = 'My store locator'

/**
 * On a database with no locator yet, creates one and prints, this once, how to reach it; unless
 * told not to, also loads the demo stores into a demo locator with its Query API on. A demo that
 * fails to load is reported, and never costs the first locator's one-time key.
 *
 * Its secret key is made and printed only when stdout is a terminal: otherwise stdout is the
 * request log's stream (a service manager's journal, a container's log), where no key may be
 * written. The locator is made all the same, and the lines say how to make its key with the CLI,
 * whose output goes to whoever runs it.
 */
function bootstrap(store: Store, host: string, port: number, demo: boolean, databasePath: string, inTerminal = process.stdout.isTTY === true): void {
  // One transaction with the count: two processes starting on a new file make one locator and one
  // demo, and a crash before the key is printed leaves nothing (the next start makes them). The
  // demo is a savepoint in it: one that fails is undone alone.
  const made = store.write(() => {
    if (store.locators.count() > 0) return null
    const first = inTerminal ? createLocator(store, FIRST_LOCATOR) : { locator: store.locators.insert(FIRST_LOCATOR), secret: null }
    let loaded: ReturnType<typeof loadDemo> | null = null
    let failed: unknown = null
    if (demo) {
      try {
        loaded = loadDemo(store)
      } catch (e) {
        failed = e
      }
    }
    return { ...first, loaded, failed }
  })
  if (made === null) return
  const { locator, secret, loaded, failed } = made
  const lines =
    secret !== null
      ? [
          '',
          'Created your first locator. The secret key is shown this once: store it now.',
          `  locator id:    ${locator.id}`,
          `  secret key:    ${secret}`,
          `  public token:  ${locator.publicToken}`,
          '',
          'Try the Management API:',
          `  curl -H "Authorization: Bearer ${secret}" http://${host}:${port}/admin/v1/locations`,
          '',
        ]
      : [
          '',
          'Created your first locator. Its secret key is not made here: this output is not a terminal, so it may be kept in a log.',
          `  locator id:    ${locator.id}`,
          `  public token:  ${locator.publicToken}`,
          '',
          'Make its key where only you see it (the key is shown once):',
          `  ${databasePath === DEFAULT_DATABASE_PATH ? '' : `DATABASE_PATH=${shellWord(databasePath)} `}npm run -s cli -- key create ${locator.id}`,
          '',
        ]
  if (loaded !== null) {
    lines.push(
      `Loaded the demo: ${loaded.locations} stores in "${loaded.locator.name}" (locator ${loaded.locator.id}), Query API on.`,
      'Try the public Query API (stores within 10 km of central London, nearest first):',
      `  curl "http://${host}:${port}/public/v1/${loaded.locator.publicToken}/locations?lat=51.5074&lng=-0.1278&radius=10&unit=km&limit=3"`,
      '',
    )
  }
  if (failed !== null) console.error(JSON.stringify({ level: 'error', message: 'demo not loaded', error: (failed as Error).message }))
  console.log(lines.join('\n'))
}

/** `--workers N` or `--workers=N` as given, or null when absent. */
function workersFlag(argv: string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--workers') return argv[i + 1] ?? ''
    if (argv[i]!.startsWith('--workers=')) return argv[i]!.slice('--workers='.length)
  }
  return null
}

/** The environment and the flags (`--no-demo`, `--workers N`); a bad value ends the start with exit code 2. */
function readConfig(): Config {
  try {
    const argv = process.argv.slice(2)
    let config = loadConfig(process.env)
    if (argv.includes('--no-demo')) config = { ...config, demo: false }
    const workers = workersFlag(argv)
    if (workers !== null) config = { ...config, workers: parseWorkers(workers, '--workers') }
    if (config.worker && !process.send) throw new ConfigError('STORELOC_WORKER is set by the primary process for its workers only; unset it.')
    if (!config.worker) checkWorkers(config)
    return config
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`Configuration error: ${e.message}`)
      process.exit(2)
    }
    throw e
  }
}

/** A start that cannot go on for a reason outside the program (the database, the address): main prints its message, no stack trace, and exits 1. */
class StartError extends Error {}

/** The store at DATABASE_PATH, or a StartError saying what is wrong with it. */
function openStoreToStart(path: string): Store {
  try {
    return openStore(path)
  } catch (e) {
    const fault = databaseFault(e)
    if (fault === null) throw e
    const reason = (e as Error).message.replace(/\.$/, '')
    const advice = {
      file: ' DATABASE_PATH must name a SQLite database file (made, with its folder, when missing) that this user can read and write.',
      busy: ' Another process holds it for writing: try again in a moment.',
      database: '',
    }[fault]
    throw new StartError(`Cannot use the database at ${path}: ${reason}.${advice}`)
  }
}

/** Bodies up to this reach the app (whose limit is maxBodyBytes); beyond it Bun answers a bare 413. */
const BUN_BODY_LIMIT = 2 ** 30

/** Bun.serve on HOST and PORT, or a StartError: Bun says EADDRINUSE ("Is port in use?") for a host that is no address of this machine too. */
function serveOn(config: Config, options: Omit<Parameters<typeof Bun.serve>[0], 'port' | 'hostname'>) {
  try {
    return Bun.serve({ ...options, port: config.port, hostname: config.host } as Parameters<typeof Bun.serve>[0])
  } catch (e) {
    const code = (e as { code?: unknown }).code
    const at = `Cannot listen on ${config.host}:${config.port}${typeof code === 'string' ? ` (${code})` : ''}`
    const host = 'HOST is not an address of this machine (0.0.0.0 for all of them, 127.0.0.1 for this machine only)'
    if (code === 'EACCES') throw new StartError(`${at}: this user may not listen on that port (ports below 1024 need privileges); use a higher PORT.`)
    if (code === 'EADDRNOTAVAIL') throw new StartError(`${at}: ${host}.`)
    throw new StartError(`${at}: another program uses PORT, or ${host}.`)
  }
}

function listen(config: Config, app: App, reusePort: boolean) {
  return serveOn(config, {
    reusePort,
    // The app reads a body only up to its limit and answers a larger one with a JSON 413 (Bun
    // reads the rest past, holding none of it). Bun's own 413 beyond this has no body.
    maxRequestBodySize: BUN_BODY_LIMIT,
    fetch: (request: Request) => app.handle(request),
  })
}

/**
 * Builds the locators' indexes now (src/public/registry.ts, preload), so the first queries after a
 * start do not wait for them. A failure is logged, and each index is then built on its first query.
 */
async function preloadIndexes(app: App, log: boolean): Promise<void> {
  const t0 = performance.now()
  try {
    const loaded = await app.preload()
    if (log) console.log(JSON.stringify({ level: 'info', message: 'indexes loaded', ...loaded, ms: Math.round(performance.now() - t0) }))
  } catch (e) {
    console.error(JSON.stringify({ level: 'error', message: 'indexes not preloaded: each is built on its first query', error: (e as Error).message }))
  }
}

/** An HTTP geocoder's failure (the write used the embedded geocoder), as a log line on stderr. */
const warnGeocoder = (reason: string) => console.error(JSON.stringify({ level: 'warn', message: 'the HTTP geocoder failed; writes use the embedded geocoder meanwhile', reason }))

/** How often a server applies what was committed with no query asking (app.sync). */
const IDLE_SYNC_MS = 1_000
/**
 * The most one turn of the idle sync spends applying changes; with more left, it goes on a turn
 * later. Another process's import of 20,000 locations kept a server's event loop (its /healthz
 * too) busy for 0.59-0.64 s in one turn before this; 6-11 ms at most since.
 */
const IDLE_SLICE_MS = 4

/**
 * How long a locator's index goes without a change before the idle sync folds its changes into
 * its base (app.settleDeltas), if it has enough of them (LocatorIndex.settle): once after a burst of
 * writes, besides those its delta's bound starts during it. Under writes that never stop, every
 * STALE_COMPACTION_MS instead (a compaction costs ~0.25 s of background work at 100k, ~3 s at 1M).
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
function startIdleSync(app: App, indexIdleMs: number): () => void {
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
 * its indexes again (src/public/registry.ts). Without pruning the log grew by every write for
 * good: a nightly update of 100,000 locations added ~13 MB a night.
 */
const CHANGES_KEPT_MS = 60 * 60_000
/** How often the log is pruned (and once at start). */
const PRUNE_EVERY_MS = 10 * 60_000
/** Changes one prune transaction looks at: a slice of the event loop's time in the process that serves (WORKERS=1). */
const PRUNE_SLICE = 2_000

/**
 * Deletes the changes older than CHANGES_KEPT_MS, each locator's last one kept (src/store/changes.ts
 * prune), now and every PRUNE_EVERY_MS, a slice per shared commit (store.writeSoon: no wait for
 * another process's lock stops requests). In the process that runs the geocode refresh: one per
 * server. A failure is logged (one that met a busy database is tried at the next run). Returns the stop.
 */
function startChangeLogPrune(store: Store): () => void {
  let running = false
  let stopped = false
  const run = async () => {
    if (running) return
    running = true
    try {
      const end = store.changes.pruneEnd(new Date(Date.now() - CHANGES_KEPT_MS).toISOString())
      while (!stopped && (await store.writeSoon(() => store.changes.prune(end, PRUNE_SLICE))) < end) {}
    } catch (e) {
      // Stopped meanwhile: the store may be closed under it.
      if (!stopped && databaseFault(e) !== 'busy') console.error(JSON.stringify({ level: 'error', message: 'change log not pruned; tried again at the next run', error: (e as Error)?.message ?? String(e) }))
    } finally {
      running = false
    }
  }
  void run()
  const timer = setInterval(run, PRUNE_EVERY_MS)
  timer.unref()
  return () => {
    stopped = true
    clearInterval(timer)
  }
}

/** How the printed curl lines name the host. */
const displayHost = (config: Config) => (config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host)

/** Coordinates whose provider limits how long they may be kept are refreshed at start and every REFRESH_EVERY_MS, each run logged. Returns the stop. */
const startGeocodeRefresh = (store: Store, geocoding: GeocoderStack) =>
  scheduleGeocodeRefresh(store, geocoding.primary ?? geocoding.geocoder, { fallback: geocoding.fallback, log: (line) => (line.level === 'error' ? console.error : console.log)(JSON.stringify(line)) })

/** Runs `stop` on the first SIGTERM or SIGINT (or call of the returned function); later ones are ignored. */
function onStopSignal(stop: (signal: string) => Promise<void>): (reason: string) => void {
  let stopping = false
  const handle = (reason: string) => {
    if (stopping) return
    stopping = true
    void stop(reason)
  }
  process.on('SIGTERM', () => handle('SIGTERM'))
  process.on('SIGINT', () => handle('SIGINT'))
  return handle
}

/** WORKERS=1: one process opens, serves, bootstraps and refreshes. */
async function runSingle(config: Config): Promise<void> {
  const store = openStoreToStart(config.databasePath)
  const geocoding = await createGeocoder(config.geocoder, store, (line) => console.log(line), { warn: warnGeocoder })
  const app = createApp({ store, geocoder: geocoding.geocoder, config })
  const server = listen(config, app, false)
  bootstrap(store, displayHost(config), server.port!, config.demo, config.databasePath)
  console.log(JSON.stringify({ level: 'info', message: 'listening', url: `http://${server.hostname}:${server.port}`, database: config.databasePath }))
  const stopRefresh = startGeocodeRefresh(store, geocoding)
  const stopPrune = startChangeLogPrune(store)
  const stopSync = startIdleSync(app, config.indexIdleMs)
  onStopSignal(async (signal) => {
    console.log(JSON.stringify({ level: 'info', message: 'shutting down', signal }))
    stopRefresh()
    stopPrune()
    stopSync()
    await server.stop() // stops accepting, lets in-flight requests finish
    geocoding.close()
    store.close()
    process.exit(0)
  })
  await preloadIndexes(app, true) // while listening: /readyz says "loading" until it is done
}

/** One of the primary's workers: serves on the shared port and tells the primary when it listens. Prints no start-up lines. */
async function runWorker(config: Config): Promise<void> {
  // The primary made the file: one missing now was deleted or moved. An empty one made here would
  // answer its requests from nothing, beside workers still answering from the old file.
  if (config.databasePath !== ':memory:' && !existsSync(config.databasePath)) {
    throw new StartError(`Cannot use the database at ${config.databasePath}: the file is gone (the primary made it at start), and a worker does not make an empty one. Put the file back, then start the service again.`)
  }
  const store = openStoreToStart(config.databasePath)
  const geocoding = await createGeocoder(config.geocoder, store, undefined, { warn: warnGeocoder }) // the primary has built its data
  const app = createApp({ store, geocoder: geocoding.geocoder, config })
  // Before listening: the kernel sends connections only to workers that listen, so a worker
  // started again after a crash is not sent any until its indexes are built.
  await preloadIndexes(app, false)
  const server = listen(config, app, true)
  const stopSync = startIdleSync(app, config.indexIdleMs)
  const stop = async () => {
    stopSync()
    await server.stop() // stops accepting, lets in-flight requests finish
    geocoding.close()
    store.close()
    process.exit(0)
  }
  const stopNow = onStopSignal(stop)
  // The primary is gone (killed without a chance to stop us): do not linger holding the port.
  process.on('disconnect', () => stopNow('disconnect'))
  process.send!({ type: 'ready' })
}

/** A worker that crashes is started again after these delays, one per crash in a row; one more crash and the primary gives up. */
const RESTART_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000] as const
/** A worker that ran this long before crashing starts its count of crashes in a row afresh. */
const STABLE_MS = 60_000

/**
 * Starts `count` workers on `port` and keeps them running: one that exits while the pool is not
 * stopping is logged and started again (RESTART_DELAYS_MS). `fatal` is called, once, when a worker
 * of the first start exits before it listens or one crashes too often in a row.
 */
function superviseWorkers(count: number, port: number, fatal: (line: Record<string, unknown>) => void) {
  const running = new Map<number, Subprocess>() // slot -> its current process
  const crashes = new Array<number>(count).fill(0)
  const timers = new Set<Timer>()
  let stopping = false
  let started = false // every worker of the first start has listened
  let readyCount = 0
  let allReady!: () => void
  const ready = new Promise<void>((resolve) => (allReady = resolve))

  const spawn = (slot: number) => {
    const t0 = performance.now()
    let listening = false
    const proc = Bun.spawn([process.execPath, import.meta.path], {
      env: { ...process.env, PORT: String(port), STORELOC_WORKER: '1' },
      stdin: 'ignore',
      stdout: 'inherit',
      stderr: 'inherit',
      ipc(message) {
        if ((message as { type?: string } | null)?.type !== 'ready' || listening) return
        listening = true
        if (!started && ++readyCount === count) {
          started = true
          allReady()
        }
      },
      onExit(exited, code, signal) {
        if (running.get(slot) === exited) running.delete(slot)
        if (stopping) return
        const about = { worker: slot + 1, pid: exited.pid, code, signal }
        if (!started) return fatal({ level: 'error', message: 'a worker stopped before it was listening', ...about })
        if (performance.now() - t0 >= STABLE_MS) crashes[slot] = 0
        const delay = RESTART_DELAYS_MS[crashes[slot]!++]
        if (delay === undefined) return fatal({ level: 'error', message: `a worker stopped ${crashes[slot]} times in a row; giving up`, ...about })
        console.error(JSON.stringify({ level: 'error', message: 'worker stopped; starting another', ...about, restart_in_ms: delay }))
        const timer = setTimeout(() => {
          timers.delete(timer)
          if (!stopping) spawn(slot)
        }, delay)
        timers.add(timer)
      },
    })
    running.set(slot, proc)
  }
  for (let slot = 0; slot < count; slot++) spawn(slot)

  return {
    /** Resolves when every worker of the first start listens. */
    ready,
    pids: () => [...running.values()].map((p) => p.pid),
    /** Passes the signal on (each worker stops accepting, finishes in-flight requests, closes the database) and waits for every worker to exit. */
    async stop(signal: NodeJS.Signals): Promise<void> {
      stopping = true
      for (const timer of timers) clearTimeout(timer)
      const procs = [...running.values()]
      for (const proc of procs) proc.kill(signal)
      await Promise.all(procs.map((p) => p.exited))
    },
  }
}

/** WORKERS=N > 1: the one-time work here, the serving in N workers (see the top of the file). */
async function runPrimary(config: Config): Promise<void> {
  const store = openStoreToStart(config.databasePath) // applies the migrations before any worker opens the file
  const geocoding = await createGeocoder(config.geocoder, store, (line) => console.log(line), { warn: warnGeocoder })
  // The port the workers share, held by a bind with SO_REUSEPORT (as the workers') until they
  // listen: no other process can take it in between, not even another server started with
  // WORKERS on the same port (its plain bind fails; released at once, both servers' workers would
  // share the port, each answering from its own database). A configured port is bound plainly
  // first, which fails, as a single process would, when the port is taken. PORT=0: the kernel
  // picks a free port. A request the hold takes before the workers listen is answered 503.
  const starting = () => new Response(null, { status: 503, headers: { 'retry-after': '1' } })
  let probe = serveOn(config, { reusePort: config.port === 0, fetch: starting })
  if (config.port !== 0) {
    probe.stop(true)
    probe = serveOn(config, { reusePort: true, fetch: starting })
  }
  const port = probe.port!
  const hostname = probe.hostname

  let stopRefresh = () => {}
  let stopPrune = () => {}
  let stopping = false
  const stop = async (signal: NodeJS.Signals, exitCode: number) => {
    if (stopping) return
    stopping = true
    stopRefresh()
    stopPrune()
    await pool.stop(signal)
    geocoding.close()
    store.close()
    process.exit(exitCode)
  }
  const pool = superviseWorkers(config.workers, port, (line) => {
    console.error(JSON.stringify(line))
    void stop('SIGTERM', 1)
  })
  onStopSignal(async (signal) => {
    console.log(JSON.stringify({ level: 'info', message: 'shutting down', signal }))
    await stop(signal as NodeJS.Signals, 0)
  })

  await pool.ready
  probe.stop(true)
  if (stopping) return
  bootstrap(store, displayHost(config), port, config.demo, config.databasePath)
  console.log(
    JSON.stringify({ level: 'info', message: 'listening', url: `http://${hostname}:${port}`, database: config.databasePath, workers: config.workers, pids: pool.pids() }),
  )
  stopRefresh = startGeocodeRefresh(store, geocoding) // in this process only: one refresh, not N
  stopPrune = startChangeLogPrune(store) // here too: one pruning, not N
}

async function main(): Promise<void> {
  const config = readConfig()
  try {
    if (config.worker) return await runWorker(config)
    if (config.workers > 1) return await runPrimary(config)
    return await runSingle(config)
  } catch (e) {
    if (!(e instanceof StartError)) throw e
    console.error(e.message)
    process.exit(1)
  }
}

await main()
