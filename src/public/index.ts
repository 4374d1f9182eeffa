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

/** ".05", ".1", ".12"...: the text after the whole number for 0..99 hundredths ("" for none). */
const FRACTIONS = Array.from({ length: 100 }, (_, c) => (c === 0 ? '' : c % 10 === 0 ? `.${c / 10}` : c < 10 ? `.0${c}` : `.${c}`))
/** The whole numbers of distances in answers, as text (a radius is at most 1,000 km or miles). */
const WHOLES = Array.from({ length: 2048 }, (_, n) => String(n))

/**
 * String(Math.round(x * 100) / 100), made from integers and two tables: formatting a fraction
 * costs about 0.4 µs, and each number made text ~0.1 µs, a tenth of an answer's assembly. The same
 * text: below 1e10 a double is finer than a thousandth, so n / 100 prints as the digits of n,
 * trailing zeros dropped. Beyond that (no distance on Earth), or for x < 0, the fraction is formatted.
 */
export function hundredths(x: number): string {
  const n = Math.round(x * 100)
  if (!(n >= 0 && n < 1e12)) return String(n / 100)
  const cents = n % 100
  const whole = (n - cents) / 100
  return (whole < WHOLES.length ? WHOLES[whole]! : String(whole)) + FRACTIONS[cents]!
}

/** If-None-Match holds "*" or a comma-separated list of ETags; weak comparison, as for GET. */
function etagMatches(header: string | null, etag: string): boolean {
  if (header === null) return false
  const bare = (tag: string) => tag.trim().replace(/^W\//, '')
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag))
}

/**
 * The body of GET /locations for a full public URL: the index's answer assembled from
 * pre-serialized fragments (the benchmark calls this too). Throws PublicError for bad parameters.
 */
export function locationsBody(registry: IndexRegistry, locator: Locator, url: URL): { body: string; total: number } {
  for (let attempt = 1; ; attempt++) {
    const answer = locationsAnswer(registry, locator, url)
    if (answer !== null) return answer
    // A location's row vanished between the sync and its JSON (another process's write): again, synced.
    if (attempt === 3) throw new PublicError('UNAVAILABLE', undefined, { 'retry-after': '1' })
    registry.sync()
  }
}

function locationsAnswer(registry: IndexRegistry, locator: Locator, url: URL): { body: string; total: number } | null {
  const entry = registry.entry(locator.id)
  const groupOf = (tag: string) => entry.ctx.groupOfTag.get(tag)?.group.id ?? DEFAULT_FILTER_GROUP
  const req = parseLocationsRequest(url.searchParams, locator, groupOf)
  const { total, hits } = entry.index.query(req.query)

  let out = '{"success":true,"data":{"locations":['
  const unit = `,"unit":"${req.unit}"}}`
  for (let i = 0; i < hits.length; i++) {
    const { doc, distanceKm } = hits[i]!
    const json = registry.json(locator.id, entry, doc)
    if (json === null) return null
    if (i > 0) out += ','
    // The JSON is kept open (no closing "}"): the distance goes last, inside.
    out += distanceKm === null ? `${json}}` : `${json},"distance":{"value":${hundredths(convert(distanceKm, 'km', req.unit))}${unit}`
  }
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
  return { body: `${out}],"pagination":${JSON.stringify(pagination)}},"meta":${JSON.stringify(meta)}}`, total }
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
  function respond(request: Request, set: Set, token: string, body: (locator: Locator, url: URL) => string): string | Uint8Array {
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
    // Encoded here, once: these bytes are sent, and the cache keeps a Blob of them (sent as text,
    // Bun would encode it for the socket, and the cache again).
    const answer = utf8.encode(body(admitted.locator, url))
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
        const json = doc && deps.registry.json(locator.id, entry, doc)
        if (!json) throw new PublicError('LOCATION_NOT_FOUND', `Location ${JSON.stringify(params.id)} was not found.`)
        return `{"success":true,"data":{"location":${json}}}}`
      }),
    )
    .get('/:token/filters', ({ request, params, set }) =>
      respond(request, set, params.token, (locator) => JSON.stringify({ success: true, data: { filters: deps.registry.filters(locator.id) } })),
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
