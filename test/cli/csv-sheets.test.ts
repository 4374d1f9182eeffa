// storeloc locations import of files as shop owners save their sheets: Excel, Numbers, Google
// Sheets and LibreOffice exports, and the lines a sheet holds that are no stores (a totals row,
// a second sheet pasted below with its header, merged cells' empty leftovers).
import { beforeEach, describe, expect, test } from 'bun:test'
import { file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Sheets').locator.id
})

const macRoman = (text: string) => {
  const mac = new TextDecoder('macintosh')
  const bytes = new Map(Array.from({ length: 256 }, (_, b) => [mac.decode(Uint8Array.of(b)), b] as const))
  return Uint8Array.from([...text].map((c) => bytes.get(c)!))
}

type Exported = { name: string; coordinates: { lat: number; lng: number } }
const points = () =>
  json('locations', 'export', locatorId).map((l: Exported) => [l.name, l.coordinates.lat, l.coordinates.lng])

/** A dry run of importing `csv` saved as `name`: the run, and the path its messages name. */
function dryRun(name: string, csv: string) {
  const path = file(name, csv)
  return { path, ...storeloc('locations', 'import', locatorId, '--file', path, '--dry-run') }
}

/** Imports `path` and its dry run: nothing imported, exit 0, and `note` said in the summary and in --json. */
function importsNothing(path: string, note: string): void {
  const r = storeloc('locations', 'import', locatorId, '--file', path)
  expect(r.code).toBe(0)
  expect(r.stdout).toBe(`Imported ${path} into ${locatorId}: 0 created, 0 updated, 0 unchanged, 0 deleted.\n${note}\n`)
  expect(json('locations', 'import', locatorId, '--file', path, '--dry-run')).toMatchObject({
    created: 0,
    results: [],
    notes: [note],
  })
}

describe('exports of spreadsheet programs', () => {
  const EDINBURGH = ['1 Princes Street, Edinburgh', 55.9533, -3.1883] as const
  const sheets: [program: string, bytes: string | Uint8Array, encoding?: string][] = [
    [
      'Excel "CSV UTF-8", English',
      '\uFEFFName,Address,Latitude,Longitude\r\nA,"1 Princes Street, Edinburgh",55.9533,-3.1883\r\n',
    ],
    [
      'Excel "CSV UTF-8", German: ";" and decimal commas',
      '\uFEFFName;Adresse;Breitengrad;Längengrad\r\nA;1 Princes Street, Edinburgh;55,9533;-3,1883\r\n',
    ],
    [
      'Excel "CSV (Macintosh)": Mac Roman, CR line ends',
      macRoman('Name;Adresse;Breite;Länge\rA;1 Princes Street, Edinburgh;55,9533;-3,1883\r'),
      'macintosh',
    ],
    ['Numbers: no byte order mark, ";"', 'Name;Adresse;Lat;Lng\r\nA;"1 Princes Street, Edinburgh";55,9533;-3,1883\r\n'],
    [
      'Google Sheets: no line end after the last row',
      'name,address,lat,lng\r\nA,"1 Princes Street, Edinburgh",55.9533,-3.1883',
    ],
    [
      'LibreOffice, ";" and decimal commas, every cell quoted',
      '"name";"address";"lat";"lng"\n"A";"1 Princes Street, Edinburgh";"55,9533";"-3,1883"\n',
    ],
    [
      'LibreOffice, "," and decimal commas in quotes',
      'name,address,lat,lng\n"A","1 Princes Street, Edinburgh","55,9533","-3,1883"\n',
    ],
    ['a trailing empty column', 'name,address,lat,lng,\r\nA,"1 Princes Street, Edinburgh",55.9533,-3.1883,\r\n'],
  ]
  for (const [program, bytes, encoding] of sheets) {
    test(`${program}: read as written`, () => {
      const path = file('stores.csv', bytes)
      const argv = ['locations', 'import', locatorId, '--file', path, ...(encoding ? ['--encoding', encoding] : [])]
      const read = json(...argv)
      expect(read.created).toBe(1)
      expect(read.results[0].warnings).toEqual([])
      expect(points()).toEqual([['A', EDINBURGH[1], EDINBURGH[2]]])
    })
  }
})

describe('lines that are no stores', () => {
  test('a title of one cell above a ";" header (Numbers\' table name) does not make "," the separator', () => {
    const csv = 'Tabelle 1\r\nName;Adresse;Lat;Lng\r\nA;1 Princes Street, Edinburgh;55,9533;-3,1883\r\n'
    const read = json('locations', 'import', locatorId, '--file', file('numbers.csv', csv))
    expect(read.created).toBe(1)
    expect(read.results[0].warnings).toEqual([
      'The header is line 2: line 1 ("Tabelle 1") was above it and read as no store. If it is a store, move it below the header.',
    ])
    expect(points()).toEqual([['A', 55.9533, -3.1883]])
  })

  test('totals rows at the bottom are read as no store, and said; a store named "Total" with an address is one', () => {
    const csv =
      'Name,Address,Lat,Lng,Staff\r\nA,"1 Princes Street, Edinburgh",55.9533,-3.1883,4\r\nTotal,"10 Byres Road, Glasgow",55.8721,-4.288,6\r\n,,,,10\r\nTotal: 2 stores,,,,10\r\n'
    const r = dryRun('t.csv', csv)
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('2 to create')
    expect(r.stdout).toContain(
      'line 2: Lines 4, 5 ("10", "Total: 2 stores, 10") at the bottom name no store: read as totals rows, not stores. If one is a store, give it its name and its address or coordinates.',
    )
  })

  test('a file of one row is read as that row, not as a totals row below no store', () => {
    const csv = 'Name,Region,Country,Staff\r\nTotale,Lazio,IT,4\r\n'
    const r = dryRun('one.csv', csv)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('line 2 ("Totale"): The address "Lazio, IT" could not be geocoded.')
  })

  test('a row named "Total" that fills an address part, its region or country too, is a store', () => {
    const csv =
      'Name,Street,City,Region,Country,Staff\r\nA,Hauptstraße 1,Berlin,,DE,3\r\nTotal Tankstelle,,,Lazio,IT,2\r\n'
    const r = dryRun('region.csv', csv)
    expect(`${r.stdout}${r.stderr}`).not.toContain('totals row')
    expect(r.stderr).toContain('line 3 ("Total Tankstelle"): The address "Lazio, IT" could not be geocoded.')
  })

  test('a second sheet pasted below with the same header: the header line is read as no store, and said', () => {
    const csv =
      'name,address,lat,lng\r\nA,"1 Princes Street, Edinburgh",55.9533,-3.1883\r\n,,,\r\nName,Address,Lat,Lng\r\nB,"10 Byres Road, Glasgow",55.8721,-4.288\r\n'
    const read = json('locations', 'import', locatorId, '--file', file('two.csv', csv))
    expect(read.created).toBe(2)
    expect(read.results[0].warnings).toEqual([
      'Line 4 repeats the header (line 1), as a second sheet pasted below the first does: read as no store.',
    ])
    expect(points().map(([name]: [string]) => name)).toEqual(['A', 'B'])
  })

  test('a file whose every line below the header repeats it imports nothing, as an empty one does, and says why', () => {
    const path = file('headers.csv', 'Name,Address,Lat,Lng\r\nName,Address,Lat,Lng\r\n\r\nname,address,lat,lng\r\n')
    const note =
      'Lines 2, 4 repeat the header (line 1), as files of a header alone joined into one do: read as no store. No line below the header is a store, so nothing is imported: export the sheet again with its rows.'
    importsNothing(path, note)
    expect(json('locations', 'export', locatorId)).toEqual([])
  })

  test('a file of its header alone imports nothing, and says so as a file of repeated headers does', () => {
    const path = file('header.csv', 'Name,Address,Lat,Lng\r\n,,,\r\n')
    const note =
      'Line 1 is the header, and no line below it holds a store, so nothing is imported: export the sheet again with its rows.'
    importsNothing(path, note)
  })

  test('a title with a comma above a ";" header ("Store list, 2026") is read as a title, not the header', () => {
    const csv = 'Store list, 2026\r\nName;Adresse;Lat;Lng\r\nA;1 Princes Street, Edinburgh;55,9533;-3,1883\r\n'
    const read = json('locations', 'import', locatorId, '--file', file('title.csv', csv))
    expect(read.created).toBe(1)
    expect(read.results[0].warnings).toEqual([
      'The header is line 2: line 1 ("Store list, 2026") was above it and read as no store. If it is a store, move it below the header.',
    ])
    expect(points()).toEqual([['A', 55.9533, -3.1883]])
  })

  test('a "sep=," line is kept as the separator though a ";" header lies below a title', () => {
    const csv = 'sep=,\r\nStore list; 2026\r\nName;Adresse;Lat;Lng\r\nA;1 Princes Street, Edinburgh;55,9533;-3,1883\r\n'
    const { path, ...r } = dryRun('sep.csv', csv)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('names no location field')
  })

  test("a second sheet pasted below with another header is refused naming that line, not as its rows' cells", () => {
    const csv =
      'name,address,lat,lng\r\nA,"1 Princes Street, Edinburgh",55.9533,-3.1883\r\n\r\nShop,Street,City,Phone\r\nB,10 Byres Road,Glasgow,0141 123\r\n'
    const { path, ...r } = dryRun('other.csv', csv)
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      `storeloc: Nothing was imported: ${path} cannot be read as CSV: line 4: this line names columns (Street, City, Phone) as a header does: another sheet's rows pasted below this one's, read in the columns of the header on line 1. Put every row under one header, in its columns, or import each sheet as a file of its own.\n`,
    )
  })
})

describe('merged cells', () => {
  test('a row below a merged city cell that cannot be placed is told that its city cell is empty, and which it had', () => {
    const csv =
      'Region,Name,Street,Postcode,City\r\nBavaria,Café Süd,Sendlinger Str. 1,80331,München\r\n,Café Nord,Leopoldstr. 2,80802,\r\n'
    const r = dryRun('merged.csv', csv)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      'line 3 ("Café Nord"): The address "Leopoldstr. 2, 80802" could not be geocoded. It gives the postcode 80802 but no town or country, and a postcode alone may be of several countries (US, DE, FR, ES, IT): add the town and the country after it. Fix the address or fill in the row\'s "lat" and "lng" columns. Its "Region" and "City" cells are empty (line 2 has "Bavaria" and "München"), as the rows below a merged cell\'s first are: in the spreadsheet, unmerge the cells and fill each row\'s in.',
    )
  })

  test('a row whose region and country differ from the row above only in case, spaces and accents is told of the merged city cell', () => {
    const csv =
      'Name,Street,Postcode,City,Region,Country\r\nCafé Süd,Xyzzy Plugh,,Cair Paravel,Bavière ,narnia \r\nCafé Nord,Frobozz,,,BAVIERE,NARNIA\r\n'
    const r = dryRun('folded.csv', csv)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      'Its "City" cell is empty (line 2 has "Cair Paravel"), as the rows below a merged cell\'s first are: in the spreadsheet, unmerge the cells and fill each row\'s in.',
    )
  })

  test('a row whose own country differs from the row above is not told of a merged city cell: none spans two countries', () => {
    const csv =
      'Store Code,Name,Address,City,Country\r\nB7,Far,7 Main St,Springfield,US\r\nB8,Nowhere,Xyzzy Plugh,,Narnia\r\n'
    const r = dryRun('countries.csv', csv)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('line 3 (external_id "B8"): The address "Xyzzy Plugh')
    expect(r.stderr).not.toContain('merged cell')
  })

  test('rows past an empty line are not told of a merged cell above it: one spans adjacent lines', () => {
    const row = (name: string) => `,${name},Leopoldstr. 2,80802,\r\n`
    const csv = `Region,Name,Street,Postcode,City\r\nBavaria,Café Süd,Sendlinger Str. 1,80331,München\r\n${row('B')}${row('C')}${row('D')},,,,\r\n${row('E')}${row('F')}`
    const r = dryRun('gap.csv', csv)
    expect(r.code).toBe(1)
    const unplaced = `The address "Leopoldstr. 2, 80802" could not be geocoded. It gives the postcode 80802 but no town or country, and a postcode alone may be of several countries (US, DE, FR, ES, IT): add the town and the country after it. Fix the address or fill in the row's "lat" and "lng" columns.`
    expect(r.stderr.split('\n').filter((line) => line.startsWith('  '))).toEqual([
      `  3 rows (line 3, line 4, line 5): ${unplaced} Its "Region" and "City" cells are empty (line 2 has "Bavaria" and "München"), as the rows below a merged cell's first are: in the spreadsheet, unmerge the cells and fill each row's in.`,
      `  line 7 ("E"): ${unplaced}`,
      `  line 8 ("F"): ${unplaced}`,
    ])
  })

  test('a line of days below a merged "Öffnungszeiten" cell names its hours columns: read so, and said', () => {
    const csv =
      '\uFEFFName;Adresse;Breitengrad;Längengrad;Öffnungszeiten;;;;;;\r\n;;;;Mo;Di;Mi;Do;Fr;Sa;So\r\n' +
      'A;1 Princes Street, Edinburgh;55,9533;-3,1883;09:00-18:00;09:00-18:00;09:00-18:00;09:00-18:00;09:00-18:00;10:00-14:00;closed\r\n'
    const read = json('locations', 'import', locatorId, '--file', file('tage.csv', csv))
    expect(read.created).toBe(1)
    expect(read.results[0].warnings).toEqual([
      'Line 2 names days below the header (Mo in column E, Di in column F, Mi in column G, Do in column H, Fr in column I, Sa in column J, So in column K): read as the headers of those columns\' hours, as a merged "Öffnungszeiten" cell above them exports, not as a store.',
    ])
    const [stored] = json('locations', 'export', locatorId)
    expect(stored.hours).toEqual({
      monday: '09:00-18:00',
      tuesday: '09:00-18:00',
      wednesday: '09:00-18:00',
      thursday: '09:00-18:00',
      friday: '09:00-18:00',
      saturday: '10:00-14:00',
      sunday: 'closed',
    })
  })

  test('a line of days below a column of another field is refused, saying where to write them', () => {
    const csv =
      'Name,Address,Phone,,\r\n,,Monday,Tuesday,Wednesday\r\nA,"1 Princes Street, Edinburgh",9-18,9-18,9-18\r\n'
    const { path, ...r } = dryRun('phone.csv', csv)
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      `storeloc: Nothing was imported: ${path} cannot be read as CSV: line 2: this line names days (Monday in column C, Tuesday in column D, Wednesday in column E) below the header, but Monday is below "Phone", a column of another field. A header is one line: write each day's name in line 1, over the column of its hours, and delete line 2.\n`,
    )
  })

  test('a header of a line of days repeated below, its days spelt otherwise, is read as no store, and said', () => {
    const header = (days: string) => `Name,Address,Lat,Lng,Opening hours,,\r\n,,,,${days}\r\n`
    const csv = `${header('Monday,Tuesday,Wednesday')}A,"1 Princes Street, Edinburgh",55.9533,-3.1883,09:00-18:00,,\r\n${header('Mon,Tue,Wed')}B,"10 Byres Road, Glasgow",55.8721,-4.288,,09:00-18:00,\r\n`
    const read = json('locations', 'import', locatorId, '--file', file('regions.csv', csv))
    expect(read.created).toBe(2)
    expect(read.results[0].warnings[1]).toBe(
      'Lines 4, 5 repeat the header (lines 1 and 2), as a second sheet pasted below the first does: read as no store.',
    )
    const hours = json('locations', 'export', locatorId).map(({ hours }: { hours: Record<string, string> }) => [
      hours.monday,
      hours.tuesday,
    ])
    expect(hours).toEqual([
      ['09:00-18:00', ''],
      ['', '09:00-18:00'],
    ])
  })

  test("a line of days among the rows is refused as a header's second line, not as another sheet's header", () => {
    const csv =
      'Name,Address,Mon,Tue,Wed\r\nA,"1 Princes Street, Edinburgh",9-18,9-18,9-18\r\n,,Lundi,Mardi,Mercredi\r\n'
    const { path, ...r } = dryRun('late.csv', csv)
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      `storeloc: Nothing was imported: ${path} cannot be read as CSV: line 3: this line names days (Lundi, Mardi, Mercredi) as the second line of a header does, below rows of stores. A header is one line, at the top: write each day's name in the header (line 1), over the column of its hours, and delete line 3; or, if the header names them already, delete line 3.\n`,
    )
  })

  test("a header's line of days again among the rows, without the header above it, is refused as well", () => {
    const csv =
      'Name,Address,Opening hours,,\r\n,,Mon,Tue,Wed\r\nA,"1 Princes Street, Edinburgh",9-18,9-18,9-18\r\n,,Mon,Tue,Wed\r\n'
    const r = dryRun('again.csv', csv)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      'line 4: this line names days (Mon, Tue, Wed) as the second line of a header does, below rows of stores.',
    )
  })

  test('a line of days with a cell that names no day is refused as the line of days, saying what to delete', () => {
    const csv =
      'Name;Adresse;Öffnungszeiten;;;Telefon\r\n;;Mo-Fr;Sa;So;Mobil\r\nA;1 Princes Street, Edinburgh;9-18;10-14;zu;0170 123\r\n'
    const { path, ...r } = dryRun('mobil.csv', csv)
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      `storeloc: Nothing was imported: ${path} cannot be read as CSV: line 2: this line names days below the header (Mo-Fr in column C, Sa in column D, So in column E), as a merged "Öffnungszeiten" cell above them exports, but also Mobil in column F, which is no day. Delete Mobil from line 2, and its days head those columns' hours; or write each day's name in line 1, over the column of its hours, and delete line 2.\n`,
    )
  })

  test('a line of days naming a day a column of line 1 names too is refused, naming both columns', () => {
    const csv =
      'Name;Adresse;Öffnungszeiten;;;Sonntag\r\n;;Mo-Fr;Sa;So;\r\nA;1 Princes Street, Edinburgh;9-18;10-14;zu;10-12\r\n'
    const { path, ...r } = dryRun('sonntag.csv', csv)
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      `storeloc: Nothing was imported: ${path} cannot be read as CSV: line 1: the columns "So" (column E) and "Sonntag" (column F) both fill Sunday's hours ("Sonntag" gives "10-12" on line 3). Delete or rename one of them.\n`,
    )
  })

  test('a line of days naming a day twice ("Sa-So", "Sonntag") below a merged cell: a column of notes is said, one of hours refused', () => {
    const header = 'Name;Adresse;Öffnungszeiten;;\r\n;;Mo-Fr;Sa-So;Sonntag\r\n'
    const notes = `${header}A;1 Princes Street, Edinburgh;9-18;10-14;nur nach Vereinbarung\r\n`
    const read = json('locations', 'import', locatorId, '--file', file('notiz.csv', notes), '--dry-run')
    expect([read.created, read.results[0].problems ?? []]).toEqual([1, []])
    expect(read.notes).toEqual([
      'The column "Sonntag" (column E) holds no hours, only text such as notes, so it is not read as Sunday\'s hours: "Sa-So" gives them. Rename it (for example "description") to import it.',
    ])
    // A store's row naming a day twice is no line of days: its own problem, as before.
    const row = dryRun('row.csv', 'Name;Tage\r\nA;Mo-Fr;Sa;Sa\r\n')
    expect([row.code, row.stderr]).toEqual([1, expect.stringContaining("past the header's last column (B)")])
    const { path, ...r } = dryRun('sonntag.csv', `${header}A;1 Princes Street, Edinburgh;9-18;10-14;10-12\r\n`)
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      `storeloc: Nothing was imported: ${path} cannot be read as CSV: line 1: the columns "Sa-So" (column D) and "Sonntag" (column E) both fill Sunday's hours ("Sonntag" gives "10-12" on line 3). Delete or rename one of them.\n`,
    )
  })

  test('a header of two lines, a merged cell above two columns, is refused saying to name each in the first', () => {
    const csv = 'Name,Address,Coordinates,\r\n,,Lat,Lng\r\nA,"1 Princes Street, Edinburgh",55.9533,-3.1883\r\n'
    const { path, ...r } = dryRun('two-line.csv', csv)
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      `storeloc: Nothing was imported: ${path} cannot be read as CSV: line 2: this line names columns (Lat, Lng) below the header, as a merged cell above them leaves: a header is one line. Write each column's name in line 1 (Lat in column C, Lng in column D) and delete line 2.\n`,
    )
  })
})
