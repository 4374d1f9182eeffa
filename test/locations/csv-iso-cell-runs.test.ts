// A cell with a YYYY-MM-DD date and a run of days or a first date as a locale writes them
// ("2026-12-24 9-14; Dec 31 - Jan 2 closed", "Dec 24 9-14; 2026-12-31 closed"): each day is read,
// and no part of a run is stored as a day's hours.
import { expect, test } from 'bun:test'
import { readLocationsCsv } from '../../src/locations/csv'

const read = (csv: string) =>
  readLocationsCsv(csv).rows.map((r) => [r.body.special_hours, r.problems.map((p) => `${p.field}: ${p.message}`)])

test("a run of two locale dates after an ISO date's hours is each of its days", () => {
  const csv =
    'name;Special hours\n' +
    'A;"2026-12-24 9-14; Dec 31, 2026 - Jan 2, 2027 closed"\n' +
    'B;"2026-12-24 9-14; 30.12.2026-2.1.2027 zu"\n' +
    'C;"2026-12-24 9-14; Dec 30, 2026 to Dec 31, 2026 closed"\n'
  expect(read(csv)).toEqual([
    [{ '2026-12-24': '9-14', '2026-12-31': 'closed', '2027-01-01': 'closed', '2027-01-02': 'closed' }, []],
    [{ '2026-12-24': '9-14', '2026-12-30': 'zu', '2026-12-31': 'zu', '2027-01-01': 'zu', '2027-01-02': 'zu' }, []],
    [{ '2026-12-24': '9-14', '2026-12-30': 'closed', '2026-12-31': 'closed' }, []],
  ])
})

test('a locale date first in a cell with an ISO date after it is read', () => {
  const csv =
    'name;Special hours\n' +
    'A;"Dec 24, 2026 9-14; 2026-12-31 closed"\n' +
    'B;"24.-26.12.2026 geschlossen; 2026-12-31 10-14"\n'
  expect(read(csv)).toEqual([
    [{ '2026-12-24': '9-14', '2026-12-31': 'closed' }, []],
    [
      { '2026-12-24': 'geschlossen', '2026-12-25': 'geschlossen', '2026-12-26': 'geschlossen', '2026-12-31': '10-14' },
      [],
    ],
  ])
})

test('a dash or "to" and a date after an ISO date are words of its hours, as the export writes them', () => {
  const csv = 'name;Special hours\nA;"2026-12-24 to Dec 31 by appointment; 2026-12-25 - 1.1. zu"\n'
  expect(read(csv)).toEqual([[{ '2026-12-24': 'to Dec 31 by appointment', '2026-12-25': '- 1.1. zu' }, []]])
})
