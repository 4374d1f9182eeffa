import type { Database, Statement } from 'bun:sqlite'
import { bareCode } from '../core/text'
import type { ChangeLog } from './changes'
import { COLUMNS, codeKey, fromRow, type Params, type Row, toParams } from './location-columns'
import { sameContent, samePoint } from './location-compare'
import { type IndexRow, type IndexRowRaw, indexRow, seqsOf } from './location-slicers'

export type LocationStatus = 'published' | 'draft'
export type Contact = { phone?: string; email?: string; website?: string }
export type Social = { instagram?: string; facebook?: string; twitter?: string }
export const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
export type Day = (typeof DAYS)[number]
export type Hours = Partial<Record<Day, string>>
export type AddressParts = { street?: string; city?: string; region?: string; postcode?: string; country?: string }
export type Geocoding = { precision: string; source: string }
/**
 * A geocoded point a file sent back beside a store's new address, not taken: that address was
 * geocoded to `by` instead (migration 18). Only a store still at `by` holds it (replacedPointOf).
 */
export type ReplacedPoint = { lat: number; lng: number; by: { lat: number; lng: number } }

/** The `geocoding.source` of a location whose coordinates were sent: its parts come from the reverse lookup. */
export const REVERSE_SOURCE = 'reverse'

/** The precisions that place a point at the store itself; the others at its postcode, town or coarser. */
const EXACT_PRECISIONS = new Set(['rooftop', 'street'])

/**
 * Whether a geocoder placed the point only near the store (at its postcode's, town's, region's
 * or country's point): its address text then finds the store better than the point. Coordinates
 * sent (no geocoding, or the reverse lookup's) are never approximate.
 */
export const approximatePoint = (g: Geocoding | null): boolean =>
  g !== null && g.source !== REVERSE_SOURCE && !EXACT_PRECISIONS.has(g.precision)

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
  /** The point its new address replaced, as a file may still send it; null: none. No answer shows it. */
  replacedPoint: ReplacedPoint | null
}

export type LocationRecord = LocationFields & { id: string; locatorId: string; createdAt: string; updatedAt: string }

/** The point `r` replaced when it still is at the point that replaced it (ReplacedPoint.by), else null. */
export function replacedPointOf(r: LocationFields): { lat: number; lng: number } | null {
  const p = r.replacedPoint
  return p !== null && samePoint(p.by, r) ? { lat: p.lat, lng: p.lng } : null
}

/** Which rows `geocodedBy` reads: those whose geocoding source is `source`, or is LIKE `sourceLike`. */
export type GeocodeSources = { source: string } | { sourceLike: string }

/** Where a page of `geocodedBy` ends: its last location's geocodedAt and id. */
export type GeocodedCursor = { geocodedAt: string | null; id: string }

/** The statements on store codes: a code's holders, its key, a code let go of. */
function codeStatements(db: Database) {
  const byExternalId = db.prepare<Row, [string, string]>(
    `SELECT ${COLUMNS} FROM locations WHERE locator_id = ? AND external_id = ?`,
  )
  const holderOf = db.prepare<{ id: string }, [string, string]>(
    'SELECT id FROM locations WHERE locator_id = ? AND external_id = ?',
  )
  const externalIds = db.prepare<{ id: string; external_id: string; name: string }, [string]>(
    'SELECT id, external_id, name FROM locations WHERE locator_id = ? AND external_id IS NOT NULL ORDER BY seq',
  )
  // By the code index (migration 16): the rows of the key, and those of none that have a code
  // (written otherwise, or twins stored already), which the partial index lists.
  const ofCodeKey = db.prepare<{ id: string; external_id: string; name: string }, [string, string]>(
    'SELECT seq, id, external_id, name FROM locations WHERE locator_id = ?1 AND code_key = ?2 UNION ALL SELECT seq, id, external_id, name FROM locations WHERE locator_id = ?1 AND code_key IS NULL AND external_id IS NOT NULL ORDER BY seq',
  )
  const codeKeyOf = db.prepare<{ code_key: string | null }, [string, string]>(
    'SELECT code_key FROM locations WHERE locator_id = ? AND id = ?',
  )
  const setCodeKey = db.prepare<unknown, [string | null, string, string]>(
    'UPDATE locations SET code_key = ?1 WHERE locator_id = ?2 AND id = ?3 AND code_key IS NOT ?1',
  )
  const releaseExternalId = db.prepare<unknown, [string, string]>(
    'UPDATE locations SET external_id = NULL, code_key = NULL WHERE locator_id = ? AND id = ?',
  )
  return { byExternalId, holderOf, externalIds, ofCodeKey, codeKeyOf, setCodeKey, releaseExternalId }
}

/**
 * Gives a row just written (`r`, changed or not) the key of its code when it has none: a new code
 * of the same key (the trigger of migration 17 took it off), or a code stored unkeyed (before
 * migration 15, by a writer that keeps no key) once no other row holds it but for invisible
 * characters. Twins stored already stay unkeyed, each: the unique index would refuse the second.
 */
function keyCode(q: ReturnType<typeof codeStatements>, r: LocationRecord): void {
  const key = codeKey(r.externalId)
  if (key === null || q.codeKeyOf.get(r.locatorId, r.id)?.code_key === key) return
  const twins = q.ofCodeKey.all(r.locatorId, key).filter((t) => t.id !== r.id && bareCode(t.external_id) === key)
  if (twins.length === 0) q.setCodeKey.run(key, r.locatorId, r.id)
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
  // By the name index (migration 13): the rows of those keys, and those of none (written otherwise).
  const ofNameKeys = db.prepare<
    { id: string; name: string; address: string; lat: number; lng: number },
    [string, string]
  >(
    'SELECT seq, id, name, address, lat, lng FROM locations WHERE locator_id = ?1 AND name_key IN (SELECT value FROM json_each(?2)) UNION ALL SELECT seq, id, name, address, lat, lng FROM locations WHERE locator_id = ?1 AND name_key IS NULL ORDER BY seq',
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
    `INSERT INTO locations (${COLUMNS}) VALUES ($id, $locator_id, $external_id, $status, $name, $address, $lat, $lng, $description, $tags, $contact, $social, $hours, $special_hours, $timezone, $custom_fields, $image_url, $geocode_precision, $geocode_source, $address_parts, $town_names, $name_key, $code_key, $created_at, $updated_at, $geocoded_at, $replaced_point)`,
  )
  // code_key only with a new code: a twin stored already (unkeyed, migration 15) keeps its code and no key.
  const update = db.prepare<unknown, Params>(
    `UPDATE locations SET external_id = $external_id, status = $status, name = $name, address = $address, lat = $lat, lng = $lng, description = $description, tags = $tags, contact = $contact, social = $social, hours = $hours, special_hours = $special_hours, timezone = $timezone, custom_fields = $custom_fields, image_url = $image_url, geocode_precision = $geocode_precision, geocode_source = $geocode_source, address_parts = $address_parts, town_names = $town_names, name_key = $name_key, code_key = CASE WHEN external_id IS $external_id THEN code_key ELSE $code_key END, created_at = $created_at, updated_at = $updated_at, geocoded_at = $geocoded_at, replaced_point = $replaced_point WHERE locator_id = $locator_id AND id = $id`,
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
    // updated_at: now, or one ms past the row's while the clock has not passed it (core/stamp-after.ts).
    "UPDATE locations SET custom_fields = json_remove(custom_fields, '$.\"' || ? || '\"'), updated_at = max(?, coalesce(strftime('%Y-%m-%dT%H:%M:%fZ', updated_at, '+0.001 seconds'), '')) WHERE locator_id = ? AND id IN (SELECT value FROM json_each(?))",
  )
  return {
    ...codeStatements(db),
    byId,
    page,
    pageOfBoth,
    count,
    all,
    ofNameKeys,
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

/** The most UPDATE statements of some columns kept; past it, a new set of columns writes them all. */
const PARTIAL_UPDATES_KEPT = 64

/**
 * An update of a row's changed columns only (`current` as stored, `next` to write): an UPDATE of
 * every column rewrites every index of the table and runs the custom fields' trigger, about four
 * times the work of one that sets a field or two (PERF-066). The statements are made once each.
 */
function partialUpdates(db: Database, full: Statement<unknown, [Params]>) {
  const made = new Map<string, Statement<unknown, [Record<string, string | number | null>]>>()
  return (next: Params, current: Params): void => {
    const columns: string[] = []
    const params: Record<string, string | number | null> = { locator_id: next.locator_id, id: next.id }
    for (const column in next) {
      const value = next[column as keyof Params]
      if (value === current[column as keyof Params]) continue
      columns.push(column)
      params[column] = value
    }
    if (columns.length === 0) return
    const key = columns.join(', ')
    let update = made.get(key)
    if (update === undefined && made.size >= PARTIAL_UPDATES_KEPT) return void full.run(next)
    if (update === undefined) {
      const set = columns.map((c) => `${c} = $${c}`).join(', ')
      update = db.prepare(`UPDATE locations SET ${set} WHERE locator_id = $locator_id AND id = $id`)
      made.set(key, update)
    }
    update.run(params)
  }
}

export function locationRepo(db: Database, changes: ChangeLog) {
  const q = statements(db)
  const geocodedBy = geocodedByReader(db)
  const update = partialUpdates(db, q.update)
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
    /** The id of the location of the locator with this external id, or null: byExternalId() without reading the row. */
    holderOf(locatorId: string, externalId: string): string | null {
      return q.holderOf.get(locatorId, externalId)?.id ?? null
    },
    /**
     * The locations of the locator whose name nameKey folds to one of `keys` (core/text.ts), and
     * any whose key is unknown (a row written otherwise): its id, name, address and point, oldest first.
     */
    ofNameKeys(
      locatorId: string,
      keys: readonly string[],
    ): { id: string; name: string; address: string; lat: number; lng: number }[] {
      return q.ofNameKeys.all(locatorId, JSON.stringify(keys))
    },
    /** Every location of the locator that has an external id: its id and external id, oldest first. */
    externalIds(locatorId: string): { id: string; externalId: string; name: string }[] {
      return q.externalIds.all(locatorId).map((r) => ({ id: r.id, externalId: r.external_id, name: r.name }))
    },
    /**
     * The locations of the locator whose store code bareCode makes `key` (core/text.ts), and any
     * with a code of unknown key (a row written otherwise, twins stored already): id, code and
     * name, oldest first. The caller compares the latter's codes.
     */
    ofCodeKey(locatorId: string, key: string): { id: string; externalId: string; name: string }[] {
      return q.ofCodeKey.all(locatorId, key).map((r) => ({ id: r.id, externalId: r.external_id, name: r.name }))
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
        const [x, y] = [toParams(next), toParams(current)]
        update(x, y)
        keyCode(q, next)
        changes.append(next.locatorId, 'location', next.id, 'upsert')
        return next
      }
      // A sync that sends a location as it is keys its code too; the key is no content, no change logged.
      keyCode(q, current)
      if (next.geocodedAt === current.geocodedAt) return current
      q.setGeocodedAt.run(next.geocodedAt, current.locatorId, current.id)
      return { ...current, geocodedAt: next.geocodedAt }
    },
    /**
     * Call inside a write transaction, before the same transaction writes the location's own new
     * code (replace()): clears its external id so another location may take it. Logs no change:
     * that write does.
     */
    releaseExternalId(locatorId: string, id: string): void {
      q.releaseExternalId.run(locatorId, id)
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
