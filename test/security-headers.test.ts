// The headers every answer carries for a browser's and a cache's sake: nosniff on all of them
// (JSON, CSV, XML, HTML, errors), and no-store on the Management API's, which hold drafts and
// contact details; the Query API's answers stay cacheable.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { slugOf } from '../src/core/slug'
import { type AnyApp, appOn, type Fixture, makeFixture } from './public/fixture'

let f: Fixture
beforeAll(async () => {
  f = await makeFixture()
})
afterAll(() => f.env.close())

const headersOf = async (path: string, headers: Record<string, string> = {}) => {
  const res = await f.env.app.handle(new Request(`http://localhost${path}`, { headers }))
  await res.arrayBuffer()
  return {
    status: res.status,
    nosniff: res.headers.get('x-content-type-options'),
    cache: res.headers.get('cache-control'),
  }
}

test('Management API answers and errors: nosniff, and no cache keeps them', async () => {
  const auth = { authorization: `Bearer ${f.env.key}` }
  for (const [path, headers, status] of [
    ['/admin/v1/locations', auth, 200],
    [`/admin/v1/locations/${f.ids.velo}`, auth, 200],
    ['/admin/v1/locations/export?format=csv', auth, 200],
    ['/admin/v1/custom_fields', auth, 200],
    ['/admin/v1/locator', auth, 200],
    ['/admin/v1/locations', {}, 401],
    ['/admin/v1/locations/loc_nobody', auth, 404],
    ['/admin/v1/nowhere', auth, 404],
  ] as const)
    expect({ path, ...(await headersOf(path, headers)) }).toEqual({
      path,
      status,
      nosniff: 'nosniff',
      cache: 'no-store',
    })
})

test('Query API answers (kept or made), its errors, pages, the sitemap and the documents: nosniff', async () => {
  const pub = `/public/v1/${f.token}`
  const paths = [
    `${pub}/locations?all=true`,
    `${pub}/locations?all=true`, // the second from the answer cache
    `${pub}/locations/${f.ids.velo}`,
    `${pub}/filters`,
    `${pub}/locations?lat=91&lng=0`,
    '/public/v1/pk_nobody/locations?all=true',
    `/l/${f.token}/sitemap.xml`,
    `/l/${f.token}`,
    '/openapi.json',
    '/docs',
    '/healthz',
    '/nowhere',
  ]
  for (const path of paths)
    expect({ path, nosniff: (await headersOf(path)).nosniff }).toEqual({ path, nosniff: 'nosniff' })
  expect((await headersOf(`${pub}/locations?all=true`)).cache).toStartWith('public, max-age=')
  // An error outside the APIs is no cache's to keep either.
  expect((await headersOf('/nowhere')).cache).toBe('no-store')
})

test('Query API JSON answers (made, kept, 304, errors) say noindex; pages to index and widget.js do not', async () => {
  const pub = `/public/v1/${f.token}`
  const robotsOf = async (app: AnyApp, path: string, headers: Record<string, string> = {}) => {
    const res = await app.handle(new Request(`http://localhost${path}`, { headers }))
    await res.arrayBuffer()
    return { path, status: res.status, robots: res.headers.get('x-robots-tag'), etag: res.headers.get('etag') }
  }
  const answers = [
    `${pub}/locations?all=true`,
    `${pub}/locations?all=true`, // kept, on the fast path
    `${pub}/locations/${f.ids.velo}`,
    `${pub}/filters`,
    `${pub}/places?q=Par`,
    `${pub}/locations?lat=91&lng=0`,
    '/public/v1/pk_nobody/locations?all=true',
    `${pub}/nowhere`,
  ]
  for (const app of [f.env.app, appOn(f.env), appOn(f.env, { publicFastPath: false })])
    for (const path of answers) expect(await robotsOf(app, path)).toMatchObject({ path, robots: 'noindex' })
  const { etag } = await robotsOf(f.env.app, `${pub}/locations?all=true`)
  expect(await robotsOf(f.env.app, `${pub}/locations?all=true`, { 'if-none-match': etag! })).toMatchObject({
    status: 304,
    robots: 'noindex',
  })
  const slug = encodeURIComponent(slugOf(f.locs.find((l) => l.id === f.ids.velo)!.name))
  for (const path of [
    `/l/${f.token}`,
    `/l/${f.token}/${f.ids.velo}/${slug}`,
    '/widget.js',
    `/l/${f.token}/sitemap.xml`,
  ])
    expect(await robotsOf(f.env.app, path)).toMatchObject({ path, status: 200, robots: null })
})
