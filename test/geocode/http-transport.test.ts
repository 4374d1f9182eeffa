// The HTTP adapters' transport: Retry-After on a 429 or 503, stalled and oversized bodies, the
// timeout, nothing listening, and Nominatim's one request per second (on a virtual clock).
import { describe, expect, setSystemTime, test } from 'bun:test'
import { createHttpGeocoder } from '../../src/geocode/http'
import { retryAfterMs } from '../../src/geocode/http/request'
import { config, expectUnavailable, fixture, never, reply, settlesBefore, standIn, withStandIns } from './http-fixture'

withStandIns()

// ---- transport ---------------------------------------------------------------------------------

describe('Retry-After on a 429 or 503', () => {
  test('calls within the wait fail at once, sending nothing, with one reason for the whole wait; after it, requests go out again', async () => {
    let status = 429
    const server = standIn(() =>
      status === 200
        ? reply(fixture('google-zero-results'))
        : new Response('slow down', { status, headers: { 'retry-after': '30' } }),
    )
    let clock = 1_000_000
    const geocoder = createHttpGeocoder(config('google', { url: server.url }), { now: () => clock })
    await expectUnavailable(geocoder.geocode('a'), 'google', /rate limiting us \(HTTP 429/)
    expect(server.hits).toHaveLength(1)
    clock += 29_000
    const first = await expectUnavailable(
      geocoder.geocode('b'),
      'google',
      /asked us to wait \(Retry-After\) until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    )
    const second = await expectUnavailable(geocoder.geocode('c'), 'google', /asked us to wait/)
    expect(second.reason).toBe(first.reason) // one reason: the fallback warns about it once
    expect(server.hits).toHaveLength(1)
    clock += 1_000
    status = 200
    expect(await geocoder.geocode('d')).toBeNull() // the provider asked again: its answer (zero results)
    expect(server.hits).toHaveLength(2)
  })

  test('a 503 asks the same; another status, or a Retry-After that is neither seconds nor an HTTP date, pauses nothing', async () => {
    let answer = () => new Response('down', { status: 503, headers: { 'retry-after': '5' } })
    const server = standIn(() => answer())
    let clock = 0
    const geocoder = createHttpGeocoder(config('google', { url: server.url }), { now: () => clock })
    await expectUnavailable(geocoder.geocode('a'), 'google', /failed \(HTTP 503/)
    await expectUnavailable(geocoder.geocode('a'), 'google', /asked us to wait/)
    expect(server.hits).toHaveLength(1)
    clock += 5_000
    for (const [status, value] of [
      [500, '60'],
      [429, 'soon'],
      [503, '-1'],
      [429, '1.5'],
    ] as const) {
      answer = () => new Response('no', { status, headers: { 'retry-after': value } })
      await expectUnavailable(geocoder.geocode('a'), 'google', new RegExp(`HTTP ${status}`))
    }
    expect(server.hits).toHaveLength(5) // each of those went out
  })

  test('a provider\'s Retry-After sent twice ("5, 5"), or as an HTTP date, is obeyed as one sent once', async () => {
    let answer = () =>
      new Response('down', {
        status: 503,
        headers: [
          ['retry-after', '5'],
          ['retry-after', '5'],
        ],
      })
    const server = standIn(() => answer())
    let clock = 0
    const geocoder = createHttpGeocoder(config('google', { url: server.url }), { now: () => clock })
    await expectUnavailable(geocoder.geocode('a'), 'google', /failed \(HTTP 503/)
    await expectUnavailable(geocoder.geocode('a'), 'google', /asked us to wait/)
    expect(server.hits).toHaveLength(1)
    clock += 5_000
    const date = new Date(Date.now() + 60_000).toUTCString()
    answer = () => new Response('slow down', { status: 429, headers: { 'retry-after': date } })
    await expectUnavailable(geocoder.geocode('a'), 'google', /HTTP 429/)
    await expectUnavailable(geocoder.geocode('a'), 'google', /asked us to wait/)
    expect(server.hits).toHaveLength(2)
  })

  test('a later, shorter wait does not cut a longer one short', async () => {
    // b's answer is held until a's has been read: answered last, however the machine schedules them.
    let aRead = () => {}
    const aSettled = new Promise<void>((resolve) => (aRead = resolve))
    const server = standIn(async (url) => {
      if (url.searchParams.get('address') === 'a')
        return new Response('slow down', { status: 429, headers: { 'retry-after': '3600' } })
      await aSettled
      return new Response('down', { status: 503, headers: { 'retry-after': '1' } })
    })
    let clock = 0
    const geocoder = createHttpGeocoder(config('google', { url: server.url }), { now: () => clock })
    await Promise.all([
      expectUnavailable(geocoder.geocode('a'), 'google', /HTTP 429/).finally(aRead),
      expectUnavailable(geocoder.geocode('b'), 'google', /HTTP 503/),
    ])
    clock += 2_000
    await expectUnavailable(geocoder.geocode('c'), 'google', /asked us to wait/)
    expect(server.hits).toHaveLength(2)
  })

  test('Nominatim: calls waiting for their request slot when the wait was asked send nothing either', async () => {
    const server = standIn(() => new Response('slow down', { status: 429, headers: { 'retry-after': '3600' } }))
    // Nominatim's one request a second, on the real clock: the second call waits ~1 s for its slot.
    const geocoder = createHttpGeocoder(config('nominatim', { url: server.url, timeoutMs: 1_500 }))
    const calls = [geocoder.geocode('a'), geocoder.geocode('b')]
    await expectUnavailable(calls[0]!, 'nominatim', /HTTP 429/)
    await expectUnavailable(calls[1]!, 'nominatim', /asked us to wait/)
    expect(server.hits).toHaveLength(1)
  })

  test("the wall clock set back an hour (NTP, a VM resumed) stretches neither a wait nor Nominatim's request spacing: both run on a monotonic clock", async () => {
    let status = 429
    const server = standIn(() =>
      status === 200 ? reply([]) : new Response('slow down', { status, headers: { 'retry-after': '1' } }),
    )
    const geocoder = createHttpGeocoder(config('nominatim', { url: server.url, timeoutMs: 2_500 }))
    try {
      await expectUnavailable(geocoder.geocode('a'), 'nominatim', /HTTP 429/)
      setSystemTime(new Date(Date.now() - 3_600_000))
      await Bun.sleep(1_100) // the second asked for, and Nominatim's one request a second
      status = 200
      expect(await geocoder.geocode('b')).toBeNull() // asked, and answered: not held for an hour more
      expect(await geocoder.geocode('c')).toBeNull() // its slot a second later, not an hour
      expect(server.hits).toHaveLength(3)
    } finally {
      setSystemTime()
    }
  })

  test('retryAfterMs: seconds or an HTTP date, never less than 0 nor more than an hour', () => {
    const now = Date.parse('2026-11-24T12:00:00Z')
    expect(retryAfterMs('120', now)).toBe(120_000)
    expect(retryAfterMs(' 0 ', now)).toBe(0)
    expect(retryAfterMs('Tue, 24 Nov 2026 12:01:30 GMT', now)).toBe(90_000)
    expect(retryAfterMs('Tuesday, 24-Nov-26 12:01:30 GMT', now)).toBe(90_000) // RFC 850, obsolete
    expect(retryAfterMs('Tue Nov 24 12:01:30 2026', now)).toBe(90_000) // asctime, obsolete: in GMT
    expect(retryAfterMs('Tue Nov  3 12:00:00 2026', Date.parse('2026-11-03T11:59:00Z'))).toBe(60_000)
    expect(retryAfterMs('Tue, 24 Nov 2026 11:00:00 GMT', now)).toBe(0) // past
    expect(retryAfterMs('86400', now)).toBe(3_600_000)
    expect(retryAfterMs('Fri, 24 Nov 2034 12:00:00 GMT', now)).toBe(3_600_000)
    for (const bad of [null, '', 'soon', '-5', '1.5', '2026-11-24T12:01:30Z']) expect(retryAfterMs(bad, now)).toBeNull()
  })
})

describe('transport', () => {
  test('a body that stalls after the headers: fails at the timeout', async () => {
    const server = standIn(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('[{"lat": "51.5')) // and never the rest
            },
          }),
          { headers: { 'content-type': 'application/json' } },
        ),
    )
    const call = createHttpGeocoder(config('nominatim', { url: server.url, timeoutMs: 200 })).geocode('x')
    expect(await settlesBefore(call, 2000)).toBe(true) // its 200 ms deadline fires first, however late
    await expectUnavailable(call, 'nominatim', /timed out after 200 ms/)
  })

  test('a fetch that ignores the abort signal still cannot hold the call past the timeout', async () => {
    const deaf = Object.assign(
      async () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"results": ['))
            },
          }),
        ),
      { preconnect: fetch.preconnect },
    )
    const call = createHttpGeocoder(config('opencage', { timeoutMs: 200 }), { fetch: deaf }).geocode('x')
    expect(await settlesBefore(call, 2000)).toBe(true) // its 200 ms deadline fires first, however late
    await expectUnavailable(call, 'opencage', /timed out after 200 ms/)
  })

  test('a body over 1 MiB (declared, or streamed without a length) is no answer: GeocoderUnavailableError', async () => {
    const big = JSON.stringify([{ ...(fixture('nominatim-found') as any[])[0], pad: 'x'.repeat(2 * 1024 * 1024) }])
    const declared = standIn(() => new Response(big, { headers: { 'content-type': 'application/json' } }))
    await expectUnavailable(
      createHttpGeocoder(config('nominatim', { url: declared.url })).geocode('x'),
      'nominatim',
      /over 1 MiB/,
    )
    const streamed = standIn(
      () =>
        new Response(
          new ReadableStream({
            start(c) {
              for (let i = 0; i < big.length; i += 64 * 1024)
                c.enqueue(new TextEncoder().encode(big.slice(i, i + 64 * 1024)))
              c.close()
            },
          }),
          { headers: { 'content-type': 'application/json' } },
        ),
    )
    await expectUnavailable(
      createHttpGeocoder(config('nominatim', { url: streamed.url })).geocode('x'),
      'nominatim',
      /over 1 MiB/,
    )
  })

  test('nothing listening: GeocoderUnavailableError, no URL in the message', async () => {
    const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
    const url = `http://127.0.0.1:${server.port}`
    await server.stop(true)
    await expectUnavailable(
      createHttpGeocoder(config('google', { url })).geocode('x'),
      'google',
      /could not be reached/,
    )
  })
})

// ---- Nominatim's one request per second ----------------------------------------------------------

/**
 * A virtual clock for the request gate: `sleep` registers a timer instead of waiting, and `run`
 * drives a piece of work to its end, firing the timers in time order whenever nothing else is due.
 */
function fakeClock() {
  const clock = { t: 0, sleeps: [] as number[] }
  const timers: { at: number; wake: () => void }[] = []
  const options = {
    now: () => clock.t,
    sleep: (ms: number) => {
      clock.sleeps.push(ms)
      return new Promise<void>((wake) => timers.push({ at: clock.t + ms, wake }))
    },
  }
  async function run<T>(work: Promise<T>): Promise<T> {
    let settled = false
    work.then(
      () => (settled = true),
      () => (settled = true),
    )
    while (!settled) {
      await Bun.sleep(1)
      if (settled || timers.length === 0) continue
      timers.sort((a, b) => a.at - b.at)
      const next = timers.shift()!
      clock.t = Math.max(clock.t, next.at)
      next.wake()
    }
    return work
  }
  return { clock, options, run }
}

/** The real fetch, noting the injected clock at each request start. */
function recordingFetch(starts: number[], now: () => number): typeof fetch {
  return Object.assign(
    (...args: Parameters<typeof fetch>) => {
      starts.push(now())
      return fetch(...args)
    },
    { preconnect: fetch.preconnect },
  )
}

describe('nominatim request gate', () => {
  function gated(timeoutMs: number, respond: (url: URL, n: number) => Response | Promise<Response> = () => reply([])) {
    const server = standIn(respond)
    const { clock, options, run } = fakeClock()
    const starts: number[] = []
    const geocoder = createHttpGeocoder(config('nominatim', { url: server.url, timeoutMs }), {
      ...options,
      fetch: recordingFetch(starts, options.now),
    })
    return { server, clock, run, starts, geocoder }
  }

  test('back-to-back requests start 1000 ms apart', async () => {
    const { clock, run, starts, geocoder } = gated(5000)
    for (let i = 0; i < 3; i++) await run(geocoder.geocode(`address ${i}`))
    expect(starts).toEqual([0, 1000, 2000])
    expect(clock.sleeps).toEqual([1000, 1000])
  })

  test('only the remainder of the second is waited; nothing after a quiet spell', async () => {
    const { clock, run, starts, geocoder } = gated(5000)
    await run(geocoder.geocode('a'))
    clock.t = 400
    await run(geocoder.geocode('b'))
    clock.t = 2500
    await run(geocoder.geocode('c'))
    expect(starts).toEqual([0, 1000, 2500])
    expect(clock.sleeps).toEqual([600])
  })

  test('concurrent requests queue one second apart', async () => {
    const { server, clock, run, starts, geocoder } = gated(5000)
    await run(Promise.all([geocoder.geocode('a'), geocoder.geocode('b'), geocoder.geocode('c')]))
    expect(starts).toEqual([0, 1000, 2000])
    expect(clock.sleeps).toEqual([1000, 2000])
    expect(server.hits).toHaveLength(3)
  })

  test('a slot further away than the timeout: fails at once, sends nothing, takes no slot', async () => {
    const { server, clock, run, starts, geocoder } = gated(1500)
    let refusedAt: number | undefined
    const calls = [geocoder.geocode('a'), geocoder.geocode('b'), geocoder.geocode('c')] as const
    calls[2].catch(() => (refusedAt = clock.t))
    const [a, b, c] = await run(Promise.allSettled(calls))
    expect(a.status).toBe('fulfilled')
    expect(b.status).toBe('fulfilled') // waited 1000 ms of its 1500
    expect(c.status).toBe('rejected')
    await expectUnavailable(
      Promise.reject((c as PromiseRejectedResult).reason),
      'nominatim',
      /busy: .*2000 ms away, beyond the 1500 ms timeout/,
    )
    expect(clock.sleeps).toEqual([1000])
    expect(server.hits).toHaveLength(2)
    expect(refusedAt).toBe(0) // at once: before the clock reached b's slot
    // The refused call reserved nothing: at 2000 the next request goes at once.
    clock.t = 2000
    await run(geocoder.geocode('d'))
    expect(clock.sleeps).toEqual([1000])
    expect(starts).toEqual([0, 1000, 2000])
  })

  test('time spent waiting for the slot is taken from the timeout', async () => {
    const { run, geocoder } = gated(1200, async (_, n) => {
      if (n === 2) await never // only the timeout can end the call
      return reply([])
    })
    await run(geocoder.geocode('a'))
    const call = run(geocoder.geocode('b'))
    expect(await settlesBefore(call, 5000)).toBe(true) // its deadline, 200 ms after the slot, fires first
    await expectUnavailable(call, 'nominatim', /timed out after 1200 ms \(1000 ms of it waiting for a request slot\)/)
  })
})
