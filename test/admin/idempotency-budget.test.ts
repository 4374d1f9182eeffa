// IDEMPOTENCY_MAX_MB: past a locator's answers of 24 hours, a keyed write is made but its answer
// is kept as its size alone (a retry: 410, nothing written again); another locator's are its own.
import { afterEach, beforeEach, expect, setSystemTime, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { noGeocoder } from '../../src/geocode/geocoder'
import { createLocator } from '../../src/operator'
import { createApp } from '../../src/server/app'
import { openStore, type Store } from '../../src/store'
import { storeBody, tempDir } from '../helpers'

let dir: string
let store: Store
let app: ReturnType<typeof createApp>
// Room for about two answers of a create (~700 bytes each) a locator.
const appOn = (on: Store) =>
  createApp({
    store: on,
    geocoder: noGeocoder,
    config: { maxBodyBytes: 262144, logRequests: false, idempotencyMaxBytes: 1600 },
    log: () => {},
  })
beforeEach(() => {
  dir = tempDir()
  store = openStore(join(dir, 'budget.db'))
  app = appOn(store)
})
afterEach(() => {
  setSystemTime()
  store.close()
  rmSync(dir, { recursive: true, force: true })
})

async function create(secret: string, key: string, name: string, to = app) {
  const res = await to.handle(
    new Request('http://localhost/admin/v1/locations', {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(storeBody({ name })),
    }),
  )
  return { status: res.status, body: (await res.json()) as any, replayed: res.headers.get('idempotent-replayed') }
}

test("past a locator's IDEMPOTENCY_MAX_MB, answers are kept as their size: a retry is 410, never a second write", async () => {
  const { locator, secret } = createLocator(store, 'Looping')
  const made: string[] = []
  for (const i of [1, 2, 3]) {
    const first = await create(secret, `k${i}`, `Store ${i}`)
    expect(first.status).toBe(201)
    made.push(first.body.location.id)
  }
  expect(store.locations.count(locator.id, null)).toBe(3)
  // Within the budget: replayed.
  const kept = await create(secret, 'k1', 'Store 1')
  expect([kept.status, kept.replayed, kept.body.location.id]).toEqual([201, 'true', made[0]])
  // Past it: the write was made once, and is not made again.
  const retry = await create(secret, 'k3', 'Store 3')
  expect(retry.status).toBe(410)
  expect(retry.body).toEqual({
    success: false,
    error: 'idempotency_answer_not_kept',
    message: expect.stringMatching(
      /^The request with the Idempotency-Key "k3" was made at \S+Z and answered 201, but its locator's answers kept for retries in 24 hours had reached the service's IDEMPOTENCY_MAX_MB setting, so its answer was not kept\. It was not made again: read the locations/,
    ),
  })
  expect(store.locations.count(locator.id, null)).toBe(3)
  // Another locator's budget is its own.
  const other = createLocator(store, 'Quiet')
  expect((await create(other.secret, 'k1', 'Theirs')).status).toBe(201)
  const theirs = await create(other.secret, 'k1', 'Theirs')
  expect([theirs.status, theirs.replayed]).toEqual([201, 'true'])
})

/** Whether the answer to `key` was kept: its retry replays it (201), or is refused (410). */
async function kept(secret: string, key: string, name: string, to = app) {
  const retry = await create(secret, key, name, to)
  expect([201, 410]).toContain(retry.status)
  return retry.status === 201 && retry.replayed === 'true'
}

test("a restart keeps the locator's answers of the day: past IDEMPOTENCY_MAX_MB, still not kept", async () => {
  const { secret } = createLocator(store, 'Restarted')
  for (const i of [1, 2]) expect((await create(secret, `k${i}`, `Store ${i}`)).status).toBe(201)
  store.close()
  store = openStore(join(dir, 'budget.db'))
  app = appOn(store)
  expect((await create(secret, 'k3', 'Store 3')).status).toBe(201)
  expect(await kept(secret, 'k1', 'Store 1')).toBe(true)
  expect(await kept(secret, 'k3', 'Store 3')).toBe(false)
})

test('two servers on one database file (WORKERS=2) share one IDEMPOTENCY_MAX_MB', async () => {
  const { secret } = createLocator(store, 'Shared')
  const otherStore = openStore(join(dir, 'budget.db'))
  const other = appOn(otherStore)
  try {
    expect((await create(secret, 'k1', 'Store 1')).status).toBe(201)
    expect((await create(secret, 'k2', 'Store 2', other)).status).toBe(201)
    expect((await create(secret, 'k3', 'Store 3')).status).toBe(201)
    expect((await create(secret, 'k4', 'Store 4', other)).status).toBe(201)
    for (const to of [app, other]) {
      expect(await kept(secret, 'k2', 'Store 2', to)).toBe(true)
      expect(await kept(secret, 'k3', 'Store 3', to)).toBe(false)
      expect(await kept(secret, 'k4', 'Store 4', to)).toBe(false)
    }
  } finally {
    otherStore.close()
  }
})

test('answers kept 24 hours ago no longer count: the budget is free again', async () => {
  const { secret } = createLocator(store, 'Nightly')
  const start = Date.UTC(2026, 11, 5, 2, 30)
  const HOUR = 3_600_000
  setSystemTime(start)
  for (const i of [1, 2, 3]) expect((await create(secret, `k${i}`, `Store ${i}`)).status).toBe(201)
  expect(await kept(secret, 'k2', 'Store 2')).toBe(true)
  expect(await kept(secret, 'k3', 'Store 3')).toBe(false)
  // 23 hours on: the answers of 02:00 to 03:00 still count.
  setSystemTime(start + 23 * HOUR)
  expect((await create(secret, 'k4', 'Store 4')).status).toBe(201)
  expect(await kept(secret, 'k4', 'Store 4')).toBe(false)
  // 24 hours on, in the hour after theirs: they no longer do.
  setSystemTime(start + 24 * HOUR - 29 * 60_000)
  for (const i of [5, 6, 7]) expect((await create(secret, `k${i}`, `Store ${i}`)).status).toBe(201)
  expect(await kept(secret, 'k5', 'Store 5')).toBe(true)
  expect(await kept(secret, 'k6', 'Store 6')).toBe(true)
  expect(await kept(secret, 'k7', 'Store 7')).toBe(false)
})
