// What `storeloc doctor` reads about each locator, in SQL over a connection it only reads with:
// the doctor never migrates, so it does not use the store's repositories, which expect the
// current schema and write bookkeeping.
import type { Database } from 'bun:sqlite'

/** A key that still works and needs a look: it expires soon, or was seen in a public request. */
export type KeyFacts = { id: string; prefix: string; expiresAt: string | null; exposedAt: string | null }

/** A location placed only at a coarse precision (city, region or country) by a geocoder. */
export type CoarsePlacement = { id: string; name: string; precision: string }

export type LocatorFacts = {
  id: string
  name: string
  active: boolean
  queryApiEnabled: boolean
  /** The language of its own pages; null: none set (English). */
  language: string | null
  filterGroups: number
  publishedLocations: number
  /** Published locations with at least one tag. */
  taggedLocations: number
  keys: KeyFacts[]
  /** How many locations a geocoder placed at a coarse precision, and the first few of them. */
  coarseCount: number
  coarse: CoarsePlacement[]
}

/** Listed by id in a finding; the rest are counted. */
export const MAX_LISTED = 5

/**
 * Each locator's facts. `now` and `soon` are ISO times (expires_at is stored as toISOString
 * writes it, so text order is time order); `coarse` the precisions that count as coarse, for any
 * geocoding source but `pinned` (the coordinates were sent: only their address parts were looked up).
 */
export function locatorFacts(
  db: Database,
  now: string,
  soon: string,
  coarse: readonly string[],
  pinned: string,
): LocatorFacts[] {
  const locators = db
    .query<{ id: string; name: string; active: number; query_api_enabled: number; language: string | null }, []>(
      'SELECT id, name, active, query_api_enabled, language FROM locators ORDER BY created_at, id',
    )
    .all()
  const groups = db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM filter_groups WHERE locator_id = ?')
  const published = db.query<{ n: number }, [string]>(
    "SELECT count(*) AS n FROM locations WHERE locator_id = ? AND status = 'published'",
  )
  const tagged = db.query<{ n: number }, [string]>(
    "SELECT count(*) AS n FROM locations WHERE locator_id = ? AND status = 'published' AND tags != '[]'",
  )
  // Working keys only: revoked or expired ones cannot be used, exposed or not.
  const keys = db.query<
    { id: string; prefix: string; expires_at: string | null; exposed_at: string | null },
    { locator: string; now: string; soon: string }
  >(
    `SELECT id, prefix, expires_at, exposed_at FROM api_keys
     WHERE locator_id = $locator AND status = 'active' AND (expires_at IS NULL OR expires_at > $now)
       AND (exposed_at IS NOT NULL OR expires_at <= $soon)
     ORDER BY created_at, id`,
  )
  const precisions = JSON.stringify(coarse)
  const isCoarse = 'geocode_precision IN (SELECT value FROM json_each(?)) AND geocode_source IS NOT ?'
  const coarseCount = db.query<{ n: number }, [string, string, string]>(
    `SELECT count(*) AS n FROM locations WHERE locator_id = ? AND ${isCoarse}`,
  )
  const coarseFirst = db.query<CoarsePlacement, [string, string, string, number]>(
    `SELECT id, name, geocode_precision AS precision FROM locations WHERE locator_id = ? AND ${isCoarse} ORDER BY seq LIMIT ?`,
  )
  return locators.map((l) => ({
    id: l.id,
    name: l.name,
    active: l.active === 1,
    queryApiEnabled: l.query_api_enabled === 1,
    language: l.language,
    filterGroups: groups.get(l.id)!.n,
    publishedLocations: published.get(l.id)!.n,
    taggedLocations: tagged.get(l.id)!.n,
    keys: keys
      .all({ locator: l.id, now, soon })
      .map((k) => ({ id: k.id, prefix: k.prefix, expiresAt: k.expires_at, exposedAt: k.exposed_at })),
    coarseCount: coarseCount.get(l.id, precisions, pinned)!.n,
    coarse: coarseFirst.all(l.id, precisions, pinned, MAX_LISTED),
  }))
}

/** A published location's hours columns as stored (JSON text). */
export type HoursRow = { id: string; name: string; hours: string; special_hours: string }

/** The published locations of a locator that have any hours text, in the order they were written. */
export function publishedHours(db: Database, locatorId: string): IterableIterator<HoursRow> {
  return db
    .query<HoursRow, [string]>(
      `SELECT id, name, hours, special_hours FROM locations
       WHERE locator_id = ? AND status = 'published' AND (hours != '{}' OR special_hours != '{}')
       ORDER BY seq`,
    )
    .iterate(locatorId)
}

/** The columns the service writes as JSON text: a row it did not write may hold other text there. */
const JSON_COLUMNS = ['tags', 'contact', 'social', 'hours', 'special_hours', 'custom_fields', 'address_parts'] as const

/** A location with columns whose text is not JSON. */
export type UnreadableRow = { id: string; columns: string[] }

/** The locator's locations (any status) with a JSON column that is not JSON: how many, and the first few. */
export function unreadableRows(db: Database, locatorId: string): { count: number; first: UnreadableRow[] } {
  const valid = JSON_COLUMNS.map((c) => `json_valid(${c}) AS ${c}`).join(', ')
  const invalid = JSON_COLUMNS.map((c) => `NOT json_valid(${c})`).join(' OR ')
  const rows = db
    .query<Record<string, string | number | null>, [string]>(
      `SELECT id, ${valid} FROM locations WHERE locator_id = ? AND (${invalid}) ORDER BY seq`,
    )
    .all(locatorId)
  const first = rows.slice(0, MAX_LISTED).map((r) => ({
    id: String(r.id),
    columns: JSON_COLUMNS.filter((c) => r[c] === 0),
  }))
  return { count: rows.length, first }
}
