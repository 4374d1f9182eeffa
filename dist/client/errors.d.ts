import type { ErrorCode } from './types.js';
/** What an error answer's headers said, beyond its body. */
export type ErrorAnswer = {
    /** Retry-After, in seconds: when to try again (a 503, a 409 of a write still running). */
    retryAfter?: number;
    /** X-Request-Id: quote it when reporting a 500. */
    requestId?: string;
    /** The answer was a starting service's (503 with X-Service-Status: starting). */
    starting?: boolean;
};
/**
 * An answer of the Management API that is not a success: its status, error code, message and
 * details, a write's Idempotency-Key (sent again later, it replays the write's answer), and the
 * answer's Retry-After and X-Request-Id when it had them.
 */
export declare class StorelocError extends Error {
    readonly status: number;
    /**
     * One of the codes the Management API documents, or the client's own two; any other string
     * when the answer had another (a newer service's code, a proxy's JSON error page).
     */
    readonly code: ErrorCode | (string & {});
    readonly details: Record<string, string[]> | undefined;
    readonly idempotencyKey?: string | undefined;
    /** Seconds the answer's Retry-After asked to wait; undefined when it had none. */
    readonly retryAfter: number | undefined;
    /** The answer's X-Request-Id; undefined when no answer came (status 0). */
    readonly requestId: string | undefined;
    /**
     * The answer was a starting service's: still starting after the client waited startupWaitMs for
     * it, or, with 0 (no wait), after its tries. Run again once it serves (GET /readyz answers 200),
     * not after retryAfter's 1 s.
     */
    readonly starting: boolean;
    constructor(status: number, 
    /**
     * One of the codes the Management API documents, or the client's own two; any other string
     * when the answer had another (a newer service's code, a proxy's JSON error page).
     */
    code: ErrorCode | (string & {}), message: string, details: Record<string, string[]> | undefined, idempotencyKey?: string | undefined, answer?: ErrorAnswer);
}
/**
 * A final answer's JSON object (`text`, its body) when its status is a success and it has the
 * route's field `holds`; otherwise the StorelocError it says, or `invalid_response` for an answer
 * that is not the Management API's: a redirect, a body not JSON, not an object (a proxy's `null`),
 * or a success without `holds` (another service at baseUrl). `call`: "METHOD path".
 */
export declare function answered<T>(response: Response, text: string, call: string, holds: string, idempotencyKey: string | undefined, answer: ErrorAnswer): T;
/**
 * A request no try of which was answered (a network error, a timeout): status 0, code
 * network_error, the last error as its cause. A write's key goes with it: the write may have been
 * made, and the same key later replays its answer.
 */
export declare function unanswered(method: string, path: string, e: unknown, key: string | undefined): StorelocError;
