// Locations CSV headers of other store locators' exports (StoreRocket, WP Store Locator, Google
// Business Profile): which of their columns fill our fields, and the notes said of those that do not.
import { describe, expect, test } from 'bun:test'
import { readLocationsCsv } from '../../src/locations/csv'
import { bodies } from './csv-read'

describe("other store locators' exports", () => {
  test('StoreRocket\'s "visible" of 1 or 0 is the status, and its "filters" are tags', () => {
    const read = readLocationsCsv('name,address,filters,visible\nA,1 Rd,"Repairs, Rentals",1\nB,2 Rd,Repairs,0\n')
    expect(read.rows.map((r) => [r.body.status, r.body.tags])).toEqual([
      ['published', ['Repairs', 'Rentals']],
      ['draft', ['Repairs']],
    ])
    expect(read.unknown).toEqual([])
  })

  test('WP Store Locator\'s "wpsl_id" is the external id when no other column is', () => {
    expect(bodies('wpsl_id,name,address\n412,A,1 Rd\n')).toEqual([{ external_id: '412', name: 'A', address: '1 Rd' }])
    const beside = readLocationsCsv('wpsl_id,store code,name\n412,CH1,A\n')
    expect([beside.rows[0]!.body.external_id, beside.unknown]).toEqual(['CH1', ['wpsl_id']])
  })

  test('WP Store Locator\'s "country_iso", a code, is the country where no country column is, or its cell is empty', () => {
    const alone = readLocationsCsv('name,address,city,state,zip,country_iso\nA,10 Main Street,Boston,MA,02108,US\n')
    expect([alone.rows[0]!.body.address, alone.rows[0]!.country, alone.unknown]).toEqual([
      '10 Main Street, Boston, MA 02108, US',
      'US',
      [],
    ])
    const beside = readLocationsCsv(
      'name,address,city,country,country_iso\nA,10 Main Street,Boston,United States,US\nB,1 Princes Street,Edinburgh,,GB\n',
    )
    // Written as the file's names write countries.
    expect([beside.rows.map((r) => [r.body.address, r.country]), beside.unknown]).toEqual([
      [
        ['10 Main Street, Boston, United States', 'United States'],
        ['1 Princes Street, Edinburgh, United Kingdom', 'GB'],
      ],
      [],
    ])
    const codes = readLocationsCsv('name,city,country,country_iso\nA,Boston,US,\nB,Edinburgh,,gb\nC,Paris,,\n')
    expect(codes.rows.map((r) => [r.body.address, r.country])).toEqual([
      ['Boston, US', 'US'],
      ['Edinburgh, GB', 'GB'],
      ['Paris', null],
    ])
  })

  test('Google\'s "Sub-locality" is a district, joined before the town; "Primary category" is no tag, said why', () => {
    const header =
      'Store code,Address line 1,Sub-locality,Locality,Country/Region,Postal code,Primary category,Labels\n'
    const read = readLocationsCsv(
      `${header}CH2,10 Byres Road,Partick,Glasgow,GB,G11 5JY,Bicycle repair shop,Repairs\nCH1,1 Princes Street,,Edinburgh,GB,EH2 2EQ,Bicycle repair shop,\n`,
    )
    expect(read.rows.map((r) => [r.body.address, r.body.tags])).toEqual([
      ['10 Byres Road, Partick, Glasgow G11 5JY, GB', ['Repairs']],
      ['1 Princes Street, Edinburgh EH2 2EQ, GB', []],
    ])
    expect(read.unknown).toEqual(['Primary category'])
    expect(read.notes).toEqual([expect.stringContaining('The column "Primary category" is Google\'s category')])
    // A district the street line or the town already names is not written twice.
    const twice =
      'address,Sub-locality,city,postcode\n"10 Byres Road, Partick",Partick,Glasgow,G11 5JY\n1 High Street,Glasgow,Glasgow,G1 1AA\n'
    expect(bodies(twice).map((b) => b.address)).toEqual([
      '10 Byres Road, Partick, Glasgow G11 5JY',
      '1 High Street, Glasgow G1 1AA',
    ])
    // An address cell that names its town is kept as written: the district is not pushed into it.
    expect(bodies('address,Sub-locality,city\n"10 Byres Road, Glasgow",Partick,Glasgow\n')[0]!.address).toBe(
      '10 Byres Road, Glasgow',
    )
    // A row with no town but its district keeps the district, as its second line is kept: the
    // column is read, so its text is not lost; a cell that holds it already gets it once.
    const noTown =
      'address,Sub-locality\n10 Byres Road,Partick\n"10 Byres Road, Partick",Partick\nPartick Cross,Partick\n'
    expect(bodies(noTown).map((b) => b.address)).toEqual([
      '10 Byres Road, Partick',
      '10 Byres Road, Partick',
      'Partick Cross',
    ])
  })

  test("StoreRocket's \"hours_id\", a template's name, is not read, and a note of the file, no row's, says what to write instead", () => {
    const read = readLocationsCsv('name,address,hours_id\nA,1 Rd,Standard Hours\nB,2 Rd,\n')
    expect(read.unknown).toEqual(['hours_id'])
    // Line 2's store is no more at fault than line 3's: the column is.
    expect(read.rows.map((r) => r.notes)).toEqual([[], []])
    expect(read.notes).toEqual([
      'The column "hours_id" names hours templates (StoreRocket\'s), whose hours are not in the file: no hours are imported from it. Give each day\'s hours in a column of its own (monday ... sunday), such as "09:00-17:00" or "Closed", as StoreRocket also reads them.',
    ])
    expect(readLocationsCsv('name,address,hours_id\nA,1 Rd,\n').notes).toEqual([])
  })
})
