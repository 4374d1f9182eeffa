import type { Database } from 'bun:sqlite'
import { COLUMNS, fromRow, type Row } from './location-columns'
import type { Hours, LocationRecord, LocationStatus } from './locations'

/** The columns the search index needs of a published location (its public JSON comes later), and its place in row order. */
export type IndexRow = {
  seq: number
  id: string
  lat: number
  lng: number
  name: string
  address: string
  description: string
  tags: string[]
  customFields: Record<string, string> | null
  hours: Hours
  specialHours: Record<string, string>
  timezone: string | null
  /** The words of its town's names; null: not looked up yet. */
  townNames: string | null
}

export type IndexRowRaw = Omit<IndexRow, 'tags' | 'customFields' | 'hours' | 'specialHours' | 'townNames'> & {
  town_names: string | null
  tags: string
  custom_fields: string | null
  hours: string
  special_hours: string
}

export const indexRow = (r: IndexRowRaw): IndexRow => ({
  seq: r.seq,
  id: r.id,
  lat: r.lat,
  lng: r.lng,
  name: r.name,
  address: r.address,
  description: r.description,
  tags: JSON.parse(r.tags),
  customFields: r.custom_fields === null ? null : JSON.parse(r.custom_fields),
  // Hours that cannot be read (a row written behind the service's back) load as none: the index
  // is built, and the answers that need the row's JSON, which cannot be made, fail alone.
  hours: parsedOr(r.hours, {}),
  specialHours: parsedOr(r.special_hours, {}),
  timezone: r.timezone,
  townNames: r.town_names,
})

function parsedOr<T>(json: string, fallback: T): T {
  try {
    const value = JSON.parse(json)
    return value !== null && typeof value === 'object' ? value : fallback
  } catch {
    return fallback
  }
}

/** Rows read a slice at a time, in row order: `lastSeq` is where the next slice begins (snapshot.ts, eachSlice). */
export type Slice<T> = { rows: T[]; lastSeq: number }

const sliceOf = <R extends { seq: number }, T>(rows: R[], afterSeq: number, map: (row: R) => T): Slice<T> => ({
  rows: rows.map(map),
  lastSeq: rows.at(-1)?.seq ?? afterSeq,
})

/**
 * SQL of a locator's (?1) seqs by the covering (locator_id, status, seq) index, each status's in
 * row order: of status ?2 ('one'), or of both merged by seq ('both'), so that no query sorts the
 * locator's rows; `where` narrows each ("AND seq > ?3"). A query then reads only its page's rows.
 */
export function seqsOf(statuses: 'one' | 'both', where = ''): string {
  const of = (status: string) => `SELECT seq FROM locations WHERE locator_id = ?1 AND status = ${status}${where}`
  return statuses === 'one' ? of('?2') : `${of("'published'")} UNION ALL ${of("'draft'")}`
}

/**
 * A reader of a locator's locations a slice at a time, in row order: up to `limit` after the row
 * at `afterSeq` (0: from the first), only those of `status` unless null.
 */
export function locationSlicer(db: Database) {
  const slice = (statuses: 'one' | 'both') =>
    db.prepare<Row & { seq: number }, [string, string, number, number]>(
      `SELECT seq, ${COLUMNS} FROM locations WHERE seq IN (${seqsOf(statuses, ' AND seq > ?3')} ORDER BY seq LIMIT ?4) ORDER BY seq`,
    )
  const [one, both] = [slice('one'), slice('both')]
  return (locatorId: string, status: LocationStatus | null, afterSeq: number, limit: number): Slice<LocationRecord> =>
    sliceOf((status === null ? both : one).all(locatorId, status ?? '', afterSeq, limit), afterSeq, fromRow)
}

/** A published location's id, name and last change: a sitemap's. */
export type PublishedName = { id: string; name: string; updatedAt: string }

/**
 * A reader of a locator's published locations' PublishedNames a slice at a time, as
 * locationSlicer reads; `seqBefore(locatorId, offset)`: where a read from the offset-th begins.
 */
export function publishedNameSlicer(db: Database) {
  const after = db.prepare<{ seq: number; id: string; name: string; updated_at: string }, [string, number, number]>(
    "SELECT seq, id, name, updated_at FROM locations WHERE locator_id = ? AND status = 'published' AND seq > ? ORDER BY seq LIMIT ?",
  )
  const at = db.prepare<{ seq: number }, [string, number]>(
    "SELECT seq FROM locations WHERE locator_id = ? AND status = 'published' ORDER BY seq LIMIT 1 OFFSET ?",
  )
  return {
    read: (locatorId: string, afterSeq: number, limit: number): Slice<PublishedName> =>
      sliceOf(after.all(locatorId, afterSeq, limit), afterSeq, (r) => ({
        id: r.id,
        name: r.name,
        updatedAt: r.updated_at,
      })),
    /** The seq the offset-th published location (0-based) comes after; none past the last. */
    seqBefore: (locatorId: string, offset: number): number =>
      offset === 0 ? 0 : (at.get(locatorId, offset - 1)?.seq ?? Number.MAX_SAFE_INTEGER),
  }
}

/** A published location's id, name, and town, region and country as its address parts say them (null where they do not). */
export type PlacedName = {
  id: string
  name: string
  city: string | null
  region: string | null
  country: string | null
  /** The words of its town's names (LocationRecord.townNames); null or '' when not looked up. */
  townNames: string | null
}

/** A reader of a locator's published locations' PlacedNames a slice at a time, as locationSlicer reads. */
export function placedNameSlicer(db: Database) {
  const after = db.prepare<PlacedName & { seq: number }, [string, number, number]>(
    "SELECT seq, id, name, json_extract(address_parts, '$.city') AS city, json_extract(address_parts, '$.region') AS region, json_extract(address_parts, '$.country') AS country, town_names AS townNames FROM locations WHERE locator_id = ? AND status = 'published' AND seq > ? ORDER BY seq LIMIT ?",
  )
  return (locatorId: string, afterSeq: number, limit: number): Slice<PlacedName> =>
    sliceOf(after.all(locatorId, afterSeq, limit), afterSeq, ({ seq, ...named }) => named)
}
