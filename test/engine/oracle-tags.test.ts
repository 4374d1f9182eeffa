// Tag queries against the naive scan: bitsets widened by many tags, exactly 32 tags, and kd nodes
// counted whole from their tag columns, with and without dead points.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { LocatorIndex, type IndexDoc, type IndexQuery, type TagLogic } from '../../src/engine/locator-index'
import { CENTERS, TAGS, groupOf, point, upkeep, oracle, answer } from './oracle-fixture'

describe('LocatorIndex agrees with a naive scan', () => {
  test('many distinct tags: bitsets widen while a base exists, and tag queries agree', () => {
    const tagArb = fc.uniqueArray(
      fc.integer({ min: 0, max: 99 }).map((i) => `t${i}`),
      { maxLength: 4 },
    )
    const docs = (n: number, from: number) =>
      fc.array(fc.tuple(point, tagArb), { minLength: n, maxLength: n }).map((xs) =>
        xs.map(
          ([p, tags], i): IndexDoc => ({
            id: `loc_${from + i}`,
            lat: p.lat,
            lng: p.lng,
            json: null,
            nameSort: `n${from + i}`,
            rank: 0,
            tags,
            text: 'x',
          }),
        ),
      )
    fc.assert(
      fc.property(
        docs(40, 0),
        docs(40, 40),
        fc.array(
          fc.record({
            p: point,
            tags: fc.uniqueArray(
              fc.integer({ min: 0, max: 99 }).map((i) => `t${i}`),
              { minLength: 1, maxLength: 3 },
            ),
            tagLogic: fc.constantFrom<TagLogic>('any', 'all', 'match'),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        (first, later, queries) => {
          // New tags widen the bitsets while a base exists and while compactions are under way (one
          // scheduled step per write); queries before and after the upkeep catches up.
          const tasks = upkeep('queued')
          const index = new LocatorIndex(first, {
            schedule: tasks.schedule,
            nodeSize: 4,
            deltaMin: 4,
            compactionSlice: 3,
          })
          for (const doc of later) {
            index.upsert(doc)
            tasks.step()
          }
          const all = [...first, ...later]
          for (const drained of [false, true]) {
            if (drained) tasks.run()
            for (const { p, tags, tagLogic } of queries) {
              const q: IndexQuery = {
                center: p,
                radiusKm: 200,
                tags,
                tagLogic,
                groupOf: (t) => (Number(t.slice(1)) % 2 === 0 ? 'even' : 'odd'),
                search: '',
                sort: 'distance',
                offset: 0,
                limit: 10,
              }
              expect(answer(index, q)).toEqual(oracle(all, q))
            }
          }
        },
      ),
      { numRuns: 100 },
    )
  })

  test('exactly 32 tags (one 32-bit word per bitset, the sign bit in use): tag queries agree', () => {
    // The first doc carries every tag, so t31 takes bit 31; groups of three make match plans of 1-3 groups.
    const every = Array.from({ length: 32 }, (_, i) => `t${i}`)
    const tagArb = fc.uniqueArray(fc.constantFrom(...every), { maxLength: 5 })
    const docs = fc.array(fc.tuple(point, tagArb), { minLength: 60, maxLength: 60 }).map((xs) =>
      xs.map(
        ([p, tags], i): IndexDoc => ({
          id: `loc_${i}`,
          lat: p.lat,
          lng: p.lng,
          json: null,
          nameSort: `n${i}`,
          rank: 0,
          tags: i === 0 ? every : tags,
          text: 'x',
        }),
      ),
    )
    const query = fc.record({
      p: point,
      tags: fc.uniqueArray(fc.constantFrom('t31', 't30', 't0', 't1', 't2', ...every), { minLength: 1, maxLength: 4 }),
      tagLogic: fc.constantFrom<TagLogic>('any', 'all', 'match'),
    })
    fc.assert(
      fc.property(docs, fc.array(query, { minLength: 1, maxLength: 6 }), (all, queries) => {
        const index = new LocatorIndex(all, { schedule: () => {}, nodeSize: 4 })
        for (const { p, tags, tagLogic } of queries) {
          const q: IndexQuery = {
            center: p,
            radiusKm: 200,
            tags,
            tagLogic,
            groupOf: (t) => `g${Number(t.slice(1)) % 3}`,
            search: '',
            sort: 'distance',
            offset: 0,
            limit: 10,
          }
          expect(answer(index, q)).toEqual(oracle(all, q))
          expect(answer(index, { ...q, center: null, sort: 'name' })).toEqual(
            oracle(all, { ...q, center: null, sort: 'name' }),
          )
        }
      }),
      { numRuns: 100 },
    )
  })

  test('kd nodes counted whole from their tag columns, and leaves across the edge counted by chord, leave out their dead points', () => {
    // 400 tagged points along 44 km of a meridian, circles of 15-25 km round one end: the nearest
    // fills the heap (limit 1), so the nodes wholly inside beyond it are counted from their
    // columns (with tags) and the leaves across the circle's edge by their chords alone (without).
    // Every third point then moves away (dead in the base, alive in the delta, outside the
    // circle) or is removed.
    const { lat, lng } = CENTERS[0]!
    const docs: IndexDoc[] = Array.from({ length: 400 }, (_, i) => ({
      id: `loc_${i}`,
      lat: lat + i * 0.001,
      lng: lng + (i % 7) * 0.0003,
      json: null,
      nameSort: `n${i}`,
      rank: 0,
      tags: i % 2 === 0 ? ['bikes'] : ['ski', 'bikes'],
      text: 'x',
    }))
    const index = new LocatorIndex(docs, { schedule: () => {}, nodeSize: 4 })
    const truth = new Map(docs.map((d) => [d.id, d]))
    for (let i = 0; i < docs.length; i += 3) {
      const doc = docs[i]!
      if (i % 2 === 0) {
        index.remove(doc.id)
        truth.delete(doc.id)
      } else {
        const moved = { ...doc, lat: lat - 1 }
        index.upsert(moved)
        truth.set(doc.id, moved)
      }
    }
    for (let radiusKm = 15; radiusKm < 25; radiusKm += 0.37) {
      for (const tags of [[], ['bikes'], ['ski'], ['ski', 'bikes']]) {
        for (const tagLogic of ['any', 'all', 'match'] as const) {
          const q: IndexQuery = {
            center: { lat, lng },
            radiusKm,
            tags,
            tagLogic,
            groupOf,
            search: '',
            sort: 'distance',
            offset: 0,
            limit: 1,
          }
          expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
        }
      }
    }
  })

  test.each([4, 16])(
    'kd nodes counted whole from their tag columns, without dead points: any tag of a group, every group, one to three groups (leaves of %i)',
    (nodeSize) => {
      // 1200 points along 66 km of a meridian, none dead, tagged by their position's residues, so
      // the columns of a run differ word by word; circles round one end: the nearest fill the heap,
      // and the runs wholly inside beyond it are counted from their columns alone, column by column
      // over a run's words (groups of one, two or three columns; runs starting and ending inside a word).
      const { lat, lng } = CENTERS[0]!
      const tagsOf = (i: number) => TAGS.filter((_, k) => (i * (k + 3) + (i >> (k + 1))) % (k + 2) === 0)
      const docs: IndexDoc[] = Array.from({ length: 1200 }, (_, i) => ({
        id: `loc_${i}`,
        lat: lat + i * 0.0005,
        lng: lng + (i % 5) * 0.0002,
        json: null,
        nameSort: `n${i}`,
        rank: 0,
        tags: tagsOf(i),
        text: 'x',
      }))
      const index = new LocatorIndex(docs, { schedule: () => {}, nodeSize })
      const queries: [string[], TagLogic][] = [
        [['repairs'], 'any'],
        [['repairs', 'ski', 'outlet'], 'any'], // one group of three columns
        [['repairs', 'rentals', 'ski'], 'match'], // services (two) and products (one)
        [['ski', 'bikes', 'repairs', 'rentals'], 'match'], // two groups of two
        [['repairs', 'rentals', 'ski', 'bikes', 'outlet'], 'match'], // three groups
        [['rentals', 'wifi'], 'all'], // two groups of one
        [['repairs', 'ski', 'wifi'], 'all'],
      ]
      for (let radiusKm = 20; radiusKm < 60; radiusKm += 3.7) {
        for (const [tags, tagLogic] of queries) {
          for (const limit of [1, 3]) {
            const q: IndexQuery = {
              center: { lat, lng },
              radiusKm,
              tags,
              tagLogic,
              groupOf,
              search: '',
              sort: 'distance',
              offset: 0,
              limit,
            }
            const truth = oracle(docs, q)
            expect(truth.total).toBeGreaterThan(limit)
            expect(answer(index, q)).toEqual(truth)
          }
        }
      }
    },
  )
})
