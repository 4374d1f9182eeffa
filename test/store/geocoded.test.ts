// The geocode refresh reads a provider's points page by page, and the stopgaps, from partial
// indexes (migration 4). Pages laid end to end must give what a scan of every row gives, and the
// reads must use those indexes (a scan of 1M rows took ~0.9 s, on the serving process).
import { Database } from 'bun:sqlite'
import { expect, spyOn, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { openStore } from '../../src/store'
import type { GeocodedCursor } from '../../src/store/locations'
import { locationRecord, tempDir, withTempStore } from '../helpers'

const env = withTempStore()

const SOURCES = ['google', 'embedded', 'embedded (fallback: google timed out after 3000 ms)', 'table (fallback: google failed (HTTP 503))', 'embedded (fallback: nominatim failed (HTTP 503))', null]
const AGES = ['2026-10-01T00:00:00.000Z', '2026-10-20T12:00:00.000Z', '2026-10-25T00:00:00.000Z', '2026-11-01T00:00:00.000Z']
const TIMES = [null, ...AGES]

type Row = { id: string; source: string | null; geocodedAt: string | null }

/** The answer as the rows say it: every row read, filtered and sorted here (unknown age first, then by age and id). */
function scanned(source: string, before: string, after: GeocodedCursor | null): string[] {
  const rows = env.store.db.query<{ id: string; s: string | null; at: string | null }, []>('SELECT id, geocode_source AS s, geocoded_at AS at FROM locations').all()
  const key = (r: { at: string | null; id: string }) => [r.at === null ? 0 : 1, r.at ?? '', r.id] as const
  const cmp = (a: readonly [number, string, string], b: readonly [number, string, string]) => (a[0] - b[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0)
  const from = after === null ? null : key({ at: after.geocodedAt, id: after.id })
  return rows
    .filter((r) => r.s === source && (r.at === null || r.at < before) && (from === null || cmp(key(r), from) > 0))
    .sort((a, b) => cmp(key(a), key(b)))
    .map((r) => r.id)
}

function insertRows(rows: Row[]): void {
  const locatorId = env.store.write(() => env.store.locators.insert('Geocoded')).id
  env.store.write(() => {
    for (const row of rows) {
      const record = locationRecord(locatorId, { name: 'X', address: 'A', coordinates: { lat: 1, lng: 2 } })
      env.store.locations.insert({ ...record, id: row.id, geocoding: row.source === null ? null : { precision: 'city', source: row.source }, geocodedAt: row.geocodedAt })
    }
  })
}

const rows = fc.uniqueArray(
  fc.record({ id: fc.stringMatching(/^loc_[0-9a-z]{3}$/), source: fc.constantFrom(...SOURCES), geocodedAt: fc.constantFrom(...TIMES) }),
  { selector: (r) => r.id, maxLength: 40 },
)

test("a provider's points page by page, from any cursor, are those a scan finds, unknown age first, then oldest", () => {
  fc.assert(
    fc.property(rows, fc.integer({ min: 1, max: 7 }), fc.constantFrom(...AGES), fc.constantFrom(...TIMES), (all, limit, before, start) => {
      env.store.db.run('DELETE FROM locations')
      insertRows(all)
      // From the start, page after page: every point once, in order.
      const paged: string[] = []
      for (let after: GeocodedCursor | null = null, pages = 0; pages <= all.length; pages++) {
        const page = env.store.locations.geocodedBy('google', before, limit, after)
        expect(page.length).toBeLessThanOrEqual(limit)
        paged.push(...page.map((r) => r.id))
        if (page.length < limit) break
        after = page[page.length - 1]!
      }
      expect(paged).toEqual(scanned('google', before, null))
      // From a time with an id of '': from that time on, those of unknown age left out.
      if (start !== null) {
        const after = { geocodedAt: start, id: '' }
        expect(env.store.locations.geocodedBy('google', before, 100, after).map((r) => r.id)).toEqual(scanned('google', before, after))
      }
      // The stopgaps of one provider: those a fallback gave while it failed, oldest first.
      const stopgaps = env.store.locations.geocodedByFallback('%(fallback: google %', before, 100).map((r) => r.id)
      const expected = all
        .filter((r) => r.source !== null && r.source.includes('(fallback: google ') && (r.geocodedAt === null || r.geocodedAt < before))
        .sort((a, b) => ((a.geocodedAt ?? '') < (b.geocodedAt ?? '') ? -1 : (a.geocodedAt ?? '') > (b.geocodedAt ?? '') ? 1 : a.id < b.id ? -1 : 1))
        .map((r) => r.id)
      expect(stopgaps).toEqual(expected)
    }),
    { numRuns: 150 },
  )
})

test('the refresh reads by the partial indexes, never by a scan of every row', () => {
  // Every statement a store makes, to ask SQLite how it would run the refresh's.
  const spies = [spyOn(Database.prototype, 'prepare'), spyOn(Database.prototype, 'query')]
  const dir = tempDir()
  const store = openStore(join(dir, 'store.db'))
  try {
    store.locations.geocodedBy('google', '2026-11-01T00:00:00.000Z', 10)
    store.locations.geocodedByFallback('%(fallback: google %', '2026-11-01T00:00:00.000Z', 10)
    const made = spies.flatMap((s) => s.mock.calls.map((c) => String(c[0])))
    const reads = [...new Set(made.filter((sql) => /^SELECT .* FROM locations WHERE .*geocode(d_at|_source)/.test(sql)))]
    expect(reads.length).toBe(3) // unknown age, by age, and the stopgaps
    for (const sql of reads) {
      const plan = store.db.query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${sql.replaceAll('?', 'NULL')}`).all().map((r) => r.detail)
      expect(plan).toHaveLength(1)
      expect(plan[0]).toMatch(/^(SEARCH|SCAN) locations USING INDEX locations_geocoded_by_(google|fallback)\b/)
    }
  } finally {
    spies.forEach((s) => s.mockRestore())
    store.close()
    rmSync(dir, { recursive: true, force: true })
  }
})
