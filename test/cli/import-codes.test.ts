// storeloc locations import matching store codes as a person reads them: a file's clean code is
// the store's that holds it with an invisible character (a pasted zero-width space), for updates
// and delete rows; an id of this service in a store-code column is refused, naming its location.
import { beforeEach, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { dbPath, file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Codes').locator.id
})

const store = (code: string, i: number) => ({
  external_id: code,
  name: `Store ${i}`,
  address: `${i} Quay Street, Springfield`,
  coordinates: { lat: 39.78 + i / 100, lng: -89.65 },
})
const row = (code: string, i: number) => `${code},Store ${i},"${i} Quay Street, Springfield",${39.78 + i / 100},-89.65`
const HEADER = 'external_id,name,address,lat,lng'

let files = 0
/** Imports a store for each of `codes`, numbered from `first` (its name and address), as JSON; their ids. */
function imported<T extends string[]>(codes: [...T], first = 1): { [K in keyof T]: string } {
  const stores = codes.map((code, i) => store(code, first + i))
  const made = json('locations', 'import', locatorId, '--file', file(`stores-${++files}.json`, stores))
  return made.results.map((r: { id: string }) => r.id)
}

/** The locator's locations as the export gives them: id and store code. */
const stored = () =>
  JSON.parse(storeloc('locations', 'export', locatorId).stdout).map((l: { id: string; external_id: string }) => [
    l.id,
    l.external_id,
  ])

describe('locations import, store codes', () => {
  test('a clean code updates the store holding it with a zero-width space, its code cleaned; a delete row deletes it', () => {
    const [a, b] = imported(['S1\u200b', 'S2'])
    const path = file('b.csv', `${HEADER}\n${row('S1', 1)}\n`)
    const r = storeloc('locations', 'import', locatorId, '--file', path)
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(r.stdout.split('\n')).toEqual([
      `Imported ${path} into ${locatorId}: 0 created, 1 updated, 0 unchanged, 0 deleted.`,
      'Check 1 location:',
      `  line 2 (external_id "S1"): The store code "S1" and location ${a}'s, "S1" with U+200B, differ by invisible characters alone: the row is matched to that location, and the code is stored as "S1", without them.`,
      'Updated:',
      '  line 2 (external_id "S1"): external_id',
      '',
    ])
    expect(stored()).toEqual([
      [a, 'S1'],
      [b, 'S2'],
    ])
    // Stored with a BOM now, the store is deleted by its clean code.
    imported(['\ufeffS2\u200b'], 2)
    const rows = file('d.csv', 'external_id,delete\nS2,yes\n')
    const gone = storeloc('locations', 'import', locatorId, '--file', rows)
    expect([gone.code, gone.stdout.split('\n')[0]]).toEqual([
      0,
      `Imported ${rows} into ${locatorId}: 0 created, 0 updated, 0 unchanged, 1 deleted.`,
    ])
    expect(stored()).toEqual([[a, 'S1']])
    // locations delete finds it by the code as typed, without the character no one can type.
    const [c] = imported(['S3\u200b'], 3)
    const typed = storeloc('locations', 'delete', locatorId, 'S3')
    expect([typed.code, typed.stdout.split('\n')[1], typed.stderr]).toEqual([
      0,
      `  Store 3 (${c}, external_id "S3\u200b")`,
      '',
    ])
    expect(stored()).toEqual([[a, 'S1']])
  })

  test('an id of this service in a "Store Code" column is refused, naming its location, nothing written', () => {
    const [a] = imported(['S1'])
    const path = file('b.csv', `Store Code,name,address,lat,lng\n${row(a, 1)}\n`)
    const r = storeloc('locations', 'import', locatorId, '--file', path)
    expect([r.code, r.stdout]).toEqual([1, ''])
    expect(r.stderr).toContain(
      `  line 2 (external_id "${a}"): The "Store Code" column holds "${a}", the id of location ${a} ("Store 1"), not a store code: read as a code it would name no location, and the row would create that store a second time. Give the id in an id column, and here the store's own code, if it has one.`,
    )
    expect(stored()).toEqual([[a, 'S1']])
  })

  test('locations delete with a code two stores hold but for invisible characters names both, deleting nothing', () => {
    const [a, b] = imported(['S1\u200b', 'S2'])
    // Twins as a release that compared codes as written leaves them once migrated: unkeyed.
    const db = new Database(dbPath)
    db.run('UPDATE locations SET external_id = ?, code_key = NULL WHERE id = ?', ['S1\u2060', b])
    db.close()
    const r = storeloc('locations', 'delete', locatorId, 'S1')
    expect([r.code, r.stdout]).toEqual([1, ''])
    expect(r.stderr).toContain(
      `Nothing was deleted: the external_id "S1" is that of 2 locations but for invisible characters: ${a} ("Store 1", "S1" with U+200B), ${b} ("Store 2", "S1" with U+2060). Give the id of the one to delete.`,
    )
    expect(stored()).toEqual([
      [a, 'S1\u200b'],
      [b, 'S1\u2060'],
    ])
  })

  test('a code with a zero-width non-joiner (Persian) is another store than the one without', () => {
    // "mikhane" with U+200C between its first two letters, as Persian writes it, and run together.
    const joined = '\u0645\u06cc\u200c\u062e\u0627\u0646\u0647'
    const together = '\u0645\u06cc\u062e\u0627\u0646\u0647'
    const made = json(
      'locations',
      'import',
      locatorId,
      '--file',
      file('p.csv', `${HEADER}\n${row(joined, 1)}\n${row(together, 2)}\n`),
    )
    expect([made.created, made.updated]).toEqual([2, 0])
    const [a, b] = made.results.map((r: { id: string }) => r.id)
    // Typed with a zero-width space besides, the joined code is still its own store's.
    const gone = storeloc('locations', 'delete', locatorId, `${joined}\u200b`)
    expect([gone.code, gone.stderr]).toEqual([0, ''])
    expect(stored()).toEqual([[b, together]])
    expect(a).not.toBe(b)
  })
})

describe('locations import, codes swapped', () => {
  test('a CSV with an id column swaps two stores codes; a code its store keeps is refused, naming it', () => {
    const [a, b] = imported(['101', '102'])
    const keeps = file('keep.csv', `id,external_id\n${a},102\n`)
    const refused = storeloc('locations', 'import', locatorId, '--file', keeps)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`already the store code of location ${b} ("Store 2")`)
    const path = file('swap.csv', `id,external_id\n${a},102\n${b},101\n`)
    const r = storeloc('locations', 'import', locatorId, '--file', path)
    expect([r.code, r.stderr, r.stdout.split('\n')[0]]).toEqual([
      0,
      '',
      `Imported ${path} into ${locatorId}: 0 created, 2 updated, 0 unchanged, 0 deleted.`,
    ])
    expect(stored()).toEqual([
      [a, '102'],
      [b, '101'],
    ])
  })
})

describe('locations import --delete-missing, codes without their leading zeros', () => {
  test('a file whose other codes match is refused, naming the codes, and writes nothing', () => {
    imported(['0101', 'S2'])
    const before = stored()
    const path = file('lost.csv', `${HEADER}\n${row('101', 1)}\n${row('S2', 2)}\n`)
    const r = storeloc('locations', 'import', locatorId, '--file', path, '--delete-missing')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      '--delete-missing would delete 1 location and create it again, each with a new id, under a code that differs only in leading zeros; nothing was written.',
    )
    expect(r.stderr).toContain(
      'Refused: the file has a code that differs from a stored location\'s only in leading zeros ("101" sent, "0101" stored)',
    )
    expect(stored()).toEqual(before)
  })
})

describe('locations import --delete-missing, a code of a store the file drops', () => {
  test('a row takes the code of a store the file lacks, in one transaction; the dry run says the same', () => {
    const made = json(
      'locations',
      'import',
      locatorId,
      '--file',
      file('a.json', [store('S1', 1), store('S2', 2), store('S3', 3)]),
    )
    const [a, b, c] = made.results.map((r: { id: string }) => r.id)
    const path = file('renamed.csv', `id,${HEADER}\n${a},${row('S1', 1)}\n${b},${row('S3', 2)}\n`)
    const dry = json('locations', 'import', locatorId, '--file', path, '--delete-missing', '--dry-run')
    const done = json('locations', 'import', locatorId, '--file', path, '--delete-missing')
    expect({ ...done, dry_run: true }).toEqual(dry)
    expect(done.results.map((r: { id: string; action: string }) => [r.id, r.action])).toEqual([
      [a, 'unchanged'],
      [b, 'updated'],
      [c, 'deleted'],
    ])
    expect(stored()).toEqual([
      [a, 'S1'],
      [b, 'S3'],
    ])
  })
})

describe('locations import --delete-missing, locations without a code', () => {
  test('the summary counts those it leaves, not one the file names by its id; the dry run as the real run', () => {
    const { name, address, coordinates } = store('', 3)
    const made = json(
      'locations',
      'import',
      locatorId,
      '--file',
      file('a.json', [store('S1', 1), { name, address, coordinates }, { ...store('', 4), external_id: undefined }]),
    )
    const [a, , d] = made.results.map((r: { id: string }) => r.id)
    const path = file(
      'kept.csv',
      `id,${HEADER}\n${a},${row('S1', 1)}\n${d},,Store 4,"4 Quay Street, Springfield",39.82,-89.65\n`,
    )
    const left =
      '1 location without an external_id is left as it is: --delete-missing deletes only locations the file could name by code.'
    for (const dry of ['--dry-run', '--delete-missing']) {
      const r = storeloc('locations', 'import', locatorId, '--file', path, '--delete-missing', dry)
      expect(r.code).toBe(0)
      expect(r.stdout.split('\n')[1]).toBe(left)
    }
    // Without --delete-missing nothing is deleted, and nothing is said of it.
    expect(storeloc('locations', 'import', locatorId, '--file', path).stdout).not.toContain('without an external_id')
  })
})
