// An agency's database: many small locators and a few large ones, each with its Query API on, seeded
// as bench/scenario.ts seeds one (its filter groups, custom fields and priority rules). PERF-060.
//
//   bun bench/tenants.ts FILE [--small 500] [--large 3] [--large-size 20000] [--seed 7]
//
// Small locators have 5 to 500 stores, log-uniform; the large ones are spread through the list.
import { openStore } from '../src/store'
import { seedLocator } from './scenario'
import { prng } from './synthetic'

const args = process.argv.slice(2)
const file = args[0]
if (file === undefined || file.startsWith('--'))
  throw new Error('usage: bun bench/tenants.ts FILE [--small N] [--large N] [--large-size N] [--seed N]')
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`)
  return at < 0 ? fallback : Number(args[at + 1])
}
const small = option('small', 500)
const large = option('large', 3)
const largeSize = option('large-size', 20_000)
const rnd = prng(option('seed', 7))

const store = openStore(file)
const t0 = performance.now()
const count = small + large
const every = Math.floor(count / Math.max(1, large))
let locations = 0
let made = 0
for (let i = 0; i < count; i++) {
  const isLarge = made < large && i % every === every >> 1
  if (isLarge) made++
  const size = isLarge ? largeSize : Math.round(5 * 100 ** rnd())
  seedLocator(store, size, 1000 + i)
  locations += size
}
store.close()
console.log(JSON.stringify({ locators: count, locations, ms: Math.round(performance.now() - t0) }))
