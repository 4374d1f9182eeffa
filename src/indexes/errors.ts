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
