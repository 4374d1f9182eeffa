// Shared by the refresh-*.test.ts files: a fresh env for each test, a run's report, a Google
// stand-in answering the point a test sets, and locations as if Google had geocoded them.
import { afterEach, beforeEach, expect } from 'bun:test'
import type { Geocoder } from '../../src/geocode/geocoder'
import { locationRecord, makeEnv, type TestEnv } from '../helpers'

export let env: TestEnv
/** A fresh env (test/helpers.ts makeEnv) as `env` for each test of the calling file (hooks registered here). */
export function withTestEnv(): void {
  beforeEach(() => (env = makeEnv()))
  afterEach(() => env.close())
}

export const DAY = 86_400_000
/** A run's report; `overdueIds`: the points (of the test's locator) at their last chance that nothing replaced. */
export const report = (checked: number, refreshed: number, failed: number, overdueIds: string[] = []) => ({
  checked,
  refreshed,
  failed,
  overdue: overdueIds.length,
  overdueLocations: overdueIds.map((id) => ({ locator: env.locatorId, id })),
})
export const HOUR = 3_600_000
/** A stand-in for Google: every address at the point `point()` gives when it is asked. */
export const googleAt = (point: () => { lat: number; lng: number }): Geocoder => ({
  name: 'google',
  geocode: async () => ({ ...point(), precision: 'rooftop', source: 'google', parts: { country: 'US' } }),
})

/** A location as if geocoded by Google at `at` (the store is the public surface the refresh works on). */
export async function geocodedByGoogle(at: Date, address = '1600 Pennsylvania Avenue NW, Washington, DC 20500') {
  const res = await env.call('POST', '/admin/v1/locations', { body: { name: 'Store', address } })
  expect(res.status).toBe(201)
  env.store.db.run("UPDATE locations SET geocode_source = 'google', geocoded_at = ?1, updated_at = ?1 WHERE id = ?2", [
    at.toISOString(),
    res.body.location.id,
  ])
  return res.body.location.id as string
}

/** A location as if Google gave its point for `address` at `at` (null: at a time not recorded), inserted directly (any address). */
export function insertedGooglePoint(at: Date | null, address: string, source = 'google'): string {
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
