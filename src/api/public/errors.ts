// The Query API's one error table. Every error body of /public/v1 is built here.
import { redactSecrets } from '../../core/ids'
import { databaseBusy as indexesBusy, IndexUnavailable } from '../../indexes/errors'
import { ROBOTS_TAG } from './headers'
import { PUBLIC_PREFIX } from './url'
import { cliCommand } from '../../core/cli-command'

export const PUBLIC_ERRORS = {
  INVALID_TOKEN: { status: 404, message: 'Locator token not found or inactive.' },
  API_NOT_ENABLED: {
    status: 403,
    message: `The Query API is switched off for this locator. Its operator enables it with \`${cliCommand('locator set lct_... --query-api on')}\` (its lct_ id).`,
  },
  REFERRER_NOT_ALLOWED: {
    status: 403,
    message: "Requests from this site are not in the locator's referrer allowlist.",
  },
  MISSING_COORDINATES: { status: 400, message: 'lat and lng are required unless near or bbox is sent, or all=true.' },
  INVALID_COORDINATES: { status: 400, message: 'lat must be between -90 and 90 and lng between -180 and 180.' },
  INVALID_PARAMETER: { status: 400, message: 'A parameter is invalid.' },
  LOCATION_NOT_FOUND: { status: 404, message: 'Location not found.' },
  /** Not in the spec's table: GET /clusters/{id}/leaves names no cluster. */
  CLUSTER_NOT_FOUND: { status: 404, message: 'Cluster not found.' },
  /** Not in the spec's table: near= names no place the service knows. */
  PLACE_NOT_FOUND: { status: 400, message: 'The text in near names no place.' },
  /** Not in the spec's table: the service runs without place data (GEOCODER=none). */
  PLACES_UNAVAILABLE: {
    status: 501,
    message: 'This service has no place data (it runs with GEOCODER=none): send lat and lng instead.',
  },
  SECRET_KEY_EXPOSED: {
    status: 400,
    message: `A private API key (sk_...) was sent to the public API. Never put it in front-end code: rotate it now (\`${cliCommand('key rotate KEY_ID --grace-hours 0')}\`).`,
  },
  RATE_LIMITED: {
    status: 429,
    message: 'Too many requests for this locator token. Retry after the time in the Retry-After header.',
  },
  NOT_FOUND: { status: 404, message: 'No such endpoint.' },
  /** Not in the spec's table: a method other than GET (or a preflight's OPTIONS) on an endpoint. */
  METHOD_NOT_ALLOWED: { status: 405, message: 'The Query API takes GET (and HEAD) only.' },
  /**
   * Not in the spec's table: the locations kept changing under one request (other processes
   * writing); the database busy with another process's write (databaseBusy()); the locator's
   * index cannot be built from its rows (src/indexes/registry.ts).
   */
  UNAVAILABLE: { status: 503, message: 'The locations changed while answering. Retry in a moment.' },
  /** Not in the spec's table: anything unforeseen (logged with its stack, never shown). */
  INTERNAL_ERROR: {
    status: 500,
    message: 'Internal server error. The error was logged; quote the X-Request-Id header when reporting it.',
  },
} as const

export type PublicErrorCode = keyof typeof PUBLIC_ERRORS

/** NOT_FOUND's message: the path asked for, and the endpoints there are. */
export const noEndpoint = (method: string, path: string) =>
  `No endpoint ${method} ${path}. The Query API serves GET ${PUBLIC_PREFIX}/{token}/locations, /locations/{id}, /clusters, /clusters/{id}/leaves, /filters and /places.`

/** The methods an endpoint takes, as a 405's Allow header lists them (HEAD as GET, without the body; OPTIONS: CORS preflights). */
export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS'

/** METHOD_NOT_ALLOWED's message: the request as sent, and the method the endpoint takes. */
export const wrongMethod = (method: string, path: string) =>
  `${method} ${path} is not allowed: the Query API is read-only, and its endpoints take GET only.`

/** The paths of the Query API's endpoints (after PUBLIC_PREFIX): another method there is 405, not 404. */
const ENDPOINT = /^\/[^/]+\/(locations(\/[^/]+)?|clusters(\/[^/]+\/leaves)?|filters|places)\/?$/

/** Whether an endpoint takes `method` at `path` (GET, HEAD as GET): the rest is refused by noEndpointError, with no database. */
export const takesEndpoint = (method: string, path: string): boolean =>
  (method === 'GET' || method === 'HEAD') && ENDPOINT.test(path.slice(PUBLIC_PREFIX.length))

/** The error for a request no endpoint takes: 405 for another method on an endpoint's path, else 404. */
export const noEndpointError = (method: string, path: string): PublicError =>
  ENDPOINT.test(path.slice(PUBLIC_PREFIX.length))
    ? new PublicError('METHOD_NOT_ALLOWED', wrongMethod(method, path), { allow: ALLOWED_METHODS })
    : new PublicError('NOT_FOUND', noEndpoint(method, path))

/** Thrown by the public services and guards; renders the documented body with Cache-Control: no-store. */
export class PublicError extends Error {
  readonly status: number
  constructor(
    readonly code: PublicErrorCode,
    message?: string,
    readonly headers: Record<string, string> = {},
    /** What failed inside (never in the body): for callers that report it themselves, such as the bench scripts. */
    cause?: unknown,
  ) {
    super(message ?? PUBLIC_ERRORS[code].message, cause === undefined ? undefined : { cause })
    this.status = PUBLIC_ERRORS[code].status
  }

  /**
   * `base`: the service's base URL, PUBLIC_BASE_URL (a proxy's path prefix kept) or else the
   * request's origin, as links are made: `docs` is then a full URL, which a page on another site
   * that calls the API does not read against its own. Without one (no usable Host), the path.
   */
  toResponse(base: string | null = null): Response {
    // A message may quote what was sent: never a key (findSecretKey refuses those first; this is the second guard).
    const body = {
      success: false,
      error: { code: this.code, message: redactSecrets(this.message), docs: `${base ?? ''}/docs#${this.code}` },
    }
    return new Response(JSON.stringify(body), {
      status: this.status,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        'x-robots-tag': ROBOTS_TAG,
        ...this.headers,
      },
    })
  }
}

/** The Query API's error for `e`: itself, or an index's that cannot answer now (503); null for any other. */
export function publicErrorOf(e: unknown): PublicError | null {
  if (e instanceof PublicError) return e
  if (e instanceof IndexUnavailable)
    return new PublicError('UNAVAILABLE', e.detail, { 'retry-after': String(e.retryAfterS) }, e.cause)
  return null
}

/** UNAVAILABLE's message while the place data cannot be read (a damaged file: the operator is told, in the log and /readyz). */
export const GEODATA_UNREADABLE =
  "Places cannot be looked up at the moment: the service's place data cannot be read, and its operator is told. Send lat and lng meanwhile."

/** Another process holds the database: the indexes' error, as the Query API answers it. */
export const databaseBusy = (cause?: unknown): PublicError => publicErrorOf(indexesBusy(cause))!
