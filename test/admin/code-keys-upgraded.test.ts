// Store codes of a database upgraded from a release before code keys (migration 15): twins stay
// unkeyed; a code left alone gets its key on the next write of its location, by either route,
// so the unique index guards it from then on.
import { afterEach, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createKey } from '../../src/operator'
import { type Store, openStore } from '../../src/store'
import { MIGRATIONS } from '../../src/store/migrations'
import { createApp } from '../../src/server/app'
import { locationRecord, tableGeocoder, tempDir } from '../helpers'

const opened: { store: Store; dir: string }[] = []
afterEach(() => {
  for (const { store, dir } of opened.splice(0)) {
    store.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

/** A database of schema 14 holding locations of these ids and codes, upgraded by this release's start. */
function upgraded(codes: [id: string, code: string][]) {
  const dir = tempDir()
  const path = join(dir, 'v14.db')
  const old = new Database(path)
  for (const migration of MIGRATIONS.slice(0, 14)) old.exec(migration)
  old.exec('PRAGMA user_version = 14')
  old.exec(
    "INSERT INTO locators (id, name, public_token, created_at, updated_at) VALUES ('lct_old', 'Old', 'pk_x', 'now', 'now')",
  )
  const row = old.prepare(
    "INSERT INTO locations (id, locator_id, external_id, status, name, address, lat, lng, created_at, updated_at) VALUES (?, 'lct_old', ?, 'published', 'N', 'A', 1, 1, 'now', 'now')",
  )
  for (const [id, code] of codes) row.run(id, code)
  old.close()
  const store = openStore(path)
  opened.push({ store, dir })
  const { secret } = createKey(store, 'lct_old', null)
  const app = createApp({
    store,
    geocoder: tableGeocoder({}),
    config: { maxBodyBytes: 256 * 1024, logRequests: false },
    log: () => {},
  })
  const call = async (path: string, body?: unknown) => {
    const res = await app.handle(
      new Request(`http://localhost/admin/v1/locations${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    )
    return res.status
  }
  const keys = () => store.db.query('SELECT id, external_id, code_key FROM locations ORDER BY seq').values()
  /** A twin of `code` written as another process writes it: refused by the unique index once the code is keyed. */
  const twinWritten = (code: string) => {
    const twin = locationRecord('lct_old', { name: 'T', address: 'A', coordinates: { lat: 1, lng: 1 } })
    return () => store.write(() => store.locations.insert({ ...twin, externalId: code }))
  }
  return { call, keys, twinWritten }
}

/** Twins as the release before code keys left them: "S1" and "S1" with a zero-width space. */
const TWINS: [string, string][] = [
  ['loc_a', 'S1'],
  ['loc_b', 'S1\u200b'],
]

test('twins stay unkeyed when one is written, each: the index would refuse the second', async () => {
  const db = upgraded(TWINS)
  expect(await db.call('/loc_a', { name: 'First' })).toBe(200)
  expect(db.keys()).toEqual([
    ['loc_a', 'S1', null],
    ['loc_b', 'S1\u200b', null],
  ])
})

test('the twin left once the other is deleted gets its key when the update route writes it', async () => {
  const db = upgraded(TWINS)
  expect(await db.call('/loc_b/delete')).toBe(200)
  expect(db.keys()).toEqual([['loc_a', 'S1', null]])
  // Its own clean code sent again, with a field that changes.
  expect(await db.call('/loc_a', { external_id: 'S1', name: 'First' })).toBe(200)
  expect(db.keys()).toEqual([['loc_a', 'S1', 'S1']])
  expect(db.twinWritten('S1\u2060')).toThrow(/UNIQUE/)
})

test('the twin left once the other is deleted gets its key when the bulk route writes it', async () => {
  const db = upgraded(TWINS)
  expect(await db.call('/bulk', { locations: [{ id: 'loc_a', delete: true }] })).toBe(200)
  expect(await db.call('/bulk', { locations: [{ external_id: 'S1\u200b', name: 'Second' }] })).toBe(200)
  expect(db.keys()).toEqual([['loc_b', 'S1\u200b', 'S1']])
  expect(db.twinWritten('S1')).toThrow(/UNIQUE/)
})

test('a twin renamed to its clean code once the other is gone is keyed, by either route', async () => {
  const single = upgraded(TWINS)
  expect(await single.call('/loc_a/delete')).toBe(200)
  expect(await single.call('/loc_b', { external_id: 'S1' })).toBe(200)
  expect(single.keys()).toEqual([['loc_b', 'S1', 'S1']])
  const bulk = upgraded(TWINS)
  const swap = [
    { id: 'loc_b', external_id: 'S1' },
    { id: 'loc_a', external_id: 'S9' },
  ]
  expect(await bulk.call('/bulk', { locations: swap })).toBe(200)
  expect(bulk.keys()).toEqual([
    ['loc_a', 'S9', 'S9'],
    ['loc_b', 'S1', 'S1'],
  ])
  expect(bulk.twinWritten('S1\u200b')).toThrow(/UNIQUE/)
})

test('the twin left is keyed by a write that changes nothing, by either route: a nightly sync sends the same', async () => {
  const single = upgraded(TWINS)
  expect(await single.call('/loc_b/delete')).toBe(200)
  expect(await single.call('/loc_a', { external_id: 'S1', name: 'N' })).toBe(200)
  expect(single.keys()).toEqual([['loc_a', 'S1', 'S1']])
  const bulk = upgraded(TWINS)
  expect(await bulk.call('/loc_a/delete')).toBe(200)
  expect(await bulk.call('/bulk', { locations: [{ external_id: 'S1\u200b', name: 'N' }] })).toBe(200)
  expect(bulk.keys()).toEqual([['loc_b', 'S1\u200b', 'S1']])
  expect(bulk.twinWritten('S1')).toThrow(/UNIQUE/)
})
