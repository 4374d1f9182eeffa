// Real requests against GET /openapi.json: a table of them, one or more per operation, each answer's
// status documented for its operation and its body valid against the schema documented for that status
// (ajv, JSON Schema 2020-12). An operation the table never exercises fails the last test. Each error
// example's message is one a real answer of its code gave, ids, times and quoted text aside.
import { beforeAll, describe, expect, test } from 'bun:test'
import type { PlaceSource } from '../src/geocode/embedded/place-source'
import { createLocator, setLocatorSettings } from '../src/operator'
import { makeEnv, storeBody } from './helpers'
import { other } from './openapi-answer-cases'
import { ADMIN_CASES } from './openapi-cases-admin'
import { PUBLIC_CASES } from './openapi-cases-public'
import { send } from './public/fixture'
import { BASE, deref, doc, expectValid, f, type Json, operations, useOpenApiDocument } from './openapi-fixture'

useOpenApiDocument()

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

/** `details` with each message made alike as `shape` makes it; none as none. */
const shapeDetails = (details: Record<string, string[]> | undefined) =>
  details && Object.fromEntries(Object.entries(details).map(([field, messages]) => [field, messages.map(shape)]))

/** The headers of the transport and the browser, which no operation declares. */
const UNDECLARED = /^(content-type|content-length|x-content-type-options|access-control-[a-z-]+)$/

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
    Object.assign(other, {
      off: off.locator.publicToken,
      picky: picky.locator.publicToken,
      tight: tight.locator.publicToken,
      switchedOffKey: switchedOff.secret,
      doomed: await made(),
      updated: await made(),
    })
  })

  for (const c of [...ADMIN_CASES, ...PUBLIC_CASES]) {
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

  test('a path or a method that is no operation answers the error body of its API', async () => {
    const publicMiss = await send(f.env.app, `${BASE}/public/v1/${f.token}/stores`)
    expect(publicMiss.status).toBe(404)
    expectValid({ $ref: '#/components/schemas/PublicError' }, publicMiss.body, 'public NOT_FOUND')
    heard(publicMiss.status, publicMiss.body)
    const example = doc.components.examples['public.NOT_FOUND'].value.error
    expect(example.code).toBe(publicMiss.body.error.code)
    expect(example.message.replace(/pk_\w+/, f.token)).toBe(publicMiss.body.error.message)
    const publicPost = await send(f.env.app, `${BASE}/public/v1/${f.token}/locations`, { method: 'POST' })
    expect(publicPost.status).toBe(405)
    expectValid({ $ref: '#/components/schemas/PublicError' }, publicPost.body, 'public METHOD_NOT_ALLOWED')
    heard(publicPost.status, publicPost.body)
    const posted = doc.components.examples['public.METHOD_NOT_ALLOWED'].value.error
    expect(posted.message.replace(/pk_\w+/, f.token)).toBe(publicPost.body.error.message)
    const adminMiss = await f.env.call('GET', '/admin/v1/stores')
    expect(adminMiss.status).toBe(404)
    expectValid({ $ref: '#/components/schemas/AdminError' }, adminMiss.body, 'admin not_found')
    heard(adminMiss.status, adminMiss.body)
    const adminDelete = await f.env.call('DELETE', `/admin/v1/locations/${f.ids.velo}`)
    expect(adminDelete.status).toBe(405)
    expectValid({ $ref: '#/components/schemas/AdminError' }, adminDelete.body, 'admin method_not_allowed')
    heard(adminDelete.status, adminDelete.body)
    const deleted = doc.components.examples['admin.method_not_allowed'].value
    expect(deleted.message.replace(/loc_\w+/, f.ids.velo)).toBe(adminDelete.body.message)
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

  test('a point the geocoder found only at its town: the answer with coordinates.approximate is the documented one', async () => {
    const address = 'Oranienstraße 185, Berlin'
    const env = makeEnv({
      addresses: { [address]: { lat: 52.52437, lng: 13.41053, precision: 'city', parts: { city: 'Berlin' } } },
    })
    try {
      setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
      const token = env.store.locators.get(env.locatorId)!.publicToken
      const made = await env.call('POST', '/admin/v1/locations', { body: { name: 'Kreuzberg Books', address } })
      const res = await env.call('GET', `/public/v1/${token}/locations/${made.body.location.id}`, { key: null })
      expect(res.body.data.location.coordinates).toEqual({ lat: 52.52437, lng: 13.41053, approximate: true })
      const answer = doc.paths['/public/v1/{token}/locations/{id}'].get.responses['200']
      expectValid(deref(answer).content['application/json'].schema, res.body, 'an approximate point')
    } finally {
      env.close()
    }
  })

  test('errors no request of the table gets: no place data, a failure, a busy or damaged database, an answer not kept', async () => {
    const fail = (error: Error) => {
      const source = () => {
        throw error
      }
      return Object.assign(source, { warm: async () => false, reverse: source, version: 'failing' }) as PlaceSource
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
      else if (alike.some((body) => body.details) || example.value.details)
        expect(alike.map((body) => shapeDetails(body.details))).toContainEqual(shapeDetails(example.value.details))
    }
    expect(unlike).toEqual([])
  })

  test('every operation of the document was exercised, with a success among its answers', () => {
    const all = operations().map(({ path, method }) => `${method.toUpperCase()} ${path}`)
    expect(all.filter((o) => !exercised.has(o))).toEqual([])
    expect(all.filter((o) => !succeeded.has(o))).toEqual([])
  })
})
