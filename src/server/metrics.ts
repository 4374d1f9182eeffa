// What a serving process counts for GET /metrics (METRICS_PORT): requests by route, method and
// status, their latency, geocoder lookups; and what it reads at a scrape: the answer cache, the
// indexes, the change log, the process. Counting is a few typed-array increments a request, no
// string keys and no allocation: the fast path pays it on every answer.
import { statSync } from 'node:fs'
import type { GeocodeResult, Geocoder } from '../geocode/geocoder'
import { isFallbackSource } from '../geocode/http/fallback'
import { GET, METHODS, POST, publicRoute, ROUTES, WRITE_KINDS } from './metrics-routes'
import type { Family, HistogramSeries, Series } from './metrics-text'
import { READY_STATUSES } from './readiness'

/** Request latency buckets, seconds: public answers take 20 µs to 1 ms, writes and index builds up to seconds. */
export const LATENCY_BOUNDS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
] as const

/** Geocoder lookup buckets, seconds: the embedded geocoder and the cache answer in ms, HTTP providers in 100s of ms. */
export const GEOCODE_BOUNDS = [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const

/** Distinct statuses counted apart; the app sends about 15. Any beyond share the last slot, labelled "other". */
const STATUS_SLOTS = 64

const GEOCODE_RESULTS = ['found', 'not_found', 'fallback', 'error'] as const

/** Observations per bucket of `bounds` (the last past every bound) in `counts` from `at`. */
function observe(counts: Float64Array, at: number, bounds: readonly number[], value: number): void {
  let b = 0
  while (b < bounds.length && value > bounds[b]!) b++
  counts[at + b]!++
}

/** One process's request and geocoder counts (see the top of the file). */
export class RequestMetrics {
  /** Per status (100-599): its slot + 1; 0 until first seen. */
  private readonly slotOf = new Uint8Array(600)
  /** Per slot: its status label. */
  private readonly statuses: string[] = []
  /** Requests per (route, method, status slot). */
  private readonly requests = new Float64Array(ROUTES.length * METHODS.length * STATUS_SLOTS)
  /** Per route: the observations per latency bucket, then (latencySum) their sum in seconds. */
  private readonly latency = new Float64Array(ROUTES.length * (LATENCY_BOUNDS.length + 1))
  private readonly latencySum = new Float64Array(ROUTES.length)
  private readonly geocodes = new Float64Array(GEOCODE_RESULTS.length)
  private readonly geocodeTime = new Float64Array(GEOCODE_BOUNDS.length + 1)
  private geocodeSeconds = 0

  /** `locatorSeries`: the built indexes, most locations first, its readings show each by locator (METRICS_LOCATOR_SERIES). */
  constructor(readonly locatorSeries = 0) {}

  /** The process's readings as families (readingFamilies), its `locatorSeries` largest indexes each by locator. */
  readingFamilies(readings: AppReadings): Family[] {
    return readingFamilies(readings, this.locatorSeries)
  }

  /** A request answered: its route (metrics-routes.ts), method index, status, and when it came (performance.now()). */
  record(route: number, method: number, status: number, t0: number): void {
    const seconds = (performance.now() - t0) / 1000
    let slot = status >= 100 && status < 600 ? this.slotOf[status]! : 0
    if (slot === 0) slot = this.newSlot(status)
    this.requests[(route * METHODS.length + method) * STATUS_SLOTS + slot - 1]!++
    observe(this.latency, route * (LATENCY_BOUNDS.length + 1), LATENCY_BOUNDS, seconds)
    this.latencySum[route]! += seconds
  }

  /** A fast-path answer (always a GET under PUBLIC_PREFIX, its path at `path` in `href`). */
  fastAnswer(href: string, path: number, status: number, t0: number): void {
    this.record(publicRoute(href, path), GET, status, t0)
  }

  private newSlot(status: number): number {
    const label = status >= 100 && status < 600 ? String(status) : 'other'
    let slot = this.statuses.indexOf(label) + 1
    if (slot === 0) {
      if (this.statuses.length === STATUS_SLOTS - 1 && label !== 'other') return this.newSlot(0)
      slot = this.statuses.push(label)
    }
    if (label !== 'other') this.slotOf[status] = slot
    return slot
  }

  /** `geocoder`, its lookups counted by result and timed. */
  countGeocoder(geocoder: Geocoder): Geocoder {
    const count = (result: number, t0: number) => {
      const seconds = (performance.now() - t0) / 1000
      this.geocodes[result]!++
      observe(this.geocodeTime, 0, GEOCODE_BOUNDS, seconds)
      this.geocodeSeconds += seconds
    }
    // Checks made offline are no write's lookup: not counted.
    const offline = geocoder.offline?.bind(geocoder)
    return {
      name: geocoder.name,
      ...(offline && { offline }),
      geocode: async (address: string): Promise<GeocodeResult | null> => {
        const t0 = performance.now()
        try {
          const found = await geocoder.geocode(address)
          count(found === null ? 1 : isFallbackSource(found.source) ? 2 : 0, t0)
          return found
        } catch (e) {
          count(3, t0)
          throw e
        }
      },
    }
  }

  /** The counts as families: requests, latency, writes (the Management API's POSTs), geocoder lookups. */
  families(): Family[] {
    const requests: Series[] = []
    // Every kind and result from zero: an alert on a rate needs the series before the first failure.
    const writes = new Map<string, Series>()
    for (const kind of Object.values(WRITE_KINDS))
      for (const result of ['committed', 'refused', 'failed'])
        writes.set(`${kind} ${result}`, { labels: { kind, result }, value: 0 })
    for (let route = 0; route < ROUTES.length; route++) {
      const { api, route: label } = ROUTES[route]!
      for (let m = 0; m < METHODS.length; m++) {
        for (let slot = 0; slot < this.statuses.length; slot++) {
          const value = this.requests[(route * METHODS.length + m) * STATUS_SLOTS + slot]!
          if (value === 0) continue
          const status = this.statuses[slot]!
          requests.push({ labels: { api, route: label, method: METHODS[m]!, status }, value })
          const kind = m === POST ? WRITE_KINDS[route] : undefined
          if (kind === undefined) continue
          const code = Number(status) // NaN ("other"): failed
          const result = code < 300 ? 'committed' : code < 500 ? 'refused' : 'failed'
          writes.get(`${kind} ${result}`)!.value += value
        }
      }
    }
    const latency: HistogramSeries[] = []
    const width = LATENCY_BOUNDS.length + 1
    for (let route = 0; route < ROUTES.length; route++) {
      const counts = [...this.latency.subarray(route * width, (route + 1) * width)]
      if (counts.every((n) => n === 0)) continue
      const { api, route: label } = ROUTES[route]!
      latency.push({ labels: { api, route: label }, counts, sum: this.latencySum[route]! })
    }
    const lookups = GEOCODE_RESULTS.map((result, i) => ({ labels: { result }, value: this.geocodes[i]! }))
    return [
      {
        name: 'storeloc_http_requests_total',
        help: 'HTTP requests answered, by API (public, admin, service), route template, method and status.',
        type: 'counter',
        series: requests,
      },
      {
        name: 'storeloc_http_request_duration_seconds',
        help: 'Time from a request reaching the app to its response being made, by API and route template.',
        type: 'histogram',
        bounds: LATENCY_BOUNDS,
        series: latency,
      },
      {
        name: 'storeloc_writes_total',
        help: 'Management API writes (POST), by kind (create, update, delete, bulk) and result: committed (2xx), refused (4xx), failed (5xx).',
        type: 'counter',
        series: [...writes.values()],
      },
      {
        name: 'storeloc_geocoder_lookups_total',
        help: 'Addresses the writes asked the geocoder to place, by result: found, not_found, fallback (the HTTP provider failed, the embedded geocoder answered), error (neither could answer).',
        type: 'counter',
        series: lookups,
      },
      {
        name: 'storeloc_geocoder_lookup_duration_seconds',
        help: "Time of the writes' geocoder lookups, answers from the geocode cache included.",
        type: 'histogram',
        bounds: GEOCODE_BOUNDS,
        series: [{ labels: {}, counts: [...this.geocodeTime], sum: this.geocodeSeconds }],
      },
    ]
  }
}

/** What a serving process reads at a scrape besides its counts. */
export type AppReadings = {
  cacheHits: number
  indexes: readonly { locatorId: string; locations: number; jsonBytes: number }[]
  /** The change log's last seq; NaN when it could not be read (its series are then left out). */
  lastSeq: number
  appliedSeq: number
  commits: number
  /** What GET /readyz would answer now (READY_STATUSES). */
  status: string
  /** The database file's and its -wal's bytes on disk; null for a database in memory. */
  files: { database: number; wal: number } | null
}

/** The bytes on disk of the database at `path` and of its -wal (0 when absent); null for `:memory:`. */
export function fileSizes(path: string): AppReadings['files'] {
  if (path === ':memory:') return null
  const size = (file: string) => {
    try {
      return statSync(file).size
    } catch {
      return 0 // moved away, or between a checkpoint's truncation and the next write
    }
  }
  return { database: size(path), wal: size(`${path}-wal`) }
}

/**
 * The readings as families: per process (each worker's own indexes and change-log position), the
 * cache hits and commits summed. The indexes in totals, and the `locatorSeries` largest each by
 * its locator: a series per index would grow with the locators, past what Prometheus holds well.
 */
export function readingFamilies(r: AppReadings, locatorSeries = 0): Family[] {
  const changeLog = Number.isNaN(r.lastSeq) ? [] : [r.lastSeq]
  const shown =
    locatorSeries === 0
      ? []
      : [...r.indexes].sort((a, b) => b.locations - a.locations || b.jsonBytes - a.jsonBytes).slice(0, locatorSeries)
  const byLocator = (value: (i: AppReadings['indexes'][number]) => number) =>
    shown.map((i) => ({ labels: { locator: i.locatorId }, value: value(i) }))
  const total = (value: (i: AppReadings['indexes'][number]) => number) => [
    { labels: {}, value: r.indexes.reduce((sum, i) => sum + value(i), 0) },
  ]
  const perLocator: Family[] =
    locatorSeries === 0
      ? []
      : [
          {
            name: 'storeloc_index_locations',
            help: 'Locations in a built locator index (published ones), per serving process: its METRICS_LOCATOR_SERIES largest.',
            type: 'gauge',
            process: true,
            series: byLocator((i) => i.locations),
          },
          {
            name: 'storeloc_index_json_bytes',
            help: "Bytes of the buffers holding an index's pre-serialized public JSON, per serving process: its METRICS_LOCATOR_SERIES largest indexes.",
            type: 'gauge',
            process: true,
            series: byLocator((i) => i.jsonBytes),
          },
        ]
  return [
    {
      name: 'storeloc_public_cache_hits_total',
      help: 'Public answers sent from the answer cache (the same request again, no write to its locator between).',
      type: 'counter',
      series: [{ labels: {}, value: r.cacheHits }],
    },
    {
      name: 'storeloc_indexes_built',
      help: 'Locator indexes built in the serving process (an index not queried in INDEX_IDLE_MINUTES is let go).',
      type: 'gauge',
      process: true,
      series: [{ labels: {}, value: r.indexes.length }],
    },
    {
      name: 'storeloc_indexes_locations',
      help: "Locations in the serving process's built indexes, all of them (published ones).",
      type: 'gauge',
      process: true,
      series: total((i) => i.locations),
    },
    {
      name: 'storeloc_indexes_json_bytes',
      help: "Bytes of the buffers holding the built indexes' pre-serialized public JSON, per serving process (the indexes' own tables come on top).",
      type: 'gauge',
      process: true,
      series: total((i) => i.jsonBytes),
    },
    ...perLocator,
    {
      name: 'storeloc_change_log_last_seq',
      help: 'The last change committed to the change log, as the serving process read it at the scrape.',
      type: 'gauge',
      process: true,
      series: changeLog.map((value) => ({ labels: {}, value })),
    },
    {
      name: 'storeloc_change_log_lag',
      help: "Changes committed that the serving process's indexes have not applied yet (the log's last seq minus its applied seq).",
      type: 'gauge',
      process: true,
      series: changeLog.map((last) => ({ labels: {}, value: Math.max(0, last - r.appliedSeq) })),
    },
    {
      name: 'storeloc_ready',
      help: 'What GET /readyz answers now: 1 for the status it gives, 0 for the others (ready, degraded, loading, failed).',
      type: 'gauge',
      process: true,
      series: READY_STATUSES.map((s) => ({ labels: { status: s }, value: s === r.status ? 1 : 0 })),
    },
    {
      name: 'storeloc_database_file_bytes',
      help: 'Bytes on disk of the database file and of its -wal, which a long reader lets grow (cut back to 64 MiB when a write starts it over), as each serving process reads them.',
      type: 'gauge',
      // Per process: every worker reads the same files, and a sum of their readings would be none.
      process: true,
      series:
        r.files === null
          ? []
          : [
              { labels: { file: 'database' }, value: r.files.database },
              { labels: { file: 'wal' }, value: r.files.wal },
            ],
    },
    {
      name: 'storeloc_database_commits_total',
      help: 'Write transactions this service committed to the database (a bulk write or a group of writes is one).',
      type: 'counter',
      series: [{ labels: {}, value: r.commits }],
    },
  ]
}

/** The process's memory, CPU and age: every process, the primary of WORKERS > 1 too. */
export function processFamilies(): Family[] {
  const memory = process.memoryUsage()
  const cpu = process.cpuUsage()
  const gauge = (name: string, help: string, value: number): Family => ({
    name,
    help,
    type: 'gauge',
    process: true,
    series: [{ labels: {}, value }],
  })
  return [
    gauge('storeloc_process_resident_memory_bytes', 'Resident memory of the process.', memory.rss),
    // Bun counts typed arrays (the indexes' columns) in heapUsed but not in heapTotal, so used
    // may exceed total; external has them alone. heapStats() would say more, but walks the heap.
    gauge(
      'storeloc_process_heap_used_bytes',
      'JavaScript heap live after the last collection, typed arrays included.',
      memory.heapUsed,
    ),
    gauge(
      'storeloc_process_heap_total_bytes',
      "JavaScript objects' heap reserved, typed arrays not included.",
      memory.heapTotal,
    ),
    gauge('storeloc_process_external_memory_bytes', 'Memory of typed arrays and buffers.', memory.external),
    gauge('storeloc_process_uptime_seconds', 'Seconds since the process started.', process.uptime()),
    {
      name: 'storeloc_process_cpu_seconds_total',
      help: 'CPU time the process used, user and system.',
      type: 'counter',
      process: true,
      series: [{ labels: {}, value: (cpu.user + cpu.system) / 1e6 }],
    },
  ]
}
