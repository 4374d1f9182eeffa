// Google's terms: coordinates may be kept 30 days at most. The refresh re-geocodes older ones.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import type { Geocoder } from '../../src/geocode/geocoder'
import { GeocoderUnavailableError, withFallback } from '../../src/geocode/http'
import { refreshLimitedGeocodes } from '../../src/geocode/refresh'
import { makeEnv, tableGeocoder, type TestEnv } from '../helpers'

let env: TestEnv
beforeEach(() => (env = makeEnv()))
afterEach(() => env.close())

const DAY = 86_400_000
let answer = { lat: 10, lng: 20 }
const google: Geocoder = { name: 'google', geocode: async () => ({ ...answer, precision: 'rooftop', source: 'google', parts: { country: 'US' } }) }

/** A location as if geocoded by Google at `at` (the store is the public surface the refresh works on). */
async function geocodedByGoogle(at: Date, address = '1600 Pennsylvania Avenue NW, Washington, DC 20500') {
  const res = await env.call('POST', '/admin/v1/locations', { body: { name: 'Store', address } })
  expect(res.status).toBe(201)
  env.store.db.run("UPDATE locations SET geocode_source = 'google', geocoded_at = ? WHERE id = ?", [at.toISOString(), res.body.location.id])
  return res.body.location.id as string
}

test('coordinates from Google older than 30 days are re-geocoded through the write path; younger ones are kept', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const old = await geocodedByGoogle(new Date(now.getTime() - 31 * DAY))
  const young = await geocodedByGoogle(new Date(now.getTime() - 29 * DAY))
  const seqBefore = env.store.changes.lastSeq()
  answer = { lat: 38.9, lng: -77.04 }
  expect(await refreshLimitedGeocodes(env.store, google, now)).toEqual({ checked: 1, refreshed: 1, failed: 0 })
  const refreshed = (await env.call('GET', `/admin/v1/locations/${old}`)).body.location
  expect(refreshed.coordinates).toEqual({ lat: 38.9, lng: -77.04 })
  expect(refreshed.geocoding).toEqual({ precision: 'rooftop', source: 'google' })
  expect(refreshed.updated_at).toBe(now.toISOString())
  expect(env.store.changes.since(seqBefore)).toMatchObject([{ entity: 'location', entityId: old, op: 'upsert' }])
  expect((await env.call('GET', `/admin/v1/locations/${young}`)).body.location.coordinates).not.toEqual({ lat: 38.9, lng: -77.04 })
  // Now fresh: the next run has nothing to do.
  expect(await refreshLimitedGeocodes(env.store, google, now)).toEqual({ checked: 0, refreshed: 0, failed: 0 })
})

test('coordinates sent by the caller, or from other providers, are never touched', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const res = await env.call('POST', '/admin/v1/locations', { body: { name: 'Pinned', address: 'Somewhere', coordinates: { lat: 1, lng: 2 } } })
  env.store.db.run('UPDATE locations SET created_at = ?', [new Date(now.getTime() - 400 * DAY).toISOString()])
  expect(await refreshLimitedGeocodes(env.store, google, now)).toEqual({ checked: 0, refreshed: 0, failed: 0 })
  expect((await env.call('GET', `/admin/v1/locations/${res.body.location.id}`)).body.location.coordinates).toEqual({ lat: 1, lng: 2 })
})

test('a failed re-geocode keeps the row for the next run and changes nothing', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const id = await geocodedByGoogle(new Date(now.getTime() - 40 * DAY))
  const before = (await env.call('GET', `/admin/v1/locations/${id}`)).body.location
  const down: Geocoder = { name: 'google', geocode: async () => Promise.reject(new Error('down')) }
  expect(await refreshLimitedGeocodes(env.store, down, now)).toEqual({ checked: 1, refreshed: 0, failed: 1 })
  expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location).toEqual(before)
})

test("the provider down when a point comes of age: the embedded fallback's point replaces it (within the terms), and is geocoded again at each run until the provider answers", async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const id = await geocodedByGoogle(new Date(now.getTime() - 40 * DAY))
  const before = (await env.call('GET', `/admin/v1/locations/${id}`)).body.location
  const unavailable: Geocoder = { name: 'google', geocode: async () => Promise.reject(new GeocoderUnavailableError('google', 'failed (HTTP 503)')) }
  const embedded = tableGeocoder({ [before.address as string]: { lat: 38.89, lng: -77.03, precision: 'city' as const } })
  const down = withFallback(unavailable, embedded)
  expect(await refreshLimitedGeocodes(env.store, down, now)).toEqual({ checked: 1, refreshed: 1, failed: 0 })
  const stopgap = (await env.call('GET', `/admin/v1/locations/${id}`)).body.location
  expect(stopgap.coordinates).toEqual({ lat: 38.89, lng: -77.03 })
  expect(stopgap.geocoding).toEqual({ precision: 'city', source: 'table (fallback: google failed (HTTP 503))' }) // the stand-in for the embedded geocoder is named "table"
  // Still down at the next run: asked again, nothing written.
  const seq = env.store.changes.lastSeq()
  const later = new Date(now.getTime() + 6 * 3_600_000)
  expect(await refreshLimitedGeocodes(env.store, down, later)).toEqual({ checked: 1, refreshed: 0, failed: 1 })
  expect(env.store.changes.lastSeq()).toBe(seq)
  expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location).toEqual(stopgap)
  // The provider back: its point, and the location is a Google one again (refreshed after 30 days).
  answer = { lat: 38.9, lng: -77.04 }
  expect(await refreshLimitedGeocodes(env.store, withFallback(google, embedded), later)).toEqual({ checked: 1, refreshed: 1, failed: 0 })
  const back = (await env.call('GET', `/admin/v1/locations/${id}`)).body.location
  expect(back.coordinates).toEqual({ lat: 38.9, lng: -77.04 })
  expect(back.geocoding).toEqual({ precision: 'rooftop', source: 'google' })
  expect(await refreshLimitedGeocodes(env.store, withFallback(google, embedded), later)).toEqual({ checked: 0, refreshed: 0, failed: 0 })
})

test("a location written while the provider was down (the fallback's point) gets the provider's point at the next run it answers", async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const id = await geocodedByGoogle(new Date(now.getTime() - DAY))
  env.store.db.run("UPDATE locations SET geocode_source = 'embedded (fallback: google timed out after 3000 ms)' WHERE id = ?", [id])
  answer = { lat: 38.8977, lng: -77.0365 }
  expect(await refreshLimitedGeocodes(env.store, google, now)).toEqual({ checked: 1, refreshed: 1, failed: 0 })
  expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location.geocoding).toEqual({ precision: 'rooftop', source: 'google' })
})

test('points stored before geocoded_at was recorded (NULL) are due: first, as the oldest', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const id = await geocodedByGoogle(new Date(now.getTime() - DAY))
  env.store.db.run('UPDATE locations SET geocoded_at = NULL WHERE id = ?', [id])
  answer = { lat: 38.8, lng: -77.1 }
  expect(await refreshLimitedGeocodes(env.store, google, now)).toEqual({ checked: 1, refreshed: 1, failed: 0 })
  expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location.coordinates).toEqual({ lat: 38.8, lng: -77.1 })
})

test("stopgaps: Google not knowing an address keeps the fallback's point as the fallback's own; while Google still fails, the first stopgap's failure stops the rest of the run", async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const ids: string[] = []
  for (let i = 0; i < 3; i++) {
    const id = await geocodedByGoogle(new Date(now.getTime() - DAY - i * 1000))
    env.store.db.run("UPDATE locations SET geocode_source = 'embedded (fallback: google timed out after 3000 ms)', geocode_precision = 'city' WHERE id = ?", [id])
    ids.push(id)
  }
  const before = (await env.call('GET', `/admin/v1/locations/${ids[0]}`)).body.location
  let asked = 0
  const stillDown = withFallback({ name: 'google', geocode: async () => (asked++, Promise.reject(new GeocoderUnavailableError('google', 'timed out after 3000 ms'))) }, tableGeocoder({ [before.address as string]: { lat: 1, lng: 2, precision: 'city' as const } }))
  expect(await refreshLimitedGeocodes(env.store, stillDown, now)).toEqual({ checked: 1, refreshed: 0, failed: 3 })
  expect(asked).toBe(1)
  const unknown: Geocoder = { name: 'google', geocode: async () => null }
  expect(await refreshLimitedGeocodes(env.store, unknown, now)).toEqual({ checked: 3, refreshed: 3, failed: 0 })
  const kept = (await env.call('GET', `/admin/v1/locations/${ids[0]}`)).body.location
  expect(kept.coordinates).toEqual(before.coordinates)
  expect(kept.geocoding).toEqual({ precision: 'city', source: 'embedded' })
  // No longer stopgaps: nothing to do at the next run.
  expect(await refreshLimitedGeocodes(env.store, unknown, now)).toEqual({ checked: 0, refreshed: 0, failed: 0 })
})
