// The configured geocoder stack end to end: an HTTP provider (a stand-in on 127.0.0.1), its cache,
// and the fallback to the embedded geocoder, as a write through the Management API sees them.
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createApp } from '../../src/server/app'
import { ConfigError, loadConfig, type GeocoderConfig } from '../../src/core/config'
import { createGeocoder } from '../../src/geocode'
import { normalizeAddress } from '../../src/geocode/geocoder'
import { DEFAULT_GEODATA_PATH, ensureGeodata } from '../../src/geocode/embedded'
import { createLocator } from '../../src/operator'
import { openStore, type Store } from '../../src/store'
import { tempDir } from '../helpers'
import { settlesBefore } from '../timer-order'

let mode: 'ok' | 'down' | 'slow' | 'invalid' = 'ok'
let requests = 0
/** Where the stand-in places the Duomo: under /other/, another instance with other data says elsewhere. */
const DUOMO = { lat: 45.4640976, lng: 9.1919265 }
const OTHER_DUOMO = { lat: 45.4641, lng: 9.19 }
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    requests++
    if (mode === 'down') return new Response('Service Unavailable', { status: 503 })
    if (mode === 'slow') await new Promise(() => {}) // never answers: only the timeout ends the call
    // As Google answers a request it finds invalid (an address it cannot read).
    if (mode === 'invalid')
      return Response.json({ status: 'INVALID_REQUEST', error_message: 'Invalid request.', results: [] })
    const url = new URL(req.url)
    const q = url.searchParams.get('q') ?? ''
    if (!q.includes('Duomo')) return Response.json([])
    const point = url.pathname.startsWith('/other/') ? OTHER_DUOMO : DUOMO
    return Response.json([
      {
        place_id: 1,
        lat: String(point.lat),
        lon: String(point.lng),
        category: 'place',
        type: 'house',
        place_rank: 30,
        importance: 0.5,
        addresstype: 'place',
        name: '',
        display_name: 'Piazza del Duomo, 20122 Milano, Italia',
        address: {
          house_number: '1',
          road: 'Piazza del Duomo',
          city: 'Milano',
          state: 'Lombardia',
          postcode: '20122',
          country: 'Italia',
          country_code: 'it',
        },
        boundingbox: ['45.46', '45.47', '9.19', '9.20'],
      },
    ])
  },
})

let dir: string
beforeAll(async () => {
  dir = tempDir()
  await ensureGeodata(DEFAULT_GEODATA_PATH)
}, 120_000)
afterAll(() => {
  server.stop(true)
  rmSync(dir, { recursive: true, force: true })
})

const nominatim: GeocoderConfig = {
  provider: 'nominatim',
  url: `http://127.0.0.1:${server.port}`,
  apiKey: null,
  userAgent: 'storeloc-test',
  timeoutMs: 30_000, // an answer from the stand-in is not cut short on a loaded machine
  dataPath: DEFAULT_GEODATA_PATH,
}

/** The stack for `config` on a fake clock (its waits take no time), and the app over it. */
async function fakeClockApp(config: GeocoderConfig, store: Store) {
  const clock = { ms: 0 }
  const stack = await createGeocoder(config, store, () => {}, {
    now: () => clock.ms,
    sleep: async (ms) => void (clock.ms += ms),
  })
  const app = createApp({
    store,
    geocoder: stack.geocoder,
    config: { maxBodyBytes: 262144, logRequests: false },
    log: () => {},
  })
  return { stack, app, clock }
}

/** Two writes of `address`; with `settleMs`, each must settle before a timer of that many ms (settlesBefore). */
async function createThroughApi(name: string, address: string, config: GeocoderConfig = nominatim, settleMs?: number) {
  const store = openStore(join(dir, `${name}.db`))
  // The fake clock moves 2 s before each write, so Nominatim's one-request-per-second gate lets each through.
  const { stack, app, clock } = await fakeClockApp(config, store)
  try {
    const { secret } = createLocator(store, name)
    const send = async () => {
      clock.ms += 2000
      const write = Promise.resolve(
        app.handle(
          new Request('http://localhost/admin/v1/locations', {
            method: 'POST',
            headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name, address }),
          }),
        ),
      )
      if (settleMs !== undefined) expect(await settlesBefore(write, settleMs)).toBe(true)
      const res = await write
      return { status: res.status, body: (await res.json()) as any }
    }
    const first = await send()
    const second = await send()
    return { first, second, count: store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM locations').get()!.n }
  } finally {
    stack.close()
    store.close()
  }
}

test('the provider answers: rooftop precision from nominatim, and the second write is served from the cache', async () => {
  mode = 'ok'
  requests = 0
  const { first, second } = await createThroughApi('ok', 'Piazza del Duomo 1, 20122 Milano, Italia')
  expect(first.status).toBe(201)
  expect(first.body.location.coordinates).toEqual({ lat: 45.4640976, lng: 9.1919265 })
  expect(first.body.location.geocoding).toEqual({ precision: 'rooftop', source: 'nominatim' })
  expect(second.body.location.geocoding).toEqual({ precision: 'rooftop', source: 'nominatim' })
  expect(requests).toBe(1)
})

test('the provider is down (503): the embedded geocoder answers and says so; fallbacks are not cached as the provider', async () => {
  mode = 'down'
  requests = 0
  const { first, second } = await createThroughApi('down', 'Stephansplatz 1, 1010 Wien, Österreich')
  expect(first.status).toBe(201)
  expect(first.body.location.geocoding.precision).toBe('postcode') // the 1st district's
  expect(first.body.location.geocoding.source).toMatch(/^embedded \(fallback: nominatim .*503/)
  expect(first.body.location.address).toBe('Stephansplatz 1, 1010 Wien, Österreich')
  expect(second.body.location.geocoding.source).toMatch(/^embedded \(fallback: nominatim/)
  expect(requests).toBe(2) // the provider is asked again next time: its failure was not cached
})

test('the provider is slow: the write waits no longer than the timeout, then falls back', async () => {
  mode = 'slow'
  // Each write's 500 ms deadline fires before a 2 s timer set after its start, however late; the
  // embedded fallback and the write then settle by promise jobs alone.
  const { first, second } = await createThroughApi(
    'slow',
    'Marienplatz 1, 80331 München',
    { ...nominatim, timeoutMs: 500 },
    2000,
  )
  expect(first.status).toBe(201)
  expect(first.body.location.geocoding.source).toMatch(/^embedded \(fallback: nominatim timed out after 500 ms/)
  expect(second.body.location.geocoding.source).toMatch(/^embedded \(fallback: nominatim timed out after 500 ms/)
})

test('the provider is down and the embedded geocoder does not know the address: geocoding_failed saying to try again, not to fix the address; nothing written', async () => {
  mode = 'down'
  const { first, count } = await createThroughApi('down-unknown', 'Nowhere Land')
  expect(first.status).toBe(422)
  expect(first.body.error).toBe('geocoding_failed')
  expect(first.body.message).toBe(
    'The address "Nowhere Land" could not be geocoded now: the geocoding service is unavailable (nominatim failed (HTTP 503)) and the built-in geocoder does not know it. Try again later, or send coordinates ({"lat": ..., "lng": ...}).',
  )
  expect(count).toBe(0)
})

test('the provider refuses this address (Google INVALID_REQUEST) and the embedded geocoder does not know it: geocoding_failed saying to check the address, not to try again later; nothing written', async () => {
  mode = 'invalid'
  const google: GeocoderConfig = { ...nominatim, provider: 'google', apiKey: 'test-key' }
  const { first, count } = await createThroughApi('invalid-unknown', 'Nowhere Land', google)
  expect(first.status).toBe(422)
  expect(first.body.error).toBe('geocoding_failed')
  expect(first.body.message).toBe(
    'The address "Nowhere Land" could not be geocoded: the geocoding service could not place it (google rejected the request as invalid (INVALID_REQUEST: Invalid request.)) and the built-in geocoder does not know it. Check the address, or send coordinates ({"lat": ..., "lng": ...}).',
  )
  expect(count).toBe(0)
})

test('the provider finds nothing: not a failure, so no fallback; the API answers geocoding_failed', async () => {
  mode = 'ok'
  const { first } = await createThroughApi('none', 'Nowhere Land')
  expect(first.status).toBe(422)
  expect(first.body.error).toBe('geocoding_failed')
})

// ---- the provider's cache key: adapter version and endpoint ------------------------------------

/** Geocodes `address` as one start of the service would: a stack made for `config` over the database at `path`. */
async function geocodeOnce(path: string, config: GeocoderConfig, address: string) {
  const store = openStore(path)
  const stack = await createGeocoder(config, store)
  try {
    return await stack.geocoder.geocode(address)
  } finally {
    stack.close()
    store.close()
  }
}

/** The cache's provider keys in the database at `path`, but the embedded geocoder's. */
function providerKeys(path: string): string[] {
  const db = new Database(path, { readonly: true })
  try {
    return db
      .query<{ provider: string }, []>(
        "SELECT DISTINCT provider FROM geocode_cache WHERE provider NOT LIKE 'embedded%' ORDER BY provider",
      )
      .all()
      .map((r) => r.provider)
  } finally {
    db.close()
  }
}

const DUOMO_ADDRESS = 'Piazza del Duomo 1, 20122 Milano, Italia'

test("GEOCODER_URL set to another instance: that one is asked, not served the old one's cached answer; each keeps its own answers, asked once", async () => {
  mode = 'ok'
  requests = 0
  const path = join(dir, 'url-change.db')
  const other: GeocoderConfig = { ...nominatim, url: `${nominatim.url}/other` }
  expect(await geocodeOnce(path, nominatim, DUOMO_ADDRESS)).toMatchObject(DUOMO)
  expect(await geocodeOnce(path, other, DUOMO_ADDRESS)).toMatchObject(OTHER_DUOMO)
  expect(requests).toBe(2)
  // Each configuration again (the operator switching back): from its own cache entry, no request.
  expect(await geocodeOnce(path, nominatim, DUOMO_ADDRESS)).toMatchObject(DUOMO)
  expect(await geocodeOnce(path, other, DUOMO_ADDRESS)).toMatchObject(OTHER_DUOMO)
  expect(requests).toBe(2)
  expect(providerKeys(path)).toHaveLength(2)
})

test('the same instance written otherwise (a trailing slash, an upper-case scheme, a user and password) hits the cache; the key names the adapter version and stores neither URL nor password', async () => {
  mode = 'ok'
  requests = 0
  const path = join(dir, 'url-same.db')
  const port = String(server.port)
  expect(await geocodeOnce(path, nominatim, DUOMO_ADDRESS)).toMatchObject(DUOMO)
  for (const url of [
    `${nominatim.url}/`,
    `HTTP://127.0.0.1:${port}`,
    `http://storeloc:s3cret-pass@127.0.0.1:${port}`,
  ]) {
    expect(await geocodeOnce(path, { ...nominatim, url }, DUOMO_ADDRESS)).toMatchObject({
      ...DUOMO,
      obtainedAt: expect.any(Number),
    })
  }
  expect(requests).toBe(1)
  const keys = providerKeys(path)
  expect(keys).toEqual([expect.stringMatching(/^nominatim@\d+#[0-9a-z]+$/)])
  expect(keys[0]).not.toContain('127.0.0.1')
  expect(keys[0]).not.toContain(port)
})

test('an answer cached by an older adapter version (a point at 0,0, refused since) is not served: the provider is asked again, and its answer then cached', async () => {
  mode = 'ok'
  requests = 0
  const path = join(dir, 'adapter-version.db')
  expect(await geocodeOnce(path, nominatim, DUOMO_ADDRESS)).toMatchObject(DUOMO)
  const [key] = providerKeys(path)
  // As older builds wrote them: without a version (before versions), and under the version before this one.
  const older = ['nominatim', key!.replace(/@(\d+)/, (_, v: string) => `@${Number(v) - 1}`)]
  const bad = JSON.stringify({ lat: 0, lng: 0, precision: 'rooftop', source: 'nominatim', parts: {} })
  const store = openStore(path)
  try {
    for (const [i, provider] of older.entries())
      await store.geocodeCache.put(
        provider,
        normalizeAddress(`Piazza del Duomo ${i + 2}, Milano`),
        bad,
        Date.now(),
        86_400_000,
      )
  } finally {
    store.close()
  }
  requests = 0
  for (const i of [0, 1])
    expect(await geocodeOnce(path, nominatim, `Piazza del Duomo ${i + 2}, Milano`)).toMatchObject(DUOMO)
  expect(requests).toBe(2)
  for (const i of [0, 1])
    expect(await geocodeOnce(path, nominatim, `Piazza del Duomo ${i + 2}, Milano`)).toMatchObject(DUOMO)
  expect(requests).toBe(2)
})

test('configuration: providers that need a key or a URL say so at start', () => {
  expect(() => loadConfig({ GEOCODER: 'google' })).toThrow(ConfigError)
  expect(() => loadConfig({ GEOCODER: 'pelias' })).toThrow(/GEOCODER_URL/)
  expect(() => loadConfig({ GEOCODER: 'nominatim' })).toThrow(/GEOCODER_USER_AGENT/)
  expect(
    loadConfig({ GEOCODER: 'nominatim', GEOCODER_USER_AGENT: 'acme/1.0 (ops@acme.example)' }).geocoder.userAgent,
  ).toBe('acme/1.0 (ops@acme.example)')
  expect(() => loadConfig({ GEOCODER: 'teleport' })).toThrow(/GEOCODER must be one of/)
  expect(() => loadConfig({ GEOCODER: 'nominatim', GEOCODER_URL: 'ftp://x' })).toThrow(/GEOCODER_URL/)
  // Not URLs at all, or with a query the paths added to it would land in: refused at start, not at each write.
  for (const bad of [
    'http://exa mple.com',
    'http://host:99999',
    'https://host/x?key=1',
    'http://host/#x',
    'http://',
    'http:///path',
    'localhost:8080',
    'http//host',
    'https://stores.example.com ',
    ' https://stores.example.com',
  ]) {
    for (const name of ['GEOCODER_URL', 'PUBLIC_BASE_URL']) {
      expect(() => loadConfig({ GEOCODER: 'nominatim', GEOCODER_URL: 'http://127.0.0.1:8080', [name]: bad })).toThrow(
        `${name} must be an http(s) URL without a query or fragment`,
      )
    }
  }
  const good = loadConfig({
    GEOCODER: 'nominatim',
    GEOCODER_URL: 'https://geo.example.com:8443/nominatim/',
    PUBLIC_BASE_URL: 'https://stores.example.com/',
  })
  expect({ geocoder: good.geocoder.url, base: good.publicBaseUrl }).toEqual({
    geocoder: 'https://geo.example.com:8443/nominatim',
    base: 'https://stores.example.com',
  })
  // As the Query API spec names {public_base_url}, with /public/v1 (which links add): the base before it.
  for (const base of ['https://stores.example.com/public/v1', 'https://stores.example.com/public/v1/'])
    expect(loadConfig({ PUBLIC_BASE_URL: base }).publicBaseUrl).toBe('https://stores.example.com')
  expect(loadConfig({ PUBLIC_BASE_URL: 'https://example.com/stores/public/v1' }).publicBaseUrl).toBe(
    'https://example.com/stores',
  )
  expect(loadConfig({ GEOCODER: 'pelias', GEOCODER_URL: 'http://127.0.0.1:4000' }).geocoder.provider).toBe('pelias')
  expect(loadConfig({}).geocoder).toMatchObject({ provider: 'embedded', url: null, apiKey: null, timeoutMs: 3000 })
  // A key from a secret file, with its newline: the key alone (with the newline it was sent as another key).
  expect(loadConfig({ GEOCODER: 'google', GEOCODER_API_KEY: 'AIzaSyExample-key_1\n' }).geocoder.apiKey).toBe(
    'AIzaSyExample-key_1',
  )
  expect(() => loadConfig({ GEOCODER: 'google', GEOCODER_API_KEY: ' \n' })).toThrow(
    'GEOCODER=google needs GEOCODER_API_KEY.',
  )
})

test('a bulk import checks what the provider placed with the embedded geocoder: the checks cost no provider request', async () => {
  mode = 'ok'
  requests = 0
  const store = openStore(join(dir, 'checks.db'))
  // A long timeout: Nominatim's one-request-per-second gate waits, rather than falling back as busy.
  const { stack, app } = await fakeClockApp({ ...nominatim, timeoutMs: 5000 }, store)
  try {
    const { secret } = createLocator(store, 'checks')
    // The row's postcode and country disagree with the address: the embedded geocoder knows 94103.
    const csv = 'external_id,name,address,postcode,country\nS1,Duomo,"Piazza del Duomo 1, 20122 Milano",94103,US\n'
    const res = await app.handle(
      new Request('http://localhost/admin/v1/locations/bulk?dry_run=true', {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'text/csv' },
        body: csv,
      }),
    )
    const body = (await res.json()) as any
    expect(res.status).toBe(200)
    expect(body.results[0].geocoding).toMatchObject({ precision: 'rooftop', source: 'nominatim' })
    expect(body.results[0].warnings).toEqual([
      "The address was placed in IT, but the row's country is US.",
      expect.stringMatching(/^The address was placed \d+ km from the place of postcode 94103\.$/),
    ])
    expect(requests).toBe(1)
  } finally {
    stack.close()
    store.close()
  }
})
