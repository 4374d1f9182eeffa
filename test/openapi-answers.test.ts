// Real requests against GET /openapi.json: a table of them, one or more per operation, each answer's
// status documented for its operation and its body valid against the schema documented for that status
// (ajv, JSON Schema 2020-12). An operation the table never exercises fails the last test. Each error
// example's message is one a real answer of its code gave, ids, times and quoted text aside.
import { beforeAll, describe, expect, test } from 'bun:test'
import { newSecretKey } from '../src/core/ids'
import type { PlaceSource } from '../src/geocode/embedded/place-source'
import { createLocator, setLocatorSettings } from '../src/operator'
import { makeEnv, storeBody } from './helpers'
import { FAKE_SECRET, send } from './public/fixture'
import { BASE, deref, doc, expectValid, f, type Json, operations, useOpenApiDocument } from './openapi-fixture'

useOpenApiDocument()

/** A real request, the operation it is for, and the status it must get. `sent`: its JSON body. */
type Case = { name: string; op: string; status: number; request: () => Request | Promise<Request>; sent?: unknown }

const exercised = new Set<string>()
const succeeded = new Set<string>()

/** An error's status and code (the Management API's own word for it): its example's and its answers'. */
const errorOf = (status: number, v: Json) => `${status} ${typeof v.error === 'string' ? v.error : v.error.code}`
const messageOf = (v: Json): string => (typeof v.error === 'string' ? v.message : v.error.message)
/** The error bodies real answers gave, by errorOf. */
const said = new Map<string, Json[]>()
const heard = (status: number, body: Json) =>
  said.set(errorOf(status, body), [...(said.get(errorOf(status, body)) ?? []), body])
/** A message with what differs from one request to the next made alike: quoted text, ids, times, the database's file. */
const shape = (message: string) =>
  message
    .replaceAll(/"[^"]*"/g, '"..."')
    .replaceAll(/\b(loc|lct|pk)_[0-9a-z]+/gi, '$1_...')
    .replaceAll(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME')
    .replaceAll(/\S+\.db\b/g, 'FILE')

let other: { off: string; picky: string; tight: string; switchedOffKey: string; doomed: string; updated: string }

const adminRequest = (
  method: string,
  path: string,
  opts: { body?: unknown; raw?: string; key?: string | null; type?: string; headers?: Record<string, string> } = {},
) => {
  const headers: Record<string, string> = { ...opts.headers }
  const key = opts.key === undefined ? f.env.key : opts.key
  if (key !== null) headers.authorization = `Bearer ${key}`
  let body: string | undefined = opts.raw
  if (opts.body !== undefined) body = JSON.stringify(opts.body)
  if (body !== undefined) headers['content-type'] = opts.type ?? 'application/json'
  return new Request(`${BASE}${path}`, { method, headers, body })
}
const pub = (token: string, path: string, headers: Record<string, string> = {}) =>
  new Request(`${BASE}/public/v1/${token}${path}`, { headers })
/** A public request, with If-None-Match set to the ETag a first request got. */
async function revalidating(token: string, path: string): Promise<Request> {
  const first = await f.env.app.handle(pub(token, path))
  return pub(token, path, { 'if-none-match': first.headers.get('etag')! })
}

const LOCATIONS = 'GET /admin/v1/locations'
const CREATE = 'POST /admin/v1/locations'
const ONE = 'GET /admin/v1/locations/{id}'
const UPDATE = 'POST /admin/v1/locations/{id}'
const DELETE = 'POST /admin/v1/locations/{id}/delete'
const FIELDS = 'GET /admin/v1/custom_fields'
const BULK = 'POST /admin/v1/locations/bulk'
const EXPORT = 'GET /admin/v1/locations/export'
const BULK_BODY = {
  locations: [
    storeBody({ external_id: 'OA-1' }),
    { external_id: 'OA-2', name: 'Geocoded', address: '10 Downing Street, London SW1A 2AA' },
  ],
}
const QUERY = 'GET /public/v1/{token}/locations'
const CLUSTERS = 'GET /public/v1/{token}/clusters'
const LEAVES = 'GET /public/v1/{token}/clusters/{id}/leaves'
const PUBLIC_ONE = 'GET /public/v1/{token}/locations/{id}'
const PLACES = 'GET /public/v1/{token}/places'
const FILTERS = 'GET /public/v1/{token}/filters'
const NEAR = 'lat=48.8566&lng=2.3522'
/** The headers of the transport and the browser, which no operation declares. */
const UNDECLARED = /^(content-type|content-length|x-content-type-options|access-control-[a-z-]+)$/

const CASES: Case[] = [
  {
    name: 'a page of locations',
    op: LOCATIONS,
    status: 200,
    request: () => adminRequest('GET', '/admin/v1/locations?limit=2&status=published'),
  },
  {
    name: 'the drafts, by a word that means draft',
    op: LOCATIONS,
    status: 200,
    request: () => adminRequest('GET', '/admin/v1/locations?status=hidden'),
  },
  { name: 'as JSON', op: EXPORT, status: 200, request: () => adminRequest('GET', '/admin/v1/locations/export') },
  {
    name: 'the drafts, by another word that means draft',
    op: EXPORT,
    status: 200,
    request: () => adminRequest('GET', '/admin/v1/locations/export?status=unpublished'),
  },
  {
    name: 'as CSV',
    op: EXPORT,
    status: 200,
    request: () => adminRequest('GET', '/admin/v1/locations/export?format=csv&status=draft'),
  },
  {
    name: 'an unknown format',
    op: EXPORT,
    status: 400,
    request: () => adminRequest('GET', '/admin/v1/locations/export?format=xml'),
  },
  {
    name: 'one by its external id',
    op: LOCATIONS,
    status: 200,
    request: () => adminRequest('GET', '/admin/v1/locations?external_id=OA-1'),
  },
  {
    name: 'the last page',
    op: LOCATIONS,
    status: 200,
    request: () => adminRequest('GET', '/admin/v1/locations?page=4&limit=10'),
  },
  {
    name: 'limit over 500',
    op: LOCATIONS,
    status: 400,
    request: () => adminRequest('GET', '/admin/v1/locations?limit=1000'),
  },
  { name: 'page 0', op: LOCATIONS, status: 400, request: () => adminRequest('GET', '/admin/v1/locations?page=0') },
  {
    name: 'no key',
    op: LOCATIONS,
    status: 401,
    request: () => adminRequest('GET', '/admin/v1/locations', { key: null }),
  },
  {
    name: 'an unknown key',
    op: LOCATIONS,
    status: 401,
    request: () => adminRequest('GET', '/admin/v1/locations', { key: newSecretKey() }),
  },
  {
    name: "a switched-off locator's key",
    op: FIELDS,
    status: 401,
    request: () => adminRequest('GET', '/admin/v1/custom_fields', { key: other.switchedOffKey }),
  },
  {
    name: 'create',
    op: CREATE,
    status: 201,
    sent: storeBody({ tags: ['Repair'], hours: { monday: '09:00-18:00' } }),
    request: () =>
      adminRequest('POST', '/admin/v1/locations', {
        body: storeBody({ tags: ['Repair'], hours: { monday: '09:00-18:00' } }),
      }),
  },
  {
    name: 'create, geocoded',
    op: CREATE,
    status: 201,
    sent: { name: 'Geocoded', address: '10 Downing Street, London SW1A 2AA' },
    request: () =>
      adminRequest('POST', '/admin/v1/locations', {
        body: { name: 'Geocoded', address: '10 Downing Street, London SW1A 2AA' },
      }),
  },
  {
    name: 'create, invalid fields',
    op: CREATE,
    status: 422,
    request: () =>
      adminRequest('POST', '/admin/v1/locations', {
        body: { name: '', address: 'x', coordinates: { lat: 95, lng: 0 }, contact: { website: 'shop.example' } },
      }),
  },
  {
    name: 'create, an address nowhere',
    op: CREATE,
    status: 422,
    request: () => adminRequest('POST', '/admin/v1/locations', { body: { name: 'Lost', address: 'Nowhere at all' } }),
  },
  {
    name: 'create, an external id another location has',
    op: CREATE,
    status: 409,
    request: async () => {
      await f.env.call('POST', '/admin/v1/locations', { body: storeBody({ external_id: 'OA-TAKEN' }) })
      return adminRequest('POST', '/admin/v1/locations', { body: storeBody({ external_id: 'OA-TAKEN' }) })
    },
  },
  {
    name: 'create, replayed for its Idempotency-Key',
    op: CREATE,
    status: 201,
    request: async () => {
      const sent = { body: storeBody({ name: 'Keyed' }), headers: { 'idempotency-key': 'oa-replay' } }
      await f.env.app.handle(adminRequest('POST', '/admin/v1/locations', sent))
      return adminRequest('POST', '/admin/v1/locations', sent)
    },
  },
  {
    name: 'create, an Idempotency-Key used with another body',
    op: CREATE,
    status: 422,
    request: async () => {
      const headers = { 'idempotency-key': 'oa-reused' }
      await f.env.app.handle(adminRequest('POST', '/admin/v1/locations', { body: storeBody(), headers }))
      return adminRequest('POST', '/admin/v1/locations', { body: storeBody({ name: 'Other' }), headers })
    },
  },
  {
    name: 'a dry run',
    op: BULK,
    status: 200,
    sent: { ...BULK_BODY, dry_run: true, delete_missing: true },
    // Another location with an external id stays (one the request names): delete_missing may not delete them all.
    request: async () => {
      await f.env.call('POST', '/admin/v1/locations', { body: storeBody({ external_id: 'OA-KEPT' }) })
      const body = { ...BULK_BODY, locations: [...BULK_BODY.locations, { external_id: 'OA-KEPT' }] }
      return adminRequest('POST', '/admin/v1/locations/bulk', {
        body: { ...body, dry_run: true, delete_missing: true },
      })
    },
  },
  {
    name: 'an upsert',
    op: BULK,
    status: 200,
    sent: BULK_BODY,
    request: () => adminRequest('POST', '/admin/v1/locations/bulk', { body: BULK_BODY }),
  },
  {
    name: 'a CSV upsert',
    op: BULK,
    status: 200,
    request: () =>
      adminRequest('POST', '/admin/v1/locations/bulk?dry_run=true', {
        raw: 'Store Code,Name,Address,Lat,Lng,Colour\nOA-3,Three,"3 Main St",1,2,red\n',
        type: 'text/csv',
      }),
  },
  {
    name: 'a CSV dry run, its flag written 1',
    op: BULK,
    status: 200,
    request: () =>
      adminRequest('POST', '/admin/v1/locations/bulk?dry_run=1&delete_missing=0', {
        raw: 'Store Code,Name,Address,Lat,Lng\nOA-4,Four,"4 Main St",1,2\n',
        type: 'text/csv',
      }),
  },
  {
    name: 'as CSV, no byte order mark, its flag written 0',
    op: EXPORT,
    status: 200,
    request: () => adminRequest('GET', '/admin/v1/locations/export?format=csv&bom=0'),
  },
  {
    name: 'more to delete than max_delete',
    op: BULK,
    status: 422,
    sent: { ...BULK_BODY, delete_missing: true, max_delete: 0, dry_run: true },
    request: async () => {
      await f.env.call('POST', '/admin/v1/locations', { body: storeBody({ external_id: 'OA-GOING' }) })
      return adminRequest('POST', '/admin/v1/locations/bulk', {
        body: { ...BULK_BODY, delete_missing: true, max_delete: 0, dry_run: true },
      })
    },
  },
  {
    name: 'max_delete not a whole number',
    op: BULK,
    status: 400,
    request: () =>
      adminRequest('POST', '/admin/v1/locations/bulk?delete_missing=true&max_delete=many', { body: BULK_BODY }),
  },
  {
    name: 'an invalid item',
    op: BULK,
    status: 422,
    request: () => adminRequest('POST', '/admin/v1/locations/bulk', { body: { locations: [{ external_id: 'OA-9' }] } }),
  },
  {
    name: 'a CSV that cannot be read',
    op: BULK,
    status: 400,
    request: () => adminRequest('POST', '/admin/v1/locations/bulk', { raw: 'name\n"open', type: 'text/csv' }),
  },
  {
    name: 'create, malformed JSON',
    op: CREATE,
    status: 400,
    request: () => adminRequest('POST', '/admin/v1/locations', { raw: '{"name":' }),
  },
  {
    name: 'create, over 256 KiB',
    op: CREATE,
    status: 413,
    request: () => adminRequest('POST', '/admin/v1/locations', { raw: `{"name":"${'x'.repeat(300 * 1024)}"}` }),
  },
  { name: 'read one', op: ONE, status: 200, request: () => adminRequest('GET', `/admin/v1/locations/${f.ids.hidden}`) },
  {
    name: 'read an unknown id',
    op: ONE,
    status: 404,
    request: () => adminRequest('GET', '/admin/v1/locations/loc_0000000000000000'),
  },
  {
    name: 'update',
    op: UPDATE,
    status: 200,
    sent: { status: 'draft', contact: { phone: '' } },
    request: () =>
      adminRequest('POST', `/admin/v1/locations/${other.updated}`, {
        body: { status: 'draft', contact: { phone: '' } },
      }),
  },
  {
    name: 'update with no fields',
    op: UPDATE,
    status: 400,
    request: () => adminRequest('POST', `/admin/v1/locations/${other.updated}`, { body: {} }),
  },
  {
    name: 'update, tags null',
    op: UPDATE,
    status: 422,
    request: () => adminRequest('POST', `/admin/v1/locations/${other.updated}`, { body: { tags: null } }),
  },
  {
    name: 'update an unknown id',
    op: UPDATE,
    status: 404,
    request: () => adminRequest('POST', '/admin/v1/locations/loc_0000000000000000', { body: { name: 'x' } }),
  },
  {
    name: 'delete',
    op: DELETE,
    status: 200,
    request: () => adminRequest('POST', `/admin/v1/locations/${other.doomed}/delete`),
  },
  {
    name: 'delete again',
    op: DELETE,
    status: 404,
    request: () => adminRequest('POST', `/admin/v1/locations/${other.doomed}/delete`),
  },
  {
    name: 'delete, an Idempotency-Key used for another location',
    op: DELETE,
    status: 422,
    request: async () => {
      const made = async () => (await f.env.call('POST', '/admin/v1/locations', { body: storeBody() })).body.location.id
      const headers = { 'idempotency-key': 'oa-delete-reused' }
      await f.env.app.handle(adminRequest('POST', `/admin/v1/locations/${await made()}/delete`, { headers }))
      return adminRequest('POST', `/admin/v1/locations/${await made()}/delete`, { headers })
    },
  },
  {
    name: 'delete, no id',
    op: DELETE,
    status: 400,
    request: () => adminRequest('POST', '/admin/v1/locations//delete'),
  },
  {
    name: 'delete, a body over 256 KiB',
    op: DELETE,
    status: 413,
    request: () =>
      adminRequest('POST', `/admin/v1/locations/${other.updated}/delete`, { raw: `"${'x'.repeat(300 * 1024)}"` }),
  },
  {
    name: 'update, an external id another location has',
    op: UPDATE,
    status: 409,
    request: async () => {
      await f.env.call('POST', '/admin/v1/locations', { body: storeBody({ external_id: 'OA-HELD' }) })
      return adminRequest('POST', `/admin/v1/locations/${other.updated}`, { body: { external_id: 'OA-HELD' } })
    },
  },
  {
    name: 'update, over 256 KiB',
    op: UPDATE,
    status: 413,
    request: () =>
      adminRequest('POST', `/admin/v1/locations/${other.updated}`, { raw: `{"name":"${'x'.repeat(300 * 1024)}"}` }),
  },
  {
    name: 'read, an id not percent-encoded UTF-8',
    op: ONE,
    status: 400,
    request: () => adminRequest('GET', '/admin/v1/locations/%zz'),
  },
  {
    name: 'create, no key',
    op: CREATE,
    status: 401,
    request: () => adminRequest('POST', '/admin/v1/locations', { body: storeBody(), key: null }),
  },
  {
    name: 'export, no key',
    op: EXPORT,
    status: 401,
    request: () => adminRequest('GET', '/admin/v1/locations/export', { key: null }),
  },
  {
    name: 'bulk, no key',
    op: BULK,
    status: 401,
    request: () => adminRequest('POST', '/admin/v1/locations/bulk', { body: BULK_BODY, key: null }),
  },
  {
    name: 'bulk, over 8 MiB',
    op: BULK,
    status: 413,
    request: () =>
      adminRequest('POST', '/admin/v1/locations/bulk', { raw: `{"locations":["${'x'.repeat(9 * 1024 * 1024)}"]}` }),
  },
  { name: 'custom fields', op: FIELDS, status: 200, request: () => adminRequest('GET', '/admin/v1/custom_fields') },
  {
    name: 'custom fields, a parameter it does not take',
    op: FIELDS,
    status: 400,
    request: () => adminRequest('GET', '/admin/v1/custom_fields?sort=name'),
  },
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

/**
 * Each query parameter of a request the API took is one its operation documents, its value valid
 * for the parameter's schema (a number where the schema has one): a script built from the document
 * may send what the API takes.
 */
function expectQueryDocumented(op: Json, url: URL, name: string) {
  const params = ((op.parameters ?? []) as Json[]).map(deref).filter((p) => p.in === 'query')
  const query = url.searchParams
  for (const key of new Set(query.keys())) {
    const param = params.find((p) => p.name === key)
    expect({ name, key, documented: param !== undefined }).toEqual({ name, key, documented: true })
    const { example: _, ...schema } = param!.schema // OpenAPI's keyword, not JSON Schema's
    const read = (value: string) =>
      ['integer', 'number'].includes(schema.items?.type ?? schema.type) && value.trim() !== '' ? Number(value) : value
    const values = query.getAll(key).map(read)
    expectValid(schema, schema.type === 'array' ? values : values[0], `${name}: ${key}=${query.getAll(key)}`)
  }
}

describe('real answers match the document', () => {
  beforeAll(async () => {
    const off = createLocator(f.env.store, 'Query API off')
    const picky = createLocator(f.env.store, 'Allowlist')
    setLocatorSettings(f.env.store, picky.locator.id, { queryApi: 'on', referrers: 'shop.example.com' })
    const tight = createLocator(f.env.store, 'One a minute')
    setLocatorSettings(f.env.store, tight.locator.id, { queryApi: 'on', rateLimit: '1' })
    const switchedOff = createLocator(f.env.store, 'Switched off')
    f.env.store.db.run('UPDATE locators SET active = 0 WHERE id = ?', [switchedOff.locator.id])
    const made = async () => (await f.env.call('POST', '/admin/v1/locations', { body: storeBody() })).body.location.id
    other = {
      off: off.locator.publicToken,
      picky: picky.locator.publicToken,
      tight: tight.locator.publicToken,
      switchedOffKey: switchedOff.secret,
      doomed: await made(),
      updated: await made(),
    }
  })

  for (const c of CASES) {
    test(`${c.op}: ${c.name} (${c.status})`, async () => {
      const [method, path] = c.op.split(' ') as [string, string]
      const op = doc.paths[path]?.[method.toLowerCase()]
      expect({ op: c.op, documented: op !== undefined }).toEqual({ op: c.op, documented: true })
      exercised.add(c.op)
      const sent = await c.request()
      const res = await f.env.app.handle(sent)
      const text = await res.text()
      expect({ status: res.status, text: res.status === c.status ? '' : text }).toEqual({ status: c.status, text: '' })
      const documented = op.responses[String(res.status)]
      expect({ op: c.op, status: res.status, documented: documented !== undefined }).toEqual({
        op: c.op,
        status: res.status,
        documented: true,
      })
      expect(res.headers.get('x-request-id')).toBeTruthy()
      const content = deref(documented).content
      const media = content?.['application/json']
      if (res.headers.get('content-type')?.startsWith('text/csv')) expect(content?.['text/csv']).toBeDefined()
      else if (media === undefined) expect(text).toBe('')
      else {
        expect(res.headers.get('content-type')).toStartWith('application/json')
        const body = JSON.parse(text)
        expectValid(media.schema, body, c.name)
        if (res.status >= 400) {
          // The code answered is one of the examples documented for this status.
          const codeOf = (v: Json) => (typeof v.error === 'string' ? v.error : v.error.code)
          const codes = Object.values(media.examples ?? {}).map((e) => codeOf(deref(e as Json).value))
          expect(codes).toContain(codeOf(body))
          heard(res.status, body)
        }
      }
      // A header sent is declared where it is sent, but those every answer of the service may
      // carry (its type and size, CORS, nosniff); a required one is sent.
      const declared = deref(documented).headers ?? {}
      const named = new Set(Object.keys(declared).map((name) => name.toLowerCase()))
      for (const name of res.headers.keys())
        if (!UNDECLARED.test(name)) expect({ name, declared: named.has(name) }).toEqual({ name, declared: true })
      for (const [name, header] of Object.entries(declared))
        if (deref(header as Json).required) expect({ name, sent: res.headers.has(name) }).toEqual({ name, sent: true })
      if (res.status < 300) {
        succeeded.add(c.op)
        expectQueryDocumented(op, new URL(sent.url), c.name)
        if (c.sent !== undefined)
          expectValid(op.requestBody.content['application/json'].schema, c.sent, `${c.name}: sent`)
      }
    })
  }

  test('a path that is no operation answers the error body of its API', async () => {
    const publicMiss = await send(f.env.app, `${BASE}/public/v1/${f.token}/stores`)
    expect(publicMiss.status).toBe(404)
    expectValid({ $ref: '#/components/schemas/PublicError' }, publicMiss.body, 'public NOT_FOUND')
    heard(publicMiss.status, publicMiss.body)
    const example = doc.components.examples['public.NOT_FOUND'].value.error
    expect(example.code).toBe(publicMiss.body.error.code)
    expect(example.message.replace(/pk_\w+/, f.token)).toBe(publicMiss.body.error.message)
    const adminMiss = await f.env.call('DELETE', `/admin/v1/locations/${f.ids.velo}`)
    expect(adminMiss.status).toBe(404)
    expectValid({ $ref: '#/components/schemas/AdminError' }, adminMiss.body, 'admin not_found')
    heard(adminMiss.status, adminMiss.body)
  })

  test('the 401 with error "error" in the document is the one a switched-off locator\'s key gets', async () => {
    const res = await send(f.env.app, `${BASE}/admin/v1/custom_fields`, {
      headers: { authorization: `Bearer ${other.switchedOffKey}` },
    })
    expect(res.status).toBe(401)
    const anyLocator = (message: string) => message.replaceAll(/lct_\w+/g, 'lct_...')
    const example = doc.components.examples['admin.no_locator'].value
    expect({ ...example, message: anyLocator(example.message) }).toEqual({
      ...res.body,
      message: anyLocator(res.body.message),
    })
  })

  test('errors no request of the table gets: no place data, a failure, a busy or damaged database, an answer not kept', async () => {
    const fail = (error: Error) => {
      const source = () => {
        throw error
      }
      return Object.assign(source, { warm: async () => false, reverse: source }) as PlaceSource
    }
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
    const failure = new Error('a failure the test made')
    const damage = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' })
    for (const [places, status] of [
      [undefined, 501],
      [fail(busy), 503],
      [fail(failure), 500],
    ] as const) {
      const env = makeEnv({ places })
      try {
        setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
        const token = env.store.locators.get(env.locatorId)!.publicToken
        const res = await env.call('GET', `/public/v1/${token}/places?q=Lond`, { key: null })
        expect(res.status).toBe(status)
        heard(res.status, res.body)
      } finally {
        env.close()
      }
    }
    const env = makeEnv()
    try {
      const bulk = () =>
        env.call('POST', '/admin/v1/locations/bulk', {
          body: { locations: [storeBody({ external_id: 'OA-BIG' })] },
          headers: { 'idempotency-key': 'a1b2' },
        })
      expect((await bulk()).status).toBe(200)
      env.store.db.run("UPDATE idempotency_keys SET body = 'not kept: 1468006' WHERE key = 'a1b2'")
      const again = await bulk()
      expect(again.status).toBe(410)
      heard(again.status, again.body)
      // A fault met reading the key: busy, unforeseen, a damaged file (last: a damaged store stays so).
      for (const [error, status] of [
        [busy, 503],
        [failure, 500],
        [damage, 503],
      ] as const) {
        env.store.keys.findBySecret = () => {
          throw error
        }
        const res = await env.call('GET', '/admin/v1/locations')
        expect(res.status).toBe(status)
        heard(res.status, res.body)
      }
    } finally {
      env.close()
    }
  })

  test("every error example's message is one a real answer of its code gave", () => {
    const unlike: Json[] = []
    for (const [key, example] of Object.entries(doc.components.examples as Record<string, Json>)) {
      const at = errorOf(Number.parseInt(example.summary, 10), example.value)
      const answers = said.get(at) ?? []
      const alike = answers.filter((body) => shape(messageOf(body)) === shape(messageOf(example.value)))
      if (alike.length === 0) unlike.push({ key, example: messageOf(example.value), said: answers.map(messageOf) })
      else if (example.value.details) expect(alike.map((body) => body.details)).toContainEqual(example.value.details)
    }
    expect(unlike).toEqual([])
  })

  test('every operation of the document was exercised, with a success among its answers', () => {
    const all = operations().map(({ path, method }) => `${method.toUpperCase()} ${path}`)
    expect(all.filter((o) => !exercised.has(o))).toEqual([])
    expect(all.filter((o) => !succeeded.has(o))).toEqual([])
  })
})
