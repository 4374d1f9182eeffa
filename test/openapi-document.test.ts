// GET /openapi.json, the document itself: OpenAPI 3.1 with its info, every $ref resolving, every
// component schema compiling, the request bodies the Management API validates with and an example for
// every error code. Then the interactive page, /docs/api, and its files.
import { describe, expect, test } from 'bun:test'
import { ADMIN_ERRORS } from '../src/api/admin/errors'
import { PUBLIC_ERRORS } from '../src/api/public/errors'
import { CreateLocationBody, UpdateLocationBody } from '../src/locations/model'
import { send } from './public/fixture'
import {
  ajv,
  BASE,
  deref,
  doc,
  expectValid,
  f,
  type Json,
  operations,
  resolve,
  SCHEMA_ID,
  useOpenApiDocument,
} from './openapi-fixture'

useOpenApiDocument()

function* refs(value: unknown): Generator<string> {
  if (Array.isArray(value)) for (const v of value) yield* refs(v)
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') yield v
      else yield* refs(v)
    }
}

/** A schema with its `description` keywords dropped (a property named description stays). */
function withoutNotes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutNotes)
  if (!schema || typeof schema !== 'object') return schema
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k, v]) => !(k === 'description' && typeof v === 'string'))
      .map(([k, v]) => [k, withoutNotes(v)]),
  )
}

describe('the document', () => {
  test('is OpenAPI 3.1 with its info', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(typeof doc.info.title).toBe('string')
    expect(typeof doc.info.version).toBe('string')
  })

  test("its server is the one it is served from, a proxy's path prefix kept", () => {
    // OpenAPI resolves a relative server URL against the document's; Swagger UI's "Try it out" then
    // drops its trailing slash and adds the operation's path.
    const base = (served: string) => new URL(doc.servers[0].url, served).href.replace(/\/$/, '')
    expect(base('http://localhost/openapi.json')).toBe('http://localhost')
    expect(base('https://example.com/stores/openapi.json')).toBe('https://example.com/stores')
  })

  test('every $ref resolves inside the document', () => {
    const all = [...refs(doc)]
    expect(all.length).toBeGreaterThan(50)
    expect(all.filter((r) => resolve(r) === undefined)).toEqual([])
  })

  test('every component is used, but the examples of the answers to no route or method', () => {
    const used = new Set(refs(doc.paths))
    for (const ref of refs(doc.components)) used.add(ref)
    const unused = Object.entries(doc.components as Json).flatMap(([kind, all]) =>
      Object.keys(all)
        .map((name) => `#/components/${kind}/${name}`)
        .filter((ref) => kind !== 'securitySchemes' && !used.has(ref)),
    )
    expect(unused).toEqual([
      '#/components/examples/admin.method_not_allowed',
      '#/components/examples/public.NOT_FOUND',
      '#/components/examples/public.METHOD_NOT_ALLOWED',
    ])
  })

  test("the Management API's description names the answers to another method and to OPTIONS, with their status and Allow", () => {
    const { description } = doc.tags.find((t: Json) => t.name === 'Management API')
    expect(description).toContain('405 `method_not_allowed` (the example `admin.method_not_allowed`)')
    expect(description).toContain('`Allow` header')
    expect(description).toContain("OPTIONS on an operation's path, 204 with that `Allow` header")
    expect(description).toContain('no CORS headers')
  })

  test("the Query API's description names the answers to no route and to another method, each with its status", () => {
    const { description } = doc.tags.find((t: Json) => t.name === 'Query API')
    expect(description).toContain('404 `NOT_FOUND` (the example `public.NOT_FOUND`)')
    expect(description).toContain('405 `METHOD_NOT_ALLOWED` (the example `public.METHOD_NOT_ALLOWED`)')
    expect(description).toContain('`Allow: GET, HEAD, OPTIONS`')
    expect(description).not.toContain('path or method that is no operation')
  })

  test('every component schema compiles as JSON Schema 2020-12', () => {
    for (const name of Object.keys(doc.components.schemas)) expect(ajv.getSchema(`${SCHEMA_ID}${name}`)).toBeFunction()
  })

  test('operations have unique ids, responses, and each path parameter', () => {
    const ops = operations()
    expect(ops.length).toBeGreaterThanOrEqual(11)
    const ids = ops.map((o) => o.op.operationId)
    expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    for (const { path, op } of ops) {
      expect(Object.keys(op.responses ?? {}).length).toBeGreaterThan(0)
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
      const params = (op.parameters ?? []).map(deref)
      const declared = params.filter((p: Json) => p.in === 'path').map((p: Json) => p.name)
      expect({ path, params: declared.sort() }).toEqual({ path, params: inPath })
      expect(params.filter((p: Json) => p.in === 'path').every((p: Json) => p.required === true)).toBe(true)
      for (const [status, r] of Object.entries(op.responses as Json)) {
        expect(status).toMatch(/^[1-5]\d\d$/)
        expect(typeof deref(r).description).toBe('string')
      }
    }
  })

  test('every operation says what it needs: the secret key on the Management API, none elsewhere', async () => {
    // `security: []` is OpenAPI's "no credential"; left out, linters and generators cannot tell.
    const needs = operations().map(({ path, op }) => ({ path, security: op.security }))
    expect(needs).toEqual(
      needs.map(({ path }) => ({ path, security: path.startsWith('/admin/') ? [{ secretKey: [] }] : [] })),
    )
    // And so it is: the Query API and the health checks answer without one.
    for (const path of [`/public/v1/${f.token}/filters`, '/healthz']) {
      expect({ path, status: (await send(f.env.app, `${BASE}${path}`)).status }).toEqual({ path, status: 200 })
    }
  })

  test("the page parameter's bounds are the ones the list checks", async () => {
    const page = deref(doc.components.parameters.page).schema
    const statusAt = async (n: number) => (await f.env.call('GET', `/admin/v1/locations?page=${n}`)).status
    expect(await statusAt(page.maximum)).toBe(200)
    expect(await statusAt(page.maximum + 1)).toBe(400)
    expect(await statusAt(page.minimum)).toBe(200)
    expect(await statusAt(page.minimum - 1)).toBe(400)
  })

  test('the ETag and Cache-Control headers follow openings only on answers that show open states', () => {
    const etag = deref(doc.components.headers.ETag).description
    const cache = deref(doc.components.headers['Cache-Control']).description
    for (const description of [etag, cache]) expect(description).toContain('an answer that shows open states')
    expect(etag).toContain('GET /filters, /places and /clusters without open_now keep theirs')
  })

  test("GET /clusters's zoom says its tiles are 512 pixels, a Leaflet map's zoom less one", () => {
    // A cluster reaches 40 px of a 512-px tile: Leaflet's own zoom gives markers 20 px apart.
    const { description } = deref(doc.components.parameters.zoom)
    expect(description).toContain('512-pixel')
    expect(description).not.toContain('(256-pixel Web Mercator tiles)')
  })

  test('request bodies are the schemas the Management API validates with', () => {
    const plain = (s: unknown) => JSON.parse(JSON.stringify(s))
    expect(withoutNotes(doc.components.schemas.CreateLocationBody)).toEqual(plain(CreateLocationBody))
    expect(withoutNotes(doc.components.schemas.UpdateLocationBody)).toEqual(plain(UpdateLocationBody))
    const create = doc.paths['/admin/v1/locations'].post.requestBody.content['application/json'].schema
    expect(create).toEqual({ $ref: '#/components/schemas/CreateLocationBody' })
  })

  test("each request body's example is one the API takes: the bulk's a dry run that writes nothing", async () => {
    // Without them, the /docs/api page's "Try it out" starts from a body made from the schema, which is refused.
    const example = (path: string) => doc.paths[path].post.requestBody.content['application/json'].example
    const create = example('/admin/v1/locations')
    const made = await f.env.call('POST', '/admin/v1/locations', { body: create })
    expect([made.status, made.body.location?.name]).toEqual([201, create.name])
    const update = example('/admin/v1/locations/{id}')
    const updated = await f.env.call('POST', `/admin/v1/locations/${made.body.location.id}`, { body: update })
    expect([updated.status, updated.body.location?.status]).toEqual([200, update.status])
    const bulk = example('/admin/v1/locations/bulk')
    const count = () => f.env.store.db.query('SELECT count(*) AS n FROM locations').get()
    const before = count()
    const tried = await f.env.call('POST', '/admin/v1/locations/bulk', { body: bulk })
    expect([tried.status, tried.body.dry_run]).toEqual([200, true])
    // Its delete item names a store the fixture lacks: nothing to delete, no error.
    expect(tried.body.results.map((r: Json) => r.action)).toEqual(['updated', 'created', 'absent'])
    expect(count()).toEqual(before)
    // The page fills each query parameter with its example: with them too, each body deletes nothing.
    const flag = (name: string) => doc.components.parameters[name].schema.example
    const query = `dry_run=${flag('dryRun')}&delete_missing=${flag('deleteMissing')}`
    const filled = await f.env.call('POST', `/admin/v1/locations/bulk?${query}`, { body: bulk })
    expect([filled.status, filled.body.deleted]).toEqual([200, 0])
    const csv = doc.paths['/admin/v1/locations/bulk'].post.requestBody.content['text/csv'].example
    const csvTried = await f.env.call('POST', `/admin/v1/locations/bulk?${query}`, {
      body: csv,
      headers: { 'content-type': 'text/csv' },
    })
    expect([csvTried.status, csvTried.body.dry_run, csvTried.body.created, csvTried.body.deleted]).toEqual([
      200,
      true,
      2,
      0,
    ])
    const tsv = doc.paths['/admin/v1/locations/bulk'].post.requestBody.content['text/tab-separated-values'].example
    const tsvTried = await f.env.call('POST', `/admin/v1/locations/bulk?${query}`, {
      body: tsv,
      headers: { 'content-type': 'text/tab-separated-values' },
    })
    expect([tsvTried.status, tsvTried.body.created, tsvTried.body.deleted]).toEqual([200, 2, 0])
    expect(count()).toEqual(before)
    for (const [path, body] of [
      ['/admin/v1/locations', create],
      ['/admin/v1/locations/{id}', update],
      ['/admin/v1/locations/bulk', bulk],
    ])
      expectValid(doc.paths[path].post.requestBody.content['application/json'].schema, body, `${path} example`)
  })

  test('the bulk body refuses the delete items the API refuses: naming no location, or with other fields', async () => {
    const takes = ajv.getSchema(`${SCHEMA_ID}BulkUpsertBody`)!
    for (const item of [
      { delete: true },
      { id: null, external_id: null, delete: true },
      { external_id: '', delete: true },
      { external_id: 'OA-X', name: 'Gone', delete: true },
    ]) {
      const res = await f.env.call('POST', '/admin/v1/locations/bulk', { body: { locations: [item], dry_run: true } })
      expect({ item, status: res.status, documented: takes({ locations: [item] }) }).toEqual({
        item,
        status: 422,
        documented: false,
      })
    }
  })

  test('each Management API read takes its parameters\' defaults, as the /docs/api page\'s "Try it out" sends them', async () => {
    // Swagger UI fills in every parameter's `default` and sends it: one the API refuses fails the page's first try.
    for (const { path, method, op } of operations()) {
      if (method !== 'get' || !path.startsWith('/admin/')) continue
      const query = new URLSearchParams()
      for (const p of (op.parameters ?? []).map(deref))
        if (p.in === 'query' && p.schema.default !== undefined) query.set(p.name, String(p.schema.default))
      const res = await f.env.call('GET', `${path.replace('{id}', f.ids.velo!)}?${query}`)
      expect({ path, query: `${query}`, status: res.status, body: res.status === 200 ? null : res.body }).toEqual({
        path,
        query: `${query}`,
        status: 200,
        body: null,
      })
    }
  })

  test("an operation whose message differs says its own: the bulk route's 413 is the one it answers", async () => {
    const exampleOf = (path: string) =>
      doc.paths[path].post.responses['413'].content['application/json'].examples.payload_too_large
    const bulk = exampleOf('/admin/v1/locations/bulk')
    const res = await f.env.app.handle(
      new Request(`${BASE}/admin/v1/locations/bulk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${f.env.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ locations: [], pad: 'x'.repeat(9 * 1024 * 1024) }),
      }),
    )
    expect(res.status).toBe(413)
    expect(bulk.value).toEqual(await res.json())
    expect(deref(exampleOf('/admin/v1/locations')).value.message).toContain('256 KiB')
  })

  test('every code of both error tables has its example, under its status', () => {
    const tables = [
      ['admin', ADMIN_ERRORS, 'AdminError', (v: Json) => v.error],
      ['public', PUBLIC_ERRORS, 'PublicError', (v: Json) => v.error.code],
    ] as const
    for (const [api, table, schema, codeOf] of tables) {
      for (const [code, entry] of Object.entries(table)) {
        const example = doc.components.examples[`${api}.${code}`]
        expect({ code, documented: example !== undefined }).toEqual({ code, documented: true })
        expectValid({ $ref: `#/components/schemas/${schema}` }, example.value, `${api}.${code}`)
        expect(codeOf(example.value)).toBe('error' in entry ? entry.error : code)
        // Named by an operation under the code's status, but for the answers to no route or method.
        const named = operations().filter(
          ({ op }) => op.responses[String(entry.status)]?.content?.['application/json']?.examples?.[code],
        )
        if (code !== 'NOT_FOUND' && code !== 'METHOD_NOT_ALLOWED' && code !== 'method_not_allowed')
          expect({ code, operations: named.length > 0 }).toEqual({ code, operations: true })
      }
    }
  })

  test("a response's description names the error values its examples answer, as sent", () => {
    for (const { op } of operations())
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        const examples = Object.values<Json>(response.content?.['application/json']?.examples ?? {})
        for (const example of examples) {
          const value = (example.$ref === undefined ? example : (resolve(example.$ref) as Json)).value
          if (value?.success !== false) continue
          const word = typeof value.error === 'string' ? value.error : value.error.code
          expect({ status, named: response.description.includes(`\`${word}\``) }).toEqual({ status, named: true })
        }
      }
  })
})

describe('GET /docs/api', () => {
  /** Every URL the page's HTML names in an attribute. */
  const urlsOf = (html: string) => [...html.matchAll(/\b(?:href|src|action)="([^"]*)"/g)].map((m) => m[1]!)

  test('answers HTML that names only this server, and its files answer with their types', async () => {
    const page = await send(f.env.app, `${BASE}/docs/api`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    // Only this server's files, nothing inline: the page would not run if it asked any other host.
    const csp = page.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).not.toContain('unsafe')
    expect(page.text).not.toContain('<script>') // no inline script
    const urls = urlsOf(page.text)
    expect(urls.length).toBeGreaterThanOrEqual(5)
    const types: Record<string, string> = {}
    for (const url of urls) {
      if (url.startsWith('data:')) continue
      // Relative, so the page works under a proxy's prefix, and on this origin.
      expect(url).not.toMatch(/^([a-z]+:|\/\/)/i)
      const target = new URL(url, `${BASE}/docs/api`)
      expect(target.origin).toBe(BASE)
      const res = await send(f.env.app, target.href)
      expect({ url, status: res.status }).toEqual({ url, status: 200 })
      types[target.pathname] = res.headers.get('content-type')!
      if (target.pathname.startsWith('/docs/assets/'))
        expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    }
    expect(types).toEqual({
      '/docs/assets/swagger-ui.css': 'text/css; charset=utf-8',
      '/docs/assets/swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
      '/docs/assets/api-page.js': 'text/javascript; charset=utf-8',
      '/openapi.json': 'application/json; charset=utf-8',
      '/docs': 'text/html; charset=utf-8',
    })
  })

  test('Swagger UI is told to ask no other host, and its style sheet names none', async () => {
    const script = await send(f.env.app, `${BASE}/docs/assets/api-page.js`)
    expect(script.text).toContain('validatorUrl: null')
    expect(script.text).toContain('queryConfigEnabled: false')
    expect(script.text).toContain("url: new URL('../openapi.json', window.location.href).href")
    const css = await send(f.env.app, `${BASE}/docs/assets/swagger-ui.css`)
    expect(css.text.length).toBeGreaterThan(100_000)
    expect(css.text).not.toMatch(/@import|@font-face|url\(\s*["']?(https?:)?\/\//)
    expect(css.text).not.toContain('sourceMappingURL')
  })

  test('with a trailing slash, the page sends the browser to its name without it', async () => {
    for (const path of ['/docs/api/', '/docs/']) {
      const res = await f.env.app.handle(new Request(`${BASE}${path}`))
      expect(res.status).toBe(308)
      expect(new URL(res.headers.get('location')!, `${BASE}${path}`).pathname).toBe(path.slice(0, -1))
    }
  })

  test('an asset it does not have is 404', async () => {
    const res = await send(f.env.app, `${BASE}/docs/assets/swagger-ui-bundle.js.map`)
    expect(res.status).toBe(404)
    expect(res.body.error).toBe('not_found')
  })
})

describe("the bulk answer's descriptions", () => {
  test('warnings and notes describe what real answers put in them, not the geocoder alone', async () => {
    const res = await f.env.call('POST', '/admin/v1/locations/bulk', {
      body: {
        dry_run: true,
        locations: [
          { name: 'Kiosk', address: '1 Main Street, Springfield', coordinates: { lat: 39.78, lng: -89.65 }, nmae: 'x' },
          { name: 'Kiosk', address: '1 Main Street, Springfield', coordinates: { lat: 39.78, lng: -89.65 } },
        ],
      },
    })
    const [warnings] = res.body.results[1].warnings as string[]
    const [fieldWarning] = res.body.results[0].warnings as string[]
    expect([fieldWarning, warnings, res.body.notes?.length]).toEqual([
      expect.stringContaining('nmae'),
      expect.stringContaining('locations[0]'),
      1,
    ])
    const answer = doc.components.schemas.BulkUpsertAnswer.properties
    const said = answer.results.items.properties.warnings.description
    expect(said).toContain("a field that is not a location's")
    expect(said).toContain('repeats a stored one or an earlier item')
    expect(answer.notes.description).toContain('repeat an earlier one of the same body')
  })
})
