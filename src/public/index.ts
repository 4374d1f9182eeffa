// The public Query API (/public/v1/{token}): read-only, answered from the in-memory index.
// Handlers run the guards, then build the body from pre-serialized location JSON.
import { cors } from '@elysiajs/cors'
import { type Context, Elysia } from 'elysia'
import type { Store } from '../store'
import type { Locator } from '../store/locators'
import { DEFAULT_FILTER_GROUP } from '../store/filters'
import { AnswerCache } from './answer-cache'
import { PublicError } from './errors'
import { admit, findSecretKey, RateLimiter, refusal, refuseSecretKey } from './guards'
import { convert, parseLocationsRequest } from './params'
import type { IndexRegistry } from './registry'

export type PublicDeps = {
  store: Store
  registry: IndexRegistry
  limiter?: RateLimiter
  publicBaseUrl?: string | null
  log: (line: Record<string, unknown>) => void
  /** The request's id: its X-Request-Id header, and the error log's. */
  requestId: (request: Request) => string
}

/** Where the Query API lives; src/app.ts sends every request under it to this API (fromCache, then its app). */
export const PUBLIC_PREFIX = '/public/v1'

/**
 * Writes String(Math.round(x * 100) / 100) into `out` at `pos` (ASCII); returns the position after
 * it. Digits are written from integers: formatting a fraction costs about 0.4 µs, and each number
 * made text ~0.1 µs. The same text: below 1e10 a double is finer than a thousandth, so n / 100
 * prints as the digits of n, trailing zeros dropped. Beyond that (no distance on Earth), or for
 * x < 0, the fraction is formatted. At most 25 bytes.
 */
export function writeHundredths(out: Uint8Array, pos: number, x: number): number {
  const n = Math.round(x * 100)
  if (!(n >= 0 && n < 1e12)) return ascii(out, pos, String(n / 100))
  const cents = n % 100
  let whole = (n - cents) / 100
  let digits = 1
  for (let w = whole; w >= 10; w = Math.floor(w / 10)) digits++
  for (let i = pos + digits - 1; i >= pos; i--) {
    out[i] = 48 + (whole % 10)
    whole = Math.floor(whole / 10)
  }
  pos += digits
  if (cents !== 0) {
    out[pos++] = 46 // "."
    out[pos++] = 48 + Math.floor(cents / 10)
    if (cents % 10 !== 0) out[pos++] = 48 + (cents % 10)
  }
  return pos
}

/** Writes text known to be ASCII into `out` at `pos`; returns the position after it. */
function ascii(out: Uint8Array, pos: number, text: string): number {
  for (let i = 0; i < text.length; i++) out[pos + i] = text.charCodeAt(i)
  return pos + text.length
}

/** If-None-Match holds "*" or a comma-separated list of ETags; weak comparison, as for GET. */
function etagMatches(header: string | null, etag: string): boolean {
  if (header === null) return false
  const bare = (tag: string) => tag.trim().replace(/^W\//, '')
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag))
}

/**
 * The body of GET /locations for a full public URL, as UTF-8: the index's answer assembled from
 * pre-serialized fragments (the benchmark calls this too). Throws PublicError for bad parameters.
 */
export function locationsBody(registry: IndexRegistry, locator: Locator, url: URL): { body: Uint8Array; total: number } {
  for (let attempt = 1; ; attempt++) {
    const answer = locationsAnswer(registry, locator, url)
    if (answer !== null) return answer
    // A location's row vanished between the sync and its JSON (another process's write): again, synced.
    if (attempt === 3) throw new PublicError('UNAVAILABLE', undefined, { 'retry-after': '1' })
    registry.sync()
  }
}

const LOCATIONS_HEAD = '{"success":true,"data":{"locations":['
const DISTANCE = ',"distance":{"value":'
const UNIT_CLOSE = { km: ',"unit":"km"}}', miles: ',"unit":"miles"}}' } as const
/** The most bytes a location's JSON is followed by: ",", the distance and the closing braces. */
const AFTER_LOCATION = 1 + DISTANCE.length + 25 + UNIT_CLOSE.miles.length

function locationsAnswer(registry: IndexRegistry, locator: Locator, url: URL): { body: Uint8Array; total: number } | null {
  const entry = registry.entry(locator.id)
  const groupOf = (tag: string) => entry.ctx.groupOfTag.get(tag)?.group.id ?? DEFAULT_FILTER_GROUP
  const req = parseLocationsRequest(url.searchParams, locator, groupOf)
  const { total, hits } = entry.index.query(req.query)
  const { arena } = entry

  const { offset, limit } = req.query
  const page = (to: number) => {
    const q = new URLSearchParams(url.searchParams)
    q.set('offset', String(to))
    return `${url.origin}${url.pathname}?${q}`
  }
  const pagination: Record<string, unknown> = { offset, limit, total, hasMore: offset + limit < total }
  if (offset + limit < total) pagination.next = page(offset + limit)
  if (offset > 0) pagination.prev = page(Math.max(0, offset - limit))
  const meta = req.query.center ? { query: { center: req.query.center, radius: req.radius, unit: req.unit } } : {}
  const rest = `],"pagination":${JSON.stringify(pagination)}},"meta":${JSON.stringify(meta)}}`

  // One buffer with room for the most the answer can take, written once, sent as far as written.
  const slots: number[] = new Array(hits.length)
  let room = LOCATIONS_HEAD.length + Buffer.byteLength(rest, 'utf8')
  for (let i = 0; i < hits.length; i++) {
    const slot = registry.json(locator.id, entry, hits[i]!.doc)
    if (slot === null) return null
    slots[i] = slot
    room += arena.size(slot) + AFTER_LOCATION
  }
  const body = Buffer.allocUnsafeSlow(room)
  const unitClose = UNIT_CLOSE[req.unit]
  let pos = ascii(body, 0, LOCATIONS_HEAD)
  for (let i = 0; i < hits.length; i++) {
    if (i > 0) body[pos++] = 0x2c // ","
    pos = arena.copy(slots[i]!, body, pos)
    // The JSON is kept open (no closing "}"): the distance goes last, inside.
    const km = hits[i]!.distanceKm
    if (km === null) body[pos++] = 0x7d // "}"
    else pos = ascii(body, writeHundredths(body, ascii(body, pos, DISTANCE), convert(km, 'km', req.unit)), unitClose)
  }
  pos += utf8.encodeInto(rest, body.subarray(pos)).written
  return { body: body.subarray(0, pos), total }
}

const utf8 = new TextEncoder()

const JSON_TYPE = 'application/json; charset=utf-8'

type Set = Context['set']

/** CORS for the Query API: any origin (the referrer allowlist is a guard of its own), these methods and headers. */
const CORS = {
  methods: ['GET', 'OPTIONS'],
  allowedHeaders: ['Content-Type', 'If-None-Match'],
  exposeHeaders: ['ETag', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
}

/**
 * The Query API: an Elysia app of its own with the full paths (src/app.ts sends it every request
 * under PUBLIC_PREFIX), so CORS (a global onRequest hook) stays on this API; and `fromCache`, which
 * src/app.ts asks first.
 */
export function publicRoutes(deps: PublicDeps) {
  const limiter = deps.limiter ?? new RateLimiter()
  const answers = new AnswerCache()

  /**
   * A kept answer, sent without Elysia's lifecycle: for a GET whose answer the cache keeps, that
   * every guard lets through and whose If-None-Match (if any) does not match, the response the app
   * would make, headers and all (test/public/caching.test.ts compares them). Anything else, before
   * anything is counted: null, and the app answers (it makes answers and offers them to the cache;
   * a 304 is its to say). Under wrk at 100k, one radius query repeated, interleaved 5 s runs:
   * 43.7-44.8k req/s through the app, 55.7-60.4k from here (bench/results/http.md for the suite's).
   */
  function fromCache(request: Request, requestId: string): Response | null {
    try {
      return cached(request, requestId)
    } catch {
      return null // the app meets the failure again, in the same steps, and reports it
    }
  }

  function cached(request: Request, requestId: string): Response | null {
    if (request.method !== 'GET') return null
    const href = request.url
    // Nothing kept for this URL (most distinct queries): the app answers, and no step is taken twice.
    const kept = answers.get(href)
    if (kept === undefined) return null
    const start = href.indexOf(PUBLIC_PREFIX, href.indexOf('//') + 2) + PUBLIC_PREFIX.length + 1
    const end = href.indexOf('/', start)
    if (end === -1) return null
    const token = href.slice(start, end)
    if (token.includes('%') || findSecretKey(request) !== null) return null // the app decodes, refuses
    deps.registry.sync()
    const locator = deps.registry.locatorByToken(token)
    if (locator === null || refusal(locator, request) !== null) return null
    if (kept.version !== deps.registry.version(locator.id)) return null
    if (etagMatches(request.headers.get('if-none-match'), kept.etag)) return null // the app says 304
    const decision = limiter.takeIfAllowed(token, locator.rateLimit)
    if (decision === null) return null // refused: the app counts it and says so
    // One literal, in the order the app's responses have them (a spread-built object costs more).
    return new Response(kept.body, {
      headers: {
        'access-control-expose-headers': CORS_EXPOSED,
        'access-control-allow-headers': CORS_ALLOWED,
        vary: 'Origin',
        'access-control-allow-origin': request.headers.get('origin') || '*',
        'access-control-allow-methods': CORS_METHODS,
        etag: kept.etag,
        'cache-control': CACHE_CONTROL,
        'content-type': JSON_TYPE,
        'ratelimit-limit': String(decision.limit),
        'ratelimit-remaining': String(decision.remaining),
        'ratelimit-reset': String(decision.resetSeconds),
        'x-request-id': requestId,
      },
    })
  }

  /**
   * Guards, conditional GET, then the body. Headers go into `set`, so Elysia makes the response
   * once, with CORS's headers beside ours. A PublicError thrown here renders itself in onError,
   * with the rate headers, once the rate was counted, merged from `set`.
   */
  function respond(request: Request, set: Set, token: string, body: (locator: Locator, url: URL) => Uint8Array): string | Uint8Array {
    const key = findSecretKey(request)
    if (key) refuseSecretKey(deps.store, key)
    deps.registry.sync()
    const admitted = admit(deps.registry.locatorByToken(token), request, limiter, token)
    Object.assign(set.headers, admitted.headers)
    // The answer depends on the locator's version and the URL as sent (and the configuration).
    const href = request.url
    const version = deps.registry.version(admitted.locator.id)
    const etag = `W/"${version.toString(36)}-${Bun.hash(href).toString(36)}"`
    if (etagMatches(request.headers.get('if-none-match'), etag)) {
      Object.assign(set.headers, answerHeaders(etag))
      set.status = 304
      return ''
    }
    const url = new URL(deps.publicBaseUrl ? deps.publicBaseUrl + pathAndQuery(href) : href)
    // Made as UTF-8: these bytes are sent, and the cache keeps a Blob of them.
    const answer = body(admitted.locator, url)
    answers.offer(href, version, etag, answer)
    Object.assign(set.headers, answerHeaders(etag))
    set.headers['content-type'] = JSON_TYPE
    return answer
  }

  const app = new Elysia({ name: 'public', prefix: PUBLIC_PREFIX })
    .onRequest(({ set, request }) => {
      set.headers['x-request-id'] = deps.requestId(request)
    })
    .onError(({ code, error, request, path }) => {
      if (error instanceof PublicError) return error.toResponse()
      if (code === 'NOT_FOUND') {
        const key = findSecretKey(request)
        try {
          if (key) refuseSecretKey(deps.store, key)
        } catch (e) {
          return (e as PublicError).toResponse()
        }
        return new PublicError('NOT_FOUND', `No endpoint ${request.method} ${path}. The Query API serves GET ${PUBLIC_PREFIX}/{token}/locations, /locations/{id} and /filters.`).toResponse()
      }
      const e = error as Error
      deps.log({ level: 'error', api: 'public', request_id: deps.requestId(request), method: request.method, path, error: e?.message, stack: e?.stack })
      return new Response(JSON.stringify({ success: false, error: { code: 'INTERNAL_ERROR', message: 'Internal server error. The error was logged; quote the X-Request-Id header when reporting it.', docs: '/docs#INTERNAL_ERROR' } }), {
        status: 500,
        headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store' },
      })
    })
    .use(cors({ origin: true, credentials: false, ...CORS }))
    .get('/:token/locations', ({ request, params, set }) => respond(request, set, params.token, (locator, url) => locationsBody(deps.registry, locator, url).body))
    .get('/:token/locations/:id', ({ request, params, set }) =>
      respond(request, set, params.token, (locator) => {
        const entry = deps.registry.entry(locator.id)
        const doc = entry.index.get(params.id)
        const slot = doc ? deps.registry.json(locator.id, entry, doc) : null
        if (slot === null) throw new PublicError('LOCATION_NOT_FOUND', `Location ${JSON.stringify(params.id)} was not found.`)
        const head = '{"success":true,"data":{"location":'
        const body = new Uint8Array(head.length + entry.arena.size(slot) + 3)
        ascii(body, entry.arena.copy(slot, body, ascii(body, 0, head)), '}}}')
        return body
      }),
    )
    .get('/:token/filters', ({ request, params, set }) =>
      respond(request, set, params.token, (locator) => utf8.encode(JSON.stringify({ success: true, data: { filters: deps.registry.filters(locator.id) } }))),
    )
  return { app, fromCache }
}

/** The headers of an answer browsers and caches may keep (errors say no-store instead). */
function answerHeaders(etag: string): Record<string, string> {
  return { etag, 'cache-control': CACHE_CONTROL, vary: 'Origin' }
}

const CACHE_CONTROL = 'public, max-age=60'

// The CORS plugin's headers for a GET, as it writes them (fromCache() sends them itself).
const CORS_METHODS = CORS.methods.join(', ')
const CORS_ALLOWED = CORS.allowedHeaders.join(', ')
const CORS_EXPOSED = CORS.exposeHeaders.join(', ')

/** "/public/v1/...?..." of a full URL, as the request sent it. */
export function pathAndQuery(href: string): string {
  return href.slice(href.indexOf('/', href.indexOf('//') + 2))
}
