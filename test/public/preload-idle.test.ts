// Indexes let go once no query asked for them in INDEX_IDLE_MINUTES, with the background work they left,
// and built again on their next query; and small deltas folded into their base once writes stop.
import { describe, expect, test } from 'bun:test'
import { createApp } from '../../src/server/app'
import { loadConfig } from '../../src/core/config'
import { IndexRegistry } from '../../src/indexes/registry'
import { locationsBody } from '../../src/api/public/answer'
import { createLocator, setFilters, setLocatorSettings } from '../../src/operator'
import { taskQueue } from '../helpers'
import { env, SIZE, seed, usePreloadEnv } from './preload-fixture'

usePreloadEnv()

describe('indexes not queried for a while are let go (INDEX_IDLE_MINUTES)', () => {
  /** A registry whose background tasks run when the test says, over the test locator and another, both public, seeded with n and m. */
  function twoPublic(name: string, n: number, m: number) {
    const q = taskQueue()
    const registry = new IndexRegistry(env.store, q.schedule)
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    const { locator: other } = createLocator(env.store, name)
    setLocatorSettings(env.store, other.id, { queryApi: 'on' })
    seed(env.locatorId, n)
    seed(other.id, m)
    registry.sync()
    return { q, registry, other }
  }
  const MINUTE = 60_000

  test('an index no request asked for in idleMs is let go, one asked for is kept; its next query builds it again with the writes made meanwhile', () => {
    const { q, registry, other } = twoPublic('Busy', 30, 10)
    const quiet = registry.entry(env.locatorId)
    registry.entry(other.id)
    q.runAll()
    const t0 = performance.now() // both built before

    // Asked for (version(): every public request asks it) just before each look.
    registry.version(other.id)
    expect(registry.evictIdle(MINUTE, t0 + 30_000)).toEqual([]) // quiet for 30 s: not yet
    registry.version(other.id)
    expect(registry.evictIdle(MINUTE, t0 + MINUTE + 1)).toEqual([{ locatorId: env.locatorId, locations: 30 }])
    expect(registry.has(env.locatorId)).toBe(false)
    expect(registry.has(other.id)).toBe(true)

    // Writes while it is let go reach the rebuilt index; a change to its settings does not rebuild it.
    seed(env.locatorId, 5)
    setLocatorSettings(env.store, env.locatorId, { referrers: 'shop.example.com' })
    registry.sync()
    q.runAll()
    expect(registry.has(env.locatorId)).toBe(false)
    const rebuilt = registry.entry(env.locatorId)
    expect(rebuilt).not.toBe(quiet)
    expect(rebuilt.index.size).toBe(35)

    // The busy one, not asked for since the look at t0 + 1 min, goes a minute after that look, not before.
    registry.version(env.locatorId) // the rebuilt one is asked for again
    expect(registry.evictIdle(MINUTE, t0 + 2 * MINUTE)).toEqual([])
    expect(registry.evictIdle(MINUTE, t0 + 2 * MINUTE + 2)).toEqual([{ locatorId: other.id, locations: 10 }])
  })

  test('an index let go drops the work it left to background tasks; one kept does it', () => {
    const { q, registry, other: kept } = twoPublic('Kept', 30, 30)
    const goneIndex = registry.entry(env.locatorId).index
    const keptIndex = registry.entry(kept.id).index
    registry.version(kept.id)
    expect(registry.evictIdle(0)).toEqual([{ locatorId: env.locatorId, locations: 30 }])
    q.runAll()
    expect(goneIndex.settled).toBe(false) // its word index and name order were never made
    expect(keptIndex.settled).toBe(true)
  })

  test('turning the Query API off drops the work the index left to background tasks too', () => {
    const { q, registry } = twoPublic('Other', 30, 5)
    const index = registry.entry(env.locatorId).index
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'off' })
    registry.sync()
    q.runAll()
    expect(registry.has(env.locatorId)).toBe(false)
    expect(index.settled).toBe(false)
  })

  test('one let go, then turned off and on again, is built again in the background as any locator turned public', () => {
    const q = taskQueue()
    const registry = new IndexRegistry(env.store, q.schedule)
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    seed(env.locatorId, 20)
    registry.sync()
    registry.entry(env.locatorId)
    q.runAll() // nothing left queued that would build it
    expect(registry.evictIdle(0)).toHaveLength(1)
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'off' })
    registry.sync()
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    registry.sync()
    q.runAll()
    expect(registry.has(env.locatorId)).toBe(true)
    expect(registry.entry(env.locatorId).index.size).toBe(20)

    // Off and on again within one sync (two commands from another process within a second): each
    // change is applied with the settings as they are by then (on), so it stays let go; its next
    // query builds it.
    q.runAll()
    expect(registry.evictIdle(0)).toHaveLength(1)
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'off' })
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    registry.sync()
    q.runAll()
    expect(registry.has(env.locatorId)).toBe(false)
    expect(registry.entry(env.locatorId).index.size).toBe(20)
  })

  test('a preload does not build again an index let go while it waited', async () => {
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    seed(env.locatorId, SIZE)
    const registry = new IndexRegistry(env.store)
    const loading = registry.preload() // built in this turn; its background work goes on
    expect(registry.evictIdle(0)).toEqual([{ locatorId: env.locatorId, locations: SIZE }])
    expect(await loading).toEqual({ locators: 0, locations: 0, failed: [] })
    expect(registry.has(env.locatorId)).toBe(false)
  })

  test('through the app: a request, answered from the index or from the answer cache, keeps the index; let go, it is logged, and the next answer is the same', async () => {
    const lines: Record<string, unknown>[] = []
    const app = createApp({
      store: env.store,
      geocoder: env.geocoder,
      config: { maxBodyBytes: 256 * 1024, logRequests: false },
      log: (l) => lines.push(l),
    })
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    seed(env.locatorId, 50)
    const token = env.store.locators.get(env.locatorId)!.publicToken
    const url = `http://localhost/public/v1/${token}/locations?lat=48.86&lng=2.36&radius=50&unit=km&limit=5`
    const ask = async () => {
      const res = await app.handle(new Request(url))
      expect(res.status).toBe(200)
      return res.text()
    }
    const first = await ask()
    for (let i = 0; i < 3; i++) expect(await ask()).toBe(first) // kept from the second ask, sent from the cache after
    expect(app.cacheHits()).toBe(2)
    const page = async () => (await app.handle(new Request(url.replace('limit=5', 'limit=7&offset=3')))).text()
    const pageBefore = await page() // asked once: not kept
    // idleMs 0: a look lets go of every index not asked for since the look before.
    expect(app.evictIdle(0)).toBe(0)
    expect(await ask()).toBe(first)
    expect(app.cacheHits()).toBe(3) // from the answer cache
    expect(app.evictIdle(0)).toBe(0)
    expect(app.evictIdle(0)).toBe(1)
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'info',
        message: expect.stringContaining('index let go'),
        locator: env.locatorId,
        locations: 50,
      }),
    ])
    expect(await ask()).toBe(first)
    expect(await page()).toBe(pageBefore) // made by the index built again
    expect(lines[1]).toEqual(
      expect.objectContaining({
        level: 'info',
        message: expect.stringContaining('index built again'),
        locator: env.locatorId,
        locations: 50,
        ms: expect.any(Number),
      }),
    )
    expect(lines).toHaveLength(2)

    // A request that finds the index's settings changed (filters) keeps its mark on the index brought up to date.
    await ask()
    expect(app.evictIdle(0)).toBe(0)
    setFilters(env.store, env.locatorId, [
      { id: 'services', name: 'Services', label: 'Services', tags: [{ value: 'repair', label: 'Repairs' }] },
    ])
    expect(JSON.parse(await ask()).success).toBe(true)
    expect(app.evictIdle(0)).toBe(0)
  })

  test('INDEX_IDLE_MINUTES: 60 by default, 0 for never, whole minutes; a bad value stops the start with a message', () => {
    expect(loadConfig({}).indexIdleMs).toBe(60 * MINUTE)
    expect(loadConfig({ INDEX_IDLE_MINUTES: '0' }).indexIdleMs).toBe(0)
    expect(loadConfig({ INDEX_IDLE_MINUTES: '15' }).indexIdleMs).toBe(15 * MINUTE)
    for (const bad of ['-1', '1.5', 'soon', '525601', '0x10', '1e2'])
      expect(() => loadConfig({ INDEX_IDLE_MINUTES: bad })).toThrow(
        `INDEX_IDLE_MINUTES must be a whole number from 0 to 525600; got "${bad}".`,
      )
  })
})

describe('small deltas are compacted once writes stop, or once the base is old (settleDeltas)', () => {
  /** A registry whose background tasks run when the test says, over the test locator seeded with 3000 locations (a delta's bound of 300), built. */
  function built() {
    const q = taskQueue()
    const registry = new IndexRegistry(env.store, q.schedule)
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    seed(env.locatorId, 3000)
    registry.sync()
    const { index } = registry.entry(env.locatorId)
    q.runAll()
    expect(index.stats()).toMatchObject({ base: 3000, delta: 0 })
    /**
     * 260 more, below the bound: no compaction of their own. Returns times before and after they
     * were applied: the last change's time lies between, however long a loaded machine takes.
     */
    const write = () => {
      seed(env.locatorId, 260)
      const before = performance.now()
      registry.sync()
      q.runAll()
      expect(index.compacting).toBe(false)
      return { before, after: performance.now() }
    }
    return { q, registry, index, write }
  }
  const NEVER = Number.POSITIVE_INFINITY

  test("changes below the delta's bound are folded into its base once no change reached it for quietMs: not before, and once", async () => {
    const { q, registry, index, write } = built()
    expect(registry.settleDeltas(0, 0)).toEqual([]) // nothing written since the build
    await Bun.sleep(100) // quiet is counted from the last change, not from the build
    const { before: writing, after: written } = write()
    expect(index.stats()).toMatchObject({ base: 3000, delta: 260 })
    const token = env.store.locators.get(env.locatorId)!.publicToken
    const url = `http://localhost/public/v1/${token}/locations?all=true&tags[]=repair&offset=3000`
    const locator = env.store.locators.get(env.locatorId)!
    const before = JSON.parse(Buffer.from(locationsBody(registry, locator, url).body).toString())

    expect(registry.settleDeltas(50, NEVER, writing + 49)).toEqual([]) // written under 50 ms ago, built 100 ms before
    expect(index.compacting).toBe(false)
    expect(registry.settleDeltas(50, NEVER, written + 50)).toEqual([env.locatorId])
    expect(index.compacting).toBe(true)
    q.runAll()
    expect(index.stats()).toMatchObject({ base: 3260, delta: 0 })
    expect(registry.settleDeltas(50, NEVER, written + 1_000)).toEqual([]) // once
    const after = JSON.parse(Buffer.from(locationsBody(registry, locator, url).body).toString())
    expect(after.data.pagination.total).toBe(3260)
    expect(after).toEqual(before)
  })

  test('under writes that do not stop, changes are folded in once the base is staleMs old, counted from its last compaction', async () => {
    const { q, registry, index, write } = built()
    const first = index.baseBuiltAt
    await Bun.sleep(200)
    write()
    expect(registry.settleDeltas(NEVER, 1_000, first + 999)).toEqual([])
    expect(registry.settleDeltas(NEVER, 1_000, first + 1_000)).toEqual([env.locatorId])
    q.runAll()
    expect(index.stats()).toMatchObject({ base: 3260, delta: 0 })
    // The new base's age counts from its swap, at least 200 ms after the first build.
    const second = index.baseBuiltAt
    expect(second - first).toBeGreaterThanOrEqual(200)
    write()
    expect(registry.settleDeltas(NEVER, 150, second + 149)).toEqual([])
    expect(registry.settleDeltas(NEVER, 150, second + 150)).toEqual([env.locatorId])
    q.runAll()
    expect(index.stats()).toMatchObject({ base: 3520, delta: 0 })
  })
})
