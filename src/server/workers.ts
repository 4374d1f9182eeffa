// WORKERS=N > 1: this process is the primary. It does the one-time work (migrations, the geocoder
// data, the first start's locator and its key in a terminal, the demo, the geocode refresh and the
// change log's pruning) and serves nothing itself; it runs N workers (src/main.ts again, with
// STORELOC_WORKER=1), each with its own database connection and indexes, all listening on one port
// with SO_REUSEPORT so the kernel spreads connections over them. The change log keeps their
// indexes in step (src/indexes/registry.ts), as it does for any processes on one database.
import { jsonLine } from '../core/log-line'
import type { Subprocess } from 'bun'
import { existsSync } from 'node:fs'
import type { Config } from '../core/config'
import { createGeocoder } from '../geocode'
import type { Store } from '../store'
import { createApp } from './app'
import { redactingLog } from './app-log'
import { drainable, finishOrCut } from './drain'
import { pathOf } from '../api/public/url'
import {
  listen,
  forcedExit,
  forcedLine,
  onStopSignal,
  openStoreToStart,
  START_EXIT,
  type StartExit,
  serveOn,
  StartError,
  stoppedLine,
  warnNoBaseUrl,
} from './listen'
import { processFamilies, RequestMetrics } from './metrics'
import { serveMetrics } from './metrics-serve'
import { answerMetricRequests, workerMetrics } from './metrics-workers'
import { bootstrapToStart, closeOpened, openToStart, type Opened, unlessStopped, untilUnlocked } from './start'
import { startingResponder } from './starting-answers'
import {
  preloadIndexes,
  startChangeLogPrune,
  startGeocodeRefresh,
  startIdleSync,
  startTownUpkeep,
  warmPlaces,
  warnGeocoder,
} from './upkeep'

/** A start's and a stop's lines, on stdout, as the app's. */
const logLine = redactingLog()

/** One of the primary's workers: serves on the shared port and tells the primary when it listens. Prints no start-up lines. */
export async function runWorker(config: Config): Promise<void> {
  // The primary made the file: one missing now was deleted or moved. An empty one made here would
  // answer its requests from nothing, beside workers still answering from the old file.
  if (config.databasePath !== ':memory:' && !existsSync(config.databasePath)) {
    throw new StartError(
      `Cannot use the database at ${config.databasePath}: the file is gone (the primary made it at start), and a worker does not make an empty one. Put the file back, then start the service again.`,
      START_EXIT.NEEDS_OPERATOR,
    )
  }
  const path = config.databasePath
  const store = await untilUnlocked(path, config.lockWaitMs, () => openStoreToStart(path, false), logLine)
  const geocoding = await createGeocoder(config.geocoder, store, undefined, { warn: warnGeocoder }) // the primary has built its data
  const metrics = config.metrics === null ? undefined : new RequestMetrics(config.metrics.locatorSeries)
  const app = createApp({ store, geocoder: geocoding.geocoder, config, metrics, places: geocoding.places })
  if (metrics) answerMetricRequests(() => [...processFamilies(), ...app.metricFamilies()])
  // Before listening: the kernel sends connections only to workers that listen, so a worker
  // started again after a crash is not sent any until its indexes are built. The place data too
  // then, as its siblings serve meanwhile; at the first start it follows (a core's work for
  // seconds, which N workers starting at once share).
  await preloadIndexes(app, { pid: process.pid })
  const restarted = process.env.STORELOC_WORKER_RESTART === '1'
  if (restarted) await warmPlaces(app, { pid: process.pid })
  const drain = drainable((request, server) => app.handle(request, server))
  const server = listen(config, drain.serve, true)
  const stopSync = startIdleSync(app, config.indexIdleMs)
  const stop = async () => {
    stopSync()
    const cut = await drain.stop(server, config.stopTimeoutMs)
    if (cut > 0)
      logLine({ level: 'warn', message: 'requests cut at the stop deadline (STOP_TIMEOUT_SECONDS)', requests: cut })
    geocoding.close()
    store.close()
    process.exit(0)
  }
  const stopNow = onStopSignal(stop, { hangup: false })
  // A second signal to the primary (Ctrl-C pressed twice): end at once, saying what is cut.
  process.on('message', (message: unknown) => {
    const forced = message as { type?: string; signal?: string } | null
    if (forced?.type !== 'force') return
    const signal = forced.signal ?? 'SIGTERM'
    logLine({ ...forcedLine(signal, server.pendingRequests, false), pid: process.pid })
    process.exit(forcedExit(signal))
  })
  // The primary is gone (killed without a chance to stop us): do not linger holding the port.
  process.on('disconnect', () => stopNow('disconnect'))
  process.send!({ type: 'ready' })
  if (!restarted) await warmPlaces(app, { pid: process.pid })
}

/** A worker that crashes is started again after these delays, one per crash in a row; one more crash and the primary gives up. */
const RESTART_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000] as const
/** A worker that ran this long before crashing starts its count of crashes in a row afresh. */
const STABLE_MS = 60_000

/** The workers' pool (superviseWorkers' arguments, then its state), shared by its spawns, their exits and its stops. */
type Pool = {
  entry: string
  env: Record<string, string | undefined>
  count: number
  port: number
  fatal: (line: Record<string, unknown>, exitCode: StartExit) => void
  onMessage: (slot: number, message: unknown) => void
  running: Map<number, Subprocess> // slot -> its current process
  crashes: number[]
  timers: Set<Timer>
  stopping: boolean
  started: boolean // every worker of the first start has listened
  readyCount: number
  allReady: () => void
}

/**
 * Starts `count` workers on `port` and keeps them running: one that exits while the pool is not
 * stopping is logged and started again (RESTART_DELAYS_MS). `fatal` is called, once, when a worker
 * of the first start exits before it listens (with that worker's exit 3, else 1) or one crashes
 * too often in a row (1).
 */
function superviseWorkers(
  entry: string,
  env: Record<string, string | undefined>,
  count: number,
  port: number,
  fatal: (line: Record<string, unknown>, exitCode: StartExit) => void,
  /** Each message a worker sends but "ready" (metrics-workers.ts), with the worker's slot. */
  onMessage: (slot: number, message: unknown) => void = () => {},
) {
  let allReady!: () => void
  const ready = new Promise<void>((resolve) => (allReady = resolve))
  const pool: Pool = {
    entry,
    env,
    count,
    port,
    fatal,
    onMessage,
    running: new Map(),
    crashes: new Array<number>(count).fill(0),
    timers: new Set(),
    stopping: false,
    started: false,
    readyCount: 0,
    allReady,
  }
  for (let slot = 0; slot < count; slot++) spawnWorker(pool, slot)

  return {
    /** Resolves when every worker of the first start listens. */
    ready,
    pids: () => [...pool.running.values()].map((p) => p.pid),
    /** The workers running now, each with its slot (0 to count - 1). */
    workers: () => [...pool.running].map(([slot, proc]) => ({ slot, proc })),
    /** Passes the signal on, SIGHUP as SIGTERM (each worker stops accepting, finishes in-flight requests, closes the database) and waits for every worker to exit. */
    async stop(signal: NodeJS.Signals): Promise<void> {
      const procs = stopRestarts(pool)
      for (const proc of procs) proc.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal)
      await Promise.all(procs.map((p) => p.exited))
    },
    /**
     * A stop forced by a second signal: each worker is told to end at once, saying what it cuts;
     * one that has not ended within FORCE_WAIT_MS (still starting, its handler not yet set) is killed.
     */
    force: (signal: string): Promise<void> => forceEnd(stopRestarts(pool), signal),
  }
}

/** Starts the worker of `slot` (`restart`: after a crash), and counts it listening when it says so. */
function spawnWorker(pool: Pool, slot: number, restart = false): void {
  const t0 = performance.now()
  let listening = false
  const proc = Bun.spawn([process.execPath, pool.entry], {
    env: {
      ...pool.env,
      PORT: String(pool.port),
      STORELOC_WORKER: '1',
      ...(restart ? { STORELOC_WORKER_RESTART: '1' } : {}),
    },
    stdin: 'ignore',
    stdout: 'inherit',
    stderr: 'inherit',
    ipc(message) {
      if ((message as { type?: string } | null)?.type !== 'ready') return pool.onMessage(slot, message)
      if (listening) return
      listening = true
      if (!pool.started && ++pool.readyCount === pool.count) {
        pool.started = true
        pool.allReady()
      }
    },
    onExit(exited, code, signal) {
      if (pool.running.get(slot) === exited) pool.running.delete(slot)
      if (pool.stopping) return
      afterCrash(pool, slot, performance.now() - t0, { worker: slot + 1, pid: exited.pid, code, signal })
    },
  })
  pool.running.set(slot, proc)
}

/**
 * A worker of `slot` that ran `ranMs` exited while the pool is not stopping: the start fails when
 * it had not listened yet; else it is started again after its delay, or, too many crashes in a
 * row, the pool gives up.
 */
function afterCrash(
  pool: Pool,
  slot: number,
  ranMs: number,
  about: { worker: number; pid: number; code: number | null; signal: number | NodeJS.Signals | null },
): void {
  if (!pool.started) {
    const exit = about.code === START_EXIT.NEEDS_OPERATOR ? about.code : START_EXIT.MAY_PASS
    pool.fatal({ level: 'error', message: 'a worker stopped before it was listening', ...about }, exit)
    return
  }
  if (ranMs >= STABLE_MS) pool.crashes[slot] = 0
  const delay = RESTART_DELAYS_MS[pool.crashes[slot]!++]
  if (delay === undefined) {
    const line = { level: 'error', message: `a worker stopped ${pool.crashes[slot]} times in a row; giving up` }
    pool.fatal({ ...line, ...about }, START_EXIT.MAY_PASS)
    return
  }
  console.error(
    jsonLine({
      level: 'error',
      message: 'worker stopped; starting another',
      ...about,
      restart_in_ms: delay,
    }),
  )
  const timer = setTimeout(() => {
    pool.timers.delete(timer)
    if (!pool.stopping) spawnWorker(pool, slot, true)
  }, delay)
  pool.timers.add(timer)
}

/** The pool stopping: no worker is started again; the workers running now, to stop. */
function stopRestarts(pool: Pool): Subprocess[] {
  pool.stopping = true
  for (const timer of pool.timers) clearTimeout(timer)
  return [...pool.running.values()]
}

/** Tells each of `procs` to end at once, saying what it cuts; kills those not ended within FORCE_WAIT_MS. */
async function forceEnd(procs: Subprocess[], signal: string): Promise<void> {
  for (const proc of procs) {
    try {
      proc.send({ type: 'force', signal })
    } catch {
      // its channel closed: it is ending
    }
  }
  const ended = Promise.all(procs.map((p) => p.exited))
  if (await Promise.race([ended.then(() => true), Bun.sleep(FORCE_WAIT_MS).then(() => false)])) return
  for (const proc of procs) proc.kill('SIGKILL')
  await ended
}

/** How long a forced stop waits for the workers to end by themselves. */
const FORCE_WAIT_MS = 1_000

/**
 * The port the workers share, held by a bind with SO_REUSEPORT (as the workers') until they
 * listen: no other process can take it in between, not even another server started with WORKERS
 * on the same port (its plain bind fails; released at once, both servers' workers would share the
 * port, each answering from its own database). A configured port is bound plainly first, which
 * fails, as a single process would, when the port is taken. PORT=0: the kernel picks a free port.
 * A request the hold takes before the workers listen gets a start's answer (startingResponder:
 * what needs no database, else 503 "starting"); `stop` stops the hold as a stop stops a server,
 * its requests under way answered, before and after the hand-off.
 */
function holdPort(config: Config) {
  // The hold's requests whose answers are not yet made, named in a stop's warning when cut.
  const underWay = new Set<Request>()
  const respond = startingResponder(config.logRequests, logLine, config.publicBaseUrl)
  const drain = drainable((request) => {
    underWay.add(request)
    return respond(request).finally(() => underWay.delete(request))
  })
  let probe = serveOn(config, { reusePort: config.port === 0, fetch: drain.serve })
  if (config.port !== 0) {
    probe.stop(true)
    probe = serveOn(config, { reusePort: true, fetch: drain.serve })
  }
  // From the hand-off: the port closed, the requests under way being answered.
  let handedOff: Promise<void> | null = null
  return {
    probe,
    /** The workers listen: they take every new connection; the requests under way are answered. */
    handOff: () => void (handedOff = probe.stop(false)),
    /** The requests under way in the hold, named in a forced stop's line. */
    pending: () => probe.pendingRequests,
    /**
     * At a stop: the answers begun (a widget build, a large page to a slow reader) finished, up to
     * `deadlineMs`, as the workers' are; what is cut then is named in a warning (the first 20).
     */
    async stop(deadlineMs: number): Promise<void> {
      const cut = await (handedOff === null ? drain.stop(probe, deadlineMs) : finishOrCut(probe, handedOff, deadlineMs))
      if (cut > 0)
        logLine({
          level: 'warn',
          message: "the start's answers cut at the stop deadline (STOP_TIMEOUT_SECONDS)",
          requests: cut,
          unanswered: [...underWay].slice(0, 20).map((request) => `${request.method} ${pathOf(request.url)}`),
        })
    },
  }
}

/** The line that says the workers serve: at `url`, from which database, by which processes. */
const listeningLine = (config: Config, url: string, pids: number[]) => ({
  level: 'info',
  message: 'listening',
  url,
  database: config.databasePath,
  workers: config.workers,
  pids,
})

/** The primary's start under way, shared with a stop that may come at any point of it. */
type Primary = Opened & {
  config: Config
  hold: ReturnType<typeof holdPort>
  /** The port the workers share, and the address it is bound at, as the hold bound them. */
  port: number
  hostname: string
  metricsServer: ReturnType<typeof serveMetrics> | null
  pool: ReturnType<typeof superviseWorkers> | null
  stopUpkeep: () => void
  stopping: boolean
  /** Serving: the workers listen and the bootstrap is done. */
  started: boolean
  /** A forced stop ends the process. */
  forcing: boolean
}

/** WORKERS=N > 1: the one-time work here, the serving in N workers (see the top of the file). */
/** `entry`: the script each worker runs (src/main.ts); `env`: the settings, options included, it is started with. */
export async function runPrimary(
  config: Config,
  entry: string,
  env: Record<string, string | undefined>,
): Promise<void> {
  const hold = holdPort(config)
  const p: Primary = {
    config,
    hold,
    port: hold.probe.port!,
    hostname: hold.probe.hostname!,
    store: null,
    geocoding: null,
    metricsServer: null,
    pool: null,
    stopUpkeep: () => {},
    stopping: false,
    started: false,
    forcing: false,
  }
  // The workers' metrics are gathered here, where the metrics port is (metrics-workers.ts).
  const gathered = workerMetrics()
  // From the start, as a single process's: without it a stop while waiting ends the process by the signal.
  // A second signal ends the workers and this process at once, each saying what it cut.
  onStopSignal(
    async (signal) => {
      logLine({ level: 'info', message: 'shutting down', signal })
      await stopPrimary(p, signal as NodeJS.Signals, 0)
    },
    { force: (signal) => void forcePrimary(p, signal) },
  )
  const unlessStopping = unlessStopped(() => p.stopping)
  let opened: Awaited<ReturnType<typeof openToStart>>
  try {
    if (config.metrics !== null)
      p.metricsServer = serveMetrics(config.metrics, () => gathered.gather(p.pool?.workers() ?? []), logLine)
    // Applies the migrations before any worker opens the file.
    opened = await openToStart(config, p, unlessStopping, logLine)
    await opened.checked
  } catch (e) {
    if (p.stopping) return // the stop under way closes what is open and ends the process
    release(p)
    throw e
  }
  if (p.stopping) return
  const workers = superviseWorkers(
    entry,
    env,
    config.workers,
    p.port,
    (line, exitCode) => {
      console.error(jsonLine(line))
      void stopPrimary(p, 'SIGTERM', exitCode)
    },
    gathered.onMessage,
  )
  p.pool = workers
  await workers.ready
  hold.handOff()
  if (p.stopping) return
  if (!(await bootstrapped(p, opened.store, unlessStopping)) || p.stopping) return
  p.started = true
  console.log(jsonLine(listeningLine(config, `http://${p.hostname}:${p.port}`, workers.pids())))
  warnNoBaseUrl(config, logLine)
  // In this process only: one refresh, one pruning and one reverse upkeep, not N of each.
  const upkeep = [
    startGeocodeRefresh(opened.store, opened.geocoding),
    startChangeLogPrune(opened.store),
    startTownUpkeep(opened.store, opened.geocoding.places),
  ]
  p.stopUpkeep = () => {
    for (const stopOne of upkeep) stopOne()
  }
}

/** Whatever is open by then: a stop may come while the start waits for the database. */
function release(p: Primary): void {
  p.hold.probe.stop(true)
  p.metricsServer?.stop(true)
  closeOpened(p)
}

/** Stops the workers and the hold, each finishing its requests, then ends the process with `exitCode`. */
async function stopPrimary(p: Primary, signal: NodeJS.Signals, exitCode: number): Promise<void> {
  if (p.stopping) return
  p.stopping = true
  p.stopUpkeep()
  const t0 = performance.now()
  await Promise.all([p.pool?.stop(signal), p.hold.stop(p.config.stopTimeoutMs)])
  if (p.forcing) return // the forced stop ends the process
  release(p)
  if (exitCode === 0) logLine(stoppedLine(t0))
  process.exit(exitCode)
}

/** A second signal: the workers and this process end at once, each saying what it cut. */
async function forcePrimary(p: Primary, signal: string): Promise<void> {
  p.forcing = true
  logLine(forcedLine(signal, p.hold.pending(), !p.started))
  await p.pool?.force(signal)
  process.exit(forcedExit(signal))
}

/**
 * The first start's bootstrap, once the workers listen. False when the start goes no further: a
 * stop under way, or a StartError, said, which stops the workers and exits with its code.
 */
async function bootstrapped(
  p: Primary,
  store: Store,
  unlessStopping: ReturnType<typeof unlessStopped>,
): Promise<boolean> {
  try {
    await bootstrapToStart(p.config, store, p.port, unlessStopping, logLine)
    return true
  } catch (e) {
    if (p.stopping) return false
    if (!(e instanceof StartError)) throw e
    console.error(e.message)
    await stopPrimary(p, 'SIGTERM', e.exitCode)
    return false
  }
}
