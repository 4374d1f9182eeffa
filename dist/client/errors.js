/**
 * An answer of the Management API that is not a success: its status, error code, message and
 * details, a write's Idempotency-Key (sent again later, it replays the write's answer), and the
 * answer's Retry-After and X-Request-Id when it had them.
 */
export class StorelocError extends Error {
    status;
    code;
    details;
    idempotencyKey;
    /** Seconds the answer's Retry-After asked to wait; undefined when it had none. */
    retryAfter;
    /** The answer's X-Request-Id; undefined when no answer came (status 0). */
    requestId;
    /**
     * The answer was a starting service's: still starting after the client waited startupWaitMs for
     * it, or, with 0 (no wait), after its tries. Run again once it serves (GET /readyz answers 200),
     * not after retryAfter's 1 s.
     */
    starting;
    constructor(status, 
    /**
     * One of the codes the Management API documents, or the client's own two; any other string
     * when the answer had another (a newer service's code, a proxy's JSON error page).
     */
    code, message, details, idempotencyKey, answer = {}) {
        super(message);
        this.status = status;
        this.code = code;
        this.details = details;
        this.idempotencyKey = idempotencyKey;
        this.name = 'StorelocError';
        this.retryAfter = answer.retryAfter;
        this.requestId = answer.requestId;
        this.starting = answer.starting ?? false;
    }
}
/** An HTML page's title, else its text, as a proxy's error page says it: "502 Bad Gateway". */
function pageText(html) {
    const title = /<title[^>]*>([^<]*)/i.exec(html)?.[1]?.trim();
    return title || html.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>|<[^>]*>/gi, ' ');
}
/**
 * What an answer that is not the Management API's says, for a message: its text, an HTML page's
 * title, or that it had none; whitespace run together, 200 characters at most. `holds`: the
 * field a success answer lacked, when it was JSON.
 */
function notTheApis(response, text, holds) {
    if (text.trim() === '')
        return `a ${response.status} answer with no body`;
    const page = /^\s*</.test(text);
    const said = (page ? pageText(text) : text).replace(/\s+/g, ' ').trim().slice(0, 200);
    if (page)
        return `${said}${said ? ' ' : ''}(an HTML page, not the Management API's answer)`;
    return holds === undefined ? said : `${said} (no "${holds}" in it: is baseUrl the service's address?)`;
}
/**
 * A final answer's JSON object (`text`, its body) when its status is a success and it has the
 * route's field `holds`; otherwise the StorelocError it says, or `invalid_response` for an answer
 * that is not the Management API's: a redirect, a body not JSON, not an object (a proxy's `null`),
 * or a success without `holds` (another service at baseUrl). `call`: "METHOD path".
 */
export function answered(response, text, call, holds, idempotencyKey, answer) {
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    if (location !== null) {
        // Made whole against the answer's address; as it came when that is unknown (a `fetch` option's).
        let to = location;
        try {
            to = new URL(location, response.url).href;
        }
        catch { }
        const said = `a ${response.status} redirect to ${to}, not followed: is baseUrl the service's address?`;
        throw new StorelocError(response.status, 'invalid_response', `${call}: ${said}`, undefined, idempotencyKey, answer);
    }
    let json;
    try {
        json = JSON.parse(text);
    }
    catch { }
    const object = typeof json === 'object' && json !== null && !Array.isArray(json);
    const body = json;
    if (!object || (response.ok && !Object.hasOwn(body, holds))) {
        const said = notTheApis(response, text, object ? holds : undefined);
        throw new StorelocError(response.status, 'invalid_response', `${call}: ${said}`, undefined, idempotencyKey, answer);
    }
    // The API's `error` is its code; a proxy's JSON may nest its own object there, message and all.
    const nested = typeof body.error === 'object' && body.error !== null ? body.error : {};
    if (!response.ok)
        throw new StorelocError(response.status, typeof body.error === 'string' ? body.error : 'error', String(body.message ?? nested.message ?? response.statusText), body.details, idempotencyKey, answer);
    return body;
}
/**
 * A request no try of which was answered (a network error, a timeout): status 0, code
 * network_error, the last error as its cause. A write's key goes with it: the write may have been
 * made, and the same key later replays its answer.
 */
export function unanswered(method, path, e, key) {
    // Node's fetch says only "fetch failed": why (connect ECONNREFUSED, ENOTFOUND) is its cause's.
    const cause = e instanceof Error && e.cause instanceof Error ? e.cause : undefined;
    const more = cause?.message || cause?.code;
    const why = e instanceof Error ? `${e.message}${more ? ` (${more})` : ''}` : String(e);
    const error = new StorelocError(0, 'network_error', `${method} ${path}: ${why}`, undefined, key);
    error.cause = e;
    return error;
}
