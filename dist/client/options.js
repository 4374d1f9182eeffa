// What a StorelocClient and each of its calls take, and the check that refuses, naming it, an
// option no call could run with.
/**
 * The first character of `text` that `odd` matches, as a message says it without the text: "a line
 * break at character 10"; undefined when there is none.
 */
export function oddCharacter(text, odd) {
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
/** The Management API's path at the end of an address, and what follows it (a route; none: its own address). */
const API_PATH = /\/admin\/v1(?:\/+(.*))?$/;
/**
 * The address each call's path follows, from a baseUrl refuseUnusable took: the service's, its
 * path without the Management API's (each call's path holds it) nor trailing slashes.
 */
export function serviceAddress(baseUrl) {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname.replace(API_PATH, '').replace(/\/+$/, '')}`;
}
/** How a message says an option given as undefined: most often an environment variable not set. */
const UNSET = 'undefined (not set)';
/**
 * How a message says an option that is no string: undefined as UNSET, null as written, anything
 * else by its kind ("a Buffer, not a string", "a function, ..."), never its text (a key file's
 * bytes, or a function's source, would show the key).
 */
function notText(v) {
    if (v === undefined)
        return UNSET;
    if (v === null)
        return 'null';
    if (typeof v !== 'object')
        return `${/^[aeiou]/.test(typeof v) ? 'an' : 'a'} ${typeof v}, not a string`;
    const kind = Object.getPrototypeOf(v)?.constructor?.name;
    const named = typeof kind === 'string' && kind !== 'Object' ? `${/^[AEIO]/.test(kind) ? 'an' : 'a'} ${kind}` : 'an object';
    return `${named}, not a string`;
}
/** The ms options: `timeoutMs` must be above 0, the others 0 or more; Infinity is no limit. */
const MS_OPTIONS = ['timeoutMs', 'backoffMs', 'maxWaitMs', 'inFlightWaitMs', 'startupWaitMs'];
/**
 * Refuses, naming it, an option a script got wrong (an unset environment variable, Number() of
 * one): baseUrl not an http(s) address (or a route's, or the Query API's), no apiKey or one a header cannot carry, attempts not a
 * whole number from 1 (Infinity: no end), an ms option not a number (NaN would retry without end or wait 1 ms).
 */
export function refuseUnusable(options) {
    /** A value as a message shows it: a string quoted, so "5000" is told from 5000. */
    const shown = (v) => (typeof v === 'string' ? JSON.stringify(v) : String(v));
    const { baseUrl, apiKey, attempts } = options;
    let url;
    try {
        if (typeof baseUrl === 'string')
            url = new URL(baseUrl);
    }
    catch { }
    if (typeof baseUrl !== 'string' || (url?.protocol !== 'http:' && url?.protocol !== 'https:'))
        throw new TypeError(`StorelocClient: baseUrl must be the service's address, such as "http://127.0.0.1:3000"; got ${typeof baseUrl === 'string' ? JSON.stringify(baseUrl) : notText(baseUrl)}.`);
    // The Query API's address (a finder's request copied whole): a secret key sent under it is
    // taken as exposed in a page's code, and marked so, before any answer could say the address is wrong.
    const publicAt = url.pathname.search(/\/public\/v1(?:\/|$)/);
    const withUser = url.username !== '' || url.password !== '';
    if (publicAt >= 0)
        throw new TypeError(`StorelocClient: baseUrl must be the service's address, such as "http://127.0.0.1:3000", not the public Query API's; got ${withUser ? 'one with a user and password' : JSON.stringify(baseUrl)}: give ${JSON.stringify(url.origin + url.pathname.slice(0, publicAt))}. The secret key goes to the Management API alone: sent under /public/v1, it is marked exposed.`);
    // Each call's path follows baseUrl: after a query or a fragment it is no path. A user and password
    // make Node's fetch fail each try, its message showing them; Bun sends them. Not shown here.
    const extra = withUser ? 'a user and password' : /[?#]/.test(baseUrl) ? 'a query or a fragment' : undefined;
    if (extra !== undefined)
        throw new TypeError(`StorelocClient: baseUrl must be the service's address, such as "http://127.0.0.1:3000", without ${extra}; got ${extra === 'a user and password' ? `one with ${extra}` : JSON.stringify(baseUrl)}.`);
    const route = API_PATH.exec(url.pathname)?.[1];
    if (route)
        throw new TypeError(`StorelocClient: baseUrl must be the service's address, such as "http://127.0.0.1:3000", not one of its routes; got ${JSON.stringify(baseUrl)}: leave out /admin/v1/${route}.`);
    // The key itself is not said: it is a secret. One with a character no bearer token has (a
    // line break, a space, "…") would fail each try in fetch, whose message on Node shows it.
    const key = typeof apiKey === 'string' ? apiKey.trim() : undefined;
    const odd = key === undefined ? undefined : oddCharacter(key, /[^\x21-\x7e]/);
    if (key === undefined || key === '' || odd !== undefined) {
        const got = key === undefined ? notText(apiKey) : odd ? `one with ${odd}` : 'an empty string';
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
