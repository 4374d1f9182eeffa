// Every filter at once against the naive scan: a box, tags, words (as typed, with typos, by their
// forms) and open now in each query, over locations packed round one spot (many on it: ties of
// distance), while writes, compaction steps and time going on come between the queries.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import type { IndexDoc, IndexQuery, SortOrder, TagLogic } from '../../src/engine/locator-index'
import { bboxAround } from '../helpers'
import {
  answer,
  CENTERS,
  docArb,
  FORMS,
  groupOf,
  INSTANTS,
  oracle,
  queuedIndex,
  TAGS,
  TYPOS,
  WORDS,
} from './oracle-fixture'

const SPOT = CENTERS[0]!
/** Up to a tenth of a degree from the spot, now and then on it. */
const near = fc.oneof(
  { weight: 4, arbitrary: fc.double({ min: -0.1, max: 0.1, noNaN: true }) },
  { weight: 1, arbitrary: fc.constant(0) },
)
const packedDoc = (id: string) =>
  fc
    .tuple(docArb(id), near, near)
    .map(([doc, dLat, dLng]): IndexDoc => ({ ...doc, lat: SPOT.lat + dLat, lng: SPOT.lng + dLng }))

const filtersArb: fc.Arbitrary<IndexQuery> = fc
  .record({
    at: fc.record({ dLat: near, dLng: near }),
    half: fc.double({ min: 0.01, max: 0.12, noNaN: true }),
    tags: fc.uniqueArray(fc.constantFrom(...TAGS), { minLength: 1, maxLength: 3 }),
    tagLogic: fc.constantFrom<TagLogic>('any', 'all', 'match'),
    search: fc.constantFrom(...WORDS, ...TYPOS, ...FORMS, 'bi', 'sai', 'rare1', 'mountain bi'),
    openAt: fc.constantFrom(...INSTANTS),
    sort: fc.constantFrom<SortOrder>('distance', 'name', 'priority'),
    offset: fc.integer({ min: 0, max: 3 }),
    limit: fc.integer({ min: 1, max: 8 }),
  })
  .map(({ at, half, ...q }) => {
    const center = { lat: SPOT.lat + at.dLat, lng: SPOT.lng + at.dLng }
    return { ...q, center, radiusKm: 0, bbox: bboxAround(center, half, half), groupOf }
  })

type Op =
  | { kind: 'upsert'; doc: IndexDoc }
  | { kind: 'remove'; n: number }
  | { kind: 'step' }
  | { kind: 'advance'; t: number }
  | { kind: 'query' }
const N = 120
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.nat(N - 1).chain((n) => packedDoc(`loc_${n}`).map((doc): Op => ({ kind: 'upsert', doc }))),
  },
  { weight: 2, arbitrary: fc.nat(N - 1).map((n): Op => ({ kind: 'remove', n })) },
  { weight: 2, arbitrary: fc.constant<Op>({ kind: 'step' }) },
  { weight: 1, arbitrary: fc.constantFrom(...INSTANTS).map((t): Op => ({ kind: 'advance', t })) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: 'query' }) },
)

describe('LocatorIndex agrees with a naive scan', () => {
  test('a box, tags, words and open now in every query, with writes, compaction steps and time going on between them', () => {
    fc.assert(
      fc.property(
        fc.array(packedDoc('x'), { minLength: 20, maxLength: N, size: 'max' }),
        fc.array(opArb, { maxLength: 100, size: 'max' }),
        fc.array(filtersArb, { minLength: 1, maxLength: 4 }),
        (initial, ops, queries) => {
          const { tasks, index, truth, write, remove } = queuedIndex()
          initial.forEach((doc, i) => write({ ...doc, id: `loc_${i}` }))
          tasks.run()
          const check = () => {
            for (const q of queries) expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
          }
          check()
          for (const op of ops) {
            if (op.kind === 'upsert') write(op.doc)
            else if (op.kind === 'remove') remove(`loc_${op.n}`)
            else if (op.kind === 'step') tasks.step()
            else if (op.kind === 'advance') index.openAt(op.t)
            else check()
          }
          tasks.run()
          check()
        },
      ),
      { numRuns: 30 },
    )
  })
})
