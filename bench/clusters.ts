// GET /clusters in process: the cluster tree's build (in the worker thread, off the request path)
// and the clusters answer's latency, for the three cases: the whole world at zoom 3 with no
// filter and with one tag, and a city map at zoom 12; then the same world answer after 1% of the
// locations moved (the writes applied on top of the tree until it is built anew).
//
//   bun bench/clusters.ts [--sizes 100000,1000000] [--seed 42] [--queries 500]
//
// The locator is bench/scenario.ts's; each answer is made by the route's body path (clustersBody).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { clustersBody, ClustersQuery } from '../src/api/public/clusters'
import { IndexRegistry } from '../src/indexes/registry'
import { openStore } from '../src/store'
import { scenario, seedLocator } from './scenario'
import { FILTER_GROUPS, prng, zipfPicker } from './synthetic'
import { provenance, provenanceLine } from './system'

type Options = { sizes: number[]; seed: number; queries: number }

function parseArgs(argv: string[]): Options {
  const o: Options = { sizes: [100_000], seed: 42, queries: 500 }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    const v = () => argv[++i] ?? ''
    if (a === '--sizes') o.sizes = v().split(',').map(Number)
    else if (a === '--seed') o.seed = Number(v())
    else if (a === '--queries') o.queries = Number(v())
    else
      throw new Error(
        `unknown option ${a}\nusage: bun bench/clusters.ts [--sizes 100000,1000000] [--seed 42] [--queries 500]`,
      )
  }
  return o
}

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!
const fmt = (ms: number) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(0)} µs`)

async function measure(size: number, o: Options): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'storeloc-clusters-'))
  try {
    const store = openStore(join(dir, 'bench.sqlite'))
    const { locatorId, set } = seedLocator(store, size, o.seed)
    const registry = new IndexRegistry(store)
    await registry.preload()
    const locator = store.locators.get(locatorId)!
    const base = `http://127.0.0.1/public/v1/${locator.publicToken}/clusters?`
    const ask = (query: string) => clustersBody(registry, locator, new ClustersQuery(base + query))
    const WORLD = 'bbox=-180,-90,180,90&zoom=3'

    // The build: asked once (503 meanwhile), then ready; the event loop's longest stall meanwhile.
    let longest = 0
    let last = performance.now()
    const ticker = setInterval(() => {
      const now = performance.now()
      longest = Math.max(longest, now - last - 1)
      last = now
    }, 1)
    const t0 = performance.now()
    let refused = 0
    for (;;) {
      try {
        ask(WORLD)
        break
      } catch {
        refused++
        await Bun.sleep(1)
      }
    }
    const buildMs = performance.now() - t0
    clearInterval(ticker)

    const rnd = prng(o.seed)
    const tag = zipfPicker(FILTER_GROUPS.products, rnd)
    const sc = scenario(set, o.seed, 1)
    const types: [string, () => string][] = [
      ['whole world, zoom 3, no filter', () => WORLD],
      ['whole world, zoom 3, one tag', () => `${WORLD}&tags[]=${tag()}`],
      ['a city map (1280 × 800 px), zoom 12', () => `${sc.view(12)}&zoom=12`],
    ]
    const lines = [
      `## ${size.toLocaleString('en')} locations`,
      '',
      `Tree build (worker thread), asked to ready: ${fmt(buildMs)}; ${refused} answers were 503 meanwhile; the event loop's longest stall then: ${fmt(longest)}.`,
      '',
      '| Answer | N | median | p90 | p99 | max | clusters + locations (mean) |',
      '|---|---:|---:|---:|---:|---:|---:|',
    ]
    const time = (label: string, gen: () => string) => {
      const qs = Array.from({ length: o.queries }, gen)
      for (let i = 0; i < 300; i++) ask(qs[i % qs.length]!) // warm: JavaScriptCore's last tier takes a path after many calls
      const ms: number[] = []
      let items = 0
      for (const q of qs) {
        const t = performance.now()
        const body = ask(q)
        ms.push(performance.now() - t)
        const data = JSON.parse(Buffer.from(body).toString()).data
        items += data.clusters.length + data.locations.length
      }
      lines.push(
        `| ${label} | ${ms.length} | ${fmt(quantile(ms, 0.5))} | ${fmt(quantile(ms, 0.9))} | ${fmt(quantile(ms, 0.99))} | ${fmt(Math.max(...ms))} | ${(items / ms.length).toFixed(0)} |`,
      )
    }
    for (const [label, gen] of types) time(label, gen)
    // 1% of the locations moved a few km: they answer from the old tree, joined to its clusters.
    const entry = registry.entry(locatorId)
    const ids: string[] = []
    entry.index.forEach((e) => ids.length < size / 100 && ids.push(e.id))
    store.write(() => {
      for (const id of ids) {
        const row = store.locations.get(locatorId, id)!
        store.locations.replace({ ...row, lat: row.lat + 0.02, lng: row.lng + 0.02 }, row)
      }
    })
    registry.sync()
    time(`whole world, zoom 3, after ${ids.length} moves`, () => WORLD)
    return lines
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function main() {
  const o = parseArgs(Bun.argv.slice(2))
  const out = ['# Clusters benchmark (bench/clusters.ts)', '', provenanceLine(provenance(new Date())), '']
  for (const size of o.sizes) out.push(...(await measure(size, o)), '')
  console.log(out.join('\n'))
}

await main()
