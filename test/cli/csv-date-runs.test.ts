// storeloc locations import of a sheet's runs of holiday days ("Dec 24-26 closed"): each day is
// stored as its own date, and the export of them imports back to no change.
import { beforeEach, expect, test } from 'bun:test'
import { file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Runs').locator.id
})

test('runs of days import day by day, and their export imports again to no change', () => {
  const csv =
    'external_id;name;address;lat;lng;Sonderöffnungszeiten\n' +
    'D1;Radhaus Dresden;Prager Straße 10, Dresden;51.0447;13.7365;"24.-26.12.2026 geschlossen; 31.12.2026 10-14"\n' +
    'D2;Radhaus Leipzig;Markt 1, Leipzig;51.34;12.37;"Dec 30, 2026 - Jan 2, 2027 10-4; Dec 31, 2026 closed"\n'
  expect(json('locations', 'import', locatorId, '--file', file('runs.csv', csv)).created).toBe(2)
  const stored = Object.fromEntries(
    json('locations', 'export', locatorId).map((l: { external_id: string; special_hours: object }) => [
      l.external_id,
      l.special_hours,
    ]),
  )
  expect(stored).toEqual({
    D1: {
      '2026-12-24': 'geschlossen',
      '2026-12-25': 'geschlossen',
      '2026-12-26': 'geschlossen',
      '2026-12-31': '10-14',
    },
    D2: { '2026-12-30': '10-4', '2026-12-31': 'closed', '2027-01-01': '10-4', '2027-01-02': '10-4' },
  })
  const exported = storeloc('locations', 'export', locatorId, '--format', 'csv').stdout
  const again = json('locations', 'import', locatorId, '--file', file('export.csv', exported))
  expect([again.created, again.updated, again.unchanged]).toEqual([0, 0, 2])
})
