// The client against a service still starting (the geocoder's data prepared on a first start):
// a real server on 127.0.0.1 that answers as src/server/starting-answers.ts does (503
// `unavailable` with Retry-After: 1 and X-Service-Status: starting) for its first requests, then
// serves the app.
// Those answers are waited for up to startupWaitMs, not counted as tries; no test reads their
// message, which is for people.
import { describe, expect, test } from 'bun:test'
import { StorelocClient, StorelocError } from '../../src/client'
import { startingResponder } from '../../src/server/starting-answers'
import { storeBody } from '../helpers'
import { useStartingService } from '../starting-service'

const { service, env } = useStartingService()
const seen = service.seen

const count = () => env().store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM locations').get()!.n

describe('StorelocClient while the service starts', () => {
  test('a write made while it starts is made once it serves, with one Idempotency-Key, spending no attempts', async () => {
    service.startingFor = 2
    const told: unknown[] = []
    // One attempt: a starting answer counted as a try would end the request at once.
    const api = new StorelocClient({
      baseUrl: service.url,
      apiKey: env().key,
      attempts: 1,
      onStarting: (w) => told.push(w),
    })
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
    const api = new StorelocClient({ baseUrl: service.url, apiKey: env().key, attempts: 1, startupWaitMs: 1500 })
    const error = await api.createLocation(storeBody() as any, { idempotencyKey: 'nightly-1' }).catch((e) => e)
    expect(error).toBeInstanceOf(StorelocError)
    expect(error).toMatchObject({
      status: 503,
      code: 'unavailable',
      retryAfter: 1,
      idempotencyKey: 'nightly-1',
      // Told apart from a busy database's 503, whose retryAfter a script would wait.
      starting: true,
    })
    // Asked at 0 s, waited its Retry-After (1 s), asked again: one more wait would pass 1.5 s.
    expect(seen).toHaveLength(2)
    expect(count()).toBe(0)

    // startupWaitMs 0 turns the wait off: a starting answer is a 503 like another, counted as a
    // try; the error still says it was a start's, for the script to say what to do.
    seen.length = 0
    const off = new StorelocClient({ baseUrl: service.url, apiKey: env().key, attempts: 1, startupWaitMs: 0 })
    expect(await off.listLocations().catch((e) => e)).toMatchObject({
      status: 503,
      code: 'unavailable',
      starting: true,
    })
    expect(seen).toHaveLength(1)
  })

  test('an onStarting that throws ends the request with its error, at once, nothing sent again', async () => {
    service.startingFor = Number.POSITIVE_INFINITY
    const stop = new Error('not waiting for a start tonight')
    const api = new StorelocClient({
      baseUrl: service.url,
      apiKey: env().key,
      startupWaitMs: 1500,
      onStarting: () => {
        throw stop
      },
    })
    expect(await api.createLocation(storeBody() as any).catch((e) => e)).toBe(stop)
    expect(seen).toHaveLength(1)
    expect(count()).toBe(0)
  })

  test("a 503 without X-Service-Status is a 503 like another, though its body is a starting answer's", async () => {
    // What a proxy that drops the header passes on: the starting answer's status, body and Retry-After.
    const starting = startingResponder(false, () => {})
    service.startingFor = 0
    service.app = {
      handle: async (request) => {
        const answer = await starting(request)
        answer.headers.delete('x-service-status')
        return answer
      },
    }
    const told: unknown[] = []
    const api = new StorelocClient({
      baseUrl: service.url,
      apiKey: env().key,
      attempts: 1,
      startupWaitMs: 1500,
      onStarting: (w) => told.push(w),
    })
    const error = await api.createLocation(storeBody() as any, { idempotencyKey: 'nightly-3' }).catch((e) => e)
    expect(error).toBeInstanceOf(StorelocError)
    expect(error).toMatchObject({ status: 503, code: 'unavailable', retryAfter: 1, starting: false })
    // Its one try spent, not waited for as a start.
    expect(seen).toHaveLength(1)
    expect(told).toEqual([])
    expect(count()).toBe(0)
  })

  test('X-Service-Status is read as a proxy may pass it on: in another case, spaced, or sent twice', async () => {
    const starting = startingResponder(false, () => {})
    for (const [i, status] of ['Starting', ' STARTING ', 'starting, starting', 'ok ,Starting'].entries()) {
      seen.length = 0
      let first = true
      service.app = {
        handle: async (request) => {
          if (!first) return env().app.handle(request)
          first = false
          const answer = await starting(request)
          answer.headers.set('x-service-status', status)
          return answer
        },
      }
      const told: unknown[] = []
      // One attempt: the answer, not taken for a start's, would end the request at once.
      const api = new StorelocClient({
        baseUrl: service.url,
        apiKey: env().key,
        attempts: 1,
        onStarting: (w) => told.push(w),
      })
      const made = await api.createLocation(storeBody({ external_id: `S${i}` }) as any).catch((e) => e)
      expect({ status, made: made.external_id, asked: seen.length, told: told.length }).toEqual({
        status,
        made: `S${i}`,
        asked: 2,
        told: 1,
      })
    }
    expect(count()).toBe(4)
  })
})

// The client's wait for a starting service beside its other limits: each pause stays within
// maxWaitMs, and the start's wait is its own, apart from inFlightWaitMs (a write still running).
describe('StorelocClient waiting for a start, within its other limits', () => {
  test('a starting pause (Retry-After: 1) beyond maxWaitMs ends the request with the starting error', async () => {
    service.startingFor = Number.POSITIVE_INFINITY
    const told: unknown[] = []
    const api = new StorelocClient({
      baseUrl: service.url,
      apiKey: env().key,
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
        busy-- > 0
          ? new Response(running, { status: 409, headers: { 'retry-after': '0' } })
          : env().app.handle(request),
    }
    const api = new StorelocClient({ baseUrl: service.url, apiKey: env().key, inFlightWaitMs: 1500 })
    // The start's pause is 1 s, the 409's too: the start's counted toward inFlightWaitMs, the 409's would pass it.
    const made = await api.createLocation(storeBody({ external_id: 'S2' }) as any, { idempotencyKey: 'nightly-2' })
    expect(made.external_id).toBe('S2')
    expect(seen).toHaveLength(3)
    expect(count()).toBe(1)
  })
})
