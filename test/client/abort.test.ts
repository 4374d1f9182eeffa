// A call's AbortSignal against a real server on 127.0.0.1: an abort ends the call at once, in a
// try or in any wait between tries, rejecting with the signal's reason as fetch does, and sends
// nothing more. A write aborted mid-try may have been made: its key sent again tells.
import { describe, expect, test } from 'bun:test'
import { StorelocClient } from '../../src/client'
import type { Geocoder } from '../../src/geocode/geocoder'
import { createApp } from '../../src/server/app'
import { storeBody } from '../helpers'
import { useStartingService } from '../starting-service'

const { service, env } = useStartingService()
const seen = service.seen

const count = () => env().store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM locations').get()!.n

/** The reason a test aborts with: the call must reject with this very object. */
class Stopped extends Error {}

describe("StorelocClient's signal", () => {
  test('a signal aborted before the call sends nothing and rejects with its reason', async () => {
    const api = new StorelocClient({ baseUrl: service.url, apiKey: env().key })
    const reason = new Stopped('Ctrl-C')
    const error = await api.createLocation(storeBody() as any, { signal: AbortSignal.abort(reason) }).catch((e) => e)
    expect(error).toBe(reason)
    // Without a reason of its own, the signal's is fetch's AbortError.
    const plain = new AbortController()
    plain.abort()
    const read = await api.listLocations({}, { signal: plain.signal }).catch((e) => e)
    expect(read).toBe(plain.signal.reason)
    expect(read).toMatchObject({ name: 'AbortError' })
    expect(seen).toHaveLength(0)
  })

  test("an abort in a start's wait, a running write's wait or a backoff ends the call there, its timer cleared", async () => {
    const running = JSON.stringify({ success: false, error: 'conflict', message: 'Still being processed.' })
    const answers: Record<string, (request: Request) => Response | Promise<Response>> = {
      // A service still starting: its answers are src/server/starting-answers.ts's.
      start: (request) => env().app.handle(request),
      inFlight: () => new Response(running, { status: 409, headers: { 'retry-after': '1' } }),
      backoff: () => new Response('{"error":"unavailable"}', { status: 503 }),
    }
    // Each pause's timer is noted and the call aborted right after it is set; a timer not cleared
    // runs at once, and the call would ask again. A try's own timer (timeoutMs) is noted too, and
    // runs its length.
    const realTimeout = globalThis.setTimeout
    const realClear = globalThis.clearTimeout
    const timeoutMs = 20_000
    let controller = new AbortController()
    const set: unknown[] = []
    const cleared: unknown[] = []
    globalThis.setTimeout = ((fn: () => void, ms?: number) => {
      if (ms === timeoutMs) {
        const timer = realTimeout(fn, ms)
        set.push(timer)
        return timer
      }
      const timer = realTimeout(fn, 0)
      set.push(timer)
      queueMicrotask(() => controller.abort(new Stopped('Ctrl-C')))
      return timer
    }) as typeof setTimeout
    globalThis.clearTimeout = ((timer: Parameters<typeof clearTimeout>[0]) => {
      cleared.push(timer)
      realClear(timer)
    }) as typeof clearTimeout
    try {
      for (const [kind, answer] of Object.entries(answers)) {
        seen.length = 0
        set.length = 0
        cleared.length = 0
        controller = new AbortController()
        service.startingFor = kind === 'start' ? Number.POSITIVE_INFINITY : 0
        service.app = { handle: answer }
        const api = new StorelocClient({ baseUrl: service.url, apiKey: env().key, timeoutMs })
        const error = await api.createLocation(storeBody() as any, { signal: controller.signal }).catch((e) => e)
        expect({ kind, error, asked: seen.length }).toEqual({ kind, error: controller.signal.reason, asked: 1 })
        expect({ kind, cleared }).toEqual({ kind, cleared: set })
      }
    } finally {
      globalThis.setTimeout = realTimeout
      globalThis.clearTimeout = realClear
    }
    expect(count()).toBe(0)
  })

  test('an abort mid-try ends the call and its connection; the same key sent again learns if it was written', async () => {
    // The try's geocoding waits at a gate: the server holds its answer.
    let reached!: () => void
    const asked = new Promise<void>((resolve) => (reached = resolve))
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const geocoder: Geocoder = {
      name: 'table',
      geocode: async (address) => (reached(), await gate, env().geocoder.geocode(address)),
    }
    const config = { maxBodyBytes: 262144, logRequests: false }
    const app = createApp({ store: env().store, geocoder, config, log: () => {} })
    let ended!: Promise<void>
    let first!: Promise<Response>
    service.app = {
      handle: (request) => {
        ended = new Promise((resolve) => request.signal.addEventListener('abort', () => resolve()))
        first = Promise.resolve(app.handle(request))
        return first
      },
    }
    const controller = new AbortController()
    const api = new StorelocClient({ baseUrl: service.url, apiKey: env().key })
    const body = storeBody({ coordinates: undefined, address: '1600 Pennsylvania Avenue NW, Washington, DC 20500' })
    const call = api.createLocation(body as any, { idempotencyKey: 'nightly-7', signal: controller.signal })
    await asked
    const reason = new Stopped('Ctrl-C')
    controller.abort(reason)
    expect(await call.catch((e) => e)).toBe(reason)
    expect(seen).toHaveLength(1)
    // The client dropped the connection: the server sees the request end.
    await ended
    // The write goes on on the server; sent again with its key, its answer is replayed, not made twice.
    release()
    expect((await first).status).toBe(201)
    const again = await api.createLocation(body as any, { idempotencyKey: 'nightly-7' })
    expect(again.name).toBe(body.name)
    expect(seen).toHaveLength(2)
    expect(count()).toBe(1)
  })

  test('a try timed out under a signal is tried again, as without one; an abort in the next ends the call', async () => {
    let held!: () => void
    const hold = new Promise<void>((resolve) => (held = resolve))
    let second!: () => void
    const secondAsked = new Promise<void>((resolve) => (second = resolve))
    // No request is answered before the test ends.
    service.app = {
      handle: () => {
        if (seen.length === 2) second()
        return hold.then(() => new Response('{}'))
      },
    }
    const controller = new AbortController()
    const api = new StorelocClient({ baseUrl: service.url, apiKey: env().key, timeoutMs: 300, backoffMs: 1 })
    try {
      const call = api.listLocations({}, { signal: controller.signal })
      await secondAsked
      controller.abort()
      expect(await call.catch((e) => e)).toBe(controller.signal.reason)
      expect(seen).toHaveLength(2)
    } finally {
      held()
    }
  })
  test('an abort as the answer comes in rejects with its reason, leaving no rejection unhandled', async () => {
    // The body's first bytes come with the headers, the rest never: reading it waits on the try.
    let held!: () => void
    const hold = new Promise<void>((resolve) => (held = resolve))
    service.app = {
      handle: () =>
        new Response(
          new ReadableStream({
            async start(body) {
              body.enqueue(new TextEncoder().encode('{"custom_fields":'))
              await hold
              body.close()
            },
          }),
        ),
    }
    const unhandled: unknown[] = []
    const note = (e: unknown) => unhandled.push(e)
    process.on('unhandledRejection', note)
    try {
      // The abort lands `depth` microtasks after the answer's headers: at each step between the
      // fetch's end and the body's read.
      for (let depth = 0; depth < 12; depth++) {
        const controller = new AbortController()
        const reason = new Stopped(`Ctrl-C ${depth}`)
        const later = async (input: string | URL | Request, init?: RequestInit) => {
          const response = await fetch(input, init)
          let step = Promise.resolve()
          for (let i = 0; i < depth; i++) step = step.then(() => {})
          step.then(() => controller.abort(reason))
          return response
        }
        const api = new StorelocClient({ baseUrl: service.url, apiKey: env().key, fetch: later as typeof fetch })
        expect({ depth, error: await api.customFields({ signal: controller.signal }).catch((e) => e) }).toEqual({
          depth,
          error: reason,
        })
      }
      // A rejection left unhandled shows a turn of the event loop later.
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', note)
      held()
    }
  })
})
