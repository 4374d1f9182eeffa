// A bulk write by another process to a large locator: its index is built again in background
// tasks while the old one answers as it was (body and ETag), then swapped in with what was
// committed meanwhile; a settings change gives the build up; a Management API write that starts
// one answers once it is swapped in.
import { expect, test } from 'bun:test'
import { locationBody, locationsBody } from '../../src/api/public/answer'
import { IndexRegistry } from '../../src/indexes/registry'
import { setLocatorSettings } from '../../src/operator'
import { createApp } from '../../src/server/app'
import { openStore, type Store } from '../../src/store'
import type { Locator } from '../../src/store/locators'
import { locationRecord, otherProcess, servedLocator, tableGeocoder, taskQueue, withTempStore } from '../helpers'

const ctx = withTempStore()

const QUERY = 'lat=48.85&lng=2.35&radius=50&unit=km&limit=100'

/** The i-th location's address and coordinates, along the Rue de Rivoli. */
const at = (i: number) => ({
  address: `${i} Rue de Rivoli, Paris`,
  coordinates: { lat: 48.85 + i * 0.001, lng: 2.35 - i * 0.001 },
})

const place = (locatorId: string, name: string, i: number) =>
  locationRecord(locatorId, { name, ...at(i), status: 'published' })

/** A locator named Big with its Query API on and `n` published locations, each with an external id. */
function served(store: Store, n: number) {
  const { locator, secret, ids } = servedLocator(store, 'Big', n, (i) => ({ ...at(i), external_id: `big-${i}` }))
  return { locatorId: locator.id, secret, ids }
}

function rename(store: Store, locatorId: string, id: string, name: string): void {
  const current = store.locations.get(locatorId, id)!
  store.locations.replace({ ...current, name, updatedAt: new Date().toISOString() }, current)
}

/** A registry with small bounds, its tasks queued, the locator's index built and its JSON filled (an old index answers only then). */
function builtRegistry(store: Store, locatorId: string, backgroundBuildMin: number, busyRetryMs?: number) {
  const q = taskQueue()
  const events: string[] = []
  const registry = new IndexRegistry(store, q.schedule, {
    backlogMin: 4,
    backgroundBuildMin,
    ...(busyRetryMs === undefined ? {} : { busyRetryMs }),
    onBuiltInBackground: () => events.push('swapped'),
  })
  registry.sync()
  registry.entry(locatorId)
  q.runAll()
  return { q, events, registry }
}

/** Another process renames the first 8 of the 12: at least 4 changes, and a quarter of the index. */
function renameEight(store: Store, big: { locatorId: string; ids: string[] }): void {
  otherProcess(store, (other) => {
    for (let i = 0; i < 8; i++) rename(other, big.locatorId, big.ids[i]!, `Big renamed ${i}`)
  })
}

const answer = (registry: IndexRegistry, locator: Locator) => ({
  body: new TextDecoder().decode(
    locationsBody(registry, locator, `http://localhost/public/v1/${locator.publicToken}/locations?${QUERY}`).body,
  ),
  version: registry.version(locator.id),
})

const names = (body: string): string[] => JSON.parse(body).data.locations.map((l: { name: string }) => l.name)

test('a bulk write to a large index: the old index answers as it was (body, version) while the new one is built in tasks; the swap brings it and what was committed meanwhile', () => {
  const { store } = ctx
  const big = served(store, 12)
  const q = taskQueue()
  const events: string[] = []
  const registry = new IndexRegistry(store, q.schedule, {
    backlogMin: 4,
    backgroundBuildMin: 10,
    onBacklog: (_, n) => events.push(`backlog ${n}`),
    onBuiltInBackground: (_, n) => events.push(`swapped ${n}`),
  })
  const locator = () => store.locators.get(big.locatorId)!
  registry.sync()
  registry.entry(big.locatorId)
  q.runAll() // its JSON filled: an old index answers only then
  const before = answer(registry, locator())

  // 5 renamed, 2 deleted, 1 added: 8 changes, at least 4 and a quarter of 12.
  otherProcess(store, (other) => {
    for (let i = 0; i < 5; i++) rename(other, big.locatorId, big.ids[i]!, `Big renamed ${i}`)
    other.locations.remove(big.locatorId, big.ids[5]!)
    other.locations.remove(big.locatorId, big.ids[6]!)
    other.locations.insert(place(big.locatorId, 'Big new', 30))
  })
  registry.sync()
  expect(events).toEqual(['backlog 8'])
  expect(answer(registry, locator())).toEqual(before)
  q.runOne()
  q.runOne()
  expect(answer(registry, locator())).toEqual(before)

  // Committed while the build runs: applied to the new index at its swap.
  otherProcess(store, (other) => rename(other, big.locatorId, big.ids[7]!, 'Big renamed meanwhile'))
  registry.sync()
  expect(answer(registry, locator())).toEqual(before)
  q.runAll()
  expect(events).toEqual(['backlog 8', 'swapped 11'])

  const after = answer(registry, locator())
  expect(after.version).not.toBe(before.version)
  expect(names(after.body)).toContain('Big renamed 0')
  expect(names(after.body)).toContain('Big renamed meanwhile')
  expect(names(after.body)).toContain('Big new')
  expect(names(after.body)).not.toContain('Big 5')
  expect(names(after.body)).toHaveLength(11)
  // A process started now builds it from the rows: the same answer, the same version.
  const fresh = new IndexRegistry(store, () => {})
  fresh.sync()
  expect(after).toEqual(answer(fresh, locator()))

  // The new index takes later writes one by one, as any.
  otherProcess(store, (other) => rename(other, big.locatorId, big.ids[8]!, 'Big renamed after'))
  registry.sync()
  expect(names(answer(registry, locator()).body)).toContain('Big renamed after')
  expect(events).toHaveLength(2)
})

test("this process's own writes while the index is built again show at once in the old one, under a version no other process gives; the swap keeps them", () => {
  const { store } = ctx
  const big = served(store, 12)
  const { q, events, registry } = builtRegistry(store, big.locatorId, 10)
  const locator = () => store.locators.get(big.locatorId)!
  const before = answer(registry, locator())
  renameEight(store, big)
  registry.sync()
  expect(answer(registry, locator())).toEqual(before)
  q.runOne()

  // A write of this process (its 2xx): the next answer here shows it, old index and all.
  store.write(() => rename(store, big.locatorId, big.ids[10]!, 'Own rename'))
  store.write(() => store.locations.remove(big.locatorId, big.ids[11]!))
  registry.sync()
  const own = answer(registry, locator())
  expect(names(own.body)).toContain('Own rename')
  expect(names(own.body)).not.toContain('Big 11')
  expect(names(own.body)).not.toContain('Big renamed 0') // the other process's, at the swap
  expect(own.version).not.toBe(before.version)
  const fresh = new IndexRegistry(store, () => {})
  fresh.sync()
  expect(fresh.version(big.locatorId)).not.toBe(own.version)

  q.runAll()
  expect(events).toEqual(['swapped'])
  const after = answer(registry, locator())
  expect(names(after.body)).toContain('Own rename')
  expect(names(after.body)).toContain('Big renamed 0')
  expect(names(after.body)).not.toContain('Big 11')
  expect(after).toEqual(answer(fresh, locator()))
})

test("a write of this process rolled back, its seq then another process's: the two never give one version for two answers", () => {
  const { store: a } = ctx
  const big = served(a, 12)
  const b = openStore(a.db.filename) // another server process on the same file
  try {
    const A = builtRegistry(a, big.locatorId, 10)
    const B = builtRegistry(b, big.locatorId, 10)
    renameEight(a, big) // a third process's bulk: both build the index again
    A.registry.sync()
    B.registry.sync()
    a.write(() => rename(a, big.locatorId, big.ids[10]!, 'A own'))
    expect(() =>
      a.write(() => {
        rename(a, big.locatorId, big.ids[9]!, 'A undone')
        throw new Error('conflict: nothing was written')
      }),
    ).toThrow('conflict')
    b.write(() => rename(b, big.locatorId, big.ids[11]!, 'B own')) // the seq A's undone write had
    A.registry.sync()
    B.registry.sync()
    const fromA = answer(A.registry, a.locators.get(big.locatorId)!)
    const fromB = answer(B.registry, b.locators.get(big.locatorId)!)
    expect(names(fromA.body)).toContain('A own')
    expect(names(fromA.body)).not.toContain('B own') // another's, at the swap
    expect(names(fromB.body)).toContain('B own')
    expect(fromA.version).not.toBe(fromB.version)
  } finally {
    b.close()
  }
})

test("a busy database while this process's own changes are read: the next sync reads them again, and its write shows", () => {
  const { store } = ctx
  const big = served(store, 12)
  const small = served(store, 2)
  const { registry } = builtRegistry(store, big.locatorId, 10, 0) // a busy database met again at once
  renameEight(store, big)
  registry.sync()
  // Its write, and another process's to another locator: the sync reads a batch.
  store.write(() => rename(store, big.locatorId, big.ids[10]!, 'Own rename'))
  otherProcess(store, (other) => rename(other, small.locatorId, small.ids[0]!, 'Small renamed'))
  const { ownLocationChanges } = store.changes
  store.changes.ownLocationChanges = () => {
    throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
  }
  try {
    expect(() => registry.sync()).toThrow('locked')
  } finally {
    store.changes.ownLocationChanges = ownLocationChanges
  }
  registry.sync()
  expect(names(answer(registry, store.locators.get(big.locatorId)!).body)).toContain('Own rename')
})

test("more than a thousand of this process's own changes, made after another's import began the build, show at once too", () => {
  const { store } = ctx
  const big = served(store, 4400)
  const { registry } = builtRegistry(store, big.locatorId, 10)
  // A quarter of the index makes a backlog: the import's 1,100 do; this process's 1,001 after do not.
  otherProcess(store, (other) => {
    for (let i = 0; i < 1100; i++) rename(other, big.locatorId, big.ids[i]!, `Imported ${i}`)
  })
  registry.sync() // a backlog: the index is built again in the background
  store.write(() => {
    for (let i = 0; i < 1001; i++) rename(store, big.locatorId, big.ids[2000 + i]!, `Own ${i}`)
  })
  registry.sync()
  const last = locationBody(registry, store.locators.get(big.locatorId)!, big.ids[3000]!)
  expect(JSON.parse(new TextDecoder().decode(last)).data.location.name).toBe('Own 1000')
})

test('a small index, or one whose JSON is not all made, is let go and built by its next query instead, which shows the write at once', () => {
  const { store } = ctx
  const big = served(store, 12)
  const { q, events, registry } = builtRegistry(store, big.locatorId, 100) // more than 12 + 8
  renameEight(store, big)
  registry.sync()
  expect(registry.has(big.locatorId)).toBe(false)
  expect(names(answer(registry, store.locators.get(big.locatorId)!).body)).toContain('Big renamed 0')
  q.runAll()
  expect(events).toEqual([])
})

test("a settings change while the index is built again gives the build up: the old index goes, and the next answer is the rows' with the new settings", () => {
  const { store } = ctx
  const big = served(store, 12)
  const { q, events, registry } = builtRegistry(store, big.locatorId, 10)
  const before = answer(registry, store.locators.get(big.locatorId)!)
  renameEight(store, big)
  registry.sync()
  expect(answer(registry, store.locators.get(big.locatorId)!)).toEqual(before)
  q.runOne()

  setLocatorSettings(store, big.locatorId, { publicExternalId: 'on' })
  registry.sync()
  const after = answer(registry, store.locators.get(big.locatorId)!)
  expect(after.version).not.toBe(before.version)
  const shown = JSON.parse(after.body).data.locations as { name: string; external_id: string }[]
  expect(shown.map((l) => l.name)).toContain('Big renamed 0')
  expect(shown.every((l) => l.external_id.startsWith('big-'))).toBe(true)
  q.runAll()
  expect(events).toEqual([])
  const fresh = new IndexRegistry(store, () => {})
  fresh.sync()
  expect(after).toEqual(answer(fresh, store.locators.get(big.locatorId)!))
})

test('a Management API write that makes a backlog (a bulk with delete_missing) answers once the index built again is swapped in: the next query shows it', async () => {
  const { store } = ctx
  const big = served(store, 40)
  const lines: Record<string, unknown>[] = []
  const app = createApp({
    store,
    geocoder: tableGeocoder({}),
    config: { maxBodyBytes: 256 * 1024, logRequests: false },
    log: (l) => lines.push(l),
    indexUpkeep: { backlogMin: 4, backgroundBuildMin: 10 },
  })
  const token = store.locators.get(big.locatorId)!.publicToken
  const ask = async () => {
    const res = await app.handle(new Request(`http://localhost/public/v1/${token}/locations?${QUERY}`))
    expect(res.status).toBe(200)
    return names(await res.text())
  }
  expect(await ask()).toHaveLength(40)
  await app.preload() // its JSON filled: an old index may answer while a new one is built

  // Keeps 3 of the 40 (by external id), deletes the 37 others.
  const res = await app.handle(
    new Request('http://localhost/admin/v1/locations/bulk', {
      method: 'POST',
      headers: { authorization: `Bearer ${big.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        delete_missing: true,
        locations: [0, 1, 2].map((i) => ({
          external_id: `big-${i}`,
          name: `Big ${i}`,
          address: `${i} Rue de Rivoli, Paris`,
          coordinates: { lat: 48.85 + i * 0.001, lng: 2.35 - i * 0.001 },
        })),
      }),
    }),
  )
  expect(res.status).toBe(200)
  expect(((await res.json()) as { deleted: number }).deleted).toBe(37)
  expect(lines.map((l) => l.message)).toContainEqual(expect.stringContaining('index built again in the background'))
  expect((await ask()).sort()).toEqual(['Big 0', 'Big 1', 'Big 2'])
})

test('a busy database while the build reads its rows: the page is read again busyRetryMs later; a row it cannot read: the build is given up, and the index built as a query builds it', async () => {
  const { store } = ctx
  const big = served(store, 12)
  const events: string[] = []
  const registry = new IndexRegistry(store, undefined, {
    backlogMin: 4,
    backgroundBuildMin: 10,
    busyRetryMs: 5,
    onBuiltInBackground: () => events.push('swapped'),
  })
  const locator = () => store.locators.get(big.locatorId)!
  await registry.preload()
  const { indexRowsAfter } = store.locations
  const bulkWrite = (tag: string) =>
    otherProcess(store, (other) => {
      for (let i = 0; i < 8; i++) rename(other, big.locatorId, big.ids[i]!, `Big ${tag} ${i}`)
    })
  /** Waits for `done`, for as long as it takes: the test's timeout ends a hang (a loaded machine's tasks run late). */
  const until = async (done: () => boolean) => {
    while (!done()) await Bun.sleep(5)
  }
  try {
    let reads = 0
    store.locations.indexRowsAfter = (...args) => {
      if (++reads <= 2) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
      return indexRowsAfter.apply(store.locations, args)
    }
    bulkWrite('busy')
    registry.sync()
    await until(() => events.length === 1)
    expect(reads).toBeGreaterThan(2)
    expect(names(answer(registry, locator()).body)).toContain('Big busy 0')

    store.locations.indexRowsAfter = () => {
      throw new Error('a row that cannot be read')
    }
    await until(() => registry.entry(big.locatorId).jsonReady)
    bulkWrite('unreadable')
    registry.sync()
    expect(registry.has(big.locatorId)).toBe(true) // the old index answers until the build fails
    await until(
      () => !registry.has(big.locatorId) || names(answer(registry, locator()).body).includes('Big unreadable 0'),
    )
    expect(names(answer(registry, locator()).body)).toContain('Big unreadable 0')
    expect(events).toEqual(['swapped'])
  } finally {
    store.locations.indexRowsAfter = indexRowsAfter
  }
})

test('settings that cannot be read when the build would start (a busy database): the index is let go instead, and the next query shows the write', () => {
  const { store } = ctx
  const big = served(store, 12)
  const { q, events, registry } = builtRegistry(store, big.locatorId, 10)
  renameEight(store, big)
  const { list } = store.filters
  store.filters.list = () => {
    throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
  }
  try {
    registry.sync()
  } finally {
    store.filters.list = list
  }
  expect(registry.has(big.locatorId)).toBe(false)
  expect(names(answer(registry, store.locators.get(big.locatorId)!).body)).toContain('Big renamed 0')
  q.runAll()
  expect(events).toEqual([])
})
