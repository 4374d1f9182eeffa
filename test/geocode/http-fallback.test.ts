// withFallback over an HTTP adapter: when the fallback is asked, what its answer's source says,
// and how often each failure is warned about.
import { describe, expect, test } from 'bun:test'
import type { GeocodeResult, Geocoder } from '../../src/geocode/geocoder'
import { createHttpGeocoder, GeocoderUnavailableError, withFallback } from '../../src/geocode/http'
import { answering, config, fixture, never, reply, settlesBefore, standIn, withStandIns } from './http-fixture'

withStandIns()

// ---- withFallback -----------------------------------------------------------------------------

function standInFallback(
  result: GeocodeResult | null = {
    lat: 51.5072,
    lng: -0.1276,
    precision: 'city',
    source: 'embedded',
    parts: { city: 'London', country: 'GB' },
  },
) {
  const calls: string[] = []
  const geocoder: Geocoder = {
    name: 'embedded',
    async geocode(address) {
      calls.push(address)
      return result
    },
  }
  return { geocoder, calls }
}

describe('withFallback', () => {
  test('primary times out: the fallback answers, its source noting why; within the timeout plus the fallback', async () => {
    const server = standIn(() => never) // only the timeout can end the call
    const fallback = standInFallback()
    const geocoder = withFallback(
      createHttpGeocoder(config('nominatim', { url: server.url, timeoutMs: 200 })),
      fallback.geocoder,
    )
    const call = geocoder.geocode('10 Downing Street, London')
    expect(await settlesBefore(call, 2000)).toBe(true) // the 200 ms deadline fires first, however late
    const result = await call
    expect(result).toStrictEqual({
      lat: 51.5072,
      lng: -0.1276,
      precision: 'city',
      source: 'embedded (fallback: nominatim timed out after 200 ms)',
      parts: { city: 'London', country: 'GB' },
    })
    expect(fallback.calls).toEqual(['10 Downing Street, London'])
  })

  test('primary fails with HTTP 503: the fallback answers', async () => {
    const server = answering('Service Unavailable', 503)
    const fallback = standInFallback()
    const result = await withFallback(
      createHttpGeocoder(config('google', { url: server.url })),
      fallback.geocoder,
    ).geocode('x')
    expect(result?.source).toBe('embedded (fallback: google failed (HTTP 503))')
  })

  test('each failure is warned about, each reason at most once a minute; answers and "not found" are not', async () => {
    let status = 401
    const server = standIn(() => (status === 200 ? reply(fixture('google-zero-results')) : reply('no', status)))
    const warned: string[] = []
    let clock = 0
    const geocoder = withFallback(
      createHttpGeocoder(config('google', { url: server.url })),
      standInFallback().geocoder,
      (reason) => warned.push(reason),
      () => clock,
    )
    for (let i = 0; i < 3; i++) await geocoder.geocode('x')
    expect(warned).toEqual(['google refused the request (HTTP 401)'])
    status = 503
    await geocoder.geocode('x')
    clock += 59_000
    await geocoder.geocode('x')
    expect(warned).toEqual(['google refused the request (HTTP 401)', 'google failed (HTTP 503)'])
    clock += 1_000
    await geocoder.geocode('x')
    expect(warned).toHaveLength(3)
    status = 200
    clock += 120_000
    await geocoder.geocode('x')
    expect(warned).toHaveLength(3)
  })

  test("reasons that differ only in their figures (a timeout, a request slot's wait) are one reason: warned once a minute", async () => {
    let n = 0
    const slow: Geocoder = {
      name: 'nominatim',
      geocode: async () =>
        Promise.reject(new GeocoderUnavailableError('nominatim', `timed out after ${3000 - 50 * ++n} ms`)),
    }
    const warned: string[] = []
    let clock = 0
    const geocoder = withFallback(
      slow,
      standInFallback().geocoder,
      (reason) => warned.push(reason),
      () => clock,
    )
    for (let i = 0; i < 5; i++) await geocoder.geocode('x')
    expect(warned).toEqual(['nominatim timed out after 2950 ms'])
    clock += 60_000
    await geocoder.geocode('x')
    expect(warned).toEqual(['nominatim timed out after 2950 ms', 'nominatim timed out after 2700 ms'])
  })

  test('a timeout that waited for a request slot and one that did not are one reason: warned once a minute', async () => {
    let n = 0
    const slow: Geocoder = {
      name: 'nominatim',
      geocode: async () =>
        Promise.reject(
          new GeocoderUnavailableError(
            'nominatim',
            ++n % 2 === 0
              ? `timed out after 3000 ms (${n * 100} ms of it waiting for a request slot)`
              : 'timed out after 3000 ms',
          ),
        ),
    }
    const warned: string[] = []
    let clock = 0
    const geocoder = withFallback(
      slow,
      standInFallback().geocoder,
      (reason) => warned.push(reason),
      () => clock,
    )
    for (let i = 0; i < 4; i++) await geocoder.geocode('x')
    expect(warned).toEqual(['nominatim timed out after 3000 ms'])
    clock += 60_000
    await geocoder.geocode('x')
    expect(warned).toEqual(['nominatim timed out after 3000 ms', 'nominatim timed out after 3000 ms'])
  })

  test("a provider that keeps asking for short waits (429, Retry-After: 1): each wait's end is not a reason of its own, warned once a minute", async () => {
    const server = standIn(() => new Response('slow down', { status: 429, headers: { 'retry-after': '1' } }))
    const warned: string[] = []
    let clock = 1_000_000
    const geocoder = withFallback(
      createHttpGeocoder(config('opencage', { url: server.url }), { now: () => clock }),
      standInFallback().geocoder,
      (r) => warned.push(r),
      () => clock,
    )
    // A bulk import at two writes a second: one is rate limited, the next is told to wait, and so on.
    for (let i = 0; i < 20; i++) {
      await geocoder.geocode('x')
      clock += 500
    }
    expect(server.hits).toHaveLength(10)
    // The wait's end in wall-clock time (the fake clock above is the monotonic one).
    expect(warned).toEqual([
      'opencage is rate limiting us (HTTP 429)',
      expect.stringMatching(/^opencage asked us to wait \(Retry-After\) until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    ])
    clock += 60_000
    await geocoder.geocode('x')
    await geocoder.geocode('x')
    expect(warned).toHaveLength(4)
  })

  test('HTTP statuses are not folded: a 401 right after a 400 is warned about too', async () => {
    let reason = 'refused the request (HTTP 400)'
    const refusing: Geocoder = {
      name: 'google',
      geocode: async () => Promise.reject(new GeocoderUnavailableError('google', reason)),
    }
    const warned: string[] = []
    const geocoder = withFallback(
      refusing,
      standInFallback().geocoder,
      (r) => warned.push(r),
      () => 0,
    )
    await geocoder.geocode('x').catch(() => {})
    reason = 'refused the request (HTTP 401)'
    await geocoder.geocode('x').catch(() => {})
    expect(warned).toEqual(['google refused the request (HTTP 400)', 'google refused the request (HTTP 401)'])
  })

  test('primary says not found: null, and the fallback is not asked', async () => {
    const server = answering([])
    const fallback = standInFallback()
    const geocoder = withFallback(createHttpGeocoder(config('nominatim', { url: server.url })), fallback.geocoder)
    expect(await geocoder.geocode('Nowhere Lane 99999')).toBeNull()
    expect(fallback.calls).toEqual([])
  })

  test("primary answers: its result, and the fallback is not asked; the name is the primary's", async () => {
    const server = answering(fixture('nominatim-found'))
    const fallback = standInFallback()
    const geocoder = withFallback(createHttpGeocoder(config('nominatim', { url: server.url })), fallback.geocoder)
    expect(geocoder.name).toBe('nominatim')
    expect((await geocoder.geocode('10 Downing Street'))?.source).toBe('nominatim')
    expect(fallback.calls).toEqual([])
  })

  test('primary fails and the fallback finds nothing: the primary\'s failure, not "no such address"', async () => {
    const server = answering('Bad Gateway', 502)
    const fallback = standInFallback(null)
    const failed = withFallback(createHttpGeocoder(config('photon', { url: server.url })), fallback.geocoder).geocode(
      'x',
    )
    await expect(failed).rejects.toBeInstanceOf(GeocoderUnavailableError)
    await expect(failed).rejects.toThrow('photon failed (HTTP 502)')
    expect(fallback.calls).toHaveLength(1)
  })

  test('an error that is not GeocoderUnavailableError is a bug: it propagates and the fallback is not asked', async () => {
    const broken: Geocoder = {
      name: 'broken',
      geocode: async () => {
        throw new TypeError('cannot read properties of undefined')
      },
    }
    const fallback = standInFallback()
    await expect(withFallback(broken, fallback.geocoder).geocode('x')).rejects.toBeInstanceOf(TypeError)
    expect(fallback.calls).toEqual([])
  })
})
