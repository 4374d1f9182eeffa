// A Danish range of months in a week's hours ("okt-marts"): a season, named whole.
import { expect, test } from 'bun:test'
import { readLocationsCsv } from '../src/locations/csv'

test('a Danish range of months, "okt-marts", is named whole as a season of the week', () => {
  const row = readLocationsCsv('name;address;hours\nA;1 Rd;"Man-Fre 9-17 (okt-marts)"\n').rows[0]!
  expect(row.problems).toEqual([
    {
      field: 'hours',
      message: expect.stringContaining('its "okt-marts" is a season, not read: its months are no days.'),
    },
  ])
})
