// The public Query API (/public/v1/{token}): read-only, answered from the in-memory index.
// Handlers run the guards, then build the body from pre-serialized location JSON.
import { homeLang } from '../../core/languages'
import { DEFAULT_RADIUS } from '../../core/limits'
import { cors } from '@elysiajs/cors'
import { type Context, Elysia } from 'elysia'
import type { Store } from '../../store'
import type { Locator } from '../../store/locators'
import { isBusyError } from '../../store/db'
import { firstToLogDamage, GeodataDamagedError } from '../../geocode/embedded/open'
import type { IndexRegistry } from '../../indexes/registry'
import { writtenPart } from '../../indexes/versions'
import { tagWords } from '../../indexes/entry'
import { locationBody, locationsBody } from './answer'
import { clustersBody, ClustersQuery, clustersVersionMark, leavesBody } from './clusters'
import { queryParams } from './params'
import { placesAnswer, type Places } from './places'
import { AnswerCache } from './answer-cache'
import { databaseBusy, GEODATA_UNREADABLE, noEndpointError, PublicError, publicErrorOf } from './errors'
import { fastPath } from './fast'
import { admit, clientCounter, findSecretKey, RateLimiter, refusal, refuseSecretKey, withPeekedRate } from './guards'
import { ANSWER_FORMAT, answerHeaders, CORS, etagMatches, etagOf, JSON_TYPE, MAX_AGE, varyOf } from './headers'
import { beforeAndQuery, pathAndQuery, pathStart, PUBLIC_PREFIX, SHORT_HOSTS } from './url'

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
  /** GET /places and near=: the place search (null: the service has no place data). */
  places?: Places
  /** CLIENT_RATE_LIMIT: requests a minute per client address, all tokens together; 0 or absent: off. */
  clientRateLimit?: number
  /** The client addresses' limiter (tests pass one with a fake clock). */
  clientLimiter?: RateLimiter
  /** The client key of a request the Elysia app answers (clients.ts); null: not known. */
  clientOf?: (request: Request) => string | null
}

/**
 * A request's id, the locator its token names once looked up, and a Management API request's key
 * id: what its log line says; and its client's key for CLIENT_RATE_LIMIT (clients.ts), when that is on.
 */
export type RequestNote = { id: string; locator?: string; key?: string; client?: string | null }

const utf8 = new TextEncoder()
type Body = (locator: Locator, href: string) => Uint8Array
const noMore = (_: string) => ''
/** Whether an answer to a URL shows or depends on open states (open_now, next_change, the open_now filter). */
type ShowsOpen = (href: string) => boolean
const always: ShowsOpen = () => true
const never: ShowsOpen = () => false

type Set = Context['set']
type Answered = string | Uint8Array | Promise<Answered>

/** The refusals made before a token is looked up, with that token's rate (see withTokenRate). */
function tokenRates(deps: PublicDeps, limiter: RateLimiter) {
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
      if (!isBusyError(e))
        deps.log({
          level: 'error',
          api: 'public',
          request_id: deps.requestId(request),
          message: 'looking up a token for its rate headers failed; answered without them',
          error: (e as Error)?.message,
        })
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

  return { withTokenRate, refuseWithRate }
}

/**
 * The Query API: an Elysia app of its own with the full paths (src/server/app.ts sends it every request
 * under PUBLIC_PREFIX), so CORS (a global onRequest hook) stays on this API; and `fast`, which
 * src/server/app.ts asks first.
 */
export function publicRoutes(deps: PublicDeps) {
  const limiter = deps.limiter ?? new RateLimiter()
  const answers = new AnswerCache()
  /**
   * The ETags' hash seed: the answers' format, the base their links are made on (PUBLIC_BASE_URL)
   * and the place search's version, so that places ranked anew with no write in between (/places,
   * near=) are not kept by browsers that revalidate.
   */
  const etagSeed = Bun.hash(`${deps.publicBaseUrl ?? ''} ${deps.places?.version ?? ''}`, ANSWER_FORMAT)
  /**
   * The URL answers are made for (their pagination links), as URL's href writes it: as sent
   * (Bun's request.url is written so; parsing it again costs a request time, PERF-036), or under
   * the configured public base.
   */
  const publicHref = (href: string) =>
    deps.publicBaseUrl ? new URL(deps.publicBaseUrl + pathAndQuery(href)).href : href
  const places = deps.places ?? null
  /** GET /places' body: one for every request, as it needs only the registry and the place search. */
  const placesOf = placesBody(deps.registry, places)
  const clustersMark = (locatorId: string) => clustersVersionMark(deps.registry, locatorId)
  const clientCount = clientCounter(deps.clientLimiter ?? new RateLimiter(), deps.clientRateLimit ?? 0)
  /** Without PUBLIC_BASE_URL answers' links name the Host sent: they vary by it (headers.ts varyOf). */
  const hostLinks = !deps.publicBaseUrl
  const fastOnes = fastPath({
    registry: deps.registry,
    limiter,
    answers,
    etagSeed,
    publicHref,
    places,
    clientCount,
    hostLinks,
  })
  const { withTokenRate, refuseWithRate } = tokenRates(deps, limiter)
  /**
   * Guards, conditional GET, then the body. Headers go into `set`, so Elysia makes the response
   * once, with CORS's headers beside ours. A PublicError thrown here renders itself in onError,
   * with the rate headers, once the rate was counted, merged from `set`. `more`: more of the
   * version, for a route whose answers the locator's version does not name alone (clusters);
   * `open`: whether the answer shows open states, else its ETag and max-age outlast openings.
   */
  function respond(request: Request, set: Set, token: string, body: Body, more = noMore, open = always): Answered {
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
    // A large index let go, or not built yet, is built in background tasks: this request waits
    // for it, then is answered as if it came then (counted once); other locators' are not held.
    const built = locator !== null && refusal(locator, request) === null ? deps.registry.whenBuilt(locator.id) : null
    if (built !== null) return built.then(() => respond(request, set, token, body, more, open))
    const admitted = admit(locator, request, limiter, token, clientCount(deps.clientOf?.(request)))
    Object.assign(set.headers, admitted.headers)
    // The answer depends on the locator's version and the URL as sent (and the configuration).
    const href = request.url
    deps.registry.entry(admitted.locator.id) // built first: its version then counts every change it shows
    const current = deps.registry.version(admitted.locator.id)
    // An answer that shows no open state holds until the next write, not the next opening or closing.
    const shows = open(href)
    const version = (shows ? current : writtenPart(current)) + more(admitted.locator.id)
    const etag = etagOf(version, href, etagSeed)
    const ifNoneMatch = request.headers.get('if-none-match')
    const vary = varyOf(admitted.locator, hostLinks)
    const maxAge = shows ? deps.registry.maxAge(admitted.locator.id, MAX_AGE) : MAX_AGE
    if (etagMatches(ifNoneMatch, etag, false)) return notModified(set, etag, vary, maxAge)
    // Made as UTF-8: these bytes are sent, and the cache keeps a Blob of them.
    const answer = body(admitted.locator, publicHref(href))
    answers.offer(href, version, etag, answer)
    if (etagMatches(ifNoneMatch, etag)) return notModified(set, etag, vary, maxAge) // "*": there is an answer
    Object.assign(set.headers, answerHeaders(etag, vary, maxAge))
    set.headers['content-type'] = JSON_TYPE
    return answer
  }

  function notModified(set: Set, etag: string, vary: string, maxAge: number): string {
    Object.assign(set.headers, answerHeaders(etag, vary, maxAge))
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
      const failure = (e: unknown) => failureResponse(deps, e, request, path, base)
      if (code === 'NOT_FOUND') {
        // The path's first segment, where an endpoint's token is: its locator's rate, if it names one.
        const token = decoded(/^\/([^/?#]+)/.exec(pathAndQuery(request.url).slice(PUBLIC_PREFIX.length))?.[1] ?? null)
        const key = findSecretKey(request)
        try {
          if (key) refuseWithRate(key, request, token)
        } catch (e) {
          return failure(e) // SECRET_KEY_EXPOSED
        }
        return withTokenRate(noEndpointError(request.method, path), request, token).toResponse(base)
      }
      return failure(error)
    })
    .use(cors({ origin: true, credentials: false, ...CORS }))
    // Copied out of the registry's answer buffer: Elysia makes the Response after an await, when
    // another answer may have been written there (test/public/locations-radius.test.ts asks many
    // at once).
    .get('/:token/locations', ({ request, params, set }) =>
      respond(request, set, params.token, (locator, href) =>
        copy(locationsBody(deps.registry, locator, href, places).body),
      ),
    )
    .get('/:token/places', ({ request, params, set }) => respond(request, set, params.token, placesOf, noMore, never))
    .get('/:token/locations/:id', ({ request, params, set }) =>
      respond(request, set, params.token, (locator) => locationBody(deps.registry, locator, params.id)),
    )
    // Clusters show no open state: only their open_now filter depends on it.
    .get('/:token/clusters', ({ request, params, set }) => {
      const query = new ClustersQuery(request.url)
      return respond(
        request,
        set,
        params.token,
        (l) => clustersBody(deps.registry, l, query),
        clustersMark,
        () => query.showsOpen(),
      )
    })
    .get('/:token/clusters/:id/leaves', ({ request, params, set }) =>
      respond(request, set, params.token, (l, href) => leavesBody(deps.registry, l, params.id, href), clustersMark),
    )
    .get('/:token/filters', ({ request, params, set }) =>
      respond(request, set, params.token, (locator) => filtersBody(deps.registry, locator), noMore, never),
    )
  return { app, fast: fastOnes.fast, cacheHits: fastOnes.cacheHits }
}

/** The error's own response, 503 for a busy database, else a 500 whose cause is logged (by the request id). */
function failureResponse(deps: PublicDeps, e: unknown, request: Request, path: string, base: string): Response {
  const known = publicErrorOf(e)
  if (known !== null) return known.toResponse(base)
  if (isBusyError(e)) return databaseBusy().toResponse(base)
  if (e instanceof GeodataDamagedError) {
    if (firstToLogDamage()) deps.log({ level: 'error', message: e.message })
    return new PublicError('UNAVAILABLE', GEODATA_UNREADABLE).toResponse(base)
  }
  const err = e as Error
  deps.log({
    level: 'error',
    api: 'public',
    request_id: deps.requestId(request),
    method: request.method,
    path,
    error: err?.message,
    stack: err?.stack,
  })
  return new PublicError('INTERNAL_ERROR').toResponse(base)
}

/** GET /places: the places `q` names, the locator's locations breaking ties (places.ts). */
const placesBody =
  (registry: IndexRegistry, places: Places): Body =>
  (locator, href) => {
    const entry = registry.entry(locator.id)
    const answer = placesAnswer(places, entry.index, queryParams(beforeAndQuery(href)[1]), tagWords(entry))
    return utf8.encode(JSON.stringify(answer))
  }

/**
 * GET /filters: the groups, and what a finder shows before its visitor chooses (GET /locations'
 * unit is miles unless sent); `language`: that of the locator's own pages without ?lang=.
 */
function filtersBody(registry: PublicDeps['registry'], locator: Locator): Uint8Array {
  return utf8.encode(
    JSON.stringify({
      success: true,
      data: { filters: registry.filters(locator.id) },
      meta: {
        radius: locator.defaultRadius ?? DEFAULT_RADIUS,
        unit: locator.defaultUnit,
        language: homeLang(locator),
      },
    }),
  )
}

/** Bytes of their own (a Buffer's slice() is a view). */
const copy = (bytes: Uint8Array): Uint8Array => Uint8Array.prototype.slice.call(bytes)

/** A path segment percent-decoded as the router decodes its parameters; as it is when it cannot be. */
function decoded(segment: string | null): string | null {
  if (segment === null || !segment.includes('%')) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
