// The client's wait for a starting service beside its other limits: each pause stays within
// maxWaitMs, and the start's wait is its own, apart from inFlightWaitMs (a write still running).
// A real server on 127.0.0.1 answers "starting" for its first requests, then serves the app.
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { StorelocClient, StorelocError } from '../../src/client'
import { makeEnv, storeBody, type TestEnv } from '../helpers'
import { startingService } from '../starting-service'

const PORT = 45901
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

describe('StorelocClient waiting for a start, within its other limits', () => {
  test('a starting pause (Retry-After: 1) beyond maxWaitMs ends the request with the starting error', async () => {
    service.startingFor = Number.POSITIVE_INFINITY
    const told: unknown[] = []
    const api = new StorelocClient({
      baseUrl: BASE,
      apiKey: env.key,
      maxWaitMs: 500,
      startupWaitMs: 1500,
      onStarting: (w) => told.push(w),
    })
    const error = await api.createLocation(storeBody() as any, { idempotencyKey: 'nightly-1' }).catch((e) => e)
    expect(error).toBeInstanceOf(StorelocError)
    expect(error).toMatchObject({ status: 503, code: 'unavailable', retryAfter: 1, starting: true })
    // Asked once: waiting the 1 s the answer asks would pass the 500 ms allowed before a try.
    expect(seen).toHaveLength(1)
    expect(told).toEqual([])
    expect(count()).toBe(0)
  })

  test('the wait for a start leaves inFlightWaitMs whole for a write still running afterwards', async () => {
    service.startingFor = 1
    const running = JSON.stringify({
      success: false,
      error: 'conflict',
      message: 'A request with the Idempotency-Key "nightly-2" is still being processed.',
    })
    let busy = 1
    // After the start, the write's earlier try still runs once (409 with Retry-After), then it is served.
    service.app = {
      handle: (request) =>
        busy-- > 0 ? new Response(running, { status: 409, headers: { 'retry-after': '0' } }) : env.app.handle(request),
    }
    const api = new StorelocClient({ baseUrl: BASE, apiKey: env.key, backoffMs: 10, inFlightWaitMs: 900 })
    // The start's pause is 1 s, more than inFlightWaitMs: counted toward it, no in-flight wait would be left.
    const made = await api.createLocation(storeBody({ external_id: 'S2' }) as any, { idempotencyKey: 'nightly-2' })
    expect(made.external_id).toBe('S2')
    expect(seen).toHaveLength(3)
    expect(count()).toBe(1)
  })
})
