// WORKERS=1: one process opens the database, serves, bootstraps and runs the upkeep timers.
import type { Server } from 'bun'
import type { Config } from '../core/config'
import type { GeocoderStack } from '../geocode'
import type { Store } from '../store'
import { type App, createApp } from './app'
import { redactingLog } from './app-log'
import { drainable } from './drain'
import { forcedExit, forcedLine, listen, onStopSignal, stoppedLine, warnNoBaseUrl } from './listen'
import { processFamilies, RequestMetrics } from './metrics'
import type { Family } from './metrics-text'
import { serveMetrics } from './metrics-serve'
import { bootstrapToStart, closeOpened, openToStart, type Opened, unlessStopped } from './start'
import { startingResponder } from './starting-answers'
import {
  preloadIndexes,
  startChangeLogPrune,
  startGeocodeRefresh,
  startIdleSync,
  startTownUpkeep,
  warmPlaces,
} from './upkeep'

/** A start's and a stop's lines, on stdout, as the app's. */
const logLine = redactingLog()

/** The start under way, shared with a stop that may come at any point of it. */
type Run = Opened & {
  server: Server<unknown>
  drain: ReturnType<typeof drainable>
  metricsServer: ReturnType<typeof serveMetrics> | null
  stopUpkeep: () => void
  stopping: boolean
  /** Made: its metrics are served from then on. */
  app?: App
  /** Serving: the app answers, a forced stop cuts no start. */
  started: boolean
}

/** What serves once the start is done. */
type Serving = { app: App; store: Store; geocoding: GeocoderStack }

/** WORKERS=1: one process opens, serves, bootstraps and refreshes. */
export async function runSingle(config: Config): Promise<void> {
  // The port first: a start that waits for the database answers /healthz meanwhile.
  let handle: (request: Request, server?: Server<unknown>) => Response | Promise<Response> = startingResponder(
    config.logRequests,
    logLine,
    config.publicBaseUrl,
  )
  const drain = drainable((request, server) => handle(request, server))
  const server = listen(config, drain.serve, false)
  const run: Run = {
    server,
    drain,
    metricsServer: null,
    store: null,
    geocoding: null,
    stopUpkeep: () => {},
    stopping: false,
    started: false,
  }
  run.metricsServer = metricsDuringStart(config, server, () => run.app?.metricFamilies() ?? [])
  stopOnSignal(run, config)
  let serving: Serving
  try {
    serving = await openAndBootstrap(run, config)
  } catch (e) {
    // The stop under way finishes its requests, closes what is open and ends the process.
    if (run.stopping) return
    server.stop(true)
    run.metricsServer?.stop(true)
    closeOpened(run)
    throw e
  }
  if (run.stopping) return // the stop under way ends the process
  run.started = true
  const { app } = serving
  handle = (request, server) => app.handle(request, server)
  await serve(run, config, serving)
}

/**
 * The metrics port, when METRICS_PORT is set: until the app is made, the process's own families
 * only (`appFamilies` empty). A port that cannot be bound closes the service's port too.
 */
function metricsDuringStart(config: Config, server: Server<unknown>, appFamilies: () => Family[]) {
  if (config.metrics === null) return null
  try {
    return serveMetrics(
      config.metrics,
      async () => [{ worker: '0', families: [...processFamilies(), ...appFamilies()] }],
      logLine,
    )
  } catch (e) {
    server.stop(true)
    throw e
  }
}

/**
 * From the start: a stop while the start waits for the database closes what is open by then.
 * A second signal ends the process at once, saying what it cut.
 */
function stopOnSignal(run: Run, config: Config): void {
  const force = (signal: string) => {
    logLine(forcedLine(signal, run.server.pendingRequests, !run.started))
    process.exit(forcedExit(signal))
  }
  onStopSignal(
    async (signal) => {
      run.stopping = true
      logLine({ level: 'info', message: 'shutting down', signal })
      const t0 = performance.now()
      run.stopUpkeep()
      const cut = await run.drain.stop(run.server, config.stopTimeoutMs)
      run.metricsServer?.stop(true)
      if (cut > 0)
        logLine({ level: 'warn', message: 'requests cut at the stop deadline (STOP_TIMEOUT_SECONDS)', requests: cut })
      closeOpened(run)
      logLine(stoppedLine(t0))
      process.exit(0)
    },
    { force },
  )
}

/** The database opened and the geocoder and the app made (into `run` as each is), then the first start's bootstrap. */
async function openAndBootstrap(run: Run, config: Config): Promise<Serving> {
  const unlessStopping = unlessStopped(() => run.stopping)
  const { store, geocoding, checked } = await openToStart(config, run, unlessStopping, logLine)
  const metrics = config.metrics === null ? undefined : new RequestMetrics(config.metrics.locatorSeries)
  const app = createApp({ store, geocoder: geocoding.geocoder, config, metrics, places: geocoding.places })
  run.app = app
  await checked
  await bootstrapToStart(config, store, run.server.port!, unlessStopping, logLine)
  return { app, store, geocoding }
}

/** Serving: the line that says so, the upkeep timers, then the indexes and the places loaded. */
async function serve(run: Run, config: Config, { app, store, geocoding }: Serving): Promise<void> {
  const { server } = run
  logLine({
    level: 'info',
    message: 'listening',
    url: `http://${server.hostname}:${server.port}`,
    database: config.databasePath,
  })
  warnNoBaseUrl(config, logLine)
  const stops = [
    startGeocodeRefresh(store, geocoding),
    startChangeLogPrune(store),
    startTownUpkeep(store, geocoding.places),
    startIdleSync(app, config.indexIdleMs),
  ]
  run.stopUpkeep = () => {
    for (const stop of stops) stop()
  }
  await preloadIndexes(app) // while listening: /readyz says "loading" until it is done
  await warmPlaces(app)
}
