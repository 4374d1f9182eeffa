// The index against the naive scan: random writes (enough to compact, often mid-compaction) and
// random queries, an index built in one go or loaded in slices, and an empty one.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { LocatorIndex, type IndexDoc } from '../../src/engine/locator-index'
import {
  docArb,
  opArb,
  type Upkeep,
  upkeep,
  queryArb,
  oracle,
  spellingsOracle,
  spellings,
  answer,
  inSpaceOrderOnce,
} from './oracle-fixture'
import { taskQueue } from '../helpers'

describe('LocatorIndex agrees with a naive scan', () => {
  test('after random writes (enough to compact the base, often while a compaction is under way), for random queries', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Upkeep>('now', 'queued', 'never'),
        fc.constantFrom(2, 5, 64),
        fc.array(opArb, { maxLength: 400, size: 'max' }),
        fc.array(queryArb, { minLength: 1, maxLength: 8 }),
        (mode, nodeSize, ops, queries) => {
          const tasks = upkeep(mode)
          // FlexSearch rebuilt often; small kd leaves make deep trees of few points, small chunks of
          // the name order split and empty; a small delta compacts often, in steps of a few positions
          // (queued: one step per 'step' op, with writes and queries between them). With leaves of
          // 5, no FlexSearch until a compaction finds 12 live locations.
          const small = nodeSize === 64 ? undefined : nodeSize - 1
          const index = new LocatorIndex([], {
            schedule: tasks.schedule,
            textGarbageMin: 8,
            textMinKeys: nodeSize === 5 ? 12 : 0,
            nodeSize,
            nameChunk: small,
            deltaMin: 4,
            compactionSlice: small,
          })
          const truth = new Map<string, IndexDoc>()
          for (const op of ops) {
            if (op.kind === 'upkeep') tasks.run()
            else if (op.kind === 'step') tasks.step()
            else if (op.kind === 'advance') index.openAt(op.t)
            else if (op.kind === 'compact') index.compact()
            else if (op.kind === 'check') {
              expect(answer(index, queries[0]!)).toEqual(oracle([...truth.values()], queries[0]!))
              expect(spellings(index)).toEqual(spellingsOracle([...truth.values()]))
              inSpaceOrderOnce(index, truth)
            } else if (op.kind === 'upsert') {
              const before = index.get(op.doc.id)
              index.upsert(op.doc)
              truth.set(op.doc.id, op.doc)
              // The replaced entry's JSON place is no longer its id's, nor settable through it.
              if (before !== null) {
                expect(index.json(before)).toBeNull()
                expect(index.setJson(before, 7)).toBe(false)
              }
              expect(index.json(index.get(op.doc.id)!)).toBe(op.doc.json)
            } else if (op.kind === 'setJson') {
              const doc = index.get(`loc_${op.n}`)
              if (doc !== null) {
                expect(index.setJson(doc, op.json)).toBe(true)
                truth.set(doc.id, { ...truth.get(doc.id)!, json: op.json })
              }
            } else {
              index.remove(`loc_${op.n}`)
              truth.delete(`loc_${op.n}`)
            }
          }
          expect(index.size).toBe(truth.size)
          for (const q of queries) expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
          expect(spellings(index)).toEqual(spellingsOracle([...truth.values()]))
          inSpaceOrderOnce(index, truth)
        },
      ),
      { numRuns: 150 },
    )
  })

  test('built in one go from many docs, or loaded in slices as a background build does, then queried', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Upkeep | 'loaded'>('now', 'never', 'loaded'),
        fc.constantFrom(2, 5, 64),
        fc
          .array(fc.nat(), { minLength: 0, maxLength: 700, size: 'max' })
          .chain((ns) => fc.tuple(...ns.map((_, i) => docArb(`loc_${i}`)))),
        fc.array(queryArb, { minLength: 1, maxLength: 5 }),
        (mode, nodeSize, docs, queries) => {
          // With leaves of 5, FlexSearch only for 300 locations or more.
          const tasks = taskQueue()
          const options = {
            schedule: mode === 'loaded' ? tasks.schedule : upkeep(mode).schedule,
            textMinKeys: nodeSize === 5 ? 300 : 0,
            nodeSize,
            nameChunk: nodeSize === 64 ? undefined : nodeSize - 1,
          }
          const index = mode === 'loaded' ? LocatorIndex.loading(options) : new LocatorIndex(docs, options)
          if (mode === 'loaded') {
            // As src/indexes/rebuild.ts loads it: the docs, then its tasks until it says done.
            let done = false
            for (const doc of docs) index.load(doc)
            index.finishLoad(() => void (done = true))
            while (!done) tasks.runOne()
          }
          for (const q of queries) expect(answer(index, q)).toEqual(oracle(docs, q))
        },
      ),
      { numRuns: 40 },
    )
  })

  test('an empty index answers every query with nothing', () => {
    fc.assert(
      fc.property(queryArb, (q) =>
        expect(answer(new LocatorIndex(), q)).toEqual({ total: 0, ids: [], next: [], today: [] }),
      ),
      { numRuns: 50 },
    )
  })
})
