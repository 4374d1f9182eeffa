// The refresh while Google fails or no longer knows an address: points kept while they may be,
// the fallback's stopgaps at their last chance, and Google's point again once it answers.
import { expect, test } from 'bun:test'
import type { Geocoder } from '../../src/geocode/geocoder'
import { GeocoderUnavailableError, withFallback } from '../../src/geocode/http'
import { refreshLimitedGeocodes } from '../../src/geocode/refresh'
import { tableGeocoder } from '../helpers'
import { DAY, env, geocodedByGoogle, googleAt, HOUR, insertedGooglePoint, report, withTestEnv } from './refresh-fixture'

withTestEnv()
let answer = { lat: 10, lng: 20 }
const google = googleAt(() => answer)

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
