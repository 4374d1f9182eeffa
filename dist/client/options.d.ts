export type ClientOptions = {
    /**
     * The service's address, e.g. "http://127.0.0.1:3000", or its Management API's ("http://127.0.0.1:3000/admin/v1").
     * Undefined (an environment variable not set) is taken by the type and refused when the client is made.
     */
    baseUrl: string | undefined;
    /** The locator's secret key, "sk_..."; undefined is refused when the client is made, as baseUrl's. */
    apiKey: string | undefined;
    /**
     * Tries of a request that met a network error, a timeout, 429, 502, 503 or 504 (default 4); a
     * starting service's 503s are waited for apart (startupWaitMs).
     */
    attempts?: number;
    /**
     * How long a write is waited for while an earlier try of it still runs on the server (409 with
     * Retry-After: its try timed out here, a slow geocoder there), ms, counted from its first such
     * answer (default 600,000), Retry-After at a time (1 s when it is 0 or unreadable). Those answers
     * are not counted as tries, nor a start's wait in it; a Retry-After beyond maxWaitMs ends the
     * request with its 409 all the same.
     */
    inFlightWaitMs?: number;
    /** Per try, ms (default 30,000). */
    timeoutMs?: number;
    /**
     * The first wait between tries, ms, doubled each time up to maxWaitMs, unless Retry-After says
     * (default 250).
     */
    backoffMs?: number;
    /**
     * How long a request waits for a service that is starting (503 with X-Service-Status: starting:
     * a first start builds the geocoder's data, 15 s to a minute or more), ms, counted
     * from its first such answer (default 120,000; 0: no wait, such an answer is a 503 like another,
     * its error's `starting` true all the same). Those answers are not counted as tries; past this
     * the request ends with the last of them.
     */
    startupWaitMs?: number;
    /** Called once a request, when it first meets a starting service and waits for it. */
    onStarting?: (wait: StartupWait) => void;
    /**
     * The longest wait before a try, ms (default 60,000). A Retry-After beyond it (a damaged
     * database asks for 600 s) ends the request with its error rather than hold the script; so do
     * a starting service's pause (1 s) and a write still running's Retry-After (1 s) beyond it.
     */
    maxWaitMs?: number;
    fetch?: typeof fetch;
};
/** The request that waits for a starting service, and how long it will wait at most, ms. */
export type StartupWait = {
    method: 'GET' | 'POST';
    path: string;
    startupWaitMs: number;
};
/**
 * What every call takes. A pending call keeps the process running, in a try or in a wait between
 * tries; a settled one leaves no timer behind, so a script ends once its last call has.
 */
export type CallOptions = {
    /**
     * Ends the call at once when aborted, during a try or a wait between tries: it rejects with the
     * signal's reason, as fetch does (an AbortError DOMException unless abort() is given another).
     * An aborted write may have been made: send it again with the same idempotencyKey to learn.
     */
    signal?: AbortSignal;
};
export type WriteOptions = CallOptions & {
    /**
     * The write's key, printable ASCII (else the call rejects with a TypeError, nothing sent); a new
     * UUID when not given. The same key on a retry replays the first answer.
     */
    idempotencyKey?: string;
};
/**
 * The first character of `text` that `odd` matches, as a message says it without the text: "a line
 * break at character 10"; undefined when there is none.
 */
export declare function oddCharacter(text: string, odd: RegExp): string | undefined;
/**
 * The address each call's path follows, from a baseUrl refuseUnusable took: the service's, its
 * path without the Management API's (each call's path holds it) nor trailing slashes.
 */
export declare function serviceAddress(baseUrl: string): string;
/** Options refuseUnusable took: baseUrl and apiKey set. */
export type Usable = ClientOptions & {
    baseUrl: string;
    apiKey: string;
};
/**
 * Refuses, naming it, an option a script got wrong (an unset environment variable, Number() of
 * one): baseUrl not an http(s) address (or a route's, or the Query API's), no apiKey or one a header cannot carry, attempts not a
 * whole number from 1 (Infinity: no end), an ms option not a number (NaN would retry without end or wait 1 ms).
 */
export declare function refuseUnusable(options: ClientOptions): asserts options is Usable;
