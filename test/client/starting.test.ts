// The client against a service still starting (the geocoder's data prepared on a first start):
// a real server on 127.0.0.1 that answers as src/server/start.ts does (503 `unavailable`, "The
// service is starting", Retry-After: 1) for its first requests, then serves the app. Those
// answers are waited for up to startupWaitMs, not counted as tries.
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { StorelocClient, StorelocError } from '../../src/client'
import { makeEnv, storeBody, type TestEnv } from '../helpers'
import { startingService } from '../starting-service'

const PORT = 43601
const BASE = `http://127.0.0.1:${PORT}`

let env: TestEnv
const service = startingService(PORT)
const seen = service.seen
afterAll(() => service.stop())
beforeEach(() => {
  env = makeEnv()
  service.app = env.app
  seen.length = 0
})
afterEach(() => env.close())

const count = () => env.store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM locations').get()!.n

describe('StorelocClient while the service starts', () => {
  test('a write made while it starts is made once it serves, with one Idempotency-Key, spending no attempts', async () => {
    service.startingFor = 2
    const told: unknown[] = []
    // One attempt: a starting answer counted as a try would end the request at once.
    const api = new StorelocClient({ baseUrl: BASE, apiKey: env.key, attempts: 1, onStarting: (w) => told.push(w) })
    const made = await api.createLocation(storeBody({ external_id: 'S1' }) as any)
    expect(made.external_id).toBe('S1')
    expect(count()).toBe(1)
    expect(seen).toHaveLength(3)
    const keys = seen.map((r) => r.headers.get('idempotency-key'))
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(keys).toEqual(Array(3).fill(keys[0]))
    // Said once for the wait, not once a try.
    expect(told).toEqual([{ method: 'POST', path: '/admin/v1/locations', startupWaitMs: 120_000 }])
  })

  test('a start longer than startupWaitMs ends the request with the starting error; 0 waits not at all', async () => {
    service.startingFor = Number.POSITIVE_INFINITY
    const api = new StorelocClient({ baseUrl: BASE, apiKey: env.key, attempts: 1, startupWaitMs: 1500 })
    const error = await api.createLocation(storeBody() as any, { idempotencyKey: 'nightly-1' }).catch((e) => e)
    expect(error).toBeInstanceOf(StorelocError)
    expect(error).toMatchObject({
      status: 503,
      code: 'unavailable',
      message: 'The service is starting. Retry in a moment.',
      retryAfter: 1,
      idempotencyKey: 'nightly-1',
      // Told apart from a busy database's 503, whose retryAfter a script would wait.
      starting: true,
    })
    // Asked at 0 s, waited its Retry-After (1 s), asked again: one more wait would pass 1.5 s.
    expect(seen).toHaveLength(2)
    expect(count()).toBe(0)

    // startupWaitMs 0 turns the wait off: a starting answer is a 503 like another, counted as a try.
    seen.length = 0
    const off = new StorelocClient({ baseUrl: BASE, apiKey: env.key, attempts: 1, startupWaitMs: 0 })
    expect(await off.listLocations().catch((e) => e)).toMatchObject({
      status: 503,
      code: 'unavailable',
      starting: false,
    })
    expect(seen).toHaveLength(1)
  })
})
