// Builds the HTTP application; never listens (src/server/listen.ts does). Tests call app.handle(...).
import { AdminError } from '../api/admin/errors'
import { publicRoutes, type RequestNote } from '../api/public'
import { PublicError } from '../api/public/errors'
import { CORS } from '../api/public/headers'
import { townsFrom } from '../locations/town'
import { guessFrom } from '../locations/town-guess'
import type { Places } from '../api/public/places'
import { clientResolver, type Peer } from '../api/public/clients'
import { type ClientCount, clientCounter, RateLimiter } from '../api/public/guards'
import { originCheck, pathStart, PUBLIC_PREFIX } from '../api/public/url'
import type { Config } from '../core/config'
import { MAX_SEARCH, MAX_TAGS, MAX_URL_LENGTH } from '../core/limits'
import { requestIds } from '../core/ids'
import { requestSeen } from '../engine/locator-index'
import type { Geocoder } from '../geocode/geocoder'
import type { IndexRegistry } from '../indexes/registry'
import type { Store } from '../store'
import {
  type Log,
  logRequest,
  proxyWarning,
  redactingLog,
  sentRequestId,
  type StorageFaultLog,
  storageFaultLog,
  untrustedProxy,
} from './app-log'
import { serviceApp } from './app-routes'
import { harden } from './harden'
import { drainUnread, leftUnread } from '../core/read-bytes'
import { LOOPBACK } from './listen'
import { appUpkeep, createRegistry, type IndexUpkeep } from './app-upkeep'
import { fileSizes, type RequestMetrics } from './metrics'
import { statusNow } from './readiness'
import { methodIndex, routeOf } from './metrics-routes'
import type { Family } from './metrics-text'

/** Whether the request is for /healthz or /readyz (a query after it or not). */
function isProbe(href: string, path: number): boolean {
  const at = href.startsWith('/healthz', path) ? path + 8 : href.startsWith('/readyz', path) ? path + 7 : -1
  return at >= 0 && (at === href.length || href.charCodeAt(at) === 0x3f) // "?"
}

export { MAX_URL_LENGTH }

export const HOST_REFUSED =
  'The Host header is not a host name: send the name (and port) the service is reached at, such as stores.example.com.'
const HOSTS_REFUSED =
  'The request has more than one Host header: send one, the name (and port) the service is reached at.'

/**
 * Why a request's Host is refused (RFC 9112, 3.2), or null. Bun.serve gives a request with no
 * usable Host (HTTP/1.0 may send none; "a/b", "a@b" or "a b" is no host) its path alone as its URL,
 * which every reader of the URL (pathStart, the routers, the links) takes for a full one: none is
 * read as sent to localhost; one that is no host is refused. So are two Host lines: Bun's URL
 * takes the first, which a proxy or cache in front may not. A Host that URL cannot parse (a port
 * past 65535) is refused by the caller.
 */
export function hostRefusal(request: Request): string | null {
  if (request.url.charCodeAt(0) === 0x2f) return request.headers.has('host') ? HOST_REFUSED : null
  return request.headers.get('host')?.includes(',') ? HOSTS_REFUSED : null
}

/** Why a path and query `length` characters long is refused, and what to send instead, for the API asked. */
function urlTooLong(length: number, isPublic: boolean): string {
  const how = isPublic
    ? `Send fewer parameters: tags[] at most ${MAX_TAGS} times, search at most ${MAX_SEARCH} characters.`
    : 'Send data in a JSON request body, not in the URL.'
  return `The request's URL (its path and query string) is ${length.toLocaleString('en-US')} characters long; this service reads at most ${MAX_URL_LENGTH.toLocaleString('en-US')}. ${how}`
}

/**
 * 400 for a request refused before any route (`message` says why), in the error shape of the API
 * asked (the Query API's when `isPublic`, with the CORS of its other errors, so a page reads why).
 */
function refusal(
  isPublic: boolean,
  message: string,
  publicBaseUrl: string | null | undefined,
  id: string,
  admin: boolean,
  request: Request,
) {
  const cors = {
    'access-control-allow-origin': request.headers.get('origin') || '*',
    'access-control-expose-headers': CORS.exposeHeaders.join(', '),
    vary: '*',
  }
  const refused = isPublic
    ? new PublicError('INVALID_PARAMETER', message, cors).toResponse(publicBaseUrl)
    : new AdminError('invalid_request', message).toResponse()
  refused.headers.set('x-request-id', id)
  return harden(refused, admin)
}

/** Whether the path at `path` in `href` is the Query API's: PUBLIC_PREFIX, then "/", "?" or the end. */
export function isQueryApiPath(href: string, path: number): boolean {
  const next = href.charCodeAt(path + PUBLIC_PREFIX.length) // NaN past the end
  return href.startsWith(PUBLIC_PREFIX, path) && (Number.isNaN(next) || next === 0x2f || next === 0x3f) // "/", "?"
}

/**
 * The 400 for a request refused before any route, `hostRefused` (a Host that is no host, see
 * hostRefusal) or a URL too long, or null: its docs link under the request's origin, as the Query
 * API's are (`publicBaseUrl` over it), none from a Host refused.
 */
export function refusedBeforeRoutes(
  request: Request,
  path: number,
  hostRefused: string | null,
  isPublic: boolean,
  publicBaseUrl: string | null | undefined,
  id: string,
): Response | null {
  const href = request.url
  const length = href.length - path
  if (hostRefused === null && length <= MAX_URL_LENGTH) return null
  const base = publicBaseUrl ?? (hostRefused !== null ? null : href.slice(0, path))
  const message = hostRefused ?? urlTooLong(length, isPublic)
  return refusal(isPublic, message, base, id, href.startsWith('/admin/', path), request)
}

/** The change log's last seq; NaN when it cannot be read now, and the change-log series are left out. */
function lastSeqOf(store: Store): number {
  try {
    return store.changes.lastSeq()
  } catch {
    return Number.NaN
  }
}

export type AppDeps = {
  store: Store
  geocoder: Geocoder
  config: Pick<Config, 'maxBodyBytes' | 'logRequests'> &
    Partial<
      Pick<
        Config,
        | 'publicBaseUrl'
        | 'mapTiles'
        | 'clientRateLimit'
        | 'clientRateLimitKnownOnly'
        | 'pageRateLimit'
        | 'trustedProxies'
        | 'host'
        | 'sitemapIndex'
        | 'locatorMaxLocations'
        | 'idempotencyMaxBytes'
      >
    >
  /** The public API's rate limiter (tests pass one with a fake clock). */
  limiter?: RateLimiter
  /** The public API's limiter of client addresses (CLIENT_RATE_LIMIT; tests pass one with a fake clock). */
  clientLimiter?: RateLimiter
  /** The pages' limiter of client addresses (PAGE_RATE_LIMIT; tests pass one with a fake clock). */
  pageLimiter?: RateLimiter
  /** Where request lines and errors go; defaults to stdout/stderr. */
  log?: (line: Record<string, unknown>) => void
  /** false: every public request goes through the Query API's Elysia app, none through its fast path (tests compare the two). */
  publicFastPath?: boolean
  /** How long after a failed index build queries fail at once, and until it is tried again (src/indexes/bounds.ts BUILD_RETRY_MS; tests pass 0). */
  indexBuildRetryMs?: number
  /** Small bounds for the indexes and their JSON (tests, to reach compactions and layouts in a few writes); defaults otherwise. */
  indexUpkeep?: IndexUpkeep
  /** Counts every request and geocoder lookup for GET /metrics (METRICS_PORT); none when absent. */
  metrics?: RequestMetrics
  /** GET /places and near=: the place search (GeocoderStack.places); none when absent. */
  places?: Places
}

/**
 * CLIENT_RATE_LIMIT on: each public request's client is found (clients.ts) and counted;
 * PAGE_RATE_LIMIT on: each page request's (under /l/), in a count of its own. `started` holds
 * each request's note, its client key among it.
 */
function clientLimits(
  deps: Pick<AppDeps, 'config' | 'clientLimiter' | 'pageLimiter'>,
  started: WeakMap<Request, RequestNote>,
  log: Log,
) {
  const perApi = deps.config.clientRateLimit ?? 0
  const perPage = deps.config.pageRateLimit ?? 0
  const trusted = deps.config.trustedProxies ?? []
  // HOST on loopback only lets this machine connect: every peer is a loopback address.
  const onlyHere = deps.config.host !== undefined && LOOPBACK.test(deps.config.host)
  // CLIENT_RATE_LIMIT unset: its default counts the clients known for sure only.
  const scope = deps.config.clientRateLimitKnownOnly !== true ? 'all' : onlyHere ? 'loopback' : 'seen'
  const apiClientOf = perApi > 0 ? clientResolver(trusted, scope, untrustedProxy(log)) : null
  const pageClientOf = perPage > 0 ? clientResolver(trusted) : null
  const pageCounter = clientCounter(deps.pageLimiter ?? new RateLimiter(), perPage)
  const keyOf = (request: Request) => started.get(request)?.client ?? null
  return {
    /** What finds the client key of a request to `href` (its path at `path`); null when none is counted. */
    clientFor: (isPublic: boolean, href: string, path: number) =>
      isPublic ? apiClientOf : href.startsWith('/l/', path) ? pageClientOf : null,
    /** The Query API's deps for CLIENT_RATE_LIMIT. */
    api: { clientRateLimit: perApi, clientLimiter: deps.clientLimiter, clientOf: keyOf },
    /** A page request's count under PAGE_RATE_LIMIT (null: off, or no client known). */
    pageCount: (request: Request): ClientCount | null => pageCounter(keyOf(request)),
  }
}

/**
 * The place search, read in a worker thread (GET /places and near= answer 503 meanwhile), then the
 * reverse lookup's trees, before a write needs them. False: no place data (GEOCODER=none), or it
 * could not be read (the next place search tries again).
 */
const placesWarmer = (places: Places | null) => async (): Promise<boolean> => {
  if (places === null || !(await places.warm())) return false
  await townsFrom(places)().catch(() => null)
  return true
}

/** What the parts of an app share: made once by createApp, from its deps. */
type AppParts = {
  log: Log
  registry: IndexRegistry
  upkeep: ReturnType<typeof appUpkeep>
  storage: StorageFaultLog
  /** Each request's note (its id, client, locator), from when it came in to its log line. */
  started: WeakMap<Request, RequestNote>
  metrics: RequestMetrics | null
  clients: ReturnType<typeof clientLimits>
}

export function createApp(deps: AppDeps) {
  const log = redactingLog(deps.log)
  const registry = createRegistry(deps.store, log, deps.indexUpkeep, deps.indexBuildRetryMs)
  const upkeep = appUpkeep(deps.store, registry, log)
  const storage = storageFaultLog(deps.store, log)
  const started = new WeakMap<Request, RequestNote>()
  const metrics = deps.metrics ?? null
  const clients = clientLimits(deps, started, log)
  const parts: AppParts = { log, registry, upkeep, storage, started, metrics, clients }
  const publicApi = queryApi(deps, parts)
  const handle = requestHandler(deps, parts, publicApi, otherApp(deps, parts))
  /** How many answers were sent from the answer cache (identical public requests between two writes) since the app was made. */
  const cacheHits = publicApi.cacheHits
  const metricFamilies = metricsReader(deps, parts, cacheHits)
  const { sync, evictIdle, retryFailedBuilds, settleDeltas, checkFile } = upkeep
  // A start's: the indexes (/readyz says "loading" meanwhile), then the place data, once it serves.
  const starts = { preload: upkeep.preload, warmPlaces: placesWarmer(deps.places ?? null) }
  return { handle, ...starts, sync, evictIdle, retryFailedBuilds, settleDeltas, checkFile, cacheHits, metricFamilies }
}

/** The Query API's app and fast path, each request's id and locator kept in its note. */
function queryApi(deps: AppDeps, { log, registry, started, clients }: AppParts) {
  return publicRoutes({
    store: deps.store,
    registry,
    limiter: deps.limiter,
    publicBaseUrl: deps.config.publicBaseUrl ?? null,
    log,
    requestId: (request) => started.get(request)!.id,
    onLocator: (request, locatorId) => {
      const s = started.get(request)
      if (s) s.locator = locatorId
    },
    places: deps.places ?? null,
    ...clients.api,
  })
}

/** The app for every path outside the Query API, its geocoder counted when metrics are on. */
function otherApp(deps: AppDeps, { log, registry, upkeep, storage, started, metrics, clients }: AppParts) {
  return serviceApp({
    store: deps.store,
    geocoder: metrics === null ? deps.geocoder : metrics.countGeocoder(deps.geocoder),
    towns: townsFrom(deps.places ?? null),
    guess: guessFrom(deps.places ?? null),
    maxBodyBytes: deps.config.maxBodyBytes,
    limits: deps.config,
    registry,
    log,
    storage,
    noteOf: (request) => started.get(request),
    preloading: upkeep.preloading,
    publicBaseUrl: deps.config.publicBaseUrl ?? null,
    mapTiles: deps.config.mapTiles ?? null,
    sitemapIndex: deps.config.sitemapIndex ?? true,
    pageCount: clients.pageCount,
  })
}

/**
 * The app's handler of every request (its `handle`), given the Query API and the app for the
 * other paths.
 */
function requestHandler(
  deps: AppDeps,
  parts: AppParts,
  publicApi: ReturnType<typeof queryApi>,
  other: ReturnType<typeof otherApp>,
) {
  const { log, registry, started, metrics, clients } = parts
  const requestId = requestIds()
  const fastPath = deps.publicFastPath ?? true
  const parsesOrigin = originCheck()
  const seeProxy = deps.config.publicBaseUrl ? null : proxyWarning(log)
  const syncThen = writeSynced(parts)

  /**
   * Every request: a request id (the log line's, and X-Request-Id, which each app puts among its
   * response's headers: set on a made Response, it slows cached answers, PERF-036), then
   * for paths under PUBLIC_PREFIX the Query API's fast path (a kept answer, or a /locations answer
   * made without Elysia) if it takes the request, else its app (given the request as it came: no
   * copy for a mount), the other app for the rest; after a POST (the Management API's writes)
   * sync(), so the write is in this process's indexes; then its metrics, and one log line.
   * `peer`: the server the request came to (Bun.serve's), which knows the socket's address.
   */
  return function handle(request: Request, peer?: Peer): Response | Promise<Response> {
    const logging = deps.config.logRequests
    const t0 = logging || metrics !== null ? performance.now() : 0
    const s: RequestNote = { id: sentRequestId(request) ?? requestId() }
    seeProxy?.(request)
    // A request with no usable Host is read as sent to localhost (its links too, unless
    // PUBLIC_BASE_URL is set): see hostRefusal.
    let hostRefused = hostRefusal(request)
    const sent = request // the socket's address is known of the request Bun gave
    if (request.url.charCodeAt(0) === 0x2f) request = new Request(`http://localhost${request.url}`, request)
    const href = request.url
    const path = pathStart(href)
    // Background work rests between its turns while requests come; a health probe is none (a
    // start's preload, polled by /readyz, would otherwise take several times as long).
    if (!isProbe(href, path)) requestSeen()
    if (!parsesOrigin(href, path)) hostRefused = HOST_REFUSED
    const isPublic = isQueryApiPath(href, path)
    const refused = refusedBeforeRoutes(request, path, hostRefused, isPublic, deps.config.publicBaseUrl, s.id)
    if (refused !== null) {
      if (metrics !== null) metrics.record(routeOf(href, path, isPublic), methodIndex(request.method), 400, t0)
      return logging ? logRequest(log, request, refused, t0, s) : refused
    }
    s.client = clients.clientFor(isPublic, href, path)?.(sent, peer)
    // The fast path answers from this turn, without a promise.
    const fast = isPublic && fastPath ? publicApi.fast(request, s) : null
    if (fast) {
      if (metrics !== null) metrics.fastAnswer(href, path, fast.status, t0)
      if (logging) logRequest(log, request, fast, t0, s)
      return fast
    }
    started.set(request, s)
    const admin = href.startsWith('/admin/', path)
    const post = request.method === 'POST'
    // Taken before the write commits: another request's sync may read the write first (a shared commit).
    const mark = post ? registry.buildMark() : 0
    // Drained only when there is a body to drain: an await on every answer costs it a few ticks.
    let made = (isPublic ? publicApi.app : other)
      .handle(request)
      .then((response) =>
        leftUnread(request) ? drainUnread(request).then(() => harden(response, admin)) : harden(response, admin),
      )
    // A POST's write (the Management API's) is applied to this process's indexes right after its
    // commit, with the others committed with it: not left for the idle sync, which would apply a
    // second's worth at once (at ~2k creates/s, a turn of the event loop ~0.2 s long every second).
    if (post) made = made.then((response) => syncThen(response, mark, s.locator))
    if (metrics !== null) {
      const route = routeOf(href, path, isPublic)
      const method = methodIndex(request.method)
      made = made.then((response) => {
        metrics.record(route, method, response.status, t0)
        return response
      })
    }
    return logging ? made.then((response) => logRequest(log, request, response, t0, s)) : made
  }
}

/**
 * sync(), then the response, once the written locator's index shows the write whole
 * (registry.builtAfter). Other locators' work read by the same sync (a shared commit) is not
 * waited for: their queries wait for it themselves (registry.whenBuilt).
 */
const writeSynced =
  ({ upkeep, storage, registry }: AppParts) =>
  (response: Response, mark: number, locatorId: string | undefined): Response | Promise<Response> => {
    upkeep.sync()
    storage.noteRecovered()
    if (locatorId === undefined || !response.ok) return response // no key, or refused: nothing written
    return registry.builtAfter(mark, locatorId)?.then(() => response) ?? response
  }

/** The app's counts and readings for GET /metrics; none without deps.metrics. */
const metricsReader =
  (deps: AppDeps, { registry, upkeep, metrics }: AppParts, cacheHits: () => number) =>
  (): Family[] => {
    if (metrics === null) return []
    const { appliedSeq, indexes } = registry.readings()
    const lastSeq = lastSeqOf(deps.store)
    const commits = deps.store.writeCount()
    const status = statusNow({ store: deps.store, registry, preloading: upkeep.preloading })
    const files = fileSizes(deps.store.path)
    return [
      ...metrics.families(),
      ...metrics.readingFamilies({ cacheHits: cacheHits(), indexes, lastSeq, appliedSeq, commits, status, files }),
    ]
  }
export type App = ReturnType<typeof createApp>
