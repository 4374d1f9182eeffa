// Links made from the Host a request sent (no PUBLIC_BASE_URL) reach no other Host's visitors: those
// answers and pages stay public and vary by Host; with PUBLIC_BASE_URL, by no Host.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createApp } from '../src/server/app'
import { appOn, type Fixture, makeFixture, send } from './public/fixture'

let f: Fixture
beforeAll(async () => {
  f = await makeFixture()
})
afterAll(() => f.env.close())

const BASE = 'https://stores.example.com'

/** The app on the fixture's store, with PUBLIC_BASE_URL when `base`, its Query API's fast path on or off. */
const app = (base: string | null, fast = true) =>
  base === null ? appOn(f.env, { publicFastPath: fast }) : appOn(f.env, { publicBaseUrl: base, publicFastPath: fast })

const forged = (path: string) => `http://evil.example${path}`

/** Whether a response's Vary names Host, among its other names. */
const byHost = (res: { headers: Headers }) =>
  (res.headers.get('vary') ?? '').split(/\s*,\s*/).some((name) => name.toLowerCase() === 'host')

describe('the Query API', () => {
  for (const fast of [true, false]) {
    test(`without PUBLIC_BASE_URL, answers whose links follow the Host are public and vary by it, kept or made, and their 304s (fast path ${fast ? 'on' : 'off'})`, async () => {
      const on = app(null, fast)
      const url = forged(`/public/v1/${f.token}/locations?all=true&limit=2`)
      for (let i = 0; i < 2; i++) {
        const res = await send(on, url)
        expect(res.status).toBe(200)
        expect(res.body.data.pagination.next).toStartWith('http://evil.example/public/v1/')
        expect([res.headers.get('cache-control'), res.headers.get('vary')]).toEqual([
          'public, max-age=60',
          'Origin, Host',
        ])
      }
      const again = await send(on, url, { headers: { 'if-none-match': (await send(on, url)).headers.get('etag')! } })
      expect([again.status, again.headers.get('cache-control'), byHost(again)]).toEqual([
        304,
        'public, max-age=60',
        true,
      ])
      const filters = await send(on, forged(`/public/v1/${f.token}/filters`))
      expect([filters.headers.get('cache-control'), byHost(filters)]).toEqual(['public, max-age=60', true])
    })

    test(`with PUBLIC_BASE_URL, they are public and their links name it, whatever the Host (fast path ${fast ? 'on' : 'off'})`, async () => {
      const on = app(BASE, fast)
      for (let i = 0; i < 2; i++) {
        const res = await send(on, forged(`/public/v1/${f.token}/locations?all=true&limit=2`))
        expect(res.body.data.pagination.next).toStartWith(`${BASE}/public/v1/`)
        expect([res.headers.get('cache-control'), res.headers.get('vary')]).toEqual(['public, max-age=60', 'Origin'])
      }
      const filters = await send(on, forged(`/public/v1/${f.token}/filters`))
      expect([filters.headers.get('cache-control'), byHost(filters)]).toEqual(['public, max-age=60', false])
    })
  }
})

describe('the pages', () => {
  const pages = () => {
    const id = f.locs.find((l) => l.published)!.id
    return [
      `/l/${f.token}`,
      `/l/${f.token}/${id}/x`, // a 301 to the page's canonical slug
      `/l/${f.token}/${id}`,
      `/l/${f.token}/stores`,
      `/l/${f.token}/stores/FR`, // a 301 to the country's canonical slug
      `/l/${f.token}/sitemap.xml`,
      '/sitemap.xml',
      '/robots.txt',
    ]
  }
  const cacheOf = async (on: ReturnType<typeof app>, path: string, headers: Record<string, string> = {}) => {
    const res = await on.handle(new Request(forged(path), { headers, redirect: 'manual' }))
    const location = res.headers.get('location')
    const body = await res.text()
    return {
      path,
      status: res.status,
      cache: res.headers.get('cache-control'),
      host: byHost(res),
      evil: (location ?? body).includes('evil.example'),
      etag: res.headers.get('etag'),
    }
  }

  test('without PUBLIC_BASE_URL, pages, redirects, sitemaps and robots.txt name the Host sent, are public and vary by it', async () => {
    const on = app(null)
    for (const path of pages()) {
      const seen = await cacheOf(on, path)
      expect({ path, cache: seen.cache, host: seen.host }).toEqual({
        path,
        cache: expect.stringMatching(/^public, max-age=\d+$/),
        host: true,
      })
      // Each names the Host sent (a directory page links relative to itself only: none here).
      if (!path.endsWith('/stores')) expect({ path, evil: seen.evil }).toEqual({ path, evil: true })
      if (seen.etag !== null) {
        const cached = await cacheOf(on, path, { 'if-none-match': seen.etag })
        expect({ path, status: cached.status, cache: cached.cache, host: cached.host }).toEqual({
          path,
          status: 304,
          cache: seen.cache,
          host: true,
        })
      }
    }
  })

  test("without PUBLIC_BASE_URL, what the service keeps (the directory, sitemap bodies) carries no Host to another's request", async () => {
    const on = app(null)
    const good = 'http://stores.example.com'
    const paths = [...pages(), `/l/${f.token}/stores/fr`, `/l/${f.token}/stores/fr/paris`]
    for (const path of paths) {
      const evil = await on.handle(new Request(forged(path), { redirect: 'manual' }))
      await evil.text()
      // The same page next, from the true Host: made again or from what was kept, it names that Host.
      const tags: Record<string, string>[] = [{}, { 'if-none-match': evil.headers.get('etag') ?? '' }]
      for (const headers of tags) {
        const res = await on.handle(new Request(good + path, { headers, redirect: 'manual' }))
        const text = `${res.headers.get('location') ?? ''} ${await res.text()}`
        expect({ path, status: res.status, evil: text.includes('evil.example') }).toEqual({
          path,
          status: res.status === 301 ? 301 : 200, // never a 304 for the copy made on the forged Host
          evil: false,
        })
        expect({ path, good: text.includes(good) }).toEqual({ path, good: true })
      }
    }
  })

  test('with PUBLIC_BASE_URL, the same are public, name no Host sent and do not vary by it', async () => {
    const on = createApp({
      store: f.env.store,
      geocoder: f.env.geocoder,
      config: { maxBodyBytes: 256 * 1024, logRequests: false, publicBaseUrl: BASE },
      log: () => {},
    })
    for (const path of pages()) {
      const seen = await cacheOf(on, path)
      expect(seen).toMatchObject({
        path,
        cache: expect.stringMatching(/^public, max-age=\d+$/),
        host: false,
        evil: false,
      })
    }
  })
})

test('without PUBLIC_BASE_URL, the first request through a proxy logs one warning saying what to set', async () => {
  const warnings = async (base: string | null) => {
    const lines: Record<string, unknown>[] = []
    const on = createApp({
      store: f.env.store,
      geocoder: f.env.geocoder,
      config: { maxBodyBytes: 256 * 1024, logRequests: false, ...(base ? { publicBaseUrl: base } : {}) },
      log: (line) => lines.push(line),
    })
    await on.handle(new Request('http://localhost/healthz'))
    const before = lines.length
    for (const header of ['x-forwarded-proto', 'via'])
      await on.handle(new Request('http://localhost/healthz', { headers: { [header]: 'https' } }))
    return { before, lines: lines.filter((l) => l.level === 'warn') }
  }
  const unset = await warnings(null)
  expect(unset.before).toBe(0)
  expect(unset.lines).toEqual([
    {
      level: 'warn',
      message: expect.stringMatching(
        /^A request came through a proxy \(it sent x-forwarded-proto\) while PUBLIC_BASE_URL is unset: .*Vary: Host.* Set PUBLIC_BASE_URL to/,
      ),
    },
  ])
  expect((await warnings(BASE)).lines).toEqual([])
})
