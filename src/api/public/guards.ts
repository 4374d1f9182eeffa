// The Query API's guards, in the order requests meet them: a secret key anywhere, the token, the
// API switch, the referrer allowlist, the client's rate limit, the token's.
import { hashSecret, SECRET_KEY_SHAPE } from '../../core/ids'
import type { Store } from '../../store'
import { isBusyError } from '../../store/db'
import type { Locator } from '../../store/locators'
import { PublicError } from './errors'
import { cliCommand } from '../../core/cli-command'

/** An sk_-shaped key in the path, the query, Authorization (Bearer or Basic), X-Api-Key or Referer, found by shape alone. */
export function findSecretKey(request: Request): string | null {
  const href = request.url
  const { headers } = request
  // Where a key is sent by mistake: an API key header, Authorization (Basic too: base64), and a
  // page whose own address holds it (the Referer).
  const authorization = headers.get('authorization') ?? ''
  const apiKey = headers.get('x-api-key') ?? ''
  const referer = headers.get('referer') ?? ''
  const basic = authorization.length > 6 && /^basic\s/i.test(authorization)
  // Most requests: no "sk_" anywhere and no escape that could spell one, so nothing to decode.
  if (
    !href.includes('sk_') &&
    !href.includes('%') &&
    !authorization.includes('sk_') &&
    !apiKey.includes('sk_') &&
    !referer.includes('sk_') &&
    !basic
  )
    return null
  const sentBy = `${authorization} ${apiKey} ${referer}`
  const url = new URL(href)
  const sent = url.pathname + url.search
  let text = `${sent} ${sentBy}${basic ? ` ${Buffer.from(authorization.slice(6).trim(), 'base64').toString('latin1')}` : ''}`
  try {
    text = `${decodeURIComponent(sent)} ${text}`
  } catch {
    // An escape that is not UTF-8 elsewhere in the URL: each escape decoded as its byte alone,
    // which spells a key's ASCII all the same ("%73k_...").
    text = `${sent.replace(/%[0-9a-f]{2}/gi, (e) => String.fromCharCode(parseInt(e.slice(1), 16)))} ${text}`
  }
  return SECRET_KEY_SHAPE.exec(text)?.[0] ?? null
}

/**
 * Refuses the request; a real key is marked exposed so `storeloc key list` shows it must be
 * rotated. Never echoed or logged. The mark is written soon, without holding the answer: while
 * another process holds the database it waits without stopping this one; if that outlasts
 * busy_timeout, `log` says so (by the key's id) and the key is marked when it is seen again.
 */
export function refuseSecretKey(store: Store, key: string, log: (line: Record<string, unknown>) => void): never {
  const record = store.keys.findBySecret(key)
  if (record && record.hash === hashSecret(key)) {
    store
      .writeSoon(() => store.keys.markExposed(record.id))
      .catch((e) => {
        const why = isBusyError(e) ? 'another process held the database' : e instanceof Error ? e.message : String(e)
        log({
          level: 'warn',
          api: 'public',
          message: `Key ${record.id} was sent to the Query API but could not be marked exposed (${why}); it is marked when it is seen again.`,
        })
      })
  }
  throw new PublicError('SECRET_KEY_EXPOSED')
}

/** The host a browser request came from: Origin, else Referer; null when neither. */
export function requestHost(request: Request): string | null {
  for (const header of ['origin', 'referer']) {
    const value = request.headers.get(header)
    if (!value || value === 'null') continue
    try {
      return new URL(value).hostname.toLowerCase() || null // "mailto:x" parses, with no host
    } catch {
      return null
    }
  }
  return null
}

/** Exact hosts, or "*.example.com" for its subdomains. An empty list allows everyone. */
export function referrerAllowed(allowlist: string[], host: string | null): boolean {
  if (allowlist.length === 0) return true
  if (host === null) return false
  return allowlist.some((entry) => {
    const e = entry.toLowerCase()
    return e.startsWith('*.') ? host.endsWith(e.slice(1)) && host.length > e.length - 1 : host === e
  })
}

export type RateDecision = { limit: number; remaining: number; resetSeconds: number; allowed: boolean }

/**
 * Whether `w` is the window of the minute `t` is in. One that starts after `t` is not: the wall
 * clock was set back (NTP, a VM resumed), and that window would otherwise have lasted as much
 * longer, its budget spent (a token refused for an hour, told to retry in 3,650 s).
 */
const isCurrent = (w: { start: number } | undefined, t: number): w is { start: number; count: number } =>
  w !== undefined && t >= w.start && t - w.start < 60_000

/**
 * Requests per minute per key (a token, a client's address), in fixed one-minute windows of the
 * wall clock (every process's windows end together, as RateLimit-Reset says), per process. A
 * changed limit applies at once. At most `maxKeys` windows are kept: past it, ended windows go,
 * then the oldest, whose keys start their minute afresh.
 */
export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>()
  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  take(token: string, limit: number): RateDecision {
    return this.count(token, limit, true)!
  }

  /** As take(), but a request past the limit is not counted: null instead (the fast path leaves refusals to the app, which counts them). */
  takeIfAllowed(token: string, limit: number): RateDecision | null {
    return this.count(token, limit, false)
  }

  /** Where the token's budget stands now, as take() would say it before counting one more; counts nothing. */
  peek(token: string, limit: number): RateDecision {
    const t = this.now()
    const w = this.windows.get(token)
    return isCurrent(w, t) ? decide(limit, w.start, w.count, t) : decide(limit, t - (t % 60_000), 0, t)
  }

  /** Whether take() would allow a request now; counts nothing. */
  allows(token: string, limit: number): boolean {
    const w = this.windows.get(token)
    return !isCurrent(w, this.now()) || w.count < limit
  }

  private count(token: string, limit: number, always: boolean): RateDecision | null {
    const t = this.now()
    let w = this.windows.get(token)
    if (!isCurrent(w, t)) {
      w = { start: t - (t % 60_000), count: 0 }
      this.windows.set(token, w)
      if (this.windows.size > this.maxKeys) this.prune(t)
    }
    if (!always && w.count >= limit) return null
    w.count++
    return decide(limit, w.start, w.count, t)
  }

  /** Down to 90% of maxKeys, so that a flood of new keys prunes once in many, not on each. */
  private prune(t: number): void {
    for (const [key, w] of this.windows) if (!isCurrent(w, t)) this.windows.delete(key)
    const keep = Math.floor(this.maxKeys * 0.9)
    for (const key of this.windows.keys()) {
      if (this.windows.size <= keep) return
      this.windows.delete(key)
    }
  }

  /** How many windows are kept (tests). */
  get size(): number {
    return this.windows.size
  }
}

/** A window's state as its headers say it: `count` requests counted in the minute from `start`, at `t`. */
const decide = (limit: number, start: number, count: number, t: number): RateDecision => ({
  limit,
  remaining: Math.max(0, limit - count),
  resetSeconds: Math.max(1, Math.ceil((start + 60_000 - t) / 1000)),
  allowed: count <= limit,
})

export function rateHeaders(d: RateDecision): Record<string, string> {
  return {
    'ratelimit-limit': String(d.limit),
    'ratelimit-remaining': String(d.remaining),
    'ratelimit-reset': String(d.resetSeconds),
  }
}

/**
 * How `host` is let in: only the CLI sets the allowlist, so the page's developer is told which
 * command, as the service was started (cliCommand); --referrers replaces the list, so the command
 * keeps those listed.
 */
const addSite = (host: string) =>
  `Its operator adds the site by giving the whole list again, the hosts listed now (\`${cliCommand('locator show lct_...')}\`) and this one: \`${cliCommand(`locator set lct_... --referrers "LISTED_HOSTS,${host}"`)}\`.`
const NO_SITE =
  'This locator only answers requests from its allowed sites, and this request named none (no Origin or Referer).'
const UNUSABLE_SITE =
  'This locator only answers requests from its allowed sites, and the Origin or Referer this request sent names no site: Origin "null" comes from sandboxed pages and files, and a Referer must be a full URL (https://host/...).'

/** Whether the request sent an Origin or a Referer at all (requestHost may find no host in it). */
const sentSite = (request: Request) => Boolean(request.headers.get('origin') || request.headers.get('referer'))

/**
 * Whether the request comes from the service's own page for this locator (/l/{token}, its store
 * pages): a Referer on the host the request was sent to, whose path names the token. Such pages
 * count as allowed sites of their locator (design.md).
 */
function fromOwnPage(token: string, request: Request): boolean {
  const referer = request.headers.get('referer')
  if (!referer) return false
  try {
    const own = new URL(request.url).host
    const from = new URL(referer)
    const origin = request.headers.get('origin')
    if (from.host !== own || (origin && origin !== 'null' && new URL(origin).host !== own)) return false
    const at = from.pathname.indexOf(`/l/${token}`)
    const end = at + 3 + token.length
    return at >= 0 && (end === from.pathname.length || from.pathname[end] === '/')
  } catch {
    return false
  }
}

/** Why the guards after the secret-key check and before the rate refuse a request (token, switch, referrer), or null. Counts nothing. */
export function refusal(locator: Locator | null, request: Request): PublicError | null {
  if (!locator?.active) return new PublicError('INVALID_TOKEN')
  if (!locator.queryApiEnabled) return new PublicError('API_NOT_ENABLED')
  if (locator.referrers.length === 0) return null // no allowlist: no need to read the headers
  const host = requestHost(request)
  if (!referrerAllowed(locator.referrers, host) && !fromOwnPage(locator.publicToken, request)) {
    return new PublicError(
      'REFERRER_NOT_ALLOWED',
      host !== null
        ? `Requests from ${host} are not in this locator's referrer allowlist. ${addSite(host)}`
        : sentSite(request)
          ? UNUSABLE_SITE
          : NO_SITE,
    )
  }
  return null
}

/**
 * `error` with the rate of the token's locator, peeked: not counted (a site the allowlist refuses
 * must not use up the locator's budget, nor a request nothing answered), but a locator's every
 * response says where its budget stands (design.md). Not for a token the guards call invalid.
 */
export function withPeekedRate(
  error: PublicError,
  locator: Locator | null,
  request: Request,
  limiter: RateLimiter,
  token: string,
  refused = refusal(locator, request),
): PublicError {
  if (refused?.code !== 'INVALID_TOKEN')
    Object.assign(error.headers, rateHeaders(limiter.peek(token, locator!.rateLimit)))
  return error
}

/** A client's count (CLIENT_RATE_LIMIT, PAGE_RATE_LIMIT): the limiter of client addresses, its limit a minute, and this client's key. */
export type ClientCount = { limiter: RateLimiter; limit: number; key: string }

/** The count of the client a key names under `limit` a minute; null when the limit is off (0) or the client unknown. */
export const clientCounter =
  (limiter: RateLimiter, limit: number) =>
  (key: string | null | undefined): ClientCount | null =>
    limit === 0 || key == null ? null : { limiter, limit, key }

/** RATE_LIMITED for a client over CLIENT_RATE_LIMIT, with its own window's headers: the token's budget is not touched. */
export function clientLimited(d: RateDecision): PublicError {
  return new PublicError(
    'RATE_LIMITED',
    `Too many requests from this address: at most ${d.limit} a minute. Retry after the time in the Retry-After header.`,
    { ...rateHeaders(d), 'retry-after': String(d.resetSeconds) },
  )
}

/**
 * The guards after the secret-key check: token, switch, referrer, the client's rate (counted
 * first, so that a client over its own limit spends none of the token's), the token's rate.
 * Returns the locator and the token's rate headers.
 */
export function admit(
  locator: Locator | null,
  request: Request,
  limiter: RateLimiter,
  token: string,
  client: ClientCount | null = null,
): { locator: Locator; headers: Record<string, string> } {
  const refused = refusal(locator, request)
  if (refused) throw withPeekedRate(refused, locator, request, limiter, token, refused)
  if (client !== null) {
    const own = client.limiter.take(client.key, client.limit)
    if (!own.allowed) throw clientLimited(own)
  }
  const decision = limiter.take(token, locator!.rateLimit)
  const headers = rateHeaders(decision)
  if (!decision.allowed)
    throw new PublicError('RATE_LIMITED', undefined, { ...headers, 'retry-after': String(decision.resetSeconds) })
  return { locator: locator!, headers }
}
