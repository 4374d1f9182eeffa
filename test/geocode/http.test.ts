// The HTTP geocoder adapters against stand-in servers on 127.0.0.1 that answer with each
// provider's documented response shapes (fixtures/). Nothing here reaches any other host: tests of
// the default public endpoints use an injected fetch that answers locally.
import { Database } from 'bun:sqlite'
import { afterEach, describe, expect, setSystemTime, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError, type GeocoderConfig } from '../../src/core/config'
import {
  cachedGeocoder,
  normalizeAddress,
  type GeocodeResult,
  type Geocoder,
  type Precision,
} from '../../src/geocode/geocoder'
import {
  ADAPTER_VERSIONS,
  createHttpGeocoder,
  GeocoderUnavailableError,
  httpCacheKey,
  PROVIDER_CACHE_TTL,
  withFallback,
  type HttpGeocoderProvider,
} from '../../src/geocode/http'
import { retryAfterMs } from '../../src/geocode/http/request'
import { KNOWN_ADDRESSES, makeEnv, tableGeocoder } from '../helpers'

const KEY = 'sk-test-7d1c9e4b2a51'
const UA = 'storeloc-test/1.0 (+https://stores.example.com)'
const DAY_MS = 86_400_000

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(import.meta.dir, 'fixtures', `${name}.json`), 'utf8'))
/** A fixture with some fields changed. */
function variant(name: string, change: (body: any) => void): unknown {
  const body = fixture(name)
  change(body)
  return body
}

// ---- stand-in servers -------------------------------------------------------------------------

type Hit = { url: URL; userAgent: string | null }
const servers: { stop(closeActiveConnections?: boolean): Promise<void> | void }[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop(true)))
})

function standIn(respond: (url: URL, n: number) => Response | Promise<Response>) {
  const hits: Hit[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const url = new URL(req.url)
      hits.push({ url, userAgent: req.headers.get('user-agent') })
      return respond(url, hits.length)
    },
  })
  servers.push(server)
  return { url: `http://127.0.0.1:${server.port}`, hits }
}

/** A JSON body, or text (sent as HTML, as proxies and error pages do) when given a string. */
function reply(body: unknown, status = 200): Response {
  return typeof body === 'string'
    ? new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8' } })
    : Response.json(body, { status })
}

const answering = (body: unknown, status = 200) => standIn(() => reply(body, status))

function config(provider: HttpGeocoderProvider, over: Partial<GeocoderConfig> = {}): GeocoderConfig {
  return {
    provider,
    url: null,
    apiKey: KEY,
    userAgent: UA,
    timeoutMs: 2000,
    dataPath: 'unused-by-http-geocoders.sqlite',
    ...over,
  }
}

/** Asserts a GeocoderUnavailableError naming the provider and the reason, and quoting neither the key nor the URL. */
async function expectUnavailable(
  call: Promise<unknown>,
  provider: string,
  reason: RegExp,
): Promise<GeocoderUnavailableError> {
  let caught: unknown
  try {
    await call
  } catch (err) {
    caught = err
  }
  expect(caught).toBeInstanceOf(GeocoderUnavailableError)
  const err = caught as GeocoderUnavailableError
  expect(err.provider).toBe(provider)
  expect(err.message.startsWith(`${provider} `)).toBe(true)
  expect(err.message).toMatch(reason)
  expect(err.message).not.toContain(KEY)
  expect(err.message).not.toContain('127.0.0.1')
  return err
}

/**
 * A virtual clock for the request gate: `sleep` registers a timer instead of waiting, and `run`
 * drives a piece of work to its end, firing the timers in time order whenever nothing else is due.
 */
function fakeClock() {
  const clock = { t: 0, sleeps: [] as number[] }
  const timers: { at: number; wake: () => void }[] = []
  const options = {
    now: () => clock.t,
    sleep: (ms: number) => {
      clock.sleeps.push(ms)
      return new Promise<void>((wake) => timers.push({ at: clock.t + ms, wake }))
    },
  }
  async function run<T>(work: Promise<T>): Promise<T> {
    let settled = false
    work.then(
      () => (settled = true),
      () => (settled = true),
    )
    while (!settled) {
      await Bun.sleep(1)
      if (settled || timers.length === 0) continue
      timers.sort((a, b) => a.at - b.at)
      const next = timers.shift()!
      clock.t = Math.max(clock.t, next.at)
      next.wake()
    }
    return work
  }
  return { clock, options, run }
}

/** The real fetch, noting the injected clock at each request start. */
function recordingFetch(starts: number[], now: () => number): typeof fetch {
  return Object.assign(
    (...args: Parameters<typeof fetch>) => {
      starts.push(now())
      return fetch(...args)
    },
    { preconnect: fetch.preconnect },
  )
}

// ---- every provider: the same outcomes from its own response shapes ----------------------------

type Case = {
  provider: HttpGeocoderProvider
  address: string
  /** Path the request must take (mapbox: the path's prefix; the address follows it). */
  path: string
  /** The address as the server received it. */
  sentAddress: (url: URL) => string | null
  keyParam: string | null
  fixedParams: Record<string, string>
  found: string
  expected: GeocodeResult
  notFound: unknown
  /** The provider's own over-limit answer. */
  rateLimited: { status: number; body: unknown; reason: RegExp }
  defaultOrigin: string
}

const CASES: Case[] = [
  {
    provider: 'nominatim',
    address: '10 Downing Street, London SW1A 2AA',
    path: '/search',
    sentAddress: (url) => url.searchParams.get('q'),
    keyParam: null,
    fixedParams: { format: 'jsonv2', addressdetails: '1', limit: '1' },
    found: 'nominatim-found',
    expected: {
      lat: 51.50344025,
      lng: -0.12770820958562096,
      precision: 'rooftop',
      source: 'nominatim',
      parts: { street: '10 Downing Street', city: 'London', region: 'England', postcode: 'SW1A 2AA', country: 'GB' },
    },
    notFound: [],
    rateLimited: {
      status: 429,
      body: '<html><head><title>429 Too Many Requests</title></head><body>Too Many Requests</body></html>',
      reason: /is rate limiting us \(HTTP 429/,
    },
    defaultOrigin: 'https://nominatim.openstreetmap.org',
  },
  {
    provider: 'photon',
    address: 'Pariser Platz 1, 10117 Berlin',
    path: '/api',
    sentAddress: (url) => url.searchParams.get('q'),
    keyParam: null,
    fixedParams: { limit: '1' },
    found: 'photon-found',
    expected: {
      lat: 52.5160414,
      lng: 13.3792394,
      precision: 'rooftop',
      source: 'photon',
      parts: { street: 'Pariser Platz 1', city: 'Berlin', region: 'Berlin', postcode: '10117', country: 'DE' },
    },
    notFound: fixture('photon-empty'),
    rateLimited: {
      status: 429,
      body: '<html><body><h1>429 Too Many Requests</h1></body></html>',
      reason: /is rate limiting us \(HTTP 429/,
    },
    defaultOrigin: 'https://photon.komoot.io',
  },
  {
    provider: 'pelias',
    address: '30 West 26th Street, New York, NY',
    path: '/v1/search',
    sentAddress: (url) => url.searchParams.get('text'),
    keyParam: 'api_key',
    fixedParams: { size: '1' },
    found: 'pelias-found',
    expected: {
      lat: 40.744131,
      lng: -73.990425,
      precision: 'rooftop',
      source: 'pelias',
      parts: { street: '30 West 26th Street', city: 'New York', region: 'New York', postcode: '10010', country: 'US' },
    },
    notFound: fixture('pelias-empty'),
    rateLimited: { status: 429, body: 'Too Many Requests', reason: /is rate limiting us \(HTTP 429/ },
    defaultOrigin: 'https://api.geocode.earth',
  },
  {
    provider: 'google',
    address: '1600 Amphitheatre Parkway, Mountain View, CA',
    path: '/maps/api/geocode/json',
    sentAddress: (url) => url.searchParams.get('address'),
    keyParam: 'key',
    fixedParams: {},
    found: 'google-found',
    expected: {
      lat: 37.4224428,
      lng: -122.0842467,
      precision: 'rooftop',
      source: 'google',
      parts: {
        street: '1600 Amphitheatre Parkway',
        city: 'Mountain View',
        region: 'California',
        postcode: '94043',
        country: 'US',
      },
    },
    notFound: fixture('google-zero-results'),
    // Google reports quota with HTTP 200 and a status.
    rateLimited: {
      status: 200,
      body: fixture('google-over-query-limit'),
      reason: /is over its query limit \(OVER_QUERY_LIMIT: You have exceeded/,
    },
    defaultOrigin: 'https://maps.googleapis.com',
  },
  {
    provider: 'mapbox',
    address: '1600 Pennsylvania Ave NW, Washington, DC 20500',
    path: '/geocoding/v5/mapbox.places-permanent/',
    sentAddress: (url) => {
      const m = /^\/geocoding\/v5\/mapbox\.places-permanent\/([^/]+)\.json$/.exec(url.pathname)
      return m?.[1] === undefined ? null : decodeURIComponent(m[1])
    },
    keyParam: 'access_token',
    fixedParams: { limit: '1' },
    found: 'mapbox-found',
    expected: {
      lat: 38.897675,
      lng: -77.036547,
      precision: 'rooftop',
      source: 'mapbox',
      parts: {
        street: '1600 Pennsylvania Avenue Northwest',
        city: 'Washington',
        region: 'District of Columbia',
        postcode: '20500',
        country: 'US',
      },
    },
    notFound: fixture('mapbox-empty'),
    rateLimited: { status: 429, body: { message: 'Too Many Requests' }, reason: /is rate limiting us \(HTTP 429/ },
    defaultOrigin: 'https://api.mapbox.com',
  },
  {
    provider: 'opencage',
    address: '10 Downing Street, London',
    path: '/geocode/v1/json',
    sentAddress: (url) => url.searchParams.get('q'),
    keyParam: 'key',
    fixedParams: { limit: '1' },
    found: 'opencage-found',
    expected: {
      lat: 51.5034403,
      lng: -0.1277082,
      precision: 'rooftop',
      source: 'opencage',
      parts: { street: '10 Downing Street', city: 'London', region: 'England', postcode: 'SW1A 2AA', country: 'GB' },
    },
    notFound: fixture('opencage-empty'),
    rateLimited: { status: 429, body: fixture('opencage-429'), reason: /is rate limiting us \(HTTP 429/ },
    defaultOrigin: 'https://api.opencagedata.com',
  },
]

for (const c of CASES) {
  describe(`${c.provider} adapter`, () => {
    test('found: coordinates, precision, parts and source; the request carries the address, the key and the User-Agent', async () => {
      const server = answering(fixture(c.found))
      const result = await createHttpGeocoder(config(c.provider, { url: server.url })).geocode(c.address)
      expect(result).toStrictEqual(c.expected)
      expect(server.hits).toHaveLength(1)
      const hit = server.hits[0]!
      expect(hit.url.pathname.startsWith(c.path)).toBe(true)
      expect(c.sentAddress(hit.url)).toBe(c.address)
      expect(hit.userAgent).toBe(UA)
      for (const [name, value] of Object.entries(c.fixedParams)) expect(hit.url.searchParams.get(name)).toBe(value)
      if (c.keyParam) expect(hit.url.searchParams.get(c.keyParam)).toBe(KEY)
      else expect(hit.url.search).not.toContain(KEY)
    })

    test('not found: null', async () => {
      const server = answering(c.notFound)
      expect(await createHttpGeocoder(config(c.provider, { url: server.url })).geocode(c.address)).toBeNull()
      expect(server.hits).toHaveLength(1)
    })

    test("rate limited (the provider's over-limit answer): GeocoderUnavailableError", async () => {
      const server = answering(c.rateLimited.body, c.rateLimited.status)
      await expectUnavailable(
        createHttpGeocoder(config(c.provider, { url: server.url })).geocode(c.address),
        c.provider,
        c.rateLimited.reason,
      )
    })

    test('HTTP 503: GeocoderUnavailableError', async () => {
      const server = answering('<html><body>503 Service Unavailable</body></html>', 503)
      await expectUnavailable(
        createHttpGeocoder(config(c.provider, { url: server.url })).geocode(c.address),
        c.provider,
        /failed \(HTTP 503\)/,
      )
    })

    test('malformed body (HTML with 200): GeocoderUnavailableError', async () => {
      const server = answering('<!DOCTYPE html><html><body>Welcome to nginx!</body></html>')
      await expectUnavailable(
        createHttpGeocoder(config(c.provider, { url: server.url })).geocode(c.address),
        c.provider,
        /malformed response/,
      )
    })

    test('JSON of an unexpected shape: GeocoderUnavailableError', async () => {
      const server = answering({ hello: 'world', results: 'none' })
      await expectUnavailable(
        createHttpGeocoder(config(c.provider, { url: server.url })).geocode(c.address),
        c.provider,
        /unexpected response/,
      )
    })

    test('a response slower than timeoutMs: fails at the timeout', async () => {
      const server = standIn(async () => {
        await Bun.sleep(1000)
        return reply(fixture(c.found))
      })
      const started = performance.now()
      await expectUnavailable(
        createHttpGeocoder(config(c.provider, { url: server.url, timeoutMs: 200 })).geocode(c.address),
        c.provider,
        /timed out after 200 ms/,
      )
      const elapsed = performance.now() - started
      expect(elapsed).toBeGreaterThanOrEqual(190)
      expect(elapsed).toBeLessThan(900)
    })

    test('without config.url: the public endpoint (checked with a local fetch, no network)', async () => {
      const seen: { url: string; userAgent: string | null }[] = []
      const localFetch = Object.assign(
        async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
          seen.push({ url: String(input), userAgent: new Headers(init?.headers).get('user-agent') })
          return reply(c.notFound)
        },
        { preconnect: fetch.preconnect },
      )
      expect(await createHttpGeocoder(config(c.provider), { fetch: localFetch }).geocode(c.address)).toBeNull()
      expect(seen).toHaveLength(1)
      const url = new URL(seen[0]!.url)
      expect(url.origin).toBe(c.defaultOrigin)
      expect(url.pathname.startsWith(c.path)).toBe(true)
      expect(seen[0]!.userAgent).toBe(UA)
    })
  })
}

// A found answer's point moved to 0,0, as each provider writes it.
const AT_NULL_ISLAND: Record<HttpGeocoderProvider, (body: any) => void> = {
  nominatim: (b) => Object.assign(b[0], { lat: '0.0000000', lon: '0.0000000' }),
  photon: (b) => (b.features[0].geometry.coordinates = [0, 0]),
  pelias: (b) => (b.features[0].geometry.coordinates = [0, 0]),
  google: (b) => (b.results[0].geometry.location = { lat: 0, lng: 0 }),
  mapbox: (b) => (b.features[0].center = [0, 0]),
  opencage: (b) => (b.results[0].geometry = { lat: 0, lng: 0 }),
}

describe("a point at 0,0 (Null Island: a record without a point, as Pelias gave for some postcodes from Who's On First)", () => {
  for (const c of CASES) {
    test(`${c.provider}: GeocoderUnavailableError, not a store placed in the Gulf of Guinea`, async () => {
      const server = answering(variant(c.found, AT_NULL_ISLAND[c.provider]))
      await expectUnavailable(
        createHttpGeocoder(config(c.provider, { url: server.url })).geocode(c.address),
        c.provider,
        /unexpected response \(coordinates\)/,
      )
    })
  }
})

// ---- precision mapping, per provider -----------------------------------------------------------

type Row = [label: string, body: unknown, precision: Precision | null]

function precisionTable(provider: HttpGeocoderProvider, rows: Row[]) {
  describe(`${provider} precision mapping`, () => {
    for (const [label, body, expected] of rows) {
      test(`${label} -> ${expected ?? 'null (not found)'}`, async () => {
        const server = answering(body)
        const result = await createHttpGeocoder(config(provider, { url: server.url })).geocode('somewhere')
        expect(result === null ? null : result.precision).toBe(expected)
      })
    }
  })
}

const nominatimPlace = (change: Record<string, unknown>) =>
  variant('nominatim-found', (b) => Object.assign(b[0], change))
precisionTable('nominatim', [
  ['place_rank 30 building', fixture('nominatim-found'), 'rooftop'],
  [
    'place_rank 26 street',
    nominatimPlace({ place_rank: 26, category: 'highway', type: 'residential', addresstype: 'road' }),
    'street',
  ],
  [
    'postcode',
    nominatimPlace({ place_rank: 21, category: 'place', type: 'postcode', addresstype: 'postcode' }),
    'postcode',
  ],
  [
    'place_rank 16 city',
    nominatimPlace({ place_rank: 16, category: 'boundary', type: 'administrative', addresstype: 'city' }),
    'city',
  ],
  [
    'place_rank 19 suburb',
    nominatimPlace({ place_rank: 19, category: 'place', type: 'suburb', addresstype: 'suburb' }),
    'city',
  ],
  [
    'place_rank 8 state',
    nominatimPlace({ place_rank: 8, category: 'boundary', type: 'administrative', addresstype: 'state' }),
    'region',
  ],
  [
    'place_rank 4 country',
    nominatimPlace({ place_rank: 4, category: 'boundary', type: 'administrative', addresstype: 'country' }),
    'country',
  ],
  [
    'place_rank 2 continent',
    nominatimPlace({ place_rank: 2, category: 'place', type: 'continent', addresstype: 'continent' }),
    null,
  ],
])

const photonProps = (change: Record<string, unknown>, drop: string[] = []) =>
  variant('photon-found', (b) => {
    Object.assign(b.features[0].properties, change)
    for (const k of drop) delete b.features[0].properties[k]
  })
precisionTable('photon', [
  ['type house', fixture('photon-found'), 'rooftop'],
  [
    'type street',
    photonProps({ type: 'street', osm_key: 'highway', osm_value: 'residential', name: 'Pariser Platz' }, [
      'housenumber',
      'street',
    ]),
    'street',
  ],
  [
    'osm_value postcode',
    photonProps({ type: 'district', osm_value: 'postcode', name: '10117' }, ['housenumber', 'street']),
    'postcode',
  ],
  [
    'type district',
    photonProps({ type: 'district', osm_value: 'suburb', name: 'Mitte' }, ['housenumber', 'street']),
    'city',
  ],
  ['type city', fixture('photon-city'), 'city'],
  [
    'type state',
    photonProps({ type: 'state', osm_value: 'state', name: 'Berlin' }, ['housenumber', 'street', 'city', 'postcode']),
    'region',
  ],
  [
    'type country',
    photonProps({ type: 'country', osm_value: 'country', name: 'Deutschland' }, [
      'housenumber',
      'street',
      'city',
      'postcode',
      'state',
    ]),
    'country',
  ],
  [
    'type other with a street (never rooftop)',
    photonProps({ type: 'other', osm_key: 'tourism', osm_value: 'attraction' }),
    'street',
  ],
  [
    'type other without any address',
    photonProps({ type: 'other', osm_key: 'natural', osm_value: 'water' }, [
      'housenumber',
      'street',
      'city',
      'postcode',
      'state',
      'countrycode',
      'district',
      'locality',
    ]),
    null,
  ],
  // A type naming a member every object inherits is an unmapped type, as "other" is.
  [
    'type constructor (unmapped)',
    photonProps({ type: 'constructor', osm_key: 'tourism', osm_value: 'attraction' }),
    'street',
  ],
  [
    'type __proto__ (unmapped)',
    photonProps({ type: '__proto__', osm_key: 'tourism', osm_value: 'attraction' }),
    'street',
  ],
])

const peliasProps = (change: Record<string, unknown>) =>
  variant('pelias-found', (b) => Object.assign(b.features[0].properties, change))
precisionTable('pelias', [
  ['address, accuracy point', fixture('pelias-found'), 'rooftop'],
  ['address, match_type interpolated', peliasProps({ match_type: 'interpolated' }), 'street'],
  ['venue, accuracy centroid', peliasProps({ layer: 'venue', accuracy: 'centroid' }), 'street'],
  ['street', peliasProps({ layer: 'street', accuracy: 'centroid', housenumber: undefined }), 'street'],
  ['postalcode', peliasProps({ layer: 'postalcode', accuracy: 'centroid' }), 'postcode'],
  ['locality', peliasProps({ layer: 'locality', accuracy: 'centroid' }), 'city'],
  ['neighbourhood', peliasProps({ layer: 'neighbourhood', accuracy: 'centroid' }), 'city'],
  ['county', peliasProps({ layer: 'county', accuracy: 'centroid' }), 'region'],
  ['region', peliasProps({ layer: 'region', accuracy: 'centroid' }), 'region'],
  ['country', peliasProps({ layer: 'country', accuracy: 'centroid' }), 'country'],
  ['ocean', peliasProps({ layer: 'ocean', accuracy: 'centroid' }), null],
  ['toString (unmapped)', peliasProps({ layer: 'toString', accuracy: 'centroid' }), null],
  ['constructor (unmapped)', peliasProps({ layer: 'constructor', accuracy: 'centroid' }), null],
])

const googleResult = (locationType: string, types: string[]) =>
  variant('google-found', (b) => {
    b.results[0].geometry.location_type = locationType
    b.results[0].types = types
  })
precisionTable('google', [
  ['ROOFTOP', fixture('google-found'), 'rooftop'],
  ['RANGE_INTERPOLATED', googleResult('RANGE_INTERPOLATED', ['street_address']), 'street'],
  ['GEOMETRIC_CENTER of a route', googleResult('GEOMETRIC_CENTER', ['route']), 'street'],
  ['GEOMETRIC_CENTER of a premise (never rooftop)', googleResult('GEOMETRIC_CENTER', ['premise']), 'street'],
  ['APPROXIMATE postal_code', googleResult('APPROXIMATE', ['postal_code']), 'postcode'],
  ['APPROXIMATE locality', fixture('google-locality'), 'city'],
  [
    'APPROXIMATE administrative_area_level_1',
    googleResult('APPROXIMATE', ['administrative_area_level_1', 'political']),
    'region',
  ],
  ['APPROXIMATE country', googleResult('APPROXIMATE', ['country', 'political']), 'country'],
  ['APPROXIMATE of an unmapped type: from its parts', googleResult('APPROXIMATE', ['natural_feature']), 'street'],
  [
    'APPROXIMATE of type constructor (unmapped): from its parts',
    googleResult('APPROXIMATE', ['constructor']),
    'street',
  ],
])

const mapboxFeature = (change: (f: any) => void) => variant('mapbox-found', (b) => change(b.features[0]))
precisionTable('mapbox', [
  ['address, accuracy rooftop', fixture('mapbox-found'), 'rooftop'],
  ['address, accuracy parcel', mapboxFeature((f) => (f.properties.accuracy = 'parcel')), 'rooftop'],
  ['address, accuracy interpolated', mapboxFeature((f) => (f.properties.accuracy = 'interpolated')), 'street'],
  ['address, accuracy street', mapboxFeature((f) => (f.properties.accuracy = 'street')), 'street'],
  [
    'postcode',
    mapboxFeature((f) =>
      Object.assign(f, { id: 'postcode.8031694', place_type: ['postcode'], text: '20500', properties: {} }),
    ),
    'postcode',
  ],
  ['place', fixture('mapbox-place'), 'city'],
  [
    'region',
    mapboxFeature((f) =>
      Object.assign(f, {
        id: 'region.14064402',
        place_type: ['region'],
        text: 'District of Columbia',
        properties: { short_code: 'US-DC' },
      }),
    ),
    'region',
  ],
  [
    'country',
    mapboxFeature((f) =>
      Object.assign(f, {
        id: 'country.8940',
        place_type: ['country'],
        text: 'United States',
        properties: { short_code: 'us' },
        context: [],
      }),
    ),
    'country',
  ],
  [
    'several place types: the finest',
    mapboxFeature((f) => Object.assign(f, { place_type: ['region', 'place'], properties: {} })),
    'city',
  ],
  [
    'an unmapped place type (hasOwnProperty): not found',
    mapboxFeature((f) => Object.assign(f, { place_type: ['hasOwnProperty'], properties: {} })),
    null,
  ],
  [
    'an unmapped place type beside a mapped one: the mapped one',
    mapboxFeature((f) => Object.assign(f, { place_type: ['constructor', 'place'], properties: {} })),
    'city',
  ],
])

const opencageResult = (change: (r: any) => void) => variant('opencage-found', (b) => change(b.results[0]))
precisionTable('opencage', [
  ['building, confidence 10', fixture('opencage-found'), 'rooftop'],
  ['building, confidence 7 (box over 1 km)', opencageResult((r) => (r.confidence = 7)), 'street'],
  [
    'road',
    opencageResult((r) => ((r.components._type = 'road'), delete r.components.house_number, (r.confidence = 9))),
    'street',
  ],
  ['postcode', opencageResult((r) => ((r.components._type = 'postcode'), (r.confidence = 7))), 'postcode'],
  ['city', opencageResult((r) => ((r.components._type = 'city'), (r.confidence = 3))), 'city'],
  ['village', opencageResult((r) => ((r.components._type = 'village'), (r.confidence = 6))), 'city'],
  ['state', opencageResult((r) => ((r.components._type = 'state'), (r.confidence = 1))), 'region'],
  ['country', opencageResult((r) => ((r.components._type = 'country'), (r.confidence = 1))), 'country'],
  ['attraction with a house number', opencageResult((r) => (r.components._type = 'attraction')), 'rooftop'],
  ['__proto__ (unmapped) with a house number', opencageResult((r) => (r.components._type = '__proto__')), 'rooftop'],
  [
    'constructor (unmapped) without a house number',
    opencageResult((r) => ((r.components._type = 'constructor'), delete r.components.house_number, (r.confidence = 9))),
    'street',
  ],
  [
    'body_of_water with only a country',
    opencageResult((r) => {
      r.components = {
        _type: 'body_of_water',
        _category: 'natural/water',
        'ISO_3166-1_alpha-2': 'GB',
        country: 'United Kingdom',
        country_code: 'gb',
      }
      r.confidence = 1
    }),
    'country',
  ],
])

// ---- provider specifics ------------------------------------------------------------------------

describe('nominatim specifics', () => {
  test('HTTP 400 with its error body: the message is quoted', async () => {
    const server = answering(fixture('nominatim-error'), 400)
    await expectUnavailable(
      createHttpGeocoder(config('nominatim', { url: server.url })).geocode('x'),
      'nominatim',
      /refused the request \(HTTP 400: Parameter 'limit' must be a number\.\)/,
    )
  })

  test('lat or lon not decimal text ("", " ", "0x2D", "1e1"): an unexpected response, not a point at 0', async () => {
    for (const bad of ['', ' ', '0x2D', '1e1', '+5', 'Infinity']) {
      const server = answering(variant('nominatim-found', (b) => (b[0].lat = bad)))
      await expectUnavailable(
        createHttpGeocoder(config('nominatim', { url: server.url })).geocode('x'),
        'nominatim',
        /unexpected response \(coordinates\)/,
      )
    }
  })

  test('config.url with a path prefix and a trailing slash', async () => {
    const server = answering([])
    await createHttpGeocoder(config('nominatim', { url: `${server.url}/nominatim/` })).geocode('x')
    expect(server.hits[0]!.url.pathname).toBe('/nominatim/search')
  })

  test('street after the house number outside number-first countries; a whole city result', async () => {
    const server = answering(
      variant('nominatim-found', (b) => {
        b[0].address = {
          house_number: '77',
          road: 'Unter den Linden',
          suburb: 'Mitte',
          city: 'Berlin',
          state: 'Berlin',
          postcode: '10117',
          country: 'Deutschland',
          country_code: 'de',
        }
      }),
    )
    const result = await createHttpGeocoder(config('nominatim', { url: server.url })).geocode(
      'Unter den Linden 77, Berlin',
    )
    expect(result?.parts).toStrictEqual({
      street: 'Unter den Linden 77',
      city: 'Berlin',
      region: 'Berlin',
      postcode: '10117',
      country: 'DE',
    })
  })
})

describe('address parts a provider sends', () => {
  test('one over 200 characters, or with a line break or a bidi override, is left out (it is shown in public answers); the others kept, NFC', async () => {
    const server = answering(
      variant('nominatim-found', (b) => {
        b[0].address = {
          house_number: '77',
          road: 'Unter den Linden',
          city: 'B'.repeat(201),
          state: 'Berlin\u202Eevil',
          postcode: '10117\n<b>',
          country: 'Deutschland',
          country_code: 'de',
          suburb: 'Mitte',
        }
        b[0].address.road = 'Unter den Linde\u006e\u0301' // an n and a combining acute: one ń once NFC
      }),
    )
    const result = await createHttpGeocoder(config('nominatim', { url: server.url })).geocode(
      'Unter den Linden 77, Berlin',
    )
    expect(result?.parts).toStrictEqual({ street: 'Unter den Lindeń 77', country: 'DE' })
    expect(result?.parts.street).toBe('Unter den Linde\u0144 77')
    // 200 characters is a name still.
    const long = answering(variant('nominatim-found', (b) => void (b[0].address.city = 'C'.repeat(200))))
    expect((await createHttpGeocoder(config('nominatim', { url: long.url })).geocode('x'))?.parts.city).toBe(
      'C'.repeat(200),
    )
  })
})

describe('photon specifics', () => {
  test('a city result names the city in `name`; parts take it from there', async () => {
    const server = answering(fixture('photon-city'))
    const result = await createHttpGeocoder(config('photon', { url: server.url })).geocode('Berlin')
    expect(result).toStrictEqual({
      lat: 52.5170365,
      lng: 13.3888599,
      precision: 'city',
      source: 'photon',
      parts: { city: 'Berlin', region: 'Berlin', country: 'DE' },
    })
  })
})

describe('pelias specifics', () => {
  test('a self-hosted Pelias without a key: no api_key parameter', async () => {
    const server = answering(fixture('pelias-found'))
    await createHttpGeocoder(config('pelias', { url: server.url, apiKey: null })).geocode(
      '30 West 26th Street, New York, NY',
    )
    expect(server.hits[0]!.url.searchParams.has('api_key')).toBe(false)
  })

  test('HTTP 400 with geocoding.errors: the error is quoted', async () => {
    const server = answering(fixture('pelias-error'), 400)
    await expectUnavailable(
      createHttpGeocoder(config('pelias', { url: server.url })).geocode(' '),
      'pelias',
      /HTTP 400: invalid param 'text'/,
    )
  })

  test('geocoding.errors with HTTP 200 is a failure too', async () => {
    const server = answering(fixture('pelias-error'))
    await expectUnavailable(
      createHttpGeocoder(config('pelias', { url: server.url })).geocode(' '),
      'pelias',
      /reported an error/,
    )
  })
})

describe('google specifics', () => {
  for (const status of ['OVER_DAILY_LIMIT', 'REQUEST_DENIED', 'INVALID_REQUEST', 'UNKNOWN_ERROR']) {
    // INVALID_REQUEST is about the request's address; the others about the service or the key (the refresh stops asking).
    const scope = status === 'INVALID_REQUEST' ? 'address' : 'service'
    test(`status ${status} (HTTP 200): GeocoderUnavailableError naming the status, of scope ${scope}`, async () => {
      const server = answering({ error_message: 'Something went wrong.', results: [], status })
      const err = await expectUnavailable(
        createHttpGeocoder(config('google', { url: server.url })).geocode('x'),
        'google',
        new RegExp(`\\(${status}: Something went wrong\\.\\)`),
      )
      expect(err.scope).toBe(scope)
    })
  }

  test('a status naming a member every object inherits (constructor) is an unexpected status', async () => {
    const server = answering({ results: [], status: 'constructor' })
    const err = await expectUnavailable(
      createHttpGeocoder(config('google', { url: server.url })).geocode('x'),
      'google',
      /sent an unexpected status \(constructor\)/,
    )
    expect(err.message).not.toContain('function')
  })

  test('REQUEST_DENIED quoting the key: the key is redacted from the message', async () => {
    const server = answering(
      variant('google-request-denied', (b) => (b.error_message = `API key ${KEY} is not authorized for this API.`)),
    )
    const err = await expectUnavailable(
      createHttpGeocoder(config('google', { url: server.url })).geocode('x'),
      'google',
      /refused the request \(REQUEST_DENIED/,
    )
    expect(err.message).toContain('[key]')
  })

  test("a long message quoting the key across the reason's cut: no part of the key is left", async () => {
    // The old cut, at 160 characters, fell inside the key.
    const server = answering(
      variant(
        'google-request-denied',
        (b) =>
          (b.error_message = `${'This API project is not authorized to use this API. '.repeat(3).slice(0, 140)} key=${KEY}`),
      ),
    )
    const err = await expectUnavailable(
      createHttpGeocoder(config('google', { url: server.url })).geocode('x'),
      'google',
      /refused the request/,
    )
    expect(err.message.length).toBeLessThanOrEqual(260)
    for (let n = 6; n <= KEY.length; n++) expect(err.message).not.toContain(KEY.slice(0, n))
  })

  test('the key echoed URL-encoded is redacted too', async () => {
    const key = 'ab/cd+ef=gh&ij'
    const server = answering({
      error_message: `bad key ${encodeURIComponent(key)} or ${new URLSearchParams({ k: key }).toString().slice(2)}`,
      results: [],
      status: 'REQUEST_DENIED',
    })
    const err = await expectUnavailable(
      createHttpGeocoder(config('google', { url: server.url, apiKey: key })).geocode('x'),
      'google',
      /REQUEST_DENIED/,
    )
    expect(err.message).toContain('bad key [key] or [key]')
  })

  test('OK with no results is unexpected, not "not found": a failure of this address only', async () => {
    const server = answering({ results: [], status: 'OK' })
    const err = await expectUnavailable(
      createHttpGeocoder(config('google', { url: server.url })).geocode('x'),
      'google',
      /unexpected response/,
    )
    expect(err.scope).toBe('address')
  })

  test('an HTTP 503 or 429 fails the service, not the address', async () => {
    for (const status of [503, 429]) {
      const server = answering({}, status)
      expect(
        (
          await expectUnavailable(
            createHttpGeocoder(config('google', { url: server.url })).geocode('x'),
            'google',
            /HTTP/,
          )
        ).scope,
      ).toBe('service')
    }
  })

  test('a locality: parts from its components', async () => {
    const server = answering(fixture('google-locality'))
    const result = await createHttpGeocoder(config('google', { url: server.url })).geocode('Springfield, IL')
    expect(result).toStrictEqual({
      lat: 39.7817213,
      lng: -89.6501481,
      precision: 'city',
      source: 'google',
      parts: { city: 'Springfield', region: 'Illinois', country: 'US' },
    })
  })
})

describe('mapbox specifics', () => {
  test('HTTP 401 with its message: GeocoderUnavailableError quoting it', async () => {
    const server = answering({ message: 'Not Authorized - Invalid Token' }, 401)
    await expectUnavailable(
      createHttpGeocoder(config('mapbox', { url: server.url })).geocode('x'),
      'mapbox',
      /refused the request \(HTTP 401: Not Authorized - Invalid Token\)/,
    )
  })

  test('semicolons (batch separators on the permanent endpoint) are sent as commas', async () => {
    const server = answering(fixture('mapbox-empty'))
    await createHttpGeocoder(config('mapbox', { url: server.url })).geocode('Suite 5; 1600 Pennsylvania Ave NW')
    expect(CASES.find((c) => c.provider === 'mapbox')!.sentAddress(server.hits[0]!.url)).toBe(
      'Suite 5, 1600 Pennsylvania Ave NW',
    )
  })

  test('a place: parts from the feature and its context', async () => {
    const server = answering(fixture('mapbox-place'))
    const result = await createHttpGeocoder(config('mapbox', { url: server.url })).geocode('Springfield, Illinois')
    expect(result).toStrictEqual({
      lat: 39.781721,
      lng: -89.650148,
      precision: 'city',
      source: 'mapbox',
      parts: { city: 'Springfield', region: 'Illinois', country: 'US' },
    })
  })
})

describe('opencage specifics', () => {
  test('402 quota exceeded: GeocoderUnavailableError', async () => {
    const server = answering(fixture('opencage-402'), 402)
    await expectUnavailable(
      createHttpGeocoder(config('opencage', { url: server.url })).geocode('x'),
      'opencage',
      /HTTP 402: quota exceeded/,
    )
  })

  test('403 disabled key: GeocoderUnavailableError', async () => {
    const server = answering(fixture('opencage-403'), 403)
    await expectUnavailable(
      createHttpGeocoder(config('opencage', { url: server.url })).geocode('x'),
      'opencage',
      /HTTP 403: disabled key/,
    )
  })
})

// ---- transport ---------------------------------------------------------------------------------

describe('Retry-After on a 429 or 503', () => {
  test('calls within the wait fail at once, sending nothing, with one reason for the whole wait; after it, requests go out again', async () => {
    let status = 429
    const server = standIn(() =>
      status === 200
        ? reply(fixture('google-zero-results'))
        : new Response('slow down', { status, headers: { 'retry-after': '30' } }),
    )
    let clock = 1_000_000
    const geocoder = createHttpGeocoder(config('google', { url: server.url }), { now: () => clock })
    await expectUnavailable(geocoder.geocode('a'), 'google', /rate limiting us \(HTTP 429/)
    expect(server.hits).toHaveLength(1)
    clock += 29_000
    const first = await expectUnavailable(
      geocoder.geocode('b'),
      'google',
      /asked us to wait \(Retry-After\) until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    )
    const second = await expectUnavailable(geocoder.geocode('c'), 'google', /asked us to wait/)
    expect(second.reason).toBe(first.reason) // one reason: the fallback warns about it once
    expect(server.hits).toHaveLength(1)
    clock += 1_000
    status = 200
    expect(await geocoder.geocode('d')).toBeNull() // the provider asked again: its answer (zero results)
    expect(server.hits).toHaveLength(2)
  })

  test('a 503 asks the same; another status, or a Retry-After that is neither seconds nor an HTTP date, pauses nothing', async () => {
    let answer = () => new Response('down', { status: 503, headers: { 'retry-after': '5' } })
    const server = standIn(() => answer())
    let clock = 0
    const geocoder = createHttpGeocoder(config('google', { url: server.url }), { now: () => clock })
    await expectUnavailable(geocoder.geocode('a'), 'google', /failed \(HTTP 503/)
    await expectUnavailable(geocoder.geocode('a'), 'google', /asked us to wait/)
    expect(server.hits).toHaveLength(1)
    clock += 5_000
    for (const [status, value] of [
      [500, '60'],
      [429, 'soon'],
      [503, '-1'],
      [429, '1.5'],
    ] as const) {
      answer = () => new Response('no', { status, headers: { 'retry-after': value } })
      await expectUnavailable(geocoder.geocode('a'), 'google', new RegExp(`HTTP ${status}`))
    }
    expect(server.hits).toHaveLength(5) // each of those went out
  })

  test('a later, shorter wait does not cut a longer one short', async () => {
    const server = standIn(async (_url, n) => {
      if (n === 1) return new Response('slow down', { status: 429, headers: { 'retry-after': '3600' } })
      await Bun.sleep(50) // sent second, answered last
      return new Response('down', { status: 503, headers: { 'retry-after': '1' } })
    })
    let clock = 0
    const geocoder = createHttpGeocoder(config('google', { url: server.url }), { now: () => clock })
    await Promise.all([
      expectUnavailable(geocoder.geocode('a'), 'google', /HTTP 429/),
      expectUnavailable(geocoder.geocode('b'), 'google', /HTTP 503/),
    ])
    clock += 2_000
    await expectUnavailable(geocoder.geocode('c'), 'google', /asked us to wait/)
    expect(server.hits).toHaveLength(2)
  })

  test('Nominatim: calls waiting for their request slot when the wait was asked send nothing either', async () => {
    const server = standIn(() => new Response('slow down', { status: 429, headers: { 'retry-after': '3600' } }))
    // Nominatim's one request a second, on the real clock: the second call waits ~1 s for its slot.
    const geocoder = createHttpGeocoder(config('nominatim', { url: server.url, timeoutMs: 1_500 }))
    const calls = [geocoder.geocode('a'), geocoder.geocode('b')]
    await expectUnavailable(calls[0]!, 'nominatim', /HTTP 429/)
    await expectUnavailable(calls[1]!, 'nominatim', /asked us to wait/)
    expect(server.hits).toHaveLength(1)
  })

  test("the wall clock set back an hour (NTP, a VM resumed) stretches neither a wait nor Nominatim's request spacing: both run on a monotonic clock", async () => {
    let status = 429
    const server = standIn(() =>
      status === 200 ? reply([]) : new Response('slow down', { status, headers: { 'retry-after': '1' } }),
    )
    const geocoder = createHttpGeocoder(config('nominatim', { url: server.url, timeoutMs: 2_500 }))
    try {
      await expectUnavailable(geocoder.geocode('a'), 'nominatim', /HTTP 429/)
      setSystemTime(new Date(Date.now() - 3_600_000))
      await Bun.sleep(1_100) // the second asked for, and Nominatim's one request a second
      status = 200
      expect(await geocoder.geocode('b')).toBeNull() // asked, and answered: not held for an hour more
      expect(await geocoder.geocode('c')).toBeNull() // its slot a second later, not an hour
      expect(server.hits).toHaveLength(3)
    } finally {
      setSystemTime()
    }
  })

  test('retryAfterMs: seconds or an HTTP date, never less than 0 nor more than an hour', () => {
    const now = Date.parse('2026-11-24T12:00:00Z')
    expect(retryAfterMs('120', now)).toBe(120_000)
    expect(retryAfterMs(' 0 ', now)).toBe(0)
    expect(retryAfterMs('Tue, 24 Nov 2026 12:01:30 GMT', now)).toBe(90_000)
    expect(retryAfterMs('Tuesday, 24-Nov-26 12:01:30 GMT', now)).toBe(90_000) // RFC 850, obsolete
    expect(retryAfterMs('Tue Nov 24 12:01:30 2026', now)).toBe(90_000) // asctime, obsolete: in GMT
    expect(retryAfterMs('Tue Nov  3 12:00:00 2026', Date.parse('2026-11-03T11:59:00Z'))).toBe(60_000)
    expect(retryAfterMs('Tue, 24 Nov 2026 11:00:00 GMT', now)).toBe(0) // past
    expect(retryAfterMs('86400', now)).toBe(3_600_000)
    expect(retryAfterMs('Fri, 24 Nov 2034 12:00:00 GMT', now)).toBe(3_600_000)
    for (const bad of [null, '', 'soon', '-5', '1.5', '2026-11-24T12:01:30Z']) expect(retryAfterMs(bad, now)).toBeNull()
  })
})

describe('transport', () => {
  test('a body that stalls after the headers: fails at the timeout', async () => {
    const server = standIn(
      () =>
        new Response(
          new ReadableStream({
            async start(controller) {
              controller.enqueue(new TextEncoder().encode('[{"lat": "51.5'))
              await Bun.sleep(1000)
              try {
                controller.close()
              } catch {}
            },
          }),
          { headers: { 'content-type': 'application/json' } },
        ),
    )
    const started = performance.now()
    await expectUnavailable(
      createHttpGeocoder(config('nominatim', { url: server.url, timeoutMs: 200 })).geocode('x'),
      'nominatim',
      /timed out after 200 ms/,
    )
    expect(performance.now() - started).toBeLessThan(900)
  })

  test('a fetch that ignores the abort signal still cannot hold the call past the timeout', async () => {
    const deaf = Object.assign(
      async () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"results": ['))
            },
          }),
        ),
      { preconnect: fetch.preconnect },
    )
    const started = performance.now()
    await expectUnavailable(
      createHttpGeocoder(config('opencage', { timeoutMs: 200 }), { fetch: deaf }).geocode('x'),
      'opencage',
      /timed out after 200 ms/,
    )
    expect(performance.now() - started).toBeLessThan(2000)
  })

  test('a body over 1 MiB (declared, or streamed without a length) is no answer: GeocoderUnavailableError', async () => {
    const big = JSON.stringify([{ ...(fixture('nominatim-found') as any[])[0], pad: 'x'.repeat(2 * 1024 * 1024) }])
    const declared = standIn(() => new Response(big, { headers: { 'content-type': 'application/json' } }))
    await expectUnavailable(
      createHttpGeocoder(config('nominatim', { url: declared.url })).geocode('x'),
      'nominatim',
      /over 1 MiB/,
    )
    const streamed = standIn(
      () =>
        new Response(
          new ReadableStream({
            start(c) {
              for (let i = 0; i < big.length; i += 64 * 1024)
                c.enqueue(new TextEncoder().encode(big.slice(i, i + 64 * 1024)))
              c.close()
            },
          }),
          { headers: { 'content-type': 'application/json' } },
        ),
    )
    await expectUnavailable(
      createHttpGeocoder(config('nominatim', { url: streamed.url })).geocode('x'),
      'nominatim',
      /over 1 MiB/,
    )
  })

  test('nothing listening: GeocoderUnavailableError, no URL in the message', async () => {
    const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
    const url = `http://127.0.0.1:${server.port}`
    await server.stop(true)
    await expectUnavailable(
      createHttpGeocoder(config('google', { url })).geocode('x'),
      'google',
      /could not be reached/,
    )
  })
})

// ---- Nominatim's one request per second ----------------------------------------------------------

describe('nominatim request gate', () => {
  function gated(timeoutMs: number, respond: (url: URL, n: number) => Response | Promise<Response> = () => reply([])) {
    const server = standIn(respond)
    const { clock, options, run } = fakeClock()
    const starts: number[] = []
    const geocoder = createHttpGeocoder(config('nominatim', { url: server.url, timeoutMs }), {
      ...options,
      fetch: recordingFetch(starts, options.now),
    })
    return { server, clock, run, starts, geocoder }
  }

  test('back-to-back requests start 1000 ms apart', async () => {
    const { clock, run, starts, geocoder } = gated(5000)
    for (let i = 0; i < 3; i++) await run(geocoder.geocode(`address ${i}`))
    expect(starts).toEqual([0, 1000, 2000])
    expect(clock.sleeps).toEqual([1000, 1000])
  })

  test('only the remainder of the second is waited; nothing after a quiet spell', async () => {
    const { clock, run, starts, geocoder } = gated(5000)
    await run(geocoder.geocode('a'))
    clock.t = 400
    await run(geocoder.geocode('b'))
    clock.t = 2500
    await run(geocoder.geocode('c'))
    expect(starts).toEqual([0, 1000, 2500])
    expect(clock.sleeps).toEqual([600])
  })

  test('concurrent requests queue one second apart', async () => {
    const { server, clock, run, starts, geocoder } = gated(5000)
    await run(Promise.all([geocoder.geocode('a'), geocoder.geocode('b'), geocoder.geocode('c')]))
    expect(starts).toEqual([0, 1000, 2000])
    expect(clock.sleeps).toEqual([1000, 2000])
    expect(server.hits).toHaveLength(3)
  })

  test('a slot further away than the timeout: fails at once, sends nothing, takes no slot', async () => {
    const { server, clock, run, starts, geocoder } = gated(1500)
    const started = performance.now()
    const [a, b, c] = await run(
      Promise.allSettled([geocoder.geocode('a'), geocoder.geocode('b'), geocoder.geocode('c')]),
    )
    expect(a.status).toBe('fulfilled')
    expect(b.status).toBe('fulfilled') // waited 1000 ms of its 1500
    expect(c.status).toBe('rejected')
    await expectUnavailable(
      Promise.reject((c as PromiseRejectedResult).reason),
      'nominatim',
      /busy: .*2000 ms away, beyond the 1500 ms timeout/,
    )
    expect(clock.sleeps).toEqual([1000])
    expect(server.hits).toHaveLength(2)
    expect(performance.now() - started).toBeLessThan(900)
    // The refused call reserved nothing: at 2000 the next request goes at once.
    clock.t = 2000
    await run(geocoder.geocode('d'))
    expect(clock.sleeps).toEqual([1000])
    expect(starts).toEqual([0, 1000, 2000])
  })

  test('time spent waiting for the slot is taken from the timeout', async () => {
    const { run, geocoder } = gated(1200, async (_, n) => {
      if (n === 2) await Bun.sleep(1000)
      return reply([])
    })
    await run(geocoder.geocode('a'))
    const started = performance.now()
    await expectUnavailable(
      run(geocoder.geocode('b')),
      'nominatim',
      /timed out after 1200 ms \(1000 ms of it waiting for a request slot\)/,
    )
    expect(performance.now() - started).toBeLessThan(900)
  })
})

// ---- withFallback -----------------------------------------------------------------------------

function standInFallback(
  result: GeocodeResult | null = {
    lat: 51.5072,
    lng: -0.1276,
    precision: 'city',
    source: 'embedded',
    parts: { city: 'London', country: 'GB' },
  },
) {
  const calls: string[] = []
  const geocoder: Geocoder = {
    name: 'embedded',
    async geocode(address) {
      calls.push(address)
      return result
    },
  }
  return { geocoder, calls }
}

describe('withFallback', () => {
  test('primary times out: the fallback answers, its source noting why; within the timeout plus the fallback', async () => {
    const server = standIn(async () => {
      await Bun.sleep(1000)
      return reply(fixture('nominatim-found'))
    })
    const fallback = standInFallback()
    const geocoder = withFallback(
      createHttpGeocoder(config('nominatim', { url: server.url, timeoutMs: 200 })),
      fallback.geocoder,
    )
    const started = performance.now()
    const result = await geocoder.geocode('10 Downing Street, London')
    expect(performance.now() - started).toBeLessThan(900)
    expect(result).toStrictEqual({
      lat: 51.5072,
      lng: -0.1276,
      precision: 'city',
      source: 'embedded (fallback: nominatim timed out after 200 ms)',
      parts: { city: 'London', country: 'GB' },
    })
    expect(fallback.calls).toEqual(['10 Downing Street, London'])
  })

  test('primary fails with HTTP 503: the fallback answers', async () => {
    const server = answering('Service Unavailable', 503)
    const fallback = standInFallback()
    const result = await withFallback(
      createHttpGeocoder(config('google', { url: server.url })),
      fallback.geocoder,
    ).geocode('x')
    expect(result?.source).toBe('embedded (fallback: google failed (HTTP 503))')
  })

  test('each failure is warned about, each reason at most once a minute; answers and "not found" are not', async () => {
    let status = 401
    const server = standIn(() => (status === 200 ? reply(fixture('google-zero-results')) : reply('no', status)))
    const warned: string[] = []
    let clock = 0
    const geocoder = withFallback(
      createHttpGeocoder(config('google', { url: server.url })),
      standInFallback().geocoder,
      (reason) => warned.push(reason),
      () => clock,
    )
    for (let i = 0; i < 3; i++) await geocoder.geocode('x')
    expect(warned).toEqual(['google refused the request (HTTP 401)'])
    status = 503
    await geocoder.geocode('x')
    clock += 59_000
    await geocoder.geocode('x')
    expect(warned).toEqual(['google refused the request (HTTP 401)', 'google failed (HTTP 503)'])
    clock += 1_000
    await geocoder.geocode('x')
    expect(warned).toHaveLength(3)
    status = 200
    clock += 120_000
    await geocoder.geocode('x')
    expect(warned).toHaveLength(3)
  })

  test("reasons that differ only in their figures (a timeout, a request slot's wait) are one reason: warned once a minute", async () => {
    let n = 0
    const slow: Geocoder = {
      name: 'nominatim',
      geocode: async () =>
        Promise.reject(new GeocoderUnavailableError('nominatim', `timed out after ${3000 - 50 * ++n} ms`)),
    }
    const warned: string[] = []
    let clock = 0
    const geocoder = withFallback(
      slow,
      standInFallback().geocoder,
      (reason) => warned.push(reason),
      () => clock,
    )
    for (let i = 0; i < 5; i++) await geocoder.geocode('x')
    expect(warned).toEqual(['nominatim timed out after 2950 ms'])
    clock += 60_000
    await geocoder.geocode('x')
    expect(warned).toEqual(['nominatim timed out after 2950 ms', 'nominatim timed out after 2700 ms'])
  })

  test('a timeout that waited for a request slot and one that did not are one reason: warned once a minute', async () => {
    let n = 0
    const slow: Geocoder = {
      name: 'nominatim',
      geocode: async () =>
        Promise.reject(
          new GeocoderUnavailableError(
            'nominatim',
            ++n % 2 === 0
              ? `timed out after 3000 ms (${n * 100} ms of it waiting for a request slot)`
              : 'timed out after 3000 ms',
          ),
        ),
    }
    const warned: string[] = []
    let clock = 0
    const geocoder = withFallback(
      slow,
      standInFallback().geocoder,
      (reason) => warned.push(reason),
      () => clock,
    )
    for (let i = 0; i < 4; i++) await geocoder.geocode('x')
    expect(warned).toEqual(['nominatim timed out after 3000 ms'])
    clock += 60_000
    await geocoder.geocode('x')
    expect(warned).toEqual(['nominatim timed out after 3000 ms', 'nominatim timed out after 3000 ms'])
  })

  test("a provider that keeps asking for short waits (429, Retry-After: 1): each wait's end is not a reason of its own, warned once a minute", async () => {
    const server = standIn(() => new Response('slow down', { status: 429, headers: { 'retry-after': '1' } }))
    const warned: string[] = []
    let clock = 1_000_000
    const geocoder = withFallback(
      createHttpGeocoder(config('opencage', { url: server.url }), { now: () => clock }),
      standInFallback().geocoder,
      (r) => warned.push(r),
      () => clock,
    )
    // A bulk import at two writes a second: one is rate limited, the next is told to wait, and so on.
    for (let i = 0; i < 20; i++) {
      await geocoder.geocode('x')
      clock += 500
    }
    expect(server.hits).toHaveLength(10)
    // The wait's end in wall-clock time (the fake clock above is the monotonic one).
    expect(warned).toEqual([
      'opencage is rate limiting us (HTTP 429)',
      expect.stringMatching(/^opencage asked us to wait \(Retry-After\) until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    ])
    clock += 60_000
    await geocoder.geocode('x')
    await geocoder.geocode('x')
    expect(warned).toHaveLength(4)
  })

  test('HTTP statuses are not folded: a 401 right after a 400 is warned about too', async () => {
    let reason = 'refused the request (HTTP 400)'
    const refusing: Geocoder = {
      name: 'google',
      geocode: async () => Promise.reject(new GeocoderUnavailableError('google', reason)),
    }
    const warned: string[] = []
    const geocoder = withFallback(
      refusing,
      standInFallback().geocoder,
      (r) => warned.push(r),
      () => 0,
    )
    await geocoder.geocode('x').catch(() => {})
    reason = 'refused the request (HTTP 401)'
    await geocoder.geocode('x').catch(() => {})
    expect(warned).toEqual(['google refused the request (HTTP 400)', 'google refused the request (HTTP 401)'])
  })

  test('primary says not found: null, and the fallback is not asked', async () => {
    const server = answering([])
    const fallback = standInFallback()
    const geocoder = withFallback(createHttpGeocoder(config('nominatim', { url: server.url })), fallback.geocoder)
    expect(await geocoder.geocode('Nowhere Lane 99999')).toBeNull()
    expect(fallback.calls).toEqual([])
  })

  test("primary answers: its result, and the fallback is not asked; the name is the primary's", async () => {
    const server = answering(fixture('nominatim-found'))
    const fallback = standInFallback()
    const geocoder = withFallback(createHttpGeocoder(config('nominatim', { url: server.url })), fallback.geocoder)
    expect(geocoder.name).toBe('nominatim')
    expect((await geocoder.geocode('10 Downing Street'))?.source).toBe('nominatim')
    expect(fallback.calls).toEqual([])
  })

  test('primary fails and the fallback finds nothing: the primary\'s failure, not "no such address"', async () => {
    const server = answering('Bad Gateway', 502)
    const fallback = standInFallback(null)
    const failed = withFallback(createHttpGeocoder(config('photon', { url: server.url })), fallback.geocoder).geocode(
      'x',
    )
    await expect(failed).rejects.toBeInstanceOf(GeocoderUnavailableError)
    await expect(failed).rejects.toThrow('photon failed (HTTP 502)')
    expect(fallback.calls).toHaveLength(1)
  })

  test('an error that is not GeocoderUnavailableError is a bug: it propagates and the fallback is not asked', async () => {
    const broken: Geocoder = {
      name: 'broken',
      geocode: async () => {
        throw new TypeError('cannot read properties of undefined')
      },
    }
    const fallback = standInFallback()
    await expect(withFallback(broken, fallback.geocoder).geocode('x')).rejects.toBeInstanceOf(TypeError)
    expect(fallback.calls).toEqual([])
  })
})

// ---- with the SQLite cache ----------------------------------------------------------------------

describe('cachedGeocoder over an adapter', () => {
  test('while another process holds the write lock, the answer waits for its row without stopping the process; held past busy_timeout, it is answered, not stored', async () => {
    const env = makeEnv()
    const other = new Database(join(env.dir, 'test.db'))
    try {
      const inner = tableGeocoder(KNOWN_ADDRESSES)
      const geocoder = cachedGeocoder(inner, env.store.geocodeCache, PROVIDER_CACHE_TTL.nominatim)
      const address = Object.keys(KNOWN_ADDRESSES)[0]!
      const rows = () => (env.store.db.query('SELECT count(*) AS n FROM geocode_cache').get() as { n: number }).n

      env.store.db.exec('PRAGMA busy_timeout = 3000')
      other.exec('BEGIN IMMEDIATE')
      let answered = false
      const pending = geocoder.geocode(address).finally(() => (answered = true))
      await Bun.sleep(30) // timers fire meanwhile: before, SQLite's wait for the lock stopped the process
      expect({ answered, rows: rows() }).toEqual({ answered: false, rows: 0 })
      other.exec('ROLLBACK')
      expect((await pending)?.lat).toBe(KNOWN_ADDRESSES[address as keyof typeof KNOWN_ADDRESSES].lat)
      expect(rows()).toBe(1)

      // Past busy_timeout: the answer all the same (the cache is no data), and nothing stored.
      env.store.db.exec('PRAGMA busy_timeout = 50')
      other.exec('BEGIN IMMEDIATE')
      expect(await geocoder.geocode('nowhere at all')).toBeNull()
      other.exec('ROLLBACK')
      expect(rows()).toBe(1)
      expect(await geocoder.geocode('nowhere at all')).toBeNull()
      expect(inner.calls.filter((a) => a === 'nowhere at all')).toHaveLength(2) // asked again: it was not stored
      expect(rows()).toBe(2)
    } finally {
      other.close()
      env.close()
    }
  })

  test('concurrent identical lookups make one upstream call; later ones are served from the cache', async () => {
    const env = makeEnv()
    try {
      const server = standIn(async () => {
        await Bun.sleep(50)
        return reply(fixture('nominatim-found'))
      })
      const geocoder = cachedGeocoder(
        createHttpGeocoder(config('nominatim', { url: server.url })),
        env.store.geocodeCache,
        PROVIDER_CACHE_TTL.nominatim,
      )
      // The same address but for spacing (case and punctuation make another: some geocoders read them apart).
      const addresses = [
        '10 Downing Street, London',
        '10 Downing Street, London',
        '10  Downing\tStreet,London',
        ' 10 Downing Street ,  London ',
        '10 Downing Street, London',
      ]
      const asked = Date.now()
      const results = await Promise.all(addresses.map((a) => geocoder.geocode(a)))
      const answered = Date.now()
      expect(server.hits).toHaveLength(1)
      for (const r of results) expect(r).toStrictEqual(CASES[0]!.expected)
      // From the cache: the same answer, with when it was obtained (a provider's terms count from then).
      const again = await geocoder.geocode('10 Downing Street, London')
      expect(again).toStrictEqual({ ...CASES[0]!.expected, obtainedAt: expect.any(Number) })
      expect(again!.obtainedAt).toBeWithin(asked, answered + 1)
      expect(server.hits).toHaveLength(1)
    } finally {
      env.close()
    }
  })

  test('a failure is not cached: the next lookup goes upstream again', async () => {
    const env = makeEnv()
    try {
      const server = standIn((_, n) => (n === 1 ? reply('Service Unavailable', 503) : reply(fixture('photon-found'))))
      const geocoder = cachedGeocoder(
        createHttpGeocoder(config('photon', { url: server.url })),
        env.store.geocodeCache,
        PROVIDER_CACHE_TTL.photon,
      )
      await expectUnavailable(geocoder.geocode('Pariser Platz 1, Berlin'), 'photon', /HTTP 503/)
      expect((await geocoder.geocode('Pariser Platz 1, Berlin'))?.precision).toBe('rooftop')
      expect(server.hits).toHaveLength(2)
    } finally {
      env.close()
    }
  })

  test('a Google hit is kept 28 days (within the 30 of its terms, and shorter than a point due for refresh); a miss a day', async () => {
    const env = makeEnv()
    try {
      const server = standIn((url) =>
        reply(fixture(url.searchParams.get('address') === 'nowhere' ? 'google-zero-results' : 'google-found')),
      )
      const t0 = 1_717_000_000_000
      const geocoder = cachedGeocoder(
        createHttpGeocoder(config('google', { url: server.url })),
        env.store.geocodeCache,
        PROVIDER_CACHE_TTL.google,
        () => t0,
      )
      await geocoder.geocode('1600 Amphitheatre Parkway, Mountain View, CA')
      await geocoder.geocode('nowhere')
      const cache = env.store.geocodeCache
      const hit = normalizeAddress('1600 Amphitheatre Parkway, Mountain View, CA')
      expect(cache.get('google', hit, t0 + 28 * DAY_MS - 1)).toEqual({ result: expect.any(String), createdAt: t0 })
      expect(cache.get('google', hit, t0 + 28 * DAY_MS)).toBeUndefined()
      expect(cache.get('google', 'nowhere', t0 + DAY_MS - 1)).toEqual({ result: null, createdAt: t0 })
      expect(cache.get('google', 'nowhere', t0 + DAY_MS)).toBeUndefined()
    } finally {
      env.close()
    }
  })
  test('an entry stored under a longer TTL (Google hits were kept 30 days) is used only within the TTL in force now', async () => {
    const env = makeEnv()
    try {
      const server = standIn(() => reply(fixture('google-found')))
      const t0 = 1_717_000_000_000
      let clock = t0
      const address = '1600 Amphitheatre Parkway, Mountain View, CA'
      const old = { lat: 1, lng: 2, precision: 'rooftop' as const, source: 'google', parts: {} }
      await env.store.geocodeCache.put('google', normalizeAddress(address), JSON.stringify(old), t0, 30 * DAY_MS)
      const geocoder = cachedGeocoder(
        createHttpGeocoder(config('google', { url: server.url })),
        env.store.geocodeCache,
        PROVIDER_CACHE_TTL.google,
        () => clock,
      )
      clock = t0 + 28 * DAY_MS - 1
      expect(await geocoder.geocode(address)).toEqual({ ...old, obtainedAt: t0 })
      expect(server.hits).toHaveLength(0)
      clock = t0 + 28 * DAY_MS
      expect((await geocoder.geocode(address))!.lat).not.toBe(1)
      expect(server.hits).toHaveLength(1)
    } finally {
      env.close()
    }
  })
})

// ---- factory and cache terms ------------------------------------------------------------------

describe('createHttpGeocoder and PROVIDER_CACHE_TTL', () => {
  test('refuses a provider that is not an HTTP one, and a keyed provider without a key', () => {
    expect(() => createHttpGeocoder({ ...config('nominatim'), provider: 'embedded' })).toThrow(ConfigError)
    expect(() => createHttpGeocoder({ ...config('nominatim'), provider: 'none' })).toThrow(ConfigError)
    for (const provider of ['google', 'mapbox', 'opencage'] as const) {
      expect(() => createHttpGeocoder(config(provider, { apiKey: null }))).toThrow(ConfigError)
    }
    expect(() => createHttpGeocoder(config('pelias', { apiKey: null }))).toThrow(/geocode\.earth/)
    expect(createHttpGeocoder(config('pelias', { apiKey: null, url: 'http://127.0.0.1:4000' })).name).toBe('pelias')
    expect(createHttpGeocoder(config('nominatim', { apiKey: null })).name).toBe('nominatim')
  })

  test('httpCacheKey: name@version for the public endpoint, unset or set to it; one hash per other endpoint however written, user and password left out', () => {
    for (const c of CASES) expect(httpCacheKey(c.provider, null)).toBe(`${c.provider}@${ADAPTER_VERSIONS[c.provider]}`)
    const v = ADAPTER_VERSIONS.nominatim
    for (const url of ['https://nominatim.openstreetmap.org', 'HTTPS://Nominatim.OpenStreetMap.org:443/'])
      expect(httpCacheKey('nominatim', url)).toBe(`nominatim@${v}`)
    const own = httpCacheKey('nominatim', 'https://geo.example.com/nominatim')
    expect(own).toMatch(new RegExp(`^nominatim@${v}#[0-9a-z]{1,13}$`))
    for (const same of [
      'https://geo.example.com/nominatim/',
      'https://GEO.example.com:443/nominatim',
      'https://ops:s3cret@geo.example.com/nominatim',
    ])
      expect(httpCacheKey('nominatim', same)).toBe(own)
    const others = [
      'http://geo.example.com/nominatim',
      'https://geo.example.com:8443/nominatim',
      'https://geo.example.com/nominatim-eu',
      'https://geo.example.org/nominatim',
    ].map((url) => httpCacheKey('nominatim', url))
    expect(new Set([own, ...others]).size).toBe(5)
    expect(httpCacheKey('photon', 'https://geo.example.com/nominatim')).toBe(
      own.replace(`nominatim@${v}`, `photon@${ADAPTER_VERSIONS.photon}`),
    )
  })

  test("every provider has cache terms; Google's hits at most 30 days; misses shorter than hits", () => {
    for (const c of CASES) {
      const ttl = PROVIDER_CACHE_TTL[c.provider]
      expect(ttl.missMs).toBeGreaterThan(0)
      expect(ttl.missMs).toBeLessThan(ttl.hitMs)
    }
    expect(PROVIDER_CACHE_TTL.google.hitMs).toBeLessThanOrEqual(30 * DAY_MS)
  })
})
