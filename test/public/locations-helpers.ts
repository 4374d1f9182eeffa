// The query string, field list and checks shared by the Query API tests of GET /locations and
// GET /filters (locations-*.test.ts and filters-route.test.ts).
import { expect } from 'bun:test'
import { CENTER, haversineKm, idsOf, KM_PER_MILE, type Fixture, type Res } from './fixture'

export const NEAR = `lat=${CENTER.lat}&lng=${CENTER.lng}`
export const LOCATION_KEYS = [
  'address',
  'contact',
  'coordinates',
  'customFields',
  'description',
  'hours',
  'hours_today',
  'id',
  'image',
  'name',
  'next_change',
  'open_now',
  'social',
  'tags',
  'timezone',
]
export const keysOf = (f: Fixture, res: Res) => idsOf(res).map((id) => f.locs.find((l) => l.id === id)?.key ?? id)

/** The distances of a radius answer match the haversine distance of each location, rounded to 2 decimals, in `unit`. */
export function expectDistances(f: Fixture, res: Res, unit: 'miles' | 'km') {
  for (const l of res.body.data.locations) {
    const loc = f.locs.find((x) => x.id === l.id)!
    const km = haversineKm(CENTER, loc)
    const want = unit === 'km' ? km : km / KM_PER_MILE
    expect(l.distance).toEqual({ value: expect.any(Number), unit })
    expect(Math.abs(l.distance.value - want)).toBeLessThanOrEqual(0.01)
    expect(Math.abs(l.distance.value * 100 - Math.round(l.distance.value * 100))).toBeLessThan(1e-6)
  }
}
