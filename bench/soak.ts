// A soak: hours of the traffic a deployment sees, against a server already running, with its
// health sampled every 30 s (PERF-061). It asks public queries with ever-new centres, tags,
// searches and near= texts, GET /places with many prefixes, /clusters with many boxes, store,
// directory and finder pages, sitemaps, widget files, valid and invalid tokens, with and without
// If-None-Match; a trickle of Management API writes (creates, updates, deletes as many as created,
// bulk writes with an Idempotency-Key, some sent twice, exports); and clients that go away
// mid-answer. Each sample: the process's RSS, threads and descriptors (/proc), the heap and the
// database files (/metrics), row counts of the tables that grow with writes, and p50/p99 of two
// fixed probes asked 100 and 50 times one after the other.
//
//   bun bench/soak.ts --pid PID --token pk_... --other pk_... --key sk_... \
//     [--base http://127.0.0.1:3661] [--metrics http://127.0.0.1:3662/metrics] \
//     [--database FILE] [--log SERVER_LOG] [--minutes 26] [--rps 120] [--out samples.jsonl] [--seed 12345]
//
// The server must run with --metrics-port; `--token` is a locator with data (the demo's), its
// rate limit raised; `--other` another locator's token; `--key` a secret key of the first. One
// JSON line per sample goes to --out, and a summary line to stdout.
import { Database } from 'bun:sqlite'
import { appendFileSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { DEFAULT_GEODATA_PATH } from '../src/geocode/embedded/build'
import { readOptions } from './system'

const USAGE =
  'usage: bun bench/soak.ts --pid PID --token pk_... --other pk_... --key sk_... [--base URL] [--metrics URL] [--database FILE] [--log FILE] [--minutes N] [--rps N] [--out FILE] [--seed N]'
const o = {
  base: 'http://127.0.0.1:3661',
  metrics: 'http://127.0.0.1:3662/metrics',
  pid: 0,
  token: '',
  other: '',
  key: '',
  database: 'data/storeloc.db',
  log: '',
  minutes: 26,
  rps: 120,
  out: 'soak.jsonl',
  seed: 12345,
}
readOptions(process.argv.slice(2), USAGE, (option, value, int) => {
  const name = option.replace(/^--/, '')
  if (!(name in o) || name === option) return false
  const key = name as keyof typeof o
  if (typeof o[key] === 'number') (o as Record<string, unknown>)[key] = int(1)
  else (o as Record<string, unknown>)[key] = value()
  return true
})
if (!o.pid || !o.token || !o.other || !o.key) throw new Error(USAGE)
const BASE = o.base
const METRICS = o.metrics
const PID = o.pid
const TOKEN = o.token
const OTHER = o.other // another locator's token (its rate limit the default)
const KEY = o.key
const DB = o.database
const MINUTES = o.minutes
const RPS = o.rps
const OUT = o.out
const SAMPLE_MS = 30_000

let seed = o.seed
const rnd = () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const rstr = (n: number, abc = B62) => Array.from({ length: n }, () => pick([...abc])).join('')

const geo = new Database(DEFAULT_GEODATA_PATH, { readonly: true })
const towns = geo
  .query<{ name: string; country: string; lat: number; lng: number }, []>(
    'SELECT name, country, lat, lng FROM places WHERE population > 2000 ORDER BY random() LIMIT 20000',
  )
  .all()
geo.close()

const TAGS = [
  'bikes',
  'e-bikes',
  'ski',
  'climbing',
  'running',
  'camping',
  'hiking',
  'water-sports',
  'repairs',
  'rentals',
]
const WORDS = ['outdoor', 'express', 'london', 'bike', 'ski', 'camp', 'northwind', 'store', 'trail', 'peak', 'river']

// What the server gave: ids, store page paths, directory paths, ETags of recent URLs.
const ids: string[] = []
const pagePaths: string[] = []
const recent: { url: string; etag: string }[] = []
const clusterIds: string[] = []
const createdIds: string[] = []

async function discover() {
  const sm = await (await fetch(`${BASE}/l/${TOKEN}/sitemap.xml?page=1`)).text()
  const sm0 = sm.includes('<urlset') ? sm : await (await fetch(`${BASE}/l/${TOKEN}/sitemap.xml`)).text()
  for (const m of sm0.matchAll(/<loc>([^<]+)<\/loc>/g)) pagePaths.push(new URL(m[1]!).pathname)
  let page = 1
  for (;;) {
    const r = await fetch(`${BASE}/admin/v1/locations?limit=500&page=${page}`, {
      headers: { authorization: `Bearer ${KEY}` },
    })
    const j = (await r.json()) as { locations: { id: string }[] }
    for (const l of j.locations) ids.push(l.id)
    if (j.locations.length < 500) break
    page++
  }
}

const counts = new Map<string, number>()
const count = (k: string) => counts.set(k, (counts.get(k) ?? 0) + 1)
const lat: number[] = [] // public locations latencies (ms) in the window

async function get(url: string, kind: string, headers: Record<string, string> = {}, keep = false) {
  const t0 = performance.now()
  try {
    const r = await fetch(url, { headers })
    const body = await r.arrayBuffer()
    if (kind === 'locations') lat.push(performance.now() - t0)
    count(`${kind} ${r.status}`)
    const etag = r.headers.get('etag')
    if (keep && etag && r.status === 200) {
      recent.push({ url, etag })
      if (recent.length > 500) recent.splice(0, 100)
    }
    return { status: r.status, body }
  } catch {
    count(`${kind} error`)
    return null
  }
}

const pub = (path: string, token = TOKEN) => `${BASE}/public/v1/${token}${path}`
const centre = () => {
  if (rnd() < 0.7) {
    const t = pick(towns)
    return { lat: t.lat + (rnd() - 0.5) * 0.2, lng: t.lng + (rnd() - 0.5) * 0.2 }
  }
  return { lat: (rnd() * 170 - 85).toFixed(5), lng: (rnd() * 360 - 180).toFixed(5) }
}
const tagsQ = () => {
  const n = rnd() < 0.6 ? 0 : 1 + Math.floor(rnd() * 3)
  let q = ''
  for (let i = 0; i < n; i++) q += `&tags[]=${pick(TAGS)}`
  if (n > 1 && rnd() < 0.5) q += '&tagLogic=all'
  return q
}
const searchQ = () =>
  rnd() < 0.7
    ? ''
    : `&search=${encodeURIComponent(rnd() < 0.5 ? pick(WORDS) : `${pick(WORDS)} ${rstr(3, 'abcdefghij')}`)}`
const placeText = () => {
  const t = pick(towns)
  const r = rnd()
  if (r < 0.4) return t.name
  if (r < 0.6) return `${t.name}, ${t.country}`
  if (r < 0.8) return t.name.slice(0, 1 + Math.floor(rnd() * t.name.length))
  if (r < 0.9) return `${t.name}${rstr(2, 'aeiou')}`
  return rstr(3 + Math.floor(rnd() * 10), 'abcdefghijklmnopqrstuvwxyz ')
}
const bbox = (zoom: number) => {
  const c = centre()
  const w = ((360 / 2 ** zoom) * (1 + rnd() * 6)) / 2
  const h = w / 2
  const lng = Number(c.lng)
  const la = Number(c.lat)
  const f = (x: number) => x.toFixed(4)
  return `${f(Math.max(-180, lng - w))},${f(Math.max(-85, la - h))},${f(Math.min(180, lng + w))},${f(Math.min(85, la + h))}`
}

const HOT = Array.from({ length: 40 }, (_, i) => {
  const t = towns[i]!
  return pub(`/locations?lat=${t.lat}&lng=${t.lng}&radius=${25 + i}&unit=km`)
})

async function publicOne() {
  const r = rnd() * 100
  const c = centre()
  if (r < 22)
    return get(
      pub(
        `/locations?lat=${c.lat}&lng=${c.lng}&radius=${1 + Math.floor(rnd() * 900)}&unit=${rnd() < 0.5 ? 'km' : 'miles'}&limit=${1 + Math.floor(rnd() * 50)}${tagsQ()}${searchQ()}${rnd() < 0.1 ? '&open_now=true' : ''}`,
      ),
      'locations',
      { 'x-request-id': rstr(12) },
      true,
    )
  if (r < 28) return get(pick(HOT), 'locations', {}, true)
  if (r < 36)
    return get(
      pub(
        `/locations?near=${encodeURIComponent(placeText())}&radius=${5 + Math.floor(rnd() * 200)}${tagsQ()}&lang=${pick(['en', 'de', 'fr', 'en-GB', 'nl', 'it'])}`,
      ),
      'near',
      {},
      true,
    )
  if (r < 46)
    return get(
      pub(`/places?q=${encodeURIComponent(placeText())}&limit=${1 + Math.floor(rnd() * 10)}`),
      'places',
      {},
      true,
    )
  if (r < 53) {
    const zoom = Math.floor(rnd() * 15)
    const res = await get(pub(`/clusters?bbox=${bbox(zoom)}&zoom=${zoom}${tagsQ()}`), 'clusters', {}, true)
    if (res?.status === 200) {
      const j = JSON.parse(new TextDecoder().decode(res.body)) as {
        data: { clusters?: { id: string; count?: number }[] }
      }
      for (const cl of j.data.clusters ?? []) if (cl.id && rnd() < 0.2) clusterIds.push(cl.id)
      if (clusterIds.length > 200) clusterIds.splice(0, 100)
    }
    return res
  }
  if (r < 55 && clusterIds.length) return get(pub(`/clusters/${pick(clusterIds)}/leaves?limit=20`), 'leaves')
  if (r < 59) return get(pub(`/locations/${pick(ids)}`), 'location', {}, true)
  if (r < 60) return get(pub('/filters'), 'filters', {}, true)
  if (r < 61)
    return get(
      pub(`/locations?all=true&limit=${100 + Math.floor(rnd() * 400)}&offset=${Math.floor(rnd() * 500)}`),
      'all',
      {},
      true,
    )
  if (r < 67)
    return get(
      `${BASE}${pick(pagePaths)}`,
      'page',
      { 'accept-language': pick(['de', 'fr', 'en-GB', 'es', 'it', 'nl']) },
      true,
    )
  if (r < 69)
    return get(
      `${BASE}/l/${TOKEN}/stores/${rstr(2, 'abcdefghijklmnopqrstuvwxyz')}/${rstr(6, 'abcdefghijklmnopqrstuvwxyz')}`,
      'page404',
    )
  if (r < 70) return get(`${BASE}/l/${TOKEN}/loc_${rstr(16, 'abcdefghijklmnopqrstuvwxyz0123456789')}/x`, 'page404')
  if (r < 71)
    return get(
      `${BASE}/l/${TOKEN}/sitemap.xml${rnd() < 0.5 ? '' : `?page=${Math.floor(rnd() * 3)}`}`,
      'sitemap',
      {},
      true,
    )
  if (r < 75)
    return get(
      `${BASE}/${pick(['widget.js', 'widget.css', 'widget/leaflet.js', 'widget/leaflet.css', 'widget/countries.json', `widget/${rstr(6)}.js`])}`,
      'widget',
      {
        'accept-encoding': rnd() < 0.7 ? 'gzip' : 'identity',
      },
    )
  if (r < 81) return get(pub(`/locations?lat=${c.lat}&lng=${c.lng}&radius=10`, `pk_${rstr(24)}`), 'badtoken')
  if (r < 82)
    return get(pub(`/locations?lat=${c.lat}&lng=${c.lng}&radius=10`, rstr(1 + Math.floor(rnd() * 60))), 'badtoken')
  if (r < 82.5) return get(pub(`/locations?lat=1&lng=1&radius=10&x=sk_${rstr(38)}`), 'skexposed')
  if (r < 86)
    return get(pub(`/locations?lat=${c.lat}&lng=${c.lng}&radius=${1 + Math.floor(rnd() * 100)}`, OTHER), 'other', {
      origin: `https://${rstr(8).toLowerCase()}.example`,
    })
  if (r < 87) return get(pub(`/locations?lat=${c.lat}&lng=${c.lng}&radius=10&pad=${rstr(3000)}`), 'long')
  if (r < 88) return get(pub(`/locations?lat=${c.lat}&lng=${c.lng}&radius=${rnd() < 0.5 ? -1 : 'x'}`), 'invalid')
  if (r < 89) return get(`${BASE}/l/${TOKEN}?place=${encodeURIComponent(placeText())}`, 'finder', {}, true)
  // revalidate something seen
  if (recent.length) {
    const e = pick(recent)
    return get(e.url, 'revalidate', { 'if-none-match': rnd() < 0.8 ? e.etag : `W/"${rstr(10)}"` })
  }
}

const admin = (path: string, init: RequestInit = {}) =>
  fetch(`${BASE}/admin/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...(init.headers as object) },
  })

const body = (withCoords: boolean) => {
  const t = pick(towns)
  const b: Record<string, unknown> = {
    name: `Soak ${rstr(6)} ${t.name}`,
    address: `${Math.floor(rnd() * 200)} ${pick(['High St', 'Main St', 'Hauptstraße', 'Rue de la Paix', 'Via Roma'])} ${rstr(4, 'abcdefgh')}, ${t.name}, ${t.country}`,
    tags: [pick(TAGS), pick(TAGS)],
    hours: { monday: '09:00-18:00', saturday: rnd() < 0.5 ? '10:00-16:00' : 'closed' },
    description: `${pick(WORDS)} ${rstr(20, 'abcdefghij ')}`,
  }
  if (withCoords) b.coordinates = { lat: t.lat + (rnd() - 0.5) * 0.05, lng: t.lng + (rnd() - 0.5) * 0.05 }
  if (rnd() < 0.3) b.external_id = `EXT-${rstr(10)}`
  return b
}

async function adminOne() {
  const r = rnd() * 100
  try {
    if (createdIds.length > 400) {
      // Keep the locator's size steady: as many deleted as created.
      for (let i = 0; i < 10; i++) {
        const id = createdIds.shift()!
        const res = await admin(`/locations/${id}/delete`, { method: 'POST' })
        count(`admin-delete ${res.status}`)
        await res.arrayBuffer()
      }
    } else if (r < 35) {
      const res = await admin('/locations', {
        method: 'POST',
        body: JSON.stringify(body(rnd() < 0.7)),
        headers: rnd() < 0.5 ? { 'idempotency-key': crypto.randomUUID() } : {},
      })
      count(`admin-create ${res.status}`)
      const j = (await res.json()) as { location?: { id: string } }
      if (j.location?.id) createdIds.push(j.location.id)
    } else if (r < 60 && createdIds.length) {
      const id = pick(createdIds)
      const res = await admin(`/locations/${id}`, {
        method: 'POST',
        body: JSON.stringify(rnd() < 0.5 ? { description: rstr(30) } : body(true)),
        headers: { 'idempotency-key': crypto.randomUUID() },
      })
      count(`admin-update ${res.status}`)
      await res.arrayBuffer()
    } else if (r < 75 && createdIds.length > 50) {
      const id = createdIds.splice(Math.floor(rnd() * createdIds.length), 1)[0]!
      const res = await admin(`/locations/${id}/delete`, { method: 'POST' })
      count(`admin-delete ${res.status}`)
      await res.arrayBuffer()
    } else if (r < 88) {
      const key = crypto.randomUUID()
      const items = Array.from({ length: 5 + Math.floor(rnd() * 30) }, () =>
        createdIds.length && rnd() < 0.7 ? { id: pick(createdIds), ...body(true) } : body(rnd() < 0.8),
      )
      const seenIds = new Set<string>()
      const payload = JSON.stringify({
        locations: items.filter((x) => !('id' in x) || (!seenIds.has(x.id as string) && seenIds.add(x.id as string))),
      })
      for (let i = 0; i < (rnd() < 0.3 ? 2 : 1); i++) {
        const res = await admin('/locations/bulk', {
          method: 'POST',
          body: payload,
          headers: { 'idempotency-key': key },
        })
        count(`admin-bulk ${res.status}`)
        const j = (await res.json()) as { results?: { id?: string; action?: string }[] }
        if (i === 0) for (const x of j.results ?? []) if (x.id && x.action === 'created') createdIds.push(x.id)
      }
    } else if (r < 94) {
      const res = await admin(`/locations?limit=${1 + Math.floor(rnd() * 100)}&page=${1 + Math.floor(rnd() * 10)}`)
      count(`admin-list ${res.status}`)
      await res.arrayBuffer()
    } else if (r < 97) {
      const res = await admin(`/locations/export?format=${rnd() < 0.5 ? 'csv' : 'json'}`)
      count(`admin-export ${res.status}`)
      await res.arrayBuffer()
    } else {
      const res = await fetch(`${BASE}/admin/v1/locations`, { headers: { authorization: `Bearer sk_${rstr(38)}` } })
      count(`admin-badkey ${res.status}`)
      await res.arrayBuffer()
    }
  } catch {
    count('admin error')
  }
  if (createdIds.length > 3000) createdIds.splice(0, 1000)
}

async function disconnectOne() {
  const r = rnd()
  if (r < 0.5) {
    const url = pick([
      `${BASE}/admin/v1/locations/export?format=json`,
      `${BASE}/admin/v1/locations/export?format=csv`,
      pub(`/locations?all=true&limit=500`),
      `${BASE}/l/${TOKEN}/sitemap.xml`,
      `${BASE}/widget.js`,
      `${BASE}/l/${TOKEN}/stores`,
      pub(`/locations?near=${encodeURIComponent(placeText())}&radius=500&limit=500`),
    ])
    const ac = new AbortController()
    setTimeout(() => ac.abort(), rnd() * 8)
    try {
      const res = await fetch(url, { signal: ac.signal, headers: { authorization: `Bearer ${KEY}` } })
      await res.arrayBuffer()
      count('disc finished')
    } catch {
      count('disc aborted')
    }
    return
  }
  // A raw socket that sends a request (maybe half of it) and closes.
  const path =
    rnd() < 0.5
      ? `/admin/v1/locations/export?format=csv`
      : `/public/v1/${TOKEN}/locations?all=true&limit=500&offset=${Math.floor(rnd() * 50)}`
  const req = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\n${rnd() < 0.3 ? 'X-Half: ' : '\r\n'}`
  await new Promise<void>((resolve) => {
    Bun.connect({
      hostname: '127.0.0.1',
      port: Number(new URL(BASE).port),
      socket: {
        open(s) {
          s.write(req)
          if (rnd() < 0.5) setTimeout(() => s.end(), rnd() * 5)
        },
        data(s) {
          s.end()
        },
        close() {
          resolve()
        },
        error() {
          resolve()
        },
        connectError() {
          resolve()
        },
      },
    }).catch(() => resolve())
    setTimeout(resolve, 2000)
  })
  count('disc socket')
}

// ---- sampling ----
const PROBE = pub('/locations?lat=51.5074&lng=-0.1278&radius=10&unit=km&limit=10')
const PROBE2 = pub('/places?q=Lond&limit=5')
async function probe(url: string, n: number) {
  const ts: number[] = []
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    const r = await fetch(url)
    await r.arrayBuffer()
    ts.push(performance.now() - t0)
  }
  return pct(ts)
}
function pct(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b)
  const q = (p: number) => (s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))]! : NaN)
  return { n: s.length, p50: +q(0.5).toFixed(2), p99: +q(0.99).toFixed(2), max: +(s.at(-1) ?? NaN).toFixed(2) }
}
function procStatus() {
  const s = readFileSync(`/proc/${PID}/status`, 'utf8')
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? NaN)
  return { rssMB: +(kb('VmRSS') / 1024).toFixed(1), hwmMB: +(kb('VmHWM') / 1024).toFixed(1), threads: kb('Threads') }
}
async function metrics() {
  const t = await (await fetch(METRICS)).text()
  const m = (name: string) => {
    const line = t.split('\n').find((l) => l.startsWith(name))
    return line ? Number(line.split(' ').at(-1)) : NaN
  }
  const mb = (x: number) => +(x / 1048576).toFixed(1)
  return {
    heapUsedMB: mb(m('storeloc_process_heap_used_bytes')),
    heapTotalMB: mb(m('storeloc_process_heap_total_bytes')),
    externalMB: mb(m('storeloc_process_external_memory_bytes')),
    cacheHits: m('storeloc_public_cache_hits_total'),
    dbMB: mb(m('storeloc_database_file_bytes{worker="0",file="database"')),
    walMB: mb(m('storeloc_database_file_bytes{worker="0",file="wal"')),
    jsonMB: mb(m('storeloc_indexes_json_bytes')),
    indexLocations: m('storeloc_indexes_locations'),
    changeLag: m('storeloc_change_log_lag'),
    metricLines: t.split('\n').length,
  }
}
function rows() {
  const d = new Database(DB, { readonly: true })
  try {
    const n = (tbl: string) => (d.query(`SELECT count(*) n FROM ${tbl}`).get() as { n: number }).n
    return {
      locations: n('locations'),
      changes: n('changes'),
      idem: n('idempotency_keys'),
      geocache: n('geocode_cache'),
    }
  } finally {
    d.close()
  }
}
const t0 = Date.now()
let sent = 0
async function sample() {
  const fds = readdirSync(`/proc/${PID}/fd`).length
  const p = await probe(PROBE, 100)
  const p2 = await probe(PROBE2, 50)
  const line = {
    t: Math.round((Date.now() - t0) / 1000),
    ...procStatus(),
    fds,
    ...(await metrics()),
    ...rows(),
    logMB: o.log === '' ? null : +(statSync(o.log).size / 1048576).toFixed(1),
    probe: p,
    probePlaces: p2,
    mix: pct(lat.splice(0)),
    sent,
    counts: Object.fromEntries(counts),
  }
  counts.clear()
  appendFileSync(OUT, `${JSON.stringify(line)}\n`)
  console.log(
    `t=${line.t}s rss=${line.rssMB} heap=${line.heapUsedMB}/${line.heapTotalMB} ext=${line.externalMB} fds=${fds} thr=${line.threads} probe p50=${p.p50} p99=${p.p99} places p50=${p2.p50} mix p50=${line.mix.p50} p99=${line.mix.p99} sent=${sent} rows=${JSON.stringify(rows())} wal=${line.walMB}`,
  )
}

await discover()
console.log(`discovered ${ids.length} ids, ${pagePaths.length} page paths`)
const end = t0 + MINUTES * 60_000
let stop = false
const workers: Promise<void>[] = []
const W = 8
for (let w = 0; w < W; w++)
  workers.push(
    (async () => {
      while (!stop) {
        const s = performance.now()
        await publicOne()
        sent++
        const wait = (W * 1000) / RPS - (performance.now() - s)
        if (wait > 0) await Bun.sleep(wait)
      }
    })(),
  )
workers.push(
  (async () => {
    while (!stop) {
      await adminOne()
      sent++
      await Bun.sleep(300 + rnd() * 400)
    }
  })(),
)
workers.push(
  (async () => {
    while (!stop) {
      await disconnectOne()
      sent++
      await Bun.sleep(200 + rnd() * 300)
    }
  })(),
)
await sample()
while (Date.now() < end) {
  await Bun.sleep(SAMPLE_MS - ((Date.now() - t0) % SAMPLE_MS))
  await sample()
}
stop = true
await Promise.all(workers)
console.log('done')
