import type { Database } from 'bun:sqlite'
import type { ChangeLog } from './changes'

export type LocationStatus = 'published' | 'draft'
export type Contact = { phone?: string; email?: string; website?: string }
export type Social = { instagram?: string; facebook?: string; twitter?: string }
export const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
export type Day = (typeof DAYS)[number]
export type Hours = Partial<Record<Day, string>>
export type AddressParts = { street?: string; city?: string; region?: string; postcode?: string; country?: string }
export type Geocoding = { precision: string; source: string }

/** Everything about a location that a write may set. Unset strings are ''; unset map keys are absent. */
export type LocationFields = {
  /** The chain's own code for the location, unique within its locator; null when none. */
  externalId: string | null
  status: LocationStatus
  name: string
  address: string
  lat: number
  lng: number
  description: string
  tags: string[]
  contact: Contact
  social: Social
  hours: Hours
  /** Hours text for dates (YYYY-MM-DD, local), in place of their weekday's. */
  specialHours: Record<string, string>
  /** The IANA time zone set for the location; null: the one of its coordinates (locations/opening.ts). */
  timezone: string | null
  customFields: Record<string, string>
  imageUrl: string
  /** null when the caller sent the coordinates. */
  geocoding: Geocoding | null
  /** When the geocoder produced the coordinates (ISO time); null when the caller sent them. */
  geocodedAt: string | null
  addressParts: AddressParts
  /** The words of its town's names, main and other, for keyword search; null: not looked up yet. */
  townNames: string | null
}

export type LocationRecord = LocationFields & { id: string; locatorId: string; createdAt: string; updatedAt: string }

/** Which rows `geocodedBy` reads: those whose geocoding source is `source`, or is LIKE `sourceLike`. */
export type GeocodeSources = { source: string } | { sourceLike: string }

/** Where a page of `geocodedBy` ends: its last location's geocodedAt and id. */
export type GeocodedCursor = { geocodedAt: string | null; id: string }

type Row = {
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
  created_at: string
  updated_at: string
  geocoded_at: string | null
}

const COLUMNS =
  'id, locator_id, external_id, status, name, address, lat, lng, description, tags, contact, social, hours, special_hours, timezone, custom_fields, image_url, geocode_precision, geocode_source, address_parts, town_names, created_at, updated_at, geocoded_at'

const fromRow = (r: Row): LocationRecord => ({
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
})

const toParams = (r: LocationRecord) => ({
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
  geocoded_at: r.geocodedAt,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
})
type Params = ReturnType<typeof toParams>

/** The columns that are times: a record that differs from another only in these holds the same. */
const TIMES = new Set<keyof Params>(['created_at', 'updated_at', 'geocoded_at'])

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
}
/** Columns that follow from the address and the point: named (as "address") only when nothing else changed. */
const DERIVED = new Set<keyof Params>(['address_parts', 'town_names'])

/**
 * What `next` holds that `current`, the same location, does not: the Management API's fields
 * ("name", "coordinates", "hours.monday"), in column order. Every column but the times counts, as
 * written. Maps come out the same for the same content: a write merges into the stored map
 * (mergeMap), so the keys it had keep their order.
 */
export function changedFields(next: LocationRecord, current: LocationRecord): string[] {
  const x = toParams(next)
  const y = toParams(current)
  const changed = new Set<string>()
  let derived = false
  for (const column of Object.keys(x) as (keyof Params)[]) {
    if (TIMES.has(column) || x[column] === y[column]) continue
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
 * Whether two records of one location are at the same point with the same address parts: a
 * write that changes neither keeps the town looked up for them (townNames).
 */
export const samePlace = (a: LocationRecord, b: LocationRecord): boolean =>
  a.lat === b.lat && a.lng === b.lng && sameParts(a.addressParts, b.addressParts)

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

type IndexRowRaw = Omit<IndexRow, 'tags' | 'customFields' | 'hours' | 'specialHours' | 'townNames'> & {
  town_names: string | null
  tags: string
  custom_fields: string | null
  hours: string
  special_hours: string
}

const indexRow = (r: IndexRowRaw): IndexRow => ({
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
function seqsOf(statuses: 'one' | 'both', where = ''): string {
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

/** The statements the repo runs, prepared once. */
function statements(db: Database) {
  const byId = db.prepare<Row, [string, string]>(`SELECT ${COLUMNS} FROM locations WHERE locator_id = ? AND id = ?`)
  // A page's seqs come from the covering index (seqsOf), its rows after: OFFSET skips index entries, not rows.
  const pageOf = (statuses: 'one' | 'both') =>
    db.prepare<Row, [string, string, number, number]>(
      `SELECT ${COLUMNS} FROM locations WHERE seq IN (${seqsOf(statuses)} ORDER BY seq LIMIT ?3 OFFSET ?4) ORDER BY seq`,
    )
  const page = pageOf('one')
  const pageOfBoth = pageOf('both')
  const count = db.prepare<{ n: number }, { locator_id: string; status: string | null }>(
    'SELECT count(*) AS n FROM locations WHERE locator_id = $locator_id AND ($status IS NULL OR status = $status)',
  )
  const all = db.prepare<Row, [string]>(`SELECT ${COLUMNS} FROM locations WHERE locator_id = ? ORDER BY seq`)
  const byExternalId = db.prepare<Row, [string, string]>(
    `SELECT ${COLUMNS} FROM locations WHERE locator_id = ? AND external_id = ?`,
  )
  const externalIds = db.prepare<{ id: string; external_id: string; name: string }, [string]>(
    'SELECT id, external_id, name FROM locations WHERE locator_id = ? AND external_id IS NOT NULL ORDER BY seq',
  )
  const namesAndAddresses = db.prepare<{ id: string; name: string; address: string }, [string]>(
    'SELECT id, name, address FROM locations WHERE locator_id = ? ORDER BY seq',
  )
  const INDEX_ROW =
    'SELECT seq, id, lat, lng, name, address, description, tags, CASE WHEN ? THEN custom_fields END AS custom_fields, hours, special_hours, timezone, town_names FROM locations'
  const indexRows = db.prepare<IndexRowRaw, [number, string]>(
    `${INDEX_ROW} WHERE locator_id = ? AND status = 'published' ORDER BY seq`,
  )
  const indexRowsAfter = db.prepare<IndexRowRaw, [number, string, number, number]>(
    `${INDEX_ROW} WHERE locator_id = ? AND status = 'published' AND seq > ? ORDER BY seq LIMIT ?`,
  )
  // A field some priority rule of the locator names is read from ranked_custom_values (migration 3); any other from the rows.
  const ranked = db.prepare<{ x: number }, [string, string]>(
    "SELECT 1 AS x FROM priority_rules WHERE locator_id = ? AND json_extract(rule, '$.custom_field') = ? LIMIT 1",
  )
  const rankedWithValue = db.prepare<{ id: string }, [string, string, string]>(
    'SELECT location_id AS id FROM ranked_custom_values WHERE locator_id = ? AND field = ? AND value = ?',
  )
  const withCustomFieldValue = db.prepare<{ id: string }, [string, string, string]>(
    "SELECT id FROM locations WHERE locator_id = ? AND status = 'published' AND json_extract(custom_fields, '$.\"' || ? || '\"') = ?",
  )
  // Each id looked up by its own index (CROSS JOIN keeps that order; otherwise SQLite scans the locator's rows).
  const publishedByIds = db.prepare<Row, [string, string]>(
    `SELECT ${COLUMNS.split(', ')
      .map((c) => `l.${c}`)
      .join(
        ', ',
      )} FROM json_each(?) AS j CROSS JOIN locations AS l ON l.id = j.value WHERE l.locator_id = ? AND l.status = 'published'`,
  )
  const insert = db.prepare<unknown, Params>(
    `INSERT INTO locations (${COLUMNS}) VALUES ($id, $locator_id, $external_id, $status, $name, $address, $lat, $lng, $description, $tags, $contact, $social, $hours, $special_hours, $timezone, $custom_fields, $image_url, $geocode_precision, $geocode_source, $address_parts, $town_names, $created_at, $updated_at, $geocoded_at)`,
  )
  const update = db.prepare<unknown, Params>(
    `UPDATE locations SET external_id = $external_id, status = $status, name = $name, address = $address, lat = $lat, lng = $lng, description = $description, tags = $tags, contact = $contact, social = $social, hours = $hours, special_hours = $special_hours, timezone = $timezone, custom_fields = $custom_fields, image_url = $image_url, geocode_precision = $geocode_precision, geocode_source = $geocode_source, address_parts = $address_parts, town_names = $town_names, created_at = $created_at, updated_at = $updated_at, geocoded_at = $geocoded_at WHERE locator_id = $locator_id AND id = $id`,
  )
  const unplaced = db.prepare<Row, [string, number]>(
    `SELECT ${COLUMNS} FROM locations WHERE town_names IS NULL AND id > ? ORDER BY id LIMIT ?`,
  )
  const remove = db.prepare<unknown, [string, string]>('DELETE FROM locations WHERE locator_id = ? AND id = ?')
  const setGeocodedAt = db.prepare<unknown, [string | null, string, string]>(
    'UPDATE locations SET geocoded_at = ? WHERE locator_id = ? AND id = ?',
  )
  const withCustomField = db.prepare<{ id: string }, [string, string]>(
    "SELECT id FROM locations WHERE locator_id = ? AND json_type(custom_fields, '$.\"' || ? || '\"') IS NOT NULL",
  )
  const dropCustomField = db.prepare<unknown, [string, string, string, string]>(
    "UPDATE locations SET custom_fields = json_remove(custom_fields, '$.\"' || ? || '\"'), updated_at = ? WHERE locator_id = ? AND id IN (SELECT value FROM json_each(?))",
  )
  return {
    byId,
    page,
    pageOfBoth,
    count,
    all,
    byExternalId,
    externalIds,
    namesAndAddresses,
    indexRows,
    indexRowsAfter,
    ranked,
    rankedWithValue,
    withCustomFieldValue,
    publishedByIds,
    insert,
    update,
    unplaced,
    remove,
    setGeocodedAt,
    withCustomField,
    dropCustomField,
  }
}

/**
 * geocodedBy over `db`. Locations of every locator whose geocoding source is `sources`, geocoded before `before`:
 * those geocoded at an unknown time first (rows from before migration 2), then oldest first;
 * at most `limit` (1 or more), after `after` (the last of the previous page; a time with an id
 * of '': from that time on, leaving out those of unknown age). Fast only for sources with a
 * partial index of their own (migration 4: Google's points and its stopgaps); any other is read
 * by a scan of every row.
 */
function geocodedByReader(db: Database) {
  // Rows of some geocoding sources by the partial index made for them (migration 4: the WHERE
  // names the sources as the index does, so the statement is made per term): those of unknown age
  // (NULL), then by age.
  const sourcesTerm = (sources: GeocodeSources) =>
    'source' in sources
      ? `geocode_source = '${sources.source.replaceAll("'", "''")}'`
      : `geocode_source LIKE '${sources.sourceLike.replaceAll("'", "''")}'`
  const unknownAge = (term: string) =>
    db.query<Row, [string, number]>(
      `SELECT ${COLUMNS} FROM locations WHERE ${term} AND geocoded_at IS NULL AND id > ? ORDER BY id LIMIT ?`,
    )
  const aged = (term: string) =>
    db.query<Row, [string, string, string, number]>(
      `SELECT ${COLUMNS} FROM locations WHERE ${term} AND geocoded_at < ? AND (geocoded_at, id) > (?, ?) ORDER BY geocoded_at, id LIMIT ?`,
    )
  return (
    sources: GeocodeSources,
    before: string,
    limit: number,
    after: GeocodedCursor | null = null,
  ): LocationRecord[] => {
    if (!(limit >= 1)) throw new RangeError(`geocodedBy reads 1 row or more; asked for ${limit}`)
    const term = sourcesTerm(sources)
    let cursor = after
    const rows: Row[] = []
    if (cursor === null || cursor.geocodedAt === null) {
      rows.push(...unknownAge(term).all(cursor?.id ?? '', limit))
      cursor = { geocodedAt: '', id: '' }
    }
    if (rows.length < limit) rows.push(...aged(term).all(before, cursor.geocodedAt!, cursor.id, limit - rows.length))
    return rows.map(fromRow)
  }
}

export function locationRepo(db: Database, changes: ChangeLog) {
  const q = statements(db)
  const geocodedBy = geocodedByReader(db)
  return {
    get(locatorId: string, id: string): LocationRecord | null {
      const row = q.byId.get(locatorId, id)
      return row ? fromRow(row) : null
    },
    page(locatorId: string, status: LocationStatus | null, limit: number, offset: number): LocationRecord[] {
      return (status === null ? q.pageOfBoth : q.page).all(locatorId, status ?? '', limit, offset).map(fromRow)
    },
    count(locatorId: string, status: LocationStatus | null): number {
      return q.count.get({ locator_id: locatorId, status })!.n
    },
    all(locatorId: string): LocationRecord[] {
      return q.all.all(locatorId).map(fromRow)
    },
    /** The location of the locator with this external id, or null. */
    byExternalId(locatorId: string, externalId: string): LocationRecord | null {
      const row = q.byExternalId.get(locatorId, externalId)
      return row ? fromRow(row) : null
    },
    /** Every location of the locator that has an external id: its id and external id, oldest first. */
    externalIds(locatorId: string): { id: string; externalId: string; name: string }[] {
      return q.externalIds.all(locatorId).map((r) => ({ id: r.id, externalId: r.external_id, name: r.name }))
    },
    /** Every location of the locator: its id, name and address, oldest first. */
    namesAndAddresses(locatorId: string): { id: string; name: string; address: string }[] {
      return q.namesAndAddresses.all(locatorId)
    },
    /** Every published location, only the columns the search index needs; custom fields only when asked. */
    indexRows(locatorId: string, withCustomFields: boolean): IndexRow[] {
      return q.indexRows.all(withCustomFields ? 1 : 0, locatorId).map(indexRow)
    },
    /** indexRows() a page at a time: up to `limit` rows after the row at `afterSeq` in row order (IndexRow.seq; 0 for the first page). */
    indexRowsAfter(locatorId: string, withCustomFields: boolean, afterSeq: number, limit: number): IndexRow[] {
      return q.indexRowsAfter.all(withCustomFields ? 1 : 0, locatorId, afterSeq, limit).map(indexRow)
    },
    /** Ids of the published locations whose custom field `field` is `value` (a priority rule's test; fast for a field the locator's rules name). */
    idsWithCustomFieldValue(locatorId: string, field: string, value: string): string[] {
      const found = q.ranked.get(locatorId, field) !== null ? q.rankedWithValue : q.withCustomFieldValue
      return found.all(locatorId, field, value).map((r) => r.id)
    },
    /** The published locations among `ids`, in no particular order (ids not found or drafts: left out). */
    publishedByIds(locatorId: string, ids: string[]): LocationRecord[] {
      return q.publishedByIds.all(JSON.stringify(ids), locatorId).map(fromRow)
    },
    geocodedBy,
    /** Up to `limit` locations of any locator whose town is not looked up yet (townNames null), by id after `afterId`. */
    unplaced(afterId: string, limit: number): LocationRecord[] {
      return q.unplaced.all(afterId, limit).map(fromRow)
    },
    /** Call inside a write transaction. */
    insert(record: LocationRecord): void {
      q.insert.run(toParams(record))
      changes.append(record.locatorId, 'location', record.id, 'upsert')
    },
    /**
     * Call inside a write transaction, with `current` the row as read in it. Writes `next` over it,
     * unless nothing but its times differs: then the row keeps its updated_at and no change is
     * logged, so answers and ETags stay (a nightly sync that sends every record again moves
     * nothing); a new geocoded_at alone is still written (the refresh's clock; no response shows
     * it). Returns the row as it now is.
     */
    replace(next: LocationRecord, current: LocationRecord): LocationRecord {
      if (!sameContent(next, current)) {
        q.update.run(toParams(next))
        changes.append(next.locatorId, 'location', next.id, 'upsert')
        return next
      }
      if (next.geocodedAt === current.geocodedAt) return current
      q.setGeocodedAt.run(next.geocodedAt, current.locatorId, current.id)
      return { ...current, geocodedAt: next.geocodedAt }
    },
    /** Call inside a write transaction. True when a row was removed. */
    remove(locatorId: string, id: string): boolean {
      const removed = q.remove.run(locatorId, id).changes > 0
      if (removed) changes.append(locatorId, 'location', id, 'delete')
      return removed
    },
    /** Removes one custom field's values from every location of a locator; call inside a write transaction. */
    dropCustomField(locatorId: string, fieldId: string): number {
      const ids = q.withCustomField.all(locatorId, fieldId).map((r) => r.id)
      if (ids.length === 0) return 0
      q.dropCustomField.run(fieldId, new Date().toISOString(), locatorId, JSON.stringify(ids))
      for (const id of ids) changes.append(locatorId, 'location', id, 'upsert')
      return ids.length
    },
  }
}
export type LocationRepo = ReturnType<typeof locationRepo>
