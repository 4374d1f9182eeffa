// The cost of counting requests for GET /metrics, through app.handle: two apps on one database,
// one with metrics and one without, answering the same public requests in alternating blocks in
// this one process (so both see the machine's same mood; see pair.ts).
//
//   bun bench/metrics.ts [--size 100000] [--seed 42] [--mode kept|made] [--log] [--blocks 300] [--block 200]
//
// --mode kept: one URL over and over, answered from the answer cache (the cheapest request, so
// the counting's share is largest); made: distinct typical radius queries, each answer made.
// --log: LOG_REQUESTS on (the request's clock is then read anyway).
//
// Prints each side's median µs per request, and the median and quartiles of the per-block
// difference (with - without, µs) and ratio.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { noGeocoder } from '../src/geocode/geocoder'
import { type App, createApp } from '../src/server/app'
import { RequestMetrics } from '../src/server/metrics'
import { openStore } from '../src/store'
import { scenario, seedLocator } from './scenario'
import { readOptions } from './system'

const USAGE =
  'usage: bun bench/metrics.ts [--size 100000] [--seed 42] [--mode kept|made] [--log] [--blocks 300] [--block 200]'

const o = { size: 100_000, seed: 42, mode: 'kept', log: false, blocks: 300, block: 200 }
readOptions(Bun.argv.slice(2), USAGE, (a, value, int) => {
  if (a === '--size') o.size = int(100)
  else if (a === '--seed') o.seed = int(0)
  else if (a === '--mode') o.mode = value()
  else if (a === '--log') o.log = true
  else if (a === '--blocks') o.blocks = int(2)
  else if (a === '--block') o.block = int(1)
  else return false
  return true
})
if (o.mode !== 'kept' && o.mode !== 'made') throw new Error(`--mode must be kept or made; got ${o.mode}\n${USAGE}`)

const dir = mkdtempSync(join(tmpdir(), 'metrics-cost-'))
const store = openStore(join(dir, 'db.sqlite'))
const seeded = seedLocator(store, o.size, o.seed)
store.write(() => store.locators.updateSettings(seeded.locatorId, { rateLimit: 2_000_000_000 }))
const token = store.locators.get(seeded.locatorId)!.publicToken
const config = { maxBodyBytes: 256 * 1024, logRequests: o.log }
const log = () => {}
const withMetrics = createApp({ store, geocoder: noGeocoder, config, log, metrics: new RequestMetrics() })
const without = createApp({ store, geocoder: noGeocoder, config, log })
await withMetrics.preload()
await without.preload()
const type = scenario(seeded.set, o.seed, 1).types.find((t) => t.key === 'radius_typical')!
const strings = Array.from({ length: 4000 }, () => type.gen())
const url = (i: number) =>
  `http://localhost/public/v1/${token}/locations?${o.mode === 'kept' ? strings[0] : strings[i % strings.length]}`

let statuses = 0
/** µs per request of a block of `o.block` requests from `start`, all answered on the fast path. */
function block(app: App, start: number): number {
  const requests = Array.from({ length: o.block }, (_, i) => new Request(url(start + i)))
  const t0 = performance.now()
  for (const request of requests) {
    const response = app.handle(request)
    if (response instanceof Promise) throw new Error('a request left the fast path: the comparison would not be fair')
    statuses += response.status
  }
  return ((performance.now() - t0) * 1000) / o.block
}

for (let b = 0; b < 30; b++) {
  block(withMetrics, b * o.block)
  block(without, b * o.block)
}
const on: number[] = []
const off: number[] = []
for (let b = 0; b < o.blocks; b++) {
  const start = (b * o.block) % strings.length
  // Alternate which side goes first, so neither always follows the other's garbage.
  if (b % 2 === 0) {
    on.push(block(withMetrics, start))
    off.push(block(without, start))
  } else {
    off.push(block(without, start))
    on.push(block(withMetrics, start))
  }
}
const q = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.floor(p * (xs.length - 1))]!
const diffs = on.map((x, i) => x - off[i]!)
const ratios = on.map((x, i) => x / off[i]!)
const f = (x: number) => Number(x.toFixed(3))
console.log(
  JSON.stringify({
    size: o.size,
    mode: o.mode,
    log: o.log,
    blocks: o.blocks,
    block: o.block,
    with_us: f(q(on, 0.5)),
    without_us: f(q(off, 0.5)),
    diff_us: { p25: f(q(diffs, 0.25)), median: f(q(diffs, 0.5)), p75: f(q(diffs, 0.75)) },
    ratio: { p25: f(q(ratios, 0.25)), median: f(q(ratios, 0.5)), p75: f(q(ratios, 0.75)) },
    answered: statuses > 0,
  }),
)
store.close()
rmSync(dir, { recursive: true, force: true })
