// The Query API's response headers: CORS, caching and ETags, and the fast path's reused Headers.
import type { Locator } from '../../store/locators'
import type { ResponseHeaders } from './answer-cache'
import type { RateDecision } from './guards'

export const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * CORS for the Query API: any origin (the referrer allowlist is a guard of its own), these methods
 * and headers; a preflight kept 10 minutes (the plugin's 5 s preflights nearly every revalidation).
 * Exposed: what a page's script reads besides the body, Allow for a 405 (METHOD_NOT_ALLOWED) too.
 */
export const CORS = {
  maxAge: 600,
  methods: ['GET', 'OPTIONS'],
  allowedHeaders: ['Content-Type', 'If-None-Match'],
  exposeHeaders: [
    'Allow',
    'ETag',
    'RateLimit-Limit',
    'RateLimit-Remaining',
    'RateLimit-Reset',
    'Retry-After',
    'X-Request-Id',
  ],
}

/** How long browsers and caches may keep an answer (s); less when a location in it opens or closes sooner. */
export const MAX_AGE = 60
const cacheControl = (maxAge: number) => `public, max-age=${maxAge}`
export const CACHE_CONTROL = cacheControl(MAX_AGE)

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
 * 6: each location carries its timezone.
 * 7: each location carries open_now and next_change.
 * 8: a location the geocoder placed only at its postcode or town has coordinates.approximate.
 */
export const ANSWER_FORMAT = 8

/**
 * An answer's ETag: it changes with every write to the locator, and with `seed` (ANSWER_FORMAT and
 * PUBLIC_BASE_URL: a restart on another base answers with other links), and differs from one URL to another.
 */
export function etagOf(version: string, href: string, seed: number | bigint): string {
  return `W/"${version}-${Bun.hash(href, seed).toString(36)}"`
}

/**
 * If-None-Match holds "*" or a comma-separated list of ETags; weak comparison, as for GET. "*"
 * matches any answer there is (`star`): only once the request proved to have one (RFC 9110
 * 13.1.2), not a request that fails its checks.
 */
export function etagMatches(header: string | null, etag: string, star = true): boolean {
  if (header === null) return false
  const bare = (tag: string) => tag.trim().replace(/^W\//, '')
  return header.split(',').some((tag) => (star && tag.trim() === '*') || bare(tag) === bare(etag))
}

/**
 * An answer is data for a page's script, no page of its own: search engines that fetch one as the
 * page runs (Googlebot renders scripts) are told not to list it. The store pages say where it is.
 */
export const ROBOTS_TAG = 'noindex'

/** The headers of an answer browsers and caches may keep (errors say no-store instead). */
export function answerHeaders(etag: string, vary: string, maxAge: number): Record<string, string> {
  return {
    etag,
    'cache-control': maxAge === MAX_AGE ? CACHE_CONTROL : cacheControl(maxAge),
    vary,
    'x-robots-tag': ROBOTS_TAG,
  }
}

/**
 * What a locator's answers vary on: the Origin (CORS echoes it), and with a referrer allowlist the
 * Referer too, which decides for a request without an Origin (a page's own fetch): a shared cache
 * must not give the answer a listed site got to a request from another, which is refused. With
 * `hostLinks` (no PUBLIC_BASE_URL) the Host too: links then name the Host sent, which a client may
 * forge, and a cache keyed without it (nginx's default key) would give them to every visitor.
 */
export function varyOf(locator: Locator, hostLinks: boolean): string {
  const referer = locator.referrers.length > 0
  if (hostLinks) return referer ? 'Origin, Referer, Host' : 'Origin, Host'
  return referer ? 'Origin, Referer' : 'Origin'
}

/**
 * The headers of every answer fast() sends, as the app's responses have them: the CORS plugin's
 * for a GET (the origin "*" until a request names one), the answer's caching and type. The rest
 * are set per response (sendWith); test/public/caching-fast-path.test.ts compares its responses
 * with the app's.
 */
export const FAST_HEADERS = new Headers({
  'access-control-expose-headers': CORS.exposeHeaders.join(', '),
  'access-control-allow-headers': CORS.allowedHeaders.join(', '),
  vary: 'Origin',
  'access-control-allow-origin': '*',
  'access-control-allow-methods': CORS.methods.join(', '),
  'cache-control': CACHE_CONTROL,
  'content-type': JSON_TYPE,
  'x-content-type-options': 'nosniff',
  'x-robots-tag': ROBOTS_TAG,
})

/** The headers a fast answer's responses are made from: FAST_HEADERS, the ETag, and those sendWith sets. */
export function responseHeaders(etag: string): ResponseHeaders {
  const headers = new Headers(FAST_HEADERS)
  headers.append('etag', etag)
  return { headers, limit: -1, origin: '*', vary: 'Origin', maxAge: MAX_AGE }
}

/**
 * A fast answer's Response: `start`'s headers with the rate, the CORS origin and the request id set
 * for this one, copied by the Response as it is made (so the same Headers is set again for the
 * next). Headers made per response, or added to the Response's own, cost more (Response.headers
 * makes an object for them, and append and set each look the name up; PERF-012, PERF-036).
 */
export function sendWith(
  start: ResponseHeaders,
  body: Blob | Uint8Array,
  decision: RateDecision,
  origin: string | null,
  vary: string,
  requestId: string,
  maxAge: number,
): Response {
  const { headers } = start
  if (start.maxAge !== maxAge) {
    headers.set('cache-control', cacheControl(maxAge))
    start.maxAge = maxAge
  }
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
