// The one place that talks HTTP for the geocoder adapters: builds nothing provider-specific, only
// sends a GET with our User-Agent, enforces the deadline over headers and body, and turns every
// kind of failure into a GeocoderUnavailableError that names the provider and the reason, never
// the URL (it may carry the key) nor the key itself.
import type { GeocoderConfig } from '../../core/config'
import { bytesUpTo } from '../../core/read-bytes'
import { retryAfterSeconds } from '../../core/retry-after'
import type { GeocodeResult, Geocoder } from '../geocoder'

export type HttpGeocoderProvider = Exclude<GeocoderConfig['provider'], 'embedded' | 'none'>

export type HttpGeocoderOptions = {
  fetch?: typeof fetch
  /**
   * Clock for the request gate and the Retry-After pause, ms. Monotonic by default
   * (performance.now): a wall clock set back (NTP, a VM resumed) would otherwise hold every
   * request, or the pause, back by as much. An HTTP date in Retry-After is read against Date.now.
   */
  now?: () => number
  /** Waits for the request gate. */
  sleep?: (ms: number) => Promise<void>
}

/**
 * The service could not give a definite answer (timeout, refusal, over quota, server error, bad
 * body). Its scope says whether other addresses may fare better: 'address' when the provider
 * rejected this address or sent an unusable answer for it (the service itself answers), 'service'
 * otherwise.
 */
export class GeocoderUnavailableError extends Error {
  override readonly name = 'GeocoderUnavailableError'
  constructor(
    readonly provider: string,
    /** Why, in words fit for a log line or a `source` note, e.g. "timed out after 3000 ms". */
    readonly reason: string,
    readonly scope: FailureScope = 'service',
  ) {
    super(`${provider} ${reason}`)
  }
}

export type FailureScope = 'service' | 'address'

/** What a provider adapter supplies; everything else is shared. */
export type ProviderSpec = {
  name: HttpGeocoderProvider
  defaultUrl: string
  /** Shortest spacing between the starts of two requests from one adapter, ms (a usage policy). */
  minIntervalMs?: number
  /** The request URL for `address` under `base`; the key, when the provider takes it in the query, goes here. */
  url(base: string, address: string, apiKey: string | null): string
  /** A 2xx body to a result, or null for a definite "not found"; calls `fail` when the body reports a failure (with scope 'address' when it is of this address only; by default 'service'). */
  read(body: unknown, fail: (reason: string, scope?: FailureScope) => never): GeocodeResult | null
  /** The provider's own words on a refused request, when its error body carries any. */
  errorDetail?(body: unknown): string | undefined
}

const defaultSleep = (ms: number) => Bun.sleep(ms)

export function httpGeocoder(spec: ProviderSpec, config: GeocoderConfig, options: HttpGeocoderOptions = {}): Geocoder {
  const fetchImpl = options.fetch ?? fetch
  const base = (config.url ?? spec.defaultUrl).replace(/\/+$/, '')
  const now = options.now ?? (() => performance.now())
  const gate = spec.minIntervalMs
    ? requestGate(spec.name, spec.minIntervalMs, now, options.sleep ?? defaultSleep)
    : null
  // Until when the provider asked us not to call (Retry-After on a 429 or 503): calls meanwhile
  // fail at once, sending nothing, so writes fall back without waiting and the provider is spared.
  let pausedUntil = Number.NEGATIVE_INFINITY
  let pauseReason = ''
  const pause = (ms: number) => {
    // A shorter wait answered to a request sent earlier does not cut a longer one short.
    if (now() + ms <= pausedUntil) return
    pausedUntil = now() + ms
    // One reason for the whole pause: the fallback warns once per reason a minute.
    pauseReason = `asked us to wait (Retry-After) until ${new Date(Date.now() + ms).toISOString().slice(0, 19)}Z`
  }
  const paused = () => {
    if (now() < pausedUntil) fail(pauseReason)
  }
  // The key out first, then the provider's words cut short: cut first, a key across the cut was
  // left in part ("key=AIzaSyDA1b2C...").
  const fail = (reason: string, scope?: FailureScope): never => {
    throw new GeocoderUnavailableError(spec.name, clip(redact(reason, config.apiKey)), scope)
  }
  return {
    name: spec.name,
    async geocode(address) {
      paused()
      // One budget for the whole call: time spent waiting for the gate is taken from the request's share.
      const waited = gate ? await gate(config.timeoutMs) : 0
      paused() // a call that waited for its slot while an earlier one was told to wait
      const url = spec.url(base, address, config.apiKey)
      const body = await getJson(url, config.timeoutMs - waited, waited, config.userAgent, fetchImpl, spec, fail, pause)
      return spec.read(body, fail)
    },
  }
}

/**
 * Spaces request starts at least `intervalMs` apart per adapter instance. Slots are reserved in call
 * order before waiting, so concurrent callers queue; a caller whose slot lies `budgetMs` or more
 * away fails at once instead of holding a write beyond its timeout (and takes no slot).
 */
function requestGate(provider: string, intervalMs: number, now: () => number, sleep: (ms: number) => Promise<void>) {
  let nextSlot = Number.NEGATIVE_INFINITY
  return async (budgetMs: number): Promise<number> => {
    const t = now()
    const start = Math.max(t, nextSlot)
    const wait = start - t
    if (wait >= budgetMs) {
      throw new GeocoderUnavailableError(
        provider,
        `is busy: its next request slot (one per ${intervalMs} ms) is ${wait} ms away, beyond the ${budgetMs} ms timeout`,
      )
    }
    nextSlot = start + intervalMs
    if (wait > 0) await sleep(wait)
    return wait
  }
}

async function getJson(
  url: string,
  timeoutMs: number,
  /** Of the call's timeout, spent waiting for its request slot before this: said when it times out. */
  waitedMs: number,
  userAgent: string,
  fetchImpl: typeof fetch,
  spec: ProviderSpec,
  fail: (reason: string) => never,
  /** Told how long a 429 or 503 answer's Retry-After asks to wait, ms. */
  pause: (ms: number) => void,
): Promise<unknown> {
  const controller = new AbortController()
  const timedOut = new GeocoderUnavailableError(
    spec.name,
    `timed out after ${timeoutMs + waitedMs} ms${waitedMs > 0 ? ` (${waitedMs} ms of it waiting for a request slot)` : ''}`,
  )
  // Rejects at the deadline whatever the transport does, so a body that trickles in cannot outlast it.
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(timedOut)
      controller.abort()
    }, timeoutMs)
  })
  deadline.catch(() => {}) // observed through `within`; this only keeps an unraced rejection quiet
  const within = <T>(work: Promise<T>): Promise<T> => {
    work.catch(() => {}) // its own rejection after the deadline won has nobody to report to
    return Promise.race([work, deadline])
  }
  try {
    let res: Response
    try {
      res = await within(
        fetchImpl(url, { headers: { 'user-agent': userAgent, accept: 'application/json' }, signal: controller.signal }),
      )
    } catch (err) {
      if (controller.signal.aborted) throw timedOut
      return fail(`could not be reached (${networkCode(err)})`)
    }
    let bytes: Uint8Array | null
    try {
      bytes = await within(bytesUpTo(res, MAX_RESPONSE_BYTES))
    } catch (err) {
      if (controller.signal.aborted) throw timedOut
      return fail(`broke off its response (${networkCode(err)})`)
    }
    if (bytes === null) {
      controller.abort()
      return fail(`sent a response over ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`)
    }
    const text = new TextDecoder().decode(bytes)
    let body: unknown
    let parsed = true
    try {
      body = JSON.parse(text)
    } catch {
      parsed = false
    }
    if (!res.ok) {
      const wait =
        res.status === 429 || res.status === 503 ? retryAfterMs(res.headers.get('retry-after'), Date.now()) : null
      if (wait !== null) pause(wait)
      const detail = parsed && spec.errorDetail ? spec.errorDetail(body) : undefined
      const said = `HTTP ${res.status}${detail ? `: ${detail}` : ''}`
      if (res.status === 429) return fail(`is rate limiting us (${said})`)
      if (res.status >= 500) return fail(`failed (${said})`)
      return fail(`refused the request (${said})`)
    }
    if (!parsed) return fail('sent a malformed response (not JSON)')
    return body
  } finally {
    clearTimeout(timer)
  }
}

/** The longest a Retry-After is obeyed: a provider's mistake (a date years away) must not stop geocoding for good. */
const MAX_RETRY_AFTER_MS = 3_600_000

/**
 * A Retry-After header's wait in ms (core/retry-after.ts: seconds, or an HTTP date), at most
 * MAX_RETRY_AFTER_MS; null when absent or unreadable.
 */
export function retryAfterMs(value: string | null, nowMs: number): number | null {
  const seconds = retryAfterSeconds(value, nowMs)
  return seconds === undefined ? null : Math.min(seconds * 1000, MAX_RETRY_AFTER_MS)
}

/** Geocoding answers are a few KB: a body beyond this is no answer (a mistyped URL, a broken upstream), and is not held in memory. */
const MAX_RESPONSE_BYTES = 1024 * 1024

/** A short cause for a transport error: its code when it has one. Messages are left out: they can quote the URL. */
function networkCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^[\w.-]{1,40}$/.test(code) ? code : 'network error'
}

/** A reason at most 240 characters long: our words and the provider's, which may run on. */
const clip = (text: string) => (text.length > 240 ? `${text.slice(0, 237)}...` : text)

/**
 * Belt and braces: provider messages are quoted in reasons, and none of them may carry the key,
 * as sent or as a URL's query string encodes it (a provider may echo its request).
 */
function redact(text: string, apiKey: string | null): string {
  if (!apiKey) return text
  const forms = new Set([apiKey, encodeURIComponent(apiKey), new URLSearchParams({ k: apiKey }).toString().slice(2)])
  for (const form of forms) text = text.split(form).join('[key]')
  return text
}
