// A large index let go (INDEX_IDLE_MINUTES) is built again in background tasks: its first query
// (and a store page of it) waits for it while other locators' queries are answered, then answers
// as the index did before.
import { expect, test } from 'bun:test'
import { slugOf } from '../../src/core/slug'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { createApp } from '../../src/server/app'
import { locationRecord, otherProcess } from '../helpers'
import { env, seed, usePreloadEnv } from './preload-fixture'

usePreloadEnv()

const QUERY = 'lat=48.86&lng=2.36&radius=50&unit=km&limit=500'

/** An app whose indexes of 100 locations or more are built in background tasks, over a large locator (300) and a small one (10), both queried once. */
async function twoLocators() {
  const lines: Record<string, unknown>[] = []
  const app = createApp({
    store: env.store,
    geocoder: env.geocoder,
    config: { maxBodyBytes: 256 * 1024, logRequests: false },
    log: (line) => lines.push(line),
    indexUpkeep: { coldBuildMin: 100 },
  })
  setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
  seed(env.locatorId, 300)
  const { locator: small } = createLocator(env.store, 'Small')
  setLocatorSettings(env.store, small.id, { queryApi: 'on' })
  seed(small.id, 10)
  const url = (locatorId: string) =>
    `http://localhost/public/v1/${env.store.locators.get(locatorId)!.publicToken}/locations?${QUERY}`
  const ask = async (locatorId: string) => {
    const res = await app.handle(new Request(url(locatorId)))
    expect(res.status).toBe(200)
    return res.text()
  }
  const before = await ask(env.locatorId)
  await ask(small.id)
  /** Lets the large index go: the small one is asked for between the two looks, the large one not. */
  const letGo = async () => {
    app.evictIdle(0)
    await ask(small.id)
    expect(app.evictIdle(0)).toBe(1)
  }
  return { app, lines, small, url, ask, before, letGo }
}

const rebuiltLines = (lines: Record<string, unknown>[]) =>
  lines.filter((l) => String(l.message).startsWith('index built again'))

test("a large index let go: its first query waits for its build in background tasks, the small locator's are answered meanwhile; then it answers as before", async () => {
  const { app, lines, small, url, ask, before, letGo } = await twoLocators()
  await letGo()
  let bigAnswered = false
  const big = Promise.resolve(app.handle(new Request(url(env.locatorId)))).then((res) => {
    bigAnswered = true
    return res
  })
  // Built in this turn, the index would be logged now, before any other request is answered.
  expect(rebuiltLines(lines)).toEqual([])
  for (let i = 0; i < 3; i++) {
    expect(JSON.parse(await ask(small.id)).data.locations).toHaveLength(10)
    expect(bigAnswered).toBe(false)
  }
  const res = await big
  expect(res.status).toBe(200)
  expect(await res.text()).toBe(before)
  expect(rebuiltLines(lines)).toEqual([
    expect.objectContaining({
      message: expect.stringContaining('in background tasks'),
      locator: env.locatorId,
      locations: 300,
    }),
  ])
  expect(await ask(env.locatorId)).toBe(before) // asked again: the same, from the index built
})

test('a location another process commits while the index is built is in the first answer; a small index let go is built by its query at once', async () => {
  const { app, lines, small, url, letGo } = await twoLocators()
  await letGo()
  const big = app.handle(new Request(url(env.locatorId)))
  otherProcess(env.store, (other) =>
    other.locations.insert(
      locationRecord(env.locatorId, {
        name: 'Arrived meanwhile',
        address: '1 Rue de Rivoli, Paris',
        coordinates: { lat: 48.86, lng: 2.36 },
        status: 'published',
      }),
    ),
  )
  const answer = JSON.parse(await (await big).text())
  expect(answer.data.pagination.total).toBe(301)
  expect(answer.data.locations[0].name).toBe('Arrived meanwhile')

  // Below coldBuildMin: built by its query, in its turn (logged before the answer is awaited).
  expect(app.evictIdle(0)).toBe(1) // the small one, not asked for since letGo()'s last look
  const answered = app.handle(new Request(url(small.id)))
  expect(rebuiltLines(lines).at(-1)).toEqual(
    expect.objectContaining({ message: expect.not.stringContaining('background'), locator: small.id, locations: 10 }),
  )
  expect((await answered).status).toBe(200)
})

test("a store page of a large locator let go waits for its build in background tasks, as its query does; the small locator's queries are answered meanwhile", async () => {
  const { app, lines, small, ask, letGo } = await twoLocators()
  await letGo()
  const [location] = env.store.locations.page(env.locatorId, 'published', 1, 0)
  const token = env.store.locators.get(env.locatorId)!.publicToken
  const page = Promise.resolve(
    app.handle(new Request(`http://localhost/l/${token}/${location!.id}/${slugOf(location!.name)}`)),
  )
  expect(rebuiltLines(lines)).toEqual([])
  expect(JSON.parse(await ask(small.id)).data.locations).toHaveLength(10)
  const res = await page
  expect(res.status).toBe(200)
  expect(await res.text()).toContain(location!.name)
  expect(rebuiltLines(lines)).toEqual([expect.objectContaining({ message: expect.stringContaining('in background') })])
})
