import { type Params, toParams } from './location-columns'
import type { AddressParts, LocationRecord } from './locations'

/** The columns that are times: a record that differs from another only in these holds the same. */
const TIMES = new Set<keyof Params>(['created_at', 'updated_at', 'geocoded_at'])
/** Columns no answer shows, written only beside a change of the address (replaced_point): no change of their own. */
const UNSHOWN = new Set<keyof Params>(['replaced_point'])

/** The columns that are maps, named by their key after the column's name: "hours.monday". */
const MAPS: Partial<Record<keyof Params, (r: LocationRecord) => Record<string, string>>> = {
  contact: (r) => r.contact,
  social: (r) => r.social,
  hours: (r) => r.hours,
  special_hours: (r) => r.specialHours,
  custom_fields: (r) => r.customFields,
}

/** A column's field in the Management API's words, where its name is not. */
const FIELD_OF: Partial<Record<keyof Params, string>> = {
  lat: 'coordinates',
  lng: 'coordinates',
  geocode_precision: 'geocoding',
  geocode_source: 'geocoding',
  name_key: 'name',
  code_key: 'external_id',
}
/** Columns that follow from the address and the point: named (as "address") only when nothing else changed. */
const DERIVED = new Set<keyof Params>(['address_parts', 'town_names'])

/** The point's columns: samePoint, not equality, says whether they changed. */
const POINT = new Set<keyof Params>(['lat', 'lng'])

/**
 * What `next` holds that `current`, the same location, does not: the Management API's fields
 * ("name", "coordinates", "hours.monday"), in column order. Every column but the times counts, as
 * written, but the point, the same within samePoint's tolerance. Maps come out the same for the
 * same content: a write merges into the stored map (mergeMap), so the keys it had keep their order.
 */
export function changedFields(next: LocationRecord, current: LocationRecord): string[] {
  const x = toParams(next)
  const y = toParams(current)
  const changed = new Set<string>()
  let derived = false
  for (const column of Object.keys(x) as (keyof Params)[]) {
    if (TIMES.has(column) || UNSHOWN.has(column) || x[column] === y[column]) continue
    if (POINT.has(column) && samePoint(next, current)) continue
    if (column === 'address_parts' && sameParts(next.addressParts, current.addressParts)) continue
    if (DERIVED.has(column)) {
      derived = true
      continue
    }
    const map = MAPS[column]
    const before = changed.size
    if (map !== undefined) {
      const [a, b] = [map(next), map(current)]
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
        if (a[key] !== b[key]) changed.add(`${column}.${key}`)
    }
    if (changed.size === before) changed.add(FIELD_OF[column] ?? column) // a map's keys in another order
  }
  return changed.size === 0 && derived ? ['address'] : [...changed]
}

/** Whether two records of one location hold the same (changedFields finds nothing). */
export const sameContent = (a: LocationRecord, b: LocationRecord): boolean => changedFields(a, b).length === 0

/**
 * Degrees two coordinates may differ by and be one: 1e-9, 0.1 mm. A spreadsheet keeps 15
 * significant digits (at most 5e-13 off below 1,000 degrees); a pin moved 1e-7 (1 cm) has moved.
 */
const SAME_POINT_DEGREES = 1e-9

/**
 * Whether two points are the same: each coordinate within SAME_POINT_DEGREES, as a sheet rounds
 * them. Longitudes are compared around the globe: -180 and 180 are one meridian, so one point.
 */
export const samePoint = (a: { lat: number; lng: number }, b: { lat: number; lng: number }): boolean => {
  const lng = Math.abs(a.lng - b.lng)
  return Math.abs(a.lat - b.lat) <= SAME_POINT_DEGREES && Math.min(lng, 360 - lng) <= SAME_POINT_DEGREES
}

/**
 * Whether two records of one location are at the same point with the same address parts: a
 * write that changes neither keeps the town looked up for them (townNames).
 */
export const samePlace = (a: LocationRecord, b: LocationRecord): boolean =>
  samePoint(a, b) && sameParts(a.addressParts, b.addressParts)

/**
 * `next` as written by a write that could not look its town up (no place data now): it keeps
 * `current`'s names while its point and address parts are the same; else they wait for the
 * reverse upkeep (townNames null).
 */
export function unplacedRecord(next: LocationRecord, current: LocationRecord | null): LocationRecord {
  return current !== null && samePlace(next, current) ? next : { ...next, townNames: null }
}

/** Whether two sets of address parts say the same, whatever order their keys came in (a geocoder's, then the lookup's). */
function sameParts(a: AddressParts, b: AddressParts): boolean {
  const keys = Object.keys(a) as (keyof AddressParts)[]
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k])
}
