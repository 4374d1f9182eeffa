// What a StorelocClient and each of its calls take, and the check that refuses, naming it, an
// option no call could run with.

export type ClientOptions = {
  /**
   * The service's address, e.g. "http://127.0.0.1:3000", or its Management API's ("http://127.0.0.1:3000/admin/v1").
   * Undefined (an environment variable not set) is taken by the type and refused when the client is made.
   */
  baseUrl: string | undefined
  /** The locator's secret key, "sk_..."; undefined is refused when the client is made, as baseUrl's. */
  apiKey: string | undefined
  /**
   * Tries of a request that met a network error, a timeout, 429, 502, 503 or 504 (default 4); a
   * starting service's 503s are waited for apart (startupWaitMs).
   */
  attempts?: number
  /**
   * How long a write is waited for while an earlier try of it still runs on the server (409 with
   * Retry-After: its try timed out here, a slow geocoder there), ms, counted from its first such
   * answer (default 600,000), Retry-After at a time (1 s when it is 0 or unreadable). Those answers
   * are not counted as tries, nor a start's wait in it; a Retry-After beyond maxWaitMs ends the
   * request with its 409 all the same.
   */
  inFlightWaitMs?: number
  /** Per try, ms (default 30,000). */
  timeoutMs?: number
  /**
   * The first wait between tries, ms, doubled each time up to maxWaitMs, unless Retry-After says
   * (default 250).
   */
  backoffMs?: number
  /**
   * How long a request waits for a service that is starting (503 with X-Service-Status: starting:
   * a first start builds the geocoder's data, 15 s to a minute or more), ms, counted
   * from its first such answer (default 120,000; 0: no wait, such an answer is a 503 like another,
   * its error's `starting` true all the same). Those answers are not counted as tries; past this
   * the request ends with the last of them.
   */
  startupWaitMs?: number
  /** Called once a request, when it first meets a starting service and waits for it. */
  onStarting?: (wait: StartupWait) => void
  /**
   * The longest wait before a try, ms (default 60,000). A Retry-After beyond it (a damaged
   * database asks for 600 s) ends the request with its error rather than hold the script; so do
   * a starting service's pause (1 s) and a write still running's Retry-After (1 s) beyond it.
   */
  maxWaitMs?: number
  fetch?: typeof fetch
}

/** The request that waits for a starting service, and how long it will wait at most, ms. */
export type StartupWait = { method: 'GET' | 'POST'; path: string; startupWaitMs: number }

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
  signal?: AbortSignal
}

export type WriteOptions = CallOptions & {
  /**
   * The write's key, printable ASCII (else the call rejects with a TypeError, nothing sent); a new
   * UUID when not given. The same key on a retry replays the first answer.
   */
  idempotencyKey?: string
}

/**
 * The first character of `text` that `odd` matches, as a message says it without the text: "a line
 * break at character 10"; undefined when there is none.
 */
export function oddCharacter(text: string, odd: RegExp): string | undefined {
  const found = odd.exec(text)
  if (found === null) return undefined
  const c = found[0]
  const code = c.codePointAt(0)!
  const kind =
    c === ' '
      ? 'a space'
      : c === '\n' || c === '\r'
        ? 'a line break'
        : code < 0x20 || code === 0x7f
          ? 'a control character'
          : 'a character that is not ASCII'
  return `${kind} at character ${found.index + 1}`
}

/** The Management API's path at the end of an address, and what follows it (a route; none: its own address). */
const API_PATH = /\/admin\/v1(?:\/+(.*))?$/

/**
 * The address each call's path follows, from a baseUrl refuseUnusable took: the service's, its
 * path without the Management API's (each call's path holds it) nor trailing slashes.
 */
export function serviceAddress(baseUrl: string): string {
  const url = new URL(baseUrl)
  return `${url.origin}${url.pathname.replace(API_PATH, '').replace(/\/+$/, '')}`
}

/** How a message says an option given as undefined: most often an environment variable not set. */
const UNSET = 'undefined (not set)'

/**
 * How a message says an option that is no string: undefined as UNSET, null as written, anything
 * else by its kind ("a Buffer, not a string", "a function, ..."), never its text (a key file's
 * bytes, or a function's source, would show the key).
 */
function notText(v: unknown): string {
  if (v === undefined) return UNSET
  if (v === null) return 'null'
  if (typeof v !== 'object') return `${/^[aeiou]/.test(typeof v) ? 'an' : 'a'} ${typeof v}, not a string`
  const kind = Object.getPrototypeOf(v)?.constructor?.name
  const named =
    typeof kind === 'string' && kind !== 'Object' ? `${/^[AEIO]/.test(kind) ? 'an' : 'a'} ${kind}` : 'an object'
  return `${named}, not a string`
}

/** Options refuseUnusable took: baseUrl and apiKey set. */
export type Usable = ClientOptions & { baseUrl: string; apiKey: string }

/** The ms options: `timeoutMs` must be above 0, the others 0 or more; Infinity is no limit. */
const MS_OPTIONS = ['timeoutMs', 'backoffMs', 'maxWaitMs', 'inFlightWaitMs', 'startupWaitMs'] as const

/**
 * Refuses, naming it, an option a script got wrong (an unset environment variable, Number() of
 * one): baseUrl not an http(s) address (or a route's, or the Query API's), no apiKey or one a header cannot carry, attempts not a
 * whole number from 1 (Infinity: no end), an ms option not a number (NaN would retry without end or wait 1 ms).
 */
export function refuseUnusable(options: ClientOptions): asserts options is Usable {
  /** A value as a message shows it: a string quoted, so "5000" is told from 5000. */
  const shown = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : String(v))
  const { baseUrl, apiKey, attempts } = options
  let url: URL | undefined
  try {
    if (typeof baseUrl === 'string') url = new URL(baseUrl)
  } catch {}
  if (typeof baseUrl !== 'string' || (url?.protocol !== 'http:' && url?.protocol !== 'https:'))
    throw new TypeError(
      `StorelocClient: baseUrl must be the service's address, such as "http://127.0.0.1:3000"; got ${typeof baseUrl === 'string' ? JSON.stringify(baseUrl) : notText(baseUrl)}.`,
    )
  // The Query API's address (a finder's request copied whole): a secret key sent under it is
  // taken as exposed in a page's code, and marked so, before any answer could say the address is wrong.
  const publicAt = url.pathname.search(/\/public\/v1(?:\/|$)/)
  const withUser = url.username !== '' || url.password !== ''
  if (publicAt >= 0)
    throw new TypeError(
      `StorelocClient: baseUrl must be the service's address, such as "http://127.0.0.1:3000", not the public Query API's; got ${withUser ? 'one with a user and password' : JSON.stringify(baseUrl)}: give ${JSON.stringify(url.origin + url.pathname.slice(0, publicAt))}. The secret key goes to the Management API alone: sent under /public/v1, it is marked exposed.`,
    )
  // Each call's path follows baseUrl: after a query or a fragment it is no path. A user and password
  // make Node's fetch fail each try, its message showing them; Bun sends them. Not shown here.
  const extra = withUser ? 'a user and password' : /[?#]/.test(baseUrl) ? 'a query or a fragment' : undefined
  if (extra !== undefined)
    throw new TypeError(
      `StorelocClient: baseUrl must be the service's address, such as "http://127.0.0.1:3000", without ${extra}; got ${extra === 'a user and password' ? `one with ${extra}` : JSON.stringify(baseUrl)}.`,
    )
  const route = API_PATH.exec(url.pathname)?.[1]
  if (route)
    throw new TypeError(
      `StorelocClient: baseUrl must be the service's address, such as "http://127.0.0.1:3000", not one of its routes; got ${JSON.stringify(baseUrl)}: leave out /admin/v1/${route}.`,
    )
  // The key itself is not said: it is a secret. One with a character no bearer token has (a
  // line break, a space, "…") would fail each try in fetch, whose message on Node shows it.
  const key = typeof apiKey === 'string' ? apiKey.trim() : undefined
  const odd = key === undefined ? undefined : oddCharacter(key, /[^\x21-\x7e]/)
  if (key === undefined || key === '' || odd !== undefined) {
    const got = key === undefined ? notText(apiKey) : odd ? `one with ${odd}` : 'an empty string'
    throw new TypeError(`StorelocClient: apiKey must be the locator's secret key, "sk_..."; got ${got}.`)
  }
  if (attempts !== undefined && !((Number.isInteger(attempts) || attempts === Infinity) && attempts >= 1))
    throw new RangeError(`StorelocClient: attempts must be a whole number of tries, 1 or more; got ${shown(attempts)}.`)
  for (const name of MS_OPTIONS) {
    const ms = options[name]
    if (ms !== undefined && !(typeof ms === 'number' && (name === 'timeoutMs' ? ms > 0 : ms >= 0)))
      throw new RangeError(
        `StorelocClient: ${name} must be ms, ${name === 'timeoutMs' ? 'above 0' : '0 or more'}; got ${shown(ms)}.`,
      )
  }
}
