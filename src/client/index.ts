// A typed client for the Management API, for sync scripts and back-office code. Plain fetch, no
// dependencies and no server modules: it builds to dist/client (npm run build:client) for Node 20+.
// Every write carries an Idempotency-Key, kept across its retries, so a retry never writes twice.

import type {
  AdminLocation,
  BulkDelete,
  BulkCsvFlags,
  BulkLocation,
  BulkReport,
  CreateLocationBody,
  CsvBody,
  CsvExportQuery,
  CustomField,
  ExportQuery,
  LocationPage,
  Locator,
  UpdateLocationBody,
} from './types.js'
import { csvBytes, csvType } from './csv-body.js'
import { answered, unanswered } from './errors.js'
import {
  type CallOptions,
  type ClientOptions,
  oddCharacter,
  refuseUnusable,
  serviceAddress,
  type WriteOptions,
} from './options.js'
import { retryAfterSeconds } from './retry-after.js'
import { askedPause, inFlight, isStarting, RETRY_STATUSES, startingPause } from './retry-rules.js'
import { abortable, sleep, trySignal } from './waits.js'

export type * from './types.js'
export { type ErrorAnswer, StorelocError } from './errors.js'
export type { CallOptions, ClientOptions, StartupWait, WriteOptions } from './options.js'

export class StorelocClient {
  private readonly base: string
  /** The key as a file or a variable gives it, its line break or spaces around it gone. */
  private readonly apiKey: string
  private readonly attempts: number
  private readonly timeoutMs: number
  private readonly backoffMs: number
  private readonly maxWaitMs: number
  private readonly inFlightWaitMs: number
  private readonly startupWaitMs: number
  private readonly fetchFn: typeof fetch

  /** Throws a TypeError or RangeError naming an option no call could run with. */
  constructor(private readonly options: ClientOptions) {
    refuseUnusable(options)
    this.base = serviceAddress(options.baseUrl)
    this.apiKey = options.apiKey.trim()
    this.attempts = options.attempts ?? 4
    this.timeoutMs = options.timeoutMs ?? 30_000
    this.backoffMs = options.backoffMs ?? 250
    this.maxWaitMs = options.maxWaitMs ?? 60_000
    this.inFlightWaitMs = options.inFlightWaitMs ?? 600_000
    this.startupWaitMs = options.startupWaitMs ?? 120_000
    this.fetchFn = options.fetch ?? fetch
  }

  /** One page of the locator's locations; `external_id` finds one by the chain's own code. */
  listLocations(
    query: { page?: number; limit?: number; status?: 'published' | 'draft'; external_id?: string } = {},
    options: CallOptions = {},
  ): Promise<LocationPage> {
    const params = new URLSearchParams()
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v))
    const qs = params.size > 0 ? `?${params}` : ''
    return this.request<LocationPage>('GET', `/admin/v1/locations${qs}`, undefined, options, 'locations')
  }

  /** Every location of the locator, page by page (500 a page). */
  async *allLocations(
    query: { status?: 'published' | 'draft' } = {},
    options: CallOptions = {},
  ): AsyncGenerator<AdminLocation> {
    for (let page = 1; ; page++) {
      const { locations, pagination } = await this.listLocations({ ...query, page, limit: 500 }, options)
      yield* locations
      if (pagination.next === null) return
    }
  }

  async getLocation(id: string, options: CallOptions = {}): Promise<AdminLocation> {
    const path = `/admin/v1/locations/${encodeURIComponent(id)}`
    return (await this.request<{ location: AdminLocation }>('GET', path, undefined, options, 'location')).location
  }

  /** The location with this external id, or null. */
  async findByExternalId(externalId: string, options: CallOptions = {}): Promise<AdminLocation | null> {
    return (await this.listLocations({ external_id: externalId }, options)).locations[0] ?? null
  }

  async createLocation(body: CreateLocationBody, options: WriteOptions = {}): Promise<AdminLocation> {
    const path = '/admin/v1/locations'
    return (await this.request<{ location: AdminLocation }>('POST', path, body, options, 'location')).location
  }

  async updateLocation(id: string, body: UpdateLocationBody, options: WriteOptions = {}): Promise<AdminLocation> {
    const path = `/admin/v1/locations/${encodeURIComponent(id)}`
    return (await this.request<{ location: AdminLocation }>('POST', path, body, options, 'location')).location
  }

  async deleteLocation(id: string, options: WriteOptions = {}): Promise<string> {
    const path = `/admin/v1/locations/${encodeURIComponent(id)}/delete`
    return (await this.request<{ message: string }>('POST', path, undefined, options, 'message')).message
  }

  /** Up to 1,000 locations in one all-or-nothing request (see the bulk route in docs/management-api.md). */
  bulkUpsert(
    request: {
      locations: (BulkLocation | BulkDelete)[]
      dry_run?: boolean
      delete_missing?: boolean
      max_delete?: number | null
    },
    options: WriteOptions = {},
  ): Promise<BulkReport> {
    return this.request<BulkReport>('POST', '/admin/v1/locations/bulk', request, options, 'results')
  }

  /**
   * The same with a CSV body (the columns of docs/cli.md); flags go in the query string, `charset`
   * in the Content-Type. A stream is read whole before the first try, so a retry sends the same
   * bytes; a body that is none of CsvBody, or a `charset` that is not an encoding's name or names
   * one for text (a string or a stream's, sent as UTF-8), rejects with a TypeError, nothing sent.
   */
  async bulkUpsertCsv(
    csv: CsvBody,
    flags: BulkCsvFlags = {},
    options: WriteOptions = {},
  ): Promise<BulkReport & { unknown_columns: string[]; notes?: string[] }> {
    const params = new URLSearchParams()
    if (flags.dry_run) params.set('dry_run', 'true')
    if (flags.delete_missing) params.set('delete_missing', 'true')
    if (flags.max_delete !== undefined && flags.max_delete !== null) params.set('max_delete', String(flags.max_delete))
    const path = `/admin/v1/locations/bulk${params.size > 0 ? `?${params}` : ''}`
    const contentType = csvType(csv, flags.charset, `POST ${path}`)
    const body = await csvBytes(csv, `POST ${path}`, flags.charset)
    options.signal?.throwIfAborted()
    return this.request('POST', path, body, { ...options, contentType }, 'results')
  }

  /**
   * Every location (or those of `status`) in the order made, as GET /locations/export gives them:
   * each with every field, or with `format: 'csv'` the file's text without a byte order mark.
   */
  exportLocations(query?: ExportQuery & { format?: 'json' }, options?: CallOptions): Promise<AdminLocation[]>
  exportLocations(query: CsvExportQuery, options?: CallOptions): Promise<string>
  async exportLocations(
    query: ExportQuery & { format?: 'json' | 'csv'; separator?: ',' | ';' | 'tab' } = {},
    options: CallOptions = {},
  ): Promise<AdminLocation[] | string> {
    const csv = query.format === 'csv'
    const params = new URLSearchParams({ format: query.format ?? 'json' })
    if (query.status !== undefined) params.set('status', query.status)
    if (csv && query.separator !== undefined) params.set('separator', query.separator)
    if (csv) params.set('bom', 'false')
    const path = `/admin/v1/locations/export?${params}`
    if (csv) return this.request<string>('GET', path, undefined, { ...options, csv: true }, '')
    return (await this.request<{ locations: AdminLocation[] }>('GET', path, undefined, options, 'locations')).locations
  }

  /** The locator this key writes, its id and name: a sync says it before writing. */
  async locator(options: CallOptions = {}): Promise<Locator> {
    return (await this.request<{ locator: Locator }>('GET', '/admin/v1/locator', undefined, options, 'locator')).locator
  }

  async customFields(options: CallOptions = {}): Promise<CustomField[]> {
    const path = '/admin/v1/custom_fields'
    const answer = await this.request<{ custom_fields: CustomField[] }>(
      'GET',
      path,
      undefined,
      options,
      'custom_fields',
    )
    return answer.custom_fields
  }

  /**
   * Sends a request, tried again after a network error, a timeout or a status that asks for it
   * (waiting what Retry-After says, else backing off). A starting service is waited for apart,
   * up to startupWaitMs. A write keeps one Idempotency-Key for all its tries and waits: a try whose
   * answer was lost is replayed, not made again. An aborted `signal` ends it with its reason.
   * `holds`: the field every success answer of the route has.
   */
  private async request<T>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    options: WriteOptions & { contentType?: string; csv?: boolean },
    holds: string,
  ): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}` }
    if (method === 'POST') headers['idempotency-key'] = options.idempotencyKey ?? crypto.randomUUID()
    // A key no header carries would fail each try in fetch, retried as a network error, and said
    // to be a write that may have been made: none was sent.
    const oddKey = options.idempotencyKey && oddCharacter(options.idempotencyKey, /[^\x20-\x7e]/)
    if (oddKey)
      throw new TypeError(
        `${method} ${path}: idempotencyKey must be printable ASCII (a new UUID for each write is usual); got one with ${oddKey}.`,
      )
    let payload: string | Uint8Array<ArrayBuffer> | undefined
    if (typeof body === 'string' || body instanceof Uint8Array) {
      payload = body as string | Uint8Array<ArrayBuffer>
      headers['content-type'] = options.contentType ?? 'text/plain'
    } else if (body !== undefined) {
      payload = JSON.stringify(body)
      headers['content-type'] = 'application/json'
    }
    let wait = this.backoffMs
    /** The client's own wait between tries, doubled each time: it grows to maxWaitMs, not past it. */
    const backoff = () => Math.min(wait, this.maxWaitMs)
    let failed = 0
    /** When the first starting answer came; undefined until one did. */
    let startingSince: number | undefined
    /** When the first answer of the write still running came: the start's wait is not counted. */
    let inFlightSince: number | undefined
    const { signal } = options
    /** A try that got no answer, or lost its body on the way: counted, and backed off from. */
    const unansweredTry = async (e: unknown, tried: { end: () => void }) => {
      tried.end()
      // An abort is the script's own stop, not a try the network failed.
      if (signal?.aborted) throw signal.reason
      if (++failed >= this.attempts) throw unanswered(method, path, e, headers['idempotency-key'])
      await sleep(backoff(), signal)
      wait *= 2
    }
    for (;;) {
      signal?.throwIfAborted()
      // Held through the body's read: a call aborted then ends its connection too. Ended before
      // any wait that follows, and on every way out.
      const tried = trySignal(this.timeoutMs, signal)
      try {
        let response: Response
        try {
          // A redirect is not followed: fetch would send a write on as a GET (301, 302, 303), and to
          // another origin without its key. The service sends none; a proxy's is said in the error.
          const init = { method, headers, body: payload, signal: tried.signal, redirect: 'manual' as const }
          response = await abortable(this.fetchFn(`${this.base}${path}`, init), tried.signal)
        } catch (e) {
          await unansweredTry(e, tried)
          continue
        }
        const retryAfter = retryAfterSeconds(response.headers.get('retry-after'))
        const startingAnswer = isStarting(response)
        const starting = this.startupWaitMs > 0 && startingAnswer
        const waiting = !starting && inFlight(response)
        const pause = starting
          ? startingPause(retryAfter)
          : waiting
            ? askedPause(retryAfter)
            : retryAfter !== undefined && retryAfter > 0
              ? retryAfter * 1000
              : backoff()
        const first = starting && startingSince === undefined
        if (starting) startingSince ??= Date.now()
        if (waiting) inFlightSince ??= Date.now()
        /** Whether the pause ends within `limit` ms of `since`. */
        const within = (since: number, limit: number) => Date.now() - since + pause <= limit
        // A pause beyond maxWaitMs ends the request: shortened instead, a maxWaitMs of 0 would ask
        // a start or a running write (bound by time, not tries) again and again; only the backoff of
        // answers that spend tries is shortened. A start and a write still running each have a wait
        // of their own, not counted in tries; the other answers spend tries.
        const again =
          pause <= this.maxWaitMs &&
          (starting
            ? within(startingSince!, this.startupWaitMs)
            : waiting
              ? within(inFlightSince!, this.inFlightWaitMs)
              : RETRY_STATUSES.has(response.status) && ++failed < this.attempts)
        if (again) {
          // Its body is not read: one cut off on the way (an error there) changes nothing.
          await response.body?.cancel().catch(() => {})
          // The try is over: its timer goes before the wait, not after it.
          tried.end()
          if (first) this.options.onStarting?.({ method, path, startupWaitMs: this.startupWaitMs })
          await sleep(pause, signal)
          if (!starting && !waiting) wait *= 2
          continue
        }
        let text: string
        try {
          text = await abortable(response.text(), tried.signal)
        } catch (e) {
          await unansweredTry(e, tried)
          continue
        }
        // A CSV answer is the file; any other, a success without one too (a proxy's page), is read as JSON.
        if (options.csv && response.ok && /^text\/csv\b/i.test(response.headers.get('content-type') ?? ''))
          return text as T
        // A start's answer is said so with the wait off too: the script tells it from a busy database's.
        const requestId = response.headers.get('x-request-id') ?? undefined
        const answer = { retryAfter, requestId, starting: startingAnswer }
        return answered<T>(response, text, `${method} ${path}`, holds, headers['idempotency-key'], answer)
      } finally {
        tried.end()
      }
    }
  }
}
