// The Management API's requests of openapi-answers.test.ts, in the order they are sent: each
// with the status it must get.
import { newSecretKey } from '../src/core/ids'
import { type Case, other } from './openapi-answer-cases'
import { storeBody } from './helpers'
import { BASE, f } from './openapi-fixture'

export const adminRequest = (
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

const LOCATIONS = 'GET /admin/v1/locations'
const CREATE = 'POST /admin/v1/locations'
const ONE = 'GET /admin/v1/locations/{id}'
const UPDATE = 'POST /admin/v1/locations/{id}'
const DELETE = 'POST /admin/v1/locations/{id}/delete'
const FIELDS = 'GET /admin/v1/custom_fields'
const LOCATOR = 'GET /admin/v1/locator'
const BULK = 'POST /admin/v1/locations/bulk'
const EXPORT = 'GET /admin/v1/locations/export'
const BULK_BODY = {
  locations: [
    storeBody({ external_id: 'OA-1' }),
    { external_id: 'OA-2', name: 'Geocoded', address: '10 Downing Street, London SW1A 2AA' },
  ],
}
/** Delete items: by external_id (a location the case makes), and by an id no location has. */
const BULK_DELETES = {
  locations: [
    { external_id: 'OA-DEL', delete: true },
    { id: 'loc_0000000000000000', delete: true },
  ],
}
/** Items as an export's rows give them, a null beside the other name: the server reads null as left out. */
const BULK_NULLS = {
  locations: [
    { id: 'loc_0000000000000001', external_id: null, delete: true },
    { id: null, external_id: 'OA-NULL', delete: true },
    storeBody({ id: null, external_id: 'OA-NULL-NEW' }),
  ],
}
/** A delete item with its condition, naming no location: absent, whatever the condition. */
const BULK_IF = { locations: [{ id: 'loc_0000000000000002', delete: true, if_updated_at: '2026-12-02T02:27:31.441Z' }] }
/** A delete item whose condition another write broke: its id and updated_at are the location's the case makes. */
const BULK_IF_CHANGED = { locations: [{ id: '', delete: true, if_updated_at: '' }] }

export const ADMIN_CASES: Case[] = [
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
  {
    name: 'the drafts, their status in capitals',
    op: LOCATIONS,
    status: 200,
    request: () => adminRequest('GET', '/admin/v1/locations?status=DRAFT'),
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
    name: 'delete items, one naming no location',
    op: BULK,
    status: 200,
    sent: BULK_DELETES,
    request: async () => {
      await f.env.call('POST', '/admin/v1/locations', { body: storeBody({ external_id: 'OA-DEL' }) })
      return adminRequest('POST', '/admin/v1/locations/bulk', { body: BULK_DELETES })
    },
  },
  {
    name: 'delete items and a create, with id or external_id null',
    op: BULK,
    status: 200,
    sent: BULK_NULLS,
    request: () => adminRequest('POST', '/admin/v1/locations/bulk', { body: BULK_NULLS }),
  },
  {
    name: 'a delete item with if_updated_at, naming no location',
    op: BULK,
    status: 200,
    sent: BULK_IF,
    request: () => adminRequest('POST', '/admin/v1/locations/bulk', { body: BULK_IF }),
  },
  {
    name: 'a delete item whose location another write changed since its if_updated_at',
    op: BULK,
    status: 412,
    sent: BULK_IF_CHANGED,
    request: async () => {
      const made = await f.env.call('POST', '/admin/v1/locations', { body: storeBody({ external_id: 'OA-IF' }) })
      const { id, updated_at } = made.body.location
      await Bun.sleep(3)
      await f.env.call('POST', `/admin/v1/locations/${id}`, { body: { name: 'Edited meanwhile' } })
      Object.assign(BULK_IF_CHANGED.locations[0]!, { id, if_updated_at: updated_at })
      return adminRequest('POST', '/admin/v1/locations/bulk', { body: BULK_IF_CHANGED })
    },
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
    name: 'a CSV dry run, its flags in capitals',
    op: BULK,
    status: 200,
    request: () =>
      adminRequest('POST', '/admin/v1/locations/bulk?dry_run=TRUE&delete_missing=False', {
        raw: 'Store Code,Name,Address,Lat,Lng\nOA-5,Five,"5 Main St",1,2\n',
        type: 'text/csv',
      }),
  },
  {
    name: 'as CSV, its format, status and flag in capitals',
    op: EXPORT,
    status: 200,
    request: () => adminRequest('GET', '/admin/v1/locations/export?format=CSV&status=Draft&bom=FALSE'),
  },
  {
    name: 'as CSV, asked for by the Accept header',
    op: EXPORT,
    status: 200,
    request: () => adminRequest('GET', '/admin/v1/locations/export', { headers: { accept: 'text/csv' } }),
  },
  {
    name: 'as CSV, format and flag spaced (trimmed), status empty (both)',
    op: EXPORT,
    status: 200,
    request: () => adminRequest('GET', '/admin/v1/locations/export?format=%20csv%20&bom=%201&status='),
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
  { name: "the key's locator", op: LOCATOR, status: 200, request: () => adminRequest('GET', '/admin/v1/locator') },
  {
    name: "the key's locator, a parameter it does not take",
    op: LOCATOR,
    status: 400,
    request: () => adminRequest('GET', '/admin/v1/locator?id=lct_0000000000000000'),
  },
  { name: 'custom fields', op: FIELDS, status: 200, request: () => adminRequest('GET', '/admin/v1/custom_fields') },
  {
    name: 'custom fields, a parameter it does not take',
    op: FIELDS,
    status: 400,
    request: () => adminRequest('GET', '/admin/v1/custom_fields?sort=name'),
  },
]
