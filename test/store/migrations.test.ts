import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { MIGRATIONS } from '../../src/store/migrations'
import { openStore } from '../../src/store'
import { codeHolders } from '../../src/locations/bulk-codes'
import { locationRecord, olderSchemaDatabase, tempDir } from '../helpers'

let dir: string
beforeAll(() => (dir = tempDir()))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The store of a database of schema `version` holding the rows `fill` puts in it, once opened (migrated). */
const migrated = (version: number, fill: (old: Database) => void, journal: 'wal' | 'delete' = 'wal') =>
  openStore(olderSchemaDatabase(join(dir, `v${version}.db`), version, fill, journal))

/** Puts the locator lct_old in a database of an earlier schema. */
function addOldLocator(old: Database): void {
  old.exec(
    "INSERT INTO locators (id, name, public_token, created_at, updated_at) VALUES ('lct_old', 'Old', 'pk_x', 'now', 'now')",
  )
}

test('a database made by an earlier version is migrated in place, its rows kept', () => {
  // In rollback-journal mode, as a backup is: the open switches it to WAL before migrating.
  const store = migrated(1, addOldLocator, 'delete')
  expect(store.db.query('PRAGMA user_version').get()).toEqual({ user_version: MIGRATIONS.length })
  expect(store.db.query('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
  expect(store.locators.get('lct_old')?.name).toBe('Old')
  expect(
    store.db.query("SELECT count(*) AS n FROM pragma_table_info('locations') WHERE name = 'geocoded_at'").get(),
  ).toEqual({ n: 1 })
  store.close()
})

test('the custom field values of the locations already there are found once migrated', () => {
  const store = migrated(2, (old) => {
    addOldLocator(old)
    const row = old.prepare(
      "INSERT INTO locations (id, locator_id, status, name, address, lat, lng, custom_fields, created_at, updated_at) VALUES (?, 'lct_old', ?, 'N', 'A', 1, 1, ?, 'now', 'now')",
    )
    row.run('loc_a', 'published', '{"tier":"gold","offer":"Spring sale"}')
    row.run('loc_b', 'draft', '{"tier":"gold"}')
    row.run('loc_c', 'published', '{"tier":"silver","offer":null}')
    row.run('loc_d', 'published', '{"tier":"gold"}')
    old.exec(
      `INSERT INTO priority_rules (locator_id, position, rule) VALUES ('lct_old', 0, '{"custom_field":"tier","value":"gold"}'), ('lct_old', 1, '{"tag":"x"}')`,
    )
  })
  expect(store.locations.idsWithCustomFieldValue('lct_old', 'tier', 'gold').sort()).toEqual(['loc_a', 'loc_d'])
  expect(store.locations.idsWithCustomFieldValue('lct_old', 'tier', 'silver')).toEqual(['loc_c'])
  expect(store.locations.idsWithCustomFieldValue('lct_old', 'offer', 'Spring sale')).toEqual(['loc_a'])
  // The field the rules name is kept (and read from the table), the other read from the rows.
  expect(
    store.db.query('SELECT location_id AS id, field FROM ranked_custom_values ORDER BY location_id').all(),
  ).toEqual([
    { id: 'loc_a', field: 'tier' },
    { id: 'loc_c', field: 'tier' },
    { id: 'loc_d', field: 'tier' },
  ])
  store.close()
})

test("the write limits count what a database already holds once migrated: locations, and the day's answers", () => {
  const store = migrated(11, (old) => {
    for (const id of ['lct_a', 'lct_b'])
      old.exec(
        `INSERT INTO locators (id, name, public_token, created_at, updated_at) VALUES ('${id}', 'N', 'pk_${id}', 'now', 'now')`,
      )
    const row = old.prepare(
      "INSERT INTO locations (id, locator_id, status, name, address, lat, lng, created_at, updated_at) VALUES (?, ?, 'draft', 'N', 'A', 1, 1, 'now', 'now')",
    )
    for (const id of ['l1', 'l2', 'l3']) row.run(id, 'lct_a')
    row.run('l4', 'lct_b')
    const answer = old.prepare(
      "INSERT INTO idempotency_keys (locator_id, key, fingerprint, status, body, created_at) VALUES ('lct_a', ?, 'f', 201, ?, ?)",
    )
    const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString()
    answer.run('now', '{"x":1}', ago(0))
    answer.run('multibyte', '{"n":"é"}', ago(5)) // 10 bytes, 9 characters
    answer.run('over', 'not kept: 5000', ago(1)) // kept as its size: takes none of the day's
    answer.run('yesterday', '{"old":true}', ago(30))
  })
  expect(['lct_a', 'lct_b', 'lct_c'].map((id) => store.locationCounts.of(id))).toEqual([3, 1, 0])
  expect(store.idempotency.dayBytes('lct_a')).toBe(17)
  expect(store.idempotency.dayBytes('lct_b')).toBe(0)
  store.close()
})

test('a database from a newer version is refused, not damaged', () => {
  const path = join(dir, 'new.db')
  const db = new Database(path)
  db.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`)
  db.close()
  expect(() => openStore(path)).toThrow(/newer than this program/)
})

test('a database with every migration opens while another process holds the write lock (nothing to write, so no wait)', () => {
  const path = join(dir, 'busy.db')
  openStore(path).close()
  const other = new Database(path)
  other.exec('BEGIN IMMEDIATE')
  try {
    // Before: busy_timeout's 5 s, then SQLITE_BUSY (a start failed while an import ran).
    const store = openStore(path)
    expect(store.locators.list()).toEqual([])
    store.close()
  } finally {
    other.exec('ROLLBACK')
    other.close()
  }
})

test('processes opening a new database file together all open it (SQLite may answer one busy at once, without waiting)', async () => {
  const script = `import { openStore } from ${JSON.stringify(join(import.meta.dir, '../../src/store'))}; const s = openStore(process.argv.at(-1)); s.db.exec('BEGIN IMMEDIATE'); Bun.sleepSync(100); s.db.exec('COMMIT'); s.close()`
  for (let round = 0; round < 8; round++) {
    const path = join(dir, `new-${round}.db`)
    const procs = Array.from({ length: 4 }, () =>
      Bun.spawn([process.execPath, '-e', script, path], { stdout: 'pipe', stderr: 'pipe' }),
    )
    const results = await Promise.all(
      procs.map(async (p) => ({
        code: await p.exited,
        stderr: (await new Response(p.stderr).text()).split('\n').find((l) => /error/i.test(l)) ?? '',
      })),
    )
    expect({ round, results }).toEqual({ round, results: procs.map(() => ({ code: 0, stderr: '' })) })
  }
}, 120_000) // 32 processes, 8 rounds of 4

test("the locations already there are found by their names' keys once migrated, and rows of no key always", () => {
  const store = migrated(12, (old) => {
    addOldLocator(old)
    const row = old.prepare(
      "INSERT INTO locations (id, locator_id, status, name, address, lat, lng, created_at, updated_at) VALUES (?, 'lct_old', 'published', ?, 'A', 1, 1, 'now', 'now')",
    )
    row.run('loc_a', 'Café #1')
    row.run('loc_b', 'Other')
  })
  const ids = (keys: string[]) => store.locations.ofNameKeys('lct_old', keys).map((r) => r.id)
  expect(ids(['cafe 1'])).toEqual(['loc_a'])
  expect(ids(['other', 'cafe 1'])).toEqual(['loc_a', 'loc_b'])
  expect(ids(['none'])).toEqual([])
  // A row written otherwise (a hand edit) has no key: every lookup reads it.
  store.db.exec(
    "INSERT INTO locations (id, locator_id, status, name, address, lat, lng, created_at, updated_at) VALUES ('loc_c', 'lct_old', 'draft', 'Hand', 'A', 1, 1, 'now', 'now')",
  )
  expect(ids(['none'])).toEqual(['loc_c'])
  // The service's own writes key a row by its name, and again when it is renamed.
  const added = locationRecord('lct_old', { name: 'Store 2', address: 'A', coordinates: { lat: 1, lng: 1 } })
  store.write(() => store.locations.insert(added))
  expect(ids(['store 2'])).toEqual(['loc_c', added.id])
  store.write(() => store.locations.replace({ ...added, name: 'Shop 2' }, added))
  expect(ids(['store 2'])).toEqual(['loc_c'])
  expect(ids(['shop 2'])).toEqual(['loc_c', added.id])
  store.close()
})

test('the store codes already there are found by their bare keys once migrated; twins kept apart, and read always', () => {
  // Persian "mikhane" with its zero-width non-joiner, and run together: two codes.
  const joined = '\u0645\u06cc\u200c\u062e\u0627\u0646\u0647'
  const together = '\u0645\u06cc\u062e\u0627\u0646\u0647'
  const store = migrated(14, (old) => {
    addOldLocator(old)
    const row = old.prepare(
      "INSERT INTO locations (id, locator_id, external_id, status, name, address, lat, lng, created_at, updated_at) VALUES (?, 'lct_old', ?, 'published', 'N', 'A', 1, 1, 'now', 'now')",
    )
    for (const [id, code] of <[string, string][]>[
      ['loc_a', 'S1'],
      ['loc_b', 'S1\u200b'],
      ['loc_c', 'S2\u200b'],
      ['loc_d', joined],
      ['loc_e', together],
    ])
      row.run(id, code)
  })
  const holders = codeHolders(store, 'lct_old')
  const held = (code: string) => {
    const h = holders(code)
    return [h.location?.id ?? null, h.bare, h.twins.map((t) => t.id)]
  }
  expect(held('S2')).toEqual(['loc_c', true, ['loc_c']])
  expect(held('S1\u200b')).toEqual(['loc_b', false, []])
  expect(held('S1\u2060')).toEqual([null, false, ['loc_a', 'loc_b']])
  expect(held(`${joined}\u200b`)).toEqual(['loc_d', true, ['loc_d']])
  expect(held(`\ufeff${together}`)).toEqual(['loc_e', true, ['loc_e']])
  // A code keyed once migrated is one no other row may hold but for invisible characters.
  const twin = locationRecord('lct_old', { name: 'T', address: 'A', coordinates: { lat: 1, lng: 1 } })
  expect(() => store.write(() => store.locations.insert({ ...twin, externalId: 'S2' }))).toThrow(/UNIQUE/)
  store.close()
})

test('store codes keyed by an earlier rule are keyed again: codes apart by a joiner that joins no letters are twins', () => {
  const store = migrated(16, (old) => {
    addOldLocator(old)
    const row = old.prepare(
      "INSERT INTO locations (id, locator_id, external_id, code_key, status, name, address, lat, lng, created_at, updated_at) VALUES (?, 'lct_old', ?, ?, 'published', 'N', 'A', 1, 1, 'now', 'now')",
    )
    // Keyed as a release that kept every zero-width non-joiner did.
    row.run('loc_a', 'S2', 'S2')
    row.run('loc_b', 'S2\u200c', 'S2\u200c')
    row.run('loc_c', 'S3\u200c', 'S3\u200c')
  })
  const held = (code: string) => {
    const h = codeHolders(store, 'lct_old')(code)
    return [h.location?.id ?? null, h.twins.map((t) => t.id)]
  }
  expect(held('S2\u200b')).toEqual([null, ['loc_a', 'loc_b']])
  expect(held('S3')).toEqual(['loc_c', ['loc_c']])
  const keys = store.db.query('SELECT id, code_key FROM locations ORDER BY seq').values()
  expect(keys).toEqual([
    ['loc_a', null],
    ['loc_b', null],
    ['loc_c', 'S3'],
  ])
  store.close()
})
