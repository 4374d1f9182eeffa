// Shared by the tests of GET /openapi.json (openapi-*.test.ts): the public fixture and the document
// it serves, fetched once per file, with its component schemas compiled by ajv (JSON Schema 2020-12).
import { afterAll, beforeAll, expect } from 'bun:test'
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020'
import { type Fixture, makeFixture, send } from './public/fixture'

export type Json = Record<string, any>
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
export const BASE = 'http://localhost'

export let f: Fixture
export let doc: Json

/** Registers, in the calling test file, hooks that fetch the document, compile its schemas, and close the fixture. */
export function useOpenApiDocument(): void {
  beforeAll(async () => {
    f = await makeFixture()
    const res = await send(f.env.app, `${BASE}/openapi.json`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600')
    doc = res.body
    ajv = new Ajv2020({ strict: true, allErrors: true })
    ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/) // RFC 3339
    ajv.addFormat('uri', (s: string) => URL.canParse(s))
    ajv.addFormat('uri-reference', (s: string) => URL.canParse(s, 'http://base.test/'))
    for (const [name, schema] of Object.entries(doc.components.schemas as Json))
      ajv.addSchema(toAjv(schema), `${SCHEMA_ID}${name}`)
  })
  afterAll(() => f.env.close())
}

/** Every (path, method) of the document with its operation. */
export const operations = () =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] as Json })),
  )

/** The object a local $ref ("#/a/b") names, or undefined. */
export function resolve(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined
  let at: any = doc
  for (const part of ref.slice(2).split('/')) at = at?.[part.replaceAll('~1', '/').replaceAll('~0', '~')]
  return at
}
export const deref = (o: Json): Json => (typeof o?.$ref === 'string' ? deref(resolve(o.$ref) as Json) : o)

// Component schemas are added to ajv under ids of their own; local refs are rewritten to them.
export const SCHEMA_ID = 'https://storeloc.test/schemas/'
const toAjv = (schema: unknown): any =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${SCHEMA_ID}`))
export let ajv: Ajv2020
const compiled = new Map<string, ValidateFunction>()
function validator(schema: unknown): ValidateFunction {
  const key = JSON.stringify(schema)
  let v = compiled.get(key)
  if (!v) compiled.set(key, (v = ajv.compile(toAjv(schema))))
  return v
}
export function expectValid(schema: unknown, value: unknown, what: string) {
  const v = validator(schema)
  const ok = v(value)
  expect({ what, errors: ok ? null : v.errors, value: ok ? null : value }).toEqual({ what, errors: null, value: null })
}
