// The year of a run of days written without one ("Dec 20 - Jan 15 closed"): the first such run
// that ends from a week before today (UTC) on, so a closure under way when the sheet is read is
// this one, not next year's.
import { afterEach, expect, setSystemTime, test } from 'bun:test'
import { readLocationsCsv } from '../../src/locations/csv'

afterEach(() => {
  setSystemTime()
})

/** The special hours of a one-row sheet's cell, read with the clock at `now` (ISO). */
function readAt(now: string, cell: string): [unknown, string[]] {
  setSystemTime(new Date(now))
  const [row] = readLocationsCsv(`name;Special hours\nA;"${cell}"\n`).rows
  return [row!.body.special_hours, row!.problems.map((p) => p.message)]
}

/** Each day from `from` to `to` (YYYY-MM-DD) with the hours `text`. */
function days(from: string, to: string, text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (let t = Date.parse(from); t <= Date.parse(to); t += 86_400_000)
    out[new Date(t).toISOString().slice(0, 10)] = text
  return out
}

test('a run under way, or ended within the week, is this one', () => {
  expect(readAt('2027-01-10T12:00:00Z', 'Dec 20 - Jan 15 closed')).toEqual([
    days('2026-12-20', '2027-01-15', 'closed'),
    [],
  ])
  expect(readAt('2027-01-15T12:00:00Z', 'Jan 2-20 closed')).toEqual([days('2027-01-02', '2027-01-20', 'closed'), []])
  expect(readAt('2027-01-08T12:00:00Z', '28.12.-3.1. zu')).toEqual([days('2026-12-28', '2027-01-03', 'zu'), []])
  // Ended more than a week ago: next year's.
  expect(readAt('2027-01-11T12:00:00Z', '28.12.-3.1. zu')).toEqual([days('2027-12-28', '2028-01-03', 'zu'), []])
})

test('a run through February 29 is in the first leap year from then on', () => {
  expect(readAt('2026-12-07T12:00:00Z', 'Feb 27-29 closed')).toEqual([days('2028-02-27', '2028-02-29', 'closed'), []])
  expect(readAt('2026-12-07T12:00:00Z', 'Feb 28 - Mar 1 closed')).toEqual([
    days('2027-02-28', '2027-03-01', 'closed'),
    [],
  ])
})

test("a date alone without a year within such a run is its day's exception, in the run's year", () => {
  expect(readAt('2027-01-10T12:00:00Z', 'Dec 20 - Jan 15 9-5; Jan 1 closed')).toEqual([
    { ...days('2026-12-20', '2027-01-15', '9-5'), '2027-01-01': 'closed' },
    [],
  ])
  expect(readAt('2027-01-10T12:00:00Z', '1.1. zu; 20.12.-15.1. 9-17')).toEqual([
    { ...days('2026-12-20', '2027-01-15', '9-17'), '2027-01-01': 'zu' },
    [],
  ])
})

test('a US run with its year after its last day, "12/24-26/2027", is of that year', () => {
  expect(readAt('2026-12-07T12:00:00Z', '12/24-26/2027 closed')).toEqual([
    days('2027-12-24', '2027-12-26', 'closed'),
    [],
  ])
})

test('a date alone without a year keeps its own year beside a run written with a year', () => {
  const runs: [string, string, string][] = [
    ['2025-12-24 - 2025-12-26 closed; Dec 25 10-2', '2025-12-24', '2025-12-26'],
    ['Dec 24-26, 2027 closed; Dec 25 10-2', '2027-12-24', '2027-12-26'],
    ['Dec 23, 2027 - Dec 27, 2027 closed; Dec 25 10-2', '2027-12-23', '2027-12-27'],
    ['24.-26.12.2027 closed; 25.12. 10-2', '2027-12-24', '2027-12-26'],
  ]
  for (const [cell, from, to] of runs)
    expect(readAt('2026-12-07T12:00:00Z', cell)).toEqual([{ ...days(from, to, 'closed'), '2026-12-25': '10-2' }, []])
})
