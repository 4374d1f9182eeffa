// Locations CSV as a spreadsheet writes it: cells, quotes, separators, line ends and blank
// lines, and the files that cannot be read, refused with what to do.
import { describe, expect, test } from 'bun:test'
import { readLocationsCsv } from '../../src/locations/csv'
import { bodies, misread, readError } from './csv-read'

describe('reading cells', () => {
  test('quoted cells keep separators, doubled quotes and spaces inside; cells are trimmed', () => {
    const csv = 'name,address,description\n  "Café ""Le Bon""" , "1 Rue, Paris" ,  plain text  \n'
    expect(bodies(csv)).toEqual([{ name: 'Café "Le Bon"', address: '1 Rue, Paris', description: 'plain text' }])
  })

  test('a quote inside an unquoted cell is kept as written', () => {
    expect(bodies('name,description\nBob\'s "Bar",27" screen\n')).toEqual([
      { name: 'Bob\'s "Bar"', description: '27" screen' },
    ])
  })

  test('quoted line breaks stay in the cell, and later rows keep their file line numbers', () => {
    const csv = 'name,description\r\nA,"two\r\nlines"\r\n\r\nB,"x\ny\rz"\r\nC,c\r\n'
    const read = readLocationsCsv(csv)
    expect(read.rows.map((r) => r.line)).toEqual([2, 5, 8])
    expect(read.rows.map((r) => r.body.description)).toEqual(['two\r\nlines', 'x\ny\rz', 'c'])
    expect(misread(`${csv}D\r\n`).map((r) => r.line)).toEqual([9])
  })

  test('a UTF-8 BOM is not part of the first header, as a string or as bytes', () => {
    const csv = '\uFEFFid,name\nloc_1,Shop\n'
    expect(bodies(csv)).toEqual([{ id: 'loc_1', name: 'Shop' }])
    expect(bodies(new TextEncoder().encode(csv))).toEqual([{ id: 'loc_1', name: 'Shop' }])
    expect(readLocationsCsv(csv).unknown).toEqual([])
  })

  test('the separator is the one the header uses most outside quotes: comma, semicolon or tab', () => {
    const expected = [{ name: 'Shop, Inc', address: 'Rue 1; Paris' }]
    expect(bodies('name,address\n"Shop, Inc",Rue 1; Paris\n')).toEqual(expected)
    expect(bodies('name;address\nShop, Inc;"Rue 1; Paris"\n')).toEqual(expected)
    expect(bodies('name\taddress\nShop, Inc\tRue 1; Paris\n')).toEqual(expected)
    // Three commas inside quotes, two semicolons outside: a count that ignored quotes would pick ','.
    const quoted = readLocationsCsv('"Notes, a, b, c";name;address\nx;Shop;Rue\n')
    expect(quoted.columns.map((c) => c.header)).toEqual(['Notes, a, b, c', 'name', 'address'])
    expect(quoted.rows[0]!.body).toEqual({ name: 'Shop', address: 'Rue' })
  })

  test('an Excel "sep=" first line names the separator; the lines after keep their numbers', () => {
    // One comma, no semicolon in the header: without the sep line, ',' would be chosen.
    const csv = 'sep=;\r\nname;address, with comma\r\nShop;Rue 1, Paris\r\n;x\r\n'
    const read = readLocationsCsv(csv)
    expect(read.columns.map((c) => c.header)).toEqual(['name', 'address, with comma'])
    expect(read.rows.map((r) => [r.line, r.body])).toEqual([
      [3, { name: 'Shop' }],
      [4, {}],
    ])
    const bytes = new TextEncoder().encode(`\uFEFF${csv}`)
    expect(readLocationsCsv(bytes).rows[0]!.line).toBe(3)
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toStartWith('\uFEFFsep=;') // the caller's bytes are left as they were
  })

  test('CRLF, LF, CR and a mix of them read the same', () => {
    const rows = ['name,address', 'A,1 Main St', '"B","2 Side St"', 'C,3 High St']
    const expected = bodies(`${rows.join('\n')}\n`)
    expect(expected).toHaveLength(3)
    expect(bodies(`${rows.join('\r\n')}\r\n`)).toEqual(expected)
    expect(bodies(rows.join('\r'))).toEqual(expected)
    expect(bodies(`${rows[0]}\r\n${rows[1]}\n${rows[2]}\r${rows[3]}`)).toEqual(expected)
    expect(readLocationsCsv(`${rows[0]}\r\n${rows[1]}\n\n${rows[2]}\r${rows[3]}`).rows.map((r) => r.line)).toEqual([
      2, 4, 5,
    ])
  })

  test('a line of blanks only is skipped as an empty one; the rows after it keep their file line numbers', () => {
    const csv = 'sep=,\nname,address\n   \nA,B\n \t\u00a0\nC,D\n'
    expect(readLocationsCsv(csv).rows.map((r) => r.line)).toEqual([4, 6])
    expect(misread(`${csv}  \nE\n`).map((r) => r.line)).toEqual([8])
    // The header too: the "sep=" line above it is read as a line of blanks.
    expect(readError('sep=,\nname,Name\nA,B\n').line).toBe(2)
  })

  test('empty lines and rows of empty cells are skipped, the header may come after them', () => {
    const read = readLocationsCsv('\n\nname,address\n\n,\n  ,  \nA,B\n,,\n')
    expect(read.rows).toEqual([
      {
        line: 7,
        body: { name: 'A', address: 'B' },
        country: null,
        postcode: null,
        city: null,
        problems: [],
        notes: [],
      },
    ])
  })
})

describe('unreadable files', () => {
  test('rows with fewer cells than the header are each a problem of their line, named by their first cells', () => {
    const read = readLocationsCsv('external_id,name,address,city\nS1,A,B,C\nS2,D,E\nF\n')
    expect(read.rows.map(({ line, body, problems }) => ({ line, body, problems }))).toEqual([
      { line: 2, body: { external_id: 'S1', name: 'A', address: 'B, C' }, problems: [] },
      {
        line: 3,
        body: { external_id: 'S2', name: 'D' },
        problems: [
          { field: null, message: expect.stringMatching(/^This row has 3 cells but the header has 4 columns/) },
        ],
      },
      {
        line: 4,
        body: { external_id: 'F' },
        problems: [{ field: null, message: expect.stringMatching(/^This row has 1 cell but/) }],
      },
    ])
  })

  test('a row with text past the header names its line; empty trailing cells (spreadsheet padding) are allowed', () => {
    expect(bodies('name,address\nA,B,,\nC,D,\n')).toEqual([
      { name: 'A', address: 'B' },
      { name: 'C', address: 'D' },
    ])
    const [wide, ...none] = misread('name;address\nA;B\nC;D;;x\n')
    expect(none).toEqual([])
    expect(wide!.line).toBe(3)
    expect(wide!.message).toContain('column D')
    expect(wide!.message).toContain('";"')
  })

  test('an unclosed quote names the line its row starts on', () => {
    const e = readError('name,address\nA,B\n"C,D\nE,F\n')
    expect(e.line).toBe(3)
    expect(e.message).toStartWith('line 3: ')
    expect(e.message).toContain('never closed')
  })

  test('text after a closing quote names its line', () => {
    const e = readError('name,description\nA,"multi\nline"\nB,"say "hi" now"\n')
    expect(e.line).toBe(4)
    expect(e.message).toContain('twice')
  })

  test('bytes that are not UTF-8 name their line and say to save as CSV UTF-8', () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode('name,city\r\nA,"two\r\nlines"\r\nB,Z'), 0xfc, 0x72])
    const e = readError(latin1)
    expect(e.line).toBe(4)
    expect(e.message).toStartWith('line 4: ')
    expect(e.message).toContain('CSV UTF-8')
    expect(e.message).toEndWith(
      'From a script, if it is Windows-1252: iconv -f WINDOWS-1252 -t UTF-8 FILE > FILE-utf8.csv',
    )
  })

  test('a file that is no text (an image) is said to be none, not text in another encoding', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52])
    const e = readError(png)
    expect(e.line).toBeNull()
    expect(e.message).toStartWith('The file is not text: it holds NUL bytes, as an image, a PDF or an archive does')
    expect(e.message).not.toContain('Windows-1252')
  })

  test('a workbook (.xlsx, .xls) is said to be one, with how to save it as CSV', () => {
    // An .xlsx is a ZIP archive whose first entry's name is plain text.
    const xlsx = new Uint8Array([
      0x50,
      0x4b,
      0x03,
      0x04,
      0x14,
      0x00,
      ...new TextEncoder().encode('[Content_Types].xml'),
    ])
    const xls = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0])
    for (const bytes of [xlsx, xls]) {
      const e = readError(bytes)
      expect(e.line).toBeNull()
      expect(e.message).toStartWith('The file is a spreadsheet workbook (Excel or OpenDocument), not CSV.')
      expect(e.message).toContain('CSV UTF-8')
    }
  })
})
