// Answers the Query API keeps in its response cache and /locations answers made on the fast path
// (without Elysia): the same bytes and headers as the app's, counted against the rate limit as any.
import { describe, expect, test } from 'bun:test'
import { RateLimiter } from '../../src/api/public/guards'
import { setLocatorSettings } from '../../src/operator'
import { type AnyApp, appOn, expectError, type Res } from './fixture'
import { f, NEAR, urls, useCachingFixture } from './caching-fixture'

useCachingFixture()

/**
 * A limiter whose clock stands still. On the wall clock, two apps compared header for header each keep
 * their own rate window, opened a few ms apart, so their RateLimit-Reset differs whenever those ms
 * straddle a second; and requests counted against a limit start a new window when they straddle a minute.
 */
const frozenLimiter = () => new RateLimiter(() => 28_333_333 * 60_000)

describe('answers kept in the response cache', () => {
  /** A response's headers but those that change from one request to the next. */
  const lasting = (res: Res) =>
    Object.fromEntries(
      [...res.headers].filter(([name]) => !['x-request-id', 'ratelimit-remaining', 'date'].includes(name)),
    )

  test('go out as the answer made for the first asks, with the same headers, whoever asks', async () => {
    const app = appOn(f.env, { limiter: frozenLimiter() })
    const viaApp = appOn(f.env, { publicFastPath: false, limiter: frozenLimiter() }) // every answer made by the Elysia app
    // None again last: a kept answer's headers, set for an Origin, go back to "*".
    const origins: Record<string, string>[] = [
      {},
      { origin: 'https://shop.example.com' },
      { origin: 'https://other.example.org' },
      {},
    ]
    for (const url of urls()) {
      for (let i = 0; i < 2; i++) expect((await f.get(url, { app })).status).toBe(200) // kept from the second ask
      for (const headers of origins) {
        const made = await f.get(url, { headers, app: viaApp })
        const hits = app.cacheHits()
        const kept = await f.get(url, { headers, app })
        expect(app.cacheHits()).toBe(hits + 1)
        expect(viaApp.cacheHits()).toBe(0)
        expect(kept.status).toBe(200)
        expect(kept.text).toBe(made.text)
        expect(lasting(kept)).toEqual(lasting(made))
        expect(kept.headers.get('x-request-id')).toMatch(/^[0-9a-z]{16}$/)
      }
    }
  })

  test('each counts against the rate limit like any answer', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '5' })
    const app = appOn(f.env, { limiter: frozenLimiter() }) // one window, though the requests straddle a minute
    const url = urls()[1]!
    const remaining = []
    for (let i = 0; i < 5; i++) {
      const res = await f.get(url, { app })
      expect(res.status).toBe(200)
      remaining.push(res.headers.get('ratelimit-remaining'))
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0'])
    expect(app.cacheHits()).toBe(3) // the third to the fifth
    const refused = await f.get(url, { app })
    expectError(refused, 429, 'RATE_LIMITED')
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(app.cacheHits()).toBe(3)
  })

  test('are refused when the guards refuse the request: a secret key, a referrer not allowed', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'shop.example.com' })
    const url = urls()[1]!
    const shop = { origin: 'https://shop.example.com' }
    for (let i = 0; i < 3; i++) expect((await f.get(url, { headers: shop })).status).toBe(200)
    expect(f.env.app.cacheHits()).toBe(1) // an answer is kept
    expectError(await f.get(url, { headers: { origin: 'https://evil.example.net' } }), 403, 'REFERRER_NOT_ALLOWED')
    expectError(await f.get(url), 403, 'REFERRER_NOT_ALLOWED')
    expectError(
      await f.get(url, { headers: { ...shop, authorization: `Bearer sk_${'a'.repeat(38)}` } }),
      400,
      'SECRET_KEY_EXPOSED',
    )
    expect((await f.get(url, { headers: shop })).status).toBe(200)
    expect(f.env.app.cacheHits()).toBe(2)
  })
})

describe('/locations answers made on the fast path (without Elysia)', () => {
  const lasting = (res: Res) =>
    Object.fromEntries(
      [...res.headers].filter(([name]) => !['x-request-id', 'ratelimit-remaining', 'date'].includes(name)),
    )
  /**
   * The app, asserting who answers each request: the fast path answers in the turn it is asked
   * (a Response), the Elysia app after an await (a promise of one).
   */
  const answeredBy = (by: 'fast path' | 'app', app: AnyApp): AnyApp => ({
    handle: (request) => {
      const answered = app.handle(request)
      expect({ url: request.url, by: answered instanceof Response ? 'fast path' : 'app' }).toEqual({
        url: request.url,
        by,
      })
      return answered
    },
  })
  const queries = [
    NEAR,
    `${NEAR}&unit=km&radius=5&limit=3`,
    `${NEAR}&tags[]=repair&tags[]=rental&tagLogic=all`,
    `${NEAR}&search=v%C3%A9lo&offset=1`,
    'all=true&sort=name&limit=2&offset=2',
    `lat=10&lng=10`,
  ]

  test('are the answers the app makes, headers and all, with or without an Origin, under a public base URL', async () => {
    for (const publicBaseUrl of [undefined, 'https://stores.example.com']) {
      const fast = appOn(f.env, { publicBaseUrl, limiter: frozenLimiter() })
      const viaApp = appOn(f.env, { publicBaseUrl, publicFastPath: false, limiter: frozenLimiter() })
      for (const qs of queries) {
        for (const headers of [{}, { origin: 'https://shop.example.com' }] as Record<string, string>[]) {
          const made = await f.get(f.url('/locations', qs), { headers, app: viaApp })
          const quick = await f.get(f.url('/locations', qs), { headers, app: answeredBy('fast path', fast) })
          expect(made.status).toBe(200)
          expect(quick.text).toBe(made.text)
          expect(lasting(quick)).toEqual(lasting(made))
        }
      }
    }
  })

  test('count once against the rate limit, answers and refusals alike; a refused request is answered by the app', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '5' })
    const app = appOn(f.env, { limiter: frozenLimiter() }) // one window, though the requests straddle a minute
    const remaining = []
    for (const [qs, by] of [
      [NEAR, 'fast path'],
      ['lat=999', 'app'],
      [`${NEAR}&limit=0`, 'app'],
      [`${NEAR}&unit=km`, 'fast path'],
      [NEAR, 'fast path'],
    ] as const) {
      remaining.push(
        (await f.get(f.url('/locations', qs), { app: answeredBy(by, app) })).headers.get('ratelimit-remaining'),
      )
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0'])
    expectError(
      await f.get(f.url('/locations', `${NEAR}&radius=3`), { app: answeredBy('app', app) }),
      429,
      'RATE_LIMITED',
    )
  })

  test('carry the rate limit as it is now, made or kept', async () => {
    const app = answeredBy('fast path', appOn(f.env, { limiter: frozenLimiter() }))
    const limitOf = async (qs: string) => (await f.get(f.url('/locations', qs), { app })).headers.get('ratelimit-limit')
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '50' })
    expect(await limitOf(NEAR)).toBe('50')
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '70' })
    expect(await limitOf(`${NEAR}&limit=3`)).toBe('70') // made
    for (let i = 0; i < 3; i++) expect(await limitOf(`${NEAR}&limit=3`)).toBe('70') // kept from the second ask
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '60' })
    for (let i = 0; i < 3; i++) expect(await limitOf(`${NEAR}&limit=3`)).toBe('60')
  })

  test('leave to the app what is its to say: 304, bad parameters, a refused referrer, a secret key', async () => {
    const app = answeredBy('app', f.env.app)
    const first = await f.get(f.url('/locations', NEAR), { app: answeredBy('fast path', f.env.app) })
    expect(
      (await f.get(f.url('/locations', NEAR), { headers: { 'if-none-match': first.headers.get('etag')! }, app }))
        .status,
    ).toBe(304)
    expectError(await f.get(f.url('/locations', 'lat=91&lng=0'), { app }), 400, 'INVALID_COORDINATES')
    expectError(await f.get(f.url('/locations', `${NEAR}&limit=0`), { app }), 400, 'INVALID_PARAMETER')
    expectError(
      await f.get(f.url('/locations', NEAR), { headers: { authorization: `Bearer sk_${'a'.repeat(38)}` }, app }),
      400,
      'SECRET_KEY_EXPOSED',
    )
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'shop.example.com' })
    expectError(
      await f.get(f.url('/locations', `${NEAR}&radius=7`), { headers: { origin: 'https://evil.example.net' }, app }),
      403,
      'REFERRER_NOT_ALLOWED',
    )
    expect(
      (
        await f.get(f.url('/locations', `${NEAR}&radius=7`), {
          headers: { origin: 'https://shop.example.com' },
          app: answeredBy('fast path', f.env.app),
        })
      ).status,
    ).toBe(200)
  })

  test('a token in the query string ("/public/v1?<token>/locations?...") is no endpoint: 404, asked once or twice, as through the app', async () => {
    const token = f.env.store.locators.get(f.env.locatorId)!.publicToken
    const url = `http://localhost/public/v1?${token}/locations?x=1&${NEAR}` // the first parameter "<token>/locations?x"
    for (let i = 0; i < 3; i++) expect((await f.get(url)).status).toBe(404)
    expect((await f.get(url, { headers: { 'if-none-match': '*' } })).status).toBe(404)
  })
})
