// The Query API's requests of openapi-answers.test.ts, and the probes', in the order they are
// sent: each with the status it must get.
import { type Case, other } from './openapi-answer-cases'
import { FAKE_SECRET } from './public/fixture'
import { BASE, f } from './openapi-fixture'

const pub = (token: string, path: string, headers: Record<string, string> = {}) =>
  new Request(`${BASE}/public/v1/${token}${path}`, { headers })
/** A public request, with If-None-Match set to the ETag a first request got. */
async function revalidating(token: string, path: string): Promise<Request> {
  const first = await f.env.app.handle(pub(token, path))
  return pub(token, path, { 'if-none-match': first.headers.get('etag')! })
}

const QUERY = 'GET /public/v1/{token}/locations'
const CLUSTERS = 'GET /public/v1/{token}/clusters'
const LEAVES = 'GET /public/v1/{token}/clusters/{id}/leaves'
const PUBLIC_ONE = 'GET /public/v1/{token}/locations/{id}'
const PLACES = 'GET /public/v1/{token}/places'
const FILTERS = 'GET /public/v1/{token}/filters'
const NEAR = 'lat=48.8566&lng=2.3522'

export const PUBLIC_CASES: Case[] = [
  {
    name: 'radius mode',
    op: QUERY,
    status: 200,
    request: () => pub(f.token, `/locations?${NEAR}&radius=20&unit=km&limit=3&offset=1&tags[]=repair`),
  },
  {
    name: 'all mode',
    op: QUERY,
    status: 200,
    request: () => pub(f.token, '/locations?all=true&limit=2&offset=2&sort=priority'),
  },
  {
    name: 'all mode, its flags with spaces: a space alone is false',
    op: QUERY,
    status: 200,
    request: () => pub(f.token, '/locations?all=%20TRUE%20&open_now=%20&limit=2'),
  },
  {
    name: 'near a place typed',
    op: QUERY,
    status: 200,
    request: () => pub(f.token, '/locations?near=Paris&radius=5&unit=km&limit=2'),
  },
  { name: 'near no place', op: QUERY, status: 400, request: () => pub(f.token, '/locations?near=Nowherington') },
  {
    name: 'bbox mode',
    op: QUERY,
    status: 200,
    request: () => pub(f.token, '/locations?bbox=2.2,48.8,2.5,48.95&sort=name&limit=3&offset=1&unit=km'),
  },
  { name: 'bbox upside down', op: QUERY, status: 400, request: () => pub(f.token, '/locations?bbox=2,49,3,48') },
  {
    name: 'clusters',
    op: CLUSTERS,
    status: 200,
    request: () => pub(f.token, '/clusters?bbox=-180,-90,180,90&zoom=4&tags[]=repair'),
  },
  {
    name: 'clusters, no zoom',
    op: CLUSTERS,
    status: 400,
    request: () => pub(f.token, '/clusters?bbox=1,2,3,4'),
  },
  {
    name: 'cluster leaves',
    op: LEAVES,
    status: 200,
    request: async () => {
      const res = await f.env.app.handle(pub(f.token, '/clusters?bbox=-180,-90,180,90&zoom=2'))
      const { data } = (await res.json()) as { data: { clusters: { id: string }[] } }
      return pub(f.token, `/clusters/${data.clusters[0]!.id}/leaves?limit=2&offset=1`)
    },
  },
  {
    name: 'cluster unknown',
    op: LEAVES,
    status: 404,
    request: () => pub(f.token, '/clusters/3-loc_nobody/leaves'),
  },
  { name: 'places typed', op: PLACES, status: 200, request: () => pub(f.token, '/places?q=Lond&limit=3') },
  { name: 'places, no text', op: PLACES, status: 400, request: () => pub(f.token, '/places?q=') },
  { name: 'not modified', op: QUERY, status: 304, request: () => revalidating(f.token, `/locations?${NEAR}`) },
  { name: 'no centre', op: QUERY, status: 400, request: () => pub(f.token, '/locations?lat=48.8') },
  { name: 'no lat', op: QUERY, status: 400, request: () => pub(f.token, '/locations?lng=2.35') },
  { name: 'all by distance', op: QUERY, status: 400, request: () => pub(f.token, '/locations?all=true&sort=distance') },
  { name: 'lat 95', op: QUERY, status: 400, request: () => pub(f.token, '/locations?lat=95&lng=0') },
  { name: 'limit 0', op: QUERY, status: 400, request: () => pub(f.token, `/locations?${NEAR}&limit=0`) },
  {
    name: 'a secret key',
    op: QUERY,
    status: 400,
    request: () => pub(f.token, `/locations?${NEAR}&key=${FAKE_SECRET}`),
  },
  {
    name: 'an unknown token',
    op: QUERY,
    status: 404,
    request: () => pub('pk_AAAAAAAAAAAAAAAAAAAAAAAA', '/locations?all=true'),
  },
  { name: 'the Query API off', op: FILTERS, status: 403, request: () => pub(other.off, '/filters') },
  {
    name: 'a site off the allowlist',
    op: PUBLIC_ONE,
    status: 403,
    request: () => pub(other.picky, `/locations/${f.ids.velo}`, { origin: 'https://other.example' }),
  },
  {
    name: 'over the rate limit',
    op: QUERY,
    status: 429,
    request: async () => {
      await f.env.app.handle(pub(other.tight, '/locations?all=true'))
      return pub(other.tight, '/locations?all=true')
    },
  },
  { name: 'one location', op: PUBLIC_ONE, status: 200, request: () => pub(f.token, `/locations/${f.ids.velo}`) },
  {
    name: 'one location, geocoded: its address parts',
    op: PUBLIC_ONE,
    status: 200,
    request: () => pub(f.token, `/locations/${f.ids.london}`),
  },
  {
    name: 'one location, not modified',
    op: PUBLIC_ONE,
    status: 304,
    request: () => revalidating(f.token, `/locations/${f.ids.velo}`),
  },
  { name: 'a draft', op: PUBLIC_ONE, status: 404, request: () => pub(f.token, `/locations/${f.ids.hidden}`) },
  { name: 'filters', op: FILTERS, status: 200, request: () => pub(f.token, '/filters') },
  { name: 'health', op: 'GET /healthz', status: 200, request: () => new Request(`${BASE}/healthz`) },
  { name: 'readiness', op: 'GET /readyz', status: 200, request: () => new Request(`${BASE}/readyz`) },
]
