// WORKERS=1: one process opens the database, serves, bootstraps and runs the upkeep timers.
import type { Config } from '../core/config'
import { createGeocoder } from '../geocode'
import { createApp } from './app'
import { bootstrap, displayHost } from './bootstrap'
import { listen, onStopSignal, openStoreToStart } from './listen'
import { preloadIndexes, startChangeLogPrune, startGeocodeRefresh, startIdleSync, warnGeocoder } from './upkeep'

/** WORKERS=1: one process opens, serves, bootstraps and refreshes. */
export async function runSingle(config: Config): Promise<void> {
  const store = openStoreToStart(config.databasePath)
  const geocoding = await createGeocoder(config.geocoder, store, (line) => console.log(line), { warn: warnGeocoder })
  const app = createApp({ store, geocoder: geocoding.geocoder, config })
  const server = listen(config, app, false)
  bootstrap(store, displayHost(config), server.port!, config.demo, config.databasePath)
  console.log(
    JSON.stringify({
      level: 'info',
      message: 'listening',
      url: `http://${server.hostname}:${server.port}`,
      database: config.databasePath,
    }),
  )
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
