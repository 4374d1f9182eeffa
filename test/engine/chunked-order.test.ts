// The name order's chunked list against a plain sorted array, under random inserts, removals and
// renames (a key is taken out before its entry changes, as the index does).
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { ChunkedOrder } from '../../src/engine/chunked-order'

const op = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('put' as const),
      key: fc.integer({ min: 0, max: 150 }),
      name: fc.integer({ min: 0, max: 40 }),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('remove' as const), key: fc.integer({ min: 0, max: 150 }) }), weight: 2 },
)
const range = fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 200 }))

describe('ChunkedOrder', () => {
  test('holds the keys in order after any inserts, removals and renames; slices agree', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 60, size: 'max' }),
        fc.array(op, { maxLength: 500, size: 'max' }),
        fc.array(range, { maxLength: 10 }),
        (chunk, initial, ops, ranges) => {
          // Keys 1000.. are built in; the rest come and go. Ties of name are broken by key.
          const name = new Map<number, number>()
          initial.forEach((n, i) => name.set(1000 + i, n))
          const compare = (a: number, b: number) => name.get(a)! - name.get(b)! || a - b
          const order = new ChunkedOrder(compare, [...name.keys()].sort(compare), chunk)
          for (const o of ops) {
            if (name.has(o.key)) {
              expect(order.remove(o.key)).toBe(true)
              name.delete(o.key)
            } else if (o.kind === 'remove') {
              expect(order.remove(o.key)).toBe(false)
            }
            if (o.kind === 'put') {
              name.set(o.key, o.name)
              order.insert(o.key)
            }
          }
          const naive = [...name.keys()].sort(compare)
          expect(order.chunks.flat()).toEqual(naive)
          expect(order.length).toBe(naive.length)
          for (const list of order.chunks) {
            expect(list.length).toBeGreaterThan(0)
            expect(list.length).toBeLessThanOrEqual(2 * chunk)
          }
          for (const [a, b] of ranges) expect(order.slice(a, b)).toEqual(naive.slice(a, b))
        },
      ),
      { numRuns: 300 },
    )
  })
})
