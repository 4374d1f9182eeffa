// storeloc locations import of a file holding delete items ({"external_id": ..., "delete": true},
// a CSV row whose delete cell says yes): its summary tells what the file's items delete from what
// --delete-missing finds, and counts those that named no location; a condition is a delete's alone.
import { beforeEach, describe, expect, test } from 'bun:test'
import { dbPath, file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Importer').locator.id
})

const store = (code: string, i: number) => ({
  external_id: code,
  name: `Store ${code}`,
  address: `${i} Quay Street, Springfield`,
  coordinates: { lat: 39.78, lng: -89.65 },
})

describe('locations import, delete items', () => {
  test('the summary names what the delete items delete apart from what --delete-missing does, and counts the absent', () => {
    const plain = { ...store('', 4), external_id: undefined, name: 'No code' }
    const stores = [...[1, 2, 3].map((i) => store(`S${i}`, i)), plain]
    const made = json('locations', 'import', locatorId, '--file', file('all.json', stores))
    const idOf = (code: string | null) => made.results.find((r: { external_id: string }) => r.external_id === code).id
    const path = file('sync.json', [
      { external_id: 'S1', delete: true },
      { external_id: 'S9', delete: true },
      store('S2', 2),
      { id: idOf(null), delete: true },
    ])
    const dry = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run', '--delete-missing')
    expect(dry.code).toBe(0)
    expect(dry.stdout.split('\n')).toEqual([
      `Dry run of ${path} on ${locatorId}, nothing written: 0 to create, 0 to update, 1 unchanged, 3 to delete, 1 absent.`,
      'Check 1 location:',
      '  [1] (external_id "S9"): No location of this locator has the external_id "S9": there was nothing to delete.',
      'To delete (delete items of the file):',
      `  Store S1 (${idOf('S1')}, external_id "S1")`,
      `  No code (${idOf(null)})`,
      'To delete (external_id not in the file):',
      `  Store S3 (${idOf('S3')}, external_id "S3")`,
      '',
    ])
    const real = storeloc('locations', 'import', locatorId, '--file', path)
    expect(real.stdout.split('\n')).toEqual([
      `Imported ${path} into ${locatorId}: 0 created, 0 updated, 1 unchanged, 2 deleted, 1 absent.`,
      'Check 1 location:',
      '  [1] (external_id "S9"): No location of this locator has the external_id "S9": there was nothing to delete.',
      'Deleted (delete items of the file):',
      `  Store S1 (${idOf('S1')}, external_id "S1")`,
      `  No code (${idOf(null)})`,
      '',
    ])
  })

  test('a request body saved as a file, with options the command line lacks, is refused, nothing written', () => {
    json('locations', 'import', locatorId, '--file', file('all.json', [store('S1', 1), store('S2', 2)]))
    const listed = () => JSON.parse(storeloc('locations', 'export', locatorId).stdout).length
    // The bulk route's body: read for its locations alone, it would delete S1 for real.
    const dry = file('dry.json', { dry_run: true, locations: [{ external_id: 'S1', delete: true }] })
    const refused = storeloc('locations', 'import', locatorId, '--file', dry)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(
      `storeloc: ${dry} holds "dry_run": true, which the import reads only as --dry-run on the command line: give --dry-run, or leave the field out of the file. Nothing was imported.\n`,
    )
    expect(listed()).toBe(2)
    expect(storeloc('locations', 'import', locatorId, '--file', dry, '--dry-run').code).toBe(0)
    expect(listed()).toBe(2)
    const capped = file('capped.json', { delete_missing: true, max_delete: 0, locations: [store('S1', 1)] })
    expect(storeloc('locations', 'import', locatorId, '--file', capped, '--delete-missing').stderr).toBe(
      `storeloc: ${capped} holds "max_delete": 0, which the import reads only as --max-delete 0 on the command line: give --max-delete 0, or leave the field out of the file. Nothing was imported.\n`,
    )
    expect(storeloc('locations', 'import', locatorId, '--file', capped).stderr).toStartWith(
      `storeloc: ${capped} holds "delete_missing": true, which the import reads only as --delete-missing on the command line`,
    )
    expect(listed()).toBe(2)
    // The same options on the command line: taken; false and null, as the route's defaults, need none.
    const plain = file('plain.json', {
      success: true,
      dry_run: false,
      delete_missing: false,
      max_delete: null,
      locations: [store('S1', 1)],
    })
    expect(storeloc('locations', 'import', locatorId, '--file', plain).code).toBe(0)
    expect(
      storeloc('locations', 'import', locatorId, '--file', capped, '--delete-missing', '--max-delete', '0').stderr,
    ).toContain('--delete-missing would delete 1 location, more than --max-delete (0)')
    expect(listed()).toBe(2)
  })

  test("a delete item's if_updated_at changed since: nothing imported, and the CLI's way to read the store again", () => {
    const made = json('locations', 'import', locatorId, '--file', file('all.json', [store('S1', 1), store('S2', 2)]))
    const [s1, s2] = JSON.parse(storeloc('locations', 'export', locatorId).stdout)
    json('locations', 'import', locatorId, '--file', file('edit.json', [{ ...store('S2', 2), name: 'Edited' }]))
    const path = file('sync.json', [
      { id: s1.id, delete: true, if_updated_at: s1.updated_at },
      { external_id: 'S2', delete: true, if_updated_at: s2.updated_at },
    ])
    const refused = storeloc('locations', 'import', locatorId, '--file', path)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(
      `storeloc: Nothing was imported from ${path}: [1]: location ${s2.id} ("S2") was changed`,
    )
    expect(refused.stderr).toContain(`another write changed it since it was read. Read it again (`)
    expect(refused.stderr).toContain(`locations export ${locatorId} --database ${dbPath} prints it); if it is still`)
    expect(refused.stderr).not.toContain('GET /admin/v1')
    expect(JSON.parse(storeloc('locations', 'export', locatorId).stdout).length).toBe(made.results.length)
  })
  test('a CSV row that does not delete with an if_updated_at cell: its line says so, nothing imported', () => {
    json('locations', 'import', locatorId, '--file', file('all.json', [store('S1', 1), store('S2', 2)]))
    const [s1] = JSON.parse(storeloc('locations', 'export', locatorId).stdout)
    const csv = `external_id,name,delete,if_updated_at\r\nS1,Renamed,,${s1.updated_at}\r\nS2,,yes,\r\n`
    const r = storeloc('locations', 'import', locatorId, '--file', file('sync.csv', csv))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      `  line 2 (external_id "S1"): "${s1.updated_at}" in the "if_updated_at" column is the condition of a row that deletes its store, and this row does not delete:`,
    )
    const after = JSON.parse(storeloc('locations', 'export', locatorId).stdout)
    expect(after.map((l: { name: string }) => l.name)).toEqual(['Store S1', 'Store S2'])
  })
})
