// Coordinates as spreadsheets hold them: degrees with a sign, a hemisphere letter or minutes and
// seconds, a Unicode minus, and both in one column; what is still no coordinate says the forms read.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { readLocationsCsv } from '../../src/locations/csv'

const fixture = (name: string) => readFileSync(join(import.meta.dir, '../fixtures/csv', name))
const points = (input: string | Uint8Array) => readLocationsCsv(input).rows.map((r) => r.body.coordinates)

describe('coordinate cells', () => {
  test('degrees-minutes-seconds, a hemisphere letter, a degree sign and a Unicode minus are read; S and W negative', () => {
    expect(points(fixture('dms.csv'))).toEqual([{ lat: 48.8566667, lng: 2.3522222 }])
    expect(points(fixture('dms_w.csv'))).toEqual([{ lat: 40.4155556, lng: -3.7075 }])
    expect(points(fixture('hemi.csv'))).toEqual([{ lat: 40.4155, lng: -3.7074 }])
    expect(points(fixture('degree.csv'))).toEqual([{ lat: 52.517, lng: 13.3889 }])
    expect(points(fixture('negzero.csv'))[0]).toEqual({ lat: 40.4155, lng: -3.7074 })
    const cells = [
      ["33°52'S", '151°12\'30"E', { lat: -33.8666667, lng: 151.2083333 }],
      ['S 33.8688', 'E 151.2093', { lat: -33.8688, lng: 151.2093 }],
      ['"48° 51\' 24"" n"', "2° 21.05' e", { lat: 48.8566667, lng: 2.3508333 }],
      ['"52,517°"', '"−0,1278"', { lat: 52.517, lng: -0.1278 }],
      ['−33.8688 ', '-151.2093', { lat: -33.8688, lng: -151.2093 }],
    ] as const
    const csv = `name,lat,lng\n${cells.map(([lat, lng]) => `Shop,${lat},${lng}`).join('\n')}\n`
    expect(points(csv)).toEqual(cells.map((c) => c[2]))
  })

  test('a cell that is still no coordinate is refused, naming the column, the text and the forms read', () => {
    const cells = [
      ['north', '2.35'],
      ['48.85 E', '2.35'], // E is a longitude's: the columns swapped?
      ['-48.85 S', '2.35'], // a sign and a letter disagree or repeat
      ["48°61'N", '2.35'], // 61 minutes
      ["48.5°30'N", '2.35'], // minutes after a fraction of a degree
      ['48.85', '2.35 N'],
    ]
    const csv = `external_id,name,Latitude,Longitude\n${cells.map(([lat, lng], i) => `S${i},Shop,${lat},${lng}`).join('\n')}\n`
    const rows = readLocationsCsv(csv).rows
    expect(rows.map((r) => r.body.coordinates)).toEqual(cells.map(() => undefined))
    expect(rows[0]!.problems).toEqual([
      {
        field: 'coordinates.lat',
        message:
          'The "Latitude" column must be a number; got "north". Write a decimal number such as 48.8566 or -3.7074 (48°51\'24"N, 48.8566 N and 48.8566° are read too).',
      },
    ])
    expect(rows[5]!.problems).toEqual([
      {
        field: 'coordinates.lng',
        message:
          'The "Longitude" column must be a number; got "2.35 N". Write a decimal number such as 48.8566 or -3.7074 (3°42\'27"W, 3.7074 W and 2.3522° are read too).',
      },
    ])
    expect(rows.map((r) => r.problems.length)).toEqual([1, 1, 1, 1, 1, 1])
  })

  test('a number that lost its decimal separator in a spreadsheet is refused saying so; others out of range are left to validation', () => {
    const read = readLocationsCsv('Name;Breitengrad;Längengrad\nA;52520008;13.387.810\nB;91;181\nC;52;13\n')
    const lost = (header: string, field: string, axis: string, cell: string) => ({
      field,
      message: `The "${header}" column must be a ${axis}; got "${cell}", which has lost its decimal separator: a spreadsheet set for decimal commas reads 52.520008 as 52520008 (or 52.520.008). Format the column as text, then paste the coordinates in again, such as 52.520008 or 52,520008.`,
    })
    expect(read.rows.map((r) => [r.body.coordinates, r.problems])).toEqual([
      [
        undefined,
        [
          lost('Breitengrad', 'coordinates.lat', 'latitude', '52520008'),
          lost('Längengrad', 'coordinates.lng', 'longitude', '13.387.810'),
        ],
      ],
      [{ lat: 91, lng: 181 }, []],
      [{ lat: 52, lng: 13 }, []],
    ])
  })
})

describe('coordinates a spreadsheet made dates of', () => {
  test('"13. Apr", "Apr 13" or "09.18.2026" is refused as a date made of a decimal, with how to paste it again', () => {
    const read = readLocationsCsv('Name;Breitengrad;Längengrad\nA;13. Apr;Apr 13\nB;09.18.2026;12 East\n')
    const dated = (header: string, field: string, axis: string, cell: string) => ({
      field,
      message: `The "${header}" column must be a ${axis}; got "${cell}", a date a spreadsheet made of it (a German Excel shows 13.4 as "13. Apr"). Format the column as text, then paste the coordinates in again, such as 52.520008 or 52,520008.`,
    })
    const [a, b] = read.rows.map((r) => r.problems)
    expect(a).toEqual([
      dated('Breitengrad', 'coordinates.lat', 'latitude', '13. Apr'),
      dated('Längengrad', 'coordinates.lng', 'longitude', 'Apr 13'),
    ])
    expect(b![0]).toEqual(dated('Breitengrad', 'coordinates.lat', 'latitude', '09.18.2026'))
    // A compass word is no month: the forms read are said.
    expect(b![1]!.message).toStartWith('The "Längengrad" column must be a number; got "12 East".')
  })
})

describe('one column holding both coordinates', () => {
  test('"Coordinates", "Lat, Long" and "Location" holding two numbers are read as latitude and longitude', () => {
    const point = { lat: 52.517, lng: 13.3889 }
    for (const name of ['coordcol.csv', 'latlongcol.csv', 'latlngcol2.csv']) {
      const read = readLocationsCsv(fixture(name))
      expect(read.rows.map((r) => r.body.coordinates)).toEqual([point])
      expect(read.unknown).toEqual([])
    }
    const cells = [
      '"52.5170, 13.3889"',
      '52.5170 13.3889',
      '"(52,5170; 13,3889)"',
      '"52,517, 13,3889"',
      '"52°31\'1""N 13°23\'20""E"',
      '"40.4155 N, 3.7074 W"',
      '',
    ]
    for (const header of ['Lat/Lng', 'GPS', 'Koordinaten', 'Position'])
      expect(points(`name,${header}\n${cells.map((c) => `Shop,${c}`).join('\n')}\n`)).toEqual([
        point,
        point,
        point,
        point,
        { lat: 52.5169444, lng: 13.3888889 },
        { lat: 40.4155, lng: -3.7074 },
        undefined,
      ])
  })

  test('a "Location" column of other text is not read as coordinates, and is named as not read', () => {
    const read = readLocationsCsv('name,Location\nA,"52.5170, 13.3889"\nB,Berlin Mitte\n')
    expect(read.rows.map((r) => r.body)).toEqual([{ name: 'A' }, { name: 'B' }])
    expect(read.unknown).toEqual(['Location'])
  })

  test('a "Coordinates" cell that is not two numbers is refused, saying how to write it', () => {
    const read = readLocationsCsv('name,Coordinates\nA,"52.5170, 13.3889"\nB,Berlin\n')
    expect(read.rows[0]!.body.coordinates).toEqual({ lat: 52.517, lng: 13.3889 })
    expect(read.rows[1]!.problems).toEqual([
      {
        field: 'coordinates',
        message:
          'The "Coordinates" column must be two numbers, latitude then longitude, such as "52.5170, 13.3889"; got "Berlin". Or give each its own column (lat, lng).',
      },
    ])
  })

  test('beside lat and lng columns, a column holding both is not read', () => {
    const read = readLocationsCsv('name,lat,lng,Coordinates\nA,1,2,"52.5170, 13.3889"\n')
    expect(read.rows[0]!.body.coordinates).toEqual({ lat: 1, lng: 2 })
    expect(read.unknown).toEqual(['Coordinates'])
  })
})
