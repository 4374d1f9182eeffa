// Everything outside the Query API: the Management API, health and readiness, the /docs pages,
// the OpenAPI document, and the one error handler that answers for all of them.
import { Elysia } from 'elysia'
import { adminRoutes } from '../api/admin'
import { AdminError, adminErrorOf, storageUnavailable } from '../api/admin/errors'
import { docsRoutes } from '../api/openapi/routes'
import type { RequestNote } from '../api/public'
import type { ClientCount } from '../api/public/guards'
import { pageRoutes } from '../api/pages'
import { AssetError, UNMADE_RETRY_S } from '../api/pages/assets'
import { errorPage } from '../api/pages/deps'
import { SHORT_HOSTS } from '../api/public/url'
import {
  type Config,
  DEFAULT_IDEMPOTENCY_MAX_MB,
  DEFAULT_LOCATOR_MAX_LOCATIONS,
  type MapTiles,
  MIB,
} from '../core/config'
import { firstToLogDamage, GeodataDamagedError } from '../geocode/embedded/open'
import type { Geocoder } from '../geocode/geocoder'
import { locationCap } from '../locations/cap'
import type { TownSource } from '../locations/town'
import type { TownGuess } from '../locations/town-guess'
import type { IndexRegistry } from '../indexes/registry'
import type { Store } from '../store'
import { DamagedError, isCorruptError } from '../store/damage'
import { FileMovedError, isBusyError, storageFault } from '../store/db'
import type { Log, StorageFaultLog } from './app-log'
import { isPagePath, notFoundAnswer } from './not-found'
import { readinessOf } from './readiness'

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  })

export type ServiceDeps = {
  store: Store
  geocoder: Geocoder
  /** The reverse lookup writes complete address parts with (locations/town.ts). */
  towns?: TownSource
  /** The town a misspelt address may mean (locations/town-guess.ts). */
  guess?: TownGuess
  maxBodyBytes: number
  /** A locator's most locations (LOCATOR_MAX_LOCATIONS) and answers kept a day (IDEMPOTENCY_MAX_MB); each one's default when absent. */
  limits?: Partial<Pick<Config, 'locatorMaxLocations' | 'idempotencyMaxBytes'>>
  registry: IndexRegistry
  log: Log
  storage: StorageFaultLog
  /** The request's id and locator, noted when it came in. */
  noteOf: (request: Request) => RequestNote | undefined
  /** preload() calls under way: /readyz says "loading" while any is. */
  preloading: () => number
  /** The base of the pages' links (PUBLIC_BASE_URL); null: each request's origin. */
  publicBaseUrl: string | null
  /** The tiles the service's own pages draw (MAP_TILES_URL); null: none. */
  mapTiles: MapTiles | null
  /** Whether /sitemap.xml lists every public locator's sitemap (SITEMAP_INDEX); true when absent. */
  sitemapIndex?: boolean
  /** A page request's client count under PAGE_RATE_LIMIT; null: off, or no client known. */
  pageCount?: (request: Request) => ClientCount | null
}

/** The app for every path outside the Query API. */
export function serviceApp(deps: ServiceDeps) {
  return new Elysia({ handler: SHORT_HOSTS })
    .onRequest(({ set, request }) => {
      set.headers['x-request-id'] = deps.noteOf(request)!.id
    })
    .onError({ as: 'global' }, ({ code, error, request, path }) => failure(deps, code, error, request, path))
    .get('/healthz', () => ({ status: 'ok' }))
    .use(docsRoutes())
    .get('/readyz', ({ set }) => {
      const { httpStatus, ...answer } = readinessOf(deps)
      set.status = httpStatus
      if (answer.status === 'loading') set.headers['retry-after'] = '1'
      return answer
    })
    .use(
      pageRoutes({
        store: deps.store,
        registry: deps.registry,
        publicBaseUrl: deps.publicBaseUrl,
        mapTiles: deps.mapTiles,
        sitemapIndex: deps.sitemapIndex,
        pageCount: deps.pageCount,
        onLocator: (request, locatorId) => {
          const s = deps.noteOf(request)
          if (s) s.locator = locatorId
        },
      }),
    )
    .use(
      adminRoutes({
        store: deps.store,
        geocoder: deps.geocoder,
        towns: deps.towns,
        guess: deps.guess,
        maxBodyBytes: deps.maxBodyBytes,
        idempotencyMaxBytes: deps.limits?.idempotencyMaxBytes ?? DEFAULT_IDEMPOTENCY_MAX_MB * MIB,
        roomFor: locationCap(deps.store, deps.limits?.locatorMaxLocations ?? DEFAULT_LOCATOR_MAX_LOCATIONS),
        onKey: (request, locatorId, keyId) => {
          const s = deps.noteOf(request)
          if (s) Object.assign(s, { locator: locatorId, key: keyId })
        },
      }),
    )
}

/**
 * The response for an error outside the Query API: its own, a documented one, or a logged 500;
 * under the pages' paths, a server's error is a page that says no more than to try again.
 */
function failure(deps: ServiceDeps, code: unknown, error: unknown, request: Request, path: string): Response {
  return asPage(failureAnswer(deps, code, error, request, path), path)
}

/** A server's error under the pages' paths as a page that says no more than to try again; any other answer as it is. */
export function asPage(res: Response, path: string): Response {
  if (res.status < 500 || !isPagePath(path)) return res
  return errorPage(res.status, Number(res.headers.get('retry-after') ?? 0) || null)
}

/**
 * The failures of widget files logged, each once, by the first request it answers (assets.ts
 * keeps it UNMADE_RETRY_S), with that request's id, which every answer it gives quotes.
 */
const loggedFailures = new WeakMap<AssetError, string | undefined>()

/**
 * A widget file that could not be made (its build failed): its cause logged, once a failure, and a
 * 503 that says which file and the request id of that log line, the same while the service starts
 * and once it serves. The first request UNMADE_RETRY_S after the failure tries to make it again;
 * the service's other answers go on.
 */
export function unmadeFile(error: AssetError, log: Log, requestId: string | undefined): Response {
  if (!loggedFailures.has(error)) {
    loggedFailures.set(error, requestId)
    log({ level: 'error', request_id: requestId, message: error.message, retry_in_s: UNMADE_RETRY_S })
  }
  const loggedUnder = loggedFailures.get(error)
  const quote =
    loggedUnder === undefined
      ? 'The error was logged; quote the X-Request-Id header when reporting it.'
      : `The error was logged under request id ${loggedUnder}; quote it when reporting it.`
  return new AdminError(
    'unavailable',
    `The widget file ${error.file} could not be made. ${quote}`,
    undefined,
    UNMADE_RETRY_S,
  ).toResponse()
}

function failureAnswer(deps: ServiceDeps, code: unknown, error: unknown, request: Request, path: string): Response {
  const known = adminErrorOf(error)
  if (known !== null) return known.toResponse()
  if (code === 'NOT_FOUND') return notFoundAnswer(request, path)
  if (error instanceof AssetError) return unmadeFile(error, deps.log, deps.noteOf(request)?.id)
  // A body Bun could not read (a malformed chunked encoding, a connection closed mid-body): the
  // client's fault, answered 400 and logged as a 400, without a stack.
  if (code === 'PARSE' || (error instanceof DOMException && error.name === 'AbortError'))
    return new AdminError(
      'invalid_request',
      'The request body could not be read: its chunked encoding is malformed, or the connection closed before its end. Send it again.',
    ).toResponse()
  if (isBusyError(error)) return new AdminError('unavailable').toResponse()
  // Disk full, read-only, I/O error: SQLite undid the transaction, so nothing changed; the
  // client may retry later, and the operator is told (once a minute) what to mend.
  const fault = storageFault(error, deps.store.path)
  if (fault !== null) {
    deps.storage.report(fault, error)
    return storageUnavailable(fault).toResponse()
  }
  if (error instanceof FileMovedError) return new AdminError('unavailable', error.message).toResponse()
  // The geocoder's file, not the store's: reads and writes with coordinates go on.
  if (error instanceof GeodataDamagedError) {
    if (firstToLogDamage()) deps.log({ level: 'error', message: error.message })
    return new AdminError('unavailable', error.message).toResponse()
  }
  // A damaged page met by a read or a write: every write is refused from now on (store.damaged()).
  deps.store.noteDamage(error)
  if (error instanceof DamagedError || isCorruptError(error))
    return new AdminError('database_damaged', deps.store.damaged()!.message, undefined, 600).toResponse()
  const e = error as Error
  deps.log({
    level: 'error',
    request_id: deps.noteOf(request)?.id,
    method: request.method,
    path,
    error: e?.message,
    stack: e?.stack,
  })
  return json(500, {
    success: false,
    error: 'error',
    message: 'Internal server error. The error was logged; quote the X-Request-Id header when reporting it.',
  })
}
