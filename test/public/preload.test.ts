// A start builds every public locator's index before its first query (createApp's preload, which
// src/main.ts runs): /readyz says "loading" until the builds and their background work are done,
// queries and writes meanwhile are answered as ever, and the answers are those of an index built
// on first use.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { createApp } from '../../src/app'
import { IndexRegistry } from '../../src/public/registry'
import { createLocator, setFilters, setLocatorSettings } from '../../src/operator'
import { locationRecord, makeEnv, storeBody, type TestEnv } from '../helpers'

let env: TestEnv
beforeEach(() => (env = makeEnv()))
afterEach(() => env.close())

/** More locations than one page of the background JSON fill (1000), so preload waits across several tasks. */
const SIZE = 2500

function seed(locatorId: string, n: number): void {
  env.store.write(() => {
    for (let i = 0; i < n; i++) {
      const body = { name: `Store ${i}`, address: `${i} Main Street, Paris`, coordinates: { lat: 48.85 + (i % 50) * 0.001, lng: 2.35 + Math.floor(i / 50) * 0.001 }, tags: ['repair'], status: 'published' }
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
    expect(await loading).toEqual({ locators: 1, locations: SIZE })
    const ready = await readyz()
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready' })
  })

  test('an index that cannot be built from the database: /readyz answers 503 "failed" saying why, until a preload succeeds', async () => {
    // A row no write of the service makes (its tags not JSON): the index build throws.
    const row = env.store.db.query<{ id: string; tags: string }, [string]>('SELECT id, tags FROM locations WHERE locator_id = ? LIMIT 1').get(env.locatorId)!
    env.store.db.query('UPDATE locations SET tags = ? WHERE id = ?').run('not json', row.id)
    await expect(env.app.preload()).rejects.toThrow()
    const failed = await readyz()
    expect(failed.status).toBe(503)
    expect(await failed.json()).toEqual({ status: 'failed', message: expect.stringContaining('could not be built') })
    env.store.db.query('UPDATE locations SET tags = ? WHERE id = ?').run(row.tags, row.id)
    await env.app.preload()
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

  test('settings changed during the preload: it waits for the index as the change left it', async () => {
    const registry = new IndexRegistry(env.store)
    const loading = registry.preload()
    const before = registry.entry(env.locatorId)
    await Bun.sleep(5) // a few of the build's background tasks have run
    setFilters(env.store, env.locatorId, [{ id: 'services', name: 'Services', label: 'Services', tags: [{ value: 'repair', label: 'Repairs' }] }])
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
    const lazy = createApp({ store: env.store, geocoder: env.geocoder, config: { maxBodyBytes: 256 * 1024, logRequests: false }, log: () => {} })
    for (const qs of ['lat=48.86&lng=2.36&radius=5&unit=km&limit=50', 'lat=48.85&lng=2.35&radius=50&unit=km&limit=20&offset=2400', 'all=true&limit=100&offset=700', 'lat=48.86&lng=2.36&search=store%2012']) {
      const ask = async (app: typeof lazy) => (await app.handle(new Request(`http://localhost/public/v1/${token}/locations?${qs}`))).text()
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
    const created = await env.call('POST', `/admin/v1/locations`, { body: storeBody({ coordinates: { lat: 48.86, lng: 2.36 } }) })
    expect(created.status).toBe(201)
    expect(await total()).toBe(SIZE + 1)
    expect(await loading).toEqual({ locators: 1, locations: SIZE + 1 })
    expect(await total()).toBe(SIZE + 1)
    const first = (await (await env.app.handle(new Request(near))).json()) as any
    expect(first.data.locations[0].id).toBe(created.body.location.id)
  })
})

describe('a locator made or turned public after the start', () => {
  /** Background tasks run when the test says. */
  function queue() {
    const tasks: (() => void)[] = []
    return { schedule: (task: () => void) => void tasks.push(task), runAll: () => { while (tasks.length > 0) tasks.shift()!() } }
  }

  test('is built by a background task once a sync sees it, not by its first query; writes after reach that index', () => {
    const q = queue()
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
    const q = queue()
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
    const res = await env.app.handle(new Request(`http://localhost/public/v1/${token}/locations?lat=48.86&lng=2.36&radius=50&unit=km&limit=1`))
    expect(res.status).toBe(200)
    expect(((await res.json()) as any).data.pagination.total).toBe(40)
  })
})
