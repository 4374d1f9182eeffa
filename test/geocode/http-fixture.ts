// Shared by the http-*.test.ts files: the providers' documented responses (fixtures/), stand-in
// servers on 127.0.0.1, the adapters' config, and each provider's case (CASES). Nothing here
// reaches any other host.
import { afterEach, expect } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { GeocoderConfig } from '../../src/core/config'
import type { GeocodeResult } from '../../src/geocode/geocoder'
import { GeocoderUnavailableError, type HttpGeocoderProvider } from '../../src/geocode/http'

export { settlesBefore } from '../timer-order'

export const KEY = 'sk-test-7d1c9e4b2a51'
export const UA = 'storeloc-test/1.0 (+https://stores.example.com)'

export const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(import.meta.dir, 'fixtures', `${name}.json`), 'utf8'))
/** A fixture with some fields changed. */
export function variant(name: string, change: (body: any) => void): unknown {
  const body = fixture(name)
  change(body)
  return body
}

// ---- stand-in servers -------------------------------------------------------------------------

type Hit = { url: URL; userAgent: string | null }
const servers: { stop(closeActiveConnections?: boolean): Promise<void> | void }[] = []
/** Stops the stand-ins each test of the calling file started, when it ends (hook registered here). */
export function withStandIns(): void {
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.stop(true)))
  })
}

export function standIn(respond: (url: URL, n: number) => Response | Promise<Response>) {
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
export function reply(body: unknown, status = 200): Response {
  return typeof body === 'string'
    ? new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8' } })
    : Response.json(body, { status })
}

/** A promise that never settles: a stand-in's answer that only the caller's timeout ends. */
export const never = new Promise<never>(() => {})

export const answering = (body: unknown, status = 200) => standIn(() => reply(body, status))

export function config(provider: HttpGeocoderProvider, over: Partial<GeocoderConfig> = {}): GeocoderConfig {
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
export async function expectUnavailable(
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

export const CASES: Case[] = [
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
