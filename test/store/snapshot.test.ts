// A snapshot's reads, a slice at a time over turns of the event loop: every row once, in row
// order, as they were when the snapshot was opened, whatever another connection commits between
// slices; a database in memory is read in one go.
import { expect, test } from 'bun:test'
import { createLocator } from '../../src/operator'
import { openStore } from '../../src/store'
import { eachSlice } from '../../src/store/snapshot'
import { locationRecord, otherProcess, storeBody, withTempStore } from '../helpers'

const env = withTempStore()

/** `n` locations of a new locator, every third a draft, in Berlin or with no address parts; their ids in order. */
function seeded(store = env.store, n = 11): { locatorId: string; ids: string[] } {
  const { locator } = createLocator(store, 'Snapshot')
  const records = Array.from({ length: n }, (_, i) => ({
    ...locationRecord(locator.id, storeBody({ name: `Store ${i}`, status: i % 3 === 2 ? 'draft' : 'published' })),
    addressParts: i % 2 === 0 ? { city: 'Berlin', country: 'DE' } : {},
  }))
  store.write(() => {
    for (const r of records) store.locations.insert(r)
  })
  return { locatorId: locator.id, ids: records.map((r) => r.id) }
}

test('slices of two give every published row once, in order, with its town and country', async () => {
  const { locatorId, ids } = seeded()
  const snapshot = env.store.snapshot()
  const slices: string[][] = []
  try {
    await eachSlice(
      snapshot,
      2,
      (after, limit) => snapshot.placedNames(locatorId, after, limit),
      (rows) => slices.push(rows.map((r) => `${r.name} ${r.city ?? '-'} ${r.country ?? '-'}`)),
    )
  } finally {
    snapshot.close()
  }
  expect(slices.every((s) => s.length <= 2)).toBe(true)
  const published = ids.map((_, i) => i).filter((i) => i % 3 !== 2)
  expect(slices.flat()).toEqual(published.map((i) => (i % 2 === 0 ? `Store ${i} Berlin DE` : `Store ${i} - -`)))
})

test('rows another connection commits between slices are not seen; the next snapshot sees them', async () => {
  const { locatorId, ids } = seeded()
  const snapshot = env.store.snapshot()
  const names: string[] = []
  let slice = 0
  try {
    await eachSlice(
      snapshot,
      2,
      (after, limit) => snapshot.locations(locatorId, null, after, limit),
      (rows) => {
        names.push(...rows.map((r) => r.name))
        if (slice++ === 0)
          otherProcess(env.store, (other) => {
            other.locations.remove(locatorId, ids.at(-1)!)
            other.locations.insert(locationRecord(locatorId, storeBody({ name: 'Added' })))
          })
      },
    )
  } finally {
    snapshot.close()
  }
  expect(names).toEqual(ids.map((_, i) => `Store ${i}`))
  const next = env.store.snapshot()
  try {
    const all = next.locations(locatorId, null, 0, -1).rows.map((r) => r.name)
    expect(all).toEqual([...ids.slice(0, -1).map((_, i) => `Store ${i}`), 'Added'])
  } finally {
    next.close()
  }
})

test('a database in memory is read in one slice, however small the slices asked', async () => {
  const store = openStore(':memory:')
  try {
    const { locatorId, ids } = seeded(store)
    const snapshot = store.snapshot()
    const slices: number[] = []
    await eachSlice(
      snapshot,
      2,
      (after, limit) => snapshot.locations(locatorId, null, after, limit),
      (rows) => slices.push(rows.length),
    )
    snapshot.close()
    expect([snapshot.spread, slices]).toEqual([false, [ids.length]])
  } finally {
    store.close()
  }
})
