// WORKERS=1: one process opens the database, serves, bootstraps and runs the upkeep timers.
import type { Server } from 'bun'
import type { Config } from '../core/config'
import { createGeocoder, type GeocoderStack } from '../geocode'
import type { Store } from '../store'
import { createApp } from './app'
import { redactingLog } from './app-log'
import { drainable } from './drain'
import { bootstrap, displayHost } from './bootstrap'
import { forcedExit, forcedLine, listen, onStopSignal, openStoreToStart, stoppedLine, warnNoBaseUrl } from './listen'
import { processFamilies, RequestMetrics } from './metrics'
import { serveMetrics } from './metrics-serve'
import { checkWhole, progressInPlace, sayUpgraded, unlessStopped, untilUnlocked, warnUpgradeInUse } from './start'
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
  const metrics = config.metrics === null ? undefined : new RequestMetrics(config.metrics.locatorSeries)
  let app: ReturnType<typeof createApp> | undefined
  let metricsServer: ReturnType<typeof serveMetrics> | null = null
  if (config.metrics !== null) {
    try {
      // Until the app is made, the process's own families only.
      metricsServer = serveMetrics(
        config.metrics,
        async () => [{ worker: '0', families: [...processFamilies(), ...(app?.metricFamilies() ?? [])] }],
        logLine,
      )
    } catch (e) {
      server.stop(true)
      throw e
    }
  }
  const path = config.databasePath
  let store: Store | null = null
  let geocoding: GeocoderStack | null = null
  let stopUpkeep = () => {}
  let stopping = false
  let started = false
  // From the start: a stop while the start waits for the database closes what is open by then.
  // A second signal ends the process at once, saying what it cut.
  const force = (signal: string) => {
    logLine(forcedLine(signal, server.pendingRequests, !started))
    process.exit(forcedExit(signal))
  }
  onStopSignal(
    async (signal) => {
      stopping = true
      logLine({ level: 'info', message: 'shutting down', signal })
      const t0 = performance.now()
      stopUpkeep()
      const cut = await drain.stop(server, config.stopTimeoutMs)
      metricsServer?.stop(true)
      if (cut > 0)
        logLine({ level: 'warn', message: 'requests cut at the stop deadline (STOP_TIMEOUT_SECONDS)', requests: cut })
      geocoding?.close()
      store?.close()
      logLine(stoppedLine(t0))
      process.exit(0)
    },
    { force },
  )
  const unlessStopping = unlessStopped(() => stopping)
  try {
    warnUpgradeInUse(path, logLine)
    const opened = await untilUnlocked(
      path,
      config.lockWaitMs,
      unlessStopping(() => openStoreToStart(path, false)),
      logLine,
    )
    sayUpgraded(opened.upgradedFrom, path, logLine)
    store = opened
    const checked = checkWhole(path) // in a worker thread, while the geocoder and the app are made
    geocoding = await createGeocoder(config.geocoder, opened, (line) => console.log(line), {
      warn: warnGeocoder,
      sayInPlace: progressInPlace(),
    })
    app = createApp({ store: opened, geocoder: geocoding.geocoder, config, metrics, places: geocoding.places })
    await checked
    await untilUnlocked(
      path,
      config.lockWaitMs,
      unlessStopping(() => bootstrap(opened, displayHost(config), server.port!, config.demo, path, config.viaNpm)),
      logLine,
    )
  } catch (e) {
    // The stop under way finishes its requests, closes what is open and ends the process.
    if (stopping) return
    server.stop(true)
    metricsServer?.stop(true)
    geocoding?.close()
    store?.close()
    throw e
  }
  if (stopping) return // the stop under way ends the process
  started = true
  handle = (request, server) => app.handle(request, server)
  logLine({ level: 'info', message: 'listening', url: `http://${server.hostname}:${server.port}`, database: path })
  warnNoBaseUrl(config, logLine)
  const stops = [
    startGeocodeRefresh(store, geocoding),
    startChangeLogPrune(store),
    startTownUpkeep(store, geocoding.places),
    startIdleSync(app, config.indexIdleMs),
  ]
  stopUpkeep = () => {
    for (const stop of stops) stop()
  }
  await preloadIndexes(app) // while listening: /readyz says "loading" until it is done
  await warmPlaces(app)
}
