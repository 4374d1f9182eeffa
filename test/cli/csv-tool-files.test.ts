// storeloc locations import with files byte for byte as back offices write them: imported with
// --dry-run, then for real, and their export imported again to no change.
import { beforeEach, describe, expect, test } from 'bun:test'
import { file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Dumps').locator.id
})

describe('an ERP dump in Windows-1252, "|" separated, ending in Ctrl-Z', () => {
  const dump = Buffer.from(
    'FILIALNR|BEZEICHNUNG|STRASSE|PLZ|ORT|LAND|BREITE|LAENGE\r\n' +
      '0001|Müller Räder|Königstraße 5|70173|Stuttgart|DE|48,7784|9,18\r\n' +
      '0002|Café Größe|Marienplatz 1|80331|München|DE|48,1374|11,5755\r\n\x1a',
    'latin1',
  )

  test('is refused naming --encoding windows-1252; read with it; its export imports to no change', () => {
    const path = file('FILIALEN.TXT', dump)
    const refused = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('--encoding windows-1252')
    const args = ['locations', 'import', locatorId, '--file', path, '--encoding', 'windows-1252']
    const dry = storeloc(...args, '--dry-run')
    expect(dry.code).toBe(0)
    expect(dry.stdout).toStartWith(`Dry run of ${path} on ${locatorId}, nothing written: 2 to create, 0 to update,`)
    expect(json(...args)).toMatchObject({ created: 2 })
    for (const separator of [',', ';', 'tab']) {
      const out = storeloc('locations', 'export', locatorId, '--format', 'csv', '--separator', separator)
      expect(out.code).toBe(0)
      const back = json('locations', 'import', locatorId, '--file', file('back.csv', out.stdout))
      expect(back).toMatchObject({ created: 0, updated: 0, unchanged: 2 })
    }
  }, 60_000) // 9 processes of about 150 ms each, slower on a loaded machine
})

describe('a Google Sheets .tsv download whose header cell holds commas', () => {
  test('is read by tabs, as its name says', () => {
    const header =
      'Store Code\tName\tAddress\tLatitude\tLongitude\tDelivers to (Leeds, York, Hull, Bradford, Wakefield, Harrogate)'
    const row = 'G1\tCycle Hub\t12 Briggate, Leeds LS1 6HD, United Kingdom\t53.7972\t-1.5417\tYes'
    const path = file('Stores - Sheet1.tsv', `${header}\r\n${row}\r\n`)
    const dry = json('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect(dry).toMatchObject({
      created: 1,
      unknown_columns: ['Delivers to (Leeds, York, Hull, Bradford, Wakefield, Harrogate)'],
    })
  })
})
