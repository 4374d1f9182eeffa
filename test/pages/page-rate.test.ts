// PAGE_RATE_LIMIT: the pages under /l/ counted per client address, apart from the Query API's
// CLIENT_RATE_LIMIT; past it, an HTML 429 page with Retry-After. Through app.handle.
import { beforeEach, expect, test } from 'bun:test'
import { RateLimiter } from '../../src/api/public/guards'
import { appOn } from '../public/fixture'
import { f, NEAR, useGuardsFixture } from '../public/guards-fixture'

useGuardsFixture()

const WINDOW = 28_333_333 * 60_000 // a minute boundary
let now = WINDOW + 10_000
beforeEach(() => {
  now = WINDOW + 10_000
})

/** Bun.serve's server as the app sees it: the socket's address of every request is `address`. */
const from = (address: string) => ({ requestIP: () => ({ address, family: 'IPv4', port: 40_000 }) })

const appWith = (clients: { clientRateLimit?: number; pageRateLimit?: number; trustedProxies?: string[] }) =>
  appOn(f.env, {
    limiter: new RateLimiter(() => now),
    clients: { ...clients, clientLimiter: new RateLimiter(() => now), pageLimiter: new RateLimiter(() => now) },
  })

async function status(app: ReturnType<typeof appOn>, address: string, path: string, headers = {}): Promise<number> {
  const res = await app.handle(new Request(`http://localhost${path}`, { headers }), from(address))
  await res.arrayBuffer()
  return res.status
}

test("an address past PAGE_RATE_LIMIT gets the pages' 429 page; others, and the widget's files, do not", async () => {
  const app = appWith({ pageRateLimit: 4 })
  const pages = [`/l/${f.token}`, `/l/${f.token}/stores`, `/l/${f.token}/sitemap.xml`, `/l/${f.token}/stores/`]
  const out: number[] = []
  for (const path of pages) out.push(await status(app, '198.51.100.7', path))
  expect(out).toEqual([200, 200, 200, 308]) // a redirect counts: it is a request
  const refused = await app.handle(new Request(`http://localhost/l/${f.token}/stores`), from('198.51.100.7'))
  expect(refused.status).toBe(429)
  expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(refused.headers.get('retry-after')).toBe('50')
  expect(refused.headers.get('cache-control')).toBe('no-store')
  expect(refused.headers.get('ratelimit-limit')).toBe('4')
  expect(refused.headers.get('ratelimit-remaining')).toBe('0')
  expect(refused.headers.get('x-request-id')).toBeTruthy()
  const html = await refused.text()
  expect(html).toContain('<title>Too many requests</title>')
  expect(html).toContain('<meta name="robots" content="noindex">')
  // In the language the link asks for.
  const french = await app.handle(new Request(`http://localhost/l/${f.token}/stores?lang=fr`), from('198.51.100.7'))
  expect(french.status).toBe(429)
  const text = await french.text()
  expect(text).toStartWith('<!doctype html><html lang="fr">')
  expect(text).toContain('<title>Trop de requêtes</title>')
  // Laid out as the store pages are, by their style in the page: all its policy lets in.
  expect(text).toContain('<body class="slp-page"><main class="slp-main"><h1>Trop de requêtes</h1>')
  expect(french.headers.get('content-security-policy')).toBe(
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
  )
  // Outside /l/ nothing is counted; another address has its own count.
  expect(await status(app, '198.51.100.7', '/widget.js')).toBe(200)
  expect(await status(app, '198.51.100.7', '/robots.txt')).toBe(200)
  expect(await status(app, '203.0.113.1', `/l/${f.token}`)).toBe(200)
  now += 60_000
  expect(await status(app, '198.51.100.7', `/l/${f.token}`)).toBe(200)
})

test('pages and the Query API count apart, each against its own limit', async () => {
  const app = appWith({ clientRateLimit: 1, pageRateLimit: 2 })
  const query = `/public/v1/${f.token}/locations?${NEAR}`
  expect(await status(app, '198.51.100.7', query)).toBe(200)
  expect(await status(app, '198.51.100.7', `/l/${f.token}`)).toBe(200)
  expect(await status(app, '198.51.100.7', `/l/${f.token}`)).toBe(200)
  expect(await status(app, '198.51.100.7', `/l/${f.token}`)).toBe(429)
  const json = await app.handle(new Request(`http://localhost${query}`), from('198.51.100.7'))
  expect([json.status, ((await json.json()) as { error: { code: string } }).error.code]).toEqual([429, 'RATE_LIMITED'])
  // CLIENT_RATE_LIMIT alone leaves the pages uncounted.
  const apiOnly = appWith({ clientRateLimit: 1 })
  for (let i = 0; i < 5; i++) expect(await status(apiOnly, '198.51.100.7', `/l/${f.token}`)).toBe(200)
})

test("off by default; behind a trusted proxy, X-Forwarded-For names each page's client", async () => {
  const off = appWith({})
  for (let i = 0; i < 5; i++) expect(await status(off, '198.51.100.7', `/l/${f.token}`)).toBe(200)
  const proxied = appWith({ pageRateLimit: 1, trustedProxies: ['127.0.0.1/32'] })
  for (const visitor of ['192.0.2.1', '192.0.2.2'])
    expect(await status(proxied, '127.0.0.1', `/l/${f.token}`, { 'x-forwarded-for': visitor })).toBe(200)
  expect(await status(proxied, '127.0.0.1', `/l/${f.token}`, { 'x-forwarded-for': '192.0.2.1' })).toBe(429)
  // An untrusted peer's header names no one: the peer is the client.
  expect(await status(proxied, '198.51.100.9', `/l/${f.token}`, { 'x-forwarded-for': '192.0.2.3' })).toBe(200)
  expect(await status(proxied, '198.51.100.9', `/l/${f.token}`, { 'x-forwarded-for': '192.0.2.4' })).toBe(429)
})
