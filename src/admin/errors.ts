// The Management API's one error table. Every error body of /admin/v1 is built here.
import { redactSecrets } from '../ids'

export const ADMIN_ERRORS = {
  invalid_request: { status: 400, error: 'invalid_request', message: 'The request is invalid.' },
  limit_exceeded: { status: 400, error: 'limit_exceeded', message: 'The limit parameter may not be greater than 500.' },
  unauthenticated: { status: 401, error: 'Authentication failed', message: 'Authentication failed.' },
  no_locator: { status: 401, error: 'error', message: 'No locator was found for this API key.' },
  not_found: { status: 404, error: 'not_found', message: 'Not found.' },
  payload_too_large: { status: 413, error: 'payload_too_large', message: 'The request body may not be larger than 256 KiB.' },
  geocoding_failed: {
    status: 422,
    error: 'geocoding_failed',
    message: 'The address could not be geocoded. Fix the address or send coordinates ({"lat": ..., "lng": ...}).',
  },
  validation_error: { status: 422, error: 'validation_error', message: 'The given data was invalid.' },
  unavailable: { status: 503, error: 'unavailable', message: 'The database is busy. Retry in a moment.' },
  error: { status: 500, error: 'error', message: 'Internal server error.' },
} as const

export type AdminErrorKind = keyof typeof ADMIN_ERRORS
export type ValidationDetails = Record<string, string[]>

/** Thrown by services, rendered by itself: no route builds an error body by hand. */
export class AdminError extends Error {
  readonly status: number
  constructor(
    readonly kind: AdminErrorKind,
    message?: string,
    readonly details?: ValidationDetails,
  ) {
    super(message ?? ADMIN_ERRORS[kind].message)
    this.status = ADMIN_ERRORS[kind].status
  }

  /** For a person reading a line (the CLI): each field with its messages, "name: ...; tags: ...", or the message. */
  get text(): string {
    if (!this.details) return this.message
    return Object.entries(this.details)
      .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
      .join('; ')
  }

  toResponse(): Response {
    // A secret key sent where an id or a value belongs is not quoted back (proxies log bodies too).
    const body: Record<string, unknown> = { success: false, error: ADMIN_ERRORS[this.kind].error, message: redactSecrets(this.message) }
    if (this.details) body.details = Object.fromEntries(Object.entries(this.details).map(([field, messages]) => [redactSecrets(field), messages.map(redactSecrets)]))
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' }
    if (this.status === 401) headers['www-authenticate'] = 'Bearer realm="admin"'
    if (this.status === 503) headers['retry-after'] = '1'
    return new Response(JSON.stringify(body), { status: this.status, headers })
  }
}
