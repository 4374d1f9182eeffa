// Each HTTP adapter against a stand-in answering with its provider's documented response shapes:
// found, not found, each failure, the timeout, the public endpoint (an injected local fetch), and a
// point at 0,0.
import { describe, expect, test } from 'bun:test'
import { createHttpGeocoder, type HttpGeocoderProvider } from '../../src/geocode/http'
import {
  answering,
  CASES,
  config,
  expectUnavailable,
  fixture,
  KEY,
  never,
  reply,
  settlesBefore,
  standIn,
  UA,
  variant,
  withStandIns,
} from './http-fixture'

withStandIns()

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
      const server = standIn(() => never) // only the timeout can end the call
      const started = performance.now()
      const call = createHttpGeocoder(config(c.provider, { url: server.url, timeoutMs: 200 })).geocode(c.address)
      expect(await settlesBefore(call, 2000)).toBe(true) // the 200 ms deadline fires first, however late
      expect(performance.now() - started).toBeGreaterThanOrEqual(190) // a loaded machine only makes it later
      await expectUnavailable(call, c.provider, /timed out after 200 ms/)
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
