// GET /metrics (METRICS_PORT), through the real server: off by default, on its own port, its text
// parsed and checked as Prometheus reads it, its counts against the requests sent; behind
// METRICS_TOKEN; and with WORKERS=2, every worker summed, also across a worker's crash.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { publicRoutes } from '../src/api/public'
import { ConfigError, loadConfig } from '../src/core/config'
import { noGeocoder } from '../src/geocode/geocoder'
import { IndexRegistry } from '../src/indexes/registry'
import { createLocator, setLocatorSettings } from '../src/operator'
import { storageFaultLog } from '../src/server/app-log'
import { serviceApp } from '../src/server/app-routes'
import { ROUTES, routeOf } from '../src/server/metrics-routes'
import { escapeLabel } from '../src/server/metrics-text'
import { openStore } from '../src/store'
import { type ParsedFamily, parseExposition, type Sample, sampleValue } from './metrics-parse'
import {
  locationRecord,
  logCaughtUp,
  makeEnv,
  type Running,
  sendRaw,
  serverUrl,
  startServer,
  storeBody,
  tempDir,
} from './helpers'

/** Checks every histogram: per series, `le` ascending to +Inf, counts cumulative, +Inf equal to _count, a _sum. */
function expectWellFormedHistograms(families: Map<string, ParsedFamily>): void {
  for (const [name, family] of families) {
    if (family.type !== 'histogram') continue
    const series = new Map<string, Sample[]>()
    for (const s of family.samples) {
      const { le, ...rest } = s.labels
      const key = JSON.stringify(rest)
      if (!series.has(key)) series.set(key, [])
      series.get(key)!.push(s)
    }
    for (const [key, samples] of series) {
      const buckets = samples.filter((s) => s.name === `${name}_bucket`)
      const bounds = buckets.map((b) => Number(b.labels.le!.replace('+Inf', 'Infinity')))
      expect(bounds.at(-1)).toBe(Infinity)
      for (let i = 1; i < buckets.length; i++) {
        expect(bounds[i]!).toBeGreaterThan(bounds[i - 1]!)
        expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value)
      }
      const labels = JSON.parse(key)
      expect(sampleValue(families, name, labels, `${name}_count`)).toBe(buckets.at(-1)!.value)
      expect(sampleValue(families, name, labels, `${name}_sum`)).toBeGreaterThanOrEqual(0)
    }
  }
}

// ---- The servers ----

let dir: string
const servers: Running[] = []
beforeAll(() => (dir = tempDir()))
afterAll(async () => {
  for (const s of servers) {
    s.proc.kill('SIGTERM')
    await s.proc.exited
  }
  rmSync(dir, { recursive: true, force: true })
})

/** A database with one public locator holding one location, and its token, secret key and location id. */
function seeded(name: string) {
  const path = join(dir, `${name}.db`)
  const store = openStore(path)
  const { locator, secret } = createLocator(store, 'Metrics')
  setLocatorSettings(store, locator.id, { queryApi: 'on' })
  const record = locationRecord(locator.id, storeBody())
  store.write(() => store.locations.insert(record))
  const token = store.locators.get(locator.id)!.publicToken
  store.close()
  return { path, locatorId: locator.id, token, key: secret, locationId: record.id }
}

function start(path: string, env: Record<string, string>): Running {
  const server = startServer(path, { DEMO: '0', GEOCODER: 'none', LOG_REQUESTS: '0', ...env })
  servers.push(server)
  return server
}

const metricsUrl = async (server: Running) => JSON.parse(await server.waitFor(/"metrics listening"/)).url as string

/** The TCP ports `pid` listens on, read from /proc (its sockets' inodes among the listening ones). */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>()
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
      if (m) inodes.add(m[1]!)
    } catch {
      // closed meanwhile
    }
  }
  const ports: number[] = []
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/)
      if (f.length > 9 && f[3] === '0A' && inodes.has(f[9]!)) ports.push(Number.parseInt(f[1]!.split(':')[1]!, 16))
    }
  }
  return ports.sort()
}

const TEMPLATES = new Set<string>(ROUTES.map((r) => r.route))

describe('off by default', () => {
  test('nothing listens but the APIs port, and the APIs answer no /metrics', async () => {
    const db = seeded('off')
    const server = start(db.path, {})
    const base = await serverUrl(server)
    expect(listeningPorts(server.proc.pid)).toEqual([Number(new URL(base).port)])
    expect((await fetch(`${base}/metrics`)).status).toBe(404)
    expect(server.lines.join('\n')).not.toContain('metrics listening')
  })
})

describe('one process, with a token', () => {
  const token = 'metrics-token-0123456789abcdef'
  let db: ReturnType<typeof seeded>
  let server: Running
  let base: string
  let metrics: string
  const auth = { authorization: `Bearer ${token}` }
  const scrape = async () => {
    const res = await fetch(metrics, { headers: auth })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    const text = await res.text()
    return { text, families: parseExposition(text) }
  }

  beforeAll(async () => {
    db = seeded('on')
    // Its request log on: a line of its own tells when the output holds all the scrapes wrote.
    server = start(db.path, { METRICS_PORT: '0', METRICS_TOKEN: token, LOG_REQUESTS: '1' })
    base = await serverUrl(server)
    metrics = await metricsUrl(server)
  })

  test('the metrics port is its own, on loopback, serving GET /metrics only; the token is never logged', async () => {
    expect(new URL(metrics).hostname).toBe('127.0.0.1')
    expect(new URL(metrics).pathname).toBe('/metrics')
    expect(listeningPorts(server.proc.pid)).toEqual([Number(new URL(base).port), Number(new URL(metrics).port)].sort())
    const misplaced = await fetch(`${base}/metrics`) // not on the APIs' port, which says where
    expect(misplaced.status).toBe(404)
    expect(((await misplaced.json()) as { message: string }).message).toBe(
      'No route GET /metrics. Metrics are never served on this port: they have a port of their own, METRICS_PORT (docs/operations.md, Metrics).',
    )
    expect((await fetch(new URL('/other', metrics), { headers: auth })).status).toBe(404)
    const post = await fetch(metrics, { method: 'POST', headers: auth })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
    await logCaughtUp(server, base)
    expect(server.lines.join('\n')).not.toContain(token)
    // Without a Host (HTTP/1.0), the path alone is read; every answer is nosniff.
    const bare = await sendRaw(
      Number(new URL(metrics).port),
      `GET /metrics HTTP/1.0\r\nAuthorization: Bearer ${token}\r\n\r\n`,
    )
    expect(bare).toStartWith('HTTP/1.1 200')
    expect(bare).toContain('storeloc_')
    expect(bare.toLowerCase()).toContain('x-content-type-options: nosniff')
    const other = await fetch(new URL('/other', metrics))
    expect(other.headers.get('x-content-type-options')).toBe('nosniff')
  })

  test('a scrape without the token, or with another, is refused 401', async () => {
    const refused: Record<string, string>[] = [
      {},
      { authorization: 'Bearer metrics-token-0123456789abcdeX' },
      { authorization: token }, // no scheme
    ]
    for (const headers of refused) {
      const res = await fetch(metrics, { headers })
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"')
      expect(await res.text()).not.toContain('storeloc_')
    }
  })

  test('counters move with the requests, by template route, method and status; histograms are well formed', async () => {
    const before = (await scrape()).families
    const pub = `${base}/public/v1/${db.token}`
    const admin = { authorization: `Bearer ${db.key}`, 'content-type': 'application/json' }
    const sent = async (url: string, init?: RequestInit) => (await fetch(url, init)).status
    for (let i = 0; i < 3; i++) expect(await sent(`${pub}/locations?lat=39.78&lng=-89.65`)).toBe(200)
    expect(await sent(`${pub}/filters`)).toBe(200)
    expect(await sent(`${pub}/locations/${db.locationId}`)).toBe(200)
    expect(await sent(`${pub}/locations/loc_nosuchlocation0`)).toBe(404)
    expect(await sent(`${base}/public/v1/pk_nosuchtoken0000000000000/locations`)).toBe(404)
    expect(await sent(`${base}/admin/v1/locations`, { headers: admin })).toBe(200)
    expect(await sent(`${base}/admin/v1/locations`)).toBe(401)
    const body = (b: unknown) => ({ method: 'POST', headers: admin, body: JSON.stringify(b) })
    expect(await sent(`${base}/admin/v1/locations`, body(storeBody({ name: 'Second' })))).toBe(201)
    expect(await sent(`${base}/admin/v1/locations`, { method: 'POST', headers: admin, body: '{"name":' })).toBe(400)
    expect(await sent(`${base}/admin/v1/locations`, body({ name: 'Unplaced', address: '1 Nowhere Road' }))).toBe(422)
    expect(await sent(`${base}/healthz`)).toBe(200)
    expect(await sent(`${base}/no/such/path/${db.key}`)).toBe(404)

    const { text, families } = await scrape()
    const requests = (labels: Record<string, string>) =>
      sampleValue(families, 'storeloc_http_requests_total', labels) -
      sampleValue(before, 'storeloc_http_requests_total', labels)
    const pubRoute = (route: string, status: string) => ({ api: 'public', route, method: 'GET', status })
    expect(requests(pubRoute('/public/v1/{token}/locations', '200'))).toBe(3)
    expect(requests(pubRoute('/public/v1/{token}/filters', '200'))).toBe(1)
    expect(requests(pubRoute('/public/v1/{token}/locations/{id}', '200'))).toBe(1)
    expect(requests(pubRoute('/public/v1/{token}/locations/{id}', '404'))).toBe(1)
    expect(requests(pubRoute('/public/v1/{token}/locations', '404'))).toBe(1)
    const adminRoute = (method: string, status: string) => ({
      api: 'admin',
      route: '/admin/v1/locations',
      method,
      status,
    })
    expect(requests(adminRoute('GET', '200'))).toBe(1)
    expect(requests(adminRoute('GET', '401'))).toBe(1)
    expect(requests(adminRoute('POST', '201'))).toBe(1)
    expect(requests(adminRoute('POST', '400'))).toBe(1)
    expect(requests(adminRoute('POST', '422'))).toBe(1)
    expect(requests({ api: 'service', route: '/healthz', method: 'GET', status: '200' })).toBe(1)
    expect(requests({ api: 'service', route: 'other', method: 'GET', status: '404' })).toBe(1)

    const writes = (result: string) => sampleValue(families, 'storeloc_writes_total', { kind: 'create', result })
    expect([writes('committed'), writes('refused'), writes('failed')]).toEqual([1, 2, 0])
    expect(sampleValue(families, 'storeloc_writes_total', { kind: 'bulk', result: 'committed' })).toBe(0)
    expect(sampleValue(families, 'storeloc_geocoder_lookups_total', { result: 'not_found' })).toBe(1)
    expect(
      sampleValue(
        families,
        'storeloc_geocoder_lookup_duration_seconds',
        {},
        'storeloc_geocoder_lookup_duration_seconds_count',
      ),
    ).toBe(1)
    expect(sampleValue(families, 'storeloc_database_commits_total')).toBeGreaterThanOrEqual(1)
    // What /readyz says, and the files' sizes on disk: a WAL a long reader grew shows here.
    const ready = ['ready', 'degraded', 'loading', 'failed'].map((status) =>
      sampleValue(families, 'storeloc_ready', { status }),
    )
    expect(ready).toEqual([1, 0, 0, 0])
    const bytes = (file: string) => sampleValue(families, 'storeloc_database_file_bytes', { file })
    expect(bytes('database')).toBeGreaterThan(0)
    expect(bytes('wal')).toBeGreaterThan(0)

    // Route labels are templates: no token, key, id or path sent appears in any label.
    for (const family of families.values())
      for (const s of family.samples) {
        if ('route' in s.labels) expect(TEMPLATES.has(s.labels.route!)).toBe(true)
        for (const v of Object.values(s.labels))
          for (const secret of [db.token, db.key, db.locationId, 'nosuch', 'no/such']) expect(v).not.toContain(secret)
      }
    expect(text).not.toContain(db.key)
    expect(text).not.toContain(db.token)

    // Histograms: well formed, and each route's count is its requests over every method and status.
    expectWellFormedHistograms(families)
    const latency = 'storeloc_http_request_duration_seconds'
    for (const s of families.get(latency)!.samples.filter((s) => s.name === `${latency}_count`)) {
      const total = families
        .get('storeloc_http_requests_total')!
        .samples.filter((r) => r.labels.api === s.labels.api && r.labels.route === s.labels.route)
        .reduce((n, r) => n + r.value, 0)
      expect(s.value).toBe(total)
    }
  })

  test('answers from the answer cache, the index and the change log are shown', async () => {
    const url = `${base}/public/v1/${db.token}/locations?lat=39.78&lng=-89.65&radius=5`
    for (let i = 0; i < 2; i++) await fetch(url) // kept from its second ask
    const hits = async () => sampleValue((await scrape()).families, 'storeloc_public_cache_hits_total')
    const before = await hits()
    for (let i = 0; i < 3; i++) expect((await fetch(url)).status).toBe(200)
    expect((await hits()) - before).toBe(3)

    const { families } = await scrape()
    // The indexes in totals only, unless METRICS_LOCATOR_SERIES asks (metrics-indexes.test.ts).
    expect(sampleValue(families, 'storeloc_indexes_built', { worker: '0' })).toBe(1)
    expect(sampleValue(families, 'storeloc_indexes_locations', { worker: '0' })).toBe(2) // the seeded one and the one created
    expect(sampleValue(families, 'storeloc_indexes_json_bytes', { worker: '0' })).toBeGreaterThan(0)
    expect(families.has('storeloc_index_locations')).toBe(false)
    expect(sampleValue(families, 'storeloc_change_log_last_seq', { worker: '0' })).toBeGreaterThan(0)
    expect(sampleValue(families, 'storeloc_change_log_lag', { worker: '0' })).toBe(0)
    expect(sampleValue(families, 'storeloc_process_resident_memory_bytes', { worker: '0' })).toBeGreaterThan(0)
    expect(sampleValue(families, 'storeloc_process_uptime_seconds', { worker: '0' })).toBeGreaterThan(0)
    // The index's columns are typed arrays: their bytes are shown apart from the objects' heap.
    expect(sampleValue(families, 'storeloc_process_external_memory_bytes', { worker: '0' })).toBeGreaterThan(0)
    for (const [name, family] of families) {
      expect(name.startsWith('storeloc_')).toBe(true)
      expect(family.help).not.toBe('')
      if (family.type === 'counter') expect(name.endsWith('_total')).toBe(true)
    }
  })
})

describe('WORKERS=2', () => {
  test('a scrape sums both workers and labels each one; a worker started again after a crash keeps the sums', async () => {
    const db = seeded('workers')
    const server = start(db.path, { WORKERS: '2', METRICS_PORT: '0' })
    const base = await serverUrl(server)
    const metrics = await metricsUrl(server)
    const scrape = async () => parseExposition(await (await fetch(metrics)).text())
    const route = { api: 'public', route: '/public/v1/{token}/locations', method: 'GET', status: '200' }
    // Each on a new connection: the kernel spreads connections over the workers.
    const n = 40
    for (let i = 0; i < n; i++) {
      const res = await fetch(`${base}/public/v1/${db.token}/locations?lat=39.78&lng=-89.65`, {
        headers: { connection: 'close' },
      })
      expect(res.status).toBe(200)
    }
    const families = await scrape()
    expect(sampleValue(families, 'storeloc_http_requests_total', route)).toBe(n)
    expectWellFormedHistograms(families)
    for (const worker of ['1', '2']) {
      expect(sampleValue(families, 'storeloc_worker_up', { worker })).toBe(1)
      expect(sampleValue(families, 'storeloc_indexes_locations', { worker })).toBe(1)
      expect(sampleValue(families, 'storeloc_change_log_lag', { worker })).toBe(0)
    }
    // The same database file read by each worker: its size, not the sum of theirs.
    const fileBytes = ['1', '2'].map((worker) =>
      sampleValue(families, 'storeloc_database_file_bytes', { worker, file: 'database' }),
    )
    expect(fileBytes[0]).toBeGreaterThan(0)
    expect(fileBytes[1]).toBe(fileBytes[0]!)
    for (const worker of ['0', '1', '2'])
      expect(sampleValue(families, 'storeloc_process_resident_memory_bytes', { worker })).toBeGreaterThan(0)

    // One worker killed: the primary starts another, whose counts start at zero; the sum does not go down.
    const children = () =>
      readdirSync('/proc')
        .filter((e) => /^\d+$/.test(e))
        .filter((e) => {
          try {
            const stat = readFileSync(`/proc/${e}/stat`, 'utf8')
            const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
            return Number(ppid) === server.proc.pid && state !== 'Z'
          } catch {
            return false
          }
        })
        .map(Number)
    const [victim] = children()
    process.kill(victim!, 'SIGKILL')
    // Each worker says when its indexes are loaded, before it answers: the third is the new one.
    const replacement = JSON.parse(await server.waitFor(/"indexes loaded"/, undefined, 3)).pid
    const workers = children()
    expect(workers).toHaveLength(2)
    expect(workers).not.toContain(victim)
    expect(workers).toContain(replacement)
    const after = await scrape()
    for (const worker of ['1', '2']) expect(sampleValue(after, 'storeloc_worker_up', { worker })).toBe(1)
    expect(sampleValue(after, 'storeloc_http_requests_total', route)).toBe(n)
    expectWellFormedHistograms(after)
  }, 60_000) // two workers started, one again after its crash
})

describe('route labels', () => {
  const label = (path: string) =>
    ROUTES[routeOf(`http://localhost${path}`, 16, path === '/public/v1' || /^\/public\/v1[/?]/.test(path))]!
  test('every route the apps serve is labelled with its own template', () => {
    const env = makeEnv()
    try {
      const registry = new IndexRegistry(env.store)
      const service = serviceApp({
        store: env.store,
        geocoder: noGeocoder,
        maxBodyBytes: 1,
        registry,
        log: () => {},
        storage: storageFaultLog(env.store, () => {}),
        noteOf: () => undefined,
        preloading: () => 0,
        publicBaseUrl: null,
        mapTiles: null,
      })
      const routes = [
        ...service.routes,
        ...publicRoutes({ store: env.store, registry, log: () => {}, requestId: () => '' }).app.routes,
      ]
      const served = routes.filter((r) => r.method !== 'OPTIONS' && !r.path.includes('//'))
      expect(served.length).toBe(37)
      for (const r of served) {
        const template = r.path.replace(/:(\w+)/g, '{$1}')
        expect(label(r.path.replace(/:(\w+)/g, 'x1')) as object).toEqual({
          api: r.path.startsWith('/public/') ? 'public' : r.path.startsWith('/admin/') ? 'admin' : 'service',
          route: template,
        })
      }
    } finally {
      env.close()
    }
  })

  test('paths no route serves are "other" of their API; static routes win with either method', () => {
    const cases: [string, string][] = [
      ['/admin/v1/locations/bulk', '/admin/v1/locations/bulk'],
      ['/admin/v1/locations/export', '/admin/v1/locations/export'],
      ['/admin/v1/locations/', '/admin/v1/locations'],
      ['/admin/v1/locations//delete', '/admin/v1/locations/{id}/delete'],
      ['/admin/v1/locations/a/b', 'other'],
      ['/admin/v2', 'other'],
      ['/public/v1/tok/locations/', '/public/v1/{token}/locations'],
      ['/public/v1/tok/locations?q=a/b', '/public/v1/{token}/locations'],
      ['/public/v1/tok/locations/a/b', 'other'],
      ['/public/v1/tok/locationsx', 'other'],
      ['/public/v1/tok/clusters?bbox=1,2,3,4&zoom=3', '/public/v1/{token}/clusters'],
      ['/public/v1/tok/clusters/3-loc_a/leaves?limit=2', '/public/v1/{token}/clusters/{id}/leaves'],
      ['/public/v1/tok/clusters//leaves', 'other'],
      ['/public/v1/tok/clusters/3-loc_a', 'other'],
      ['/public/v1/tok/clusters/3-loc_a/leavesx', 'other'],
      ['/public/v1/tok/clustersx', 'other'],
      ['/public/v1/tok', 'other'],
      ['/public/v1//locations', 'other'],
      ['/public/v1?x=1', 'other'],
      ['/docs/assets/a/b', 'other'],
      ['/l/tok/stores/', '/l/{token}/stores'],
      ['/l/tok/stores/fr/paris?page=2', '/l/{token}/stores/{country}/{town}'],
      ['/l/tok/stores/fr/paris/x', 'other'],
      ['/', '/'],
      ['/x', 'other'],
    ]
    for (const [path, route] of cases) expect([path, label(path).route]).toEqual([path, route])
  })
})

describe('settings', () => {
  const env = (over: Record<string, string>) => ({ DATABASE_PATH: ':memory:', ...over })
  test('METRICS_PORT unset: off; set: on, on 127.0.0.1 unless METRICS_HOST says otherwise', () => {
    expect(loadConfig(env({})).metrics).toBeNull()
    expect(loadConfig(env({ METRICS_PORT: '' })).metrics).toBeNull()
    expect(loadConfig(env({ METRICS_PORT: '9464' })).metrics).toEqual({
      port: 9464,
      host: '127.0.0.1',
      token: null,
      locatorSeries: 0,
    })
    expect(
      loadConfig(env({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: ' abcdefghijklmnop\n' })).metrics,
    ).toEqual({
      port: 9464,
      host: '0.0.0.0',
      token: 'abcdefghijklmnop',
      locatorSeries: 0,
    })
    expect(loadConfig(env({ METRICS_PORT: '9464', METRICS_LOCATOR_SERIES: '20' })).metrics?.locatorSeries).toBe(20)
  })

  test('bad values are refused with a message naming the setting, never quoting the token', () => {
    const refused = (over: Record<string, string>) => {
      try {
        loadConfig(env(over))
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError)
        return (e as Error).message
      }
      throw new Error(`accepted ${JSON.stringify(over)}`)
    }
    expect(refused({ METRICS_PORT: 'x' })).toContain('METRICS_PORT must be a whole number from 0 to 65535')
    expect(refused({ METRICS_PORT: '3000', PORT: '3000' })).toContain('METRICS_PORT must differ from PORT')
    expect(refused({ METRICS_TOKEN: 'abcdefghijklmnopq' })).toContain('METRICS_TOKEN is set but METRICS_PORT is not')
    expect(refused({ METRICS_HOST: '0.0.0.0' })).toContain('METRICS_HOST is set but METRICS_PORT is not')
    expect(refused({ METRICS_LOCATOR_SERIES: '10' })).toContain('METRICS_LOCATOR_SERIES is set but METRICS_PORT is not')
    for (const bad of ['-1', 'all', '10001'])
      expect(refused({ METRICS_PORT: '9464', METRICS_LOCATOR_SERIES: bad })).toContain(
        'METRICS_LOCATOR_SERIES must be a whole number from 0 to 10000',
      )
    for (const token of ['short-secret', 'has a space in it ok']) {
      const message = refused({ METRICS_PORT: '9464', METRICS_TOKEN: token })
      expect(message).toContain('METRICS_TOKEN must be at least 16 printable ASCII characters')
      expect(message).not.toContain(token)
    }
  })

  test('label values are escaped as the format says', () => {
    expect(escapeLabel('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd')
    const families = parseExposition(
      `# HELP x_total h\n# TYPE x_total counter\nx_total{l="${escapeLabel('a\\b"c\nd')}"} 1\n`,
    )
    expect(families.get('x_total')!.samples[0]!.labels.l).toBe('a\\b"c\nd')
  })
})
