// Paired comparison of two versions of the query path: the working tree against a commit (--base),
// both loaded into this one process, each with its own database seeded alike and its own index,
// answering the same query strings in alternating blocks. A change of 1-2% to a typical answer is
// within the spread of separate processes (the machine's mood moves a process's figures by more);
// alternating blocks in one process see the same mood, so their ratio resolves it.
//
//   bun bench/pair.ts [--base HEAD] [--size 100000] [--seed 42] [--types radius_typical,tags_any,...]
//                     [--blocks 200] [--block 200] [--warm 20] [--cool]
//
// The base's src/ and bench/ are taken from git (`git archive`) into a temporary folder, beside a
// link to this tree's node_modules; each tree seeds its own database with its own seedLocator
// (same size and seed) and answers through its own locationsBody, the route's body path. The query
// strings are this tree's (bench/scenario.ts, run 1). A base too old for these names (seedLocator,
// IndexRegistry.preload, locationsBody) cannot be compared this way.
//
// --cool: a full collection (Bun.gc(true)) before each side's block, so each is timed with its
// caches cooled as the peers step's turns cool them (peers.ts: a collection over a large heap, or
// another engine's work, pushes ours' arrays out of the CPU's caches; the first queries after one
// are slower for a thousand queries or more). Then use blocks of 250 or more, fewer of them.
//
// Prints, per query type, each side's median µs per query over the measured blocks, and the
// median and quartiles of the per-block ratios (working tree ÷ base): below 1, the working tree is
// faster.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { checkout, commitOf } from './base-tree'
import { scenario } from './scenario'
import { readOptions } from './system'

const ROOT = resolve(import.meta.dir, '..')
const USAGE =
  'usage: bun bench/pair.ts [--base HEAD] [--size 100000] [--seed 42] [--types radius_typical,tags_any,tags_all,tags_match,search1] [--blocks 200] [--block 200] [--warm 20] [--cool]'

type Options = {
  base: string
  size: number
  seed: number
  types: string[]
  blocks: number
  block: number
  warm: number
  cool: boolean
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    base: 'HEAD',
    size: 100_000,
    seed: 42,
    types: ['radius_typical', 'tags_any', 'tags_all', 'tags_match', 'search1'],
    blocks: 200,
    block: 200,
    warm: 20,
    cool: false,
  }
  readOptions(argv, USAGE, (a, value, int) => {
    if (a === '--base') o.base = value()
    else if (a === '--size') o.size = int(100)
    else if (a === '--seed') o.seed = int(0)
    else if (a === '--types') o.types = value().split(',')
    else if (a === '--blocks') o.blocks = int(2)
    else if (a === '--block') o.block = int(1)
    else if (a === '--warm') o.warm = int(0)
    else if (a === '--cool') o.cool = true
    else return false
    return true
  })
  return o
}

type Side = { label: string; body: (query: string) => void }

/** One tree's route body path over its own database, seeded and built (its background work done). */
async function side(label: string, tree: string, db: string, o: Options): Promise<Side> {
  // Trees before the layer folders (src/api, src/indexes) keep both halves in src/public.
  const layered = existsSync(join(tree, 'src/indexes/registry.ts'))
  const { openStore } = await import(join(tree, 'src/store'))
  const { locationsBody } = await import(join(tree, layered ? 'src/api/public/answer' : 'src/public'))
  const { IndexRegistry } = await import(join(tree, layered ? 'src/indexes/registry' : 'src/public/registry'))
  const { seedLocator } = await import(join(tree, 'bench/scenario'))
  const store = openStore(db)
  const { locatorId } = seedLocator(store, o.size, o.seed)
  const registry = new IndexRegistry(store)
  await registry.preload()
  const locator = store.locators.get(locatorId)
  const base = `http://127.0.0.1/public/v1/${locator.publicToken}/locations?`
  return { label, body: (query) => void locationsBody(registry, locator, base + query) }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!

async function main(): Promise<void> {
  const o = parseArgs(Bun.argv.slice(2))
  const commit = commitOf(o.base)
  const tmp = mkdtempSync(join(tmpdir(), 'storeloc-pair-'))
  try {
    const baseTree = join(tmp, 'base')
    mkdirSync(baseTree)
    checkout(commit, baseTree, ['src', 'bench'])
    console.error(`[pair] base ${commit.slice(0, 7)} in ${baseTree}; seeding ${o.size} locations for each side`)
    const { generate } = await import('./synthetic')
    const sc = scenario(generate(o.size, o.seed), o.seed, 1)
    const types = o.types.map((key) => {
      const type = sc.types.find((t) => t.key === key)
      if (!type) throw new Error(`--types: unknown query type ${key}; known: ${sc.types.map((t) => t.key).join(', ')}`)
      return type
    })
    const base = await side(`base ${commit.slice(0, 7)}`, baseTree, join(tmp, 'base.db'), o)
    const work = await side('working tree', ROOT, join(tmp, 'work.db'), o)
    const rows: string[] = []
    for (const type of types) {
      const total = o.warm + o.blocks
      const queries = Array.from({ length: total * o.block }, () => type.gen())
      const times: Record<'base' | 'work', number[]> = { base: [], work: [] }
      for (let b = 0; b < total; b++) {
        const slice = queries.slice(b * o.block, (b + 1) * o.block)
        // The same strings for both, the order turned each block.
        for (const which of b % 2 === 0 ? (['base', 'work'] as const) : (['work', 'base'] as const)) {
          const s = which === 'base' ? base : work
          if (o.cool) Bun.gc(true)
          const t = performance.now()
          for (const q of slice) s.body(q)
          if (b >= o.warm) times[which].push(((performance.now() - t) * 1000) / o.block)
        }
      }
      const ratios = times.work.map((w, i) => w / times.base[i]!)
      rows.push(
        `| ${type.label} | ${median(times.base).toFixed(2)} | ${median(times.work).toFixed(2)} | ${median(ratios).toFixed(3)} | ${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)} |`,
      )
      console.error(`[pair] ${type.key} done`)
    }
    const md = [
      `# Paired comparison: working tree against ${commit.slice(0, 7)}`,
      '',
      `${o.size.toLocaleString('en')} locations (seed ${o.seed}) each; ${o.blocks} measured blocks of ${o.block} queries a side after ${o.warm} warm-up blocks, alternating (bench/pair.ts)${o.cool ? "; a full collection before each side's block (--cool)" : ''}.`,
      '',
      '| Query | base µs/query (median) | working tree | working ÷ base, median of blocks | quartiles |',
      '|---|---:|---:|---:|---:|',
      ...rows,
      '',
    ].join('\n')
    console.log(md)
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

try {
  await main()
} catch (e) {
  console.error(e instanceof Error ? e.message : e)
  process.exitCode = 1
}
