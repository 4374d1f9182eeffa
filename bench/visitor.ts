// What a visitor asks, in process, on one seeded locator (100k by default): open_now=true against
// the same radius queries without it, at instants when many and when few stores are open (the
// registry's clock is set: the figures do not depend on the hour the bench runs at); searches with
// a typo (the radius + 1-word searches of bench/scenario.ts, a letter of the word changed); GET
// /places for towns typed letter by letter, and with two letters swapped; and near= on GET
// /locations.
//
//   bun bench/visitor.ts [--size 100000] [--seed 42] [--blocks 40] [--block 250]
//
// Each query is timed alone (performance.now() around the route's body path, locationsBody);
// plain and open blocks alternate, so both see the same state of the machine. Prints, per
// instant, each kind's median and p99 µs and the ratio of the medians.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { locationsBody } from '../src/api/public/answer'
import { queryParams } from '../src/api/public/params'
import { placesAnswer } from '../src/api/public/places'
import { DEFAULT_GEODATA_PATH, ensureGeodata } from '../src/geocode/embedded'
import { placeSearchAt } from '../src/geocode/embedded/place-source'
import { IndexRegistry } from '../src/indexes/registry'
import { openStore } from '../src/store'
import { scenario, seedLocator } from './scenario'
import { generate } from './synthetic'
import { provenance, provenanceLine, readOptions } from './system'

const USAGE = 'usage: bun bench/visitor.ts [--size 100000] [--seed 42] [--blocks 40] [--block 250]'

/** Instants the clock is set to: a weekday morning in Europe (evening in Asia, night in America), and a Sunday night. */
const INSTANTS = [
  { label: 'Wednesday 10:00 UTC', at: Date.parse('2026-12-02T10:00:00Z') },
  { label: 'Sunday 03:00 UTC', at: Date.parse('2026-12-06T03:00:00Z') },
]

/** Towns typed letter by letter: what GET /places and near= are asked. */
const TOWNS = [
  'London',
  'Paris',
  'Berlin',
  'Cologne',
  'Munich',
  'Amsterdam',
  'Rotterdam',
  'Madrid',
  'Barcelona',
  'Lisbon',
  'Milan',
  'Roma',
  'New York',
  'San Francisco',
  'Portland',
  'Springfield',
  'Toronto',
  'Sydney',
  'Saint-Denis',
  'Frankfurt am Main',
  '10115',
  '75008',
  '90210',
]

/** A query string with its search word's third letter changed (null: a word under 4 letters, which takes no typo). */
function withTypo(qs: string): string | null {
  const m = /search=([^&]*)/.exec(qs)
  const word = decodeURIComponent(m![1]!)
  if (word.length < 4) return null
  const typo = word.slice(0, 2) + (word[2] === 'q' ? 'x' : 'q') + word.slice(3)
  return qs.replace(m![0], `search=${encodeURIComponent(typo)}`)
}

/** Each kind's queries timed alone, in rounds: median and p99 µs. */
function timed(kinds: Record<string, { inputs: string[]; run: (input: string) => void }>, rounds: number) {
  const times: Record<string, number[]> = {}
  for (let r = 0; r < rounds + 2; r++)
    for (const [kind, { inputs, run }] of Object.entries(kinds))
      for (const input of inputs) {
        const t0 = performance.now()
        run(input)
        const t = (performance.now() - t0) * 1000
        if (r >= 2) (times[kind] ??= []).push(t)
      }
  return Object.entries(times).map(([kind, ts]) => ({
    kind,
    n: ts.length,
    median: quantile(ts, 0.5),
    p99: quantile(ts, 0.99),
  }))
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!
}

async function main(): Promise<void> {
  const o = { size: 100_000, seed: 42, blocks: 40, block: 250 }
  readOptions(Bun.argv.slice(2), USAGE, (a, _value, int) => {
    if (a === '--size') o.size = int(100)
    else if (a === '--seed') o.seed = int(0)
    else if (a === '--blocks') o.blocks = int(2)
    else if (a === '--block') o.block = int(1)
    else return false
    return true
  })
  const started = new Date()
  const dir = mkdtempSync(join(tmpdir(), 'storeloc-visitor-'))
  try {
    const store = openStore(join(dir, 'bench.db'))
    const { locatorId } = seedLocator(store, o.size, o.seed)
    let now = INSTANTS[0]!.at
    const registry = new IndexRegistry(store, undefined, { now: () => now })
    await registry.preload()
    const locator = store.locators.get(locatorId)!
    const base = `http://127.0.0.1/public/v1/${locator.publicToken}/locations?`
    const typical = scenario(generate(o.size, o.seed), o.seed, 1).types.find((t) => t.key === 'radius_typical')!
    const queries = Array.from({ length: o.block * 8 }, () => typical.gen())
    const lines = [
      '# What a visitor asks: open_now=true',
      '',
      `${o.size.toLocaleString('en')} locations (seed ${o.seed}); ${o.blocks} blocks of ${o.block} queries a kind after 4 warm-up blocks, alternating; each query timed alone (bench/visitor.ts).`,
      provenanceLine(provenance(started)),
      '',
      '| Instant | open share | plain µs median | p99 | open_now=true µs median | p99 | ratio of medians |',
      '|---|---:|---:|---:|---:|---:|---:|',
    ]
    for (const instant of INSTANTS) {
      now = instant.at
      const times = { plain: [] as number[], open: [] as number[] }
      let next = 0
      for (let b = 0; b < o.blocks + 4; b++) {
        for (const kind of ['plain', 'open'] as const) {
          const start = next
          for (let i = 0; i < o.block; i++) {
            const q = queries[(start + i) % queries.length]!
            const url = base + (kind === 'open' ? `${q}&open_now=true` : q)
            const t0 = performance.now()
            locationsBody(registry, locator, url)
            const t = (performance.now() - t0) * 1000
            if (b >= 4) times[kind].push(t)
          }
        }
        next += o.block
      }
      const all = JSON.parse(Buffer.from(locationsBody(registry, locator, `${base}all=true&limit=1`).body).toString())
      const open = JSON.parse(
        Buffer.from(locationsBody(registry, locator, `${base}all=true&limit=1&open_now=true`).body).toString(),
      )
      const share = open.data.pagination.total / all.data.pagination.total
      const [pm, pp, om, op] = [
        quantile(times.plain, 0.5),
        quantile(times.plain, 0.99),
        quantile(times.open, 0.5),
        quantile(times.open, 0.99),
      ]
      lines.push(
        `| ${instant.label} | ${(100 * share).toFixed(0)}% | ${pm.toFixed(1)} | ${pp.toFixed(1)} | ${om.toFixed(1)} | ${op.toFixed(1)} | ${(om / pm).toFixed(2)} |`,
      )
    }
    // Places and near=, at the first instant.
    now = INSTANTS[0]!.at
    await ensureGeodata(DEFAULT_GEODATA_PATH)
    const places = placeSearchAt(DEFAULT_GEODATA_PATH)
    places()
    const index = registry.entry(locatorId).index
    const typed = TOWNS.flatMap((t) => Array.from({ length: t.length }, (_, i) => t.slice(0, i + 1)))
    // Each town's name with two neighbouring letters swapped, typed on from four characters.
    const swapped = TOWNS.filter((t) => /^\p{L}{5,}/u.test(t)).flatMap((t) =>
      Array.from({ length: t.length - 2 }, (_, i) => t.slice(0, i + 1) + t[i + 2] + t[i + 1] + t.slice(i + 3)),
    )
    const misspelt = swapped.flatMap((t) => Array.from({ length: t.length - 3 }, (_, i) => t.slice(0, i + 4)))
    // Texts of many dashes, before each of which a town may stand ("Köln-Ehrenfeld"): PERF-053.
    const dashed = [10, 30, 60, 96].flatMap((n) => [
      `${'a-'.repeat(n)}a`,
      `Berlin${'-x'.repeat(n)}`,
      `${'å–'.repeat(n)}å`,
    ])
    const search1 = scenario(generate(o.size, o.seed), o.seed, 1).types.find((t) => t.key === 'search1')!
    const typoed = Array.from({ length: 400 }, () => withTypo(search1.gen())).filter((q) => q !== null)
    const rows = timed(
      {
        'radius + 1-word search with a typo': {
          inputs: typoed,
          run: (qs) => locationsBody(registry, locator, base + qs),
        },
        'all=true + the same word with a typo': {
          inputs: typoed.map((qs) => `all=true&${/search=[^&]*/.exec(qs)![0]}`),
          run: (qs) => locationsBody(registry, locator, base + qs),
        },
        'GET /places, each prefix of a town typed': {
          inputs: typed.map((q) => `q=${encodeURIComponent(q)}`),
          run: (qs) => JSON.stringify(placesAnswer(places, index, queryParams(qs))),
        },
        'GET /places, a town with two letters swapped, typed on from 4 letters': {
          inputs: misspelt.map((q) => `q=${encodeURIComponent(q)}`),
          run: (qs) => JSON.stringify(placesAnswer(places, index, queryParams(qs))),
        },
        'GET /places, a text of 21 to 193 dashes': {
          inputs: dashed.map((q) => `q=${encodeURIComponent(q)}`),
          run: (qs) => JSON.stringify(placesAnswer(places, index, queryParams(qs))),
        },
        'GET /locations?near=<text of 21 to 193 dashes>': {
          inputs: dashed.map((q) => `near=${encodeURIComponent(q)}`),
          run: (qs) => {
            try {
              return locationsBody(registry, locator, base + qs, places)
            } catch {
              return null // PLACE_NOT_FOUND, as for most of them
            }
          },
        },
        'GET /locations?near=<town>, radius top-20': {
          inputs: TOWNS.map((t) => `near=${encodeURIComponent(t)}`),
          run: (qs) => locationsBody(registry, locator, base + qs, places),
        },
      },
      10,
    )
    lines.push('', '| Request | N | median µs | p99 µs |', '|---|---:|---:|---:|')
    for (const r of rows) lines.push(`| ${r.kind} | ${r.n} | ${r.median.toFixed(1)} | ${r.p99.toFixed(1)} |`)
    console.log(lines.join('\n'))
    store.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
