// The young generation's pacing (src/api/public/young-garbage.ts): its counter through its own API,
// and answers made, or sent from the answer cache, across collections through the route.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ANSWERS_PER_EDEN, everyNth } from '../../src/api/public/young-garbage'
import { MAX_RATE_LIMIT, setLocatorSettings } from '../../src/operator'
import { CENTER, type Fixture, idsOf, KM_PER_MILE, makeFixture, oracle } from './fixture'

describe('everyNth', () => {
  test('calls its function on every nth call, and only then', () => {
    let collected = 0
    const made = everyNth(3, () => collected++)
    const seen: number[] = []
    for (let i = 0; i < 10; i++) {
      made()
      seen.push(collected)
    }
    expect(seen).toEqual([0, 0, 1, 1, 1, 2, 2, 2, 3, 3])
  })

  test('every 1: each call', () => {
    let collected = 0
    const made = everyNth(1, () => collected++)
    for (let i = 0; i < 5; i++) made()
    expect(collected).toBe(5)
  })
})

describe('answers across young-generation collections', () => {
  let f: Fixture
  beforeAll(async () => {
    f = await makeFixture()
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: String(MAX_RATE_LIMIT) })
  })
  afterAll(() => f.env.close())

  test(`${2 * ANSWERS_PER_EDEN + 100} distinct answers, two collections among them, each as the oracle's`, async () => {
    const all = oracle(f.locs, { center: CENTER, radiusKm: 25 * KM_PER_MILE }).map((h) => h.loc.id)
    for (let i = 0; i < 2 * ANSWERS_PER_EDEN + 100; i++) {
      const limit = 1 + (i % 100)
      const offset = Math.floor(i / 100)
      const res = await f.get(
        f.url('/locations', `lat=${CENTER.lat}&lng=${CENTER.lng}&limit=${limit}&offset=${offset}`),
      )
      expect(res.status).toBe(200)
      expect(idsOf(res)).toEqual(all.slice(offset, offset + limit))
      expect(res.body.data.pagination.total).toBe(all.length)
    }
  })

  test(`one query asked ${2 * ANSWERS_PER_EDEN + 100} times: the kept answer, the same bytes each time`, async () => {
    const url = f.url('/locations', `lat=${CENTER.lat}&lng=${CENTER.lng}&limit=7`)
    const first = await f.get(url)
    expect(idsOf(first)).toEqual(
      oracle(f.locs, { center: CENTER, radiusKm: 25 * KM_PER_MILE })
        .map((h) => h.loc.id)
        .slice(0, 7),
    )
    for (let i = 0; i < 2 * ANSWERS_PER_EDEN + 100; i++) {
      const res = await f.get(url)
      expect(res.status).toBe(200)
      expect(res.body).toEqual(first.body)
    }
  })
})
