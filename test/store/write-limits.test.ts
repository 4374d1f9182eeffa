// What the per-locator write limits read in a write's transaction: each locator's locations, kept
// in step by triggers with every statement that adds or removes one, and the bytes of the answers
// it kept for Idempotency-Key retries by hour, emptied by prune once past 24 hours.
import { expect, test } from 'bun:test'
import { createLocator, deleteLocator } from '../../src/operator'
import { locationRecord, storeBody, withTempStore } from '../helpers'

const env = withTempStore()

test("a locator's count follows its inserts and deletions, its locator's deletion included", () => {
  const { store } = env
  const a = createLocator(store, 'A').locator.id
  const b = createLocator(store, 'B').locator.id
  const counted = () => [store.locationCounts.of(a), store.locationCounts.of(b)]
  expect(counted()).toEqual([0, 0])
  const made = store.write(() => {
    const records = [1, 2, 3].map((i) => locationRecord(a, storeBody({ name: `A${i}` })))
    for (const r of [...records, locationRecord(b, storeBody())]) store.locations.insert(r)
    return records
  })
  expect(counted()).toEqual([3, 1])
  store.write(() => store.locations.remove(a, made[0]!.id))
  expect(counted()).toEqual([2, 1])
  // Undone with its transaction.
  expect(() =>
    store.write(() => {
      store.locations.insert(locationRecord(a, storeBody()))
      throw new Error('undone')
    }),
  ).toThrow('undone')
  expect(counted()).toEqual([2, 1])
  // Raw SQL (a hand fix, another tool) is counted too.
  store.db.run('DELETE FROM locations WHERE locator_id = ?', [a])
  expect(counted()).toEqual([0, 1])
  deleteLocator(store, b, true)
  expect(counted()).toEqual([0, 0])
  expect(store.db.query('SELECT count(*) AS n FROM location_counts').get()).toEqual({ n: 1 })
})

test("the day's kept bytes are the last 24 hours' answers kept whole; prune empties older hours", () => {
  const { store } = env
  const a = createLocator(store, 'A').locator.id
  const HOUR = 3_600_000
  const start = Date.UTC(2026, 11, 5, 2, 30)
  const save = (key: string, body: string | null, at: number) =>
    store.write(() => store.idempotency.save(a, key, { fingerprint: 'f', status: 201, body, bytes: 100 }, at))
  save('k1', 'x'.repeat(100), start)
  save('k2', null, start) // kept as its size alone
  save('k3', 'y'.repeat(100), start + 2 * HOUR)
  expect(store.idempotency.dayBytes(a, start + 2 * HOUR)).toBe(200)
  expect(store.idempotency.dayBytes(a, start + 23 * HOUR)).toBe(200)
  expect(store.idempotency.dayBytes(a, start + 24 * HOUR)).toBe(100)
  expect(store.idempotency.dayBytes(a, start + 26 * HOUR)).toBe(0)
  // One slice prunes an hour of bytes and an answer; the next, what is left; then none.
  const prune = (limit: number, at: number) => store.write(() => store.idempotency.prune(limit, at))
  expect(prune(2, start + 24 * HOUR + 1)).toBe(2)
  expect(prune(2, start + 24 * HOUR + 1)).toBe(1)
  expect(prune(2, start + 24 * HOUR + 1)).toBe(0)
  expect(store.db.query('SELECT count(*) AS n FROM idempotency_bytes').get()).toEqual({ n: 1 })
  expect(store.idempotency.dayBytes(a, start + 24 * HOUR)).toBe(100)
})
