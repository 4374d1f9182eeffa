// The geocode refresh reads Google's points and its stopgaps page by page, from partial
// indexes (migration 4). Pages laid end to end must give what a scan of every row gives, and the
// reads must use those indexes (a scan of 1M rows took ~0.9 s, on the serving process).
import { Database } from 'bun:sqlite'
import { expect, spyOn, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { openStore } from '../../src/store'
import { fallbackSourcePattern } from '../../src/geocode/http'
import type { GeocodedCursor, GeocodeSources } from '../../src/store/locations'
import { locationRecord, tempDir, withTempStore } from '../helpers'

const env = withTempStore()

const SOURCES = [
  'google',
  'embedded',
  'embedded (fallback: google timed out after 3000 ms)',
  'table (fallback: google failed (HTTP 503))',
  'embedded (fallback: nominatim failed (HTTP 503))',
  null,
]
const AGES = [
  '2026-10-01T00:00:00.000Z',
  '2026-10-20T12:00:00.000Z',
  '2026-10-25T00:00:00.000Z',
  '2026-11-01T00:00:00.000Z',
]
const TIMES = [null, ...AGES]

type Row = { id: string; source: string | null; geocodedAt: string | null }

/** The answer as the rows say it: every row read, filtered and sorted here (unknown age first, by id, then by age and id). */
function scanned(sourceIs: (source: string) => boolean, before: string, after: GeocodedCursor | null): string[] {
  const rows = env.store.db
    .query<{ id: string; s: string | null; at: string | null }, []>(
      'SELECT id, geocode_source AS s, geocoded_at AS at FROM locations',
    )
    .all()
  const key = (r: { at: string | null; id: string }) => [r.at === null ? 0 : 1, r.at ?? '', r.id] as const
  const cmp = (a: readonly [number, string, string], b: readonly [number, string, string]) =>
    a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0)
  const from = after === null ? null : key({ at: after.geocodedAt, id: after.id })
  return rows
    .filter(
      (r) =>
        r.s !== null && sourceIs(r.s) && (r.at === null || r.at < before) && (from === null || cmp(key(r), from) > 0),
    )
    .sort((a, b) => cmp(key(a), key(b)))
    .map((r) => r.id)
}

/** Every page of `geocodedBy` from the start, laid end to end (at most one page more than there are rows). */
function paged(sources: GeocodeSources, before: string, limit: number, most: number): string[] {
  const ids: string[] = []
  for (let after: GeocodedCursor | null = null, pages = 0; pages <= most; pages++) {
    const page = env.store.locations.geocodedBy(sources, before, limit, after)
    expect(page.length).toBeLessThanOrEqual(limit)
    ids.push(...page.map((r) => r.id))
    if (page.length < limit) break
    after = page[page.length - 1]!
  }
  return ids
}

const GOOGLE = { source: 'google' }
const GOOGLE_STOPGAPS = { sourceLike: fallbackSourcePattern('google') }
const isGoogle = (source: string) => source === 'google'
const isGoogleStopgap = (source: string) => source.includes(' (fallback: google ')

function insertRows(rows: Row[]): void {
  const locatorId = env.store.write(() => env.store.locators.insert('Geocoded')).id
  env.store.write(() => {
    for (const row of rows) {
      const record = locationRecord(locatorId, { name: 'X', address: 'A', coordinates: { lat: 1, lng: 2 } })
      env.store.locations.insert({
        ...record,
        id: row.id,
        geocoding: row.source === null ? null : { precision: 'city', source: row.source },
        geocodedAt: row.geocodedAt,
      })
    }
  })
}

const rows = fc.uniqueArray(
  fc.record({
    id: fc.stringMatching(/^loc_[0-9a-z]{3}$/),
    source: fc.constantFrom(...SOURCES),
    geocodedAt: fc.constantFrom(...TIMES),
  }),
  { selector: (r) => r.id, maxLength: 40 },
)

test("a provider's points page by page, from any cursor, are those a scan finds, unknown age first, then oldest", () => {
  fc.assert(
    fc.property(
      rows,
      fc.integer({ min: 1, max: 7 }),
      fc.constantFrom(...AGES),
      fc.constantFrom(...TIMES),
      (all, limit, before, start) => {
        env.store.db.run('DELETE FROM locations')
        insertRows(all)
        // From the start, page after page: every point once, in order; Google's points and its stopgaps.
        expect(paged(GOOGLE, before, limit, all.length)).toEqual(scanned(isGoogle, before, null))
        expect(paged(GOOGLE_STOPGAPS, before, limit, all.length)).toEqual(scanned(isGoogleStopgap, before, null))
        // From a time with an id of '': from that time on, those of unknown age left out.
        if (start !== null) {
          const after = { geocodedAt: start, id: '' }
          expect(env.store.locations.geocodedBy(GOOGLE, before, 100, after).map((r) => r.id)).toEqual(
            scanned(isGoogle, before, after),
          )
        }
      },
    ),
    { numRuns: 150 },
  )
})

test('the refresh reads by the partial indexes, never by a scan of every row', () => {
  // Every statement a store makes, to ask SQLite how it would run the refresh's.
  const spies = [spyOn(Database.prototype, 'prepare'), spyOn(Database.prototype, 'query')]
  const dir = tempDir()
  const store = openStore(join(dir, 'store.db'))
  try {
    store.locations.geocodedBy(GOOGLE, '2026-11-01T00:00:00.000Z', 10)
    store.locations.geocodedBy(GOOGLE_STOPGAPS, '2026-11-01T00:00:00.000Z', 10)
    const made = spies.flatMap((s) => s.mock.calls.map((c) => String(c[0])))
    const reads = [
      ...new Set(made.filter((sql) => /^SELECT .* FROM locations WHERE .*geocode(d_at|_source)/.test(sql))),
    ]
    expect(reads.length).toBe(4) // unknown age and by age, of Google's points and of its stopgaps
    for (const sql of reads) {
      const plan = store.db
        .query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${sql.replaceAll('?', 'NULL')}`)
        .all()
        .map((r) => r.detail)
      expect(plan).toHaveLength(1)
      expect(plan[0]).toMatch(
        /^SEARCH locations USING (COVERING )?INDEX locations_(geocoded_by_google|google_stopgaps) \(/,
      )
    }
  } finally {
    spies.forEach((s) => s.mockRestore())
    store.close()
    rmSync(dir, { recursive: true, force: true })
  }
})
