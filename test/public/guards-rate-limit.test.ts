// The Query API's rate limit: RATE_LIMITED (429) and the RateLimit headers, which answers count and
// which say where the budget stands; and the order the guards run in.
import { beforeEach, describe, expect, test } from 'bun:test'
import { RateLimiter } from '../../src/api/public/guards'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { appOn, expectError, FAKE_SECRET, naming, send, type Res } from './fixture'
import { deactivate, f, NEAR, useGuardsFixture } from './guards-fixture'

useGuardsFixture()

describe('RATE_LIMITED (429) and the rate headers', () => {
  const MINUTE = 60_000
  const WINDOW = 28_333_333 * MINUTE // a minute boundary
  let now = WINDOW + 10_000
  let app: ReturnType<typeof appOn>
  beforeEach(() => {
    now = WINDOW + 10_000
    app = appOn(f.env, { limiter: new RateLimiter(() => now) })
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '3' })
  })
  const hit = (path = '/filters', headers: Record<string, string> = {}) =>
    f.get(path.startsWith('http') ? path : f.url(path), { app, headers })
  const rate = (res: Res) => ({
    limit: res.headers.get('ratelimit-limit'),
    remaining: res.headers.get('ratelimit-remaining'),
    reset: res.headers.get('ratelimit-reset'),
  })

  test('the 4th request in a minute is refused with Retry-After and the RateLimit headers', async () => {
    for (const remaining of ['2', '1', '0']) {
      const res = await hit()
      expect(res.status).toBe(200)
      expect(rate(res)).toEqual({ limit: '3', remaining, reset: '50' })
    }
    const res = await hit()
    expectError(res, 429, 'RATE_LIMITED')
    expect(rate(res)).toEqual({ limit: '3', remaining: '0', reset: '50' })
    expect(res.headers.get('retry-after')).toBe('50')

    now += 45_000 // still the same minute
    const later = await hit()
    expectError(later, 429, 'RATE_LIMITED')
    expect(later.headers.get('retry-after')).toBe('5')
  })

  test('a new minute admits again', async () => {
    for (let i = 0; i < 3; i++) expect((await hit()).status).toBe(200)
    expect((await hit()).status).toBe(429)
    now = WINDOW + MINUTE + 1_000
    const res = await hit()
    expect(res.status).toBe(200)
    expect(rate(res)).toEqual({ limit: '3', remaining: '2', reset: '59' })
  })

  test('the wall clock set back (NTP, a VM resumed): a new minute, not the spent one stretched by as much', async () => {
    for (let i = 0; i < 3; i++) expect((await hit()).status).toBe(200)
    expect((await hit()).status).toBe(429)
    now -= 60 * MINUTE // an hour back: 10 s into the minute an hour earlier
    const res = await hit()
    expect(res.status).toBe(200)
    expect(rate(res)).toEqual({ limit: '3', remaining: '2', reset: '50' })
  })

  test('a changed limit applies at once, up and down', async () => {
    for (let i = 0; i < 3; i++) expect((await hit()).status).toBe(200)
    expect((await hit()).status).toBe(429)
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '6' })
    const res = await hit() // the 5th request of the minute
    expect(res.status).toBe(200)
    expect(rate(res).limit).toBe('6')
    expect(rate(res).remaining).toBe('1')
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '2' })
    const down = await hit()
    expectError(down, 429, 'RATE_LIMITED')
    expect(rate(down).limit).toBe('2')
  })

  test('every endpoint counts, and errors after the guards carry the headers too', async () => {
    const bad = await hit(f.url('/locations', 'all=true&limit=0'))
    expectError(bad, 400, 'INVALID_PARAMETER', naming('limit'))
    expect(rate(bad)).toEqual({ limit: '3', remaining: '2', reset: '50' })
    const missing = await hit(`/locations/${f.ids.hidden}`)
    expectError(missing, 404, 'LOCATION_NOT_FOUND')
    expect(rate(missing).remaining).toBe('1')
    expect((await hit(f.url('/locations', `${NEAR}`))).status).toBe(200)
    expectError(await hit(f.url('/locations', 'all=true')), 429, 'RATE_LIMITED')
  })

  test('a refusal by the allowlist or the switch (403) says where the budget stands, and is not counted', async () => {
    expect((await hit()).status).toBe(200)
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'shop.example.com' })
    for (let i = 0; i < 5; i++) {
      const refused = await hit('/filters', { origin: 'https://evil.example.net' })
      expectError(refused, 403, 'REFERRER_NOT_ALLOWED')
      expect(rate(refused)).toEqual({ limit: '3', remaining: '2', reset: '50' })
    }
    const allowed = await hit('/filters', { origin: 'https://shop.example.com' })
    expect(allowed.status).toBe(200)
    expect(rate(allowed).remaining).toBe('1')
    setLocatorSettings(f.env.store, f.env.locatorId, { queryApi: 'off' })
    const off = await hit()
    expectError(off, 403, 'API_NOT_ENABLED')
    expect(rate(off)).toEqual({ limit: '3', remaining: '1', reset: '50' })
    now = WINDOW + MINUTE + 30_000 // a new minute: the whole budget, its reset 30 s away
    expect(rate(await hit())).toEqual({ limit: '3', remaining: '3', reset: '30' })
    // An unknown token has no budget to tell.
    const unknown = await send(app, 'http://localhost/public/v1/pk_000000000000000000000000/filters')
    expectError(unknown, 404, 'INVALID_TOKEN')
    expect(unknown.headers.get('ratelimit-limit')).toBeNull()
  })

  test("a secret key refused (400) and a path with no endpoint (404) under a locator's token say where its budget stands, and are not counted", async () => {
    expect((await hit()).status).toBe(200)
    const exposed = await hit(f.url('/locations', `all=true&k=${FAKE_SECRET}`))
    expectError(exposed, 400, 'SECRET_KEY_EXPOSED')
    expect(rate(exposed)).toEqual({ limit: '3', remaining: '2', reset: '50' })
    for (const path of ['', '/', '/Locations', '/locations/a/b', `/nothing?k=${FAKE_SECRET}`]) {
      const none = await hit(path)
      expect({ path, status: none.status, rate: rate(none) }).toEqual({
        path,
        status: path.includes('k=') ? 400 : 404,
        rate: { limit: '3', remaining: '2', reset: '50' },
      })
    }
    // The token percent-encoded, as the routes read it decoded.
    const token = f.env.store.locators.get(f.env.locatorId)!.publicToken!
    const encoded = await send(app, `http://localhost/public/v1/${token.replace('_', '%5F')}/Locations`)
    expectError(encoded, 404, 'NOT_FOUND')
    expect(rate(encoded).remaining).toBe('2')
    const posted = await send(app, f.url('/locations', 'all=true'), { method: 'POST' })
    expectError(posted, 405, 'METHOD_NOT_ALLOWED')
    expect(rate(posted).remaining).toBe('2')
    expect(rate(await hit()).remaining).toBe('1')
    // A token that names no locator, or a key in the token's place: no budget to tell.
    for (const token of ['pk_000000000000000000000000', FAKE_SECRET]) {
      const res = await send(app, `http://localhost/public/v1/${token}/Locations`)
      expect(res.status).toBe(token === FAKE_SECRET ? 400 : 404)
      expect(res.headers.get('ratelimit-limit')).toBeNull()
    }
  })

  test('a failed lookup of the token for these headers alone loses nothing else: the same 404 or 400, without them', async () => {
    const fresh = appOn(f.env) // no token looked up yet
    const { locators } = f.env.store
    const byToken = locators.byToken
    Object.assign(locators, {
      byToken: () => {
        throw new Error('disk I/O error')
      },
    })
    try {
      const none = await send(fresh, f.url('/Locations'))
      expectError(none, 404, 'NOT_FOUND')
      const exposed = await send(fresh, f.url('/locations', `all=true&k=${FAKE_SECRET}`))
      expectError(exposed, 400, 'SECRET_KEY_EXPOSED')
      for (const res of [none, exposed]) expect(res.headers.get('ratelimit-limit')).toBeNull()
    } finally {
      Object.assign(locators, { byToken })
    }
  })

  test('each token has its own budget', async () => {
    const other = createLocator(f.env.store, 'Other')
    setLocatorSettings(f.env.store, other.locator.id, { queryApi: 'on', rateLimit: '3' })
    for (let i = 0; i < 3; i++) expect((await hit()).status).toBe(200)
    expect((await hit()).status).toBe(429)
    const res = await send(app, `http://localhost/public/v1/${other.locator.publicToken}/filters`)
    expect(res.status).toBe(200)
    expect(rate(res).remaining).toBe('2')
  })

  test('successful responses carry the headers with the default of 1,000 per minute', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '1000' })
    const res = await f.get(f.url('/locations', 'all=true'))
    expect(res.status).toBe(200)
    expect(res.headers.get('ratelimit-limit')).toBe('1000')
    expect(Number(res.headers.get('ratelimit-remaining'))).toBeLessThan(1000)
    expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1)
    expect(Number(res.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(60)

    const other = createLocator(f.env.store, 'Defaults')
    setLocatorSettings(f.env.store, other.locator.id, { queryApi: 'on' })
    const fresh = await send(f.env.app, `http://localhost/public/v1/${other.locator.publicToken}/filters`)
    expect(rate(fresh).limit).toBe('1000')
    expect(rate(fresh).remaining).toBe('999')
  })
})

describe('the order of the guards', () => {
  test('a secret key is refused before the token is looked at', async () => {
    expectError(
      await send(f.env.app, `http://localhost/public/v1/pk_AAAAAAAAAAAAAAAAAAAAAAAA/filters?k=${FAKE_SECRET}`),
      400,
      'SECRET_KEY_EXPOSED',
    )
    const off = createLocator(f.env.store, 'Off')
    expectError(
      await send(f.env.app, `http://localhost/public/v1/${off.locator.publicToken}/filters`, {
        headers: { authorization: `Bearer ${FAKE_SECRET}` },
      }),
      400,
      'SECRET_KEY_EXPOSED',
    )
  })

  test('the token before the API switch', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { queryApi: 'off' })
    deactivate(f.env.locatorId)
    expectError(await send(appOn(f.env), f.url('/filters')), 404, 'INVALID_TOKEN')
  })

  test('the API switch before the referrer allowlist', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { queryApi: 'off', referrers: 'shop.example.com' })
    expectError(await f.get('/filters', { headers: { origin: 'https://evil.example.net' } }), 403, 'API_NOT_ENABLED')
    expectError(await f.get('/filters'), 403, 'API_NOT_ENABLED')
  })

  test('the referrer allowlist before the rate limit: refused requests use no budget, and are refused as such when it is spent', async () => {
    let now = 28_333_333 * 60_000
    const app = appOn(f.env, { limiter: new RateLimiter(() => now) })
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'shop.example.com', rateLimit: '3' })
    for (let i = 0; i < 5; i++)
      expectError(
        await f.get('/filters', { app, headers: { origin: 'https://evil.example.net' } }),
        403,
        'REFERRER_NOT_ALLOWED',
      )
    for (let i = 0; i < 3; i++)
      expect((await f.get('/filters', { app, headers: { origin: 'https://shop.example.com' } })).status).toBe(200)
    expectError(await f.get('/filters', { app, headers: { origin: 'https://shop.example.com' } }), 429, 'RATE_LIMITED')
    expectError(
      await f.get('/filters', { app, headers: { origin: 'https://evil.example.net' } }),
      403,
      'REFERRER_NOT_ALLOWED',
    )
    now += 60_000
    expect((await f.get('/filters', { app, headers: { origin: 'https://shop.example.com' } })).status).toBe(200)
  })

  test('parameters are checked only after the guards', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { queryApi: 'off' })
    expectError(await f.get(f.url('/locations', 'limit=0')), 403, 'API_NOT_ENABLED')
    expectError(await send(f.env.app, 'http://localhost/public/v1/nope/locations?limit=0'), 404, 'INVALID_TOKEN')
  })
})
