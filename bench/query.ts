// Query API benchmark, in process: index build from SQLite, memory, query latency through the same
// code the HTTP route runs, and the cost of a write until the next query sees it.
//
//   bun bench/query.ts [--sizes 10000,100000] [--runs 3] [--out bench/results] [--seed 42]
//
// Each (size, run) runs in a fresh child process (clean heap, cold JIT), with its own temporary
// SQLite database. Writes <out>/query.json and <out>/query.md and prints the markdown.
// The code, by job: query-run.ts (one run, in its child process) and query-report.ts (the runs
// gathered, the targets, query.json and query.md). See bench/README.md.
import { resolve } from 'node:path'
import { queryReport } from './query-report'
import { type RunResult, runOnce } from './query-run'
import { provenance } from './system'

// ---------------------------------------------------------------- options

type Options = {
  sizes: number[]
  runs: number
  out: string
  seed: number
  quick: boolean
  child: { size: number; run: number } | null
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    sizes: [10_000, 100_000],
    runs: 3,
    out: resolve(import.meta.dir, 'results'),
    seed: 42,
    quick: false,
    child: null,
  }
  let childSize = 0
  let childRun = 0
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    const v = () => {
      const x = argv[++i]
      if (x === undefined) throw new Error(`${a} needs a value`)
      return x
    }
    if (a === '--sizes')
      o.sizes = v()
        .split(',')
        .map((s) => Number(s.replace(/_/g, '')))
    else if (a === '--runs') o.runs = Number(v())
    else if (a === '--out') o.out = resolve(v())
    else if (a === '--seed') o.seed = Number(v())
    else if (a === '--quick') {
      // about a minute: 10k only, one run, fewer queries per type (explicit --sizes/--runs after it win)
      o.quick = true
      o.sizes = [10_000]
      o.runs = 1
    } else if (a === '--child-size') childSize = Number(v())
    else if (a === '--child-run') childRun = Number(v())
    else
      throw new Error(
        `unknown option ${a}\nusage: bun bench/query.ts [--quick] [--sizes 10000,100000] [--runs 3] [--out bench/results] [--seed 42]`,
      )
  }
  if (o.sizes.some((n) => !Number.isInteger(n) || n < 1000)) throw new Error('--sizes: whole numbers >= 1000')
  if (!(o.runs >= 1)) throw new Error('--runs must be >= 1')
  if (childSize > 0) o.child = { size: childSize, run: childRun }
  return o
}

// ---------------------------------------------------------------- parent: runs

async function main() {
  const o = parseArgs(Bun.argv.slice(2))
  if (o.child) {
    const r = await runOnce(o.child.size, o.child.run, o.seed, o.quick)
    process.stdout.write(`\n@@RESULT ${JSON.stringify(r)}\n`)
    return
  }
  const prov = provenance(new Date())
  const all: RunResult[] = []
  for (const size of o.sizes) {
    for (let run = 1; run <= o.runs; run++) {
      const t = performance.now()
      const proc = Bun.spawn(
        [
          process.execPath,
          import.meta.path,
          '--child-size',
          String(size),
          '--child-run',
          String(run),
          '--seed',
          String(o.seed),
          ...(o.quick ? ['--quick'] : []),
        ],
        { stdout: 'pipe', stderr: 'inherit' },
      )
      const text = await new Response(proc.stdout).text()
      if ((await proc.exited) !== 0) throw new Error(`run ${run} at ${size} failed`)
      const line = text.split('\n').find((l) => l.startsWith('@@RESULT '))
      if (!line) throw new Error(`run ${run} at ${size}: no result`)
      all.push(JSON.parse(line.slice(9)))
      console.error(`size ${size} run ${run}: ${((performance.now() - t) / 1000).toFixed(1)} s`)
    }
  }
  await queryReport(o, prov, all)
}

await main()
