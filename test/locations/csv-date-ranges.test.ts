// A run of days in a special hours cell ("Dec 24-26 closed", "24.-26.12. geschlossen", "24/12 -
// 26/12 fermé"): read as each day's own date with the run's hours, up to 31 days; a longer run,
// one that ends before it starts, or one not read so is refused saying how to write it.
import { expect, test } from 'bun:test'
import { readLocationsCsv } from '../../src/locations/csv'

const read = (csv: string) =>
  readLocationsCsv(csv).rows.map((r) => [r.body.special_hours, r.problems.map((p) => `${p.field}: ${p.message}`)])

/** Each day from `from` to `to` (YYYY-MM-DD) with the hours `text`. */
function days(from: string, to: string, text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (let t = Date.parse(from); t <= Date.parse(to); t += 86_400_000)
    out[new Date(t).toISOString().slice(0, 10)] = text
  return out
}

test('runs of days as English, German, French and US sheets write them, with their years', () => {
  const csv =
    'name;Special hours\n' +
    'A;"Dec 24-26, 2026 closed"\n' +
    'B;"24.-26.12.2026 geschlossen; 31.12.2026 10-14"\n' +
    'C;"24/12/2026 - 26/12/2026 fermé"\n' +
    'D;"Dec 30, 2026 - Jan 2, 2027 10-4"\n' +
    'E;"24-26 décembre 2026 fermé, 31 décembre 2026 9h-12h"\n' +
    'F;"2026-12-24 to 2026-12-26 closed"\n' +
    'G;"Dec 27 to 30, 2026: 9-6"\n' +
    'H;"24. bis 26. Dezember 2026 geschlossen"\n' +
    'I;"24th-26th December 2026 closed"\n'
  const closed = days('2026-12-24', '2026-12-26', 'closed')
  expect(read(csv)).toEqual([
    [closed, []],
    [{ ...days('2026-12-24', '2026-12-26', 'geschlossen'), '2026-12-31': '10-14' }, []],
    [days('2026-12-24', '2026-12-26', 'fermé'), []],
    [days('2026-12-30', '2027-01-02', '10-4'), []],
    [{ ...days('2026-12-24', '2026-12-26', 'fermé'), '2026-12-31': '9h-12h' }, []],
    [closed, []],
    [days('2026-12-27', '2026-12-30', '9-6'), []],
    [days('2026-12-24', '2026-12-26', 'geschlossen'), []],
    [closed, []],
  ])
  // Hours before a date are no run's first day: "5 Dec" is not read, and "Dec 31" is still found.
  expect(read('name,Special hours\nA,"Dec 24, 2026 9-5 Dec 31, 2026 closed"\n')[0]![1]).toEqual([
    expect.stringContaining('has "Dec 31, 2026" within Dec 24, 2026\'s hours'),
  ])
})

test('a run without a year is in the year its last day alone is read in', () => {
  const [[one]] = read('name,Special hours\nA,Dec 26 closed\n') as [[Record<string, string>]]
  const year = Object.keys(one)[0]!.slice(0, 4)
  const [a, b, c] = read('name;Special hours\nA;Dec 24-26 closed\nB;24.-26.12. zu\nC;"24/12 - 26/12 fermé"\n')
  expect(a).toEqual([days(`${year}-12-24`, `${year}-12-26`, 'closed'), []])
  expect(b).toEqual([days(`${year}-12-24`, `${year}-12-26`, 'zu'), []])
  expect(c).toEqual([days(`${year}-12-24`, `${year}-12-26`, 'fermé'), []])
})

test("a date named alone within a run is that day's exception; two hours for one day are refused", () => {
  const [week, twice] = read(
    'name,Special hours\nA,"Dec 24-31, 2026 9-5; Dec 25, 2026 closed"\nB,"Dec 24-26, 2026 closed; Dec 26-27, 2026 10-2"\n',
  )
  expect(week).toEqual([{ ...days('2026-12-24', '2026-12-31', '9-5'), '2026-12-25': 'closed' }, []])
  expect(twice).toEqual([
    undefined,
    [
      'special_hours: "Dec 24-26, 2026 closed; Dec 26-27, 2026 10-2" gives 2026-12-26 the hours "closed" and "10-2": give each date its hours once. Write each date as YYYY-MM-DD followed by its hours, the dates apart: "2026-12-24 09:00-14:00; 2026-12-25 closed".',
    ],
  ])
})

test('a run of more than 31 days, one ending before it starts, or one of no last date is refused', () => {
  const [long, back, dot] = read(
    'name,Special hours\nA,"Dec 1, 2026 - Jan 15, 2027 closed"\nB,"2026-12-26 - 2026-12-24 closed"\nC,"24.12.2026 - 26 geschlossen"\n',
  )
  expect(long).toEqual([
    undefined,
    [
      'special_hours: "Dec 1, 2026 - Jan 15, 2027" is 46 days, more than the 31 a run of days is read for. Write it as shorter runs ("Dec 24-26 closed") or each date with its hours. Write each date as YYYY-MM-DD followed by its hours, the dates apart: "2026-12-24 09:00-14:00; 2026-12-25 closed".',
    ],
  ])
  expect(back).toEqual([
    undefined,
    [expect.stringContaining('"2026-12-26 - 2026-12-24" does not end after it starts. Write its first day first')],
  ])
  expect(dot).toEqual([
    undefined,
    [
      expect.stringContaining(
        '"24.12.2026 - 26" is no run of days read: write its first and last day as dates ("24.12.-26.12.", "Dec 24 - Dec 26")',
      ),
    ],
  ])
})

test("a number after a slash date is its run's last day by the day the file's order settles", () => {
  const csv =
    'name;Special hours;country\n' +
    'A;20/1/2027 - 17 closed;DE\n' +
    'B;20/3/2027 - 2 closed;DE\n' +
    'C;20.1.2027 - 17 closed;DE\n' +
    'D;20/1/2027 - 25 closed;DE\n'
  const [a, b, c, d] = read(csv)
  // Not a later day: words of the date's hours, as after a date of points.
  expect([a, b, c]).toEqual([
    [{ '2027-01-20': '- 17 closed' }, []],
    [{ '2027-03-20': '- 2 closed' }, []],
    [{ '2027-01-20': '- 17 closed' }, []],
  ])
  expect(d).toEqual([undefined, [expect.stringContaining('"20/1/2027 - 25" is no run of days read')]])
})
