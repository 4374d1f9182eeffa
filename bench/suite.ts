// The whole benchmark suite (`npm run bench`): the in-process Query API bench, the peers (SQLite
// alone, PostGIS), the HTTP bench and the imports, one after the other so none disturbs another,
// each in its own processes. Writes bench/results/latest.md (every step's report) and
// bench/results/latest.json (every step's record), the only results kept in git; the steps' own
// files beside them ({query,peers,http,import}.{json,md}, 1m/) are not.
//
//   bun bench/suite.ts            10k, 100k and 1M in process (3 runs; 1M 1 run), peers at 100k (3 runs), HTTP at 100k (3 runs), imports of 50k (3 runs)
//   bun bench/suite.ts --quick    about two minutes: 10k everywhere, imports of 5k, 1 run, short measurements
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { provenance, provenanceLine } from './system'

const quick = Bun.argv.includes('--quick')
const unknown = Bun.argv.slice(2).filter((a) => a !== '--quick')
if (unknown.length > 0) {
  console.error(`unknown option ${unknown[0]}\nusage: bun bench/suite.ts [--quick]`)
  process.exit(2)
}
const out = resolve(import.meta.dir, 'results')
mkdirSync(out, { recursive: true })
const bun = process.execPath
const prov = provenance(new Date())

/** Runs one bench; its stdout (markdown) is kept, its stderr (progress) passes through. */
async function step(label: string, args: string[]): Promise<{ ok: boolean; markdown: string; seconds: number }> {
  console.error(`\n== ${label}: bun ${args.join(' ')}`)
  const t = performance.now()
  const proc = Bun.spawn([bun, ...args], { stdout: 'pipe', stderr: 'inherit', cwd: resolve(import.meta.dir, '..') })
  const markdown = await new Response(proc.stdout).text()
  const ok = (await proc.exited) === 0
  const seconds = (performance.now() - t) / 1000
  console.error(`== ${label}: ${ok ? 'done' : 'FAILED'} in ${seconds.toFixed(0)} s`)
  return { ok, markdown, seconds }
}

/** Each step, and the file its --json or --out writes its record to. */
const steps: { name: string; label: string; args: string[]; json: string }[] = quick
  ? [
      {
        name: 'query',
        label: 'in process, 10k',
        args: ['bench/query.ts', '--quick', '--out', out],
        json: join(out, 'query.json'),
      },
      {
        name: 'peers',
        label: 'peers, 10k',
        args: ['bench/peers.ts', '--quick', '--size', '10000', '--runs', '1', '--json', join(out, 'peers.json')],
        json: join(out, 'peers.json'),
      },
      {
        name: 'http',
        label: 'HTTP, 10k',
        args: ['bench/http.ts', '--quick', '--json', join(out, 'http.json')],
        json: join(out, 'http.json'),
      },
      {
        name: 'import',
        label: 'imports, 5k',
        args: ['bench/import.ts', '--quick', '--out', out],
        json: join(out, 'import.json'),
      },
    ]
  : [
      {
        name: 'query',
        label: 'in process, 10k and 100k',
        args: ['bench/query.ts', '--sizes', '10000,100000', '--runs', '3', '--out', out],
        json: join(out, 'query.json'),
      },
      {
        name: 'query-1m',
        label: 'in process, 1M',
        args: ['bench/query.ts', '--sizes', '1000000', '--runs', '1', '--out', join(out, '1m')],
        json: join(out, '1m', 'query.json'),
      },
      {
        name: 'peers',
        label: 'peers, 100k',
        args: ['bench/peers.ts', '--size', '100000', '--runs', '3', '--json', join(out, 'peers.json')],
        json: join(out, 'peers.json'),
      },
      {
        name: 'http',
        label: 'HTTP, 100k',
        args: ['bench/http.ts', '--runs', '3', '--json', join(out, 'http.json')],
        json: join(out, 'http.json'),
      },
      {
        name: 'import',
        label: 'imports, 50k',
        // Queries timed until 15 s after the CLI's exit: past the swap of the index built in the background (PERF-041).
        args: ['bench/import.ts', '--runs', '3', '--settle', '15', '--out', out],
        json: join(out, 'import.json'),
      },
    ]

const sections: string[] = []
const records: { name: string; label: string; ok: boolean; seconds: number; record: unknown }[] = []
let failed = 0
for (const s of steps) {
  // A step's record is read only from this suite's run of it, never kept from an earlier suite.
  rmSync(s.json, { force: true })
  const { ok, markdown, seconds } = await step(s.label, s.args)
  if (!ok) failed++
  // query.ts writes its own query.md; the others' markdown is their stdout. A failed step's report
  // is on the console: its file says so, never left empty nor kept from an earlier suite. A step
  // that cannot run here (HTTP without wrk) says it was skipped and succeeds.
  const md = !ok
    ? `## ${s.label}\n\nFAILED (see the console output).\n`
    : s.name.startsWith('query')
      ? readFileSync(join(s.name === 'query' ? out : join(out, '1m'), 'query.md'), 'utf8')
      : markdown
  if (s.name === 'peers' || s.name === 'http') writeFileSync(join(out, `${s.name}.md`), md)
  sections.push(md)
  const record = ok && existsSync(s.json) ? JSON.parse(readFileSync(s.json, 'utf8')) : null
  records.push({ name: s.name, label: s.label, ok, seconds: Math.round(seconds), record })
}

const header = [
  `# Benchmark suite${quick ? ' (--quick)' : ''}`,
  '',
  `${provenanceLine(prov)} · bun ${Bun.version}`,
  '',
  `Steps: ${steps.map((s) => s.label).join('; ')}. Each section below is one step's own report.`,
  '',
].join('\n')
writeFileSync(
  join(out, 'latest.md'),
  `${header}\n${sections.map((m) => m.replace(/^# /gm, '## ').trim()).join('\n\n')}\n`,
)
// Each step's record as it wrote it (null when the step failed): what latest.md is made from.
const latest = { benchmark: 'suite', ...prov, bun: Bun.version, quick, steps: records }
writeFileSync(join(out, 'latest.json'), `${JSON.stringify(latest, null, 2)}\n`)
console.error(`\nwrote ${join(out, 'latest.md')} and latest.json`)
process.exit(failed > 0 ? 1 : 0)
