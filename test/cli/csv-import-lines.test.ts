// storeloc locations import of a store list's lines: how a refused line is worded, and the lines
// a sheet keeps above its header.
import { beforeEach, describe, expect, test } from 'bun:test'
import { EXCEL_WORDS } from './excel-words'
import { file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Lines').locator.id
})

describe('a refused line', () => {
  test('a store code given twice reads as a sentence: the same store code as the line before', () => {
    const csv = 'Store Code;Name;Address;Lat;Lng\r\nF040;A;a;52,5;13,4\r\nF040;B;b;52,5;13,4\r\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('twice.csv', csv))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      '  line 3 (external_id "F040"): the same store code as line 2; give each external_id once.\n',
    )
  })

  test("a dry run's refusal names the columns read as another field, as its summary does", () => {
    // A back office's "ID" is the store code the problem speaks of.
    const csv = '\uFEFFID;Name;Address;Lat;Lng\r\n48049;A;a;52,5;13,4\r\n48049;A;a;52,5;13,4\r\n'
    const path = file('export.csv', csv)
    const dry = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect(dry.code).toBe(1)
    expect(dry.stderr.split('\n').slice(1)).toEqual([
      '  line 3 (external_id "48049"): repeats line 2; give each store once.',
      'Columns read: ID as external_id, Name, Address, Lat, Lng.',
      '',
    ])
    // An import for real says the problems alone, as it did.
    const real = storeloc('locations', 'import', locatorId, '--file', path)
    expect(real.stderr).not.toContain('Columns read')
  })

  test('a status cell that is no status names its column, as StoreRocket\'s "visible" is', () => {
    const csv = 'name,address,lat,lng,visible\nA,a,52.5,13.4,2\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('visible.csv', csv))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      '\n  line 2 ("A"): The "visible" column must be a status; got "2". Write published (also',
    )
  })

  test('rows whose cells are out of their columns are listed with the rest, each by its line and store', () => {
    const csv =
      'external_id,name,address,lat,lng\r\nS1,Alpha,"1 Princes Street, Edinburgh",55.9533,-3.1883\r\n' +
      'S2,Beta,10 Byres Road\r\nGlasgow,55.8721,-4.288\r\nS3,Gamma,2 Princes Street, Edinburgh,55.95,-3.18\r\n,Delta,3 Main St,abc,-3\r\n'
    const path = file('columns.csv', csv)
    const r = storeloc('locations', 'import', locatorId, '--file', path)
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      [
        `storeloc: Nothing was imported from ${path}: 4 of 5 locations cannot be written as sent; nothing was written.`,
        '  line 3 (external_id "S2"): This row has 3 of the header\'s 5 cells, and line 4 the rest: a line break in the cell in column C ("10 Byres Road / Glasgow") cuts the row in two. Put that cell in double quotes, or take the line break out.',
        '  line 4: The rest of line 3, cut from it by a line break in a cell without double quotes.',
        '  line 5 (external_id "S3"): This row has text in column F, past the header\'s last column (E). Put any cell that contains "," in double quotes, or name the extra column in the header.',
        '  line 6 ("Delta"): The "lat" column must be a number; got "abc". Write a decimal number such as 48.8566 or -3.7074 (48°51\'24"N, 48.8566 N and 48.8566° are read too).',
        '',
      ].join('\n'),
    )
    expect(json('locations', 'export', locatorId)).toEqual([])
  })
})

describe('lines above the header', () => {
  test("a sheet's title line above its header is skipped, and the summary says so", () => {
    const csv =
      'Filialliste – Stand 01.12.2026;;;\r\n;;;\r\nFilialnummer;Name;Adresse;Breitengrad;Längengrad\r\n' +
      'F1;Radhaus Köln;Schildergasse 12, 50667 Köln;50,9362;6,9543\r\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('titled.csv', csv), '--dry-run')
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout.split('\n').slice(0, 3)).toEqual([
      expect.stringContaining('1 to create'),
      'Check 1 location:',
      '  line 4 (external_id "F1"): The header is line 3: line 1 ("Filialliste – Stand 01.12.2026") was above it and read as no store. If it is a store, move it below the header.',
    ])
  })

  test('lines above the header that may be stores keep the file refused', () => {
    const csv =
      'F0;Altstadt;Markt 1;50,9;6,9\r\nFilialnummer;Name;Adresse;Breitengrad;Längengrad\r\nF1;A;b;50,9;6,9\r\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('row-above.csv', csv), '--dry-run')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('Delete the lines above line 2.')
  })
})

describe('a delete column', () => {
  const STORES =
    'external_id,name,address,lat,lng\r\nS1,Alpha,"1 Princes Street, Edinburgh",55.9533,-3.1883\r\nS2,Beta,"2 Princes Street, Edinburgh",55.95,-3.18\r\n'

  test('a row whose delete cell says yes deletes its store, as a delete item does; others are read as rows', () => {
    expect(storeloc('locations', 'import', locatorId, '--file', file('stores.csv', STORES)).code).toBe(0)
    const csv =
      'external_id,name,address,lat,lng,delete\r\nS1,Alpha,"1 Princes Street, Edinburgh",55.9533,-3.1883,yes\r\n' +
      'S2,Beta,"2 Princes Street, Edinburgh",55.95,-3.18,\r\nS3,Gamma,"3 Princes Street, Edinburgh",55.95,-3.18,FALSE\r\n'
    const r = json('locations', 'import', locatorId, '--file', file('delete.csv', csv))
    expect([r.created, r.updated, r.unchanged, r.deleted]).toEqual([1, 0, 1, 1])
    expect(json('locations', 'export', locatorId).map((l: { external_id: string }) => l.external_id)).toEqual([
      'S2',
      'S3',
    ])
  })

  test("Excel's TRUE in other languages (WAHR, VERDADERO) deletes; its FALSE (FALSCH, ONWAAR) keeps", () => {
    const rows = (cell: (yes: string, no: string) => [string, string]) =>
      EXCEL_WORDS.flatMap(([yes, no], i) => {
        const [deleted, kept] = cell(yes, no)
        return [
          `T${i},North ${i},"${i} Princes Street, Edinburgh",55.95,-3.18${deleted}\r\n`,
          `F${i},South ${i},"${i} Rose Street, Edinburgh",55.95,-3.19${kept}\r\n`,
        ]
      }).join('')
    const stores = `external_id,name,address,lat,lng\r\n${rows(() => ['', ''])}`
    expect(json('locations', 'import', locatorId, '--file', file('stores.csv', stores)).created).toBe(20)
    const csv = `external_id,name,address,lat,lng,delete\r\n${rows((yes, no) => [`,${yes}`, `,${no}`])}`
    const r = json('locations', 'import', locatorId, '--file', file('delete.csv', csv))
    expect([r.deleted, r.unchanged]).toEqual([EXCEL_WORDS.length, EXCEL_WORDS.length])
    const left = json('locations', 'export', locatorId).map((l: { external_id: string }) => l.external_id)
    expect(left.sort()).toEqual(EXCEL_WORDS.map((_, i) => `F${i}`).sort())
  })

  test('SAND, also an English word, deletes only in a Danish file: else its line is refused', () => {
    expect(storeloc('locations', 'import', locatorId, '--file', file('stores.csv', STORES)).code).toBe(0)
    const sheet = (header: string, cells: [string, string]) =>
      file(
        'delete.csv',
        `external_id,name,address,lat,lng,${header}\r\n` +
          `S1,Alpha,"1 Princes Street, Edinburgh",55.9533,-3.1883,${cells[0]}\r\n` +
          `S2,Beta,"2 Princes Street, Edinburgh",55.95,-3.18,${cells[1]}\r\n`,
      )
    const ids = () => json('locations', 'export', locatorId).map((l: { external_id: string }) => l.external_id)
    const english = storeloc('locations', 'import', locatorId, '--file', sheet('delete', ['Sand', '']))
    expect(english.code).toBe(1)
    expect(english.stderr).toContain(
      `line 2 (external_id "S1"): "Sand" in the "delete" column is Danish Excel's TRUE only in a Danish file`,
    )
    // Yext's Closed column: a store is not hidden by it either.
    const closed = storeloc('locations', 'import', locatorId, '--file', sheet('Closed', ['sand', 'false']))
    expect(closed.stderr).toContain(`line 2 (external_id "S1"): "sand" in the "Closed" column is Danish Excel's TRUE`)
    expect(json('locations', 'export', locatorId).map((l: { status: string }) => l.status)).toEqual([
      'published',
      'published',
    ])
    // A column named in Danish, or holding FALSK as well, is Danish Excel's.
    expect(json('locations', 'import', locatorId, '--file', sheet('Slet', ['SAND', ''])).deleted).toBe(1)
    expect(ids()).toEqual(['S2'])
    expect(json('locations', 'import', locatorId, '--file', file('again.csv', STORES)).created).toBe(1)
    expect(json('locations', 'import', locatorId, '--file', sheet('delete', ['SAND', 'FALSK'])).deleted).toBe(1)
    expect(ids()).toEqual(['S2'])
  })

  test('a delete cell neither yes nor no is a problem of its line; nothing is written', () => {
    expect(storeloc('locations', 'import', locatorId, '--file', file('stores.csv', STORES)).code).toBe(0)
    const csv = 'external_id,name,address,lat,lng,delete\r\nS9,Iota,"9 Princes Street, Edinburgh",55.95,-3.18,later\r\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('delete.csv', csv))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      '  line 2 (external_id "S9"): "later" in the "delete" column is neither yes nor no: write yes to delete the store, or leave the cell empty to keep it.\n',
    )
    expect(r.stderr).not.toContain('is required') // the row's other cells are read as any row's
    expect(json('locations', 'export', locatorId)).toHaveLength(2)
  })
})

describe('the geocoding line', () => {
  test('addresses placed on fewer points than stores say how many points: stores of one postcode share it', () => {
    // Three stores at two ZIP codes: the built-in geocoder places each at its ZIP code's point.
    const csv =
      'Store Code,Name,Address\n' +
      'S1,A,"1 Main St, New York, NY 10001"\n' +
      'S2,B,"5 Main St, New York, NY 10001"\n' +
      'S3,C,"1 State St, Chicago, IL 60601"\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('points.csv', csv), '--dry-run')
    expect(r.code).toBe(0)
    expect(r.stdout.split('\n')[1]).toStartWith(
      'Geocoded 3 addresses: 3 postcode, on 2 points (stores placed at one postcode or town stand on one point).',
    )
  })
})

describe('a misspelt country', () => {
  test('a name as close to two countries names both: Austrlia, Australia or Austria', () => {
    const csv =
      'Store Code,Name,Street,Postcode,City,Country,Lat,Lng\nA1,Perth,1 Hay St,6000,Perth,Austrlia,-31.95,115.86\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('austrlia.csv', csv), '--dry-run')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(
      'line 2 (external_id "A1"): The country "Austrlia" is no country name the service knows: did you mean Australia or Austria? It is kept in the address as written.',
    )
  })
})

describe('a last line read as no store, with --delete-missing', () => {
  test('naming a store it would delete, by its code, is refused, dry run or not: the store stays', () => {
    const header = 'external_id,name,address,lat,lng\n'
    const rows = 'S1,Alpha,"1 Main St",39.7,-89.6\nS2,Beta,"2 Main St",39.71,-89.61\n'
    const seed = file('seed.csv', `${header}${rows}2,Store 2,"3 Main St",39.72,-89.62\n`)
    expect(storeloc('locations', 'import', locatorId, '--file', seed).code).toBe(0)
    // The store's code written without its trailing commas: one cell, the count of the rows above.
    const path = file('cut.csv', `${header}${rows}2\n`)
    for (const dry of [['--dry-run'], []]) {
      const r = storeloc('locations', 'import', locatorId, '--file', path, '--delete-missing', ...dry)
      expect(r.code).toBe(1)
      expect(r.stderr).toBe(
        [
          `storeloc: Nothing was imported from ${path}: --delete-missing would delete a location that line 4 names, though it was read as no store; nothing was written.`,
          '  Refused: line 4 ("2") was read as no store (a totals row, or a count of the rows above it), but it names the location "Store 2" (external_id "2"), which nothing else in the file keeps. If line 4 is that store, write its row in full, with its name and its address or coordinates; if not, delete line 4. Then send it again.',
          '',
        ].join('\n'),
      )
    }
    const kept = json('locations', 'export', locatorId).map((l: { external_id: string }) => l.external_id)
    expect(kept.sort()).toEqual(['2', 'S1', 'S2'])
  })
})
