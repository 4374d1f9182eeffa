// IDEMPOTENCY_MAX_MB: past a locator's answers of 24 hours, a keyed write is made but its answer
// is kept as its size alone (a retry: 410, nothing written again); another locator's are its own.
import { afterEach, beforeEach, expect, test } from 'bun:test'
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
beforeEach(() => {
  dir = tempDir()
  store = openStore(join(dir, 'budget.db'))
  // Room for about two answers of a create (~700 bytes each) a locator.
  app = createApp({
    store,
    geocoder: noGeocoder,
    config: { maxBodyBytes: 262144, logRequests: false, idempotencyMaxBytes: 1600 },
    log: () => {},
  })
})
afterEach(() => {
  store.close()
  rmSync(dir, { recursive: true, force: true })
})

async function create(secret: string, key: string, name: string) {
  const res = await app.handle(
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
