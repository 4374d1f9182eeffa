// GET /sitemap.xml, the sitemap index robots.txt names, through HTTP as a crawler reads it: every
// public locator's sitemap, each a urlset (an index names no index), and no private locator's.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SITEMAP_MAX_URLS, sitemapPlan } from '../../src/api/pages/sitemap'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { locs, makePagesFixture, type PagesFixture, pagesApp } from './fixture'

let f: PagesFixture
const tokens: Record<string, string> = {}
beforeAll(async () => {
  f = await makePagesFixture()
  tokens.big = f.token
  for (const [key, settings, stores] of [
    ['empty', { queryApi: 'on' }, 0],
    ['three', { queryApi: 'on' }, 3],
    ['off', { queryApi: 'on', active: 'off' }, 1],
    ['private', { queryApi: 'off' }, 1],
  ] as const) {
    const { locator, secret } = createLocator(f.env.store, `Locator ${key}`)
    tokens[key] = locator.publicToken
    for (let i = 0; i < stores; i++) {
      const body = { name: `Store ${i}`, address: `${i} Rue de Rivoli, Paris`, coordinates: { lat: 48.85, lng: 2.35 } }
      const res = await f.env.call('POST', '/admin/v1/locations', { body, key: secret })
      expect(res.status).toBe(201)
    }
    setLocatorSettings(f.env.store, locator.id, settings)
  }
})
afterAll(() => f.env.close())

const sitemapOf = (token: string) => `http://localhost/l/${token}/sitemap.xml`

describe('GET /sitemap.xml', () => {
  test("an index of each public locator's sitemap, oldest first, on the request's origin", async () => {
    const res = await f.page('/sitemap.xml')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('public, max-age=300')
    expect(res.text).toStartWith(
      '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
    )
    expect(res.text).toEndWith('</sitemapindex>\n')
    expect(locs(res.text)).toEqual([tokens.big!, tokens.empty!, tokens.three!].map(sitemapOf))
    for (const url of locs(res.text)) expect((await f.page(url)).text).toContain('<urlset ')
    expect(res.text).not.toContain(tokens.off!)
    expect(res.text).not.toContain(tokens.private!)
  })

  test("a locator's sitemap past a file's URLs is named by its pages, which list every URL of it", async () => {
    const app = pagesApp(f.deps, 10)
    const whole = locs((await f.page(sitemapOf(tokens.big!))).text)
    const index = locs((await f.page('/sitemap.xml', {}, app)).text)
    const pages = Math.ceil(whole.length / 10)
    expect(index).toEqual([
      ...Array.from({ length: pages }, (_, i) => `${sitemapOf(tokens.big!)}?page=${i + 1}`),
      sitemapOf(tokens.empty!),
      sitemapOf(tokens.three!), // 3 stores may make more than 10 URLs: counted, they do not
    ])
    const listed: string[] = []
    for (const url of index) {
      const page = (await f.page(url, {}, app)).text
      expect(page).toContain('<urlset ')
      listed.push(...locs(page))
    }
    const others = await Promise.all(
      [tokens.empty!, tokens.three!].map(async (t) => locs((await f.page(sitemapOf(t))).text)),
    )
    expect(listed.sort()).toEqual([...whole, ...others.flat()].sort())
    // The bound that spares a small locator's directory: its sitemap holds 2 + 4n URLs at most.
    for (const [token, urls] of [
      [tokens.big!, whole],
      [tokens.empty!, others[0]!],
      [tokens.three!, others[1]!],
    ] as const) {
      const n = f.env.store.locations.count(f.env.store.locators.byToken(token)!.id, 'published')
      expect(urls.length).toBeLessThanOrEqual(2 + 4 * n)
    }
  })

  test('past the files an index holds: the locators that fit, and a comment saying how many are left out', async () => {
    const app = pagesApp(f.deps, 2)
    const text = (await f.page('/sitemap.xml', {}, app)).text
    expect(locs(text)).toEqual([]) // the first locator's pages alone are more than 2
    expect(text).toContain(
      "<!-- 3 more locators' sitemaps are left out: an index names at most 2 files. Submit them to search engines directly. -->",
    )
  })

  test('PUBLIC_BASE_URL: the sitemaps on it, whatever Host the request sent', async () => {
    const app = pagesApp({ ...f.deps, publicBaseUrl: 'https://example.com/stores' })
    const text = (await f.page('http://evil.example/sitemap.xml', {}, app)).text
    expect(locs(text)[0]).toBe(`https://example.com/stores/l/${tokens.big}/sitemap.xml`)
    expect(text).not.toContain('evil.example')
  })

  test('no public locator: 404, as an index names one sitemap at least', async () => {
    for (const token of [tokens.big, tokens.empty, tokens.three])
      setLocatorSettings(f.env.store, f.env.store.locators.byToken(token!)!.id, { queryApi: 'off' })
    try {
      const res = await f.page('/sitemap.xml')
      expect(res.status).toBe(404)
      expect(res.text).toBe('Not found. No store locator is public: there is no sitemap to list.\n')
    } finally {
      for (const token of [tokens.big, tokens.empty, tokens.three])
        setLocatorSettings(f.env.store, f.env.store.locators.byToken(token!)!.id, { queryApi: 'on' })
    }
  })
})

test('sitemapPlan: one urlset up to the page size, else an index; every URL on exactly one page', () => {
  expect(SITEMAP_MAX_URLS).toBe(50_000)
  expect(sitemapPlan(1, null)).toEqual({ kind: 'urlset', from: 0, to: 1 })
  expect(sitemapPlan(50_000, null)).toEqual({ kind: 'urlset', from: 0, to: 50_000 })
  expect(sitemapPlan(50_001, null)).toEqual({ kind: 'index', pages: 2 })
  expect(sitemapPlan(120_001, null)).toEqual({ kind: 'index', pages: 3 })
  expect(sitemapPlan(120_001, 1)).toEqual({ kind: 'urlset', from: 0, to: 50_000 })
  expect(sitemapPlan(120_001, 2)).toEqual({ kind: 'urlset', from: 50_000, to: 100_000 })
  expect(sitemapPlan(120_001, 3)).toEqual({ kind: 'urlset', from: 100_000, to: 120_001 })
  expect(sitemapPlan(120_001, 4)).toBeNull()
  expect(sitemapPlan(120_001, 0)).toBeNull()
  for (const [n, size] of [
    [1, 1],
    [2, 1],
    [10, 10],
    [11, 10],
    [12, 10],
    [96, 7],
  ] as const) {
    const covered: number[] = []
    const plan = sitemapPlan(n, null, size)!
    const pages = plan.kind === 'index' ? plan.pages : 1
    for (let p = 1; p <= pages; p++) {
      const page = sitemapPlan(n, p, size)!
      if (page.kind !== 'urlset') throw new Error('a page is a urlset')
      expect(page.to - page.from).toBeLessThanOrEqual(size)
      for (let i = page.from; i < page.to; i++) covered.push(i)
    }
    expect(covered).toEqual(Array.from({ length: n }, (_, i) => i))
  }
})
