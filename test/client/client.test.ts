// The typed client against the app in process: its calls, and its retries, which an
// Idempotency-Key makes safe (a lost answer is replayed, not written again).
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { StorelocClient, StorelocError } from '../../src/client'
import type { Geocoder } from '../../src/geocode/geocoder'
import { createApp } from '../../src/server/app'
import { makeEnv, storeBody, type TestEnv } from '../helpers'

let env: TestEnv
beforeEach(() => {
  env = makeEnv()
})
afterEach(() => env.close())

type Hook = (request: Request, send: () => Promise<Response>) => Promise<Response>

/** A client whose requests reach the app in process, each through `hook` (a network that fails as told). */
function client(hook: Hook = (_r, send) => send()) {
  const seen: Request[] = []
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(String(input), init as RequestInit)
    seen.push(request.clone() as Request)
    return hook(request, async () => env.app.handle(request))
  }) as typeof fetch
  return {
    api: new StorelocClient({ baseUrl: 'http://localhost/', apiKey: env.key, fetch: fetchFn, backoffMs: 1 }),
    seen,
  }
}

const count = () => env.store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM locations').get()!.n

describe('StorelocClient', () => {
  test('creates, finds by external id, updates, lists, bulk upserts and deletes', async () => {
    const { api } = client()
    const made = await api.createLocation(storeBody({ external_id: 'S1' }) as any)
    expect(made.external_id).toBe('S1')
    expect((await api.findByExternalId('S1'))?.id).toBe(made.id)
    expect(await api.findByExternalId('none')).toBeNull()
    expect((await api.updateLocation(made.id, { name: 'Renamed' })).name).toBe('Renamed')
    const report = await api.bulkUpsert({
      locations: [{ external_id: 'S1', name: 'Again' }, storeBody({ external_id: 'S2' })],
    })
    expect(report).toMatchObject({ created: 1, updated: 1 })
    const csv = await api.bulkUpsertCsv('external_id,name\nS2,Two\n', { dry_run: true })
    expect(csv).toMatchObject({ dry_run: true, updated: 1, unknown_columns: [] })
    const all = []
    for await (const l of api.allLocations()) all.push(l.external_id)
    expect(all).toEqual(['S1', 'S2'])
    expect(await api.deleteLocation(made.id)).toBe(`Location ${made.id} was deleted.`)
    expect(await api.customFields()).toEqual([])
    // The locator the key writes, named so a sync can say it before writing.
    expect(await api.locator()).toEqual({ id: env.locatorId, name: 'Test locator' })
    // A delete item, typed as the client sends it: S2 goes; once gone, it is absent, not an error.
    const deletes = { locations: [{ external_id: 'S2', delete: true as const }] }
    expect(await api.bulkUpsert(deletes)).toMatchObject({ deleted: 1, absent: 0 })
    expect(await api.bulkUpsert(deletes)).toMatchObject({ deleted: 0, absent: 1 })
  })

  test("a delete item's if_updated_at: deleted while it holds, a 412 precondition_failed once another write changed it", async () => {
    const { api, seen } = client()
    const [s1, s2] = [
      await api.createLocation(storeBody({ external_id: 'S1' }) as any),
      await api.createLocation(storeBody({ external_id: 'S2' }) as any),
    ]
    await Bun.sleep(3)
    await api.updateLocation(s2.id, { name: 'Edited' })
    const tries = seen.length
    const item = (l: typeof s1) => ({ id: l.id, delete: true as const, if_updated_at: l.updated_at })
    const refused = await api.bulkUpsert({ locations: [item(s1), item(s2)] }).catch((e) => e)
    expect(refused).toBeInstanceOf(StorelocError)
    expect(refused).toMatchObject({ status: 412, code: 'precondition_failed' })
    expect(Object.keys(refused.details)).toEqual(['locations[1].if_updated_at'])
    // Not tried again: the same request would be refused again; nothing was written.
    expect(seen).toHaveLength(tries + 1)
    expect(count()).toBe(2)
    expect(await api.bulkUpsert({ locations: [item(s1)] })).toMatchObject({ deleted: 1 })
  })

  test('an answer lost on the way back: the retry carries the same key and is replayed, not written twice', async () => {
    let lost = 0
    const { api, seen } = client(async (_request, send) => {
      const response = await send() // the server wrote it...
      if (lost++ === 0) throw new TypeError('socket hang up') // ...and the answer never arrived
      return response
    })
    const made = await api.createLocation(storeBody() as any)
    expect(count()).toBe(1)
    expect(seen).toHaveLength(2)
    expect(seen[0]!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/)
    expect(seen[1]!.headers.get('idempotency-key')).toBe(seen[0]!.headers.get('idempotency-key'))
    expect((await api.getLocation(made.id)).id).toBe(made.id)
  })

  test('503 with Retry-After is tried again; a 409 external id clash and a 422 are not', async () => {
    let busy = 1
    const { api, seen } = client(async (_r, send) =>
      busy-- > 0 ? new Response('{}', { status: 503, headers: { 'retry-after': '0' } }) : send(),
    )
    await api.createLocation(storeBody({ external_id: 'S1' }) as any)
    expect(seen).toHaveLength(2)
    const clash = await api.createLocation(storeBody({ external_id: 'S1' }) as any).catch((e) => e)
    expect(clash).toBeInstanceOf(StorelocError)
    expect(clash).toMatchObject({ status: 409, code: 'conflict' })
    expect(seen).toHaveLength(3)
    const invalid = await api.createLocation({ name: '', address: '' }).catch((e) => e)
    expect(invalid).toMatchObject({ status: 422, code: 'validation_error' })
    expect(invalid.details.name).toEqual(['The name field is required.'])
    expect(seen).toHaveLength(4)
  })

  test('429, 502 and 504 are tried again as 503 is; a 500 is not', async () => {
    for (const status of [429, 502, 504]) {
      let busy = 1
      const { api, seen } = client(async (_r, send) =>
        busy-- > 0 ? new Response('{}', { status, headers: { 'retry-after': '0' } }) : send(),
      )
      await api.listLocations()
      expect({ status, tries: seen.length }).toEqual({ status, tries: 2 })
    }
    const { api, seen } = client(async () => Response.json({ success: false, error: 'server_error' }, { status: 500 }))
    expect(await api.listLocations().catch((e) => e)).toMatchObject({ status: 500 })
    expect(seen).toHaveLength(1)
  })

  test('a Retry-After beyond maxWaitMs (a damaged database asks for 600 s) ends the request with its error at once', async () => {
    const damaged = JSON.stringify({
      success: false,
      error: 'database_damaged',
      message: 'The database file is damaged.',
    })
    const { api, seen } = client(async () => new Response(damaged, { status: 503, headers: { 'retry-after': '600' } }))
    const error = await api.listLocations().catch((e) => e)
    expect(error).toMatchObject({ status: 503, code: 'database_damaged', retryAfter: 600 })
    expect(seen).toHaveLength(1) // not tried again: that would wait 600 s first
  })

  test("an error carries the answer's Retry-After and X-Request-Id, typed, for the script's own handling", async () => {
    let requestId: string | null = null
    const { api } = client(async (_r, send) => {
      const response = await send()
      requestId = response.headers.get('x-request-id')
      return response
    })
    const invalid = await api.createLocation({ name: '', address: '' }).catch((e: StorelocError) => e)
    expect(requestId).toBeString()
    expect(invalid).toMatchObject({
      status: 422,
      code: 'validation_error',
      requestId: requestId!,
      retryAfter: undefined,
    })
    const busy = new StorelocClient({
      baseUrl: 'http://localhost',
      apiKey: env.key,
      fetch: (async () =>
        new Response('{"success":false,"error":"unavailable","message":"Busy."}', {
          status: 503,
          headers: { 'retry-after': '30', 'x-request-id': 'req-busy' },
        })) as unknown as typeof fetch,
      attempts: 1,
    })
    const refused = await busy.listLocations().then(
      () => null,
      (e: StorelocError) => e,
    )
    // Typed: a script reads the wait without a cast.
    const seconds: number | undefined = refused?.retryAfter
    expect(seconds).toBe(30)
    expect(refused).toMatchObject({ status: 503, code: 'unavailable', requestId: 'req-busy' })
  })

  test('Retry-After is read as delta-seconds or an HTTP date, sent twice too; anything else is undefined, not 0', async () => {
    const retryAfterOf = async (header: string) => {
      const api = new StorelocClient({
        baseUrl: 'http://localhost',
        apiKey: env.key,
        fetch: (async () =>
          new Response('{"success":false,"error":"unavailable","message":"Busy."}', {
            status: 503,
            headers: { 'retry-after': header },
          })) as unknown as typeof fetch,
        attempts: 1,
      })
      return ((await api.listLocations().catch((e) => e)) as StorelocError).retryAfter
    }
    expect(await retryAfterOf('120')).toBe(120)
    expect(await retryAfterOf('Wed, 21 Oct 2015 07:28:00 GMT')).toBe(0) // a date gone by: now
    const later = await retryAfterOf(new Date(Date.now() + 90_000).toUTCString())
    expect(later).toBeGreaterThan(0)
    expect(later).toBeLessThanOrEqual(90)
    expect(await retryAfterOf('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(0)
    expect(await retryAfterOf('Sun Nov  6 08:49:37 2094')).toBeGreaterThan(0)
    // Neither form: JavaScript's Date.parse reads "-5" and "+3" as years and "1.5" as a day.
    // Nor RFC 9110's grammar: a year with a day's name, a date with no zone. Names in any case are.
    expect(await retryAfterOf('sunday, 06-Nov-94 08:49:37 GMT')).toBe(0)
    expect(await retryAfterOf('SUN, 06 NOV 2094 08:49:37 GMT')).toBeGreaterThan(0)
    const loose = ['Sunday 2094', 'Sun, 06 Nov 2094 08:49:37']
    for (const garbage of ['-5', '+3', '1.5', 'soon', '12/31/2099', 'Sunday', ...loose])
      expect({ garbage, seconds: await retryAfterOf(garbage) }).toEqual({ garbage, seconds: undefined })
    // Sent twice, the service's and a proxy's copy, it comes joined; the longer wait is kept.
    expect(await retryAfterOf('30, 30')).toBe(30)
    expect(await retryAfterOf('5,30')).toBe(30)
    expect(await retryAfterOf('soon, 7')).toBe(7)
    const date = new Date(Date.now() + 90_000).toUTCString()
    expect(await retryAfterOf(`${date}, ${date}`)).toBeGreaterThan(0)
    expect(await retryAfterOf(`1, ${date}`)).toBeGreaterThan(1)
  })

  test('a Retry-After of 600 s sent twice ends the request at once, as one sent once does', async () => {
    const damaged = '{"success":false,"error":"database_damaged","message":"The database file is damaged."}'
    const headers = new Headers([
      ['retry-after', '600'],
      ['retry-after', '600'],
    ])
    const { api, seen } = client(async () => new Response(damaged, { status: 503, headers }))
    const error = await api.listLocations().catch((e) => e)
    expect(error).toMatchObject({ status: 503, code: 'database_damaged', retryAfter: 600 })
    expect(seen).toHaveLength(1)
  })

  test('a write still running whose Retry-After is beyond maxWaitMs ends the request with its 409 at once', async () => {
    // The first try's geocoding waits at a gate: its answer is lost, the write runs on in the app.
    let reached!: () => void
    const asked = new Promise<void>((resolve) => (reached = resolve))
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const geocoder: Geocoder = {
      name: 'table',
      geocode: async (address) => (reached(), await gate, env.geocoder.geocode(address)),
    }
    const app = createApp({
      store: env.store,
      geocoder,
      config: { maxBodyBytes: 262144, logRequests: false },
      log: () => {},
    })
    let first: Response | Promise<Response> | undefined
    const seen: Request[] = []
    const api = new StorelocClient({
      baseUrl: 'http://localhost',
      apiKey: env.key,
      backoffMs: 1,
      maxWaitMs: 500,
      fetch: (async (input: string | URL | Request, init?: RequestInit) => {
        const request = new Request(String(input), init)
        seen.push(request)
        if (seen.length === 1) {
          first = app.handle(request)
          await asked
          throw new TypeError('socket closed')
        }
        const response = await app.handle(request)
        // The first try ends now: a client that waited the answer's 1 s would be given its 201.
        release()
        return response
      }) as typeof fetch,
    })
    const body = storeBody({ coordinates: undefined, address: '1600 Pennsylvania Avenue NW, Washington, DC 20500' })
    const error = await api.createLocation(body as any, { idempotencyKey: 'nightly-5' }).catch((e) => e)
    expect(error).toBeInstanceOf(StorelocError)
    expect(error).toMatchObject({ status: 409, code: 'conflict', retryAfter: 1, idempotencyKey: 'nightly-5' })
    expect(seen).toHaveLength(2)
    expect((await first!).status).toBe(201)
    expect(count()).toBe(1)
  })

  test("the client's own backoff grows to maxWaitMs, not past it, for as many tries as attempts", async () => {
    // The waits the client asks for, each run at once: their lengths, not a clock, are compared.
    // A try's own timer (timeoutMs) is no wait between tries: it runs its length, unnoted.
    const asked: number[] = []
    const realTimeout = globalThis.setTimeout
    const timeoutMs = 20_000
    globalThis.setTimeout = ((fn: () => void, ms?: number) => {
      if (ms === timeoutMs) return realTimeout(fn, ms)
      asked.push(ms ?? 0)
      return realTimeout(fn, 0)
    }) as typeof setTimeout
    const tried = async (answer: () => Promise<Response>) => {
      asked.length = 0
      let tries = 0
      const api = new StorelocClient({
        baseUrl: 'http://localhost',
        apiKey: env.key,
        attempts: 8,
        backoffMs: 100,
        maxWaitMs: 1000,
        timeoutMs,
        fetch: (() => (tries++, answer())) as unknown as typeof fetch,
      })
      const error = await api.listLocations().catch((e) => e)
      return { code: error.code, tries, waits: [...asked] }
    }
    try {
      const capped = [100, 200, 400, 800, 1000, 1000, 1000]
      // No answer at all: doubled, it would wait 6.4 s before the last try.
      expect(
        await tried(async () => {
          throw new TypeError('connection refused')
        }),
      ).toEqual({ code: 'network_error', tries: 8, waits: capped })
      // A proxy's 502 with no Retry-After asks for no wait: its tries are not cut short at 1.6 s.
      expect(await tried(async () => new Response('{"error":"bad_gateway"}', { status: 502 }))).toEqual({
        code: 'bad_gateway',
        tries: 8,
        waits: capped,
      })
    } finally {
      globalThis.setTimeout = realTimeout
    }
  })

  test('every kind of retry and wait sends the write again with its one Idempotency-Key', async () => {
    const realTimeout = globalThis.setTimeout
    // Each wait runs at once: a start's is 1 s. A try's own timer (30 s) runs its length.
    globalThis.setTimeout = ((fn: () => void, ms?: number, ...args: unknown[]) =>
      realTimeout(fn, ms === 30_000 ? ms : 0, ...args)) as typeof setTimeout
    const cutBody = new ReadableStream({ start: (c) => c.error(new TypeError('socket closed')) })
    // No answer, a body cut off, a busy database, the write still running, a start: three tries of four.
    const answers: (() => Response)[] = [
      () => {
        throw new TypeError('connection refused')
      },
      () => new Response(cutBody, { status: 200 }),
      () => new Response('{"error":"unavailable"}', { status: 503, headers: { 'retry-after': '0' } }),
      () => new Response('{"error":"conflict"}', { status: 409, headers: { 'retry-after': '0' } }),
      () => new Response('{}', { status: 503, headers: { 'retry-after': '1', 'x-service-status': 'starting' } }),
    ]
    try {
      const { api, seen } = client(async (_r, send) => answers[seen.length - 1]?.() ?? send())
      const made = await api.createLocation(storeBody({ external_id: 'S1' }) as any)
      expect(made.external_id).toBe('S1')
      expect(seen).toHaveLength(answers.length + 1)
      const keys = seen.map((r) => r.headers.get('idempotency-key'))
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
      expect(keys).toEqual(Array(seen.length).fill(keys[0]))
      expect(count()).toBe(1)
    } finally {
      globalThis.setTimeout = realTimeout
    }
  })

  test('gives up after its attempts, with the last error', async () => {
    const { api, seen } = client(async () => {
      throw new TypeError('connection refused')
    })
    await expect(api.listLocations()).rejects.toThrow('connection refused')
    expect(seen).toHaveLength(4)
    // A write's error keeps its key: the write may have been made, and the key replays its answer.
    const lost = await api.createLocation(storeBody() as any, { idempotencyKey: 'nightly-3' }).catch((e) => e)
    expect(lost).toBeInstanceOf(StorelocError)
    expect(lost).toMatchObject({ status: 0, code: 'network_error', idempotencyKey: 'nightly-3' })
    expect(lost.message).toBe('POST /admin/v1/locations: connection refused')
    expect(lost.cause).toBeInstanceOf(TypeError)
  })

  test('an answer whose body is lost midway is a network error: tried again, a write replayed by its key', async () => {
    /** The answer's status and headers, then its body cut off, as a dropped connection leaves it. */
    const cut = (answer: Response) =>
      new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode('{"success":'))
            c.error(new TypeError('socket closed'))
          },
        }),
        { status: answer.status, headers: answer.headers },
      )
    // A 503 (tried again, its body not read), then a 201 (the write was made): each cut.
    const { api, seen } = client(async (_r, send) => {
      if (seen.length === 1) return cut(new Response(null, { status: 503 }))
      const answer = await send()
      return seen.length === 2 ? cut(answer) : answer
    })
    const made = await api.createLocation(storeBody({ external_id: 'S1' }) as any, { idempotencyKey: 'nightly-4' })
    expect(made.external_id).toBe('S1')
    expect(seen).toHaveLength(3)
    expect(count()).toBe(1)

    const { api: lost } = client(async (_r, send) => cut(await send()))
    const error = await lost.listLocations().catch((e) => e)
    expect(error).toBeInstanceOf(StorelocError)
    expect(error).toMatchObject({ status: 0, code: 'network_error', message: 'GET /admin/v1/locations: socket closed' })
  })
})
