// The import bench's options.
import { resolve } from 'node:path'
import { readOptions } from '../system'
import { ROOT } from '../http/options'

export const STEPS = ['cli', 'bulk', 'geocode', 'live'] as const
export type Step = (typeof STEPS)[number]

export type ImportOptions = {
  /** Rows a file (and a run) holds. */
  rows: number
  /** Runs of each figure. */
  runs: number
  seed: number
  /** The live step's locator: this many seeded stores before the import adds its rows. */
  base: number
  /** Public queries a second in the live step, sent at a steady pace whatever the answers. */
  rate: number
  /** Seconds of queries without an import, before each live run's import. */
  baseline: number
  /** Seconds the live step's queries go on after the CLI exits. */
  settle: number
  steps: Step[]
  /** Where import.json and import.md are written. */
  out: string
  quick: boolean
}

export const USAGE =
  'usage: bun bench/import.ts [--rows 50000] [--runs 3] [--seed 42] [--base 100000] [--rate 200] [--baseline 10] [--settle 3] [--steps cli,bulk,geocode,live] [--out bench/results] [--quick]'

export function parseImportArgs(argv: string[]): ImportOptions {
  const quick = argv.includes('--quick')
  const o: ImportOptions = {
    rows: quick ? 5000 : 50_000,
    runs: quick ? 1 : 3,
    seed: 42,
    base: quick ? 10_000 : 100_000,
    rate: 200,
    baseline: quick ? 3 : 10,
    settle: 3,
    steps: [...STEPS],
    out: resolve(ROOT, 'bench/results'),
    quick,
  }
  readOptions(argv, USAGE, (a, v, int) => {
    if (a === '--quick') return true
    else if (a === '--rows') o.rows = int(10)
    else if (a === '--runs') o.runs = int(1)
    else if (a === '--seed') o.seed = int(0)
    else if (a === '--base') o.base = int(100)
    else if (a === '--rate') o.rate = int(1)
    else if (a === '--baseline') o.baseline = int(1)
    else if (a === '--settle') o.settle = int(1)
    else if (a === '--out') o.out = resolve(v())
    else if (a === '--steps') {
      const asked = v().split(',')
      const bad = asked.find((s) => !(STEPS as readonly string[]).includes(s))
      if (bad !== undefined) throw new Error(`--steps: unknown step ${bad}; known: ${STEPS.join(', ')}\n${USAGE}`)
      o.steps = asked as Step[]
    } else return false
    return true
  })
  return o
}
