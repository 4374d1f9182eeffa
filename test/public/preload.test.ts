// A start builds every public locator's index before its first query (createApp's preload, which
// src/main.ts runs): /readyz says "loading" until the builds and their background work are done,
// queries and writes meanwhile are answered as ever, and the answers are those of an index built
// on first use.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { createApp } from '../../src/server/app'
import { loadConfig } from '../../src/core/config'
import { IndexRegistry } from '../../src/indexes/registry'
import { locationsBody } from '../../src/api/public/answer'
import { createLocator, setFilters, setLocatorSettings } from '../../src/operator'
import { locationRecord, makeEnv, storeBody, taskQueue, type TestEnv } from '../helpers'

let env: TestEnv
beforeEach(() => (env = makeEnv()))
afterEach(() => env.close())

/** More locations than one page of the background JSON fill (1000), so preload waits across several tasks. */
const SIZE = 2500

function seed(locatorId: string, n: number): void {
  env.store.write(() => {
    for (let i = 0; i < n; i++) {
      const body = {
        name: `Store ${i}`,
        address: `${i} Main Street, Paris`,
        coordinates: { lat: 48.85 + (i % 50) * 0.001, lng: 2.35 + Math.floor(i / 50) * 0.001 },
        tags: ['repair'],
        status: 'published',
      }
      env.store.locations.insert(locationRecord(locatorId, body))
    }
  })
}

const readyz = () => env.app.handle(new Request('http://localhost/readyz'))

describe('preload', () => {
  beforeEach(() => {
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    seed(env.locatorId, SIZE)
    // A locator with the Query API off is not loaded: nobody can query it.
    const { locator: off } = createLocator(env.store, 'Off')
    seed(off.id, 10)
  })

  test('/readyz answers 503 "loading" until every public index is built and settled, then 200', async () => {
    expect((await readyz()).status).toBe(200) // nothing to wait for before a preload starts
    const loading = env.app.preload()
    const res = await readyz()
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('1')
    expect(await res.json()).toEqual({ status: 'loading', message: expect.stringContaining('indexes') })
    expect(await loading).toEqual({ locators: 1, locations: SIZE, failed: 0 })
    const ready = await readyz()
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready' })
  })

  test('an index that cannot be built: logged and skipped by the preload; /readyz 503 "failed" when no public locator can be served, 200 "degraded" when others can; repaired, it serves with no restart', async () => {
    const lines: Record<string, unknown>[] = []
    let retryMs = 60_000
    const app = () =>
      createApp({
        store: env.store,
        geocoder: env.geocoder,
        config: { maxBodyBytes: 256 * 1024, logRequests: false },
        log: (l) => lines.push(l),
        indexBuildRetryMs: retryMs,
      })
    const broken = app()
    const ready = async (a = broken) => {
      const res = await a.handle(new Request('http://localhost/readyz'))
      return { status: res.status, body: (await res.json()) as any }
    }
    // A row no write of the service makes (its tags not JSON): the index build throws.
    const row = env.store.db
      .query<{ id: string; tags: string }, [string]>('SELECT id, tags FROM locations WHERE locator_id = ? LIMIT 1')
      .get(env.locatorId)!
    env.store.db.query('UPDATE locations SET tags = ? WHERE id = ?').run('not json', row.id)
    expect(await broken.preload()).toEqual({ locators: 0, locations: 0, failed: 1 })
    const failedLine = expect.objectContaining({
      level: 'error',
      message: expect.stringContaining('index not built'),
      locator: env.locatorId,
      error: expect.stringContaining('JSON'),
      stack: expect.any(String),
    })
    expect(lines).toEqual([failedLine])
    const failed = await ready()
    expect(failed.status).toBe(503)
    expect(failed.body).toEqual({
      status: 'failed',
      message: expect.stringContaining(`The index of locator ${env.locatorId} could not be built`),
      locators: [env.locatorId],
    })
    const token = env.store.locators.get(env.locatorId)!.publicToken
    const near = `http://localhost/public/v1/${token}/locations?lat=48.86&lng=2.36&radius=50&unit=km&limit=1`
    // Queries meanwhile: 503, to retry when the build is tried again; the site is not told the
    // operator's reason, and the failure is not logged again for each of them.
    for (const path of [
      near,
      `http://localhost/public/v1/${token}/filters`,
      `http://localhost/public/v1/${token}/locations/${row.id}`,
    ]) {
      const res = await broken.handle(new Request(path))
      expect(res.status).toBe(503)
      const retryAfter = Number(res.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThanOrEqual(59) // when it is tried again: 60 s (retryMs) after the failure
      expect(retryAfter).toBeLessThanOrEqual(60)
      expect(res.headers.get('ratelimit-remaining')).not.toBeNull()
      const body = (await res.json()) as any
      expect(body).toEqual({
        success: false,
        error: {
          code: 'UNAVAILABLE',
          message: expect.stringContaining('Retry after'),
          docs: 'http://localhost/docs#UNAVAILABLE',
        },
      })
      expect(body.error.message).not.toContain('JSON')
    }
    expect(lines).toEqual([failedLine])

    // Another public locator: it is served, so the process is ready for it, and says what is not.
    const { locator: good } = createLocator(env.store, 'Good')
    setLocatorSettings(env.store, good.id, { queryApi: 'on' })
    seed(good.id, 10)
    const degraded = await ready()
    expect(degraded.status).toBe(200)
    expect(degraded.body).toEqual({
      status: 'degraded',
      message: expect.stringContaining('could not be built'),
      locators: [env.locatorId],
    })
    const goodNear = `http://localhost/public/v1/${good.publicToken}/locations?lat=48.86&lng=2.36&radius=50&unit=km&limit=1`
    expect((await broken.handle(new Request(goodNear))).status).toBe(200)

    // Repaired: within the retry interval queries still fail at once; once it passed, the next query builds it.
    env.store.db.query('UPDATE locations SET tags = ? WHERE id = ?').run(row.tags, row.id)
    expect((await broken.handle(new Request(near))).status).toBe(503)
    retryMs = 0
    const retrying = app()
    env.store.db.query('UPDATE locations SET tags = ? WHERE id = ?').run('not json', row.id)
    lines.length = 0
    const first = await retrying.handle(new Request(near)) // the query that builds it, and fails
    expect(first.status).toBe(503)
    expect(first.headers.get('retry-after')).toBe('1')
    // No retry interval: every attempt (the fast path's, then the app's, then the next query's) is
    // a build; the reason is logged once, not again while it stays the same.
    expect(lines).toEqual([failedLine])
    expect((await retrying.handle(new Request(near))).status).toBe(503)
    expect(lines).toEqual([failedLine])
    expect((await ready(retrying)).body.status).toBe('degraded')
    env.store.db.query('UPDATE locations SET tags = ? WHERE id = ?').run(row.tags, row.id)
    const served = await retrying.handle(new Request(near))
    expect(served.status).toBe(200)
    expect(((await served.json()) as any).data.pagination.total).toBe(SIZE)
    expect(await ready(retrying)).toEqual({ status: 200, body: { status: 'ready' } })

    // Repaired while no query comes (a load balancer took every server out): the idle sync's retry builds it.
    await retrying.preload() // its background work done: the row is broken again below, behind its back
    env.store.db.query('UPDATE locations SET tags = ? WHERE id = ?').run('not json', row.id)
    const idle = app()
    lines.length = 0
    expect((await idle.preload()).failed).toBe(1)
    expect(lines).toEqual([failedLine])
    idle.retryFailedBuilds() // fails again, for the same reason: not logged again
    await Bun.sleep(20)
    expect(lines).toEqual([failedLine])
    expect((await ready(idle)).body.status).toBe('degraded')
    env.store.db.query('UPDATE locations SET tags = ? WHERE id = ?').run(row.tags, row.id)
    expect((await ready(idle)).body.status).toBe('degraded')
    idle.retryFailedBuilds()
    await Bun.sleep(20) // the background build's turn
    expect(await ready(idle)).toEqual({ status: 200, body: { status: 'ready' } })

    // Turned off, a locator whose build failed is no longer reported: nobody can query it.
    await idle.preload()
    env.store.db.query('UPDATE locations SET tags = ? WHERE id = ?').run('not json', row.id)
    const off = app()
    expect((await off.preload()).failed).toBe(1)
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'off' })
    off.sync()
    expect(await ready(off)).toEqual({ status: 200, body: { status: 'ready' } })
  })

  test('a row the build reads but whose public JSON cannot be made (bad hours): the preload ends, the other rows are answered, answers that need it fail alone', async () => {
    const row = env.store.db
      .query<{ id: string }, [string]>('SELECT id FROM locations WHERE locator_id = ? ORDER BY seq LIMIT 1')
      .get(env.locatorId)!
    env.store.db.query('UPDATE locations SET hours = ? WHERE id = ?').run('not json', row.id)
    expect(await env.app.preload()).toEqual({ locators: 1, locations: SIZE, failed: 0 })
    const token = env.store.locators.get(env.locatorId)!.publicToken
    const ask = (qs: string) => env.app.handle(new Request(`http://localhost/public/v1/${token}/locations?${qs}`))
    // Store 0 is at (48.85, 2.35): its neighbours' answer needs it; one far from it does not.
    expect((await ask('lat=48.85&lng=2.35&radius=0.01&unit=km')).status).toBe(500)
    const far = await ask('lat=48.899&lng=2.399&radius=0.5&unit=km&limit=5')
    expect(far.status).toBe(200)
    expect(((await far.json()) as any).data.locations).toHaveLength(5)
    expect((await readyz()).status).toBe(200)
  })

  test('it resolves once the background work is done: every JSON filled, FlexSearch and the name order made', async () => {
    const registry = new IndexRegistry(env.store)
    const loading = registry.preload()
    const entry = registry.entry(env.locatorId) // built by preload's first step, in this same turn
    expect(entry.jsonReady || entry.index.settled).toBe(false)
    await loading
    expect(registry.entry(env.locatorId)).toBe(entry)
    expect(entry.jsonReady).toBe(true)
    expect(entry.index.settled).toBe(true)
  })

  test('a busy database stops the preload (it is tried again, not skipped as a failed build), also for a locator whose build failed before', async () => {
    const registry = new IndexRegistry(env.store, undefined, { buildRetryMs: 0, busyRetryMs: 0 })
    const { indexRows } = env.store.locations
    const busy = () => {
      throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
    }
    try {
      env.store.locations.indexRows = busy
      await expect(registry.preload()).rejects.toThrow('busy')
      env.store.locations.indexRows = () => {
        throw new Error('a bad row')
      }
      expect((await registry.preload()).failed).toEqual([expect.objectContaining({ locatorId: env.locatorId })])
      env.store.locations.indexRows = busy
      await expect(registry.preload()).rejects.toThrow('busy')
    } finally {
      env.store.locations.indexRows = indexRows
    }
    expect(await registry.preload()).toEqual({ locators: 1, locations: SIZE, failed: [] })
  })

  test('settings changed during the preload: it waits for the index as the change left it', async () => {
    const registry = new IndexRegistry(env.store)
    const loading = registry.preload()
    const before = registry.entry(env.locatorId)
    await Bun.sleep(5) // a few of the build's background tasks have run
    setFilters(env.store, env.locatorId, [
      { id: 'services', name: 'Services', label: 'Services', tags: [{ value: 'repair', label: 'Repairs' }] },
    ])
    await loading
    const after = registry.entry(env.locatorId)
    expect(after).not.toBe(before) // its JSON was made again
    expect(after.index).toBe(before.index)
    expect(after.jsonReady).toBe(true)
    expect(after.index.settled).toBe(true)
  })

  test('answers after a preload are those of an index built on first query', async () => {
    await env.app.preload()
    const token = env.store.locators.get(env.locatorId)!.publicToken
    const lazy = createApp({
      store: env.store,
      geocoder: env.geocoder,
      config: { maxBodyBytes: 256 * 1024, logRequests: false },
      log: () => {},
    })
    for (const qs of [
      'lat=48.86&lng=2.36&radius=5&unit=km&limit=50',
      'lat=48.85&lng=2.35&radius=50&unit=km&limit=20&offset=2400',
      'all=true&limit=100&offset=700',
      'lat=48.86&lng=2.36&search=store%2012',
    ]) {
      const ask = async (app: typeof lazy) =>
        (await app.handle(new Request(`http://localhost/public/v1/${token}/locations?${qs}`))).text()
      const preloaded = await ask(env.app)
      expect(JSON.parse(preloaded).success).toBe(true)
      expect(preloaded).toBe(await ask(lazy))
    }
  })

  test('queries and writes during the preload are answered, and the write is in every answer after', async () => {
    const token = env.store.locators.get(env.locatorId)!.publicToken
    const near = `http://localhost/public/v1/${token}/locations?lat=48.86&lng=2.36&radius=50&unit=km&limit=1`
    const total = async () => ((await (await env.app.handle(new Request(near))).json()) as any).data.pagination.total
    const loading = env.app.preload()
    expect((await readyz()).status).toBe(503)
    expect(await total()).toBe(SIZE)
    const created = await env.call('POST', `/admin/v1/locations`, {
      body: storeBody({ coordinates: { lat: 48.86, lng: 2.36 } }),
    })
    expect(created.status).toBe(201)
    expect(await total()).toBe(SIZE + 1)
    expect(await loading).toEqual({ locators: 1, locations: SIZE + 1, failed: 0 })
    expect(await total()).toBe(SIZE + 1)
    const first = (await (await env.app.handle(new Request(near))).json()) as any
    expect(first.data.locations[0].id).toBe(created.body.location.id)
  })
})

describe('a locator made or turned public after the start', () => {
  test('is built by a background task once a sync sees it, not by its first query; writes after reach that index', () => {
    const q = taskQueue()
    const registry = new IndexRegistry(env.store, q.schedule)
    const { locator } = createLocator(env.store, 'Later')
    seed(locator.id, 30)
    registry.sync()
    q.runAll()
    expect(registry.has(locator.id)).toBe(false) // its Query API is off: nobody can query it

    setLocatorSettings(env.store, locator.id, { queryApi: 'on' })
    registry.sync()
    expect(registry.has(locator.id)).toBe(false) // not in the sync's own turn
    q.runAll()
    expect(registry.has(locator.id)).toBe(true)
    const built = registry.entry(locator.id)
    expect(built.index.size).toBe(30)

    seed(locator.id, 5)
    registry.sync()
    expect(registry.entry(locator.id)).toBe(built) // applied to it, not built again
    expect(built.index.size).toBe(35)
  })

  test('turning its Query API off lets its index go; turned on again, it is built anew with the writes made meanwhile', () => {
    const q = taskQueue()
    const registry = new IndexRegistry(env.store, q.schedule)
    const { locator } = createLocator(env.store, 'On and off')
    setLocatorSettings(env.store, locator.id, { queryApi: 'on' })
    seed(locator.id, 30)
    registry.sync()
    q.runAll()
    const built = registry.entry(locator.id)

    setLocatorSettings(env.store, locator.id, { referrers: 'shop.example.com' })
    registry.sync()
    expect(registry.entry(locator.id)).toBe(built) // another setting: the index stays

    setLocatorSettings(env.store, locator.id, { queryApi: 'off' })
    registry.sync()
    expect(registry.has(locator.id)).toBe(false)
    seed(locator.id, 5)
    registry.sync()
    q.runAll()
    expect(registry.has(locator.id)).toBe(false) // nobody can query it: not built again

    setLocatorSettings(env.store, locator.id, { queryApi: 'on' })
    registry.sync()
    q.runAll()
    expect(registry.has(locator.id)).toBe(true)
    expect(registry.entry(locator.id)).not.toBe(built)
    expect(registry.entry(locator.id).index.size).toBe(35)
  })

  test('app.sync() applies what was committed with no query asking: a new public locator is built before its first query', async () => {
    const { locator } = createLocator(env.store, 'Made elsewhere')
    setLocatorSettings(env.store, locator.id, { queryApi: 'on' })
    seed(locator.id, 40)
    env.app.sync()
    await Bun.sleep(50) // the background build's turn, and its JSON fill's
    // Its rows now go behind the change log's back: an index built on this first query would not hold them.
    env.store.db.run('DELETE FROM locations WHERE locator_id = ?', [locator.id])
    const token = env.store.locators.get(locator.id)!.publicToken
    const res = await env.app.handle(
      new Request(`http://localhost/public/v1/${token}/locations?lat=48.86&lng=2.36&radius=50&unit=km&limit=1`),
    )
    expect(res.status).toBe(200)
    expect(((await res.json()) as any).data.pagination.total).toBe(40)
  })
})

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
    /** 260 more, below the bound: no compaction of their own. Returns when they were applied. */
    const write = () => {
      seed(env.locatorId, 260)
      registry.sync()
      q.runAll()
      expect(index.compacting).toBe(false)
      return performance.now()
    }
    return { q, registry, index, write }
  }
  const NEVER = Number.POSITIVE_INFINITY

  test("changes below the delta's bound are folded into its base once no change reached it for quietMs: not before, and once", async () => {
    const { q, registry, index, write } = built()
    expect(registry.settleDeltas(0, 0)).toEqual([]) // nothing written since the build
    await Bun.sleep(100) // quiet is counted from the last change, not from the build
    const written = write()
    expect(index.stats()).toMatchObject({ base: 3000, delta: 260 })
    const token = env.store.locators.get(env.locatorId)!.publicToken
    const url = `http://localhost/public/v1/${token}/locations?all=true&tags[]=repair&offset=3000`
    const locator = env.store.locators.get(env.locatorId)!
    const before = JSON.parse(Buffer.from(locationsBody(registry, locator, url).body).toString())

    expect(registry.settleDeltas(50, NEVER, written + 20)).toEqual([]) // written 20 ms ago, built 100 ms before
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
