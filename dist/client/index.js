// A typed client for the Management API, for sync scripts and back-office code. Plain fetch, no
// dependencies and no server modules: it builds to dist/client (npm run build:client) for Node 20+.
// Every write carries an Idempotency-Key, kept across its retries, so a retry never writes twice.
import { csvBytes, csvType } from './csv-body.js';
import { answered, StorelocError } from './errors.js';
import { retryAfterSeconds } from './retry-after.js';
export { StorelocError } from './errors.js';
/** What a try may be repeated after: the server kept no decision. */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** A try of the same write still running: a 409 with Retry-After. Another 409 (an external id taken) stays one on a retry. */
const inFlight = (r) => r.status === 409 && r.headers.has('retry-after');
/**
 * A service still starting marks its answers with this header (src/server/starting-answers.ts):
 * its 503 `unavailable` has a busy database's code, and its message is for people.
 */
const SERVICE_STATUS = 'x-service-status';
/**
 * The wait, ms, of an answer that asks to be asked again (a start, a write still running): its
 * Retry-After, 1 s when it has none, 0 or one unreadable (a proxy's), so it is not asked every
 * backoffMs.
 */
const askedPause = (retryAfter) => retryAfter !== undefined && retryAfter > 0 ? retryAfter * 1000 : 1000;
/** A starting answer's wait: its askedPause (1 s there), at most 5 s. */
const startingPause = (retryAfter) => Math.min(askedPause(retryAfter), 5000);
/**
 * Whether an answer is a starting service's 503. Its header is read as a proxy may pass it on:
 * in another case, spaced, or sent twice and joined ("starting, starting").
 */
const isStarting = (r) => r.status === 503 &&
    (r.headers.get(SERVICE_STATUS) ?? '').split(',').some((v) => v.trim().toLowerCase() === 'starting');
/**
 * setTimeout's longest delay, ms (24.8 days): Node and Bun run a longer one, Infinity too, at
 * once. A longer wait or timeoutMs is this long: the script's "no limit" is not 1 ms.
 */
const LONGEST_TIMER = 2 ** 31 - 1;
/** The calls' callbacks waiting on each signal a script passes them, run by one listener. */
const aborters = new WeakMap();
/**
 * Runs `fn` when `signal` aborts, until the returned function drops it. One listener on a signal
 * serves every call given it: Node warns past 10 on one signal (11 calls at once of a Promise.all
 * sharing a script's Ctrl-C signal), which its own fetch avoids.
 */
function onAbort(signal, fn) {
    let held = aborters.get(signal);
    if (held === undefined) {
        const callbacks = new Set();
        const listener = () => {
            aborters.delete(signal);
            for (const callback of callbacks)
                callback();
        };
        held = { listener, callbacks };
        aborters.set(signal, held);
        signal.addEventListener('abort', listener, { once: true });
    }
    const { listener, callbacks } = held;
    callbacks.add(fn);
    return () => {
        if (!callbacks.delete(fn) || callbacks.size > 0 || aborters.get(signal) !== held)
            return;
        aborters.delete(signal);
        signal.removeEventListener('abort', listener);
    };
}
/**
 * A wait of `ms`, ended by `signal` at once with its reason, its timer cleared. The timer is not
 * unref'd: a call waiting between tries holds the process until it settles, as its fetch does.
 */
function sleep(ms, signal) {
    return new Promise((resolve, reject) => {
        if (signal?.aborted)
            return reject(signal.reason);
        const timer = setTimeout(() => {
            release?.();
            resolve();
        }, Math.min(ms, LONGEST_TIMER));
        const release = signal &&
            onAbort(signal, () => {
                clearTimeout(timer);
                reject(signal.reason);
            });
    });
}
/**
 * `work`, or the signal's reason as soon as it aborts: a fetch that does not heed its signal
 * holds the call no longer. Given the try's own signal, one listener a try.
 */
function abortable(work, signal) {
    return new Promise((resolve, reject) => {
        const stop = () => reject(signal.reason);
        // Handled even when the signal aborted already: its rejection (a body cut off) is the abort's.
        work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
        if (signal.aborted)
            return stop();
        signal.addEventListener('abort', stop, { once: true });
    });
}
/**
 * A try's signal: aborted by its own timer at `timeoutMs`, with a TimeoutError as fetch's own
 * timeouts give, or with the call's `signal`, its reason kept. `end` clears the timer and drops the
 * hold on the call's signal: a call leaves no timer behind, however many tries it made (an
 * AbortSignal.timeout's timer runs its length whatever happens). Combined by hand (AbortSignal.any
 * needs Node 20.3). The timer is not unref'd: a try whose fetch keeps nothing alive (a `fetch`
 * option's own) still times out, the process held till then.
 */
function trySignal(timeoutMs, signal) {
    const tried = new AbortController();
    const timer = setTimeout(() => {
        tried.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }, Math.min(timeoutMs, LONGEST_TIMER));
    const release = signal && onAbort(signal, () => tried.abort(signal.reason));
    let ended = false;
    // Called before a wait and again on the way out: the timer is cleared once.
    const end = () => {
        if (ended)
            return;
        ended = true;
        clearTimeout(timer);
        release?.();
    };
    return { signal: tried.signal, end };
}
/**
 * A request no try of which was answered (a network error, a timeout): status 0, code
 * network_error, the last error as its cause. A write's key goes with it: the write may have been
 * made, and the same key later replays its answer.
 */
function unanswered(method, path, e, key) {
    // Node's fetch says only "fetch failed": why (connect ECONNREFUSED, ENOTFOUND) is its cause's.
    const cause = e instanceof Error && e.cause instanceof Error ? e.cause : undefined;
    const more = cause?.message || cause?.code;
    const why = e instanceof Error ? `${e.message}${more ? ` (${more})` : ''}` : String(e);
    const error = new StorelocError(0, 'network_error', `${method} ${path}: ${why}`, undefined, key);
    error.cause = e;
    return error;
}
/**
 * The first character of `text` that `odd` matches, as a message says it without the text: "a line
 * break at character 10"; undefined when there is none.
 */
function oddCharacter(text, odd) {
    const found = odd.exec(text);
    if (found === null)
        return undefined;
    const c = found[0];
    const code = c.codePointAt(0);
    const kind = c === ' '
        ? 'a space'
        : c === '\n' || c === '\r'
            ? 'a line break'
            : code < 0x20 || code === 0x7f
                ? 'a control character'
                : 'a character that is not ASCII';
    return `${kind} at character ${found.index + 1}`;
}
/** The ms options: `timeoutMs` must be above 0, the others 0 or more; Infinity is no limit. */
const MS_OPTIONS = ['timeoutMs', 'backoffMs', 'maxWaitMs', 'inFlightWaitMs', 'startupWaitMs'];
/**
 * Refuses, naming it, an option a script got wrong (an unset environment variable, Number() of
 * one): baseUrl not an http(s) address, no apiKey or one a header cannot carry, attempts not a
 * whole number from 1 (Infinity: no end), an ms option not a number (NaN would retry without end or wait 1 ms).
 */
function refuseUnusable(options) {
    /** A value as a message shows it: a string quoted, so "5000" is told from 5000. */
    const shown = (v) => (typeof v === 'string' ? JSON.stringify(v) : String(v));
    const { baseUrl, apiKey, attempts } = options;
    let url;
    try {
        url = new URL(baseUrl);
    }
    catch { }
    if (typeof baseUrl !== 'string' || (url?.protocol !== 'http:' && url?.protocol !== 'https:'))
        throw new TypeError(`StorelocClient: baseUrl must be the service's address, such as "http://127.0.0.1:3000"; got ${JSON.stringify(baseUrl) ?? 'undefined'}.`);
    // Each call's path follows baseUrl: after a query or a fragment it is no path. A user and password
    // make Node's fetch fail each try, its message showing them; Bun sends them. Not shown here.
    const extra = url.username || url.password ? 'a user and password' : /[?#]/.test(baseUrl) ? 'a query or a fragment' : undefined;
    if (extra !== undefined)
        throw new TypeError(`StorelocClient: baseUrl must be the service's address, such as "http://127.0.0.1:3000", without ${extra}; got ${extra === 'a user and password' ? `one with ${extra}` : JSON.stringify(baseUrl)}.`);
    // The key itself is not said: it is a secret. One with a character no bearer token has (a
    // line break, a space, "…") would fail each try in fetch, whose message on Node shows it.
    const key = typeof apiKey === 'string' ? apiKey.trim() : undefined;
    const odd = key === undefined ? undefined : oddCharacter(key, /[^\x21-\x7e]/);
    if (key === undefined || key === '' || odd !== undefined) {
        const got = key === undefined ? String(apiKey) : odd ? `one with ${odd}` : 'an empty string';
        throw new TypeError(`StorelocClient: apiKey must be the locator's secret key, "sk_..."; got ${got}.`);
    }
    if (attempts !== undefined && !((Number.isInteger(attempts) || attempts === Infinity) && attempts >= 1))
        throw new RangeError(`StorelocClient: attempts must be a whole number of tries, 1 or more; got ${shown(attempts)}.`);
    for (const name of MS_OPTIONS) {
        const ms = options[name];
        if (ms !== undefined && !(typeof ms === 'number' && (name === 'timeoutMs' ? ms > 0 : ms >= 0)))
            throw new RangeError(`StorelocClient: ${name} must be ms, ${name === 'timeoutMs' ? 'above 0' : '0 or more'}; got ${shown(ms)}.`);
    }
}
export class StorelocClient {
    options;
    base;
    /** The key as a file or a variable gives it, its line break or spaces around it gone. */
    apiKey;
    attempts;
    timeoutMs;
    backoffMs;
    maxWaitMs;
    inFlightWaitMs;
    startupWaitMs;
    fetchFn;
    /** Throws a TypeError or RangeError naming an option no call could run with. */
    constructor(options) {
        this.options = options;
        refuseUnusable(options);
        this.base = options.baseUrl.replace(/\/+$/, '');
        this.apiKey = options.apiKey.trim();
        this.attempts = options.attempts ?? 4;
        this.timeoutMs = options.timeoutMs ?? 30_000;
        this.backoffMs = options.backoffMs ?? 250;
        this.maxWaitMs = options.maxWaitMs ?? 60_000;
        this.inFlightWaitMs = options.inFlightWaitMs ?? 600_000;
        this.startupWaitMs = options.startupWaitMs ?? 120_000;
        this.fetchFn = options.fetch ?? fetch;
    }
    /** One page of the locator's locations; `external_id` finds one by the chain's own code. */
    listLocations(query = {}, options = {}) {
        const params = new URLSearchParams();
        for (const [k, v] of Object.entries(query))
            if (v !== undefined)
                params.set(k, String(v));
        const qs = params.size > 0 ? `?${params}` : '';
        return this.request('GET', `/admin/v1/locations${qs}`, undefined, options, 'locations');
    }
    /** Every location of the locator, page by page (500 a page). */
    async *allLocations(query = {}, options = {}) {
        for (let page = 1;; page++) {
            const { locations, pagination } = await this.listLocations({ ...query, page, limit: 500 }, options);
            yield* locations;
            if (pagination.next === null)
                return;
        }
    }
    async getLocation(id, options = {}) {
        const path = `/admin/v1/locations/${encodeURIComponent(id)}`;
        return (await this.request('GET', path, undefined, options, 'location')).location;
    }
    /** The location with this external id, or null. */
    async findByExternalId(externalId, options = {}) {
        return (await this.listLocations({ external_id: externalId }, options)).locations[0] ?? null;
    }
    async createLocation(body, options = {}) {
        const path = '/admin/v1/locations';
        return (await this.request('POST', path, body, options, 'location')).location;
    }
    async updateLocation(id, body, options = {}) {
        const path = `/admin/v1/locations/${encodeURIComponent(id)}`;
        return (await this.request('POST', path, body, options, 'location')).location;
    }
    async deleteLocation(id, options = {}) {
        const path = `/admin/v1/locations/${encodeURIComponent(id)}/delete`;
        return (await this.request('POST', path, undefined, options, 'message')).message;
    }
    /** Up to 1,000 locations in one all-or-nothing request (see the bulk route in docs/management-api.md). */
    bulkUpsert(request, options = {}) {
        return this.request('POST', '/admin/v1/locations/bulk', request, options, 'results');
    }
    /**
     * The same with a CSV body (the columns of docs/cli.md); flags go in the query string, `charset`
     * in the Content-Type. A stream is read whole before the first try, so a retry sends the same
     * bytes; a body that is none of CsvBody, or a `charset` that is not an encoding's name or names
     * one for text (a string or a stream's, sent as UTF-8), rejects with a TypeError, nothing sent.
     */
    async bulkUpsertCsv(csv, flags = {}, options = {}) {
        const params = new URLSearchParams();
        if (flags.dry_run)
            params.set('dry_run', 'true');
        if (flags.delete_missing)
            params.set('delete_missing', 'true');
        if (flags.max_delete !== undefined && flags.max_delete !== null)
            params.set('max_delete', String(flags.max_delete));
        const path = `/admin/v1/locations/bulk${params.size > 0 ? `?${params}` : ''}`;
        const contentType = csvType(csv, flags.charset, `POST ${path}`);
        const body = await csvBytes(csv, `POST ${path}`, flags.charset);
        options.signal?.throwIfAborted();
        return this.request('POST', path, body, { ...options, contentType }, 'results');
    }
    async exportLocations(query = {}, options = {}) {
        const csv = query.format === 'csv';
        const params = new URLSearchParams({ format: query.format ?? 'json' });
        if (query.status !== undefined)
            params.set('status', query.status);
        if (csv && query.separator !== undefined)
            params.set('separator', query.separator);
        if (csv)
            params.set('bom', 'false');
        const path = `/admin/v1/locations/export?${params}`;
        if (csv)
            return this.request('GET', path, undefined, { ...options, csv: true }, '');
        return (await this.request('GET', path, undefined, options, 'locations')).locations;
    }
    async customFields(options = {}) {
        const path = '/admin/v1/custom_fields';
        const answer = await this.request('GET', path, undefined, options, 'custom_fields');
        return answer.custom_fields;
    }
    /**
     * Sends a request, tried again after a network error, a timeout or a status that asks for it
     * (waiting what Retry-After says, else backing off). A starting service is waited for apart,
     * up to startupWaitMs. A write keeps one Idempotency-Key for all its tries and waits: a try whose
     * answer was lost is replayed, not made again. An aborted `signal` ends it with its reason.
     * `holds`: the field every success answer of the route has.
     */
    async request(method, path, body, options, holds) {
        const headers = { authorization: `Bearer ${this.apiKey}` };
        if (method === 'POST')
            headers['idempotency-key'] = options.idempotencyKey ?? crypto.randomUUID();
        // A key no header carries would fail each try in fetch, retried as a network error, and said
        // to be a write that may have been made: none was sent.
        const oddKey = options.idempotencyKey && oddCharacter(options.idempotencyKey, /[^\x20-\x7e]/);
        if (oddKey)
            throw new TypeError(`${method} ${path}: idempotencyKey must be printable ASCII (a new UUID for each write is usual); got one with ${oddKey}.`);
        let payload;
        if (typeof body === 'string' || body instanceof Uint8Array) {
            payload = body;
            headers['content-type'] = options.contentType ?? 'text/plain';
        }
        else if (body !== undefined) {
            payload = JSON.stringify(body);
            headers['content-type'] = 'application/json';
        }
        let wait = this.backoffMs;
        /** The client's own wait between tries, doubled each time: it grows to maxWaitMs, not past it. */
        const backoff = () => Math.min(wait, this.maxWaitMs);
        let failed = 0;
        /** When the first starting answer came; undefined until one did. */
        let startingSince;
        /** When the first answer of the write still running came: the start's wait is not counted. */
        let inFlightSince;
        const { signal } = options;
        /** A try that got no answer, or lost its body on the way: counted, and backed off from. */
        const unansweredTry = async (e, tried) => {
            tried.end();
            // An abort is the script's own stop, not a try the network failed.
            if (signal?.aborted)
                throw signal.reason;
            if (++failed >= this.attempts)
                throw unanswered(method, path, e, headers['idempotency-key']);
            await sleep(backoff(), signal);
            wait *= 2;
        };
        for (;;) {
            signal?.throwIfAborted();
            // Held through the body's read: a call aborted then ends its connection too. Ended before
            // any wait that follows, and on every way out.
            const tried = trySignal(this.timeoutMs, signal);
            try {
                let response;
                try {
                    // A redirect is not followed: fetch would send a write on as a GET (301, 302, 303), and to
                    // another origin without its key. The service sends none; a proxy's is said in the error.
                    const init = { method, headers, body: payload, signal: tried.signal, redirect: 'manual' };
                    response = await abortable(this.fetchFn(`${this.base}${path}`, init), tried.signal);
                }
                catch (e) {
                    await unansweredTry(e, tried);
                    continue;
                }
                const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
                const startingAnswer = isStarting(response);
                const starting = this.startupWaitMs > 0 && startingAnswer;
                const waiting = !starting && inFlight(response);
                const pause = starting
                    ? startingPause(retryAfter)
                    : waiting
                        ? askedPause(retryAfter)
                        : retryAfter !== undefined && retryAfter > 0
                            ? retryAfter * 1000
                            : backoff();
                const first = starting && startingSince === undefined;
                if (starting)
                    startingSince ??= Date.now();
                if (waiting)
                    inFlightSince ??= Date.now();
                /** Whether the pause ends within `limit` ms of `since`. */
                const within = (since, limit) => Date.now() - since + pause <= limit;
                // A pause beyond maxWaitMs ends the request: shortened instead, a maxWaitMs of 0 would ask
                // a start or a running write (bound by time, not tries) again and again; only the backoff of
                // answers that spend tries is shortened. A start and a write still running each have a wait
                // of their own, not counted in tries; the other answers spend tries.
                const again = pause <= this.maxWaitMs &&
                    (starting
                        ? within(startingSince, this.startupWaitMs)
                        : waiting
                            ? within(inFlightSince, this.inFlightWaitMs)
                            : RETRY_STATUSES.has(response.status) && ++failed < this.attempts);
                if (again) {
                    // Its body is not read: one cut off on the way (an error there) changes nothing.
                    await response.body?.cancel().catch(() => { });
                    // The try is over: its timer goes before the wait, not after it.
                    tried.end();
                    if (first)
                        this.options.onStarting?.({ method, path, startupWaitMs: this.startupWaitMs });
                    await sleep(pause, signal);
                    if (!starting && !waiting)
                        wait *= 2;
                    continue;
                }
                let text;
                try {
                    text = await abortable(response.text(), tried.signal);
                }
                catch (e) {
                    await unansweredTry(e, tried);
                    continue;
                }
                // A CSV answer is the file; any other, a success without one too (a proxy's page), is read as JSON.
                if (options.csv && response.ok && /^text\/csv\b/i.test(response.headers.get('content-type') ?? ''))
                    return text;
                // A start's answer is said so with the wait off too: the script tells it from a busy database's.
                const requestId = response.headers.get('x-request-id') ?? undefined;
                const answer = { retryAfter, requestId, starting: startingAnswer };
                return answered(response, text, `${method} ${path}`, holds, headers['idempotency-key'], answer);
            }
            finally {
                tried.end();
            }
        }
    }
}
