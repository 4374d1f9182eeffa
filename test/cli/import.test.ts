// storeloc locations import / export, run as a real subprocess against a real database file, and
// read back through the Management API as a server on the same file would.
import { beforeEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { openStore } from '../../src/store'
import { quietApp } from '../helpers'
import { dbPath, dir, file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string
let key: string

useTempDatabase()
beforeEach(() => {
  const made = json('locator', 'create', '--name', 'Importer')
  locatorId = made.locator.id
  key = made.key.secret_key
  json('custom-field', 'add', locatorId, '--id', 'floor', '--name', 'Floor', '--type', 'number')
})

/** Every location of the locator, as the Management API lists them (a server on the same file). */
async function listed(): Promise<any[]> {
  const store = openStore(dbPath)
  try {
    const app = quietApp(store)
    const res = await app.handle(
      new Request('http://localhost/admin/v1/locations?limit=500', { headers: { authorization: `Bearer ${key}` } }),
    )
    expect(res.status).toBe(200)
    return ((await res.json()) as any).locations
  } finally {
    store.close()
  }
}

/** Rows of the tables an import writes, to prove a refused one wrote nothing. */
function rows() {
  const store = openStore(dbPath)
  try {
    return {
      locations: store.db.query('SELECT * FROM locations ORDER BY seq').all(),
      changes: store.db.query('SELECT * FROM changes ORDER BY seq').all(),
    }
  } finally {
    store.close()
  }
}

const STORES = [
  {
    name: 'Harbour Store',
    address: '1 Quay Street, Springfield',
    coordinates: { lat: 39.78, lng: -89.65 },
    tags: ['Repair'],
    custom_fields: { floor: '2' },
  },
  { name: 'Duomo Store', address: 'Piazza del Duomo, 20122 Milano, Italia', status: 'draft' },
  {
    name: 'Ring Store',
    address: 'Stephansplatz 1, 1010 Wien',
    coordinates: { lat: 48.2085, lng: 16.3731 },
    contact: { phone: '+43 1 234' },
  },
]

describe('locations import', () => {
  test('creates every location (an address without coordinates geocoded, as the API does); the API lists them as the import made them', async () => {
    const out = json('locations', 'import', locatorId, '--file', file('stores.json', STORES))
    expect(out).toMatchObject({ success: true, dry_run: false, created: 3, updated: 0, unchanged: 0, deleted: 0 })
    const created = out.results.map((r: { id: string }) => r.id)
    expect(out.results.map((r: { action: string }) => r.action)).toEqual(['created', 'created', 'created'])
    expect(out.results[1].geocoding).toEqual({ precision: 'city', source: 'embedded' })
    expect(out.results[0].geocoding).toBeNull()
    const byName = new Map((await listed()).map((l) => [l.name, l]))
    expect(byName.get('Harbour Store')).toMatchObject({
      id: created[0],
      coordinates: { lat: 39.78, lng: -89.65 },
      tags: ['Repair'],
      custom_fields: { floor: '2' },
      status: 'published',
      geocoding: { precision: 'city', source: 'reverse' }, // its coordinates' town
    })
    const duomo = byName.get('Duomo Store')
    expect(duomo).toMatchObject({
      id: created[1],
      status: 'draft',
      geocoding: { source: 'embedded', precision: 'city' },
    })
    expect(Math.abs(duomo.coordinates.lat - 45.4642) + Math.abs(duomo.coordinates.lng - 9.19)).toBeLessThan(0.05)
    expect(byName.get('Ring Store')).toMatchObject({
      id: created[2],
      contact: { phone: '+43 1 234', email: '', website: '' },
    })
    const human = storeloc(
      'locations',
      'import',
      locatorId,
      '--file',
      file('more.json', [{ external_id: 'S4', name: 'Fourth', address: 'x', coordinates: { lat: 1, lng: 2 } }]),
    )
    expect(human).toMatchObject({ code: 0, stderr: '' })
    expect(human.stdout).toBe(
      `Imported ${join(dir, 'more.json')} into ${locatorId}: 1 created, 0 updated, 0 unchanged, 0 deleted.\n`,
    )
  }, 60_000)

  test('an export saved by Windows PowerShell (UTF-16 with its byte order mark) imports back unchanged', () => {
    json('locations', 'import', locatorId, '--file', file('stores.json', STORES))
    const exported = storeloc('locations', 'export', locatorId).stdout
    // `storeloc locations export ... > stores.json` in Windows PowerShell 5 writes UTF-16 LE.
    const le = Buffer.from(`\ufeff${exported}`, 'utf16le')
    const be = Buffer.from(le).swap16()
    for (const [name, bytes] of [
      ['le.json', le],
      ['be.json', be],
    ] as const)
      expect([name, json('locations', 'import', locatorId, '--file', file(name, bytes), '--dry-run')]).toMatchObject([
        name,
        { created: 0, updated: 0, unchanged: 3, deleted: 0 },
      ])
  }, 60_000)

  test('an export in UTF-16 without a byte order mark imports back unchanged too', () => {
    json('locations', 'import', locatorId, '--file', file('stores.json', STORES))
    const exported = storeloc('locations', 'export', locatorId).stdout
    const le = Buffer.from(exported, 'utf16le')
    for (const [name, bytes] of [
      ['le.json', le],
      ['be.json', Buffer.from(le).swap16()],
    ] as const)
      expect([name, json('locations', 'import', locatorId, '--file', file(name, bytes), '--dry-run')]).toMatchObject([
        name,
        { created: 0, updated: 0, unchanged: 3, deleted: 0 },
      ])
  }, 60_000)

  test('export, then import of the export as it is: nothing changes (no updated_at, no change); an edited one is updated, only in what was edited', async () => {
    json('locations', 'import', locatorId, '--file', file('stores.json', STORES))
    const exported = storeloc('locations', 'export', locatorId)
    expect(exported.code).toBe(0)
    const before = await listed()
    expect(JSON.parse(exported.stdout)).toEqual(before)
    const changesBefore = rows().changes.length
    const same = json('locations', 'import', locatorId, '--file', file('export.json', exported.stdout))
    expect(same).toMatchObject({ created: 0, updated: 0, unchanged: 3, deleted: 0 })
    expect(same.results.map((r: { id: string }) => r.id)).toEqual(before.map((l) => l.id))
    expect(await listed()).toEqual(before)
    expect(rows().changes.length).toBe(changesBefore)
    // The list as GET /admin/v1/locations answers it imports too; one edited, one new.
    const edited = {
      locations: [
        { ...before[0], name: 'Harbour Store (renamed)' },
        before[1],
        { name: 'New', address: 'n', coordinates: { lat: 3, lng: 4 } },
      ],
    }
    const out = json('locations', 'import', locatorId, '--file', file('edited.json', edited))
    expect(out).toMatchObject({ created: 1, updated: 1, unchanged: 1 })
    expect(out.results.slice(0, 2)).toMatchObject([
      { index: 0, id: before[0].id, action: 'updated' },
      { index: 1, id: before[1].id, action: 'unchanged' },
    ])
    const after = await listed()
    expect(after[0]).toEqual({ ...before[0], name: 'Harbour Store (renamed)', updated_at: after[0].updated_at })
    expect(after[0].updated_at > before[0].updated_at).toBe(true)
    expect(after.slice(1, 3)).toEqual(before.slice(1, 3))
  }, 60_000)

  test('any problem and nothing is written: every location refused is named with its place in the file and why, exit 1', () => {
    json('locations', 'import', locatorId, '--file', file('first.json', [STORES[0]]))
    const before = rows()
    const existing = (before.locations[0] as { id: string }).id
    const bad = [
      { name: 'Fine', address: 'a', coordinates: { lat: 1, lng: 1 } },
      { address: 'No name', coordinates: { lat: 1, lng: 1 } },
      'a string',
      { id: 'loc_0000000000000000', name: 'Elsewhere' },
      { id: existing, name: 'Twice' },
      { id: existing, custom_fields: { floor: 'two' } },
      { name: 'Lost', address: 'Nowhere Land' },
    ]
    const r = storeloc('locations', 'import', locatorId, '--file', file('bad.json', bad))
    expect(r.code).toBe(1)
    expect(r.stderr.split('\n').filter((l) => l !== '')).toEqual([
      `storeloc: Nothing was imported from ${join(dir, 'bad.json')}: 4 of 7 locations cannot be written as sent; nothing was written.`,
      '  [1]: The name field is required.',
      '  [2]: each item must be an object of location fields.',
      '  [3] ("Elsewhere"): id "loc_0000000000000000" is not a location of this locator. Leave the id out to create it, or give its external_id to match by.',
      `  [5]: the same location (${existing}) as [4]; give each store once.`,
      '  [5]: The custom_fields.floor field must be a number, written as a string ("12" or "-2.5").',
    ])
    // Items are named as the file has them: "[1]" in a top-level array, "locations[1]" in an
    // object's "locations", as examples/sync.ts names them; a problem many share is said once.
    const listed = storeloc('locations', 'import', locatorId, '--file', file('listed.json', { locations: bad }))
    expect([listed.code, listed.stderr]).toEqual([
      1,
      r.stderr.replace(/\[(\d)\]/g, 'locations[$1]').replace('bad.json', 'listed.json'),
    ])
    const nameless = [1, 2, 3].map(() => bad[1])
    expect(storeloc('locations', 'import', locatorId, '--file', file('nameless.json', nameless)).stderr).toContain(
      '\n  3 rows ([0], [1], [2]): The name field is required.\n',
    )
    expect(rows()).toEqual(before)
    // Once the others are right, an address that cannot be geocoded is named the same way.
    const geocoding = storeloc(
      'locations',
      'import',
      locatorId,
      '--file',
      file('lost.json', [bad[0], { id: existing, custom_fields: { floor: 'two' } }]),
    )
    expect(geocoding.stderr).toContain(
      '  [1]: The custom_fields.floor field must be a number, written as a string ("12" or "-2.5").',
    )
    const lost = storeloc('locations', 'import', locatorId, '--file', file('lost.json', [bad[0], bad[6]]))
    expect(lost.code).toBe(1)
    expect(lost.stderr).toContain(
      '  [1] ("Lost"): The address "Nowhere Land" could not be geocoded. Fix the address or send coordinates',
    )
    expect(rows()).toEqual(before)
  }, 60_000)

  test('a file that is not a list of locations, or no file: exit 1 or 2 saying what to give', () => {
    for (const content of ['{"name": "one store"}', '42', '{"locations": 3}']) {
      const r = storeloc('locations', 'import', locatorId, '--file', file('odd.json', content))
      expect(r).toMatchObject({ code: 1, stdout: '' })
      expect(r.stderr).toBe(
        `storeloc: ${join(dir, 'odd.json')} must hold a JSON array of locations, or an object with one as "locations" (as GET /admin/v1/locations answers).\n`,
      )
    }
    expect(storeloc('locations', 'import', locatorId).code).toBe(2)
    expect(storeloc('locations', 'import', 'lct_doesnotexist0000', '--file', file('e.json', [])).stderr).toContain(
      'lct_doesnotexist0000',
    )
  })

  test('a folder, a path with no file, JSON named .csv or CSV named .json: exit 1 saying which and what to give', () => {
    const said = (path: string) => {
      const r = storeloc('locations', 'import', locatorId, '--file', path)
      return [r.code, r.stderr]
    }
    expect(said(dir)).toEqual([1, `storeloc: ${dir} is a folder, not a file: give the CSV or JSON file in it.\n`])
    expect(said(join(dir, 'stores'))).toEqual([1, `storeloc: No file ${join(dir, 'stores')}.\n`])
    expect(said(file('stores.csv', '\uFEFF [{"name": "One", "address": "1 Main St, Springfield, IL"}]'))).toEqual([
      1,
      `storeloc: Nothing was imported: ${join(dir, 'stores.csv')} holds JSON, not CSV: give --format json.\n`,
    ])
    expect(said(file('stores.json', 'name;address\r\nOne;"1 Main St, Springfield, IL"\r\n'))).toEqual([
      1,
      expect.stringMatching(
        /is not valid JSON: .*\. It is no JSON array of locations: if it is CSV, give --format csv\.\n$/,
      ),
    ])
    // A file that opens as JSON but is broken is said to be broken, and no more.
    expect(said(file('broken.json', '[{"name": '))[1]).not.toContain('--format csv')
  })

  test('a JSON file with NaN (Python json.dump of float nan): the refusal names it, with line and column', () => {
    const path = file(
      'nan.json',
      '[\n  {"name": "NaN", "address": "1 Main St", "coordinates": {"lat": NaN, "lng": 1}}\n]',
    )
    const r = storeloc('locations', 'import', locatorId, '--file', path)
    expect([r.code, r.stderr]).toEqual([
      1,
      `storeloc: ${path} is not valid JSON: it has NaN (line 2, column 66), which is no JSON number (Python's json.dumps writes float('nan') and float('inf') so). Send a number, or leave the field out.\n`,
    ])
  })
})

describe('locations export', () => {
  test('every location as the API gives it, or those of one status; another status is refused', async () => {
    json('locations', 'import', locatorId, '--file', file('stores.json', STORES))
    const all = await listed()
    expect(JSON.parse(storeloc('locations', 'export', locatorId, '--status', 'draft').stdout)).toEqual(
      all.filter((l) => l.status === 'draft'),
    )
    expect(JSON.parse(storeloc('locations', 'export', locatorId, '--status', 'published').stdout)).toEqual(
      all.filter((l) => l.status === 'published'),
    )
    expect(JSON.parse(storeloc('locations', 'export', locatorId, '--json').stdout)).toEqual(all)
    const r = storeloc('locations', 'export', locatorId, '--status', 'hidden')
    expect(r).toMatchObject({ code: 1, stdout: '' })
    expect(r.stderr).toBe('storeloc: --status must be published or draft; got "hidden".\n')
  }, 60_000)
})

describe('locations delete', () => {
  test('deletes by id or external id, all or none; the API no longer lists them', async () => {
    const coded = STORES.map((s, i) => ({ ...s, external_id: `S${i + 1}` }))
    json('locations', 'import', locatorId, '--file', file('stores.json', coded))
    const [harbour, , ring] = await listed()
    const before = rows()
    // One reference matches nothing: nothing is deleted.
    const typo = storeloc('locations', 'delete', locatorId, harbour.id, 'S9')
    expect(typo).toMatchObject({ code: 1, stdout: '' })
    expect(typo.stderr).toBe(
      `storeloc: Nothing was deleted: ${locatorId} has no location with the id or external_id "S9".\n`,
    )
    expect(rows()).toEqual(before)
    const done = storeloc('locations', 'delete', locatorId, harbour.id, 'S3')
    expect(done).toMatchObject({ code: 0, stderr: '' })
    expect(done.stdout).toBe(
      `Deleted 2 locations of ${locatorId}:\n` +
        `  Harbour Store (${harbour.id}, external_id "S1")\n` +
        `  Ring Store (${ring.id}, external_id "S3")\n`,
    )
    expect((await listed()).map((l) => l.external_id)).toEqual(['S2'])
    expect(storeloc('locations', 'delete', locatorId).code).toBe(2)
    // Typed as a shell may give it: spaces around, an accent apart from its letter.
    json('locations', 'import', locatorId, '--file', file('cafe.json', [{ ...STORES[0], external_id: 'Caf\u00e9' }]))
    expect(storeloc('locations', 'delete', locatorId, ' Cafe\u0301 ').code).toBe(0)
    expect((await listed()).map((l) => l.external_id)).toEqual(['S2'])
  }, 60_000)
})
