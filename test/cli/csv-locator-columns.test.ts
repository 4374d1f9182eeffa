// storeloc locations import of columns other locators' files share with everyday sheets: a tags
// column by its own name, further address lines in any order, two region columns.
import { beforeEach, describe, expect, test } from 'bun:test'
import { file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Columns').locator.id
})

const imported = (name: string, text: string) => json('locations', 'import', locatorId, '--file', file(name, text))
const stored = () => json('locations', 'export', locatorId)

describe('a column named Tags', () => {
  test('of numbers alone is read as tags, whatever its case', () => {
    const text =
      'external_id,name,address,lat,lng,Tags\nN1,North,1 Briggate,53.8,-1.54,1|2|3\nN2,South,2 Briggate,53.7,-1.5,7\n'
    const read = imported('tags.csv', text)
    expect([read.created, read.unknown_columns ?? [], read.notes ?? []]).toEqual([2, [], []])
    expect(stored().map((l: { tags: string[] }) => l.tags)).toEqual([['1', '2', '3'], ['7']])
  })
})

describe("Google's further address lines", () => {
  const header =
    'Store code,Business name,Address line 1,Address line 3,Address line 2,Locality,Postal code,Country/Region'
  const row = (code: string, three: string, two: string) =>
    `${code},Cycle Hub,1 Princes Street,${three},${two},Edinburgh,EH2 2EQ,GB`

  test('follow the second line wherever their columns are, a line given twice once', () => {
    const rows = [
      row('G1', 'Unit 3', 'Waverley Mall'),
      row('G2', 'Waverley Mall', 'waverley mall'),
      row('G3', 'Unit 3', ''),
    ]
    expect(imported('lines.csv', [header, ...rows].join('\n')).created).toBe(3)
    expect(stored().map((l: { address: string }) => l.address)).toEqual([
      '1 Princes Street, Waverley Mall, Unit 3, Edinburgh EH2 2EQ, GB',
      '1 Princes Street, waverley mall, Edinburgh EH2 2EQ, GB',
      '1 Princes Street, Unit 3, Edinburgh EH2 2EQ, GB',
    ])
  })

  test('beside two columns of the second line itself, the file is refused', () => {
    const refused = storeloc('locations', 'import', locatorId, '--file', file('two.csv', `${header},street2\n`))
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain('the columns "Address line 2" and "street2" both fill the second address line.')
  })
})

describe('two region columns', () => {
  const header = 'clientkey,name,address1,city,state,province,postalcode,country'

  test('giving one region in two cases are one region', () => {
    const row = 'B1,Cycle Hub Toronto,100 Queen St W,Toronto,ON,on,M5H 2N2,CA'
    expect(imported('case.csv', `${header}\n${row}\n`).created).toBe(1)
    expect(stored()[0].address).toBe('100 Queen St W, Toronto, ON M5H 2N2, CA')
  })

  test('that every row fills with two regions hold two things: the file is refused, once', () => {
    // A sales region beside Brandify's state and province: the columns giving two regions are named.
    const rows = [
      'S1,Austin,1100 S Congress Ave,Austin,TX,,South,78704,US',
      'S2,Toronto,100 Queen St W,Toronto,,ON,Central,M5H 2N2,CA',
    ]
    const text = ['Store Code,Name,Address,City,State,Province,Region,Zip,Country', ...rows].join('\n')
    const refused = storeloc('locations', 'import', locatorId, '--file', file('sales.csv', text), '--dry-run')
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain(
      'line 1: the columns "State" and "Region" both fill the region. Delete or rename one of them.',
    )
  })

  test('that every row fills with one region but a few rows are one region twice: those rows are problems', () => {
    // An export carrying the region twice, one row mistyped: its line is the problem, not the file.
    const rows = [
      'B1,Toronto,100 Queen St W,Toronto,ON,ON,M5H 2N2,CA',
      'B2,Ottawa,111 Wellington St,Ottawa,ON,QC,K1A 0A9,CA',
      'B3,Toronto East,200 Queen St E,Toronto,ON,ON,M5A 1S2,CA',
    ]
    const typo = file('typo.csv', [header, ...rows].join('\n'))
    const refused = storeloc('locations', 'import', locatorId, '--file', typo, '--dry-run')
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain(
      'line 3 (external_id "B2"): The "state" cell gives the region "ON" and the "province" cell "QC": fill in one of them.',
    )
    expect(refused.stderr).not.toContain('both fill the region')
    // A sales region that is a row's state in one row of three still differs on most: refused once.
    const sales = rows.map((row, i) => row.replace(/,ON,(ON|QC),/, i === 0 ? ',ON,on,' : ',ON,Central,'))
    const twoThings = storeloc(
      'locations',
      'import',
      locatorId,
      '--file',
      file('sales.csv', [header, ...sales].join('\n')),
      '--dry-run',
    )
    expect(twoThings.stderr).toContain('line 1: the columns "state" and "province" both fill the region.')
  })
})
