// A locator's index is queryable before its public JSON is filled in (registry.ts): answers made
// on demand, while the background fill runs, and after it are the same; a location deleted by
// another writer between the sync and its JSON is not shown half-made.
import { describe, expect, test } from 'bun:test'
import { locationsBody } from '../../src/api/public/answer'
import { IndexRegistry } from '../../src/indexes/registry'
import { JSON_FILL_PAGE } from '../../src/indexes/json-fill'
import type { Locator } from '../../src/store/locators'
import { locationRecord, servedLocator, taskQueue, withTempStore } from '../helpers'

const ctx = withTempStore()

/** A locator with its Query API on and `n` published locations, Store 0 to Store n - 1. */
const seed = (n: number) =>
  servedLocator(ctx.store, 'Store', n, (i) => ({
    address: `${i} Main Street, Paris`,
    coordinates: { lat: 48.85 + i * 0.001, lng: 2.35 },
    tags: ['repair'],
  }))

const text = new TextDecoder()
/** An answer's body as text. */
const bodyText = (registry: IndexRegistry, locator: Locator, qs: string) =>
  text.decode(locationsBody(registry, locator, url(locator.publicToken!, qs)).body)
const url = (token: string, qs: string) => new URL(`http://localhost/public/v1/${token}/locations?${qs}`).href

describe('public JSON fill', () => {
  test('answers before, during and after the background fill are identical', () => {
    const { locator } = seed(2500) // more than one fill page
    const q = taskQueue()
    const registry = new IndexRegistry(ctx.store, q.schedule)
    const qs = 'lat=48.85&lng=2.35&radius=500&unit=km&limit=500&offset=1000'
    expect(locationsBody(registry, locator, url(locator.publicToken!, qs)).total).toBe(2500)
    const before = bodyText(registry, locator, qs)
    expect(JSON.parse(before).data.locations).toHaveLength(500)
    expect(registry.entry(locator.id).jsonReady).toBe(false)
    // Tasks queued so far: FlexSearch's build and the fill's first page, in some order.
    q.runOne()
    q.runOne()
    expect(bodyText(registry, locator, qs)).toBe(before)
    expect(registry.entry(locator.id).jsonReady).toBe(false)
    q.runAll()
    expect(registry.entry(locator.id).jsonReady).toBe(true)
    expect(bodyText(registry, locator, qs)).toBe(before)
    for (const l of JSON.parse(bodyText(registry, locator, 'all=true&limit=500')).data.locations)
      expect(l.name).toMatch(/^Store \d+$/)
  })

  test('a busy database while the fill reads a page (another process holds it): the same page is read again in a later task, and the fill ends with every JSON made', () => {
    const { locator } = seed(2500)
    const q = taskQueue()
    const registry = new IndexRegistry(ctx.store, q.schedule, { busyRetryMs: 0 }) // read again in the next task
    registry.entry(locator.id)
    const locations = ctx.store.locations
    const { publishedByIds, get } = locations
    const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
    // Busy twice for the page's statement; then, once, a page that cannot be read in one statement
    // (read row by row) meets a busy database on one of its rows.
    let pageCalls = 0
    let rowBusy = 1
    locations.publishedByIds = (...args) => {
      pageCalls++
      if (pageCalls <= 2) throw busy()
      if (pageCalls === 3) throw new Error('a row that cannot be read')
      return publishedByIds.apply(locations, args)
    }
    locations.get = (...args) => {
      if (rowBusy-- > 0) throw busy()
      return get.apply(locations, args)
    }
    try {
      q.runAll()
    } finally {
      Object.assign(locations, { publishedByIds, get })
    }
    // Busy twice, then read row by row (where a row met it): the first page again, then every page after it.
    expect([pageCalls, rowBusy]).toEqual([3 + Math.ceil(2500 / JSON_FILL_PAGE), 0])
    const entry = registry.entry(locator.id)
    expect(entry.jsonReady).toBe(true)
    let made = 0
    entry.index.forEach((doc) => void (entry.index.json(doc) !== null && made++))
    expect(made).toBe(2500) // by the fill, none left to be made on demand
    expect(JSON.parse(bodyText(registry, locator, 'all=true&limit=500&offset=2000')).data.locations).toHaveLength(500)
  })

  test('while the database stays busy, the fill reads its page again only every busyRetryMs (each read may have waited busy_timeout), then ends', async () => {
    const { locator } = seed(1500)
    const registry = new IndexRegistry(ctx.store, undefined, { busyRetryMs: 100 }) // tasks run by themselves
    const locations = ctx.store.locations
    const { publishedByIds } = locations
    const reads: number[] = []
    let thirdRead = () => {}
    const third = new Promise<void>((resolve) => (thirdRead = resolve))
    let busy = true
    locations.publishedByIds = (...args) => {
      if (reads.push(performance.now()) === 3) thirdRead()
      if (busy) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
      return publishedByIds.apply(locations, args)
    }
    try {
      registry.entry(locator.id)
      await third
      // Each read again busyRetryMs (100) after the last, not one per turn of the event loop.
      expect(reads[1]! - reads[0]!).toBeGreaterThanOrEqual(90)
      expect(reads[2]! - reads[1]!).toBeGreaterThanOrEqual(90)
      expect(registry.entry(locator.id).jsonReady).toBe(false)
      busy = false
      // The preload waits for every JSON filled: it ends once the fill has read its pages.
      await registry.preload()
    } finally {
      locations.publishedByIds = publishedByIds
    }
    expect(registry.entry(locator.id).jsonReady).toBe(true)
  })

  test('a location deleted after the sync, before its JSON was made, is left out after a fresh sync', () => {
    const { locator, ids } = seed(5)
    const registry = new IndexRegistry(ctx.store, taskQueue().schedule)
    registry.entry(locator.id) // loaded without JSON; the fill never runs here
    // Another writer deletes one: this registry has not synced it yet.
    ctx.store.write(() => ctx.store.locations.remove(locator.id, ids[0]!))
    const { body, total } = locationsBody(
      registry,
      locator,
      url(locator.publicToken!, 'lat=48.85&lng=2.35&radius=50&unit=km'),
    )
    expect(total).toBe(4)
    expect(JSON.parse(text.decode(body)).data.locations.map((l: { id: string }) => l.id)).toEqual(ids.slice(1))
  })

  test('locations changed, deleted or added while the fill runs (it goes in space order): answers as a registry made afterwards gives them', () => {
    const { locator, ids } = seed(2500)
    const q = taskQueue()
    const registry = new IndexRegistry(ctx.store, q.schedule)
    registry.entry(locator.id)
    q.runOne()
    q.runOne()
    expect(registry.entry(locator.id).jsonReady).toBe(false)
    const before = registry.entry(locator.id)
    for (const id of [ids[2400]!, ids[3]!, ids[1200]!])
      expect(registry.json(locator.id, before, before.index.get(id)!)).not.toBeNull() // made now if not yet
    // Another writer: one renamed, one moved, one deleted, one added; this registry syncs them mid-fill.
    ctx.store.write(() => {
      const renamed = ctx.store.locations.get(locator.id, ids[2400]!)!
      ctx.store.locations.replace({ ...renamed, name: 'Renamed mid-fill' }, renamed)
      const moved = ctx.store.locations.get(locator.id, ids[3]!)!
      ctx.store.locations.replace({ ...moved, lat: 48.86, name: 'Moved mid-fill' }, moved)
      ctx.store.locations.remove(locator.id, ids[1200]!)
      const body = {
        name: 'Added mid-fill',
        address: '1 New Street, Paris',
        coordinates: { lat: 48.851, lng: 2.35 },
        status: 'published',
      }
      ctx.store.locations.insert(locationRecord(locator.id, body))
    })
    registry.sync()
    q.runAll()
    expect(registry.entry(locator.id).jsonReady).toBe(true)
    const fresh = new IndexRegistry(ctx.store, taskQueue().schedule) // its JSON made on demand
    for (const qs of [
      'all=true&limit=500',
      'all=true&limit=500&offset=2000',
      'lat=48.85&lng=2.35&radius=500&unit=km&limit=50',
      'lat=48.86&lng=2.35&radius=1&unit=km&limit=50',
    ]) {
      expect(bodyText(registry, locator, qs)).toBe(bodyText(fresh, locator, qs))
    }
    const names = JSON.parse(
      bodyText(registry, locator, 'lat=48.85&lng=2.35&radius=500&unit=km&limit=500&search=mid-fill'),
    ).data.locations.map((l: { name: string }) => l.name)
    expect(names.sort()).toEqual(['Added mid-fill', 'Moved mid-fill', 'Renamed mid-fill'])
    expect(locationsBody(registry, locator, url(locator.publicToken!, 'all=true')).total).toBe(2500)
    // Nothing kept for entries replaced or removed: the arena holds exactly the live entries' JSON.
    const entry = registry.entry(locator.id)
    let live = 0
    entry.index.forEach((doc) => (live += entry.arena.size(entry.index.json(doc)!)))
    expect(entry.arena.bytes.live).toBe(live)
  })
  test('JSON written since the fill is laid out again in space order, in background tasks, once there is enough of it: answers as before', () => {
    const { locator, ids } = seed(2500)
    const q = taskQueue()
    // Every change applied one by one, however many (not built again from the rows: test/public/backlog.test.ts),
    // as a server applies a sync script's writes sent one request at a time.
    const registry = new IndexRegistry(ctx.store, q.schedule, {
      reorderMinBytes: 0,
      backlogMin: Infinity,
      catchUpMin: Infinity,
    })
    registry.entry(locator.id)
    q.runAll()
    const entry = registry.entry(locator.id)
    expect(entry.jsonReady).toBe(true)
    expect(entry.arena.outOfOrder).toBe(0)
    const queries = [
      'all=true&limit=500',
      'all=true&limit=500&offset=2000',
      'lat=48.85&lng=2.35&radius=500&unit=km&limit=50',
      'lat=48.86&lng=2.35&radius=1&unit=km&limit=50&offset=10',
    ]
    const same = () => {
      const fresh = new IndexRegistry(ctx.store, taskQueue().schedule) // its JSON made on demand
      for (const qs of queries) expect(bodyText(registry, locator, qs)).toBe(bodyText(fresh, locator, qs))
      let live = 0
      entry.index.forEach((doc) => (live += entry.arena.size(entry.index.json(doc)!)))
      expect(entry.arena.bytes.live).toBe(live)
    }
    const update = (some: string[], words: string) =>
      ctx.store.write(() => {
        for (const id of some) {
          const row = ctx.store.locations.get(locator.id, id)!
          ctx.store.locations.replace({ ...row, description: `${row.description ?? ''} ${words}` }, row)
        }
      })

    // A few writes (under an eighth of the bytes): left where they are.
    update(ids.slice(0, 200), 'Open late.')
    registry.sync()
    expect(entry.arena.outOfOrder).toBeGreaterThan(0)
    expect(entry.reordering).toBe(false)
    q.runAll()
    expect(entry.arena.outOfOrder).toBeGreaterThan(0)

    // Every location written again, in an order unrelated to space (a sync script's).
    const shuffled = ids
      .map((id, i) => [(i * 7919) % ids.length, id] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, id]) => id)
    update(shuffled, 'Parking.')
    registry.sync()
    expect(entry.arena.outOfOrder).toBe(1)
    expect(entry.reordering).toBe(true)
    same()
    q.runOne()
    q.runOne()
    // Another writer meanwhile: one renamed, one moved, one deleted.
    ctx.store.write(() => {
      const renamed = ctx.store.locations.get(locator.id, ids[10]!)!
      ctx.store.locations.replace({ ...renamed, name: 'Renamed mid-reorder' }, renamed)
      const moved = ctx.store.locations.get(locator.id, ids[2000]!)!
      ctx.store.locations.replace({ ...moved, lat: 48.8601 }, moved)
      ctx.store.locations.remove(locator.id, ids[1500]!)
    })
    registry.sync()
    same()
    q.runAll()
    expect(registry.entry(locator.id)).toBe(entry)
    expect(entry.reordering).toBe(false)
    // What the last writes made stays as written (three locations' JSON at most).
    expect(entry.arena.outOfOrder).toBeLessThan(3 / 2400)
    same()
    expect(JSON.parse(bodyText(registry, locator, 'all=true&limit=1&search=mid-reorder')).data.locations[0].name).toBe(
      'Renamed mid-reorder',
    )
  })
})
