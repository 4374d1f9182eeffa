// Why an index cannot answer now. Plain errors: the Query API maps each to 503 with Retry-After.

/** An index that cannot answer now; asked again after `retryAfterS` seconds, it may. */
export class IndexUnavailable extends Error {
  constructor(
    /** For the client; undefined leaves the API's own words. */
    readonly detail: string | undefined,
    readonly retryAfterS: number,
    cause?: unknown,
  ) {
    super(detail ?? 'The index cannot answer now.', cause === undefined ? undefined : { cause })
  }
}

/** The locations kept changing under one request (other processes writing): asked again, it is answered. */
export const changedMeanwhile = () => new IndexUnavailable(undefined, 1)

/** Another process holds the database (design.md: 503 with Retry-After for busy, never a 2xx). */
export const databaseBusy = (cause?: unknown) =>
  new IndexUnavailable(
    "The database is busy with another process's write. Retry after the seconds in Retry-After.",
    1,
    cause,
  )

/**
 * What a query to a locator whose index build failed is told until it is tried again (at
 * `retryAt`, the registry's clock): 503, to retry then. The reason is the operator's (logged once,
 * and /readyz), not the site's.
 */
export function buildUnavailable(retryAt: number, now: number, cause?: unknown): IndexUnavailable {
  const message =
    "This locator's locations cannot be loaded at the moment; the service tries again shortly. Retry after the seconds in Retry-After."
  return new IndexUnavailable(message, Math.max(1, Math.ceil((retryAt - now) / 1000)), cause)
}
