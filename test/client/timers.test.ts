// A try's timeout against a real server on 127.0.0.1: each try's timer is cleared when the try
// ends (its answer read, a failure, the caller's abort), so a script making thousands of quick
// calls leaves no timer pending; one that runs times its try out, tried again as a network error.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { StorelocClient, StorelocError } from '../../src/client'
import { storeBody } from '../helpers'
import { useStartingService } from '../starting-service'

const { service, env } = useStartingService()
const seen = service.seen

/** Each try's timeout, ms: the timers of that length are the tries' own, held here, never run unasked. */
const timeoutMs = 4_321
const realTimeout = globalThis.setTimeout
const realClear = globalThis.clearTimeout
/** The tries' timers set and not yet cleared, each with what it runs. */
const pending = new Map<object, () => void>()
let made = 0

beforeEach(() => {
  pending.clear()
  made = 0
  globalThis.setTimeout = ((fn: () => void, ms?: number, ...args: unknown[]) => {
    if (ms !== timeoutMs) return realTimeout(fn, ms, ...args)
    const timer = {}
    pending.set(timer, fn)
    made++
    return timer
  }) as typeof setTimeout
  globalThis.clearTimeout = ((timer: Parameters<typeof clearTimeout>[0]) => {
    if (!pending.delete(timer as object)) realClear(timer)
  }) as typeof clearTimeout
})
afterEach(() => {
  globalThis.setTimeout = realTimeout
  globalThis.clearTimeout = realClear
})

/** Runs the one try timer pending, as its timeout would. */
function timeOut() {
  expect(pending.size).toBe(1)
  const [timer, fn] = [...pending][0]!
  pending.delete(timer)
  fn()
}

/** Resolves once the server has seen `n` requests in all. */
function asked(n: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (seen.length >= n ? resolve() : realTimeout(check, 5))
    check()
  })
}

describe("StorelocClient's try timeout", () => {
  test('each try has a timer of timeoutMs, cleared as the try ends, however the call ends', async () => {
    const api = new StorelocClient({ baseUrl: service.url, apiKey: env().key, timeoutMs, backoffMs: 1 })
    // Quick calls, answered: a script's sync loop.
    for (let i = 0; i < 300; i++) await api.listLocations({ limit: 1 })
    const location = await api.createLocation(storeBody() as any)
    expect({ made, pending: pending.size }).toEqual({ made: 301, pending: 0 })
    // An error answer, read.
    expect(await api.getLocation('loc_none').catch((e) => e)).toMatchObject({ status: 404 })
    // A 503, tried again after a backoff, then answered.
    let busy = true
    service.app = {
      handle: (request) =>
        busy ? ((busy = false), new Response('{"error":"unavailable"}', { status: 503 })) : env().app.handle(request),
    }
    expect((await api.getLocation(location.id)).id).toBe(location.id)
    expect({ made, pending: pending.size, asked: seen.length }).toEqual({ made: seen.length, pending: 0, asked: 304 })
    // The caller's abort mid-try: the server holds its answer.
    let held!: () => void
    const hold = new Promise<void>((resolve) => (held = resolve))
    service.app = { handle: () => hold.then(() => new Response('{}')) }
    const controller = new AbortController()
    const call = api.customFields({ signal: controller.signal }).catch((e) => e)
    await asked(305)
    expect(pending.size).toBe(1)
    controller.abort()
    expect(await call).toBe(controller.signal.reason)
    expect(pending.size).toBe(0)
    held()
    // No server at all: each try fails at once.
    const refused = new StorelocClient({
      baseUrl: 'http://127.0.0.1:46899',
      apiKey: env().key,
      timeoutMs,
      backoffMs: 1,
    })
    made = 0
    expect(await refused.customFields().catch((e) => e)).toMatchObject({ status: 0, code: 'network_error' })
    expect({ made, pending: pending.size }).toEqual({ made: 4, pending: 0 })
  })

  test("a try's timer that runs times it out: tried again, then a network_error, none left", async () => {
    let held!: () => void
    const hold = new Promise<void>((resolve) => (held = resolve))
    service.app = { handle: () => hold.then(() => new Response('{}')) }
    const api = new StorelocClient({ baseUrl: service.url, apiKey: env().key, timeoutMs, attempts: 2, backoffMs: 1 })
    try {
      const call = api.createLocation(storeBody() as any, { idempotencyKey: 'nightly-9' }).catch((e) => e)
      await asked(1)
      timeOut()
      await asked(2)
      timeOut()
      const error = await call
      expect(error).toBeInstanceOf(StorelocError)
      expect(error).toMatchObject({ status: 0, code: 'network_error', idempotencyKey: 'nightly-9' })
      expect(error.cause).toMatchObject({ name: 'TimeoutError' })
      expect({ made, pending: pending.size }).toEqual({ made: 2, pending: 0 })
    } finally {
      held()
    }
  })
})
