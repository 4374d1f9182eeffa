// A special hours cell with a YYYY-MM-DD date and dates as a locale writes them after it
// ("2026-12-24 9-14; Dec 31, 2026 closed"): each date is read, or the line refused naming it;
// no date's text is stored as another date's hours.
import { expect, test } from 'bun:test'
import { readLocationsCsv } from '../../src/locations/csv'
import { type CsvLocation, writeLocationsCsv } from '../../src/locations/csv-write'
import { DAYS } from '../../src/store/locations'

const read = (csv: string) =>
  readLocationsCsv(csv).rows.map((r) => [r.body.special_hours, r.problems.map((p) => `${p.field}: ${p.message}`)])

test('a date after a separator in a cell with an ISO date is read as a date', () => {
  const csv =
    'name,Special hours\n' +
    'A,"2026-12-24 9-14; Dec 31, 2026 closed"\n' +
    'B,"2026-12-24 9-14 | 31.12.2026 geschlossen, 2027-01-02 10-16"\n' +
    'C,"2026-12-24 9-14\n12/31/2026 closed"\n'
  expect(read(csv)).toEqual([
    [{ '2026-12-24': '9-14', '2026-12-31': 'closed' }, []],
    [{ '2026-12-24': '9-14', '2026-12-31': 'geschlossen', '2027-01-02': '10-16' }, []],
    [{ '2026-12-24': '9-14', '2026-12-31': 'closed' }, []],
  ])
})

test('a bare "1/2" or "3.4." after a separator with words but no hours after it stays text; "31.12." is a date', () => {
  const csv =
    'name,Special hours,country\n' +
    'A,"2026-12-24 9-12, 1/2 day; 2026-12-31 closed",DE\n' +
    'B,"2026-12-24 9-14; 31.12. by appointment; 1.2. on call",DE\n' +
    'C,"2026-12-24 10-14, 3/4 staff",US\n' +
    'D,"2026-12-24 9-14; Dec 30 - Jan 2, 2027 closed, 1 Jan 2027 x",US\n'
  expect(read(csv)).toEqual([
    [{ '2026-12-24': '9-12, 1/2 day', '2026-12-31': 'closed' }, []],
    [{ '2026-12-24': '9-14', '2026-12-31': 'by appointment; 1.2. on call' }, []],
    [{ '2026-12-24': '10-14, 3/4 staff' }, []],
    [
      {
        '2026-12-24': '9-14',
        '2026-12-30': 'closed',
        '2026-12-31': 'closed',
        '2027-01-01': 'closed',
        '2027-01-02': 'closed',
      },
      [],
    ],
  ])
})

test('any other date after a separator is a date whatever words follow it, as without an ISO date', () => {
  const tails = [
    'Dec 31 Closed all day',
    'Dec 31 by appointment',
    'Dec 31 closed early at 3',
    '25 Dec too',
    'Dec 30-31 special',
    'Dec 30 - Jan 2 special',
    '20/1 - 17',
    '31.12.2026 by appointment',
    '12/31/2026 by appointment',
  ]
  const csv = `name,Special hours,country\n${tails.map((t) => `A,"${t}",DE\nB,"2026-12-24 9-14; ${t}",DE\n`).join('')}`
  const rows = read(csv)
  tails.forEach((tail, i) => {
    const [alone, withIso] = [rows[2 * i]!, rows[2 * i + 1]!]
    expect([tail, alone[1]]).toEqual([tail, []])
    expect([tail, Object.keys(alone[0] as object).length > 0]).toEqual([tail, true])
    expect([tail, withIso]).toEqual([tail, [{ '2026-12-24': '9-14', ...(alone[0] as object) }, []]])
  })
})

test('a date after a separator with nothing after it refuses the line, as without an ISO date', () => {
  const tails = ['Dec 31', 'Dec 31 - Jan 2', '1/2', '31.12.']
  const rows = read(`name,Special hours,country\n${tails.map((t) => `A,"2026-12-24 9-14; ${t}",DE\n`).join('')}`)
  expect(rows).toEqual(
    tails.map((t) => [
      undefined,
      [
        `special_hours: "2026-12-24 9-14; ${t}" gives ${t} no hours. Write each date as YYYY-MM-DD followed by its hours, the dates apart: "2026-12-24 09:00-14:00; 2026-12-25 closed".`,
      ],
    ]),
  )
})

test('such a date that is none, or in doubt, refuses the line naming it', () => {
  const [doubt, none] = read(
    'name,Special hours\nA,"2026-12-24 9-14; 03/04/2027 closed"\nB,"2026-12-24 x, 31.02.2027 zu"\n',
  )
  expect(doubt).toEqual([
    undefined,
    [
      'special_hours: "03/04/2027" may be March 4 or April 3: the file\'s other dates and countries do not say which number is the month. Write it as YYYY-MM-DD (2027-03-04 or 2027-04-03).',
    ],
  ])
  expect(none).toEqual([
    undefined,
    ['special_hours: "31.02.2027" is no date. Write each date as YYYY-MM-DD, such as 2026-12-25.'],
  ])
})

test('a date within the words of an ISO date\'s hours stays text: "closed 1 May"', () => {
  expect(read('name,special_hours\nA,2026-05-01 closed 1 May; 2026-12-24 open 24/7 until 12/31\n')).toEqual([
    [{ '2026-05-01': 'closed 1 May', '2026-12-24': 'open 24/7 until 12/31' }, []],
  ])
})

test('the export refuses a text that would read back as another date', () => {
  const location: CsvLocation = {
    id: 'loc_7',
    external_id: null,
    name: 'Shop',
    address: '1 Main St',
    coordinates: { lat: 48.85, lng: 2.35 },
    description: '',
    tags: [],
    contact: { phone: '', email: '', website: '' },
    social: { instagram: '', facebook: '', twitter: '' },
    hours: Object.fromEntries(DAYS.map((d) => [d, ''])) as CsvLocation['hours'],
    special_hours: {},
    timezone: 'Europe/Paris',
    custom_fields: {},
    image_url: '',
    status: 'published',
  }
  for (const text of ['9-14; Dec 31 closed', '9-14, 31.12. zu', 'x\n1/2 closed', '9-14; Dec 31 by appointment'])
    expect(() => writeLocationsCsv([{ ...location, special_hours: { '2026-12-24': text } }], [])).toThrow(
      /Location "loc_7" .*special hours of 2026-12-24/,
    )
  // Words of its hours, not after a separator or not before hours, are written and read back as they are.
  const kept = { '2026-12-24': 'closed 1 May, from 9 on Dec 27', '2026-12-31': '9-12, 1/2 day' }
  const csv = writeLocationsCsv([{ ...location, special_hours: kept }], [])
  expect(readLocationsCsv(csv).rows[0]!.body.special_hours).toEqual(kept)
})
