// GET /robots.txt and /favicon.ico, through the whole app as a crawler and a browser ask: what may
// be crawled, the one sitemap index, and no JSON error for the icon browsers ask for.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { loadConfig } from '../../src/core/config'
import { createApp } from '../../src/server/app'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { makeEnv, type TestEnv } from '../helpers'

let env: TestEnv
const tokens: Record<string, string> = {}
beforeAll(() => {
  env = makeEnv()
  setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
  tokens.first = env.store.locators.get(env.locatorId)!.publicToken
  for (const [key, settings] of [
    ['second', { queryApi: 'on' }],
    ['off', { queryApi: 'on', active: 'off' }],
    ['private', { queryApi: 'off' }],
  ] as const) {
    const { locator } = createLocator(env.store, `Locator ${key}`)
    setLocatorSettings(env.store, locator.id, settings)
    tokens[key] = locator.publicToken
  }
})
afterAll(() => env.close())

const get = (url: string, init: RequestInit = {}, app = env.app) => app.handle(new Request(url, init))
const sitemaps = (text: string) => [...text.matchAll(/^Sitemap: (.*)$/gm)].map((m) => m[1])

describe('GET /robots.txt', () => {
  test('plain text, cached briefly: all may be crawled but the Management API; the Query API stays open for rendering', async () => {
    const res = await get('http://localhost/robots.txt')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('public, max-age=300')
    const text = await res.text()
    const rules = text.split('\n').filter((l) => /^(User-agent|Allow|Disallow):/.test(l))
    expect(rules).toEqual(['User-agent: *', 'Allow: /', 'Disallow: /admin/'])
  })

  test("one Sitemap line, the service's sitemap index on the request's origin, naming each public locator's", async () => {
    const text = await (await get('http://127.0.0.1:5050/robots.txt')).text()
    expect(sitemaps(text)).toEqual(['http://127.0.0.1:5050/sitemap.xml'])
    const index = await (await get('http://127.0.0.1:5050/sitemap.xml')).text()
    expect(index).toContain('<sitemapindex ')
    const named = [...index.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1])
    expect(named).toEqual([tokens.first, tokens.second].map((t) => `http://127.0.0.1:5050/l/${t}/sitemap.xml`))
    for (const url of named) expect((await get(url!)).status).toBe(200)
    for (const token of Object.values(tokens)) expect(text).not.toContain(token)
  })

  test('HEAD answers as GET, without the body', async () => {
    const res = await get('http://localhost/robots.txt', { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(await res.text()).toBe('')
  })

  test('PUBLIC_BASE_URL with a path: the rules under that path, the sitemaps on it, and where the file belongs', async () => {
    const app = createApp({
      store: env.store,
      geocoder: { name: 'none', geocode: async () => null },
      config: { ...loadConfig({}), publicBaseUrl: 'https://example.com/stores' },
      log: () => {},
    })
    const text = await (await get('http://evil.example/robots.txt', {}, app)).text()
    expect(text).toStartWith(
      '# The service is at https://example.com/stores: crawlers read https://example.com/robots.txt only.',
    )
    expect(text).toContain('\nAllow: /stores/\nDisallow: /stores/admin/\n')
    expect(sitemaps(text)).toEqual(['https://example.com/stores/sitemap.xml'])
    expect(text).not.toContain('evil.example')
  })

  test("SITEMAP_INDEX=0, a shared service's: no Sitemap line, no index naming its tokens; each locator's sitemap stays", async () => {
    const app = createApp({
      store: env.store,
      geocoder: { name: 'none', geocode: async () => null },
      config: loadConfig({ SITEMAP_INDEX: '0' }),
      log: () => {},
    })
    const text = await (await get('http://localhost/robots.txt', {}, app)).text()
    expect(sitemaps(text)).toEqual([])
    expect(text).toEndWith('\nDisallow: /admin/\n')
    const index = await get('http://localhost/sitemap.xml', {}, app)
    expect(index.status).toBe(404)
    expect(index.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const said = await index.text()
    for (const token of Object.values(tokens)) expect(said).not.toContain(token)
    const own = await get(`http://localhost/l/${tokens.first}/sitemap.xml`, {}, app)
    expect([own.status, (await own.text()).includes('<urlset ')]).toEqual([200, true])
    expect(loadConfig({}).sitemapIndex).toBe(true)
    expect(() => loadConfig({ SITEMAP_INDEX: 'off' })).toThrow('SITEMAP_INDEX must be 1 or 0; got "off".')
  })

  test('no Sitemap line while no locator is public: an index names one sitemap at least', async () => {
    const on = [env.locatorId, env.store.locators.byToken(tokens.second!)!.id]
    for (const id of on) setLocatorSettings(env.store, id, { queryApi: 'off' })
    try {
      const text = await (await get('http://localhost/robots.txt')).text()
      expect(sitemaps(text)).toEqual([])
      expect(text).toEndWith('\nDisallow: /admin/\n')
    } finally {
      for (const id of on) setLocatorSettings(env.store, id, { queryApi: 'on' })
    }
  })
})

test('GET /favicon.ico: no icon and no error body, kept a day, so browsers stop asking on every page', async () => {
  for (const method of ['GET', 'HEAD']) {
    const res = await get('http://localhost/favicon.ico', { method })
    expect([res.status, await res.text()]).toEqual([204, ''])
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400')
    expect(res.headers.get('content-type')).toBeNull()
  }
})
