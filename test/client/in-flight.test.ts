// The client's wait for a write still running on the server (409 with Retry-After), against a
// stand-in server on 127.0.0.1 that answers so for every try. The waits are recorded, each run at
// once on a clock of its own: their lengths, not the machine's speed, are compared.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { StorelocClient, StorelocError } from '../../src/client'
import { storeBody } from '../helpers'
import { useStartingService } from '../starting-service'

const { service, env } = useStartingService()
const seen = service.seen

/** Each try's own timer, ms: not a wait between tries, it runs its length unnoted. */
const timeoutMs = 4_321
const realTimeout = globalThis.setTimeout
const realNow = Date.now
/** The waits the client asked for, in order. */
const waits: number[] = []
/** The time the recorded waits have passed, ms: Date.now runs ahead of the machine's clock by it. */
let passed = 0
/** Off once the app serves: its own timers run their length, unnoted. */
let recording = true

beforeEach(() => {
  waits.length = 0
  passed = 0
  recording = true
  Date.now = () => realNow() + passed
  globalThis.setTimeout = ((fn: () => void, ms?: number, ...args: unknown[]) => {
    if (ms === timeoutMs || !recording) return realTimeout(fn, ms, ...args)
    waits.push(ms ?? 0)
    passed += ms ?? 0
    return realTimeout(fn, 0, ...args)
  }) as typeof setTimeout
})
afterEach(() => {
  globalThis.setTimeout = realTimeout
  Date.now = realNow
})

const running = JSON.stringify({
  success: false,
  error: 'conflict',
  message: 'A request with the Idempotency-Key "nightly-1" is still being processed.',
})

describe("StorelocClient's wait for a write still running", () => {
  test('is waited for past its attempts, Retry-After at a time, and the write made once with its one key', async () => {
    let busy = 6 // more than the 4 attempts
    service.app = {
      handle: (request) => {
        if (busy-- > 0) return new Response(running, { status: 409, headers: { 'retry-after': '1' } })
        recording = false
        return env().app.handle(request)
      },
    }
    const api = new StorelocClient({ baseUrl: service.url, apiKey: env().key, timeoutMs })
    const made = await api.createLocation(storeBody({ external_id: 'S1' }) as any, { idempotencyKey: 'nightly-1' })
    expect(made.external_id).toBe('S1')
    expect(seen.map((r) => r.headers.get('idempotency-key'))).toEqual(Array(7).fill('nightly-1'))
    expect(waits).toEqual(Array(6).fill(1000))
    expect(env().store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM locations').get()!.n).toBe(1)
  })

  test('a 409 whose Retry-After is 0 or unreadable is waited 1 s at a time, not every backoffMs', async () => {
    // What a proxy or an odd server may send: 0, words, an HTTP date gone by (0 s left).
    for (const header of ['0', 'soon', '-1', 'Thu, 01 Jan 1970 00:00:00 GMT']) {
      seen.length = 0
      waits.length = 0
      passed = 0
      service.app = { handle: () => new Response(running, { status: 409, headers: { 'retry-after': header } }) }
      const api = new StorelocClient({ baseUrl: service.url, apiKey: env().key, timeoutMs, inFlightWaitMs: 5500 })
      const error = await api.createLocation(storeBody() as any, { idempotencyKey: 'nightly-1' }).catch((e) => e)
      expect(error).toBeInstanceOf(StorelocError)
      expect(error).toMatchObject({ status: 409, code: 'conflict', idempotencyKey: 'nightly-1' })
      // Asked at 0 to 5 s, past the 4 attempts: one more 1 s wait would pass 5.5 s. Every
      // backoffMs (250 ms) it would ask 22 times.
      expect({ header, asked: seen.length, waits: [...waits] }).toEqual({
        header,
        asked: 6,
        waits: Array(5).fill(1000),
      })
    }
  })
})
