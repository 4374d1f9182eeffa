// The public Query API (/public/v1/{token}): read-only, answered from the in-memory index.
// Handlers run the guards, then build the body from pre-serialized location JSON.
import { cors } from '@elysiajs/cors'
import { type Context, Elysia } from 'elysia'
import type { Store } from '../../store'
import type { Locator } from '../../store/locators'
import { DEFAULT_FILTER_GROUP } from '../../store/filters'
import { isBusyError } from '../../store/db'
import { AnswerCache, type ResponseHeaders } from './answer-cache'
import { databaseBusy, PublicError, publicErrorOf } from './errors'
import { admit, findSecretKey, type RateDecision, RateLimiter, refusal, refuseSecretKey, withPeekedRate } from './guards'
import { convert, isPlainQuery, parseLocationsRequest, queryParams } from './params'
import type { IndexRegistry } from '../../indexes/registry'
import { ascii, locationsBody } from './answer'
import { countAnswer } from './young-garbage'
import { pathAndQuery, pathStart, PUBLIC_PREFIX, SHORT_HOSTS } from './url'

export type PublicDeps = {
  store: Store
  registry: IndexRegistry
  limiter?: RateLimiter
  publicBaseUrl?: string | null
  log: (line: Record<string, unknown>) => void
  /** The request's id: its X-Request-Id header, and the error log's. */
  requestId: (request: Request) => string
  /** The locator a request's token names (its log line's `locator`), told once the token is looked up. */
  onLocator?: (request: Request, locatorId: string) => void
}

/** A request's id, and the locator its token names once looked up: what its log line says. */
export type RequestNote = { id: string; locator?: string }


/**
 * If-None-Match holds "*" or a comma-separated list of ETags; weak comparison, as for GET. "*"
 * matches any answer there is (`star`): only once the request proved to have one (RFC 9110
 * 13.1.2), not a request that fails its checks.
 */
function etagMatches(header: string | null, etag: string, star = true): boolean {
  if (header === null) return false
  const bare = (tag: string) => tag.trim().replace(/^W\//, '')
  return header.split(',').some((tag) => (star && tag.trim() === '*') || bare(tag) === bare(etag))
}

const utf8 = new TextEncoder()

const JSON_TYPE = 'application/json; charset=utf-8'

type Set = Context['set']

/** CORS for the Query API: any origin (the referrer allowlist is a guard of its own), these methods and headers. */
const CORS = {
  methods: ['GET', 'OPTIONS'],
  allowedHeaders: ['Content-Type', 'If-None-Match'],
  exposeHeaders: ['ETag', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'X-Request-Id'],
}

/**
 * The Query API: an Elysia app of its own with the full paths (src/server/app.ts sends it every request
 * under PUBLIC_PREFIX), so CORS (a global onRequest hook) stays on this API; and `fast`, which
 * src/server/app.ts asks first.
 */
export function publicRoutes(deps: PublicDeps) {
  const limiter = deps.limiter ?? new RateLimiter()
  const answers = new AnswerCache()
  /** The ETags' hash seed: the answers' format and the base their links are made on (PUBLIC_BASE_URL). */
  const etagSeed = deps.publicBaseUrl ? Bun.hash(deps.publicBaseUrl, ANSWER_FORMAT) : ANSWER_FORMAT
  /** The headers of answers made on the fast path, set again for each. */
  const scratch = responseHeaders('')
  /** Answers sent from the answer cache. */
  let cacheHits = 0

  /**
   * The fast path, without Elysia's lifecycle, for a GET that every guard lets through and whose
   * If-None-Match (if any) does not match: a kept answer, or for GET /{token}/locations one made
   * now, sent with the headers the app's response would have (test/public/caching.test.ts
   * compares them). Its Response is made in the same turn as the answer (Elysia makes its own
   * after an await), so the answer is sent from the registry's answer buffer, copied once.
   * Anything else, before anything is counted: null, and the app answers: errors, refusals and
   * 304s are its to say and count. Under wrk at 100k, interleaved 5 s runs: one radius query
   * repeated, 43.7-44.8k req/s through the app, 55.7-60.4k kept here; 4000 distinct ones, each
   * through the app in a new buffer, 7.9-8.9k, made here 8.7-10.0k (median of 6 pairs +7%).
   */
  function fast(request: Request, noted: RequestNote): Response | null {
    try {
      return fastAnswer(request, noted)
    } catch {
      return null // the app meets the failure again, in the same steps, and reports it
    }
  }

  function fastAnswer(request: Request, noted: RequestNote): Response | null {
    if (request.method !== 'GET') return null
    const href = request.url
    const kept = answers.get(href)
    const start = pathStart(href) + PUBLIC_PREFIX.length + 1 // src/server/app.ts sends only paths under PUBLIC_PREFIX here
    if (href.charCodeAt(start - 1) !== 0x2f) return null // "/public/v1?...": no token (the app says 404)
    const end = href.indexOf('/', start)
    if (end === -1) return null
    // Answers are made here for /locations only: the one asked most, made from the index alone.
    const locations = href.startsWith('/locations', end) && (href.length === end + 10 || href.charCodeAt(end + 10) === 63) // "?"
    if (kept === undefined && !locations) return null
    const token = href.slice(start, end)
    if (token.includes('%') || findSecretKey(request) !== null) return null // the app decodes, refuses
    deps.registry.sync()
    const locator = deps.registry.locatorByToken(token)
    if (locator === null) return null
    noted.locator = locator.id
    if (refusal(locator, request) !== null) return null
    deps.registry.entry(locator.id) // built first: its version then counts every change it shows
    const version = deps.registry.version(locator.id)
    const current = kept !== undefined && kept.version === version
    if (!current && !locations) return null
    const etag = current ? kept.etag : etagOf(version, href, etagSeed)
    if (etagMatches(request.headers.get('if-none-match'), etag)) return null // the app says 304
    let body: Blob | Uint8Array
    if (current) body = kept.body
    else {
      // Asked before the answer is made, which throws for bad parameters (the app says so, and counts).
      if (!limiter.allows(token, locator.rateLimit)) return null
      const made = locationsBody(deps.registry, locator, publicHref(href)).body
      body = answers.offer(href, version, etag, made) ?? made
    }
    // Refused: the app counts it and says so.
    const decision = limiter.takeIfAllowed(token, locator.rateLimit)
    if (decision === null) return null
    // A kept answer's responses are made from headers made once for it; a made answer's from the scratch ones, its ETag set.
    let headers: ResponseHeaders
    if (current) {
      headers = kept.headers ??= responseHeaders(etag)
      cacheHits++
      countAnswer() // a kept answer's request and response are garbage too
    } else {
      headers = scratch
      headers.headers.set('etag', etag)
    }
    return sendWith(headers, body, decision, request.headers.get('origin'), varyOf(locator), noted.id)
  }

  /**
   * The URL answers are made for (their pagination links), as URL's href writes it: as sent
   * (Bun's request.url is written so; parsed again, ~0.8 µs a request), or under the configured
   * public base.
   */
  const publicHref = (href: string) => (deps.publicBaseUrl ? new URL(deps.publicBaseUrl + pathAndQuery(href)).href : href)

  /**
   * Guards, conditional GET, then the body. Headers go into `set`, so Elysia makes the response
   * once, with CORS's headers beside ours. A PublicError thrown here renders itself in onError,
   * with the rate headers, once the rate was counted, merged from `set`.
   */
  function respond(request: Request, set: Set, token: string, body: (locator: Locator, href: string) => Uint8Array): string | Uint8Array {
    const key = findSecretKey(request)
    if (key) refuseWithRate(key, request, token)
    try {
      deps.registry.sync()
    } catch (e) {
      if (!isBusyError(e)) throw e
      // With the rate of a locator known without the database, as its other responses.
      throw withPeekedRate(databaseBusy(e), deps.registry.locatorByToken(token, true), request, limiter, token)
    }
    const locator = deps.registry.locatorByToken(token)
    if (locator !== null) deps.onLocator?.(request, locator.id)
    const admitted = admit(locator, request, limiter, token)
    Object.assign(set.headers, admitted.headers)
    // The answer depends on the locator's version and the URL as sent (and the configuration).
    const href = request.url
    deps.registry.entry(admitted.locator.id) // built first: its version then counts every change it shows
    const version = deps.registry.version(admitted.locator.id)
    const etag = etagOf(version, href, etagSeed)
    const ifNoneMatch = request.headers.get('if-none-match')
    const vary = varyOf(admitted.locator)
    if (etagMatches(ifNoneMatch, etag, false)) return notModified(set, etag, vary)
    // Made as UTF-8: these bytes are sent, and the cache keeps a Blob of them.
    const answer = body(admitted.locator, publicHref(href))
    answers.offer(href, version, etag, answer)
    if (etagMatches(ifNoneMatch, etag)) return notModified(set, etag, vary) // "*": there is an answer
    Object.assign(set.headers, answerHeaders(etag, vary))
    set.headers['content-type'] = JSON_TYPE
    return answer
  }

  /**
   * `error` with the rate of the locator whose token the request names, peeked (not counted), as
   * every response of a locator says where its budget stands: for the refusals made before the
   * token is looked at (a secret key) or where there is no endpoint. None when the token names no
   * active locator. The headers are extra: a lookup that fails (another process holding the
   * database, or worse) gives the rate of the locator known without it, or none, never another error.
   */
  function withTokenRate(error: PublicError, request: Request, token: string | null): PublicError {
    if (token === null) return error
    let locator: Locator | null
    try {
      locator = deps.registry.locatorByToken(token)
    } catch (e) {
      if (!isBusyError(e)) deps.log({ level: 'error', api: 'public', request_id: deps.requestId(request), message: "looking up a token for its rate headers failed; answered without them", error: (e as Error)?.message })
      locator = deps.registry.locatorByToken(token, true)
    }
    return withPeekedRate(error, locator, request, limiter, token)
  }

  /** Refuses a request that carries a secret key (refuseSecretKey), with the token's rate. */
  function refuseWithRate(key: string, request: Request, token: string | null): never {
    try {
      refuseSecretKey(deps.store, key, deps.log)
    } catch (e) {
      throw e instanceof PublicError ? withTokenRate(e, request, token) : e
    }
  }

  function notModified(set: Set, etag: string, vary: string): string {
    Object.assign(set.headers, answerHeaders(etag, vary))
    set.status = 304
    return ''
  }

  const app = new Elysia({ name: 'public', prefix: PUBLIC_PREFIX, handler: SHORT_HOSTS })
    .onRequest(({ set, request }) => {
      set.headers['x-request-id'] = deps.requestId(request)
    })
    .onError(({ code, error, request, path }) => {
      // The links' base (publicHref): PUBLIC_BASE_URL, else the origin the request was sent to (src/server/app.ts made it one).
      const base = deps.publicBaseUrl ?? request.url.slice(0, pathStart(request.url))
      /** The error's own response, 503 for a busy database, else a 500 whose cause is logged (by the request id). */
      const failure = (e: unknown): Response => {
        const known = publicErrorOf(e)
        if (known !== null) return known.toResponse(base)
        if (isBusyError(e)) return databaseBusy().toResponse(base)
        const err = e as Error
        deps.log({ level: 'error', api: 'public', request_id: deps.requestId(request), method: request.method, path, error: err?.message, stack: err?.stack })
        return new PublicError('INTERNAL_ERROR').toResponse(base)
      }
      if (code === 'NOT_FOUND') {
        // The path's first segment, where an endpoint's token is: its locator's rate, if it names one.
        const token = decoded(/^\/([^/?#]+)/.exec(pathAndQuery(request.url).slice(PUBLIC_PREFIX.length))?.[1] ?? null)
        const key = findSecretKey(request)
        try {
          if (key) refuseWithRate(key, request, token)
        } catch (e) {
          return failure(e) // SECRET_KEY_EXPOSED
        }
        const notFound = new PublicError('NOT_FOUND', `No endpoint ${request.method} ${path}. The Query API serves GET ${PUBLIC_PREFIX}/{token}/locations, /locations/{id} and /filters.`)
        return withTokenRate(notFound, request, token).toResponse(base)
      }
      return failure(error)
    })
    .use(cors({ origin: true, credentials: false, ...CORS }))
    // Copied out of the registry's answer buffer: Elysia makes the Response after an await, when
    // another answer may have been written there (test/public/locations.test.ts asks many at once).
    .get('/:token/locations', ({ request, params, set }) => respond(request, set, params.token, (locator, href) => copy(locationsBody(deps.registry, locator, href).body)))
    .get('/:token/locations/:id', ({ request, params, set }) =>
      respond(request, set, params.token, (locator) => {
        const entry = deps.registry.entry(locator.id)
        const doc = entry.index.get(params.id)
        const slot = doc ? deps.registry.json(locator.id, entry, doc) : null
        if (slot === null) {
          // Elysia gives no id for a path segment that is not valid percent-encoded UTF-8 ("%zz").
          const what = typeof params.id !== 'string' ? 'The location ID in the path is not valid percent-encoded UTF-8.' : `Location ${JSON.stringify(params.id)} was not found.`
          throw new PublicError('LOCATION_NOT_FOUND', what)
        }
        const head = '{"success":true,"data":{"location":'
        const body = new Uint8Array(head.length + entry.arena.size(slot) + 3)
        ascii(body, entry.arena.copy(slot, body, ascii(body, 0, head)), '}}}')
        return body
      }),
    )
    .get('/:token/filters', ({ request, params, set }) =>
      respond(request, set, params.token, (locator) => utf8.encode(JSON.stringify({ success: true, data: { filters: deps.registry.filters(locator.id) } }))),
    )
  return { app, fast, cacheHits: () => cacheHits }
}

/**
 * The answers' format: part of every ETag (the URL's hash seed), so when a new release answers
 * the same URL differently with no write in between, the ETags browsers and caches hold no longer
 * match. 1: `unit` defaults to miles, no longer to the locator's unit (an answer in km before).
 * 2: a parameter given twice is refused (400), no longer read as its first value.
 * 3: meta.query.radius, the locator's radius converted to another unit, rounded to hundredths.
 * 4: with all=true, lat, lng and radius sent are checked as in a radius query (refused when bad or
 * given twice), no longer ignored.
 * 5: a parameter read whose escapes' bytes are not UTF-8 ("search=caf%E9") is refused (400), no
 * longer read with U+FFFD.
 */
const ANSWER_FORMAT = 5

/**
 * An answer's ETag: it changes with every write to the locator, and with `seed` (ANSWER_FORMAT and
 * PUBLIC_BASE_URL: a restart on another base answers with other links), and differs from one URL to another.
 */
function etagOf(version: string, href: string, seed: number | bigint): string {
  return `W/"${version}-${Bun.hash(href, seed).toString(36)}"`
}

/** Bytes of their own (a Buffer's slice() is a view). */
const copy = (bytes: Uint8Array): Uint8Array => Uint8Array.prototype.slice.call(bytes)

/** The headers of an answer browsers and caches may keep (errors say no-store instead). */
function answerHeaders(etag: string, vary: string): Record<string, string> {
  return { etag, 'cache-control': CACHE_CONTROL, vary }
}

/**
 * What a locator's answers vary on: the Origin (CORS echoes it), and with a referrer allowlist the
 * Referer too, which decides for a request without an Origin (a page's own fetch): a shared cache
 * must not give the answer a listed site got to a request from another, which is refused.
 */
const varyOf = (locator: Locator): string => (locator.referrers.length === 0 ? 'Origin' : 'Origin, Referer')

const CACHE_CONTROL = 'public, max-age=60'

/**
 * The headers of every answer fast() sends, as the app's responses have them: the CORS plugin's
 * for a GET (the origin "*" until a request names one), the answer's caching and type. The rest
 * are set per response (sendWith); test/public/caching.test.ts compares its responses with the app's.
 */
const FAST_HEADERS = new Headers({
  'access-control-expose-headers': CORS.exposeHeaders.join(', '),
  'access-control-allow-headers': CORS.allowedHeaders.join(', '),
  vary: 'Origin',
  'access-control-allow-origin': '*',
  'access-control-allow-methods': CORS.methods.join(', '),
  'cache-control': CACHE_CONTROL,
  'content-type': JSON_TYPE,
})

/** The headers a fast answer's responses are made from: FAST_HEADERS, the ETag, and those sendWith sets. */
function responseHeaders(etag: string): ResponseHeaders {
  const headers = new Headers(FAST_HEADERS)
  headers.append('etag', etag)
  return { headers, limit: -1, origin: '*', vary: 'Origin' }
}

/**
 * A fast answer's Response: `start`'s headers with the rate, the CORS origin and the request id set
 * for this one, copied by the Response as it is made (so the same Headers is set again for the
 * next). Made per response, or headers added to the Response's own, it took ~0.3 µs more in process
 * (Response.headers makes an object for them, and append and set each look the name up).
 */
function sendWith(start: ResponseHeaders, body: Blob | Uint8Array, decision: RateDecision, origin: string | null, vary: string, requestId: string): Response {
  const { headers } = start
  if (start.vary !== vary) {
    headers.set('vary', vary)
    start.vary = vary
  }
  if (start.limit !== decision.limit) {
    headers.set('ratelimit-limit', String(decision.limit))
    start.limit = decision.limit
  }
  const allow = origin || '*'
  if (allow !== start.origin) {
    headers.set('access-control-allow-origin', allow)
    start.origin = allow
  }
  headers.set('ratelimit-remaining', String(decision.remaining))
  headers.set('ratelimit-reset', String(decision.resetSeconds))
  headers.set('x-request-id', requestId)
  return new Response(body, { headers })
}

/** A path segment percent-decoded as the router decodes its parameters; as it is when it cannot be. */
function decoded(segment: string | null): string | null {
  if (segment === null || !segment.includes('%')) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
