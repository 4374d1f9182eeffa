// examples/sync-parts.ts matching a row to its store as the bulk route does. The script trims a
// JSON item's id as it reads it; the parts it cuts the list with read ids so themselves. A
// request's rows named as a person finds them in the file.
import { expect, test } from 'bun:test'
import { dropsTaken, type Row, rowsNamed, storeOfRow } from '../../examples/sync-parts'

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

const labelled = (label: string, drop = false): Row => ({ ...row('', 'S1'), label, ...(drop && { drop }) })

test("a request's rows are named in the file's order, runs joined, the deletes beside them left out", () => {
  const lines = (...n: number[]) => n.map((i) => labelled(`line ${i}`))
  expect(rowsNamed(lines(7))).toBe('line 7')
  expect(rowsNamed([...lines(47, 3, 2, 45, 4, 48), labelled('the delete of "S9"', true)])).toBe('lines 2-4, 45, 47-48')
  // Rows of three lines each (a quoted line break) next to each other; the row on line 11 not sent.
  const spanning = [2, 5, 8, 14].map((n, i) => ({ ...labelled(`line ${n}`), place: i < 3 ? i : i + 1 }))
  expect(rowsNamed(spanning)).toBe('lines 2-8, 14')
  expect(rowsNamed([5, 0, 1, 2, 9].map((i) => labelled(`locations[${i}]`)))).toBe('locations[0-2, 5, 9]')
  // The items of a top-level JSON array.
  expect(rowsNamed([5, 0, 1, 2, 9].map((i) => labelled(`[${i}]`)))).toBe('[0-2, 5, 9]')
  // Deletes alone, by their stores.
  const drop = (code: string) => ({ ...labelled(`the delete of "${code}"`, true), store: `"${code}" (loc_${code})` })
  expect(rowsNamed([drop('S9')])).toBe('deleting "S9" (loc_S9)')
  expect(rowsNamed([drop('S8'), drop('S9')])).toBe('deleting "S8" (loc_S8), "S9" (loc_S9)')
})

test('a request of scattered rows names ten runs of them and counts the rest', () => {
  const every = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => labelled(`line ${from + 2 * i}`))
  expect(rowsNamed(every(2, 500))).toBe('lines 2, 4, 6, 8, 10, 12, 14, 16, 18, 20 and 490 more')
  const runs = Array.from({ length: 12 }, (_, i) => [10 * i, 10 * i + 1].map((n) => labelled(`locations[${n}]`))).flat()
  expect(rowsNamed(runs)).toBe(
    'locations[0-1, 10-11, 20-21, 30-31, 40-41, 50-51, 60-61, 70-71, 80-81, 90-91 and 4 more]',
  )
})
