// Peers: the same synthetic stores and the same public query strings as bench/query.ts, answered
// the way a simple implementation would, so our in-memory index can be reported as a ratio to them:
//   (a) SQLite alone (bun:sqlite): a (lat, lng) btree, haversine in SQL, tags in a side table,
//       FTS5 for search;
//   (b) PostGIS (Debian's postgresql + postgis, started on 127.0.0.1 by this bench): KNN
//       `ORDER BY geog <-> point` within `ST_DWithin`, tags as text[] with GIN, a tsvector for search.
//       Skipped, with a line saying why, when it cannot be installed or started.
//
//   bun bench/peers.ts [--size 100000] [--seed 42] [--runs 3] [--json <path>] [--quick] [--no-ours] [--explain]
//
// Each run (--runs, 3 by default, 1 with --quick) is a fresh process with its own query strings;
// the report gives each figure and each ratio as the median over runs with its min-max spread.
//
// The code, by job, in bench/peers/: query.ts (the query string as a peer reads it), sqlite.ts and
// postgis.ts (the peers), timing.ts (the engines taking turns), run.ts (one run: runPeers),
// report.ts (the runs gathered, the markdown) and types.ts. See bench/README.md, "Peers".
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { provenance, provenanceLine, readOptions } from './system'
import { peersMarkdown, peersReport } from './peers/report'
import { runPeers } from './peers/run'
import type { PeersResult } from './peers/types'

type Cli = {
  size: number
  seed: number
  runs: number
  json: string | null
  quick: boolean
  ours: boolean
  explain: boolean
  childRun: number | null
}

function parseArgs(argv: string[]): Cli {
  const quick = argv.includes('--quick')
  const o: Cli = {
    size: 100_000,
    seed: 42,
    runs: quick ? 1 : 3,
    json: null,
    quick,
    ours: true,
    explain: false,
    childRun: null,
  }
  const usage =
    'usage: bun bench/peers.ts [--size 100000] [--seed 42] [--runs 3] [--json <path>] [--quick] [--no-ours] [--explain]'
  readOptions(argv, usage, (a, v) => {
    if (a === '--size') o.size = Number(v().replace(/_/g, ''))
    else if (a === '--seed') o.seed = Number(v())
    else if (a === '--runs') o.runs = Number(v())
    else if (a === '--json') o.json = resolve(v())
    else if (a === '--quick') return true
    else if (a === '--no-ours') o.ours = false
    else if (a === '--explain') o.explain = true
    else if (a === '--child-run') o.childRun = Number(v())
    else return false
    return true
  })
  if (!Number.isInteger(o.size) || o.size < 1000) throw new Error('--size: a whole number >= 1000')
  if (!Number.isInteger(o.runs) || o.runs < 1) throw new Error('--runs: a whole number >= 1')
  return o
}

if (import.meta.main) {
  const o = parseArgs(Bun.argv.slice(2))
  if (o.childRun !== null) {
    // One run, in its own process (clean heap, cold JIT), as bench/query.ts runs each: its result goes to the parent on stdout.
    const r = await runPeers({
      size: o.size,
      seed: o.seed,
      run: o.childRun,
      quick: o.quick,
      ours: o.ours,
      explain: o.explain,
    })
    process.stdout.write(`\n@@RESULT ${JSON.stringify(r)}\n`)
  } else {
    const started = performance.now()
    const prov = provenance(new Date())
    const runs: PeersResult[] = []
    for (let run = 1; run <= o.runs; run++) {
      const t = performance.now()
      const flags = [
        ...(o.quick ? ['--quick'] : []),
        ...(o.ours ? [] : ['--no-ours']),
        ...(o.explain ? ['--explain'] : []),
      ]
      const proc = Bun.spawn(
        [
          process.execPath,
          import.meta.path,
          '--child-run',
          String(run),
          '--size',
          String(o.size),
          '--seed',
          String(o.seed),
          ...flags,
        ],
        { stdout: 'pipe', stderr: 'inherit' },
      )
      const text = await new Response(proc.stdout).text()
      if ((await proc.exited) !== 0) throw new Error(`peers run ${run} failed`)
      const line = text.split('\n').find((l) => l.startsWith('@@RESULT '))
      if (!line) throw new Error(`peers run ${run}: no result`)
      runs.push(JSON.parse(line.slice(9)))
      console.error(`peers run ${run}: ${((performance.now() - t) / 1000).toFixed(0)} s`)
    }
    const report = peersReport(prov, { size: o.size, seed: o.seed, runs: o.runs, quick: o.quick, ours: o.ours }, runs)
    console.log(
      `# Peers benchmark\n\n${provenanceLine(prov)} · bun ${report.versions.bun}${o.quick ? ' · --quick' : ''}\n`,
    )
    console.log(peersMarkdown(report))
    if (o.json) writeFileSync(o.json, `${JSON.stringify(report, null, 2)}\n`)
    console.error(`peers: ${((performance.now() - started) / 1000).toFixed(0)} s`)
  }
}
