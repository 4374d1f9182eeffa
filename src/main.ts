// Entry point: config, store, app, listen, graceful shutdown. Nothing else lives here.
import { createApp } from './app'
import { ConfigError, loadConfig, type Config } from './config'
import { createGeocoder } from './geocode'
import { refreshLimitedGeocodes } from './geocode/refresh'
import { loadDemo } from './demo'
import { createLocator } from './operator'
import { openStore, type Store } from './store'

/**
 * On a database with no locator yet, creates one and prints, this once, how to reach it; unless
 * told not to, also loads the demo stores into a demo locator with its Query API on. A demo that
 * fails to load is reported, and never costs the first locator's one-time key.
 */
function bootstrap(store: Store, host: string, port: number, demo: boolean): void {
  if (store.locators.count() > 0) return
  const { locator, secret } = createLocator(store, 'My store locator')
  const lines = [
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
  if (demo) {
    try {
      const loaded = loadDemo(store)
      lines.push(
        `Loaded the demo: ${loaded.locations} stores in "${loaded.locator.name}" (locator ${loaded.locator.id}), Query API on.`,
        'Try the public Query API (stores within 10 km of central London, nearest first):',
        `  curl "http://${host}:${port}/public/v1/${loaded.locator.publicToken}/locations?lat=51.5074&lng=-0.1278&radius=10&unit=km&limit=3"`,
        '',
      )
    } catch (e) {
      console.error(JSON.stringify({ level: 'error', message: 'demo not loaded', error: (e as Error).message }))
    }
  }
  console.log(lines.join('\n'))
}

async function main(): Promise<void> {
  let config: Config
  try {
    config = loadConfig(process.env)
    if (process.argv.includes('--no-demo')) config = { ...config, demo: false }
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`Configuration error: ${e.message}`)
      process.exit(2)
    }
    throw e
  }
  const store = openStore(config.databasePath)
  const geocoding = await createGeocoder(config.geocoder, store, (line) => console.log(line))
  const app = createApp({ store, geocoder: geocoding.geocoder, config })
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    // Bodies between our limit and this are answered by the app with a JSON 413.
    maxRequestBodySize: config.maxBodyBytes * 4,
    fetch: (request) => app.handle(request),
  })
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  bootstrap(store, host, server.port!, config.demo)
  console.log(JSON.stringify({ level: 'info', message: 'listening', url: `http://${server.hostname}:${server.port}`, database: config.databasePath }))

  // Coordinates whose provider limits how long they may be kept are refreshed at start and every 6 hours.
  const refresh = () =>
    refreshLimitedGeocodes(store, geocoding.geocoder)
      .then((r) => r.checked > 0 && console.log(JSON.stringify({ level: 'info', message: 'geocodes refreshed', ...r })))
      .catch((e) => console.error(JSON.stringify({ level: 'error', message: 'geocode refresh failed', error: String(e) })))
  void refresh()
  const refreshTimer = setInterval(refresh, 6 * 3_600_000)

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(JSON.stringify({ level: 'info', message: 'shutting down', signal }))
    clearInterval(refreshTimer)
    await server.stop() // stops accepting, lets in-flight requests finish
    geocoding.close()
    store.close()
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}

await main()
