// Locations CSV as writeLocationsCsv writes it: columns, quoting, formulas kept from running,
// and what cannot be written (the round trip: csv-round-trip.test.ts).
import { describe, expect, test } from 'bun:test'
import { readLocationsCsv } from '../../src/locations/csv'
import { type CsvLocation, writeLocationsCsv } from '../../src/locations/csv-write'
import { bodies } from './csv-read'
import { DAYS } from '../../src/store/locations'

const NO_HOURS = Object.fromEntries(DAYS.map((d) => [d, ''])) as CsvLocation['hours']

function location(fields: Partial<CsvLocation> = {}): CsvLocation {
  return {
    id: 'loc_1',
    external_id: null,
    name: 'Shop',
    address: '1 Main St',
    coordinates: { lat: 48.85, lng: 2.35 },
    description: '',
    tags: [],
    contact: { phone: '', email: '', website: '' },
    social: { instagram: '', facebook: '', twitter: '' },
    hours: NO_HOURS,
    special_hours: {},
    timezone: 'Europe/Paris',
    custom_fields: {},
    image_url: '',
    status: 'published',
    ...fields,
  }
}

describe('writing', () => {
  test('columns in order, custom fields last in the order given, CRLF line endings', () => {
    const csv = writeLocationsCsv([location({ custom_fields: { parking: 'no', wifi: 'yes' } })], ['wifi', 'parking'])
    const [header, row, end] = csv.split('\r\n')
    expect(header).toBe(
      'id,external_id,name,address,lat,lng,description,tags,phone,email,website,instagram,facebook,twitter,monday,tuesday,wednesday,thursday,friday,saturday,sunday,special_hours,timezone,image_url,status,custom.wifi,custom.parking',
    )
    expect(row).toBe(`loc_1,,Shop,1 Main St,48.85,2.35${','.repeat(17)}Europe/Paris,,published,yes,no`)
    expect(end).toBe('')
  })

  test('cells with separators, quotes or line breaks are quoted', () => {
    const csv = writeLocationsCsv([location({ name: 'Shop, "Best"', description: 'a\nb', tags: ['x', 'y;z'] })], [])
    expect(csv.split('\r\n')[1]).toStartWith('loc_1,,"Shop, ""Best""",1 Main St,48.85,2.35,"a\nb",x|y;z,')
  })

  test('a lone tag with a comma, a semicolon or a spaced slash gets a trailing "|", so it reads back whole', () => {
    const csv = writeLocationsCsv([location({ tags: ['Food, drinks'] })], [])
    expect(csv.split('\r\n')[1]).toContain(',"Food, drinks|",')
    expect(bodies(csv)[0]!.tags).toEqual(['Food, drinks'])
    const semi = writeLocationsCsv([location({ tags: ['Food; drinks'] })], [])
    expect(bodies(semi)[0]!.tags).toEqual(['Food; drinks'])
    const slash = writeLocationsCsv([location({ tags: ['Bikes / Scooters'] })], [])
    expect(slash.split('\r\n')[1]).toContain(',Bikes / Scooters|,')
    expect(bodies(slash)[0]!.tags).toEqual(['Bikes / Scooters'])
  })

  test('numbers read back as the same double, -0 included', () => {
    // Each beside 10: 0 and -0 together are a placeholder, read as none (below).
    const values = [-0, 5e-324, 0.1 + 0.2, -179.99999999999997, 1.7976931348623157e308]
    const list = values.flatMap((v) => [
      location({ coordinates: { lat: v, lng: 10 } }),
      location({ coordinates: { lat: 10, lng: v } }),
    ])
    const read = bodies(writeLocationsCsv(list, []))
    read.forEach((body, i) => {
      const c = body.coordinates as { lat: number; lng: number }
      const v = values[Math.floor(i / 2)]
      expect([Object.is(c.lat, i % 2 === 0 ? v : 10), Object.is(c.lng, i % 2 === 0 ? 10 : v)]).toEqual([true, true])
    })
  })

  test("coordinates 0,0, a back office's placeholder, are read as none, and the row says so", () => {
    const read = readLocationsCsv('name,address,lat,lng\nA,1 Main St,0,0\nB,2 Main St,0,0.5\nC,3 Main St,-0,0.0\n')
    expect(read.rows.map((r) => [r.body.coordinates, r.notes.length])).toEqual([
      [undefined, 1],
      [{ lat: 0, lng: 0.5 }, 0],
      [undefined, 1],
    ])
    expect(read.rows[0]!.notes[0]).toStartWith('The coordinates 0,0 were read as none')
  })

  test('a tag with "|" cannot be written: the error names the location', () => {
    expect(() => writeLocationsCsv([location(), location({ id: 'loc_9', tags: ['a', 'b|c'] })], [])).toThrow(
      /Location "loc_9".*"b\|c"/,
    )
  })

  test('a text a spreadsheet would run as a formula gets a leading quote; coordinates stay numbers', () => {
    const csv = writeLocationsCsv(
      [
        location({
          name: '=HYPERLINK("http://x.test","Shop")',
          address: "'=1+1",
          coordinates: { lat: -33.9, lng: -70.6 },
          description: '-2+3',
          tags: ['@tag', 'ok'],
          contact: { phone: '+44 20 7946 0000', email: '', website: '' },
          custom_fields: { note: "'plain" },
        }),
      ],
      ['note'],
    )
    const row = csv.split('\r\n')[1]!
    expect(row).toStartWith(
      `loc_1,,"'=HYPERLINK(""http://x.test"",""Shop"")",''=1+1,-33.9,-70.6,'-2+3,'@tag|ok,'+44 20 7946 0000,`,
    )
    expect(row).toEndWith(",'plain")
  })

  test('a part of a cell after ";", ",", a tab or a line break that would start a formula gets a quote too; read back whole', () => {
    const name = "x;@SUM(1+1)*cmd|' /C calc'!A0"
    const description = "a;=1+1\n-2\r\n+3;'=4; ok, Best,=cmd|' /C calc'!A0\tok\t=5+5\t\t-6"
    for (const separator of [',', ';', '\t'] as const) {
      const csv = writeLocationsCsv([location({ name, description })], [], { separator, bom: false })
      // Split as a spreadsheet that takes "," or ";" for its separator does, quotes or not, line by line.
      const parts = csv.split(/[;,\t\r\n]+/).map((p) => p.replace(/^"/, ''))
      expect(parts.filter((p) => /^[=+\-@]/.test(p))).toEqual([])
      expect(csv).toContain(`x;'@SUM(1+1)`)
      expect(csv).toContain(`Best,'=cmd`)
      expect(bodies(csv)[0]).toMatchObject({ name, description })
    }
  })

  test('one leading quote is taken off a cell that starts a formula after it, and only then', () => {
    const [body] = bodies(
      "name,address,phone,description,tags,lat,lng\n'=Shop,''@home,'+1 555,'plain,'-a|b,'-33.5,151.2\n",
    )
    expect(body).toMatchObject({
      name: '=Shop',
      address: "'@home",
      contact: { phone: '+1 555' },
      description: "'plain",
      tags: ['-a', 'b'],
      coordinates: { lat: -33.5, lng: 151.2 },
    })
  })

  test('special hours are written in date order; a text that would not read back cannot be written', () => {
    const csv = writeLocationsCsv([location({ special_hours: { '2026-12-25': 'closed', '2026-12-24': '9-14' } })], [])
    expect(csv.split('\r\n')[1]).toContain(',2026-12-24 9-14; 2026-12-25 closed,')
    for (const text of ['closed until 2027-01-02', '9-14;', ': 9-14'])
      expect(() => writeLocationsCsv([location({ id: 'loc_7', special_hours: { '2026-12-24': text } })], [])).toThrow(
        /Location "loc_7" .*special hours of 2026-12-24/,
      )
  })

  test('a custom field the location lacks is written empty, whatever its id', () => {
    const csv = writeLocationsCsv([location({ custom_fields: { other: 'x' } })], ['constructor', 'wifi', 'wifi'])
    expect(csv.split('\r\n')[0]).toEndWith(',status,custom.constructor,custom.wifi')
    expect(bodies(csv)[0]!.custom_fields).toEqual({ constructor: '', wifi: '' })
  })
})
