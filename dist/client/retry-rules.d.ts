/** What a try may be repeated after: the server kept no decision. */
export declare const RETRY_STATUSES: Set<number>;
/** A try of the same write still running: a 409 with Retry-After. Another 409 (an external id taken) stays one on a retry. */
export declare const inFlight: (r: Response) => boolean;
/**
 * The wait, ms, of an answer that asks to be asked again (a start, a write still running): its
 * Retry-After, 1 s when it has none, 0 or one unreadable (a proxy's), so it is not asked every
 * backoffMs.
 */
export declare const askedPause: (retryAfter: number | undefined) => number;
/** A starting answer's wait: its askedPause (1 s there), at most 5 s. */
export declare const startingPause: (retryAfter: number | undefined) => number;
/**
 * Whether an answer is a starting service's 503. Its header is read as a proxy may pass it on:
 * in another case, spaced, or sent twice and joined ("starting, starting").
 */
export declare const isStarting: (r: Response) => boolean;
