// How long one bulk body of an absurd shape holds other tenants: one service process
// (WORKERS=1), locator B asked one radius query after the other (a new centre each), while one
// POST /admin/v1/locations/bulk of each shape goes to locator A, up to the route's 8 MiB limit.
// Per shape: B's queries that overlapped the post (p50, p99, max) and the post's time and status.
// PERF-068.
//
//   bun bench/bulk-shapes.ts [--runs 3] [--only name,name] [--size-b 1000]
import { join } from 'node:path'
import { BULK_MAX_BODY_BYTES } from '../src/api/admin/bulk'
import { createKey, setLocatorSettings } from '../src/operator'
import { openStore } from '../src/store'
import { ROOT } from './http/options'
import { makeWorkDir, runCleanly, stopChild } from './http/processes'
import { spawnServer, waitForLine, waitReady } from './http/servers'
import { seedLocator } from './scenario'
import { generate, prng } from './synthetic'

const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`)
  return at < 0 ? fallback : args[at + 1]!
}
const runs = Number(option('runs', '3'))
const only = option('only', '').split(',').filter(Boolean)
const sizeB = Number(option('size-b', '1000'))

const log = (msg: string) => console.error(`[bulk-shapes] ${msg}`)
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN

/** Just under the body limit, for the multipart-free bodies below. */
const MAX = BULK_MAX_BODY_BYTES - 4096
/** `head` then `unit` repeated up to MAX bytes (ASCII units). */
const fill = (head: string, unit: string, tail = '') =>
  head + unit.repeat(Math.floor((MAX - head.length - tail.length) / unit.length)) + tail
const columns = <T = string>(n: number, name: (i: number) => T) => Array.from({ length: n }, (_, i) => name(i))

/** A real export: 1,000 rows of 40 columns (11 known, 29 the locator does not have). */
function realCsv(): string {
  const known = ['external_id', 'name', 'address', 'city', 'postcode', 'country', 'lat', 'lng', 'phone', 'email']
  const header = [...known, 'website', ...columns(29, (i) => `extra_${i}`)]
  const rows = columns(1000, (r) =>
    header
      .map((c, i) => {
        if (c === 'external_id') return `ext-${r}`
        if (c === 'name') return `Store ${r}`
        if (c === 'lat') return (50 + r / 1000).toFixed(5)
        if (c === 'lng') return (8 + r / 1000).toFixed(5)
        if (c === 'country') return 'DE'
        if (c === 'email') return `s${r}@example.com`
        if (c === 'website') return `www.example.com/s${r}`
        return `value ${r} ${i}`
      })
      .join(','),
  )
  return [header.join(','), ...rows].join('\n')
}

const realJson = () =>
  JSON.stringify({
    locations: generate(1000, 7).bodies.map((b, i) => ({ ...b, external_id: `ext-${i}` })),
  })

/** No post: B's queries over a second at the machine's load, to read the others against. */
const CONTROL = 'control (no post)'

const CSV: Record<string, () => string> = {
  'csv real 1000x40': realCsv,
  'csv 400k unknown columns': () => `name,${columns(400_000, (i) => `c${i}`).join(',')}\nx${','.repeat(400_000)}\n`,
  'csv 8 MiB name cell': () => fill('name,address\n', 'a', ',b\n'),
  'csv 8 MiB hours cell': () => fill('name,address,hours\nx,y,', 'Mon 9-5 ', '\n'),
  'csv 8 MiB rows of empty cells': () => fill('name,address\nx,y\n', ',,,,,,,,\n'),
  'csv 8 MiB quoted newlines': () => fill('name,address,description\nx,y,"', '\n', '"\n'),
}

const JSON_SHAPES: Record<string, () => string> = {
  'json real 1000': realJson,
  'json 8 MiB description': () => `{"locations":[{"name":"x","address":"y","description":"${'a'.repeat(MAX - 60)}"}]}`,
  'json 8 MiB hours': () =>
    `{"locations":[{"name":"x","address":"y","hours":{"monday":"${'Mon 9-5 '.repeat((MAX - 80) / 8)}"}}]}`,
  'json 600k unknown fields': () =>
    `{"locations":[{"name":"x","address":"y",${columns(600_000, (i) => `"f${i}":1`).join(',')}}]}`,
  'json 1000 x 300 custom fields': () =>
    JSON.stringify({
      locations: columns(1000, (r) => ({
        name: `s${r}`,
        address: 'y',
        custom_fields: Object.fromEntries(columns(300, (i) => [`k${i}`, 'v'] as const)),
      })),
    }),
  'json 2M-item array': () => fill('{"locations":[', '1,', '1]}'),
  // Last: before PERF-068 its tags were joined column by column, in time quadratic in their count.
  'csv 700k tags columns': () => `name,address${',tags'.repeat(700_000)}\nx,y${',a'.repeat(700_000)}\n`,
}

async function main(): Promise<void> {
  const dir = makeWorkDir('storeloc-bulk-shapes-')
  const db = join(dir, 'shapes.db')
  const store = openStore(db)
  const a = seedLocator(store, 100, 1)
  const b = seedLocator(store, sizeB, 2)
  for (const id of [a.locatorId, b.locatorId]) setLocatorSettings(store, id, { rateLimit: '1000000' })
  const { secret } = createKey(store, a.locatorId, null)
  const token = store.locators.get(b.locatorId)!.publicToken
  store.close()
  const server = spawnServer(
    'service',
    [process.execPath, join(ROOT, 'src/main.ts')],
    { DATABASE_PATH: db, DEMO: '0', LOG_REQUESTS: '0', GEOCODER: 'none', WORKERS: '1' },
    false,
  )
  try {
    await waitReady(server, '/readyz')
    await waitForLine(server, '"listening"')
    const rnd = prng(5)
    const centres = b.set.bodies.map((x) => x.coordinates as { lat: number; lng: number })
    const query = () => {
      const c = centres[Math.floor(rnd() * centres.length)]!
      return `${server.base}/public/v1/${token}/locations?lat=${(c.lat + (rnd() - 0.5) / 10).toFixed(5)}&lng=${(c.lng + (rnd() - 0.5) / 10).toFixed(5)}&radius=25`
    }
    const ask = async () => {
      const t = performance.now()
      const r = await fetch(query())
      await r.arrayBuffer()
      if (r.status !== 200) throw new Error(`query answered ${r.status}`)
      return [t, performance.now()] as const
    }
    for (let i = 0; i < 300; i++) await ask() // warm
    const shapes = { [CONTROL]: () => '', ...CSV, ...JSON_SHAPES }
    for (const [name, make] of Object.entries(shapes)) {
      if (only.length > 0 && !only.some((o) => name.includes(o))) continue
      const body = make()
      const type = name.startsWith('csv') ? 'text/csv' : 'application/json'
      const headers = { authorization: `Bearer ${secret}`, 'content-type': type }
      for (let run = 0; run < runs; run++) {
        const queries: (readonly [number, number])[] = []
        let posting = true
        const asking = (async () => {
          while (posting) queries.push(await ask())
        })()
        await Bun.sleep(100)
        const t0 = performance.now()
        const r =
          name === CONTROL
            ? await Bun.sleep(1000).then(() => new Response(''))
            : await fetch(`${server.base}/admin/v1/locations/bulk?dry_run=true`, {
                method: 'POST',
                headers,
                body,
                signal: AbortSignal.timeout(120_000),
              }).catch((e: Error) => {
                throw new Error(`${name}: the post had no answer in 120 s (${e.message}); the server is stopped`)
              })
        const answer = await r.text()
        const t1 = performance.now()
        await Bun.sleep(50)
        posting = false
        await asking
        const during = queries
          .filter(([s, e]) => e > t0 && s < t1)
          .map(([s, e]) => e - s)
          .sort((x, y) => x - y)
        const said = r.status === 200 ? '' : ` ${answer.slice(0, 160)}`
        console.log(
          `${name} (${(body.length / 1048576).toFixed(2)} MiB) run ${run}: post ${(t1 - t0).toFixed(0)} ms, ${r.status}, answer ${(answer.length / 1024).toFixed(0)} KiB; B's queries n ${during.length}, p50 ${quantile(during, 0.5).toFixed(1)} ms, p99 ${quantile(during, 0.99).toFixed(1)}, max ${during.at(-1)?.toFixed(0)}${said}`,
        )
      }
    }
  } finally {
    await stopChild(server.child)
  }
}

await runCleanly(main, log)
