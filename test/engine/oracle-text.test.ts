// Word searches against the naive scan: typos over common words, term columns, prefix columns, and a
// prefix that begins two words of the same locations.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { LocatorIndex, type IndexDoc, type IndexQuery } from '../../src/engine/locator-index'
import { CENTERS, groupOf, docArb, upkeep, queuedIndex, queryArb, oracle, answer } from './oracle-fixture'

describe('LocatorIndex agrees with a naive scan', () => {
  test('typos over common words (in base columns, not FlexSearch) with locations written since the base: the delta counts too', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.nat(), { minLength: 300, maxLength: 600, size: 'max' })
          .chain((ns) => fc.tuple(...ns.map((_, i) => docArb(`loc_${i}`)))),
        fc.array(fc.tuple(fc.nat(), docArb('x')), { minLength: 1, maxLength: 40, size: 'max' }),
        fc.array(queryArb, { minLength: 1, maxLength: 6 }),
        (sent, writes, queries) => {
          // A word two locations in three have: too common for FlexSearch, a base column of its own.
          const common = (d: IndexDoc, i: number) => (i % 3 === 0 ? d : { ...d, text: `${d.text} mountains` })
          const docs = sent.map(common)
          // Few candidates make a heap; more, matches marked and the name order walked.
          const index = new LocatorIndex(docs, {
            schedule: upkeep('now').schedule,
            textMinKeys: 0, // FlexSearch's postings however few the locations: the word-led plans
            fuzzyHeapMax: queries.length % 2 === 0 ? 50 : 2000,
          })
          const truth = new Map(docs.map((d) => [d.id, d]))
          // Rewritten after the build: in the delta, and in no base column.
          for (const [n, doc] of writes) {
            // A word new since the base ("mountainz": no column), two edits from "mountins".
            const written = { ...common(doc, n), id: docs[n % docs.length]!.id, text: `${doc.text} mountainz` }
            index.upsert(written)
            truth.set(written.id, written)
          }
          expect(index.stats().delta).toBeGreaterThan(0)
          for (const q of queries) {
            const typo = { ...q, search: `${q.limit % 2 === 0 ? 'mountins' : 'montains'} ${q.search}`.trim() }
            expect(answer(index, typo)).toEqual(oracle([...truth.values()], typo))
          }
          // Every run, over every location: the typo's terms listed from their column (a heap), or
          // its matches marked and the name order walked (fuzzyHeapMax 50).
          for (const sort of ['name', 'priority'] as const) {
            const q: IndexQuery = {
              ...{ center: null, radiusKm: 0, tags: [], tagLogic: 'any', groupOf },
              ...{ search: 'mountins', sort, offset: 3, limit: 5 },
            }
            expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
          }
        },
      ),
      { numRuns: 25 },
    )
  })

  test('term columns: common words decided by their columns, a prefix partly in the base, words made during a build, gone and back', () => {
    // 240 points round Paris. "store" is in 4 locations of 5, "common" in every other and "coral"
    // in every third: each gets a column. "comet" is in 2 (no column), so the prefix "com" is partly in columns.
    // Then, while a compaction is under way: "comfy" is made (a term newer than the build's
    // scan), every "comet" is rewritten without it (its df falls to 0), and one comes back in
    // the delta; a by-distance query at each step, paged, agrees with the naive scan.
    const { lat, lng } = CENTERS[0]!
    const doc = (i: number, words: string[]): IndexDoc => ({
      id: `loc_${i}`,
      lat: lat + (i % 16) * 0.004,
      lng: lng + Math.floor(i / 16) * 0.004,
      json: null,
      nameSort: `n${i}`,
      rank: i % 3,
      tags: [],
      text: [...(i % 5 === 0 ? [] : ['store']), ...words].join(' '),
    })
    const wordsOf = (i: number) => [
      ...(i % 2 === 0 ? ['common'] : []),
      ...(i % 3 === 0 ? ['coral'] : []),
      ...(i === 5 || i === 77 ? ['comet'] : []),
    ]
    const { tasks, index, truth, write } = queuedIndex()
    for (let i = 0; i < 240; i++) write(doc(i, wordsOf(i)))
    index.compact()
    const check = () => {
      for (const search of [
        'common',
        'com',
        'cor',
        'coral com',
        'common comet',
        'comfy',
        'comf',
        'store co',
        'common coral c',
      ]) {
        for (const [radiusKm, offset] of [
          [1.5, 0],
          [4, 7],
          [40, 0],
          [40, 100],
        ] as const) {
          for (const sort of ['distance', 'priority'] as const) {
            const q: IndexQuery = {
              center: { lat: lat + 0.03, lng: lng + 0.03 },
              radiusKm,
              tags: [],
              tagLogic: 'any',
              groupOf,
              search,
              sort,
              offset,
              limit: 5,
            }
            expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
          }
        }
      }
    }
    check()
    // Enough writes to pass the delta's bound (a tenth of the base): a compaction is scheduled.
    for (let i = 100; i < 130; i++) write(doc(i, [...wordsOf(i), 'coral']))
    expect(index.compacting).toBe(true)
    tasks.step()
    write(doc(200, ['comfy', 'common']))
    check()
    tasks.step()
    write(doc(5, wordsOf(4)))
    write(doc(77, wordsOf(76)))
    check()
    tasks.step()
    write(doc(77, ['comet']))
    check()
    tasks.run()
    expect(index.compacting).toBe(false)
    check()
    write(doc(77, wordsOf(76)))
    index.compact()
    check()
  })

  test('prefix columns: prefixes typed letter by letter, begun by many rare terms (postcodes) or by a rare one beside common ones, before, during and after a compaction', () => {
    // 320 points round Paris, each with a postcode of its own ("10000" + i: rare, no term
    // column), "store" in 4 of 5 and "stoves" in every other (columns), "stockholm" in one, then
    // two (too rare for a column: under 1 in 128). So "1", "10", "100" and "s", "st", "sto" get
    // prefix columns: "1..." begins hundreds of terms, "sto" one without a column. Then, while a compaction is
    // under way, postcodes made after its tables ("19999"), locations rewritten without theirs
    // or with another's, and one removed; every query, by distance, by priority and all=true by
    // name, paged, agrees with the naive scan.
    const { lat, lng } = CENTERS[0]!
    const doc = (i: number, extra: string[] = [], code = String(10000 + i)): IndexDoc => ({
      id: `loc_${i}`,
      lat: lat + (i % 16) * 0.004,
      lng: lng + Math.floor(i / 16) * 0.004,
      json: null,
      nameSort: `n${i}`,
      rank: i % 3,
      tags: [],
      text: [
        code,
        ...(i % 5 === 0 ? [] : ['store']),
        ...(i % 2 === 0 ? ['stoves'] : []),
        ...(i === 160 ? ['stockholm'] : []),
        ...extra,
      ].join(' '),
    })
    const { tasks, index, truth, write, remove } = queuedIndex()
    for (let i = 0; i < 320; i++) write(doc(i))
    index.compact()
    const check = () => {
      for (const search of [
        '1',
        '10',
        '100',
        '1001',
        '1999',
        's',
        'st',
        'sto',
        'stoc',
        'store 1',
        'stoves st',
        '10000 s',
      ]) {
        for (const [center, radiusKm, offset] of [
          [{ lat: lat + 0.03, lng: lng + 0.03 }, 1.5, 0],
          [{ lat: lat + 0.03, lng: lng + 0.03 }, 40, 7],
          [null, 0, 0],
          [null, 0, 150],
        ] as const) {
          for (const sort of ['distance', 'priority', 'name'] as const) {
            if (sort === 'distance' && center === null) continue
            // limit 0 (the index's own callers; the API asks for 1 or more): the total alone.
            for (const limit of [5, 0]) {
              const q: IndexQuery = {
                center,
                radiusKm,
                tags: [],
                tagLogic: 'any',
                groupOf,
                search,
                sort,
                offset,
                limit,
              }
              expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
            }
          }
        }
      }
    }
    check()
    // Enough writes to pass the delta's bound: a compaction is scheduled.
    for (let i = 100; i < 140; i++) write(doc(i, ['stoves']))
    write(doc(101, ['stockholm'])) // in the delta
    expect(index.compacting).toBe(true)
    tasks.step()
    write(doc(7, [], '19999')) // a postcode newer than the build's tables
    check()
    tasks.step()
    write(doc(8, [], 'none')) // no postcode now
    write(doc(9, [], '10010')) // another's
    remove('loc_10')
    check()
    tasks.run()
    expect(index.compacting).toBe(false)
    check()
    write(doc(8))
    index.compact()
    check()
    // Another compaction, a location written with a postcode new to the vocabulary after each of
    // its steps (the sorted terms scanned for prefix columns a few at a time meanwhile).
    for (let i = 140; i < 180; i++) write(doc(i, ['stoves']))
    expect(index.compacting).toBe(true)
    for (let i = 0; i < 30; i++) {
      tasks.step()
      write(doc(200 + i, [], String(15000 + i)))
      if (i % 3 === 0) check()
    }
    tasks.run()
    expect(index.compacting).toBe(false)
    check()
  })

  test("a prefix that begins two words of the same locations, led by its words' postings: each location counted once, with all=true (the walked page and the page by name rank) and within a circle", () => {
    // 3000 locations; "sal" begins "salem" and "salon" of 8 of them and "salty" of 5 more (21
    // words: fewer than 1 in 128 locations, so no prefix column), so FlexSearch's postings of the
    // three words lead, each of the 8 in two of them. A page ending at most 2 in marks those
    // candidates and walks the name order, or ranks them (the 8 are last in it); then 3 more are
    // written (the delta).
    const { lat, lng } = CENTERS[1]!
    const doc = (i: number, words: string): IndexDoc => ({
      id: `loc_${i}`,
      lat: lat + (i % 50) * 0.01,
      lng: lng + Math.floor(i / 50) * 0.01,
      json: null,
      nameSort: `${i % 375 === 0 ? 'z' : 'a'}${i}`,
      rank: i % 3,
      tags: [],
      text: words,
    })
    const wordsOf = (i: number) =>
      i % 375 === 0 ? 'salem salon store' : i % 600 === 7 ? 'salty store' : i % 2 === 0 ? 'main street store' : 'store'
    const docs = Array.from({ length: 3000 }, (_, i) => doc(i, wordsOf(i)))
    const truth = new Map(docs.map((d) => [d.id, d] as const))
    const index = new LocatorIndex(docs, { schedule: upkeep('now').schedule })
    expect(index.textIndexReady).toBe(true)
    const check = () => {
      for (const sort of ['name', 'priority'] as const) {
        for (const [offset, limit] of [
          [0, 1],
          [1, 1],
          [0, 2],
          [12, 1],
          [11, 2],
          [0, 40],
        ] as const) {
          const q: IndexQuery = {
            center: null,
            radiusKm: 0,
            tags: [],
            tagLogic: 'any',
            groupOf,
            search: 'sal',
            sort,
            offset,
            limit,
          }
          expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
          // Within a circle holding them all, the postings lead too, each key offered once.
          const near: IndexQuery = {
            ...q,
            center: { lat: lat + 0.2, lng: lng + 0.3 },
            radiusKm: 200,
            sort: sort === 'name' ? 'distance' : sort,
          }
          expect(answer(index, near)).toEqual(oracle([...truth.values()], near))
        }
      }
    }
    check()
    for (const i of [3001, 3002, 17]) {
      const d = doc(i, 'salem salon')
      index.upsert(d)
      truth.set(d.id, d)
    }
    check()
  })

  test("a last word that as typed only begins a town's other name is read with typos too: the stores' words it is a typo of", () => {
    const { lat, lng } = CENTERS[0]!
    const doc = (i: number, text: string, places: string): IndexDoc => ({
      ...{ id: `loc_${i}`, lat: lat + i * 0.01, lng, json: null, nameSort: `n${i}`, rank: 0, tags: [] },
      ...{ text, places },
    })
    const docs = [
      doc(1, 'lumber yard', 'boston'),
      doc(2, 'garden centre', 'rome la massimina casal lumbroso'),
      doc(3, 'street shop', 'paris'),
      doc(4, 'corner shop', 'strete'),
    ]
    const index = new LocatorIndex(docs, { schedule: upkeep('now').schedule })
    const all = { center: null, radiusKm: 0, tags: [], tagLogic: 'any' as const, groupOf, sort: 'name' as const }
    const ids = (search: string) => {
      const q: IndexQuery = { ...all, search, offset: 0, limit: 10 }
      expect(answer(index, q)).toEqual(oracle(docs, q))
      return answer(index, q).ids.map((r) => r[0])
    }
    // "lumbr" begins Lumbroso (a town's) and is a typo of "lumber" (a store's): both.
    expect(ids('lumbr')).toEqual(['loc_1', 'loc_2'])
    // A town's name typed whole is read as typed: "strete" is no typo of "street" then, nor
    // "rome" of "home".
    expect(ids('shop strete')).toEqual(['loc_4'])
    expect(ids('strete shop')).toEqual(['loc_4'])
    // A word a store writes as typed is read as typed: "lumber" finds the yard alone.
    expect(ids('lumber')).toEqual(['loc_1'])
    // On a map too: its clusters count the same stores.
    const map = { ...all, search: 'lumbr', offset: 0, limit: 0, bbox: [lng - 1, lat - 1, lng + 1, lat + 1] as const }
    expect(index.clusters({ ...map, bbox: [...map.bbox] }, 20)!.total).toBe(2)
  })
})

describe('LocatorIndex agrees with a naive scan, words checked in the pool', () => {
  test('all=true by name or priority, no word led by postings: whole words and prefixes without a column of their own are read from the pool, the base and the delta', () => {
    // 300-450 locations: a word of fewer than 1 in 128 of them (most "rareN") has no column, so the
    // columns pass its positions and the pool decides; no FlexSearch, so no word leads; the name
    // order is made, so the page walks it. Then writes (the delta), and a compaction.
    const RARE = ['rare1', 'rare23', 'rare3', 'rare', 'rare2 bike', 'bike rare1', 'rare30 s', 'street rare']
    fc.assert(
      fc.property(
        fc
          .array(fc.nat(), { minLength: 300, maxLength: 450, size: 'max' })
          .chain((ns) => fc.tuple(...ns.map((_, i) => docArb(`loc_${i}`)))),
        fc.array(fc.tuple(fc.nat(), docArb('x')), { maxLength: 30, size: 'max' }),
        fc.array(fc.tuple(queryArb, fc.constantFrom(...RARE), fc.boolean()), { minLength: 1, maxLength: 6 }),
        (docs, writes, asks) => {
          const tasks = upkeep('queued')
          const index = new LocatorIndex(docs, {
            schedule: tasks.schedule,
            textMinKeys: Number.POSITIVE_INFINITY,
            nodeSize: 8,
            nameChunk: 7,
            deltaMin: 4,
            compactionSlice: 16,
          })
          tasks.run()
          const truth = new Map(docs.map((d) => [d.id, d]))
          const queries = asks.map(
            ([q, rare, own]): IndexQuery => ({
              ...q,
              center: null,
              bbox: null,
              sort: q.sort === 'priority' ? 'priority' : 'name',
              search: own ? q.search : rare,
            }),
          )
          const check = () => {
            for (const q of queries) expect(answer(index, q)).toEqual(oracle([...truth.values()], q))
          }
          check()
          for (const [n, doc] of writes) {
            const written = { ...doc, id: docs[n % docs.length]!.id }
            index.upsert(written)
            truth.set(written.id, written)
          }
          check()
          tasks.run()
          check()
        },
      ),
      { numRuns: 10 },
    )
  })
})
