// CORS on the Query API: the calling origin allowed, Vary on Origin (and Referer with an allowlist;
// Host too, as no PUBLIC_BASE_URL is set here: test/host-links.test.ts),
// the ETag and rate headers exposed, errors and preflights too; none on the other endpoints.
import { describe, expect, test } from 'bun:test'
import { RateLimiter } from '../../src/api/public/guards'
import { setLocatorSettings } from '../../src/operator'
import { type AnyApp, appOn, expectError, send, type Res } from './fixture'
import { f, urls, useCachingFixture } from './caching-fixture'

useCachingFixture()

describe('CORS', () => {
  const ORIGIN = 'https://maps.shop.test'
  const corsHeaders = (res: Res) => [...res.headers.keys()].filter((k) => k.startsWith('access-control-'))

  test('public responses allow the calling origin, vary on Origin and expose the ETag and rate headers', async () => {
    for (const url of urls()) {
      const res = await f.get(url, { headers: { origin: ORIGIN } })
      expect(res.status).toBe(200)
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
      expect(res.headers.get('vary')?.toLowerCase()).toContain('origin')
      const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/)
      for (const h of [
        'etag',
        'ratelimit-limit',
        'ratelimit-remaining',
        'ratelimit-reset',
        'retry-after',
        'x-request-id',
      ])
        expect(exposed).toContain(h) // the id a 500 asks to quote
    }
  })

  test('with a referrer allowlist, answers vary on Referer too (it decides for a request without an Origin), made, kept or 304, and not once it is cleared', async () => {
    const viaApp = appOn(f.env, { publicFastPath: false })
    const varyOf = async (url: string, headers: Record<string, string>, app?: AnyApp) => {
      const res = await f.get(url, { headers, app })
      expect({ url, status: res.status }).toEqual({ url, status: 200 })
      return res.headers.get('vary')
    }
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'maps.shop.test' })
    for (const url of urls()) {
      for (const headers of [{ origin: ORIGIN }, { referer: `${ORIGIN}/stores` }] as Record<string, string>[]) {
        // Made, then kept from the second ask (the fast path for /locations), and made by the app.
        for (let i = 0; i < 3; i++)
          expect({ url, i, vary: await varyOf(url, headers) }).toEqual({ url, i, vary: 'Origin, Referer, Host' })
        expect(await varyOf(url, headers, viaApp)).toBe('Origin, Referer, Host')
        const etag = (await f.get(url, { headers })).headers.get('etag')!
        const revalidated = await f.get(url, { headers: { ...headers, 'if-none-match': etag } })
        expect({ url, status: revalidated.status, vary: revalidated.headers.get('vary') }).toEqual({
          url,
          status: 304,
          vary: 'Origin, Referer, Host',
        })
      }
    }
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: '' })
    for (const url of urls())
      for (let i = 0; i < 3; i++) expect({ url, vary: await varyOf(url, {}) }).toEqual({ url, vary: 'Origin, Host' })
  })

  test('with a referrer allowlist, an allowed origin is echoed', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'maps.shop.test' })
    const res = await f.get('/filters', { headers: { origin: ORIGIN } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
  })

  test('error responses carry CORS headers too, so a browser can read the error', async () => {
    let now = 28_333_333 * 60_000
    const app = appOn(f.env, { limiter: new RateLimiter(() => now) })
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '1' })
    expect((await f.get('/filters', { app, headers: { origin: ORIGIN } })).status).toBe(200)
    const limited = await f.get('/filters', { app, headers: { origin: ORIGIN } })
    expectError(limited, 429, 'RATE_LIMITED')
    now += 60_000
    const invalid = await f.get(f.url('/locations', 'all=maybe'), { app, headers: { origin: ORIGIN } })
    expectError(invalid, 400, 'INVALID_PARAMETER')
    const token = await send(app, 'http://localhost/public/v1/nope/filters', { headers: { origin: ORIGIN } })
    expectError(token, 404, 'INVALID_TOKEN')
    for (const res of [limited, invalid, token]) expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
  })

  test("a 405 to a page's POST is readable there, its Allow header too", async () => {
    // A form's POST (no preflight): the page reads the status, the body and the exposed headers only.
    const posted = await send(f.env.app, f.url('/locations', 'all=true'), {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'all=true',
    })
    expectError(posted, 405, 'METHOD_NOT_ALLOWED')
    expect(posted.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(posted.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    const exposed = (posted.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/)
    expect(exposed).toContain('allow')
  })

  test('an OPTIONS preflight on a public path answers 204 with the CORS headers', async () => {
    for (const url of urls()) {
      const res = await send(f.env.app, url, {
        method: 'OPTIONS',
        headers: {
          origin: ORIGIN,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'if-none-match',
        },
      })
      expect(res.status).toBe(204)
      expect(res.text).toBe('')
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
      expect(res.headers.get('access-control-allow-methods')).toContain('GET')
      expect((res.headers.get('access-control-allow-headers') ?? '').toLowerCase()).toContain('if-none-match')
      // Kept 10 minutes, not the plugin's 5 s: a page revalidating with If-None-Match is not preflighted each time.
      expect(res.headers.get('access-control-max-age')).toBe('600')
    }
  })

  test('a preflight that asks for no extra headers gets no garbage in its headers', async () => {
    const res = await send(f.env.app, f.url('/locations'), {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    for (const [k, v] of res.headers) expect({ header: k, value: v }).not.toEqual({ header: k, value: 'undefined' })
  })

  test('the Management API and the health endpoints send no access-control-* headers', async () => {
    const admin = await f.env.call('GET', '/admin/v1/locations', { headers: { origin: ORIGIN } })
    expect(admin.status).toBe(200)
    expect([...admin.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([])
    const denied = await f.env.call('GET', '/admin/v1/locations', { headers: { origin: ORIGIN }, key: null })
    expect(denied.status).toBe(401)
    expect([...denied.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([])
    for (const path of ['/healthz', '/readyz']) {
      const res = await send(f.env.app, `http://localhost${path}`, { headers: { origin: ORIGIN } })
      expect(res.status).toBe(200)
      expect(corsHeaders(res)).toEqual([])
    }
    const preflight = await send(f.env.app, 'http://localhost/admin/v1/locations', {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
    })
    // OPTIONS says what the route allows; with no access-control-allow-origin a browser's
    // preflight still fails, so no page may call the Management API.
    expect(corsHeaders(preflight)).toEqual([])
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS')
  })
})
