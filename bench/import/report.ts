// What the import bench records (import.json) and its markdown report (import.md, and stdout).
import { BULK_MAX_ITEMS } from '../../src/locations/bulk'
import { type Spread, spread } from '../spread'
import { type Provenance, provenanceLine } from '../system'
import type { BulkRun } from './bulk'
import type { CliRun } from './cli'
import { type LiveRun, NEIGHBOUR_SHARE, neighbourSize, WARM_S } from './live'
import type { Latency } from './stream'
import type { ImportOptions } from './options'
import type { Stages } from './stages'

/** The issue's targets, for 50,000 rows (TARGET_ROWS); a run of another size is shown, not judged. */
export const TARGETS = { cliS: 10, bulkS: 20, geocodeS: 60, duringP99Ms: 10, visibleMs: 1000 }
export const TARGET_ROWS = 50_000
/** The idle sync's period (src/server/upkeep.ts, IDLE_SYNC_MS): a commit no query asks for is applied within it. */
export const IDLE_SYNC_MS = 1000

export type GeocodeRun = {
  cold: CliRun
  /** The same file again, into another fresh locator of the same database: the cache filled. */
  warm: CliRun
  /** Rows of the geocode cache after the cold run, and after the warm one. */
  cacheRows: { cold: number; warm: number }
  /** What the CLI said of the geocoding ("Geocoded 50000 addresses: ..."). */
  geocoded: string
}

export type ImportRecord = Provenance & {
  benchmark: 'import'
  versions: { bun: string; sqlite: string }
  options: ImportOptions
  targets: typeof TARGETS
  data: {
    tmpFs: string
    coordinateFileBytes: number
    addressFileBytes: number | null
    distinctAddresses: number | null
  }
  cli: CliRun[]
  bulk: BulkRun[]
  geocode: GeocodeRun[]
  live: LiveRun[]
  stages: { coordinates: Stages | null; addresses: Stages | null }
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : x < 100 ? 1 : 0)} ms`
const pct = (x: number) => `${(x * 100).toFixed(0)}%`

/** The median, and the min–max with N (or "1 run"). */
function cells(v: Spread, f: (x: number) => string): [string, string, string] {
  return [f(v.median), v.runs.length > 1 ? `${f(v.min)}–${f(v.max)}` : '(1 run)', String(v.runs.length)]
}

function verdict(judged: boolean, ok: boolean): string {
  return judged ? (ok ? 'PASS' : '**MISS**') : 'not judged'
}

/** The table of figures against the targets. */
function targetRows(j: ImportRecord): string[] {
  const judged = j.options.rows === TARGET_ROWS
  const n = j.options.rows.toLocaleString('en')
  const out = ['| Figure | median | spread (min–max) | N | target | |', '|---|---:|---:|---:|---|---|']
  const row: RowOf = (label, v, f, target, ok) =>
    out.push(`| ${label} | ${cells(v, f).join(' | ')} | ${target} | ${ok === null ? '' : verdict(judged, ok)} |`)
  if (j.cli.length > 0) {
    const v = spread(j.cli.map((r) => r.wallMs))
    row(
      `CLI import, ${n} CSV rows with coordinates (wall clock)`,
      v,
      s,
      `< ${TARGETS.cliS} s`,
      v.median < TARGETS.cliS * 1000,
    )
  }
  if (j.bulk.length > 0) {
    const v = spread(j.bulk.map((r) => r.totalMs))
    const req = j.bulk[0]!.requests
    row(
      `bulk endpoint, ${n} in ${req} sequential requests`,
      v,
      s,
      `< ${TARGETS.bulkS} s`,
      v.median < TARGETS.bulkS * 1000,
    )
  }
  if (j.geocode.length > 0) {
    const cold = spread(j.geocode.map((r) => r.cold.wallMs))
    row(
      `CLI import, ${n} addresses geocoded, cache empty`,
      cold,
      s,
      `< ${TARGETS.geocodeS} s`,
      cold.median < TARGETS.geocodeS * 1000,
    )
    row('the same file again, cache filled', spread(j.geocode.map((r) => r.warm.wallMs)), s, '(no target)', null)
  }
  if (j.live.length > 0) liveTargetRows(j.live, row)
  return out
}

type RowOf = (label: string, v: Spread, f: (x: number) => string, target: string, ok: boolean | null) => void

/** The live step's rows of the targets' table. */
function liveTargetRows(live: LiveRun[], row: RowOf): void {
  const of = (f: (r: LiveRun) => number) => spread(live.map(f))
  const p99 = of((r) => r.during.p99)
  row('public queries during the import: p99', p99, ms, `< ${TARGETS.duringP99Ms} ms`, p99.median < TARGETS.duringP99Ms)
  const shown: [string, (r: LiveRun) => number, string][] = [
    ['… p50', (r) => r.during.p50, ''],
    ['… max', (r) => r.during.max, ''],
    ['… p99 of those sent before the commit', (r) => r.beforeCommit.p99, ''],
    ['the same queries without an import: p99', (r) => r.without.p99, '(reference)'],
    ['… p50', (r) => r.without.p50, ''],
    ['… max', (r) => r.without.max, ''],
    ['queries to another locator of the server during the import: p99', (r) => r.neighbour.during.p99, ''],
    ['… max', (r) => r.neighbour.during.max, ''],
  ]
  for (const [label, f, target] of shown) row(label, of(f), ms, target, null)
  const label = 'CLI exit → first public answer holding the new locations'
  if (live.every((r) => r.visibleMs !== null && r.visibleAfterCommitMs !== null)) {
    const v = of((r) => r.visibleMs!)
    row(label, v, ms, `≤ ${IDLE_SYNC_MS} ms (the idle sync)`, v.median <= TARGETS.visibleMs)
    row(
      '… from the commit',
      of((r) => r.visibleAfterCommitMs!),
      ms,
      '',
      null,
    )
  } else row(label, spread([Number.NaN]), () => '**never seen**', '', false)
}

function cliRunsTable(title: string, runs: CliRun[]): string[] {
  const out = [
    `${title}:`,
    '',
    '| run | wall | user CPU | system CPU | max RSS | other load |',
    '|---:|---:|---:|---:|---:|---:|',
  ]
  runs.forEach((r, i) =>
    out.push(
      `| ${i + 1} | ${s(r.wallMs)} | ${r.userS.toFixed(1)} s | ${r.sysS.toFixed(1)} s | ${r.maxRssMB.toFixed(0)} MB | ${pct(r.otherCpu)} of a core |`,
    ),
  )
  return [...out, '']
}

function stagesTable(st: ImportRecord['stages']): string[] {
  const cols = [
    ['coordinates', st.coordinates],
    ['addresses', st.addresses],
  ] as const
  const present = cols.filter(([, x]) => x !== null) as [string, Stages][]
  if (present.length === 0) return []
  const line = (label: string, f: (x: Stages) => string) => `| ${label} | ${present.map(([, x]) => f(x)).join(' | ')} |`
  return [
    "Where the time goes: the CLI's steps run in the bench's process on a fresh database, timed apart (one run each; the CLI adds Bun's start and its output):",
    '',
    `| Stage | ${present.map(([k]) => `file with ${k}`).join(' | ')} |`,
    `|---|${present.map(() => '---:').join('|')}|`,
    line('read and parse the CSV', (x) => s(x.readMs)),
    line('check and match every row', (x) => s(x.checkMs)),
    line('open the geocoder', (x) => (x.geocoded > 0 ? s(x.geocoderMs) : '—')),
    line('geocode, one address after the other, each answer committed to the cache', (x) =>
      x.geocoded > 0 ? `${s(x.geocodeMs)} (${x.geocoded.toLocaleString('en')})` : '—',
    ),
    line('… of which the resolver alone, no cache', (x) => (x.resolverMs === null ? '—' : s(x.resolverMs))),
    line('write transaction, to its commit', (x) => s(x.writeMs)),
    line('total', (x) => s(x.totalMs)),
    '',
  ]
}

function liveTable(j: ImportRecord): string[] {
  const o = j.options
  const lat = (l: Latency) =>
    `${ms(l.p50)} / ${ms(l.p99)} / ${ms(l.max)} (${l.n})${l.errors > 0 ? ` (**${l.errors} errors**)` : ''}`
  const out = [
    `Queries meanwhile: the service (WORKERS=1, pinned to CPU 0) on a locator of ${o.base.toLocaleString('en')} seeded stores and another of ${neighbourSize(o.base).toLocaleString('en')}. ${o.rate} public radius queries a second to the first (typical centre, distinct paths) and ${o.rate * NEIGHBOUR_SHARE} to the other, sent at a steady pace whatever the answers, from one client, after ${WARM_S} s of them discarded. First ${o.baseline} s with nothing else running, then from the CLI's spawn, importing ${o.rows.toLocaleString('en')} rows with coordinates into the first locator, to ${o.settle} s after its exit. A probe asks one query after the other for a small circle around the file's last row, alone in open sea, until an answer holds it. Latencies: p50 / p99 / max (N).`,
    '',
    '| run | without | during | sent before the commit | sent after | other locator, without | other locator, during | other load without / during |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
  ]
  for (const r of j.live)
    out.push(
      `| ${r.run} | ${lat(r.without)} | ${lat(r.during)} | ${lat(r.beforeCommit)} | ${lat(r.afterCommit)} | ${lat(r.neighbour.without)} | ${lat(r.neighbour.during)} | ${pct(r.otherCpu.without)} / ${pct(r.otherCpu.during)} |`,
    )
  out.push(
    '',
    "| run | CLI wall | slowest query, sent from the CLI exit | visible after the exit (that query's time) | after the commit | the server rebuilt the index from the rows | its build in the background, to the swap | a build in one piece, in process |",
    '|---:|---:|---:|---:|---:|---|---:|---:|',
  )
  for (const r of j.live) {
    const seen = r.visibleMs === null ? '—' : `${ms(r.visibleMs)} (${ms(r.visibleQueryMs!)})`
    const fromCommit = r.visibleAfterCommitMs === null ? '—' : ms(r.visibleAfterCommitMs)
    out.push(
      `| ${r.run} | ${s(r.cli.wallMs)} | ${ms(r.slowestSentFromExitMs)} | ${seen} | ${fromCommit} | ${r.rebuilt ? 'yes' : 'no'} | ${r.backgroundMs === null ? '—' : ms(r.backgroundMs)} | ${ms(r.buildMs)} |`,
    )
  }
  out.push(
    '',
    "The commit is the change log's time of the import's last change, written just before the commit. The build in the background is the server's, from the backlog's discovery to the swap, as it logged it; a build in one piece is the locator's index built from its rows after the import, in the bench's process, as a query that finds no index builds it.",
  )
  const late = j.live.reduce((a, r) => a + r.late.without + r.late.during, 0)
  if (late > 0)
    out.push(
      '',
      `The client sent ${late} queries more than 5 ms after their due time: it was busy, the pace not kept then.`,
    )
  return [...out, '']
}

/** The markdown report. */
export function report(j: ImportRecord): string {
  const o = j.options
  const md: string[] = [
    '# Import benchmark',
    '',
    `${provenanceLine(j)} · bun ${j.versions.bun} · SQLite ${j.versions.sqlite}`,
    '',
  ]
  md.push(
    `${o.rows.toLocaleString('en')} rows a file, ${o.runs} run${o.runs > 1 ? 's' : ''} of each figure, every run on a fresh database and a fresh locator (Query API on), database files on ${j.data.tmpFs} in the system's temporary folder; SQLite WAL, synchronous=FULL. Figures: the median over runs, the spread min–max.` +
      (o.rows === TARGET_ROWS
        ? ''
        : ` The targets are for ${TARGET_ROWS.toLocaleString('en')} rows: not judged at this size.`),
    '',
    ...targetRows(j),
    '',
  )
  const worst = Math.max(
    ...j.cli.map((r) => r.otherCpu),
    ...j.bulk.map((r) => r.otherCpu),
    ...j.geocode.flatMap((r) => [r.cold.otherCpu, r.warm.otherCpu]),
    ...j.live.map((r) => r.otherCpu.during),
    0,
  )
  if (worst > 0.05)
    md.push(
      `**Other processes used up to ${pct(worst)} of a core during a measurement: the machine was shared, and these figures are disturbed.**`,
      '',
    )
  if (j.cli.length > 0) md.push(...cliRunsTable('CLI, rows with coordinates', j.cli))
  if (j.bulk.length > 0) {
    const per = spread(j.bulk.flatMap((r) => r.requestMs))
    md.push(
      `Bulk endpoint: the service as the HTTP bench starts it (WORKERS=1 pinned to CPU 0, GEOCODER=none: every row has coordinates), JSON bodies of ${BULK_MAX_ITEMS.toLocaleString('en')} locations made before the clock starts, one request after the other. A request took ${ms(per.median)} at the median, ${ms(per.min)}–${ms(per.max)} over all runs; the server used ${pct(spread(j.bulk.map((r) => r.serverCpu)).median)} of a core meanwhile.`,
      '',
    )
  }
  if (j.geocode.length > 0) {
    const g = j.geocode
    const added = g.map((r) => r.cacheRows.warm - r.cacheRows.cold)
    md.push(
      `Addresses only: ${j.data.distinctAddresses?.toLocaleString('en')} distinct addresses among ${o.rows.toLocaleString('en')} rows (house numbers and streets varied over the demo's real postcodes and towns; only towns the embedded geocoder places), the default GEOCODER (embedded). ${g[0]!.geocoded}`,
      '',
      `The geocode cache: ${g.map((r) => r.cacheRows.cold.toLocaleString('en')).join(', ')} rows after the run with it empty; ${added.map((x) => x.toLocaleString('en')).join(', ')} added by the same file again${added.every((x) => x === 0) ? ': every address was answered from the cache' : ''}.`,
      '',
      ...cliRunsTable(
        'Cache empty',
        g.map((r) => r.cold),
      ),
      ...cliRunsTable(
        'Cache filled',
        g.map((r) => r.warm),
      ),
    )
  }
  md.push(...stagesTable(j.stages))
  if (j.live.length > 0) md.push(...liveTable(j))
  return md.join('\n')
}
