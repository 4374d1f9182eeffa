// The Management API's one error table. Every error body of /admin/v1 is built here.
import { redactSecrets } from '../../core/ids'
import { LOCATION_ERRORS, LocationError, type ValidationDetails } from '../../locations/errors'
import type { StorageFault } from '../../store/db'
import { cliCommand } from '../../core/cli-command'

export const ADMIN_ERRORS = {
  invalid_request: { status: 400, error: 'invalid_request', message: LOCATION_ERRORS.invalid_request },
  limit_exceeded: { status: 400, error: 'limit_exceeded', message: LOCATION_ERRORS.limit_exceeded },
  unauthenticated: { status: 401, error: 'Authentication failed', message: 'Authentication failed.' },
  no_locator: { status: 401, error: 'error', message: 'No locator was found for this API key.' },
  not_found: { status: 404, error: 'not_found', message: LOCATION_ERRORS.not_found },
  /** Not in the spec's table: a method a route does not take (methods.ts), with an Allow header, as the Query API's 405. */
  method_not_allowed: {
    status: 405,
    error: 'method_not_allowed',
    message: 'This route does not take this method: the Allow header lists those it takes.',
  },
  conflict: { status: 409, error: 'conflict', message: LOCATION_ERRORS.conflict },
  idempotency_key_reused: {
    status: 422,
    error: 'idempotency_key_reused',
    message: 'This Idempotency-Key was used with another request.',
  },
  idempotency_answer_not_kept: {
    status: 410,
    error: 'idempotency_answer_not_kept',
    message: "This Idempotency-Key's request was made, but its answer was too large to keep for retries.",
  },
  /** Not in the spec's table: a bulk delete item's if_updated_at that is no longer its location's. */
  precondition_failed: { status: 412, error: 'precondition_failed', message: LOCATION_ERRORS.precondition_failed },
  payload_too_large: {
    status: 413,
    error: 'payload_too_large',
    message: 'The request body may not be larger than 256 KiB.',
  },
  geocoding_failed: { status: 422, error: 'geocoding_failed', message: LOCATION_ERRORS.geocoding_failed },
  validation_error: { status: 422, error: 'validation_error', message: LOCATION_ERRORS.validation_error },
  unavailable: { status: 503, error: 'unavailable', message: 'The database is busy. Retry in a moment.' },
  database_damaged: {
    status: 503,
    error: 'database_damaged',
    message: 'The database file is damaged: writes are refused until the operator restores it.',
  },
  error: { status: 500, error: 'error', message: 'Internal server error.' },
} as const

export type AdminErrorKind = keyof typeof ADMIN_ERRORS

/** no_locator's message for a key whose locator is switched off: how to switch it on. */
export const locatorSwitchedOff = (id: string) =>
  `No locator was found for this API key: its locator ${id} is switched off. \`${cliCommand(`locator set ${id} --active on`)}\` switches it on.`

/** Thrown by the Management API's routes and auth, rendered by itself: no route builds an error body by hand. */
export class AdminError extends Error {
  readonly status: number
  constructor(
    readonly kind: AdminErrorKind,
    message?: string,
    readonly details?: ValidationDetails,
    /** Retry-After, in seconds: on a 503 (1 unless set), and on any error that sets it (a key's request in flight). */
    readonly retryAfter?: number,
    /** Allow: the methods a route takes, on a 405. */
    readonly allow?: string,
  ) {
    super(message ?? ADMIN_ERRORS[kind].message)
    this.status = ADMIN_ERRORS[kind].status
  }

  toResponse(): Response {
    // A secret key sent where an id or a value belongs is not quoted back (proxies log bodies too).
    const body: Record<string, unknown> = {
      success: false,
      error: ADMIN_ERRORS[this.kind].error,
      message: redactSecrets(this.message),
    }
    if (this.details)
      body.details = Object.fromEntries(
        Object.entries(this.details).map(([field, messages]) => [redactSecrets(field), messages.map(redactSecrets)]),
      )
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' }
    if (this.status === 401) headers['www-authenticate'] = 'Bearer realm="admin"'
    if (this.status === 503 || this.retryAfter !== undefined) headers['retry-after'] = String(this.retryAfter ?? 1)
    if (this.allow !== undefined) headers.allow = this.allow
    return new Response(JSON.stringify(body), { status: this.status, headers })
  }
}

/**
 * Seconds a client is told to wait (Retry-After) when the database's storage refused its request:
 * a full disk or a read-only file needs a person, so a retry each second (busy's) would only add
 * load and log noise; half a minute keeps a sync script's next try close to the mend.
 */
export const STORAGE_RETRY_AFTER_S = 30

const STORAGE_WORDS: Record<StorageFault, string> = {
  full: "cannot save changes now: its database's disk is full",
  readonly: 'cannot save changes now: its database is read-only',
  io: "cannot read or save data now: its database's disk failed (an I/O error)",
}

/**
 * 503 unavailable for a request the database's storage refused (src/store/db.ts storageFault):
 * what is wrong in a client's words, that nothing changed, and what to do. The spec's 503 code,
 * used for a busy database: the request was fine, and the same request later will do.
 */
export function storageUnavailable(fault: StorageFault): AdminError {
  return new AdminError(
    'unavailable',
    `The service ${STORAGE_WORDS[fault]}. Nothing was changed. Retry after the seconds in Retry-After; the service's operator is told in its log.`,
    undefined,
    STORAGE_RETRY_AFTER_S,
  )
}

/** The Management API's error for `e`: itself, or the location service's by its kind; null for any other. */
export function adminErrorOf(e: unknown): AdminError | null {
  if (e instanceof AdminError) return e
  if (e instanceof LocationError) return new AdminError(e.kind, e.message, e.details)
  return null
}
