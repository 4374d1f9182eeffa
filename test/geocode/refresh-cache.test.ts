// The refresh and cached answers: a point's 30 days count from when its answer was obtained
// (Google's cache, the fallback's, another geocoder's).
import { expect, test } from 'bun:test'
import { createApp } from '../../src/server/app'
import { cachedGeocoder, type Geocoder } from '../../src/geocode/geocoder'
import { GeocoderUnavailableError, PROVIDER_CACHE_TTL } from '../../src/geocode/http'
import { refreshLimitedGeocodes } from '../../src/geocode/refresh'
import { tableGeocoder } from '../helpers'
import { DAY, env, geocodedByGoogle, googleAt, HOUR, insertedGooglePoint, report, withTestEnv } from './refresh-fixture'

withTestEnv()
let answer = { lat: 10, lng: 20 }
const google = googleAt(() => answer)

test("a point from Google's cache counts its 30 days from the cached answer, and the refresh is never handed that answer again", async () => {
  const address = '1 Infinite Loop, Cupertino, CA'
  const t0 = Date.parse('2026-10-01T00:00:00Z')
  let clock = t0
  let asked = 0
  const counted: Geocoder = { name: 'google', geocode: async (a) => (asked++, google.geocode(a)) }
  const cached = cachedGeocoder(counted, env.store.geocodeCache, PROVIDER_CACHE_TTL.google, () => clock)
  answer = { lat: 37.33, lng: -122.03 }
  await cached.geocode(address)
  // Twenty days later a location is written with that address: it gets the cached answer, from t0.
  clock = t0 + 20 * DAY
  const app = createApp({
    store: env.store,
    geocoder: cached,
    config: { maxBodyBytes: 262144, logRequests: false },
    log: () => {},
  })
  const res = await app.handle(
    new Request('http://localhost/admin/v1/locations', {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Cached', address }),
    }),
  )
  expect(res.status).toBe(201)
  const id = ((await res.json()) as { location: { id: string } }).location.id
  expect(asked).toBe(1)
  expect(env.store.locations.get(env.locatorId, id)!.geocodedAt).toBe(new Date(t0).toISOString())
  // Due by the answer's age (29 days and an hour), though written 9 days before; Google is asked, not the cache.
  clock = t0 + 29 * DAY + HOUR
  answer = { lat: 37.3318, lng: -122.0312 }
  expect(await refreshLimitedGeocodes(env.store, cached, { now: new Date(clock) })).toEqual(report(1, 1, 0))
  expect(asked).toBe(2)
  const fresh = env.store.locations.get(env.locatorId, id)!
  expect({ lat: fresh.lat, lng: fresh.lng, geocodedAt: fresh.geocodedAt }).toEqual({
    lat: 37.3318,
    lng: -122.0312,
    geocodedAt: new Date(clock).toISOString(),
  })
})

test("an address changed to one in Google's cache: the point counts its 30 days from the cached answer", async () => {
  const t0 = Date.parse('2026-10-01T00:00:00Z')
  let clock = t0
  const cached = cachedGeocoder(google, env.store.geocodeCache, PROVIDER_CACHE_TTL.google, () => clock)
  answer = { lat: 37.33, lng: -122.03 }
  await cached.geocode('1 Infinite Loop, Cupertino, CA')
  clock = t0 + 20 * DAY
  const app = createApp({
    store: env.store,
    geocoder: cached,
    config: { maxBodyBytes: 262144, logRequests: false },
    log: () => {},
  })
  const id = await geocodedByGoogle(new Date(clock))
  const res = await app.handle(
    new Request(`http://localhost/admin/v1/locations/${id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ address: '1 Infinite Loop, Cupertino, CA' }),
    }),
  )
  expect(res.status).toBe(200)
  const moved = env.store.locations.get(env.locatorId, id)!
  expect({ lat: moved.lat, lng: moved.lng, geocodedAt: moved.geocodedAt }).toEqual({
    lat: 37.33,
    lng: -122.03,
    geocodedAt: new Date(t0).toISOString(),
  })
})

test("a stopgap the run wrote from the fallback's cache (an older time) is not asked of Google again in the run", async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  insertedGooglePoint(new Date(now.getTime() - 30 * DAY), 'poison')
  // The service's fallback is cached: its answer carries the time it was cached, 10 days before.
  let clock = now.getTime() - 10 * DAY
  const embedded = cachedGeocoder(
    tableGeocoder({ poison: { lat: 5, lng: 6, precision: 'city' } }),
    env.store.geocodeCache,
    undefined,
    () => clock,
  )
  await embedded.geocode('poison')
  clock = now.getTime()
  const asked: string[] = []
  const picky: Geocoder = {
    name: 'google',
    geocode: async (a) => (
      asked.push(a),
      Promise.reject(
        new GeocoderUnavailableError('google', 'rejected the request as invalid (INVALID_REQUEST)', 'address'),
      )
    ),
  }
  expect(await refreshLimitedGeocodes(env.store, picky, { now, fallback: embedded })).toEqual(report(1, 1, 0))
  expect(asked).toEqual(['poison'])
})

test("an answer Google's cache kept about as long as the point it would replace is not written: at the last chance the point is overdue", async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const id = insertedGooglePoint(new Date(now.getTime() - 30 * DAY), '1 First Street')
  const before = env.store.locations.get(env.locatorId, id)!
  const stale: Geocoder = {
    name: 'google',
    geocode: async (a) => ({ ...(await google.geocode(a))!, obtainedAt: now.getTime() - 30 * DAY + HOUR }),
  }
  expect(await refreshLimitedGeocodes(env.store, stale, { now, fallback: tableGeocoder({}) })).toEqual(
    report(1, 0, 1, [id]),
  )
  expect(env.store.locations.get(env.locatorId, id)).toEqual(before)
})

test("GEOCODER switched from google since: the new geocoder's answer, cached as long ago as the point, replaces it (only Google's answers are under its limit)", async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const id = await geocodedByGoogle(new Date(now.getTime() - 29.9 * DAY))
  const obtainedAt = now.getTime() - 29.95 * DAY // cached by the embedded geocoder even before the point
  const embedded: Geocoder = {
    name: 'embedded',
    geocode: async () => ({
      lat: 38.89,
      lng: -77.03,
      precision: 'city',
      source: 'embedded',
      parts: { country: 'US' },
      obtainedAt,
    }),
  }
  expect(await refreshLimitedGeocodes(env.store, embedded, { now })).toEqual(report(1, 1, 0))
  const point = env.store.locations.get(env.locatorId, id)!
  expect({ lat: point.lat, source: point.geocoding?.source }).toEqual({ lat: 38.89, source: 'embedded' })
  expect(await refreshLimitedGeocodes(env.store, embedded, { now: new Date(now.getTime() + 6 * HOUR) })).toEqual(
    report(0, 0, 0),
  )
})
