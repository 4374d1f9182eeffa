// examples/sync-parts.ts matching a row to its store as the bulk route does. The script trims a
// JSON item's id as it reads it; the parts it cuts the list with read ids so themselves.
import { expect, test } from 'bun:test'
import { dropsTaken, type Row, storeOfRow } from '../../examples/sync-parts'

const row = (id: string, code: string): Row => ({
  label: 'line 2',
  location: { id, external_id: code, name: 'One', address: '1 Main St, Town' },
  wholeSpecialHours: false,
  notes: [],
})

test('a row taking the code of a store the list drops is its own store by its id, blanks around it aside', () => {
  const stored = [
    { id: 'loc_aaaaaaaaaaaaaaaa', external_id: 'S1' },
    { id: 'loc_bbbbbbbbbbbbbbbb', external_id: 'S2' },
  ]
  // One, by its id, takes S2 from the store the list drops: that store is deleted in One's request.
  for (const id of ['loc_aaaaaaaaaaaaaaaa', ' loc_aaaaaaaaaaaaaaaa\t']) {
    const one = row(id, 'S2')
    expect(storeOfRow(stored)(one)).toBe('loc_aaaaaaaaaaaaaaaa')
    expect(dropsTaken([one], stored).map((d) => d.location)).toEqual([{ id: 'loc_bbbbbbbbbbbbbbbb', delete: true }])
  }
})
