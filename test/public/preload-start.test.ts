// A start builds every public locator's index before its first query (createApp's preload): /readyz
// says "loading" until the builds and their background work are done, queries and writes meanwhile
// are answered as ever; and a locator made public after the start is built in the background.
import { beforeEach, describe, expect, test } from 'bun:test'
import { createApp } from '../../src/server/app'
import { IndexRegistry } from '../../src/indexes/registry'
import { createLocator, setFilters, setLocatorSettings } from '../../src/operator'
import { storeBody, taskQueue } from '../helpers'
import { env, queuedTasksRun, SIZE, seed, usePreloadEnv } from './preload-fixture'

usePreloadEnv()

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
    let now = 0 // what the retries are counted on: stepped, not waited for
    const app = () =>
      createApp({
        store: env.store,
        geocoder: env.geocoder,
        config: { maxBodyBytes: 256 * 1024, logRequests: false },
        log: (l) => lines.push(l),
        indexBuildRetryMs: retryMs,
        indexUpkeep: { clock: () => now },
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
      expect(res.headers.get('retry-after')).toBe('60') // when it is tried again: retryMs after the failure
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
    now = retryMs - 1
    const waiting = await broken.handle(new Request(near))
    expect(waiting.status).toBe(503)
    expect(waiting.headers.get('retry-after')).toBe('1')
    now = retryMs
    expect((await broken.handle(new Request(near))).status).toBe(200)
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
    await queuedTasksRun()
    expect(lines).toEqual([failedLine])
    expect((await ready(idle)).body.status).toBe('degraded')
    env.store.db.query('UPDATE locations SET tags = ? WHERE id = ?').run(row.tags, row.id)
    expect((await ready(idle)).body.status).toBe('degraded')
    idle.retryFailedBuilds()
    await queuedTasksRun() // the background build
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
    await queuedTasksRun() // the build's first background tasks
    // Its label only spells out its value: the index's words stay (a new label builds it again).
    setFilters(env.store, env.locatorId, [
      { id: 'services', name: 'Services', label: 'Services', tags: [{ value: 'repair', label: 'Repair' }] },
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
    await queuedTasksRun() // the background build
    await queuedTasksRun() // the JSON fill the build queued: a page's JSON is read from the rows until then
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
