// A refresh run re-geocodes Google's points before their 30 days (Google's terms): which are due
// (by age, batch and page), what it writes, records sent back meanwhile, and the write lock.
import { Database } from 'bun:sqlite'
import { expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Geocoder } from '../../src/geocode/geocoder'
import { DEFAULT_GEODATA_PATH } from '../../src/geocode/embedded/build'
import { placeSearchAt } from '../../src/geocode/embedded/place-source'
import { type Placer, refreshLimitedGeocodes } from '../../src/geocode/refresh'
import { placed } from '../../src/locations/town'
import { setLocatorSettings } from '../../src/operator'
import { DAY, env, geocodedByGoogle, googleAt, HOUR, insertedGooglePoint, report, withTestEnv } from './refresh-fixture'

withTestEnv()
let answer = { lat: 10, lng: 20 }
const google = googleAt(() => answer)

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

test("placed as the service places it, Google's same point again keeps the parts the write gave: only its time is written", async () => {
  const now = new Date('2026-11-22T12:00:00Z')
  const old = await geocodedByGoogle(new Date(now.getTime() - 29 * DAY - HOUR))
  const before = (await env.call('GET', `/admin/v1/locations/${old}`)).body.location
  answer = { lat: before.coordinates.lat, lng: before.coordinates.lng }
  // Google's parts are fewer than the write's, which the reverse lookup completed.
  expect(env.store.locations.get(env.locatorId, old)!.addressParts).toMatchObject({ city: 'Washington' })
  const partly: Geocoder = {
    name: 'google',
    geocode: async () => ({
      ...answer,
      precision: 'rooftop',
      source: 'google',
      parts: { postcode: '20500', country: 'US' },
    }),
  }
  const towns = placeSearchAt(DEFAULT_GEODATA_PATH).reverse()
  const placer = async (): Promise<Placer> => (next, current) => placed(next, current, towns)
  const seqBefore = env.store.changes.lastSeq()
  expect(await refreshLimitedGeocodes(env.store, partly, { now, placer })).toEqual(report(1, 1, 0))
  expect((await env.call('GET', `/admin/v1/locations/${old}`)).body.location).toEqual(before)
  expect(env.store.changes.since(seqBefore)).toEqual([])
  expect(env.store.locations.get(env.locatorId, old)!.townNames).not.toBeNull()
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
  // Its address parts are then the reverse lookup's, at the pin, with the postcode its address writes.
  const pinned = (await env.call('GET', `/admin/v1/locations/${id}`)).body.location
  expect([pinned.address, pinned.geocoding]).toEqual([
    '1600 Pennsylvania Avenue NW, Washington, DC 20500',
    { precision: 'postcode', source: 'reverse' },
  ])
  expect(await refreshLimitedGeocodes(env.store, google, { now: new Date(now.getTime() + 60 * DAY) })).toEqual(
    report(0, 0, 0),
  )
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

test('a point at its last chance whose address changed while it was asked (sent back with its point) is asked again by its new address in the same run; updated_at moves past the edit', async () => {
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
  expect(Date.parse(point.updatedAt)).toBe(Date.parse(renamedAt) + 1)
})
