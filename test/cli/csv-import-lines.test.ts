// storeloc locations import of a store list's lines: how a refused line is worded, and the lines
// a sheet keeps above its header.
import { beforeEach, describe, expect, test } from 'bun:test'
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
