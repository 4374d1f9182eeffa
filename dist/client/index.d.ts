import type { AdminLocation, BulkDelete, BulkCsvFlags, BulkLocation, BulkReport, CreateLocationBody, CsvBody, CsvExportQuery, CustomField, ExportQuery, LocationPage, Locator, UpdateLocationBody } from './types.js';
import { type CallOptions, type ClientOptions, type WriteOptions } from './options.js';
export type * from './types.js';
export { type ErrorAnswer, StorelocError } from './errors.js';
export type { CallOptions, ClientOptions, StartupWait, WriteOptions } from './options.js';
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
    /** The locator this key writes, its id and name: a sync says it before writing. */
    locator(options?: CallOptions): Promise<Locator>;
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
