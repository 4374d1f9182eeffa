// The OpenAPI 3.1 document of both APIs and the service's health checks, made once from OPERATIONS,
// the schemas and the two error tables; served as GET /openapi.json.
import { STATUS_CODES } from 'node:http'
import {
  type ErrorApi,
  errorCodes,
  errorExample,
  errorExamples,
  errorHeaders,
  errorStatus,
  errorWord,
  exampleKey,
} from './errors'
import { type Answer, type Api, OPERATIONS, type Operation } from './operations'
import { HEADERS, type HeaderName, type HeaderUse, PARAMETERS, type ParameterName } from './parameters'
import { SCHEMAS, type SchemaName, schemaRef } from './schemas'

type Json = Record<string, unknown>

type ApiShape = {
  tag: string
  description: string
  /** Whose error table and body its errors use. */
  errors: ErrorApi
  /** Parameters every operation of the API takes, before its own. */
  parameters: readonly ParameterName[]
  okHeaders: readonly HeaderName[]
  /** The credentials it takes: `[]` says none, which an operation without the field would leave unsaid. */
  security: readonly Json[]
  /** Answers 304 to an If-None-Match that holds the current ETag. */
  notModified?: boolean
}

const RATE: readonly HeaderName[] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']

/** What the operations of each API share. */
const APIS: Record<Api, ApiShape> = {
  admin: {
    tag: 'Management API',
    description:
      "The private API for back-office systems: it reads and writes the locations of one locator, published and draft. Send the secret key on every request: `Authorization: Bearer sk_...`. Never put the key in a web page. A path that is no operation answers 404 `not_found`; a method no operation on that path has, 405 `method_not_allowed` (the example `admin.method_not_allowed`) with an `Allow` header listing the methods the path takes (OPTIONS among them); OPTIONS on an operation's path, 204 with that `Allow` header, with or without the key, and no CORS headers (the API is for servers, so a browser's preflight from another site is refused); a query parameter the operation does not list, 400 `invalid_request` (but `_`, a cache-buster, which means nothing).",
    errors: 'admin',
    parameters: [],
    okHeaders: ['X-Request-Id', 'Cache-Control'],
    security: [{ secretKey: [] }],
  },
  public: {
    tag: 'Query API',
    description:
      "The public, read-only API for store-finder pages and apps: a locator's published locations. The token in the path is the only credential. CORS is open; a referrer allowlist refuses other sites. A path that is no operation answers 404 `NOT_FOUND` (the example `public.NOT_FOUND`); a method other than GET, HEAD or OPTIONS on an operation's path, 405 `METHOD_NOT_ALLOWED` (the example `public.METHOD_NOT_ALLOWED`) with `Allow: GET, HEAD, OPTIONS`. Each error's `docs` links to its section of the error guide, GET /docs.",
    errors: 'public',
    parameters: ['token', 'ifNoneMatch'],
    okHeaders: ['X-Request-Id', 'ETag', 'Cache-Control', 'Vary', 'X-Robots-Tag', ...RATE],
    security: [],
    notModified: true,
  },
  service: {
    tag: 'Service',
    description: 'Health and readiness, for load balancers and service managers. No key.',
    errors: 'admin',
    parameters: [],
    okHeaders: ['X-Request-Id'],
    security: [],
  },
}

/** The codes `op` may answer: its API's common ones and those it names; a service operation's, only those named. */
function codesOf(op: Operation): string[] {
  if (op.api === 'service') return [...(op.errors ?? [])]
  return op.api === 'admin' ? errorCodes('admin', op.errors) : errorCodes('public', op.errors)
}

type Pending = {
  descriptions: string[]
  schemas: SchemaName[]
  /** The `error` values answered with this status. */
  codes: string[]
  examples: Json
  /** Each header declared, and whether every answer with this status carries it. */
  headers: Map<HeaderName, boolean>
  /** The answer may be a CSV file instead. */
  csv: boolean
}

function response(status: number, r: Pending): Json {
  const codes = r.codes.length > 0 ? [`${STATUS_CODES[status]}: ${r.codes.map((c) => `\`${c}\``).join(', ')}.`] : []
  const out: Json = { description: [...r.descriptions, ...codes].join(' ') }
  if (r.headers.size > 0)
    out.headers = Object.fromEntries(
      [...r.headers].map(([h, always]) => [
        h,
        always || !HEADERS[h].required ? { $ref: `#/components/headers/${h}` } : { ...HEADERS[h], required: false },
      ]),
    )
  if (r.schemas.length === 0) return out
  const schema = r.schemas.length === 1 ? schemaRef(r.schemas[0]!) : { anyOf: r.schemas.map(schemaRef) }
  const media: Json = { schema }
  if (Object.keys(r.examples).length > 0) media.examples = r.examples
  out.content = { 'application/json': media }
  if (r.csv)
    (out.content as Json)['text/csv'] = {
      schema: { type: 'string', description: 'A header row, then a location a row.' },
    }
  return out
}

/** An operation's answers by status: its own, then one per status of the error codes it may give. */
function responses(op: Operation, api: ApiShape): Json {
  const byStatus = new Map<number, Pending>()
  const at = (status: number) => {
    let r = byStatus.get(status)
    if (!r)
      byStatus.set(
        status,
        (r = { descriptions: [], schemas: [], codes: [], examples: {}, headers: new Map(), csv: false }),
      )
    return r
  }
  /** Declares `uses` on `r`: a header is always carried when every use says so. */
  const declare = (r: Pending, uses: readonly HeaderUse[]) => {
    for (const use of uses) {
      const sometimes = use.endsWith('?')
      const h = (sometimes ? use.slice(0, -1) : use) as HeaderName
      r.headers.set(h, (r.headers.get(h) ?? true) && !sometimes)
    }
  }
  const answer = (a: Answer, headers: readonly HeaderUse[]) => {
    const r = at(a.status)
    r.descriptions.push(a.description)
    r.schemas.push(a.schema)
    declare(r, headers)
    // A CSV answer comes as a file to save; the JSON one in its place does not. Either, chosen by
    // Accept when the request names no format, says Vary: Accept.
    if (a.csv) {
      r.csv = true
      declare(r, ['Content-Disposition?', 'Vary?'])
    }
  }
  // A write's answer replayed for its Idempotency-Key says so.
  const replayed: HeaderUse[] = op.api === 'admin' && op.method === 'post' ? ['Idempotent-Replayed?'] : []
  // /healthz's 200 while the process starts is a starting answer, marked as its 503s are.
  const starting: HeaderUse[] = op.id === 'health' ? ['X-Service-Status?'] : []
  answer(op.ok, [...api.okHeaders, ...replayed, ...starting])
  for (const a of op.also ?? []) answer(a, ['X-Request-Id', ...replayed])
  if (api.notModified) {
    const r = at(304)
    r.descriptions.push('Not modified: If-None-Match holds the current ETag. No body.')
    declare(r, api.okHeaders)
  }
  const errorSchema: SchemaName = api.errors === 'admin' ? 'AdminError' : 'PublicError'
  for (const code of codesOf(op)) {
    const status = errorStatus(api.errors, code)
    const r = at(status)
    if (!r.schemas.includes(errorSchema)) r.schemas.push(errorSchema)
    const word = errorWord(api.errors, code)
    if (!r.codes.includes(word)) r.codes.push(word)
    const message = op.messages?.[code]
    r.examples[code] =
      message === undefined
        ? { $ref: `#/components/examples/${exampleKey(api.errors, code)}` }
        : errorExample(api.errors, code, message)
    declare(r, errorHeaders(api.errors, status))
  }
  const statuses = [...byStatus.keys()].sort((a, b) => a - b)
  return Object.fromEntries(statuses.map((s) => [String(s), response(s, byStatus.get(s)!)]))
}

/** Every {name} of the path is a path parameter the operation takes, and the other way round. */
function checkPathParameters(op: Operation, names: readonly ParameterName[]): void {
  const inPath = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort()
  const declared = names
    .map((n) => PARAMETERS[n])
    .filter((p) => p.in === 'path')
    .map((p) => p.name)
    .sort()
  if (inPath.join() !== declared.join())
    throw new Error(
      `OpenAPI ${op.id}: the path names {${inPath.join('}, {')}} but the parameters are ${declared.join(', ')}`,
    )
}

function operation(op: Operation): Json {
  const api = APIS[op.api]
  const parameters = [...api.parameters, ...(op.parameters ?? [])]
  checkPathParameters(op, parameters)
  const out: Json = { tags: [api.tag], operationId: op.id, summary: op.summary }
  if (op.description) out.description = op.description
  out.security = api.security
  if (parameters.length > 0) out.parameters = parameters.map((p) => ({ $ref: `#/components/parameters/${p}` }))
  if (op.body) {
    const json: Json = { schema: schemaRef(op.body) }
    if (op.example !== undefined) json.example = op.example
    const content: Json = { 'application/json': json }
    if (op.csv !== undefined)
      content['text/csv'] = {
        schema: { type: 'string', description: 'A header row, then a location a row.' },
        example: op.csv,
      }
    if (op.tsv !== undefined)
      content['text/tab-separated-values'] = {
        schema: { type: 'string', description: 'As text/csv, its cells apart by tabs.' },
        example: op.tsv,
      }
    out.requestBody = { required: true, content }
  }
  out.responses = responses(op, api)
  return out
}

function build() {
  const paths: Record<string, Record<string, Json>> = {}
  for (const op of OPERATIONS) {
    const item = (paths[op.path] ??= {})
    if (item[op.method]) throw new Error(`OpenAPI: ${op.method.toUpperCase()} ${op.path} is in OPERATIONS twice`)
    item[op.method] = operation(op)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'storeloc',
      version: 'v1',
      description: 'A self-hosted store locator: the Management API writes locations, the Query API finds them.',
    },
    // Relative to the document's own URL (GET /openapi.json at the service's root), so requests made
    // from it keep a proxy's path prefix; left out, OpenAPI's default "/" drops it.
    servers: [{ url: '.', description: 'This service: where this document is served from.' }],
    tags: Object.values(APIS).map((a) => ({ name: a.tag, description: a.description })),
    paths,
    components: {
      schemas: SCHEMAS,
      parameters: PARAMETERS,
      headers: HEADERS,
      examples: errorExamples(),
      securitySchemes: {
        secretKey: {
          type: 'http',
          scheme: 'bearer',
          description: "A locator's secret key: `sk_` and 38 letters and digits.",
        },
      },
    },
  }
}

export type OpenApiDocument = ReturnType<typeof build>

/** Frozen all the way down: every caller shares the one document. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}

let made: { document: OpenApiDocument; json: string } | null = null

/** The document and its JSON text, made on first use. JSON drops TypeBox's symbol keys. */
function cached(): { document: OpenApiDocument; json: string } {
  if (made === null) {
    const json = JSON.stringify(build())
    made = { document: deepFreeze(JSON.parse(json) as OpenApiDocument), json }
  }
  return made
}

export const openApiDocument = (): OpenApiDocument => cached().document

/** GET /openapi.json, cached as the /docs page is. */
export function openApiResponse(): Response {
  return new Response(cached().json, {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=3600' },
  })
}
