// A script's options as it may get them wrong (an environment variable unset, Number() of one):
// the client refuses them when it is made, naming the option, not on a call (a TypeError from
// reading baseUrl, a 401 for "Bearer undefined", retries without end for attempts NaN). And a
// limit of Infinity, a script's "no limit", is none, not setTimeout's 1 ms.
import { afterAll, describe, expect, test } from 'bun:test'
import { type ClientOptions, StorelocClient, StorelocError } from '../../src/client'

/**
 * Each path's answer: `key` the Authorization header it got, `path` the path it got, `slow` after
 * 200 ms, `later` a 503 asking to be asked again in 34 days.
 */
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    tries++
    if (new URL(request.url).pathname.startsWith('/later/'))
      return new Response('{"error":"unavailable","message":"Busy."}', {
        status: 503,
        headers: { 'retry-after': '3000000' },
      })
    if (new URL(request.url).pathname.startsWith('/key/'))
      return Response.json({ custom_fields: [request.headers.get('authorization')] })
    if (new URL(request.url).pathname.startsWith('/path/'))
      return Response.json({ custom_fields: [new URL(request.url).pathname] })
    await Bun.sleep(200)
    return Response.json({ custom_fields: [] })
  },
})
let tries = 0
afterAll(() => server.stop(true))

/** What making a client with `options` (on a good baseUrl and apiKey) throws: its kind and message. */
function refusal(options: Record<string, unknown>): string {
  try {
    new StorelocClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'sk_test', ...options } as ClientOptions)
    return 'made'
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`
  }
}

describe('StorelocClient options', () => {
  test('a baseUrl or apiKey that no call could use is refused when the client is made, named', () => {
    expect(refusal({ baseUrl: undefined })).toBe(
      'TypeError: StorelocClient: baseUrl must be the service\'s address, such as "http://127.0.0.1:3000"; got undefined (not set).',
    )
    expect(refusal({ baseUrl: '127.0.0.1:3000' })).toBe(
      'TypeError: StorelocClient: baseUrl must be the service\'s address, such as "http://127.0.0.1:3000"; got "127.0.0.1:3000".',
    )
    expect(refusal({ baseUrl: 'localhost:3000' })).toStartWith('TypeError: StorelocClient: baseUrl must be')
    expect(refusal({ apiKey: undefined })).toBe(
      'TypeError: StorelocClient: apiKey must be the locator\'s secret key, "sk_..."; got undefined (not set).',
    )
    expect(refusal({ apiKey: ' ' })).toBe(
      'TypeError: StorelocClient: apiKey must be the locator\'s secret key, "sk_..."; got an empty string.',
    )
    expect(refusal({ baseUrl: 'https://locator.example/storeloc/' })).toBe('made')
  })

  test("a key or an address given as no string (a file's bytes, a URL, a function) is named by its kind, a key never shown", () => {
    // readFileSync without an encoding gives the key file's bytes, which String() would show.
    expect(refusal({ apiKey: Buffer.from('sk_secret') })).toBe(
      'TypeError: StorelocClient: apiKey must be the locator\'s secret key, "sk_..."; got a Buffer, not a string.',
    )
    expect(refusal({ baseUrl: new URL('http://127.0.0.1:3000') })).toBe(
      'TypeError: StorelocClient: baseUrl must be the service\'s address, such as "http://127.0.0.1:3000"; got a URL, not a string.',
    )
    // A function's text is its source, which may hold the key itself.
    expect(refusal({ apiKey: () => 'sk_live_secret' })).toBe(
      'TypeError: StorelocClient: apiKey must be the locator\'s secret key, "sk_..."; got a function, not a string.',
    )
    expect(refusal({ apiKey: 1234 })).toBe(
      'TypeError: StorelocClient: apiKey must be the locator\'s secret key, "sk_..."; got a number, not a string.',
    )
    expect(refusal({ baseUrl: true })).toBe(
      'TypeError: StorelocClient: baseUrl must be the service\'s address, such as "http://127.0.0.1:3000"; got a boolean, not a string.',
    )
    expect(refusal({ apiKey: null })).toBe(
      'TypeError: StorelocClient: apiKey must be the locator\'s secret key, "sk_..."; got null.',
    )
  })

  test('an environment variable not set is taken by the type and refused when the client is made', () => {
    const made = () => new StorelocClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: process.env.STORELOC_NOT_SET })
    expect(made).toThrow('StorelocClient: apiKey must be the locator\'s secret key, "sk_..."; got undefined (not set).')
  })

  test('a baseUrl no path can follow, or with a password, is refused, the password not shown', () => {
    expect(refusal({ baseUrl: 'http://127.0.0.1:3000/?locator=1' })).toBe(
      'TypeError: StorelocClient: baseUrl must be the service\'s address, such as "http://127.0.0.1:3000", without a query or a fragment; got "http://127.0.0.1:3000/?locator=1".',
    )
    expect(refusal({ baseUrl: 'https://locator.example/storeloc#admin' })).toEndWith(
      'without a query or a fragment; got "https://locator.example/storeloc#admin".',
    )
    expect(refusal({ baseUrl: 'https://sync:hunter2@locator.example' })).toEndWith(
      'without a user and password; got one with a user and password.',
    )
    // The Query API's address is refused first: its message does not show them either.
    const publicOne = refusal({ baseUrl: 'https://sync:hunter2@locator.example/public/v1/pk_abc' })
    expect(publicOne).toContain(
      'not the public Query API\'s; got one with a user and password: give "https://locator.example".',
    )
    expect(publicOne).not.toContain('hunter2')
    expect(refusal({ baseUrl: 'http://localhost:3000' })).toBe('made')
  })

  test("the Management API's address is taken for the service's; a route's is refused, saying what to leave out", async () => {
    // A proxy's prefix (/path) stays; the route follows /admin/v1 once.
    for (const api of ['/path/admin/v1', '/path/admin/v1/', '/path/admin/v1//', '/path/x/../admin/v1']) {
      const client = new StorelocClient({ baseUrl: `${server.url.origin}${api}`, apiKey: 'sk_test' })
      expect(await client.customFields()).toEqual(['/path/admin/v1/custom_fields'] as never)
    }
    expect(refusal({ baseUrl: 'http://127.0.0.1:3000/admin/v1/locations/bulk' })).toBe(
      'TypeError: StorelocClient: baseUrl must be the service\'s address, such as "http://127.0.0.1:3000", not one of its routes; got "http://127.0.0.1:3000/admin/v1/locations/bulk": leave out /admin/v1/locations/bulk.',
    )
    // Another prefix, or another case, is a proxy's path, kept as given.
    expect(refusal({ baseUrl: 'http://127.0.0.1:3000/admin/v10' })).toBe('made')
  })

  test("the Query API's address is refused before a call, which would send the secret key to it", () => {
    const said = (got: string, give: string) =>
      `TypeError: StorelocClient: baseUrl must be the service's address, such as "http://127.0.0.1:3000", not the public Query API's; got "${got}": give "${give}". The secret key goes to the Management API alone: sent under /public/v1, it is marked exposed.`
    expect(refusal({ baseUrl: 'http://127.0.0.1:3000/public/v1' })).toBe(
      said('http://127.0.0.1:3000/public/v1', 'http://127.0.0.1:3000'),
    )
    // A finder's request copied whole, behind a proxy's prefix.
    const copied = 'https://locator.example/storeloc/public/v1/pk_abc/locations?lat=51.5&lng=-0.1'
    expect(refusal({ baseUrl: copied })).toBe(said(copied, 'https://locator.example/storeloc'))
    expect(refusal({ baseUrl: 'https://locator.example/public/v10' })).toBe('made')
  })

  test('an apiKey no header carries is refused, the key not shown; one read with its line break is used', async () => {
    // Each try would fail in fetch, retried as a network_error whose message on Node shows the key.
    expect(refusal({ apiKey: 'sk_secret\nsk_other' })).toBe(
      'TypeError: StorelocClient: apiKey must be the locator\'s secret key, "sk_..."; got one with a line break at character 10.',
    )
    expect(refusal({ apiKey: 'sk_secret\u2026' })).toEndWith(
      'got one with a character that is not ASCII at character 10.',
    )
    expect(refusal({ apiKey: 'sk_se cret' })).toEndWith('got one with a space at character 6.')
    expect(refusal({ apiKey: 'sk_\tsecret' })).toEndWith('got one with a control character at character 4.')
    tries = 0
    const api = new StorelocClient({ baseUrl: `${server.url.origin}/key`, apiKey: '  sk_test\r\n' })
    expect(await api.customFields()).toEqual(['Bearer sk_test'] as never)
    expect(tries).toBe(1)
  })

  test('an idempotencyKey no header carries rejects the write at once, none sent', async () => {
    tries = 0
    const api = new StorelocClient({ baseUrl: `${server.url.origin}/slow`, apiKey: 'sk_test' })
    const error = await api.deleteLocation('loc_1', { idempotencyKey: 'nightly\n5' }).catch((e) => e)
    expect(`${error.name}: ${error.message}`).toBe(
      'TypeError: POST /admin/v1/locations/loc_1/delete: idempotencyKey must be printable ASCII (a new UUID for each write is usual); got one with a line break at character 8.',
    )
    const accented = await api.deleteLocation('loc_1', { idempotencyKey: 'nuit-\u2013-5' }).catch((e) => e)
    expect(accented.message).toEndWith('got one with a character that is not ASCII at character 6.')
    expect(tries).toBe(0)
  })

  test('attempts and the ms options must be numbers a call can run with', () => {
    expect(refusal({ attempts: Number(undefined) })).toBe(
      'RangeError: StorelocClient: attempts must be a whole number of tries, 1 or more; got NaN.',
    )
    expect(refusal({ attempts: 0 })).toEndWith('got 0.')
    expect(refusal({ attempts: 2.5 })).toEndWith('got 2.5.')
    expect(refusal({ timeoutMs: 0 })).toBe('RangeError: StorelocClient: timeoutMs must be ms, above 0; got 0.')
    expect(refusal({ backoffMs: '250' })).toBe(
      'RangeError: StorelocClient: backoffMs must be ms, 0 or more; got "250".',
    )
    expect(refusal({ maxWaitMs: Number.NaN })).toBe(
      'RangeError: StorelocClient: maxWaitMs must be ms, 0 or more; got NaN.',
    )
    expect(refusal({ inFlightWaitMs: -1 })).toEndWith('got -1.')
    expect(refusal({ startupWaitMs: null })).toEndWith('got null.')
    // 0 turns a wait off; Infinity is no limit.
    const open = { attempts: Infinity, timeoutMs: Infinity, maxWaitMs: 0, startupWaitMs: 0, inFlightWaitMs: Infinity }
    expect(refusal(open)).toBe('made')
  })

  test('timeoutMs Infinity is no timeout: a try answered in 200 ms is not timed out at once', async () => {
    tries = 0
    const api = new StorelocClient({ baseUrl: `${server.url.origin}/slow`, apiKey: 'sk_test', timeoutMs: Infinity })
    expect(await api.customFields()).toEqual([])
    expect(tries).toBe(1)
  })

  test('a Retry-After of 34 days, within maxWaitMs Infinity, is waited for, not asked again at once', async () => {
    tries = 0
    const stop = new AbortController()
    const api = new StorelocClient({ baseUrl: `${server.url.origin}/later`, apiKey: 'sk_test', maxWaitMs: Infinity })
    const call = api.customFields({ signal: stop.signal }).catch((e) => e)
    // Asked once, however late a loaded machine sends it (the test's timeout ends a hang)...
    while (tries === 0) await Bun.sleep(5)
    // ...then ended by the script while it waits: an ask again at once would come in this time.
    await Bun.sleep(300)
    stop.abort()
    const error = await call
    expect(error).not.toBeInstanceOf(StorelocError)
    expect({ error, tries }).toEqual({ error: stop.signal.reason, tries: 1 })
  })
})
