import type { AdminLocation, BulkDelete, BulkCsvFlags, BulkLocation, BulkReport, CreateLocationBody, CsvBody, CsvExportQuery, CustomField, ExportQuery, LocationPage, UpdateLocationBody } from './types.js';
export type * from './types.js';
export { type ErrorAnswer, StorelocError } from './errors.js';
export type ClientOptions = {
    /** The service's address, e.g. "http://127.0.0.1:3000". */
    baseUrl: string;
    /** The locator's secret key, "sk_...". */
    apiKey: string;
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
export declare class StorelocClient {
    private readonly options;
    private readonly base;
    /** The key as a file or a variable gives it, its line break or spaces around it gone. */
    private readonly apiKey;
    private readonly attempts;
    private readonly timeoutMs;
    private readonly backoffMs;
    private readonly maxWaitMs;
    private readonly inFlightWaitMs;
    private readonly startupWaitMs;
    private readonly fetchFn;
    /** Throws a TypeError or RangeError naming an option no call could run with. */
    constructor(options: ClientOptions);
    /** One page of the locator's locations; `external_id` finds one by the chain's own code. */
    listLocations(query?: {
        page?: number;
        limit?: number;
        status?: 'published' | 'draft';
        external_id?: string;
    }, options?: CallOptions): Promise<LocationPage>;
    /** Every location of the locator, page by page (500 a page). */
    allLocations(query?: {
        status?: 'published' | 'draft';
    }, options?: CallOptions): AsyncGenerator<AdminLocation>;
    getLocation(id: string, options?: CallOptions): Promise<AdminLocation>;
    /** The location with this external id, or null. */
    findByExternalId(externalId: string, options?: CallOptions): Promise<AdminLocation | null>;
    createLocation(body: CreateLocationBody, options?: WriteOptions): Promise<AdminLocation>;
    updateLocation(id: string, body: UpdateLocationBody, options?: WriteOptions): Promise<AdminLocation>;
    deleteLocation(id: string, options?: WriteOptions): Promise<string>;
    /** Up to 1,000 locations in one all-or-nothing request (see the bulk route in docs/management-api.md). */
    bulkUpsert(request: {
        locations: (BulkLocation | BulkDelete)[];
        dry_run?: boolean;
        delete_missing?: boolean;
        max_delete?: number | null;
    }, options?: WriteOptions): Promise<BulkReport>;
    /**
     * The same with a CSV body (the columns of docs/cli.md); flags go in the query string, `charset`
     * in the Content-Type. A stream is read whole before the first try, so a retry sends the same
     * bytes; a body that is none of CsvBody, or a `charset` that is not an encoding's name or names
     * one for text (a string or a stream's, sent as UTF-8), rejects with a TypeError, nothing sent.
     */
    bulkUpsertCsv(csv: CsvBody, flags?: BulkCsvFlags, options?: WriteOptions): Promise<BulkReport & {
        unknown_columns: string[];
        notes?: string[];
    }>;
    /**
     * Every location (or those of `status`) in the order made, as GET /locations/export gives them:
     * each with every field, or with `format: 'csv'` the file's text without a byte order mark.
     */
    exportLocations(query?: ExportQuery & {
        format?: 'json';
    }, options?: CallOptions): Promise<AdminLocation[]>;
    exportLocations(query: CsvExportQuery, options?: CallOptions): Promise<string>;
    customFields(options?: CallOptions): Promise<CustomField[]>;
    /**
     * Sends a request, tried again after a network error, a timeout or a status that asks for it
     * (waiting what Retry-After says, else backing off). A starting service is waited for apart,
     * up to startupWaitMs. A write keeps one Idempotency-Key for all its tries and waits: a try whose
     * answer was lost is replayed, not made again. An aborted `signal` ends it with its reason.
     * `holds`: the field every success answer of the route has.
     */
    private request;
}
