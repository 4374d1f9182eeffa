// Builds the HTTP application; never listens (src/server/listen.ts does). Tests call app.handle(...).
import { Elysia } from 'elysia'
import { adminRoutes } from '../api/admin'
import { AdminError, adminErrorOf, storageUnavailable } from '../api/admin/errors'
import type { Config } from '../core/config'
import type { Geocoder } from '../geocode/geocoder'
import { redactSecrets, requestIds } from '../core/ids'
import type { RateLimiter } from '../api/public/guards'
import { publicRoutes, type RequestNote } from '../api/public'
import { pathAndQuery, pathStart, PUBLIC_PREFIX, SHORT_HOSTS } from '../api/public/url'
import { PublicError } from '../api/public/errors'
import { docsPage } from '../api/public/docs'
import { IndexRegistry } from '../indexes/registry'
import type { IndexOptions } from '../engine/locator-index'
import type { Store } from '../store'
import { FileMovedError, isBusyError, storageFault, storageFaultText, type StorageFault } from '../store/db'

export type AppDeps = {
  store: Store
  geocoder: Geocoder
  config: Pick<Config, 'maxBodyBytes' | 'logRequests'> & Partial<Pick<Config, 'publicBaseUrl'>>
  /** The public API's rate limiter (tests pass one with a fake clock). */
  limiter?: RateLimiter
  /** Where request lines and errors go; defaults to stdout/stderr. */
  log?: (line: Record<string, unknown>) => void
  /** false: every public request goes through the Query API's Elysia app, none through its fast path (tests compare the two). */
  publicFastPath?: boolean
  /** How long after a failed index build queries fail at once, and until it is tried again (src/indexes/registry.ts BUILD_RETRY_MS; tests pass 0). */
  indexBuildRetryMs?: number
  /** Small bounds for the indexes and their JSON (tests, to reach compactions and layouts in a few writes); defaults otherwise. */
  indexUpkeep?: { index?: Omit<IndexOptions, 'schedule'>; reorderMinBytes?: number; backlogMin?: number }
}

const ADMIN_ROUTES =
  'The Management API has GET /admin/v1/locations, GET /admin/v1/locations/{id}, GET /admin/v1/custom_fields, POST /admin/v1/locations (create), POST /admin/v1/locations/{id} (update) and POST /admin/v1/locations/{id}/delete (delete).'

/** A storage fault is logged at most this often (each cause apart), with the count of requests it refused meanwhile. */
const STORAGE_LOG_EVERY_MS = 60_000

const STORAGE_FAULT_NAMES: Record<StorageFault, string> = { full: 'disk full', readonly: 'read-only database', io: 'I/O error' }

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } })

/** The most of a request's path its log line quotes. */
const LOGGED_PATH_CHARS = 512

export function createApp(deps: AppDeps) {
  const write = deps.log ?? ((line) => console.log(JSON.stringify(line)))
  // A key sent where it does not belong (a public URL) must not reach the log either.
  const log = (line: Record<string, unknown>) => {
    const safe: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(line)) safe[k] = typeof v === 'string' ? redactSecrets(v) : v
    write(safe)
  }
  const registry = new IndexRegistry(deps.store, undefined, {
    ...deps.indexUpkeep,
    buildRetryMs: deps.indexBuildRetryMs,
    onRebuilt: (locatorId, locations, ms) => log({ level: 'info', message: 'index built again after it was let go; requests waited meanwhile', locator: locatorId, locations, ms: Math.round(ms) }),
    onBacklog: (locatorId, changes) =>
      log({ level: 'info', message: 'many location changes committed at once (a bulk import): the index is built again from the rows rather than changed one by one', locator: locatorId, changes }),
    onRewound: (applied, now, cause) =>
      log({
        level: 'warn',
        message:
          cause === 'pruned'
            ? 'the change log was pruned past the changes this process had applied (it applied none for an hour): every index is built again from the rows'
            : 'the change log went back (a backup restored into the database file, or another file put in its place): every index is built again from the rows',
        applied_seq: applied,
        log_seq: now,
      }),
    onBuildFailed: (locatorId, e) =>
      log({
        level: 'error',
        message: `index not built from its rows: its locator's public queries answer 503 until they are repaired (tried again every ${registry.buildRetryMs / 1000} s)`,
        locator: locatorId,
        error: (e as Error)?.message ?? String(e),
        stack: (e as Error)?.stack,
      }),
  })
  const started = new WeakMap<Request, RequestNote>()
  const requestId = requestIds()

  /**
   * Storage faults met by requests (disk full, read-only, I/O error): when each cause was last
   * logged, and the requests it refused since. One line a minute a cause, not one a request: a
   * sync script retrying against a full disk wrote a stack trace per request.
   */
  const storageSeen = new Map<StorageFault, { loggedAt: number; refused: number }>()
  function reportStorageFault(fault: StorageFault, error: unknown): void {
    const seen = storageSeen.get(fault) ?? { loggedAt: -Infinity, refused: 0 }
    storageSeen.set(fault, seen)
    seen.refused++
    const now = performance.now()
    if (now - seen.loggedAt < STORAGE_LOG_EVERY_MS) return
    // The path, SQLite's words and the count: no request data, so no key can reach the line.
    log({ level: 'error', message: storageFaultText(fault, deps.store.path), database: deps.store.path, error: (error as Error)?.message, refused_requests: seen.refused, next_report_in_s: STORAGE_LOG_EVERY_MS / 1000 })
    seen.loggedAt = now
    seen.refused = 0
  }
  /** After a write: once one commits again (store.writeFault() cleared), says so, once, and forgets the faults. */
  function noteStorageRecovered(): void {
    if (storageSeen.size === 0 || deps.store.writeFault() !== null) return
    const passed = [...storageSeen.keys()].map((fault) => STORAGE_FAULT_NAMES[fault]).join(', ')
    log({ level: 'info', message: `database writes succeed again: the ${passed} met before has passed`, database: deps.store.path })
    storageSeen.clear()
  }

  /** preload() calls under way: /readyz says "loading" while any is. */
  let preloading = 0

  const fastPath = deps.publicFastPath ?? true
  const publicApi = publicRoutes({
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
  })
  const otherApp = new Elysia({ handler: SHORT_HOSTS })
    .onRequest(({ set, request }) => {
      set.headers['x-request-id'] = started.get(request)!.id
    })
    .onError({ as: 'global' }, ({ code, error, request, path }) => {
      const known = adminErrorOf(error)
      if (known !== null) return known.toResponse()
      if (code === 'NOT_FOUND') {
        // Through the error table, which does not quote back a secret key sent as the path. Under
        // /admin/v1, most often a REST habit (PUT, PATCH or DELETE on /locations/{id}): name the routes there are.
        const where = path === '/admin/v1' || path.startsWith('/admin/v1/') ? ADMIN_ROUTES : 'The Management API lives under /admin/v1.'
        return new AdminError('not_found', `No route ${request.method} ${path}. ${where}`).toResponse()
      }
      if (isBusyError(error)) return new AdminError('unavailable').toResponse()
      // Disk full, read-only, I/O error: SQLite undid the transaction, so nothing changed; the
      // client may retry later, and the operator is told (once a minute) what to mend.
      const fault = storageFault(error)
      if (fault !== null) {
        reportStorageFault(fault, error)
        return storageUnavailable(fault).toResponse()
      }
      if (error instanceof FileMovedError) return new AdminError('unavailable', error.message).toResponse()
      const e = error as Error
      log({ level: 'error', request_id: started.get(request)?.id, method: request.method, path, error: e?.message, stack: e?.stack })
      return json(500, { success: false, error: 'error', message: 'Internal server error. The error was logged; quote the X-Request-Id header when reporting it.' })
    })
    .get('/healthz', () => ({ status: 'ok' }))
    // The page the Query API's error bodies link to (docs: "/docs#<CODE>").
    .get('/docs', () => new Response(docsPage(), { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=3600' } }))
    .get('/readyz', ({ set }) => {
      deps.store.db.query('SELECT 1').get()
      const moved = deps.store.fileMoved()
      if (moved !== null) {
        set.status = 503
        return { status: 'failed', message: moved.message }
      }
      if (preloading > 0) {
        set.status = 503
        set.headers['retry-after'] = '1'
        return { status: 'loading', message: "The locators' indexes are being built; public queries are answered meanwhile, more slowly." }
      }
      // Writes refused by the storage in the last minute, none written since: public queries and
      // Management API reads are answered, so ready (200, as for a locator that cannot be built):
      // every server on this file meets the same disk, and a load balancer would drop them all.
      const fault = deps.store.writeFault()
      if (fault !== null && performance.now() - fault.at < STORAGE_LOG_EVERY_MS) {
        return { status: 'degraded', message: `Writes are refused: ${storageFaultText(fault.fault, deps.store.path)} Public queries are answered meanwhile.` }
      }
      const failed = registry.buildFailures()
      if (failed.length > 0) {
        const message = `${failed.map((f) => redactSecrets(f.message)).join('; ')}. Public queries to ${failed.length === 1 ? 'that locator' : 'those locators'} fail until the rows are repaired (tried again every ${registry.buildRetryMs / 1000} s, no restart needed).`
        const locators = failed.map((f) => f.locatorId)
        // Unready only when no public locator can be served: the others' queries are answered, and
        // every server on this database meets the same rows (a load balancer would drop them all).
        const servable = deps.store.locators.list().some((l) => l.active && l.queryApiEnabled && !locators.includes(l.id))
        if (servable) return { status: 'degraded', message, locators }
        set.status = 503
        return { status: 'failed', message, locators }
      }
      return { status: 'ready' }
    })
    .use(
      adminRoutes({
        store: deps.store,
        geocoder: deps.geocoder,
        maxBodyBytes: deps.config.maxBodyBytes,
        onAuthenticated: (request, locatorId) => {
          const s = started.get(request)
          if (s) s.locator = locatorId
        },
      }),
    )

  /**
   * Every request: a request id (the log line's, and X-Request-Id, which each app puts among its
   * response's headers: set on a made Response, it costs 6% of a cached answer's throughput), then
   * for paths under PUBLIC_PREFIX the Query API's fast path (a kept answer, or a /locations answer
   * made without Elysia) if it takes the request, else its app (given the request as it came: no
   * copy for a mount), the other app for the rest; after a POST (the Management API's writes)
   * sync(), so the write is in this process's indexes; then one log line.
   */
  function handle(request: Request): Response | Promise<Response> {
    const logging = deps.config.logRequests
    const t0 = logging ? performance.now() : 0
    const s: RequestNote = { id: requestId() }
    // Bun.serve gives a request with no usable Host (HTTP/1.0 may send none; "a/b", "a@b" or "a b"
    // is no host) its path alone as its URL, which every reader of the URL here (pathStart, the
    // routers, the links) takes for a full one: it was answered for another path, or with a 500.
    // Read as sent to localhost (its links too, unless PUBLIC_BASE_URL is set); a Host that is no
    // host gets 400 below (RFC 9112, 3.2).
    let badHost = false
    if (request.url.charCodeAt(0) === 0x2f) {
      badHost = request.headers.has('host')
      request = new Request(`http://localhost${request.url}`, request)
    }
    const href = request.url
    const path = pathStart(href)
    const next = href.charCodeAt(path + PUBLIC_PREFIX.length) // NaN past the end
    const isPublic = href.startsWith(PUBLIC_PREFIX, path) && (Number.isNaN(next) || next === 0x2f || next === 0x3f) // "/", "?"
    if (badHost) {
      const message = 'The Host header is not a host name: send the name (and port) the service is reached at, such as stores.example.com.'
      const refused = isPublic ? new PublicError('INVALID_PARAMETER', message).toResponse(deps.config.publicBaseUrl) : new AdminError('invalid_request', message).toResponse()
      refused.headers.set('x-request-id', s.id)
      return logging ? logRequest(request, refused, t0, s) : refused
    }
    // The fast path answers from this turn, without a promise.
    const fast = isPublic && fastPath ? publicApi.fast(request, s) : null
    if (fast) {
      if (logging) logRequest(request, fast, t0, s)
      return fast
    }
    started.set(request, s)
    let made = (isPublic ? publicApi.app : otherApp).handle(request)
    // A POST's write (the Management API's) is applied to this process's indexes right after its
    // commit, with the others committed with it: not left for the idle sync, which would apply a
    // second's worth at once (at ~2k creates/s, a turn of the event loop ~0.2 s long every second).
    if (request.method === 'POST') made = made.then(syncThen)
    return logging ? made.then((response) => logRequest(request, response, t0, s)) : made
  }

  /** sync(), then the response. */
  function syncThen(response: Response): Response {
    sync()
    noteStorageRecovered()
    return response
  }

  /** The request's log line; returns the response. */
  function logRequest(request: Request, response: Response, t0: number, s: RequestNote): Response {
    const target = pathAndQuery(request.url)
    const query = target.indexOf('?')
    const path = query === -1 ? target : target.slice(0, query)
    const line: Record<string, unknown> = { method: request.method, path, status: response.status, ms: Math.round((performance.now() - t0) * 100) / 100, locator: s.locator ?? null, request_id: s.id }
    // A path of up to ~16 KB reaches here (Bun answers longer ones itself): its start, and its length.
    // Keys are redacted before the cut, which could leave too little of one for the pattern to find.
    if (path.length > LOGGED_PATH_CHARS) Object.assign(line, { path: `${redactSecrets(path).slice(0, LOGGED_PATH_CHARS)}...`, path_chars: path.length })
    log(line)
    return response
  }
  /**
   * Builds every locator's index (those with the Query API on) now rather than on its first query,
   * and waits for their background work; /readyz answers 503 meanwhile. A locator whose index
   * cannot be built is logged and skipped (/readyz then says so). Resolves with what it loaded.
   */
  async function preload(): Promise<{ locators: number; locations: number; failed: number }> {
    preloading++
    try {
      const { failed, ...loaded } = await registry.preload() // each failure logged as it happened (onBuildFailed)
      return { ...loaded, failed: failed.length }
    } finally {
      preloading--
    }
  }
  /** Tries again the index builds that failed (registry.retryFailedBuilds); the idle sync (src/server/upkeep.ts) calls it every second. */
  function retryFailedBuilds(): void {
    registry.retryFailedBuilds()
  }
  /** Compacts the indexes with enough changes to fold in that no write reached in `quietMs`, or whose base is `staleMs` old (registry.settleDeltas); the idle sync (src/server/upkeep.ts) calls it every second. */
  function settleDeltas(quietMs: number, staleMs: number): void {
    registry.settleDeltas(quietMs, staleMs)
  }
  /**
   * Lets go of the indexes no public request has asked for in `idleMs` (registry.evictIdle; their
   * next query builds them again), one log line each. the idle sync (src/server/upkeep.ts) calls it every second. Returns
   * how many it let go.
   */
  function evictIdle(idleMs: number): number {
    const gone = registry.evictIdle(idleMs)
    for (const { locatorId, locations } of gone) {
      log({ level: 'info', message: 'index let go: not queried for a while (INDEX_IDLE_MINUTES); its next query builds it again', locator: locatorId, locations })
    }
    return gone.length
  }
  /**
   * Applies what was committed since the last query (by any process), as each query does first:
   * The idle sync (src/server/upkeep.ts) runs it now and then, so changes are applied, and locators made or turned public
   * are built, while no query asks (a worker learns of the demo locator its primary makes so);
   * handle() runs it after each Management API write. A failure is left for the next query to
   * meet: a writer holding the database (busy) silently, anything else logged. With a budget (ms:
   * main's idle sync), false when it stopped with changes left (registry.sync).
   */
  function sync(budgetMs?: number): boolean {
    try {
      return registry.sync(budgetMs)
    } catch (e) {
      if (!isBusyError(e)) log({ level: 'error', message: 'applying committed changes failed', error: (e as Error)?.message, stack: (e as Error)?.stack })
      return true
    }
  }
  /** What the last checkFile() found: logged again only when it changes. */
  let movedSeen: string | null = null
  /**
   * Logs, once, that the database file was deleted or replaced under this process (its writes are
   * then refused with 503, and /readyz says failed), and once when the path names it again.
   * the idle sync (src/server/upkeep.ts) calls it every second.
   */
  function checkFile(): void {
    const moved = deps.store.fileMoved()?.message ?? null
    if (moved === movedSeen) return
    movedSeen = moved
    log(moved === null ? { level: 'info', message: 'the database file is back at its path: writes are taken again' } : { level: 'error', message: moved })
  }
  /** How many answers were sent from the answer cache (identical public requests between two writes) since the app was made. */
  const cacheHits = publicApi.cacheHits
  return { handle, preload, sync, evictIdle, retryFailedBuilds, settleDeltas, checkFile, cacheHits }
}
export type App = ReturnType<typeof createApp>
