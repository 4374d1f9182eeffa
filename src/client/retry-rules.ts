// What an answer asks of the client's next try: another after a pause (a status that keeps no
// decision), a wait for a write still running, or a wait for a starting service.

/** What a try may be repeated after: the server kept no decision. */
export const RETRY_STATUSES = new Set([429, 502, 503, 504])
/** A try of the same write still running: a 409 with Retry-After. Another 409 (an external id taken) stays one on a retry. */
export const inFlight = (r: Response) => r.status === 409 && r.headers.has('retry-after')

/**
 * A service still starting marks its answers with this header (src/server/starting-answers.ts):
 * its 503 `unavailable` has a busy database's code, and its message is for people.
 */
const SERVICE_STATUS = 'x-service-status'

/**
 * The wait, ms, of an answer that asks to be asked again (a start, a write still running): its
 * Retry-After, 1 s when it has none, 0 or one unreadable (a proxy's), so it is not asked every
 * backoffMs.
 */
export const askedPause = (retryAfter: number | undefined) =>
  retryAfter !== undefined && retryAfter > 0 ? retryAfter * 1000 : 1000

/** A starting answer's wait: its askedPause (1 s there), at most 5 s. */
export const startingPause = (retryAfter: number | undefined) => Math.min(askedPause(retryAfter), 5000)

/**
 * Whether an answer is a starting service's 503. Its header is read as a proxy may pass it on:
 * in another case, spaced, or sent twice and joined ("starting, starting").
 */
export const isStarting = (r: Response) =>
  r.status === 503 &&
  (r.headers.get(SERVICE_STATUS) ?? '').split(',').some((v) => v.trim().toLowerCase() === 'starting')
