import type { LocationRecord, LocationStatus, ReplacedPoint } from './locations'
import { cliCommand } from '../core/cli-command'
import { bareCode, nameKey } from '../core/text'

/** A location's row as SQLite returns it. */
export type Row = {
  id: string
  locator_id: string
  external_id: string | null
  status: LocationStatus
  name: string
  address: string
  lat: number
  lng: number
  description: string
  tags: string
  contact: string
  social: string
  hours: string
  special_hours: string
  timezone: string | null
  custom_fields: string
  image_url: string
  geocode_precision: string | null
  geocode_source: string | null
  address_parts: string
  town_names: string | null
  /** nameKey(name), or null for a row written otherwise (migration 13). */
  name_key: string | null
  /** bareCode(external_id); null for none, a row written otherwise, or one of stored twins (migration 15). */
  code_key: string | null
  created_at: string
  updated_at: string
  geocoded_at: string | null
  /** JSON of a ReplacedPoint (migration 18); null: none. */
  replaced_point: string | null
}

export const COLUMNS =
  'id, locator_id, external_id, status, name, address, lat, lng, description, tags, contact, social, hours, special_hours, timezone, custom_fields, image_url, geocode_precision, geocode_source, address_parts, town_names, name_key, code_key, created_at, updated_at, geocoded_at, replaced_point'

/** The columns written as JSON text, in fromRow's order. */
const JSON_COLUMNS = ['tags', 'contact', 'social', 'hours', 'special_hours', 'custom_fields', 'address_parts'] as const

/**
 * A row the service did not write (a hand edit, another program): its error names the row and the
 * column, so the 500 it makes is found in the log, and says where the others are listed.
 */
export class UnreadableRowError extends Error {
  constructor(id: string, column: string, cause: unknown) {
    super(
      `location ${id}: its ${column} column is not JSON (${(cause as Error)?.message}), so the service did not write it: ${cliCommand('doctor')} lists every such row`,
    )
  }
}

/** The record of a row; an UnreadableRowError for one whose JSON columns hold other text. */
export function fromRow(r: Row): LocationRecord {
  try {
    return recordOf(r)
  } catch (e) {
    // The slow path, only for a broken row: which column.
    for (const column of JSON_COLUMNS) {
      try {
        JSON.parse(r[column])
      } catch (cause) {
        throw new UnreadableRowError(r.id, column, cause)
      }
    }
    throw e
  }
}

const recordOf = (r: Row): LocationRecord => ({
  id: r.id,
  locatorId: r.locator_id,
  externalId: r.external_id,
  status: r.status,
  name: r.name,
  address: r.address,
  lat: r.lat,
  lng: r.lng,
  description: r.description,
  tags: JSON.parse(r.tags),
  contact: JSON.parse(r.contact),
  social: JSON.parse(r.social),
  hours: JSON.parse(r.hours),
  specialHours: JSON.parse(r.special_hours),
  timezone: r.timezone,
  customFields: JSON.parse(r.custom_fields),
  imageUrl: r.image_url,
  geocoding: r.geocode_precision === null ? null : { precision: r.geocode_precision, source: r.geocode_source ?? '' },
  addressParts: JSON.parse(r.address_parts),
  townNames: r.town_names,
  geocodedAt: r.geocoded_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  replacedPoint: r.replaced_point === null ? null : replacedPointRead(r.replaced_point),
})

/** A replaced_point cell's point; null for text that is none (a hand edit): it only keeps a store from moving. */
function replacedPointRead(cell: string): ReplacedPoint | null {
  try {
    const p = JSON.parse(cell)
    const numbers = [p?.lat, p?.lng, p?.by?.lat, p?.by?.lng].every((n) => typeof n === 'number')
    return numbers ? { lat: p.lat, lng: p.lng, by: { lat: p.by.lat, lng: p.by.lng } } : null
  } catch {
    return null
  }
}

/** The key a store code is stored under: bareCode's, null for none or invisible characters alone. */
export const codeKey = (externalId: string | null): string | null =>
  externalId === null ? null : bareCode(externalId) || null

export const toParams = (r: LocationRecord) => ({
  id: r.id,
  locator_id: r.locatorId,
  external_id: r.externalId,
  status: r.status,
  name: r.name,
  address: r.address,
  lat: r.lat,
  lng: r.lng,
  description: r.description,
  tags: JSON.stringify(r.tags),
  contact: JSON.stringify(r.contact),
  social: JSON.stringify(r.social),
  hours: JSON.stringify(r.hours),
  special_hours: JSON.stringify(r.specialHours),
  timezone: r.timezone,
  custom_fields: JSON.stringify(r.customFields),
  image_url: r.imageUrl,
  geocode_precision: r.geocoding?.precision ?? null,
  geocode_source: r.geocoding?.source ?? null,
  address_parts: JSON.stringify(r.addressParts),
  town_names: r.townNames,
  name_key: nameKey(r.name),
  code_key: codeKey(r.externalId),
  geocoded_at: r.geocodedAt,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
  replaced_point: r.replacedPoint === null ? null : JSON.stringify(r.replacedPoint),
})
export type Params = ReturnType<typeof toParams>
