// The one table of month names (core/month-names.ts) the week's reader and the special hours
// dates share: a special date's month typed as the week's reader folds it is read.
import { expect, test } from 'bun:test'
import { readLocationsCsv } from '../../src/locations/csv'

const row = (header: string, cell: string) => readLocationsCsv(`name;address;${header}\nA;1 Rd;"${cell}"\n`).rows[0]!

test('a special date\'s month typed without its accent, "12 fev 2027", "6 Janner 2027", is read', () => {
  expect(row('special hours', '12 fev 2027 fermé; 6 Janner 2027 geschlossen').body.special_hours).toEqual({
    '2027-02-12': 'fermé',
    '2027-01-06': 'geschlossen',
  })
})
