// Tags that come and go (a sync's "stock-17", a week's promotion): the index's tag vocabulary stays
// the size of the tags in use, and every tag query stays the oracle's, compactions running in steps
// between the writes.
import { expect, test } from 'bun:test'
import type { IndexDoc, IndexQuery } from '../../src/engine/locator-index'
import { answer, CENTERS, groupOf, oracle, queuedIndex } from './oracle-fixture'

const LOCATIONS = 120
/** Tags in use at once: each location has one of these and `bikes`. */
const LIVE = 40

const doc = (i: number, round: number): IndexDoc => {
  const c = CENTERS[i % CENTERS.length]!
  return {
    id: `loc_${i}`,
    lat: c.lat + (i % 7) * 0.01,
    lng: c.lng + (i % 5) * 0.01,
    json: null,
    nameSort: `n${i}`,
    rank: 0,
    // Every other round spelt otherwise than lowercased: the spellings' counts empty with the tag.
    tags: ['bikes', round % 2 === 0 ? `stock-${round}-${i % LIVE}` : `Stock-${round}-${i % LIVE}`],
    text: 'store',
  }
}

const byTags = (tags: string[], tagLogic: IndexQuery['tagLogic']): IndexQuery => ({
  center: CENTERS[0]!,
  radiusKm: 20_000,
  tags,
  tagLogic,
  groupOf,
  search: '',
  sort: 'distance',
  offset: 0,
  limit: LOCATIONS,
})

test('tags no location has any more leave the vocabulary to new ones; queries by old and new tags answer as the oracle', () => {
  const { tasks, index, truth, write } = queuedIndex()
  for (let i = 0; i < LOCATIONS; i++) write(doc(i, 0))
  tasks.run()
  const rounds = 30
  for (let round = 1; round <= rounds; round++) {
    for (let i = 0; i < LOCATIONS; i++) {
      write(doc(i, round))
      if (i % 10 === 0) tasks.step() // a compaction's steps between the writes
    }
    const docs = [...truth.values()]
    for (const q of [
      byTags([`stock-${round}-3`], 'any'),
      byTags([`stock-${round - 1}-3`], 'any'), // gone: its id may be another tag's now
      byTags([`stock-${round}-5`, `stock-${round - 1}-5`], 'any'),
      byTags(['bikes', `stock-${round}-7`], 'all'),
      byTags(['bikes', `stock-${round}-9`], 'match'),
    ])
      expect(answer(index, q)).toEqual(oracle(docs, q))
    expect(index.tagSpellings()).toHaveLength(1 + LIVE)
  }
  tasks.run()
  // bikes, the tags of the last round and of the round before (whose last locations it met).
  expect(index.stats().tags).toBeLessThanOrEqual(1 + 2 * LIVE)
})
