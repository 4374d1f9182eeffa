// How another tenant's public queries fare while a sync script writes: one service process
// (WORKERS=1), locator A written by `--writers` clients in a loop of bulk requests
// (POST /admin/v1/locations/bulk, `--items` a request, every item an update by external_id), and
// locator B asked one radius query after the other (a new centre each: no kept answer). A window
// with no writer comes before and after each window with writers, as a control. PERF-066.
// `--probe create`: B is written instead, one create after the other (PERF-067).
//
//   bun bench/write-stall.ts [--size-a 10000] [--size-b 1000] [--items 200] [--writers 1,2]
//                            [--seconds 5] [--rounds 2] [--mode update|create|same]
//                            [--probe query|create] [--server-args "--cpu-prof ..."]
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
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
const sizeA = Number(option('size-a', '10000'))
const sizeB = Number(option('size-b', '1000'))
const items = Number(option('items', '200'))
const writerCounts = option('writers', '1,2').split(',').map(Number)
const seconds = Number(option('seconds', '5'))
const rounds = Number(option('rounds', '2'))
const mode = option('mode', 'update')
const probe = option('probe', 'query')
const serverArgs = option('server-args', '').split(' ').filter(Boolean)
const keepErr = option('keep-stderr', '')

const log = (msg: string) => console.error(`[write-stall] ${msg}`)
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN

async function main(): Promise<void> {
  const dir = makeWorkDir('storeloc-write-stall-')
  const db = join(dir, 'stall.db')
  const store = openStore(db)
  const a = seedLocator(store, sizeA, 1)
  const b = seedLocator(store, sizeB, 2)
  for (const id of [a.locatorId, b.locatorId]) setLocatorSettings(store, id, { rateLimit: '1000000' })
  const { secret } = createKey(store, a.locatorId, null)
  const secretB = createKey(store, b.locatorId, null).secret
  const token = store.locators.get(b.locatorId)!.publicToken
  store.close()

  // The writers' pool: bodies with external ids, created once, then updated (or sent again unchanged).
  const pool: Record<string, unknown>[] = generate(Math.max(items * 10, 2000), 99).bodies.map((body, i) => ({
    ...body,
    external_id: `sync-${i}`,
  }))
  const server = spawnServer(
    'service',
    [process.execPath, ...serverArgs, join(ROOT, 'src/main.ts')],
    {
      DATABASE_PATH: db,
      DEMO: '0',
      LOG_REQUESTS: '0',
      GEOCODER: 'none',
      WORKERS: '1',
    },
    false,
  )
  const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }
  const bulk = async (body: string) => {
    const r = await fetch(`${server.base}/admin/v1/locations/bulk`, { method: 'POST', headers, body })
    const text = await r.text()
    if (r.status !== 200) throw new Error(`bulk answered ${r.status}: ${text.slice(0, 300)}`)
  }
  try {
    await waitReady(server, '/readyz')
    await waitForLine(server, '"listening"')
    for (let i = 0; i < pool.length; i += 1000) await bulk(JSON.stringify({ locations: pool.slice(i, i + 1000) }))
    const rnd = prng(5)
    const centres = b.set.bodies.map((x) => x.coordinates as { lat: number; lng: number })
    const query = () => {
      const c = centres[Math.floor(rnd() * centres.length)]!
      return `${server.base}/public/v1/${token}/locations?lat=${(c.lat + (rnd() - 0.5) / 10).toFixed(5)}&lng=${(c.lng + (rnd() - 0.5) / 10).toFixed(5)}&radius=25`
    }
    const headersB = { authorization: `Bearer ${secretB}`, 'content-type': 'application/json' }
    let created = 0
    const create = () => {
      const c = centres[created++ % centres.length]!
      const body = { name: `Probe ${created}`, address: `${created} Probe Street`, coordinates: c }
      return fetch(`${server.base}/admin/v1/locations`, {
        method: 'POST',
        headers: headersB,
        body: JSON.stringify(body),
      })
    }
    const ask = async (ms: number) => {
      const times: number[] = []
      const until = performance.now() + ms
      while (performance.now() < until) {
        const t = performance.now()
        const r = probe === 'create' ? await create() : await fetch(query())
        await r.arrayBuffer()
        if (r.status !== (probe === 'create' ? 201 : 200)) throw new Error(`B answered ${r.status}`)
        times.push(performance.now() - t)
      }
      return times.sort((x, y) => x - y)
    }
    await ask(1000) // warm
    let round = 0
    const write = async (stop: { done: boolean }, w: number, writeMs: number[]) => {
      let n = w * 7
      while (!stop.done) {
        const from = (n * items) % pool.length
        const slice = pool.slice(from, from + items).map((body) => {
          if (mode === 'same') return body
          if (mode === 'create') return { ...body, external_id: `new-${round}-${w}-${n}-${body.external_id}` }
          return { ...body, description: `${body.description} (${round}.${w}.${n})` }
        })
        const t = performance.now()
        await bulk(JSON.stringify({ locations: slice }))
        writeMs.push(performance.now() - t)
        n++
      }
    }
    const line = (label: string, t: number[]) =>
      `${label}: n ${t.length}, p50 ${quantile(t, 0.5).toFixed(2)} ms, p90 ${quantile(t, 0.9).toFixed(2)}, p99 ${quantile(t, 0.99).toFixed(2)}, max ${t.at(-1)?.toFixed(1)}`
    for (round = 0; round < rounds; round++) {
      for (const writers of writerCounts) {
        console.log(line(`round ${round} control`, await ask(seconds * 1000)))
        const stop = { done: false }
        const writeMs: number[] = []
        const loops = Array.from({ length: writers }, (_, w) => write(stop, w, writeMs))
        const times = await ask(seconds * 1000)
        stop.done = true
        await Promise.all(loops)
        console.log(
          line(`round ${round} ${writers} writer(s), B's ${probe === 'create' ? 'creates' : 'queries'}`, times),
        )
        console.log(
          line(
            `round ${round} ${writers} writer(s), bulk requests`,
            writeMs.sort((x, y) => x - y),
          ),
        )
      }
    }
  } finally {
    await stopChild(server.child)
    if (keepErr) copyFileSync(server.err, keepErr)
  }
}

await runCleanly(main, log)
