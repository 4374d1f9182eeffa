// What the location service refuses, by kind. No HTTP here: the Management API maps each kind to
// its status and body (src/api/admin/errors.ts), the CLI prints `text`.

export const LOCATION_ERRORS = {
  invalid_request: 'The request is invalid.',
  limit_exceeded: 'The limit parameter may not be greater than 500.',
  not_found: 'Not found.',
  conflict: 'The request conflicts with the current state of a location.',
  precondition_failed: 'A location changed since the time its delete item names (if_updated_at): nothing was written.',
  geocoding_failed:
    'The address could not be geocoded. Fix the address or send coordinates ({"lat": ..., "lng": ...}).',
  validation_error: 'The given data was invalid.',
  no_locator: 'No locator was found for this API key.',
} as const

export type LocationErrorKind = keyof typeof LOCATION_ERRORS
/** Each failing field with its messages. */
export type ValidationDetails = Record<string, string[]>

/** Thrown by the location service; nothing was written. */
export class LocationError extends Error {
  constructor(
    readonly kind: LocationErrorKind,
    message?: string,
    readonly details?: ValidationDetails,
  ) {
    super(message ?? LOCATION_ERRORS[kind])
  }

  /** For a person reading a line (the CLI): each field with its messages, "name: ...; tags: ...", or the message. */
  get text(): string {
    if (!this.details) return this.message
    return Object.entries(this.details)
      .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
      .join('; ')
  }
}

/** geocoding_failed because the geocoding service could not answer now: a retry may place the address. */
export class GeocoderDownError extends LocationError {
  constructor(message: string) {
    super('geocoding_failed', message)
  }
}

/** geocoding_failed because the service has no geocoder (GEOCODER=none): no address is placed, now or later. */
export class GeocodingOffError extends LocationError {
  constructor(message: string) {
    super('geocoding_failed', message)
  }
}
