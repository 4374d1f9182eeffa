// Clusters against the naive scan: after random writes, compaction steps and time going on, a map's
// clusters and single locations hold exactly what the naive oracle matches (tags any, all or match;
// words as typed, with typos or by their forms, the reading chosen over every location; open now),
// each once; a cluster's leaves come in the naive name order and page as it does.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { type IndexDoc, type IndexQuery, LocatorIndex, MAX_ZOOM } from '../../src/engine/locator-index'
import { type Bbox, inBbox } from '../helpers'
import { bboxArb, docArb, opArb, oracle, queryArb, type Upkeep, upkeep } from './oracle-fixture'

const WORLD: Bbox = [-180, -90, 180, 90]

/** The naive matches of a map's query, by name: its words read as over every location, whatever the box. */
function naiveMatches(docs: IndexDoc[], q: IndexQuery): string[] {
  const everywhere = { ...q, center: null, bbox: null, sort: 'name' as const, offset: 0, limit: docs.length }
  return oracle(docs, everywhere).ids.map(([id]) => id as string)
}

const askArb = fc.record({
  q: queryArb,
  // Mostly the zooms at which points half a degree apart still cluster.
  zoom: fc.oneof(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: MAX_ZOOM })),
  box: bboxArb,
  page: fc.record({ offset: fc.integer({ min: 0, max: 6 }), limit: fc.integer({ min: 1, max: 5 }) }),
})

type Ask = typeof askArb extends fc.Arbitrary<infer A> ? A : never

/** The world's clusters and singles are the naive matches, each once; each cluster's leaves by name, paged; a box's answer is the world's within it. */
function agree(index: LocatorIndex, docs: IndexDoc[], { q, zoom, box, page }: Ask): void {
  const map: IndexQuery = { ...q, center: null, sort: 'name', offset: 0, limit: 500 }
  const want = naiveMatches(docs, map)
  const world = index.clusters({ ...map, bbox: WORLD }, zoom)!
  const label = JSON.stringify({ search: q.search, tags: q.tags, logic: q.tagLogic, openAt: q.openAt, zoom })
  expect({ label, total: world.total }).toEqual({ label, total: want.length })
  const seen = world.singles.map((k) => index.entryAt(k).id)
  for (const c of world.clusters) {
    const all = index.clusterLeaves({ ...map, offset: 0, limit: want.length }, c.id)!
    const leaves = all.hits.map((h) => index.entryAt(h.key).id)
    expect(all.total).toBe(c.count)
    const held = new Set(leaves)
    expect(leaves).toEqual(want.filter((id) => held.has(id)))
    const paged = index.clusterLeaves({ ...map, ...page }, c.id)!
    expect(paged.total).toBe(c.count)
    expect(paged.hits.map((h) => index.entryAt(h.key).id)).toEqual(leaves.slice(page.offset, page.offset + page.limit))
    seen.push(...leaves)
  }
  expect({ label, seen: seen.sort() }).toEqual({ label, seen: [...want].sort() })
  // A box: the world's clusters whose centre, and singles whose point, lie in it.
  const inBox = index.clusters({ ...map, bbox: box }, zoom)!
  const ids = (cs: { id: string }[]) => cs.map((c) => c.id).sort()
  expect(ids(inBox.clusters)).toEqual(ids(world.clusters.filter((c) => inBbox(box, c))))
  expect(inBox.singles.map((k) => index.entryAt(k).id).sort()).toEqual(
    world.singles
      .filter((k) => inBbox(box, index.pointAt(k)))
      .map((k) => index.entryAt(k).id)
      .sort(),
  )
}

describe('clusters agree with a naive scan', () => {
  test('after random writes, compaction steps and time going on, with every filter: each match once, leaves by name and paged', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Upkeep>('now', 'queued', 'never'),
        fc.array(opArb, { maxLength: 250, size: 'max' }),
        fc.array(askArb, { minLength: 1, maxLength: 4 }),
        (mode, ops, asks) => {
          const tasks = upkeep(mode)
          const index = new LocatorIndex([], {
            schedule: tasks.schedule,
            nodeSize: 4,
            deltaMin: 4,
            compactionSlice: 16,
            textMinKeys: 0,
          })
          const truth = new Map<string, IndexDoc>()
          for (const op of ops) {
            // A quiet time after writes (IndexRegistry.settleDeltas): the delta folded in, the clusters built anew.
            if (op.kind === 'upkeep') {
              tasks.run()
              index.settle()
              index.settleClusters()
              tasks.run()
            } else if (op.kind === 'step') tasks.step()
            else if (op.kind === 'advance') index.openAt(op.t)
            else if (op.kind === 'compact') index.compact()
            else if (op.kind === 'check') agree(index, [...truth.values()], asks[0]!)
            else if (op.kind === 'upsert') {
              index.upsert(op.doc)
              truth.set(op.doc.id, op.doc)
            } else if (op.kind === 'remove') {
              index.remove(`loc_${op.n}`)
              truth.delete(`loc_${op.n}`)
            }
          }
          for (const ask of asks) agree(index, [...truth.values()], ask)
        },
      ),
      { numRuns: 40 },
    )
  })

  test('built in one go from many docs, words led by their postings in a box: each match once', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.nat(), { minLength: 200, maxLength: 700, size: 'max' })
          .chain((ns) => fc.tuple(...ns.map((_, i) => docArb(`loc_${i}`)))),
        fc.array(askArb, { minLength: 1, maxLength: 4 }),
        (docs, asks) => {
          const index = new LocatorIndex(docs, { schedule: upkeep('now').schedule, textMinKeys: 0, nodeSize: 8 })
          for (const ask of asks) agree(index, docs, ask)
        },
      ),
      { numRuns: 10 },
    )
  })
})
