// Special hours dates as spreadsheets write them in their locale: a US sheet's "12/25" and
// "Dec 25", a German one's "24.12.2026", and "03/04", whose month only the file can say.
import { describe, expect, test } from 'bun:test'
import { readLocationsCsv } from '../../src/locations/csv'

const read = (csv: string) =>
  readLocationsCsv(csv).rows.map((r) => [r.body.special_hours, r.problems.map((p) => `${p.field}: ${p.message}`)])

/** The year a date without one is read in: the first such day from a week before today (UTC) on. */
function ahead(month: number, day: number): string {
  const now = new Date()
  const since = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 7)
  const year = [-1, 0, 1].map((k) => now.getUTCFullYear() + k).find((y) => Date.UTC(y, month - 1, day) >= since)
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

describe('special hours dates written as a locale writes them', () => {
  test('a US sheet: 12/25/2026, 12/25, Dec 25 and December 31, 2026', () => {
    const csv =
      'name,Holiday Hours\n' +
      'A,"12/24/2026 9am-2pm; 12/25/2026 closed"\n' +
      'B,"12/25 closed, 1/1 closed"\n' +
      'C,"Dec 24 10:00AM-2:00PM; December 31, 2026: 9-14"\n'
    expect(read(csv)).toEqual([
      [{ '2026-12-24': '9am-2pm', '2026-12-25': 'closed' }, []],
      [{ [ahead(12, 25)]: 'closed', [ahead(1, 1)]: 'closed' }, []],
      [{ [ahead(12, 24)]: '10:00AM-2:00PM', '2026-12-31': '9-14' }, []],
    ])
    // A cell with an ISO date is the export's: "1 May" and "24/7" in its hours are text.
    expect(read('name,special_hours\nA,2026-05-01 closed 1 May; 2026-12-24 open 24/7\n')).toEqual([
      [{ '2026-05-01': 'closed 1 May', '2026-12-24': 'open 24/7' }, []],
    ])
  })

  test('03/04 is read by the file: its other dates, else its countries; else refused by name', () => {
    // 12/25 puts the month first, so 07/04 is July 4; 25/12 the day, so 03/04 is 3 April.
    expect(read('name,Special hours\nA,12/25/2026 closed\nB,07/04/2026 closed\n')[1]![0]).toEqual({
      '2026-07-04': 'closed',
    })
    expect(read('name,Special hours\nA,25/12/2026 closed\nB,03/04/2026 closed\n')[1]![0]).toEqual({
      '2026-04-03': 'closed',
    })
    expect(
      read('name,country,Special hours\nA,US,07/04/2026 closed\nB,United States,11/26/2026 closed\n')[0]![0],
    ).toEqual({ '2026-07-04': 'closed' })
    expect(read('name,country,Special hours\nA,GB,03/04/2026 closed\n')[0]![0]).toEqual({ '2026-04-03': 'closed' })
    // Nothing says which: refused, both readings named, nothing guessed.
    expect(read('name,Special hours\nA,03/04/2026 closed\n')).toEqual([
      [
        undefined,
        [
          'special_hours: "03/04/2026" may be March 4 or April 3: the file\'s other dates and countries do not say which number is the month. Write it as YYYY-MM-DD (2026-03-04 or 2026-04-03).',
        ],
      ],
    ])
    // Dates that say both orders settle none: 03/04 is refused beside them.
    const both = read('name,Special hours\nA,12/25/2026 closed\nB,25/12/2026 closed\nC,03/04/2026 closed\n')
    expect(both.map(([dates]) => dates)).toEqual([{ '2026-12-25': 'closed' }, { '2026-12-25': 'closed' }, undefined])
  })

  test('a German sheet: 24.12.2026 and 31.12.; a date that is none is a problem', () => {
    expect(
      read('Name;Sonderöffnungszeiten\nA;"24.12.2026 10.00-14.00; 31.12. geschlossen"\nB;31/02/2026 closed\n'),
    ).toEqual([
      [{ '2026-12-24': '10.00-14.00', [ahead(12, 31)]: 'geschlossen' }, []],
      [undefined, ['special_hours: "31/02/2026" is no date. Write each date as YYYY-MM-DD, such as 2026-12-25.']],
    ])
  })

  test('month names in the languages the import reads: "24. Dezember", "1er janvier", "25 de diciembre de 2026"', () => {
    const csv =
      'name,Special hours\n' +
      'A,"24. Dezember 10-14, 31. Dezember 2026 geschlossen"\n' +
      'B,"25 décembre fermé; 1er janvier 2027 fermé"\n' +
      'C,"25 de diciembre de 2026 cerrado, 6 gennaio 2027 chiuso"\n'
    expect(read(csv)).toEqual([
      [{ [ahead(12, 24)]: '10-14', '2026-12-31': 'geschlossen' }, []],
      [{ [ahead(12, 25)]: 'fermé', '2027-01-01': 'fermé' }, []],
      [{ '2026-12-25': 'cerrado', '2027-01-06': 'chiuso' }, []],
    ])
  })
})

describe('the countries that settle which number of 03/04 is the month', () => {
  const first = (country: string) =>
    read(`name,country,Special hours\nA,${country},07/04/2027 closed\n`)[0]!.map((x) =>
      Array.isArray(x) ? x.map((m) => m.split(':')[1]) : x,
    )
  test('named in another language or as a territory of the United States: the month first', () => {
    for (const country of ['Estados Unidos', 'Vereinigte Staaten', 'États-Unis', 'Puerto Rico', 'PR', 'Philippines'])
      expect([country, first(country)]).toEqual([country, [{ '2027-07-04': 'closed' }, []]])
  })

  test('a country not known, or Canada, whose sheets write either order: refused by name', () => {
    for (const country of ['Untied States', 'Canada', 'CA'])
      expect([country, first(country)]).toEqual([country, [undefined, [' "07/04/2027" may be July 4 or April 7']]])
  })
})

test('a date in the words of the hours before it ("5 may", "1/2 day") is refused, not read', () => {
  const csv =
    'name,Holiday hours\n' +
    'A,"Dec 24 9 to 5 may close early"\n' +
    'B,"12/24 9-5, 12/31 10-4 1/2 day"\n' +
    'C,"Dec 24 9-2; Dec 31 10 to 4\nJan 1 closed"\n'
  const [a, b, c] = read(csv)
  expect(a).toEqual([
    undefined,
    [
      'special_hours: "Dec 24 9 to 5 may close early" has "5 may" within Dec 24\'s hours, with no ";" or "," before it: it may be a date or words of those hours. Write each date as YYYY-MM-DD followed by its hours, the dates apart: "2026-12-24 09:00-14:00; 2026-12-25 closed".',
    ],
  ])
  expect(b![0]).toBeUndefined()
  expect(b![1]).toEqual([expect.stringContaining('has "1/2" within 12/31\'s hours')])
  expect(c).toEqual([{ [ahead(12, 24)]: '9-2', [ahead(12, 31)]: '10 to 4', [ahead(1, 1)]: 'closed' }, []])
})

test('February 29 without a year is the next there is, or of the past week; with a year that has none, refused', () => {
  const [[dates, problems], [german], [none]] = read(
    'name,Special hours\nA,Feb 29 closed\nB,29.02. geschlossen\nC,29.02.2027 geschlossen\n',
  ) as [unknown, unknown][] as [[unknown, unknown], [unknown], [unknown]]
  expect(problems).toEqual([])
  // The first February 29 the calendar has from a week before today (UTC) on.
  const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10)
  const next = Array.from({ length: 9 }, (_, i) => new Date().getUTCFullYear() - 1 + i).find(
    (y) => new Date(Date.UTC(y, 1, 29)).getUTCDate() === 29 && `${y}-02-29` >= weekAgo,
  )
  expect(dates).toEqual({ [`${next}-02-29`]: 'closed' })
  expect(german).toEqual({ [`${next}-02-29`]: 'geschlossen' })
  expect(none).toBeUndefined()
  expect(read('name,Special hours\nC,29.02.2027 geschlossen\n')[0]![1]).toEqual([
    'special_hours: "29.02.2027" is no date: 2027 has no February 29. Write each date as YYYY-MM-DD, such as 2028-02-29.',
  ])
})

test('a run of days ("Dec 25-26") is read day by day, not as its first day; "Dec 24, 9-2" reads 9-2', () => {
  const csv =
    'name,Holiday hours\n' +
    'A,"Dec 24 9-2, Dec 25-26 closed"\n' +
    'B,"Dec 27 to 30 9-6"\n' +
    'C,"Dec 24, 9-2; Dec 31 - 2pm; Jan 2 - 10-4"\n'
  const [a, b, c] = read(csv)
  // A run's days are in its first day's year.
  const [y25, y27] = [ahead(12, 25).slice(0, 4), ahead(12, 27).slice(0, 4)]
  expect(a).toEqual([{ [ahead(12, 24)]: '9-2', [`${y25}-12-25`]: 'closed', [`${y25}-12-26`]: 'closed' }, []])
  expect(b).toEqual([Object.fromEntries([27, 28, 29, 30].map((d) => [`${y27}-12-${d}`, '9-6'])), []])
  expect(c).toEqual([{ [ahead(12, 24)]: '9-2', [ahead(12, 31)]: '- 2pm', [ahead(1, 2)]: '- 10-4' }, []])
})

test('a French or Spanish weekday before a date ("mar. 31 déc.") is not read as March', () => {
  const [fr, es, en] = read(
    'name;Horaires exceptionnels\nA;"24 déc 9h-12h, mar. 31 déc. fermé"\nB;"mar 31 dic cerrado"\nC;"Mar 31 closed"\n',
  )
  expect(fr).toEqual([undefined, [expect.stringContaining('has "31 déc." within 24 déc\'s hours')]])
  expect(es).toEqual([undefined, [expect.stringContaining('has text before its first date')]])
  expect(en).toEqual([{ [ahead(3, 31)]: 'closed' }, []])
})

test("a row's country in a country code column beside an empty country column settles 07/04", () => {
  expect(read('Name,Country,Country Code,Holiday Hours\nA,,US,07/04/2027 closed\n')).toEqual([
    [{ '2027-07-04': 'closed' }, []],
  ])
})
