// Files as other tools write them, byte for byte: a back office's dump that ends in a DOS end of
// file mark or separates its cells with "|".
import { describe, expect, test } from 'bun:test'
import { readLocationsCsv } from '../../src/locations/csv'

/** Text as Windows-1252 writes it (Latin-1 for these letters). */
const latin1 = (text: string) => Buffer.from(text, 'latin1')

describe('a back office dump', () => {
  const dump =
    'FILIALNR;BEZEICHNUNG;STRASSE;PLZ;ORT;LAND\r\n' +
    '0001;Müller Räder;Königstraße 5;70173;Stuttgart;DE\r\n' +
    '0002;Café Größe;Hauptstraße 1;80331;München;DE\r\n'

  test('a DOS end of file mark (Ctrl-Z) after the last line is no row, in any encoding', () => {
    for (const end of ['\x1a', '\x1a\r\n', '\r\n\x1a']) {
      const read = readLocationsCsv(latin1(dump + end), [], { encoding: 'windows-1252' })
      expect(read.rows.map((r) => r.body.name)).toEqual(['Müller Räder', 'Café Größe'])
      expect(read.rows.flatMap((r) => [...r.notes, ...r.problems.map((p) => p.message)])).toEqual([])
      const utf8 = readLocationsCsv(new TextEncoder().encode(dump + end))
      expect(utf8.rows.map((r) => r.body.name)).toEqual(['Müller Räder', 'Café Größe'])
    }
  })

  test('cells separated by "|" are read as by ","', () => {
    const read = readLocationsCsv(latin1(dump.replaceAll(';', '|')), [], { encoding: 'windows-1252' })
    expect(read.rows.map((r) => r.body)).toEqual([
      { external_id: '0001', name: 'Müller Räder', address: 'Königstraße 5, 70173 Stuttgart, DE' },
      { external_id: '0002', name: 'Café Größe', address: 'Hauptstraße 1, 80331 München, DE' },
    ])
    // A "|" in a header cell of a file with commas stays in its cell.
    const commas = readLocationsCsv('name,address,Notes|Hinweise\nA,"1 Main St, Springfield",x|y\n')
    expect(commas.rows[0]!.body).toMatchObject({ name: 'A', address: '1 Main St, Springfield' })
    expect(commas.unknown).toEqual(['Notes|Hinweise'])
  })

  test('a "FILIALE" column of branch numbers beside "BEZEICHNUNG" is no name: the designation is', () => {
    const read = readLocationsCsv(latin1(dump.replace('FILIALNR', 'FILIALE')), [], { encoding: 'windows-1252' })
    expect(read.rows.map((r) => [r.body.external_id, r.body.name])).toEqual([
      ['0001', 'Müller Räder'],
      ['0002', 'Café Größe'],
    ])
    expect(read.unknown).toEqual([])
    // Beside a column of store codes, the branch numbers are not read.
    const coded = readLocationsCsv(dump.replace('FILIALNR;', 'Code;FILIALE;').replaceAll('\r\n000', '\r\nX;000'))
    expect(coded.rows.map((r) => [r.body.external_id, r.body.name])).toEqual([
      ['X', 'Müller Räder'],
      ['X', 'Café Größe'],
    ])
    expect(coded.unknown).toEqual(['FILIALE'])
    // A column of branch names keeps its place before the designation, as before.
    const named = readLocationsCsv('Filiale;Bezeichnung;Adresse\nStuttgart Mitte;Müller GmbH;Königstraße 5\n')
    expect(named.rows[0]!.body.name).toBe('Stuttgart Mitte')
  })

  test("a line of dashes under the header and a count of the rows at the bottom (SQL Server's sqlcmd) are no rows", () => {
    const sqlcmd =
      'FILIALNR,BEZEICHNUNG,STRASSE,PLZ,ORT,BREITE,LAENGE\r\n' +
      '--------,-----------,-------,-----,---------,------,------\r\n' +
      '0001    ,Müller Räder,Königstraße 5,70173,Stuttgart,48.7784,9.18\r\n' +
      '0002    ,Café Größe,Marienplatz 1,80331,München,48.1374,11.5755\r\n\r\n(2 rows affected)\r\n'
    const read = readLocationsCsv(sqlcmd)
    expect(read.rows.map((r) => [r.line, r.body.external_id, r.problems])).toEqual([
      [3, '0001', []],
      [4, '0002', []],
    ])
    expect(read.rows[0]!.notes).toEqual([
      'Line 6 ("(2 rows affected)") at the bottom names no store: read as a totals row, not a store. If it is one, give it its name and its address or coordinates.',
    ])
    // A dump's own count line; a line of one cell that counts no rows is refused as a row cut short.
    const counted = readLocationsCsv(`${dump}*** 2 Datensätze ***\r\n`)
    expect(counted.rows.map((r) => r.body.name)).toEqual(['Müller Räder', 'Café Größe'])
    const other = readLocationsCsv(`${dump}Stuttgart Ost\r\n`)
    expect(other.rows[2]!.problems[0]!.message).toStartWith('This row has 1 cell but the header has 6 columns.')
  })
})

test("SAP's list output: rulers of dashes above and below the header and the rows, a cell on each side of them", () => {
  const rule = '-'.repeat(72)
  const sap = [
    '07.12.2026          Filialliste          1',
    '',
    rule,
    '|Filiale|Bezeichnung |Straße       |PLZ  |Ort      |Breite |Länge  |',
    `|${'-'.repeat(70)}|`,
    '|0001   |Müller Räder|Königstraße 5|70173|Stuttgart|48,7784|9,18   |',
    '|0002   |Café Größe  |Marienplatz 1|80331|München  |48,1374|11,5755|',
    rule,
  ].join('\r\n')
  const read = readLocationsCsv(sap)
  expect(read.rows.map((r) => [r.line, r.body.external_id, r.body.name, r.problems])).toEqual([
    [6, '0001', 'Müller Räder', []],
    [7, '0002', 'Café Größe', []],
  ])
  // The title lines above are said; the ruler below is no line of a store to say.
  expect(read.rows[0]!.notes).toHaveLength(1)
  expect(read.rows[0]!.notes[0]).toStartWith('The header is line 4: lines 1, 3 (')
})

test('PostgreSQL\'s psql output: a ruler of dashes crossed by "+" under the header, and its count of rows', () => {
  const psql = [
    ' filialnr | bezeichnung  | strasse       | plz   | ort',
    '----------+--------------+---------------+-------+-----------',
    ' 0001     | Müller Räder | Königstraße 5 | 70173 | Stuttgart',
    ' 0002     | Café Größe   | Marienplatz 1 | 80331 | München',
    '(2 rows)',
    '',
  ].join('\n')
  const read = readLocationsCsv(psql)
  expect(read.rows.map((r) => [r.line, r.body.external_id, r.body.name, r.problems])).toEqual([
    [3, '0001', 'Müller Räder', []],
    [4, '0002', 'Café Größe', []],
  ])
  expect(read.rows[0]!.notes).toEqual([
    'Line 5 ("(2 rows)") at the bottom names no store: read as a totals row, not a store. If it is one, give it its name and its address or coordinates.',
  ])
})

test('a dump of as many stores as a caller takes is read whole with its rulers and its count of rows', () => {
  const rows = [1, 2, 3].map((i) => `000${i},Store ${i},"${i} Main St, Springfield"\r\n`).join('')
  const ruler = '----,-----,-------\r\n'
  for (const tail of ['(3 rows affected)\r\n', ruler]) {
    const read = readLocationsCsv(`FILIALNR,BEZEICHNUNG,ADRESSE\r\n${ruler}${rows}${tail}`, [], { maxRows: 3 })
    // A fourth row would tell the caller that the file has more stores than it takes.
    expect(read.rows.map((r) => [r.body.external_id, r.problems])).toEqual([
      ['0001', []],
      ['0002', []],
      ['0003', []],
    ])
  }
})

describe('a sales sheet', () => {
  test('a totals row with "Total" under the store codes, its name empty, is no store', () => {
    const sheet =
      'Store Code,Name,Address,Latitude,Longitude,Sales\r\n' +
      'S1,Cycle Hub,"12 Briggate, Leeds",53.7972,-1.5417,100\r\n' +
      'S2,Cycle Hub York,"3 Coney St, York",53.9591,-1.0842,50\r\n' +
      'Total,,,,,150\r\n'
    const read = readLocationsCsv(sheet)
    expect(read.rows.map((r) => [r.body.external_id, r.problems])).toEqual([
      ['S1', []],
      ['S2', []],
    ])
    expect(read.rows[0]!.notes[0]).toStartWith('Line 4 ("Total, 150") at the bottom names no store')
    // A store coded "Total" with its name is a store.
    const named = readLocationsCsv(sheet.replace('Total,,', 'Total,Total Bikes,'))
    expect(named.rows.map((r) => r.body.external_id)).toEqual(['S1', 'S2', 'Total'])
  })
})
