// Every route of the Management API refuses a query parameter it does not take, as GET /locations
// does: a misspelt option would otherwise be dropped unseen. A cache-buster's "_" means nothing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openApiDocument } from '../../src/api/openapi/document'
import { makeEnv, storeBody, type TestEnv } from '../helpers'

let env: TestEnv
let id: string
beforeAll(async () => {
  env = makeEnv()
  id = (await env.call('POST', '/admin/v1/locations', { body: storeBody({ external_id: 'Q-1' }) })).body.location.id
})
afterAll(() => env.close())

const count = () => env.store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM changes').get()!.n

/** Each route with a request it takes, and what it takes besides. */
const ROUTES = (): [method: string, path: string, body: unknown, takes: string][] => [
  ['GET', '/admin/v1/locations', undefined, 'limit, page, status and external_id'],
  ['GET', '/admin/v1/locations/export', undefined, 'format, status, separator and bom'],
  ['GET', `/admin/v1/locations/${id}`, undefined, 'none'],
  ['GET', '/admin/v1/custom_fields', undefined, 'none'],
  ['GET', '/admin/v1/locator', undefined, 'none'],
  ['POST', '/admin/v1/locations', storeBody({ name: 'New' }), 'none'],
  ['POST', `/admin/v1/locations/${id}`, { name: 'Renamed' }, 'none'],
  [
    'POST',
    '/admin/v1/locations/bulk',
    { locations: [storeBody({ external_id: 'Q-1' })] },
    'dry_run, delete_missing and max_delete',
  ],
  ['POST', `/admin/v1/locations/${id}/delete`, undefined, 'none'],
]

describe('an unknown query parameter', () => {
  test('is 400 invalid_request on every route, naming what the route takes, and writes nothing', async () => {
    for (const [method, path, body, takes] of ROUTES()) {
      const before = count()
      const res = await env.call(method, `${path}?x=1`, { body })
      expect({ method, path, status: res.status, body: res.body }).toEqual({
        method,
        path,
        status: 400,
        body: {
          success: false,
          error: 'invalid_request',
          message: `The x parameter is unknown: this route takes ${takes}.`,
        },
      })
      expect(count()).toBe(before)
    }
  })

  test('one meant as a parameter the route takes is named', async () => {
    const res = await env.call('GET', '/admin/v1/locations/export?Format=csv')
    expect([res.status, res.body.message]).toEqual([
      400,
      'The Format parameter is unknown (did you mean format?): this route takes format, status, separator and bom.',
    ])
  })

  test('a parameter with no name, or with a space or control character in it, is shown as sent', async () => {
    const said = async (query: string) => (await env.call('GET', `/admin/v1/locations/${id}${query}`)).body.message
    expect([await said('?=x'), await said('?a+b=1'), await said('?%00=1')]).toEqual([
      'The query string has a parameter with no name ("=x"): this route takes none.',
      'The "a b" parameter is unknown: this route takes none.',
      'The "\\u0000" parameter is unknown: this route takes none.',
    ])
  })

  test('a long name is cut to 60 characters in the message, as sent up to the cut', async () => {
    const said = async (query: string) => (await env.call('GET', `/admin/v1/locations/${id}${query}`)).body.message
    expect([await said(`?${'a'.repeat(3000)}=1`), await said(`?=${'v'.repeat(3000)}`)]).toEqual([
      `The "${'a'.repeat(59)}…" parameter is unknown: this route takes none.`,
      `The query string has a parameter with no name ("=${'v'.repeat(58)}…"): this route takes none.`,
    ])
  })

  test('what a refusal says a route takes is what the OpenAPI document lists for it', async () => {
    const doc = openApiDocument() as unknown as {
      paths: Record<string, Record<string, Record<string, any>>>
      components: any
    }
    for (const [method, path, body] of ROUTES()) {
      const template = path.replace(id, '{id}')
      const op = doc.paths[template]![method.toLowerCase()]!
      const listed = (op.parameters ?? [])
        .map((p: { $ref: string }) => doc.components.parameters[p.$ref.split('/').pop()!])
        .filter((p: { in: string }) => p.in === 'query')
        .map((p: { name: string }) => p.name)
      const res = await env.call(method, `${path}?x=1`, { body })
      const takes = /this route takes (.*)\.$/.exec(res.body.message)![1]!
      expect({ path: template, takes: takes === 'none' ? [] : takes.split(/, | and /).sort() }).toEqual({
        path: template,
        takes: listed.sort(),
      })
    }
  })

  test('"_", a cache-buster, is let through on every route', async () => {
    for (const [method, path, body] of ROUTES()) {
      const res = await env.call(method, `${path}?_=1733390000000`, { body })
      expect({ method, path, status: res.status }).toEqual({
        method,
        path,
        status: method === 'POST' && path === '/admin/v1/locations' ? 201 : 200,
      })
    }
  })

  test('"_" is no part of what a retry is compared on: a keyed write retried with a new one replays', async () => {
    const send = (query: string) =>
      env.call('POST', `/admin/v1/locations${query}`, {
        body: storeBody({ name: 'Kept' }),
        headers: { 'idempotency-key': 'k-cache-buster' },
      })
    const first = await send('?_=1733390000000')
    const before = count()
    const again = await send('?_=1733390000999')
    expect([again.status, again.headers.get('idempotent-replayed'), again.body]).toEqual([201, 'true', first.body])
    expect((await send('')).headers.get('idempotent-replayed')).toBe('true')
    expect(count()).toBe(before)
  })
})
