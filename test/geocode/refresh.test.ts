// Google's terms: coordinates may be kept 30 days at most. The refresh re-geocodes older ones.
import { Database } from 'bun:sqlite'
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { createApp } from '../../src/server/app'
import { cachedGeocoder, noGeocoder, type Geocoder } from '../../src/geocode/geocoder'
import { GeocoderUnavailableError, PROVIDER_CACHE_TTL, withFallback } from '../../src/geocode/http'
import { refreshLimitedGeocodes, scheduleGeocodeRefresh, type RefreshLogLine } from '../../src/geocode/refresh'
import { setLocatorSettings } from '../../src/operator'
import { locationRecord, makeEnv, tableGeocoder, type TestEnv } from '../helpers'

let env: TestEnv
beforeEach(() => (env = makeEnv()))
afterEach(() => env.close())

const DAY = 86_400_000
/** A run's report; `overdueIds`: the points (of the test's locator) at their last chance that nothing replaced. */
const report = (checked: number, refreshed: number, failed: number, overdueIds: string[] = []) => ({
  checked,
  refreshed,
  failed,
  overdue: overdueIds.length,
  overdueLocations: overdueIds.map((id) => ({ locator: env.locatorId, id })),
})
const HOUR = 3_600_000
let answer = { lat: 10, lng: 20 }
const google: Geocoder = {
  name: 'google',
  geocode: async () => ({ ...answer, precision: 'rooftop', source: 'google', parts: { country: 'US' } }),
}

/** A location as if geocoded by Google at `at` (the store is the public surface the refresh works on). */
async function geocodedByGoogle(at: Date, address = '1600 Pennsylvania Avenue NW, Washington, DC 20500') {
  const res = await env.call('POST', '/admin/v1/locations', { body: { name: 'Store', address } })
  expect(res.status).toBe(201)
  env.store.db.run("UPDATE locations SET geocode_source = 'google', geocoded_at = ?1, updated_at = ?1 WHERE id = ?2", [
    at.toISOString(),
    res.body.location.id,
  ])
  return res.body.location.id as string
}

/** A location as if Google gave its point for `address` at `at` (null: at a time not recorded), inserted directly (any address). */
function insertedGooglePoint(at: Date | null, address: string, source = 'google'): string {
  const record = locationRecord(env.locatorId, { name: 'Store', address, coordinates: { lat: 1, lng: 2 } })
  env.store.write(() =>
    env.store.locations.insert({
      ...record,
      geocoding: { precision: 'rooftop', source },
      geocodedAt: at?.toISOString() ?? null,
    }),
  )
  return record.id
}

test('coordinates from Google within a day of their 30 days are re-geocoded through the write path; younger ones are kept', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const old = await geocodedByGoogle(new Date(now.getTime() - 29 * DAY - HOUR))
  const young = await geocodedByGoogle(new Date(now.getTime() - 29 * DAY + HOUR))
  const seqBefore = env.store.changes.lastSeq()
  answer = { lat: 38.9, lng: -77.04 }
  expect(await refreshLimitedGeocodes(env.store, google, { now })).toEqual(report(1, 1, 0))
  const refreshed = (await env.call('GET', `/admin/v1/locations/${old}`)).body.location
  expect(refreshed.coordinates).toEqual({ lat: 38.9, lng: -77.04 })
  expect(refreshed.geocoding).toEqual({ precision: 'rooftop', source: 'google' })
  expect(refreshed.updated_at).toBe(now.toISOString())
  expect(env.store.changes.since(seqBefore)).toMatchObject([{ entity: 'location', entityId: old, op: 'upsert' }])
  expect((await env.call('GET', `/admin/v1/locations/${young}`)).body.location.coordinates).not.toEqual({
    lat: 38.9,
    lng: -77.04,
  })
  // Now fresh: the next run has nothing to do.
  expect(await refreshLimitedGeocodes(env.store, google, { now })).toEqual(report(0, 0, 0))
})

test('Google giving the same point again: only its time is written (updated_at, the change log and ETags stay), and the next run has nothing to do', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const old = await geocodedByGoogle(new Date(now.getTime() - 29 * DAY - HOUR))
  const before = (await env.call('GET', `/admin/v1/locations/${old}`)).body.location
  answer = { lat: before.coordinates.lat, lng: before.coordinates.lng }
  env.store.db.run(
    'UPDATE locations SET geocode_precision = \'rooftop\', address_parts = \'{"country":"US"}\' WHERE id = ?',
    [old],
  )
  const unchanged = (await env.call('GET', `/admin/v1/locations/${old}`)).body.location
  const seqBefore = env.store.changes.lastSeq()
  expect(await refreshLimitedGeocodes(env.store, google, { now })).toEqual(report(1, 1, 0))
  expect((await env.call('GET', `/admin/v1/locations/${old}`)).body.location).toEqual(unchanged)
  expect(env.store.changes.since(seqBefore)).toEqual([])
  expect(env.store.locations.get(env.locatorId, old)!.geocodedAt).toBe(now.toISOString())
  expect(await refreshLimitedGeocodes(env.store, google, { now })).toEqual(report(0, 0, 0))
})

test('coordinates sent by the caller, or from other providers, are never touched', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const res = await env.call('POST', '/admin/v1/locations', {
    body: { name: 'Pinned', address: 'Somewhere', coordinates: { lat: 1, lng: 2 } },
  })
  env.store.db.run('UPDATE locations SET created_at = ?', [new Date(now.getTime() - 400 * DAY).toISOString()])
  expect(await refreshLimitedGeocodes(env.store, google, { now })).toEqual(report(0, 0, 0))
  expect((await env.call('GET', `/admin/v1/locations/${res.body.location.id}`)).body.location.coordinates).toEqual({
    lat: 1,
    lng: 2,
  })
})

test('a failed re-geocode keeps the row for the next run and changes nothing; past its limit, the report names it (overdue)', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const id = await geocodedByGoogle(new Date(now.getTime() - 40 * DAY))
  const before = (await env.call('GET', `/admin/v1/locations/${id}`)).body.location
  const down: Geocoder = { name: 'google', geocode: async () => Promise.reject(new Error('down')) }
  expect(await refreshLimitedGeocodes(env.store, down, { now })).toEqual(report(1, 0, 1, [id]))
  expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location).toEqual(before)
})

test("the provider down when a point comes of age: the embedded fallback's point replaces it (within the terms), and is geocoded again at each run until the provider answers", async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const id = await geocodedByGoogle(new Date(now.getTime() - 40 * DAY))
  const before = (await env.call('GET', `/admin/v1/locations/${id}`)).body.location
  const unavailable: Geocoder = {
    name: 'google',
    geocode: async () => Promise.reject(new GeocoderUnavailableError('google', 'failed (HTTP 503)')),
  }
  const embedded = tableGeocoder({
    [before.address as string]: { lat: 38.89, lng: -77.03, precision: 'city' as const },
  })
  const down = withFallback(unavailable, embedded)
  expect(await refreshLimitedGeocodes(env.store, down, { now })).toEqual(report(1, 1, 0))
  const stopgap = (await env.call('GET', `/admin/v1/locations/${id}`)).body.location
  expect(stopgap.coordinates).toEqual({ lat: 38.89, lng: -77.03 })
  expect(stopgap.geocoding).toEqual({ precision: 'city', source: 'table (fallback: google failed (HTTP 503))' }) // the stand-in for the embedded geocoder is named "table"
  // Still down at the next run: asked again, nothing written.
  const seq = env.store.changes.lastSeq()
  const later = new Date(now.getTime() + 6 * 3_600_000)
  expect(await refreshLimitedGeocodes(env.store, down, { now: later })).toEqual(report(1, 0, 1))
  expect(env.store.changes.lastSeq()).toBe(seq)
  expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location).toEqual(stopgap)
  // The provider back: its point, and the location is a Google one again (refreshed after 30 days).
  answer = { lat: 38.9, lng: -77.04 }
  expect(await refreshLimitedGeocodes(env.store, withFallback(google, embedded), { now: later })).toEqual(
    report(1, 1, 0),
  )
  const back = (await env.call('GET', `/admin/v1/locations/${id}`)).body.location
  expect(back.coordinates).toEqual({ lat: 38.9, lng: -77.04 })
  expect(back.geocoding).toEqual({ precision: 'rooftop', source: 'google' })
  expect(await refreshLimitedGeocodes(env.store, withFallback(google, embedded), { now: later })).toEqual(
    report(0, 0, 0),
  )
})

test("a location written while the provider was down (the fallback's point) gets the provider's point at the next run it answers", async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const id = await geocodedByGoogle(new Date(now.getTime() - DAY))
  env.store.db.run(
    "UPDATE locations SET geocode_source = 'embedded (fallback: google timed out after 3000 ms)' WHERE id = ?",
    [id],
  )
  answer = { lat: 38.8977, lng: -77.0365 }
  expect(await refreshLimitedGeocodes(env.store, google, { now })).toEqual(report(1, 1, 0))
  expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location.geocoding).toEqual({
    precision: 'rooftop',
    source: 'google',
  })
})

test('points stored before geocoded_at was recorded (NULL) are due: first, as the oldest', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const id = await geocodedByGoogle(new Date(now.getTime() - DAY))
  env.store.db.run('UPDATE locations SET geocoded_at = NULL WHERE id = ?', [id])
  answer = { lat: 38.8, lng: -77.1 }
  expect(await refreshLimitedGeocodes(env.store, google, { now })).toEqual(report(1, 1, 0))
  expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location.coordinates).toEqual({
    lat: 38.8,
    lng: -77.1,
  })
})

test("stopgaps: Google not knowing an address keeps the fallback's point as the fallback's own; while Google still fails, the first stopgap's failure stops the rest of the run", async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const ids: string[] = []
  for (let i = 0; i < 3; i++) {
    const id = await geocodedByGoogle(new Date(now.getTime() - DAY - i * 1000))
    env.store.db.run(
      "UPDATE locations SET geocode_source = 'embedded (fallback: google timed out after 3000 ms)', geocode_precision = 'city' WHERE id = ?",
      [id],
    )
    ids.push(id)
  }
  const before = (await env.call('GET', `/admin/v1/locations/${ids[0]}`)).body.location
  let asked = 0
  const stillDown = withFallback(
    {
      name: 'google',
      geocode: async () => (asked++, Promise.reject(new GeocoderUnavailableError('google', 'timed out after 3000 ms'))),
    },
    tableGeocoder({ [before.address as string]: { lat: 1, lng: 2, precision: 'city' as const } }),
  )
  expect(await refreshLimitedGeocodes(env.store, stillDown, { now })).toEqual(report(1, 0, 1)) // the other two, unasked, wait
  expect(asked).toBe(1)
  const unknown: Geocoder = { name: 'google', geocode: async () => null }
  expect(await refreshLimitedGeocodes(env.store, unknown, { now })).toEqual(report(3, 3, 0))
  const kept = (await env.call('GET', `/admin/v1/locations/${ids[0]}`)).body.location
  expect(kept.coordinates).toEqual(before.coordinates)
  expect(kept.geocoding).toEqual({ precision: 'city', source: 'embedded' })
  // No longer stopgaps: nothing to do at the next run.
  expect(await refreshLimitedGeocodes(env.store, unknown, { now })).toEqual(report(0, 0, 0))
})

test('while Google is unavailable, a point that may still be kept waits for the next run (asked once a run); at its last run before 30 days (its limit before the next run, 6 h, and an hour of slack) the fallback replaces it', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const first = await geocodedByGoogle(new Date(now.getTime() - 29 * DAY - 2 * HOUR))
  const second = await geocodedByGoogle(new Date(now.getTime() - 29 * DAY - HOUR / 2))
  const third = await geocodedByGoogle(new Date(now.getTime() - 29 * DAY + HOUR / 2))
  const before = (await env.call('GET', `/admin/v1/locations/${first}`)).body.location
  let asked = 0
  const unavailable: Geocoder = {
    name: 'google',
    geocode: async () => (asked++, Promise.reject(new GeocoderUnavailableError('google', 'failed (HTTP 503)'))),
  }
  const down = withFallback(
    unavailable,
    tableGeocoder({ [before.address as string]: { lat: 38.89, lng: -77.03, precision: 'city' as const } }),
  )
  const seq = env.store.changes.lastSeq()
  expect(await refreshLimitedGeocodes(env.store, down, { now })).toEqual(report(1, 0, 2)) // the third is not due yet
  expect(asked).toBe(1)
  expect(env.store.changes.lastSeq()).toBe(seq)
  expect((await env.call('GET', `/admin/v1/locations/${first}`)).body.location).toEqual(before)
  // 17 h later the limits come 5 h (first), 6.5 h (second: within the hour of slack) and 7.5 h (third) after this run.
  const last = new Date(now.getTime() + 17 * HOUR)
  expect(await refreshLimitedGeocodes(env.store, down, { now: last })).toEqual(report(2, 2, 1))
  for (const id of [first, second]) {
    expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location.geocoding).toEqual({
      precision: 'city',
      source: 'table (fallback: google failed (HTTP 503))',
    })
  }
  expect((await env.call('GET', `/admin/v1/locations/${third}`)).body.location.geocoding).toEqual({
    precision: 'rooftop',
    source: 'google',
  })
})

test('every point at its last chance is refreshed in the run, however many; `batch` bounds only those that may wait', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const ids: string[] = []
  for (let i = 0; i < 3; i++) ids.push(await geocodedByGoogle(new Date(now.getTime() - 30 * DAY + i * HOUR)))
  for (let i = 0; i < 3; i++) ids.push(await geocodedByGoogle(new Date(now.getTime() - 29 * DAY - HOUR - i * 60_000)))
  answer = { lat: 38.9, lng: -77.04 }
  expect(await refreshLimitedGeocodes(env.store, google, { now, batch: 1 })).toEqual(report(4, 4, 0))
  const fresh = ids.map((id) => env.store.locations.get(env.locatorId, id)!.geocodedAt === now.toISOString())
  expect(fresh).toEqual([true, true, true, false, false, true]) // the oldest of the three that may wait
})

test("Google no longer knowing the address of a point: kept while it may be, then the embedded geocoder's point (as its own) at the last run; none from either keeps it for the next run", async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const id = await geocodedByGoogle(new Date(now.getTime() - 29 * DAY - HOUR))
  const before = (await env.call('GET', `/admin/v1/locations/${id}`)).body.location
  const unknown: Geocoder = { name: 'google', geocode: async () => null }
  const embedded = tableGeocoder({
    [before.address as string]: { lat: 38.89, lng: -77.03, precision: 'city' as const },
  })
  expect(await refreshLimitedGeocodes(env.store, unknown, { now, fallback: embedded })).toEqual(report(1, 0, 1))
  expect(embedded.calls).toEqual([])
  const last = new Date(now.getTime() + 18 * HOUR)
  expect(await refreshLimitedGeocodes(env.store, unknown, { now: last, fallback: tableGeocoder({}) })).toEqual(
    report(1, 0, 1, [id]),
  )
  expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location).toEqual(before)
  expect(await refreshLimitedGeocodes(env.store, unknown, { now: last, fallback: embedded })).toEqual(report(1, 1, 0))
  const own = (await env.call('GET', `/admin/v1/locations/${id}`)).body.location
  expect(own.coordinates).toEqual({ lat: 38.89, lng: -77.03 })
  expect(own.geocoding).toEqual({ precision: 'city', source: 'table' })
  // No longer Google's: not refreshed again.
  expect(
    await refreshLimitedGeocodes(env.store, unknown, { now: new Date(last.getTime() + 60 * DAY), fallback: embedded }),
  ).toEqual(report(0, 0, 0))
})

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

test("a record sent back as GET gave it (a sync script) keeps its geocoding: its address parts stay, and a Google point is still refreshed, with another address too (then by that address); a moved pin is the caller's", async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const id = await geocodedByGoogle(new Date(now.getTime() - 40 * DAY))
  const token = env.store.locators.get(env.locatorId)!.publicToken
  const publicAddress = async () => {
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    return ((await env.call('GET', `/public/v1/${token}/locations/${id}`, { key: null })).body as any).data.location
      .address
  }
  const parts = await publicAddress()
  expect(parts.city).toBe('Washington')
  const {
    id: _,
    created_at,
    updated_at,
    ...record
  } = (await env.call('GET', `/admin/v1/locations/${id}`)).body.location
  expect((await env.call('POST', `/admin/v1/locations/${id}`, { body: { ...record, name: 'Renamed' } })).status).toBe(
    200,
  )
  expect(await publicAddress()).toEqual(parts)
  expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location.geocoding).toEqual(record.geocoding)
  answer = { lat: 38.9, lng: -77.04 }
  expect(await refreshLimitedGeocodes(env.store, google, { now })).toEqual(report(1, 1, 0))
  // Sent back with its point and another address: the point as sent (the spec), still Google's, so
  // refreshed in time, by the address it then has.
  const refreshed = (await env.call('GET', `/admin/v1/locations/${id}`)).body.location
  const moved = (
    await env.call('POST', `/admin/v1/locations/${id}`, {
      body: { ...record, coordinates: refreshed.coordinates, address: '10 Downing Street, London SW1A 2AA' },
    })
  ).body.location
  expect({ coordinates: moved.coordinates, geocoding: moved.geocoding }).toEqual({
    coordinates: { lat: 38.9, lng: -77.04 },
    geocoding: { precision: 'rooftop', source: 'google' },
  })
  const asked: string[] = []
  const londonGoogle: Geocoder = {
    name: 'google',
    geocode: async (address) => (
      asked.push(address),
      { lat: 51.5034, lng: -0.1276, precision: 'rooftop', source: 'google', parts: { country: 'GB' } }
    ),
  }
  expect(await refreshLimitedGeocodes(env.store, londonGoogle, { now: new Date(now.getTime() + 30 * DAY) })).toEqual(
    report(1, 1, 0),
  )
  expect(asked).toEqual(['10 Downing Street, London SW1A 2AA'])
  expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location.coordinates).toEqual({
    lat: 51.5034,
    lng: -0.1276,
  })
  // Coordinates that differ: the caller's pin, no longer Google's (never refreshed).
  expect(
    (
      await env.call('POST', `/admin/v1/locations/${id}`, {
        body: { ...record, coordinates: { lat: 38.91, lng: -77.04 } },
      })
    ).status,
  ).toBe(200)
  // Its address parts are then the reverse lookup's, at the pin.
  expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location.geocoding).toEqual({
    precision: 'city',
    source: 'reverse',
  })
  expect(await refreshLimitedGeocodes(env.store, google, { now: new Date(now.getTime() + 60 * DAY) })).toEqual(
    report(0, 0, 0),
  )
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

test('points at their last chance are read a page at a time, however many: each is asked once (unknown age first), and one that fails does not stop the rest', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  // 1,150 Google points at their last chance (more than two pages of 500): 520 of unknown age, the rest aged.
  const ids = env.store.write(() =>
    Array.from({ length: 1150 }, (_, i) =>
      insertedGooglePoint(i < 520 ? null : new Date(now.getTime() - 30 * DAY - i * 60_000), `${i} Main Street`),
    ),
  )
  const asked = new Map<string, number>()
  const unknownToGoogle = (address: string) => Number.parseInt(address, 10) % 7 === 3
  const counted: Geocoder = {
    name: 'google',
    geocode: async (address) => (
      asked.set(address, (asked.get(address) ?? 0) + 1), unknownToGoogle(address) ? null : google.geocode(address)
    ),
  }
  const r = await refreshLimitedGeocodes(env.store, counted, { now })
  const unknown = ids.filter((_, i) => i % 7 === 3)
  expect({ checked: r.checked, refreshed: r.refreshed, failed: r.failed, overdue: r.overdue }).toEqual({
    checked: 1150,
    refreshed: 1150 - unknown.length,
    failed: unknown.length,
    overdue: unknown.length,
  })
  expect(asked.size).toBe(1150)
  expect([...asked.values()].every((n) => n === 1)).toBe(true)
  // Unknown age first (by id): the overdue named are the first 20 of those.
  expect(r.overdueLocations).toEqual(
    unknown
      .filter((id) => ids.indexOf(id) < 520)
      .sort()
      .slice(0, 20)
      .map((id) => ({ locator: env.locatorId, id })),
  )
  expect(ids.filter((id) => env.store.locations.get(env.locatorId, id)!.geocodedAt === now.toISOString()).length).toBe(
    1150 - unknown.length,
  )
})

test("Google unavailable at a run: the other points at their last chance get the fallback's point at once (Google asked once), as stopgaps; stopgaps of earlier runs wait (not read)", async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const addresses = ['1 First Street', '2 Second Street', '3 Third Street']
  const ids: string[] = []
  for (const [i, address] of addresses.entries())
    ids.push(insertedGooglePoint(new Date(now.getTime() - 30 * DAY + i * HOUR), address))
  insertedGooglePoint(
    new Date(now.getTime() - DAY),
    '4 Fourth Street',
    'embedded (fallback: google timed out after 3000 ms)',
  )
  let asked = 0
  const unavailable: Geocoder = {
    name: 'google',
    geocode: async () => (asked++, Promise.reject(new GeocoderUnavailableError('google', 'failed (HTTP 503)'))),
  }
  const embedded = tableGeocoder(
    Object.fromEntries(addresses.map((a, i) => [a, { lat: 40 + i, lng: -70, precision: 'city' as const }])),
  )
  expect(
    await refreshLimitedGeocodes(env.store, withFallback(unavailable, embedded), { now, fallback: embedded }),
  ).toEqual(report(3, 3, 0))
  expect(asked).toBe(1)
  expect(embedded.calls).toEqual(addresses) // the first through the stack, the others directly
  for (const [i, id] of ids.entries()) {
    const location = (await env.call('GET', `/admin/v1/locations/${id}`)).body.location
    expect({ coordinates: location.coordinates, geocoding: location.geocoding }).toEqual({
      coordinates: { lat: 40 + i, lng: -70 },
      geocoding: { precision: 'city', source: 'table (fallback: google failed (HTTP 503))' },
    })
  }
  // Google back at the next run: every stopgap gets its point.
  answer = { lat: 38.9, lng: -77.04 }
  expect(
    await refreshLimitedGeocodes(env.store, google, { now: new Date(now.getTime() + 6 * HOUR), fallback: embedded }),
  ).toEqual(report(4, 4, 0))
})

test("Google failing with an unexpected error at a point's last chance: the fallback's point, as a stopgap naming the error's kind (not its message); Google's again when it answers", async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const id = await geocodedByGoogle(new Date(now.getTime() - 30 * DAY))
  const address = (await env.call('GET', `/admin/v1/locations/${id}`)).body.location.address as string
  const broken: Geocoder = {
    name: 'google',
    geocode: async () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'lat')")),
  }
  const embedded = tableGeocoder({ [address]: { lat: 38.89, lng: -77.03, precision: 'city' as const } })
  expect(await refreshLimitedGeocodes(env.store, broken, { now, fallback: embedded })).toEqual(report(1, 1, 0))
  expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location.geocoding).toEqual({
    precision: 'city',
    source: 'table (fallback: google failed (TypeError))',
  })
  answer = { lat: 38.9, lng: -77.04 }
  expect(
    await refreshLimitedGeocodes(env.store, google, { now: new Date(now.getTime() + 6 * HOUR), fallback: embedded }),
  ).toEqual(report(1, 1, 0))
  expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location.geocoding).toEqual({
    precision: 'rooftop',
    source: 'google',
  })
})

test('an address Google fails on by itself (INVALID_REQUEST, an unusable answer, a bug on its data) does not stop Google being asked for the other points and the stopgaps', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const poison = insertedGooglePoint(new Date(now.getTime() - 40 * DAY), 'poison')
  const broken = insertedGooglePoint(new Date(now.getTime() - 40 * DAY), 'broken')
  const lastChance = insertedGooglePoint(new Date(now.getTime() - 30 * DAY), '1 First Street')
  const mayWait = insertedGooglePoint(new Date(now.getTime() - 29 * DAY - HOUR), '2 Second Street')
  const stopgap = insertedGooglePoint(
    new Date(now.getTime() - DAY),
    '3 Third Street',
    'embedded (fallback: google timed out after 3000 ms)',
  )
  const asked: string[] = []
  const picky: Geocoder = {
    name: 'google',
    async geocode(address) {
      asked.push(address)
      if (address === 'poison')
        throw new GeocoderUnavailableError('google', 'rejected the request as invalid (INVALID_REQUEST)', 'address')
      if (address === 'broken') throw new TypeError("Cannot read properties of undefined (reading 'lat')")
      return google.geocode(address)
    },
  }
  answer = { lat: 38.9, lng: -77.04 }
  // The two at their last chance that Google fails on: the fallback knows neither, so they are overdue; the other three get Google's point.
  const r = await refreshLimitedGeocodes(env.store, picky, { now, fallback: tableGeocoder({}) })
  expect(r).toEqual(report(5, 3, 2, [poison, broken].sort()))
  expect(asked.sort()).toEqual(['1 First Street', '2 Second Street', '3 Third Street', 'broken', 'poison'])
  for (const id of [lastChance, mayWait, stopgap])
    expect(env.store.locations.get(env.locatorId, id)!.geocoding).toEqual({ precision: 'rooftop', source: 'google' })
})

test('Google failing once in a run: a later point at its last chance that the fallback cannot place is still asked of Google (not left past 30 days); batch 0 takes only those', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const ids = [0, 1, 2].map((i) =>
    insertedGooglePoint(new Date(now.getTime() - 30 * DAY + i * 1000), `${i} Nowhere Lane`),
  )
  insertedGooglePoint(new Date(now.getTime() - 29 * DAY - HOUR), '3 Nowhere Lane')
  let calls = 0
  const flaky: Geocoder = {
    name: 'google',
    geocode: async (a) =>
      calls++ === 0
        ? Promise.reject(new GeocoderUnavailableError('google', 'timed out after 3000 ms'))
        : google.geocode(a),
  }
  answer = { lat: 38.9, lng: -77.04 }
  expect(await refreshLimitedGeocodes(env.store, flaky, { now, batch: 0, fallback: tableGeocoder({}) })).toEqual(
    report(3, 2, 1, [ids[0]!]),
  )
  expect(calls).toBe(3)
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

test('every stopgap is asked for in a run while Google answers, however many (not a batch)', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const ids = env.store.write(() =>
    Array.from({ length: 620 }, (_, i) =>
      insertedGooglePoint(
        new Date(now.getTime() - DAY - i * 1000),
        `${i} Main Street`,
        'embedded (fallback: google timed out after 3000 ms)',
      ),
    ),
  )
  answer = { lat: 38.9, lng: -77.04 }
  expect(await refreshLimitedGeocodes(env.store, google, { now, batch: 10 })).toEqual(report(620, 620, 0))
  expect(ids.every((id) => env.store.locations.get(env.locatorId, id)!.geocoding!.source === 'google')).toBe(true)
})

test('another process holding the write lock: the run waits for it without stopping the process; held past busy_timeout, each point is a failure, kept for the next run', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  // Two that may wait, one at its last chance (past its limit: not counted overdue for an answer the database did not take).
  const ids = [
    await geocodedByGoogle(new Date(now.getTime() - 29 * DAY - HOUR)),
    await geocodedByGoogle(new Date(now.getTime() - 29 * DAY - 2 * HOUR)),
    await geocodedByGoogle(new Date(now.getTime() - 40 * DAY)),
  ]
  const other = new Database(join(env.dir, 'test.db'))
  try {
    answer = { lat: 38.9, lng: -77.04 }
    const points = async () =>
      Promise.all(ids.map(async (id) => (await env.call('GET', `/admin/v1/locations/${id}`)).body.location.coordinates))
    const before = await points()
    // Past busy_timeout: before, the first save's error (SQLITE_BUSY) ended the whole run.
    env.store.db.exec('PRAGMA busy_timeout = 50')
    other.exec('BEGIN IMMEDIATE')
    expect(await refreshLimitedGeocodes(env.store, google, { now })).toEqual(report(3, 0, 3))
    other.exec('ROLLBACK')
    expect(await points()).toEqual(before)

    // Within busy_timeout: the run waits, timers firing meanwhile (before, SQLite's wait stopped the process).
    env.store.db.exec('PRAGMA busy_timeout = 3000')
    other.exec('BEGIN IMMEDIATE')
    let settled = false
    const run = refreshLimitedGeocodes(env.store, google, { now }).finally(() => (settled = true))
    await Bun.sleep(30)
    expect(settled).toBe(false)
    other.exec('ROLLBACK')
    expect(await run).toEqual(report(3, 3, 0))
    expect(await points()).toEqual([answer, answer, answer])
  } finally {
    if (other.inTransaction) other.exec('ROLLBACK')
    other.close()
  }
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

test('a point at its last chance whose address changed while it was asked (sent back with its point) is asked again by its new address in the same run; updated_at never goes back', async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const id = await geocodedByGoogle(new Date(now.getTime() - 29.9 * DAY))
  const {
    id: _,
    created_at,
    updated_at,
    ...record
  } = (await env.call('GET', `/admin/v1/locations/${id}`)).body.location
  const asked: string[] = []
  let renamedAt = ''
  const changing: Geocoder = {
    name: 'google',
    geocode: async (address) => {
      asked.push(address)
      if (asked.length === 1) {
        // A sync script sends the record back with another address while Google is asked.
        const res = await env.call('POST', `/admin/v1/locations/${id}`, {
          body: { ...record, address: '10 Downing Street, London SW1A 2AA' },
        })
        expect(res.status).toBe(200)
        renamedAt = res.body.location.updated_at
        return { lat: 38.9, lng: -77.04, precision: 'rooftop', source: 'google', parts: { country: 'US' } }
      }
      return { lat: 51.5034, lng: -0.1276, precision: 'rooftop', source: 'google', parts: { country: 'GB' } }
    },
  }
  expect(await refreshLimitedGeocodes(env.store, changing, { now })).toEqual(report(1, 1, 0)) // one point, asked twice
  expect(asked).toEqual([record.address, '10 Downing Street, London SW1A 2AA'])
  const point = env.store.locations.get(env.locatorId, id)!
  expect({ lat: point.lat, lng: point.lng, geocodedAt: point.geocodedAt }).toEqual({
    lat: 51.5034,
    lng: -0.1276,
    geocodedAt: now.toISOString(),
  })
  expect(point.updatedAt >= renamedAt).toBe(true)
})

describe("the service's schedule (scheduleGeocodeRefresh)", () => {
  const lines: RefreshLogLine[] = []
  const log = (line: RefreshLogLine) => void lines.push(line)
  beforeEach(() => (lines.length = 0))
  /** The runs use the clock: points are made as old as the test needs from it. */
  const now = new Date()
  /** Waits (up to 5 s) until `done()`; the runs are timers. */
  const until = async (done: () => boolean) => {
    for (const t = Date.now(); !done() && Date.now() - t < 5000; ) await Bun.sleep(2)
  }

  test('a run still going when the next is due is not joined by it; each run that asked is logged; none after the stop', async () => {
    const id = await geocodedByGoogle(new Date(now.getTime() - 29 * DAY - HOUR))
    let asked = 0
    let answerNow = () => {}
    const slow: Geocoder = {
      name: 'google',
      geocode: (address) => (asked++, new Promise((done) => (answerNow = () => done(google.geocode(address))))),
    }
    const stop = scheduleGeocodeRefresh(env.store, slow, { everyMs: 5, log })
    await Bun.sleep(60) // a dozen runs due meanwhile
    expect(asked).toBe(1)
    answerNow()
    await until(() => lines.length > 0)
    expect(env.store.locations.get(env.locatorId, id)!.geocodedAt! >= now.toISOString()).toBe(true)
    expect(lines).toEqual([
      { level: 'info', message: 'geocodes refreshed', checked: 1, refreshed: 1, failed: 0, overdue: 0 },
    ]) // runs with nothing to do are not logged
    stop()
    env.store.db.run('UPDATE locations SET geocoded_at = ? WHERE id = ?', [
      new Date(now.getTime() - 29 * DAY - HOUR).toISOString(),
      id,
    ])
    await Bun.sleep(30)
    expect(asked).toBe(1)
  })

  test('points kept past their limit are logged as an error naming them; a run that fails is logged and the next runs go on', async () => {
    const id = await geocodedByGoogle(new Date(now.getTime() - 40 * DAY))
    const unknown: Geocoder = { name: 'google', geocode: async () => null }
    let failing = true
    const store = {
      ...env.store,
      locations: {
        ...env.store.locations,
        geocodedBy: (...args: Parameters<typeof env.store.locations.geocodedBy>) => {
          if (failing) throw new Error('disk I/O error')
          return env.store.locations.geocodedBy(...args)
        },
      },
    }
    const stop = scheduleGeocodeRefresh(store, unknown, { everyMs: 20, log })
    await until(() => lines.length > 0)
    expect(lines[0]).toEqual({ level: 'error', message: 'geocode refresh failed', error: 'Error: disk I/O error' })
    failing = false
    await until(() => lines.some((line) => line.message === 'geocodes refreshed'))
    stop()
    lines.splice(0, lines.findIndex((line) => line.message === 'geocodes refreshed') - 1)
    expect(lines[1]).toEqual({
      level: 'info',
      message: 'geocodes refreshed',
      checked: 1,
      refreshed: 0,
      failed: 1,
      overdue: 1,
    })
    expect(lines[2]).toMatchObject({ level: 'error', locations: [{ locator: env.locatorId, id }] })
    expect(lines[2]!.message).toBe(
      "1 location(s) keep a point past its provider's limit (Google's 30 days): neither the geocoder (google) gave another for their address. Mend the address, or send coordinates.",
    )
  })

  test('with GEOCODER=none, the error says no geocoder replaces such points', async () => {
    await geocodedByGoogle(new Date(now.getTime() - 40 * DAY))
    const stop = scheduleGeocodeRefresh(env.store, noGeocoder, { everyMs: 60_000, log })
    await until(() => lines.some((line) => line.level === 'error'))
    stop()
    expect(lines.find((line) => line.level === 'error')!.message).toBe(
      "1 location(s) keep a point past its provider's limit (Google's 30 days): with GEOCODER=none no geocoder replaces it. Send coordinates, or set GEOCODER.",
    )
  })
})
