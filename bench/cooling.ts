// How much another engine's turn slows ours down: the peers step (peers.ts) times ours in parts of
// 500 queries, SQLite's part in between; the in-process step (query.ts) times ours alone. This
// times ours' typical radius query (the route's body path, as both do) alone, then in parts of 500
// with other work in between (SQLite's answers to the same 500, a 256 MB read, 15 MB of strings
// made, a full collection), then query by query after a full collection. One process, 100k by
// default: `bun bench/cooling.ts [--size 100000] [--order peers|query]` (peers: the peers' data
// made before our index, as peers.ts does; query: after).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { locationsBody } from '../src/api/public/answer'
import { presentContext, publicLocation } from '../src/indexes/present'
import { IndexRegistry } from '../src/indexes/registry'
import { openStore } from '../src/store'
import type { LocationRecord } from '../src/store/locations'
import { parseQuery } from './peers/query'
import { SqlitePeer } from './peers/sqlite'
import { scenario, seedLocator, WARM_QUERIES } from './scenario'

const arg = (name: string, fallback: string) => {
  const i = Bun.argv.indexOf(name)
  return i < 0 ? fallback : (Bun.argv[i + 1] ?? fallback)
}
const size = Number(arg('--size', '100000'))
const order = arg('--order', 'peers')
if (!Number.isInteger(size) || size < 1000 || (order !== 'peers' && order !== 'query')) {
  console.error('usage: bun bench/cooling.ts [--size 100000] [--order peers|query] (size: a whole number >= 1000)')
  process.exit(2)
}
const PART = 500

const dir = mkdtempSync(join(tmpdir(), 'storeloc-cooling-'))
try {
  const store = openStore(join(dir, 'ours.sqlite'))
  const { locatorId, set } = seedLocator(store, size, 42)
  let records: LocationRecord[] = []
  let json = new Map<string, string>()
  const peersData = () => {
    records = store.locations.all(locatorId).filter((r) => r.status === 'published')
    const ctx = presentContext(
      store.filters.list(locatorId),
      store.customFields.list(locatorId),
      store.priority.list(locatorId),
    )
    json = new Map(records.map((r) => [r.id, JSON.stringify(publicLocation(r, ctx))] as const))
  }
  if (order === 'peers') peersData()
  const registry = new IndexRegistry(store)
  const entry = registry.entry(locatorId)
  while (!entry.index.textIndexReady || !entry.jsonReady) await Bun.sleep(5)
  if (order !== 'peers') peersData()
  const locator = store.locators.get(locatorId)!
  const base = `http://bench.local/public/v1/${locator.publicToken ?? 'token'}/locations?`
  const ours = (qs: string) => {
    registry.sync()
    return locationsBody(registry, locator, base + qs).total
  }
  const typical = scenario(set, 42, 1).types.find((t) => t.key === 'radius_typical')!
  const timed = Array.from({ length: 4 * PART }, typical.gen)
  for (let i = 0; i < WARM_QUERIES; i++) ours(typical.gen())

  const lite = new SqlitePeer(join(dir, 'peer.sqlite'))
  lite.load(records, json)
  records = []
  json = new Map()
  for (const qs of timed) lite.answer(parseQuery(qs))
  Bun.gc(true)

  const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!
  const timeOurs = (qs: string[]) =>
    qs.map((q) => {
      const t = performance.now()
      ours(q)
      return (performance.now() - t) * 1000
    })
  const big = new Float64Array(32 * 1024 * 1024)
  let sink = 0
  const between: [string, ((qs: string[]) => void) | null][] = [
    ['alone', null],
    ['nothing between parts', () => {}],
    ['SQLite between parts', (qs) => qs.forEach((q) => (sink += lite.answer(parseQuery(q)).rows.length))],
    [
      'a 256 MB read between parts',
      () => {
        for (let i = 0; i < big.length; i += 8) sink += big[i]!
      },
    ],
    [
      '15 MB of strings made between parts',
      () => {
        for (let i = 0; i < 10_000; i++) sink += `${'x'.repeat(1500)}${i}`.length
      },
    ],
    [
      '15 MB of strings and a full collection between parts',
      () => {
        for (let i = 0; i < 10_000; i++) sink += `${'x'.repeat(1500)}${i}`.length
        Bun.gc(true)
      },
    ],
  ]
  console.log(
    `${size.toLocaleString('en')} locations, order ${order}: ours' typical radius query, median of ${timed.length} (3 passes), µs`,
  )
  for (const [label, other] of between) {
    const medians: string[] = []
    for (let pass = 0; pass < 3; pass++) {
      const samples: number[] = []
      for (let at = 0; at < timed.length; at += PART) {
        samples.push(...timeOurs(timed.slice(at, at + PART)))
        other?.(timed.slice(at, at + PART))
      }
      medians.push(median(samples).toFixed(1))
    }
    console.log(`- ${label}: ${medians.join(', ')}`)
  }
  for (const gc of ['full', 'none']) {
    if (gc === 'full') Bun.gc(true)
    const samples = timeOurs([...timed, ...timed])
    const steps: string[] = []
    for (let at = 0; at < samples.length; at += 250) steps.push(median(samples.slice(at, at + 250)).toFixed(1))
    console.log(
      `- ${gc === 'full' ? 'after a full collection' : 'without one'}, medians of 250 in a row: ${steps.join(', ')}`,
    )
  }
  if (sink === 0.5) console.log(sink)
  lite.close()
  store.close()
} finally {
  rmSync(dir, { recursive: true, force: true })
}
