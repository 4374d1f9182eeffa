// The Query API's fast path: a GET every guard lets through, answered without Elysia's lifecycle.
import type { IndexRegistry } from '../../indexes/registry'
import { hasOpenPart, writtenLength } from '../../indexes/versions'
import type { AnswerCache, Kept, ResponseHeaders } from './answer-cache'
import { locationsBody } from './answer'
import type { Places } from './places'
import { type ClientCount, findSecretKey, type RateLimiter, refusal } from './guards'
import { clustersVersionMark } from './clusters'
import { etagMatches, etagOf, MAX_AGE, responseHeaders, sendWith, varyOf } from './headers'
import type { RequestNote } from './index'
import { pathStart, PUBLIC_PREFIX } from './url'
import { countAnswer } from './young-garbage'

export type FastDeps = {
  registry: IndexRegistry
  limiter: RateLimiter
  answers: AnswerCache
  /** The ETags' hash seed (see publicRoutes). */
  etagSeed: number | bigint
  /** The URL answers are made for (their pagination links). */
  publicHref: (href: string) => string
  /** Whether answers' links name the Host a request sent (no PUBLIC_BASE_URL): they vary by it (headers.ts varyOf). */
  hostLinks: boolean
  /** near=: the place search. */
  places: Places
  /** The count of a request's client (RequestNote.client); null when not counted. */
  clientCount: (key: string | null | undefined) => ClientCount | null
}

/** The fast path over the Query API's limiter and answer cache; counts the answers it sends from the cache. */
export function fastPath(d: FastDeps) {
  /** The headers of answers made on the fast path, set again for each. */
  const scratch = responseHeaders('')
  /** Answers sent from the answer cache. */
  let cacheHits = 0

  /**
   * The fast path, without Elysia's lifecycle, for a GET that every guard lets through and whose
   * If-None-Match (if any) does not match: a kept answer, or for GET /{token}/locations one made
   * now, sent with the headers the app's response would have (test/public/caching-fast-path.test.ts
   * compares them). Its Response is made in the same turn as the answer (Elysia makes its own after
   * an await), so the answer is sent from the registry's answer buffer, copied once. Anything else,
   * before anything is counted: null, and the app answers: errors, refusals and 304s are its to say
   * and count. Faster than the app for kept and made answers alike (PERF-011, PERF-036).
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
    const kept = d.answers.get(href)
    const start = pathStart(href) + PUBLIC_PREFIX.length + 1 // src/server/app.ts sends only paths under PUBLIC_PREFIX here
    if (href.charCodeAt(start - 1) !== 0x2f) return null // "/public/v1?...": no token (the app says 404)
    const end = href.indexOf('/', start)
    if (end === -1) return null
    // Answers are made here for /locations only: the one asked most, made from the index alone.
    const locations =
      href.startsWith('/locations', end) && (href.length === end + 10 || href.charCodeAt(end + 10) === 63) // "?"
    if (kept === undefined && !locations) return null
    const token = href.slice(start, end)
    if (token.includes('%') || findSecretKey(request) !== null) return null // the app decodes, refuses
    d.registry.sync()
    const locator = d.registry.locatorByToken(token)
    if (locator === null) return null
    noted.locator = locator.id
    if (refusal(locator, request) !== null) return null
    if (d.registry.whenBuilt(locator.id) !== null) return null // built in background tasks: the app waits for it
    d.registry.entry(locator.id) // built first: its version then counts every change it shows
    const version = d.registry.version(locator.id)
    const current =
      kept !== undefined && (kept.version === version || (!locations && keptAt(kept, version, locator.id)))
    if (!current && !locations) return null
    const etag = current ? kept.etag : etagOf(version, href, d.etagSeed)
    if (etagMatches(request.headers.get('if-none-match'), etag)) return null // the app says 304
    // A client over its own limit (CLIENT_RATE_LIMIT): the app counts it and says so.
    const client = d.clientCount(noted.client)
    if (client !== null && !client.limiter.allows(client.key, client.limit)) return null
    let body: Blob | Uint8Array
    if (current) body = kept.body
    else {
      // Asked before the answer is made, which throws for bad parameters (the app says so, and counts).
      if (!d.limiter.allows(token, locator.rateLimit)) return null
      const made = locationsBody(d.registry, locator, d.publicHref(href), d.places).body
      body = d.answers.offer(href, version, etag, made) ?? made
    }
    // Refused: the app counts it and says so.
    const decision = d.limiter.takeIfAllowed(token, locator.rateLimit)
    if (decision === null) return null
    client?.limiter.take(client.key, client.limit) // allowed: asked above, in this turn
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
    // A kept answer made at a written part (it shows no open state) holds until the next write.
    const maxAge = current && !hasOpenPart(kept.version) ? MAX_AGE : d.registry.maxAge(locator.id, MAX_AGE)
    const vary = varyOf(locator, d.hostLinks)
    return sendWith(headers, body, decision, request.headers.get('origin'), vary, noted.id, maxAge)
  }

  /**
   * Whether a kept answer of a route other than /locations is current at `version`: made at it, or
   * at its written part (an answer that shows no open state: index.ts respond), either with this
   * process's clusters mark (clustersVersionMark). Compared in place: no version is made per request.
   */
  function keptAt(kept: Kept, version: string, locatorId: string): boolean {
    const k = kept.version
    const written = writtenLength(version)
    if (k.length === written && version.startsWith(k)) return true // the written part
    const mark = clustersVersionMark(d.registry, locatorId)
    if (mark === '' || !k.endsWith(mark)) return false
    const n = k.length - mark.length
    return (n === version.length || n === written) && samePrefix(k, version, n)
  }

  return { fast, cacheHits: () => cacheHits }
}

/** Whether `a` and `b` have the same first `n` characters (both at least that long). */
function samePrefix(a: string, b: string, n: number): boolean {
  for (let i = 0; i < n; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false
  return true
}
