// Compaction against the naive scan: points moved mid-compaction, pages by rank made again after it,
// settle(), and the KDBush sorted in a worker thread.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { LocatorIndex, type IndexDoc, type IndexQuery } from '../../src/engine/locator-index'
import { CENTERS, groupOf, docArb, upkeep, queryArb, oracle, answer } from './oracle-fixture'

describe('LocatorIndex agrees with a naive scan', () => {
  test.each([4, 64])(
    'points moved while a compaction is under way are dead in the new base: leaves across the edge, counted by chord, leave them out (leaves of %i)',
    (nodeSize) => {
      // As above, but the points move between the compaction's steps, 2 a step through all of
      // them: those moved after the snapshot are dead in the new base (alive in the delta, outside
      // the circle), and those moved after their position was filled keep their old place in it.
      const { lat, lng } = CENTERS[0]!
      const docs: IndexDoc[] = Array.from({ length: 400 }, (_, i) => ({
        id: `loc_${i}`,
        lat: lat + i * 0.001,
        lng: lng + (i % 7) * 0.0003,
        json: null,
        nameSort: `n${i}`,
        rank: 0,
        tags: [],
        text: 'x',
      }))
      const tasks = upkeep('queued')
      const index = new LocatorIndex(docs, { schedule: tasks.schedule, nodeSize, deltaMin: 4, compactionSlice: 16 })
      tasks.run()
      const truth = new Map(docs.map((d) => [d.id, d]))
      const move = (i: number) => {
        const moved = { ...docs[i]!, lat: lat - 1 - i * 1e-4 }
        index.upsert(moved)
        truth.set(moved.id, moved)
      }
      const sweep = () => {
        for (let radiusKm = 15; radiusKm < 25; radiusKm += 1.37) {
          const q: IndexQuery = {
            center: { lat, lng },
            radiusKm,
            tags: [],
            tagLogic: 'any',
            groupOf,
            search: '',
            sort: 'distance',
            offset: 0,
            limit: 1,
          }
          expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
        }
      }
      // Past the delta's bound (a tenth of the base): a compaction is scheduled.
      for (let i = 355; i < 400; i++) move(i)
      expect(index.compacting).toBe(true)
      let next = 1
      while (index.compacting) {
        tasks.step()
        for (let k = 0; k < 2 && next < 355; k++, next += 3) move(next)
        sweep()
      }
      expect(next).toBeGreaterThan(30)
      sweep()
    },
  )

  test('what priority and name-rank pages made from the base is made again after a compaction, in its upkeep, before a query asks; nothing else is', () => {
    const { lat, lng } = CENTERS[0]!
    // 400 locations, their names in the reverse of their places, every tenth with the word "late"
    // (its matches begin names late in the order: the page is chosen by name rank), ranks 0-3.
    const docs: IndexDoc[] = Array.from({ length: 400 }, (_, i) => ({
      id: `loc_${i}`,
      lat: lat + (i % 20) * 0.002,
      lng: lng + Math.floor(i / 20) * 0.002,
      json: null,
      nameSort: `n${String(999 - i).padStart(3, '0')}`,
      rank: i % 4,
      tags: [],
      text: i % 10 === 3 ? 'x late' : 'x',
    }))
    const queries: IndexQuery[] = [
      {
        center: { lat, lng },
        radiusKm: 50,
        tags: [],
        tagLogic: 'any',
        groupOf,
        search: '',
        sort: 'priority',
        offset: 0,
        limit: 5,
      },
      {
        center: null,
        radiusKm: 0,
        tags: [],
        tagLogic: 'any',
        groupOf,
        search: '',
        sort: 'priority',
        offset: 3,
        limit: 5,
      },
      {
        center: null,
        radiusKm: 0,
        tags: [],
        tagLogic: 'any',
        groupOf,
        search: 'late',
        sort: 'name',
        offset: 2,
        limit: 5,
      },
    ]
    const compacted = (ask: boolean) => {
      const tasks = upkeep('queued')
      const index = new LocatorIndex(docs, {
        schedule: tasks.schedule,
        nodeSize: 4,
        deltaMin: 4,
        compactionSlice: 16,
        nameChunk: 8,
        byRankMin: 0,
      })
      tasks.run()
      const truth = new Map(docs.map((d) => [d.id, d]))
      if (ask) for (const q of queries) expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
      const before = index.stats().ranksMade
      for (let i = 0; i < 60; i++) {
        const moved = { ...docs[i * 5]!, lat: lat + 0.05 + i * 0.001 }
        index.upsert(moved)
        truth.set(moved.id, moved)
      }
      expect(index.compacting).toBe(true)
      tasks.run()
      expect(index.compacting).toBe(false)
      return { index, tasks, truth, before, after: index.stats().ranksMade }
    }
    const asked = compacted(true)
    expect(asked.before).toEqual({ nodes: true, columns: true, names: true })
    expect(asked.after).toEqual({ nodes: true, columns: true, names: true })
    for (const q of queries) expect(answer(asked.index, q)).toEqual(oracle([...asked.truth.values()], q))
    // New priority rules: the ranks' own are dropped, and made again by the upkeep, for the new ranks.
    const first = new Set(['loc_7', 'loc_210', 'loc_399'])
    asked.index.rankBy([{ ids: first }])
    for (const [id, doc] of asked.truth) asked.truth.set(id, { ...doc, rank: first.has(id) ? 0 : 1 })
    expect(asked.index.stats().ranksMade).toEqual({ nodes: false, columns: false, names: true })
    asked.tasks.run()
    expect(asked.index.stats().ranksMade).toEqual({ nodes: true, columns: true, names: true })
    for (const q of queries) expect(answer(asked.index, q)).toEqual(oracle([...asked.truth.values()], q))
    const idle = compacted(false)
    expect(idle.before).toEqual({ nodes: false, columns: false, names: false })
    expect(idle.after).toEqual({ nodes: false, columns: false, names: false })
  })

  test("settle() compacts changes below the delta's bound once asked, from deltaMin changes (moved, added or removed), never two at once; the answers stay the oracle's", () => {
    const { lat, lng } = CENTERS[0]!
    const docs: IndexDoc[] = Array.from({ length: 200 }, (_, i) => ({
      id: `loc_${i}`,
      lat: lat + (i % 20) * 0.002,
      lng: lng + Math.floor(i / 20) * 0.002,
      json: null,
      nameSort: `n${String(i).padStart(3, '0')}`,
      rank: i % 3,
      tags: i % 2 === 0 ? ['bikes'] : ['ski'],
      text: 'x',
    }))
    const tasks = upkeep('queued')
    // The bound is a tenth of the base (20): 7 changes stay in the delta until settle() is asked.
    const index = new LocatorIndex(docs, { schedule: tasks.schedule, nodeSize: 4, deltaMin: 8, compactionSlice: 16 })
    tasks.run()
    const truth = new Map(docs.map((d) => [d.id, d]))
    const queries: IndexQuery[] = [
      {
        center: null,
        radiusKm: 0,
        tags: ['bikes'],
        tagLogic: 'any',
        groupOf,
        search: '',
        sort: 'name',
        offset: 3,
        limit: 5,
      },
      {
        center: null,
        radiusKm: 0,
        tags: ['ski'],
        tagLogic: 'any',
        groupOf,
        search: '',
        sort: 'priority',
        offset: 0,
        limit: 7,
      },
      {
        center: { lat, lng },
        radiusKm: 2,
        tags: ['bikes'],
        tagLogic: 'all',
        groupOf,
        search: '',
        sort: 'distance',
        offset: 0,
        limit: 4,
      },
    ]
    const check = () => {
      for (const q of queries) expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
    }
    const settled = () => {
      expect(index.settle()).toBe(true)
      expect(index.compacting).toBe(true)
      expect(index.settle()).toBe(false) // one at a time
      tasks.run()
      expect(index.compacting).toBe(false)
      expect(index.stats()).toMatchObject({ base: truth.size, delta: 0 })
      expect(index.settle()).toBe(false) // nothing left to fold in
      check()
    }
    expect(index.settle()).toBe(false) // no change yet
    // 3 moved (each in the delta and dead in the base), 1 added: 7 changes, one short.
    for (const i of [0, 5, 10]) {
      const moved = { ...docs[i]!, lat: lat + 0.05 + i * 0.001, tags: ['ski'] }
      index.upsert(moved)
      truth.set(moved.id, moved)
    }
    const added: IndexDoc = { ...docs[1]!, id: 'loc_new', nameSort: 'n000a', tags: ['bikes'] }
    index.upsert(added)
    truth.set(added.id, added)
    expect(index.settle()).toBe(false)
    expect(index.compacting).toBe(false)
    check()
    index.remove('loc_2')
    truth.delete('loc_2')
    settled()
    // Removals alone (dead in the base, nothing in the delta) count too.
    for (let i = 20; i < 36; i += 2) {
      index.remove(`loc_${i}`)
      truth.delete(`loc_${i}`)
    }
    settled()
  })
})

describe('compaction with its KDBush sorted in a worker thread', () => {
  test('writes between its steps and while the worker sorts: answers agree with a naive scan throughout', async () => {
    const docs = fc.sample(fc.tuple(...Array.from({ length: 300 }, (_, i) => docArb(`loc_${i}`))), {
      numRuns: 1,
      seed: 7,
    })[0]!
    const truth = new Map(docs.map((d) => [d.id, d]))
    // The delta's bound is 30 (a tenth of the base); a step scans 80 keys or fills 20 positions.
    const index = new LocatorIndex(docs, { kdWorkerMin: 1, compactionSlice: 20, deltaMin: 8 })
    const moves = fc.sample(fc.tuple(fc.integer({ min: 0, max: 299 }), docArb('x')), { numRuns: 200, seed: 11 })
    const queries = fc.sample(queryArb, { numRuns: 12, seed: 5 })
    const agree = () => {
      for (const q of queries) expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
    }
    const write = ([i, d]: [number, IndexDoc]) => {
      const doc = { ...d, id: `loc_${i}` }
      index.upsert(doc)
      truth.set(doc.id, doc)
      if (i % 5 === 0) {
        index.remove(doc.id)
        truth.delete(doc.id)
      }
      return doc.id
    }
    let next = 0
    while (!index.compacting) write(moves[next++]!)
    // One write per turn of the event loop: some land between the scan's and fill's steps, some
    // while the worker sorts; the answers are checked as they go.
    const during = new Set<string>()
    for (let turn = 0; turn < 40; turn++) {
      during.add(write(moves[next++]!))
      await new Promise((resolve) => setTimeout(resolve, 0))
      if (turn % 8 === 0) agree()
    }
    for (let waited = 0; index.compacting && waited < 5000; waited += 5) await Bun.sleep(5)
    expect(index.stats().compacting).toBe(false)
    expect(index.stats().kdSortedInWorker).toBeGreaterThan(0)
    // What is left in the delta was written after the last compaction began.
    expect(index.stats().delta).toBeLessThanOrEqual(during.size)
    agree()
  })
  // The tables are made in a step of their own while the worker sorts; whichever of the two ends
  // last goes on, and only it: one line of steps, whatever the order.
  test.each([
    ['before', true],
    ['after', false],
  ] as const)(
    'the worker answering %s the tables are made: the compaction goes on in one line of steps, to its end',
    async (_, answerFirst) => {
      const docs = fc.sample(fc.tuple(...Array.from({ length: 300 }, (_, i) => docArb(`loc_${i}`))), {
        numRuns: 1,
        seed: 3,
      })[0]!
      const truth = new Map(docs.map((d) => [d.id, d]))
      const queue: (() => void)[] = []
      // Slices larger than the index: the first step scans every key, the second asks for the KDBush.
      const index = new LocatorIndex(docs, {
        schedule: (task) => queue.push(task),
        kdWorkerMin: 1,
        compactionSlice: 1000,
        deltaMin: 8,
      })
      while (queue.length > 0) queue.shift()!() // the build's own upkeep
      const moves = fc.sample(fc.tuple(fc.integer({ min: 0, max: 299 }), docArb('x')), { numRuns: 100, seed: 13 })
      for (let next = 0; !index.compacting; next++) {
        const doc = { ...moves[next]![1], id: `loc_${moves[next]![0]}` }
        index.upsert(doc)
        truth.set(doc.id, doc)
      }
      /** The tasks queued when the worker's answer came: 1 (the tables' step, not run yet) or 0 (it had run). */
      let queuedAtAnswer = -1
      const answered = () => index.stats().kdSortedInWorker > 0
      const waitForAnswer = async (ms: number) => {
        const queued = queue.length
        for (let waited = 0; !answered() && waited < ms; waited += 5) await Bun.sleep(5)
        if (answered() && queuedAtAnswer === -1) queuedAtAnswer = queued
      }
      for (let tasks = 0; index.compacting && tasks < 1000; tasks++) {
        // Never two lines of steps: at most one task waits at any time.
        expect(queue.length).toBeLessThanOrEqual(1)
        if (queue.length === 0)
          await waitForAnswer(5000) // the tables are made: only the worker's answer goes on
        else {
          queue.shift()!()
          if (answerFirst && tasks === 1) await waitForAnswer(5000) // the KDBush was asked for: its answer first
        }
      }
      expect(index.stats().compacting).toBe(false)
      expect(queue.length).toBe(0)
      expect(queuedAtAnswer).toBe(answerFirst ? 1 : 0)
      for (const q of fc.sample(queryArb, { numRuns: 12, seed: 5 }))
        expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
    },
  )
})
