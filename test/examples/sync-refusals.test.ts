// examples/sync.ts refusing a list, writing nothing: rows with problems, named by their lines;
// more deletes than --max-delete; codes that lost their leading zeros; an empty list or a store
// twice. And what is worth a look in a list it writes, printed with its line.
import { describe, expect, test } from 'bun:test'
import { syncRunners, syncServer } from './sync-server'

const served = syncServer()
const { json } = served
const { sync, syncFile, syncAs, stores } = syncRunners(served)

const HEADER = 'Store Code,Name,Address,Latitude,Longitude\n'
const row = (code: string, name: string, i: number) =>
  `${code},${name},"${i} Main St, Town",${40 + i / 10},${-3 - i / 10}\n`

describe('examples/sync.ts refusing a list', () => {
  test('a list with problems writes nothing and names the rows by their lines', async () => {
    const before = await stores()
    const bad = sync(`${HEADER}${row('S1', 'One', 1)}S9,,"9 Main St",1,2\n${row('S5', 'Five', 5)},No code,x,1,2\n`)
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('line 5')
    expect(bad.stderr).toContain('has none')
    // A list with no code column at all says how to give one, with the columns not read: a
    // Filiale of branch names is none (one of branch numbers would be).
    const codeless = sync(
      `Filiale,Name,Address,Latitude,Longitude\n${[1, 2, 3, 4, 5, 6, 7].map((i) => `Town ${i},Store ${i},"${i} Main St",1,2\n`).join('')}`,
    )
    expect([codeless.code, codeless.stderr]).toEqual([
      1,
      'sync: A mirror matches stores by external_id; these rows have none: line 2, line 3, line 4, line 5, line 6 and 2 more. Give the list a column of store codes: external_id, "Store Code" or "Filialnummer" are read so. Columns not read: Filiale.\n',
    ])
    // A JSON item that is no object has no code either. Items are named as the file has them:
    // "[1]" in a top-level array, "locations[1]" in an object's "locations".
    const item = { external_id: 'S1', name: 'One', address: '1 Main St', coordinates: { lat: 1, lng: 2 } }
    expect(syncFile('nulls.json', JSON.stringify([item, null, 5]))).toEqual({
      code: 1,
      stdout: '',
      stderr: 'sync: A mirror matches stores by external_id; these rows have none: [1], [2].\n',
    })
    expect(syncFile('nulls.json', JSON.stringify({ locations: [item, null] })).stderr).toBe(
      'sync: A mirror matches stores by external_id; this row has none: locations[1].\n',
    )
    // A list of tab separated values named .json is told the names a CSV file and a tab separated one take.
    expect(syncFile('stores.json', 'external_id\tname\nS1\tOne\n').stderr).toEndWith(
      'A CSV file needs a name ending in .csv, a tab separated one in .tsv.\n',
    )
    // So are they in the sync's own problems and in the service's.
    const twice = syncFile('twice.json', JSON.stringify([item, { ...item, name: '' }, item]), '--dry-run')
    expect([twice.code, twice.stderr]).toEqual([
      1,
      '  [1] (external_id "S1"): the same store code as [0]; give each external_id once.\n' +
        '  [2] (external_id "S1"): repeats [0]; give each store once.\n' +
        'sync: 2 of 3 rows of the list cannot be written as sent, 2 refused by the sync ([1-2]); nothing was written.\n',
    ])
    // A problem the service finds in many of them is said once, naming a few, as in a CSV file.
    const far = [1, 2, 3, 4].map((i) => ({ ...item, external_id: `F${i}`, coordinates: { lat: 95, lng: 2 } }))
    const shared = syncFile('far.json', JSON.stringify(far), '--dry-run')
    expect(shared.code).toBe(1)
    expect(shared.stderr.split('\n')).toEqual([
      expect.stringMatching(
        /^ {2}4 rows \(\[0\], \[1\], \[2\] and 1 more\): The coordinates\.lat field must be between/,
      ),
      'sync: 4 of 4 rows of the list cannot be written as sent, 4 refused by the service ([0-3]); nothing was written.',
      '',
    ])
    const unnamed = sync(`${HEADER}${row('S1', 'One', 1)}S9,,"9 Main St",1,2\n`)
    expect(unnamed.code).toBe(1)
    expect(unnamed.stderr).toContain('line 3 (external_id "S9"): The "Name" column is required.')
    expect(await stores()).toEqual(before)
  }, 30_000)

  test("cells not read are listed with the server's problems; one that many rows share, once", async () => {
    const before = await stores()
    const header = 'Store Code,Name,Address,Latitude,Longitude,Hours\n'
    const nameless = [2, 3, 4, 5, 6].map((i) => `S${i},,"${i} Main St",1,2,\n`).join('')
    const bad = sync(`${header}S1,One,"1 Main St",1,2,by appointment\n${nameless}`)
    expect(bad.code).toBe(1)
    const lines = bad.stderr.split('\n')
    expect(lines[0]).toStartWith('  line 2 (external_id "S1"): "by appointment" could not be read')
    expect(lines[1]).toBe('  5 rows (line 3, line 4, line 5 and 2 more): The "Name" column is required.')
    expect(await stores()).toEqual(before)
  }, 30_000)

  test('the problems of every request of 1,000 are listed in one run', async () => {
    const before = await stores()
    const rows = Array.from({ length: 1500 }, (_, i) => row(`B${i}`, i === 1 || i === 1400 ? '' : `Big ${i}`, i % 50))
    const bad = sync(`${HEADER}${rows.join('')}`)
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('line 3 (external_id "B1"): The "Name" column is required.')
    expect(bad.stderr).toContain('line 1402 (external_id "B1400"): The "Name" column is required.')
    expect(bad.stderr).toEndWith(
      '\nsync: 2 of 1500 rows of the list cannot be written as sent, 2 refused by the service (lines 3, 1402); nothing was written.\n',
    )
    expect(await stores()).toEqual(before)
    // Mended, it says how far it got, request by request.
    const good = sync(`${HEADER}${rows.map((r) => r.replace(/^(B1|B1400),,/, '$1,Mended,')).join('')}`, '--dry-run')
    expect(good.stderr).toStartWith('checked: 1000 of 1500 rows\nchecked: 1500 of 1500 rows\n')
    expect(await stores()).toEqual(before) // a dry run, which this list's codes would not pass anyway
  }, 60_000)

  test('--max-delete N refuses a list that would delete more than N stores, writing nothing', async () => {
    // The stores there now stay in every list: only M1 to M3 come and go.
    const others = (await stores()).map((s, i) => row(s.external_id, s.name, i)).join('')
    const list = (...rows: string[]) => `${HEADER}${others}${rows.join('')}`
    expect(sync(list(row('M1', 'One', 1), row('M2', 'Two', 2), row('M3', 'Three', 3))).code).toBe(0)
    const before = await stores()
    const cut = sync(list(row('M2', 'Two', 2), row('M4', 'Four', 4)), '--max-delete', '1')
    expect(cut.stderr).toBe(
      'sync: The list would delete 2 stores, more than --max-delete 1: M1, M3. Check the list; if they are meant to go, run the sync again with --max-delete 2. Nothing was written.\n',
    )
    expect(cut.code).toBe(1)
    expect(await stores()).toEqual(before)
    expect(sync(list(row('M2', 'Two', 2), row('M3', 'Three', 3)), '--max-delete=1').code).toBe(0)
  }, 30_000)

  test('a list whose store codes lost their leading zeros (saved in Excel) writes nothing, and says so', async () => {
    const others = (await stores()).map((s, i) => row(s.external_id, s.name, i)).join('')
    const list = (...rows: string[]) => `${HEADER}${others}${rows.join('')}`
    expect(sync(list(row('007', 'Zero 7', 7), row('008', 'Zero 8', 8))).code).toBe(0)
    const before = await stores()
    const lost = sync(list(row('7', 'Zero 7', 7), row('8', 'Zero 8', 8)), '--max-delete', '0')
    expect(lost.code).toBe(1)
    expect(lost.stderr).toContain(
      '2 codes of the list differ from stored ones only in leading zeros ("7" in the list, "007" stored): a spreadsheet drops them (Excel reads 007 as 7).',
    )
    expect(await stores()).toEqual(before)
    expect(sync(list()).code).toBe(0)
  }, 30_000)

  test('codes that lost their zeros are refused though the other codes match, no --max-delete given', async () => {
    const others = (await stores()).map((s, i) => row(s.external_id, s.name, i)).join('')
    const list = (...rows: string[]) => `${HEADER}${others}${rows.join('')}`
    expect(sync(list(row('0012', 'Twelve', 12))).code).toBe(0)
    const before = await stores()
    const lost = sync(list(row('12', 'Twelve', 12)))
    expect([lost.code, lost.stderr]).toEqual([
      1,
      'sync: The list would delete stores and make them again with new ids: One code of the list differs from a stored one only in leading zeros ("12" in the list, "0012" stored): a spreadsheet drops them (Excel reads 0012 as 12). Format the column as text, give the codes as stored, and run the sync again. To renumber a store, keep its id (an id column) beside its new code. Nothing was written.\n',
    ])
    expect(await stores()).toEqual(before)
    expect(sync(list()).code).toBe(0)
  }, 30_000)

  test('codes that lost their zeros beside a zero-width space, a BOM or a no-break space are refused too', async () => {
    const others = (await stores()).map((s, i) => row(s.external_id, s.name, i)).join('')
    const list = (...rows: string[]) => `${HEADER}${others}${rows.join('')}`
    expect(sync(list(row('0013\u200b', 'Thirteen', 13), row('0014', 'Fourteen', 14))).code).toBe(0)
    const before = await stores()
    const lost = sync(list(row('13', 'Thirteen', 13), row('\u00a014\u200b', 'Fourteen', 14)))
    expect([lost.code, lost.stderr]).toEqual([
      1,
      'sync: The list would delete stores and make them again with new ids: 2 codes of the list differ from stored ones only in leading zeros ("13" in the list, "0013" with U+200B stored): a spreadsheet drops them (Excel reads 0013 as 13). Format the column as text, give the codes as stored, and run the sync again. To renumber a store, keep its id (an id column) beside its new code. Nothing was written.\n',
    ])
    expect(await stores()).toEqual(before)
    expect(sync(list()).code).toBe(0)
  }, 30_000)

  test('stored codes that lost their zeros (an import from Excel) against a list with them: said that way round', async () => {
    const others = (await stores()).map((s, i) => row(s.external_id, s.name, i)).join('')
    const list = (...rows: string[]) => `${HEADER}${others}${rows.join('')}`
    expect(sync(list(row('9', 'Nine', 9))).code).toBe(0)
    const withZeros = sync(list(row('009', 'Nine', 9)), '--max-delete', '0')
    expect(withZeros.code).toBe(1)
    expect(withZeros.stderr).toContain(
      'One code of the list differs from a stored one only in leading zeros ("009" in the list, "9" stored): a spreadsheet drops them (Excel reads 009 as 9).',
    )
    expect(withZeros.stderr).not.toContain('without their leading zeros')
    expect(sync(list()).code).toBe(0)
  }, 30_000)

  test('an empty list, or one with a store twice, writes nothing: no mirror deletes every store', async () => {
    const before = await stores()
    expect(before.length).toBeGreaterThan(0)
    const empty = sync(HEADER)
    expect(empty.code).toBe(1)
    expect(empty.stderr).toBe(
      `sync: The list would delete every one of the locator's ${before.length} stores with an external_id: none of their codes is in it. Check that the file is the whole list, with the codes the stores have: GET /admin/v1/locations/export?format=csv, with this key, lists them. To replace them all, delete them first (POST /admin/v1/locations/{id}/delete; on the service's machine, its command line's locations delete LOCATOR_ID ID...), then run the sync again. Nothing was written.\n`,
    )
    const twice = sync(`${HEADER}${row('S1', 'One', 1)}${row('S1', 'One again', 2)}`)
    expect(twice.code).toBe(1)
    expect(twice.stderr).toBe(
      '  line 3 (external_id "S1"): the same store code as line 2; give each external_id once.\nsync: 1 of 2 rows of the list cannot be written as sent, 1 refused by the sync (line 3); nothing was written.\n',
    )
    expect(await stores()).toEqual(before)
  }, 30_000)

  test('what reading the file took otherwise than written is printed with its line', async () => {
    const csv = `${HEADER.trimEnd()},Phone\nS1,One,"1 Main St, Town",40.1,-3.1,4.93E+11\n`
    // A locator of its own: no other store of the file's tests is one the list would delete.
    const own = json('locator', 'create', '--name', 'Sync phones').key.secret_key
    const dry = syncAs(own, 'excel.csv', csv, '--dry-run')
    expect(dry.stdout).toContain(
      'check line 2: "4.93E+11" in the "Phone" column is a phone number Excel wrote in scientific notation',
    )
  }, 30_000)

  test("a row's days of one unread text are one line; a warning many rows share is printed once", async () => {
    const header = 'Store Code,Name,Address,Latitude,Longitude,Hours\n'
    const texts = [
      'Mo-Fr auf Zuruf, Sa 10-14',
      'Mo-Fr auf Zuruf, Sa 10-14',
      'Mo-Fr auf Zuruf, Sa 10-14',
      'Mo-Mi 9-18, Do-Fr ab 14',
    ]
    const csv = texts.map((t, i) => `H${i},Hours ${i},"${i} Main St, Town",40.${i},-3.${i},"${t}"\n`).join('')
    const own = json('locator', 'create', '--name', 'Sync hours').key.secret_key
    const dry = syncAs(own, 'hours.csv', header + csv, '--dry-run')
    expect(dry.code).toBe(0)
    const said =
      'could not be read as opening hours: it is kept, and counts as unknown (docs/management-api.md, Opening hours).'
    expect(dry.stdout.split('\n').filter((l) => l.startsWith('check '))).toEqual([
      `check 3 rows (line 2, line 3, line 4): Monday to Friday's hours "auf Zuruf" in the "Hours" column ${said}`,
      `check line 5: Thursday and Friday's hours "ab 14" in the "Hours" column ${said}`,
    ])
  }, 30_000)
})
