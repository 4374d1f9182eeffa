// The Query API as the widget calls it: one GET, its JSON, and its error as an ApiError.
import { retryAfterSeconds } from '../core/retry-after'

export type Place = { label: string; lat: number; lng: number; country: string; precision: string }

export type Tag = { value: string; label: string; color?: string }

export type CustomField = { key: string; name: string; type: string; value: string; label?: string; color?: string }

export type Location = {
  id: string
  name: string
  /** `approximate`: the geocoder placed it only at its postcode or town (directions go to the address). */
  coordinates: { lat: number; lng: number; approximate?: true }
  address: { formatted: string; city?: string; country?: string }
  contact: { phone: string; email: string; website: string }
  hours: Record<string, string>
  timezone: string
  tags: Record<string, { name: string; items: Tag[] }>
  customFields: CustomField[]
  open_now: boolean | null
  next_change: string | null
  /** The hours text of the store's local date (special hours that date, else its weekday's). */
  hours_today: string | null
  distance?: { value: number; unit: 'km' | 'miles' }
}

export type FilterGroup = {
  id: string
  label: string
  singleSelect: boolean
  inline: boolean
  hidden: boolean
  tags: Tag[]
}

export type LocationsAnswer = {
  data: {
    locations: Location[]
    pagination: { offset: number; limit: number; total: number; hasMore: boolean }
  }
  meta: { query?: { center?: { lat: number; lng: number; label?: string }; radius?: number; unit?: 'km' | 'miles' } }
}

/** GET /filters: the locator's filter groups; its default radius, unit and store pages' language. */
export type FiltersAnswer = {
  data: { filters: FilterGroup[] }
  meta?: { radius: number; unit: 'km' | 'miles'; language?: string }
}

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** A 503's Retry-After, s: the service starting or reading its data, ready in a moment. */
    readonly wait?: number,
  ) {
    super(message)
  }
}

/** The longest one wait for a service that is starting (a Retry-After above it is not taken), s. */
const WAIT_MOST_S = 5
/**
 * The shortest one wait, s: a Retry-After of 0 (a proxy's) taken as it says would ask several times
 * a second for WAITING_MS, and every finder open on the service would.
 */
const WAIT_LEAST_S = 1
/** How long a request waits for the service before the visitor is told it is busy (`waiting`), ms. */
export const SAY_WAITING_MS = 3000
/** How long requests are asked again while the service starts, in all: a first start's minute and more, ms. */
const WAITING_MS = 90_000

/**
 * When the last history step came, ms. Chromium ends every request under way as two steps meet (a
 * popstate's history.forward() and the visitor's Back), 10 to 65 ms after the last popstate, and a
 * request ended so is still wanted: one that fails unanswered within 1 s of a step is asked again,
 * once for that step.
 */
let stepAt = 0
addEventListener('popstate', () => (stepAt = Date.now()))

/**
 * GET `path` under the locator's Query API, with `params` (repeated keys as arrays); `signal` ends
 * it. `step`: the step (stepAt) it is asked again after.
 */
export async function query<T>(
  api: string,
  token: string,
  path: string,
  params: [string, string][],
  signal: AbortSignal,
  step?: number,
): Promise<T> {
  const search = new URLSearchParams(params).toString()
  const url = `${api}/public/v1/${encodeURIComponent(token)}/${path}${search ? `?${search}` : ''}`
  type Answer = { success?: boolean; error?: { code?: string; message?: string } }
  let response: Response
  let body: Answer | null
  try {
    response = await fetch(url, { signal, credentials: 'omit' })
    // A request aborted while its body comes is aborted, not failed: the abort ends the read, which
    // Chromium may never settle once the abort lands on it. An answer not ok is one, its body not JSON
    // none (a proxy's 429 page asked again would count against its limit); an ok one's fails unanswered.
    body = (await Promise.race([
      new Promise((_, no) => signal.addEventListener('abort', () => no(signal.reason))),
      response.ok ? response.json() : response.json().catch(() => null),
    ])) as Answer | null
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e
    if (Date.now() - stepAt < 1000 && step !== stepAt) return query(api, token, path, params, signal, stepAt)
    throw new ApiError('NETWORK', (e as Error).message)
  }
  if (!response.ok || !body?.success) {
    const error = body?.error ?? {}
    // A proxy's own 429 (its limit on each address) is the rate limit to a visitor all the same.
    const code = error.code ?? (response.status === 429 ? 'RATE_LIMITED' : `HTTP_${response.status}`)
    // Read as the client and the geocoders read it (0 once past): an empty or unreadable one
    // ("-5", "soon") names no wait, and the 503 is a failure as one without it.
    const after = response.status === 503 ? retryAfterSeconds(response.headers.get('retry-after')) : undefined
    const wait = after === undefined ? undefined : Math.min(after, WAIT_MOST_S)
    throw new ApiError(code, error.message ?? response.statusText, wait)
  }
  return body as unknown as T
}

/**
 * queryWhenReady's `waiting`: called once its wait has lasted SAY_WAITING_MS, `retrying` when a 503
 * with Retry-After is being asked again (else the request is unanswered still), and called again,
 * `retrying`, when the first such 503 comes after that; what each call returns, if anything, is
 * called once that wait is over (answered, failed or aborted).
 */
export type Waiting = (retrying: boolean) => (() => void) | undefined

/**
 * query(), asked again while the service answers 503 with Retry-After (starting, or reading its
 * place data), each time after the wait it asks for (WAIT_LEAST_S to WAIT_MOST_S), till WAITING_MS
 * after `since`; then its error. No other failure is asked again. A request still unanswered then
 * is ended, failed as out of reach. Aborting `signal` ends the wait too. `since`: when the wait
 * began, before this request (a search's, its filters waited on first): one wait of the
 * visitor's, bounded once. `waiting` is called SAY_WAITING_MS after `from` (since, unless the
 * visitor has been answered meanwhile) if the service is being waited for still, unanswered or
 * asked again after a 503 (at once when that time is past).
 */
export async function queryWhenReady<T>(
  api: string,
  token: string,
  path: string,
  params: [string, string][],
  signal?: AbortSignal,
  waiting?: Waiting,
  since = Date.now(),
  from = since,
): Promise<T> {
  let retrying = false
  /** What `waiting` returned, each call: said busy, then trying again after a 503. */
  const said: ((() => void) | undefined)[] = []
  const sayWaiting = () => void said.push(waiting?.(retrying))
  const ms = from + SAY_WAITING_MS - Date.now()
  const say = ms > 0 ? setTimeout(sayWaiting, ms) : sayWaiting()
  // Its own signal, that `signal` aborts and the bound: a service that takes a request and never
  // answers it is not waited for as long as the browser would.
  const bound = new AbortController()
  const stop = () => bound.abort(signal!.reason)
  const end = setTimeout(
    () => bound.abort(new DOMException('No answer in time.', 'TimeoutError')),
    since + WAITING_MS - Date.now(),
  )
  if (signal?.aborted) stop()
  else signal?.addEventListener('abort', stop)
  try {
    for (;;) {
      try {
        return await query<T>(api, token, path, params, bound.signal)
      } catch (e) {
        const wait = e instanceof ApiError && e.wait !== undefined ? Math.max(e.wait, WAIT_LEAST_S) * 1000 : null
        if (wait === null || Date.now() + wait > since + WAITING_MS) throw e
        const first = !retrying
        retrying = true
        // "Still waiting" said already: trying again now, said in its place.
        if (first && said.length > 0) sayWaiting()
        // Ended as the request is, by `bound`: at once if aborted since the answer came (in a microtask
        // after it), else once aborted. One wait at a time: onabort is this wait's alone.
        bound.signal.throwIfAborted()
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, wait)
          bound.signal.onabort = () => (clearTimeout(timer), reject(bound.signal.reason))
        })
      }
    }
  } finally {
    // Answered, failed or aborted: nothing more to say of this wait, and what was said is over.
    clearTimeout(say)
    clearTimeout(end)
    signal?.removeEventListener('abort', stop)
    for (const over of said) over?.()
  }
}
