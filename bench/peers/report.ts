// The runs gathered (each figure's median and min-max over runs, each ratio taken per run) into what
// --json writes, and the markdown report.
import { type Spread, spread } from '../spread'
import type { Provenance } from '../system'
import type { PeerResult, PeersResult, PeerStat, SanityCheck } from './types'

/** One engine's figures for one query type across runs (µs). mean: rows returned for a peer, the total for ours. */
export type EngineSpread = { n: number[]; median: Spread; p99: Spread; max: Spread; mean: Spread }

/** What --json writes: what was measured where, the spread across runs, and every run's own result. */
export type PeersReport = Provenance & {
  benchmark: 'peers'
  versions: { bun: string; sqlite: string; postgis: string | null }
  options: { size: number; seed: number; runs: number; quick: boolean; ours: boolean }
  labels: Record<string, string>
  /** Engine ("ours", "sqlite", "postgis": those that ran in some run) -> query type -> figures across the runs it ran in. */
  engines: Record<string, Record<string, EngineSpread>>
  /** Peer -> query type -> the peer's median ÷ ours and p99 ÷ ours, taken per run (runs where both ran). */
  ratios: Record<string, Record<string, { median: Spread; p99: Spread }>>
  /** Query type -> compared queries whose ids (in order) and total were the same on every engine, of those compared, over all runs. */
  sameAnswers: Record<string, { same: number; of: number }>
  /** The first differing answers, with their run. */
  differences: (SanityCheck['differences'][number] & { run: number })[]
  /** Runs in which PostGIS did not run, and why. */
  postgisSkipped: { run: number; reason: string }[]
  runs: PeersResult[]
}

const ENGINE_NAMES: Record<string, string> = { ours: 'ours', sqlite: 'SQLite', postgis: 'PostGIS' }

export function peersReport(prov: Provenance, options: PeersReport['options'], runs: PeersResult[]): PeersReport {
  const first = runs[0]!
  const ran = (r: PeersResult): PeerResult | null => ('skipped' in r.postgis ? null : r.postgis)
  const perEngine: Record<
    string,
    (
      r: PeersResult,
    ) => Record<
      string,
      { n: number; median: number; p99: number; max: number; mean: number; ours?: PeerStat['ours'] }
    > | null
  > = {
    ours: (r) =>
      r.ours
        ? Object.fromEntries(Object.entries(r.ours.queries).map(([k, q]) => [k, { ...q, mean: q.meanTotal }]))
        : null,
    sqlite: (r) =>
      Object.fromEntries(Object.entries(r.sqlite.queries).map(([k, q]) => [k, { ...q, mean: q.meanHits }])),
    postgis: (r) => {
      const pg = ran(r)
      return pg ? Object.fromEntries(Object.entries(pg.queries).map(([k, q]) => [k, { ...q, mean: q.meanHits }])) : null
    },
  }
  const keys = Object.keys(first.labels)
  const engines: PeersReport['engines'] = {}
  const ratios: PeersReport['ratios'] = {}
  for (const [name, of] of Object.entries(perEngine)) {
    const each = runs.map(of)
    const present = each.filter((x): x is NonNullable<typeof x> => x !== null)
    if (present.length === 0) continue
    engines[name] = Object.fromEntries(
      keys.map((k) => {
        const qs = present.map((x) => x[k]!)
        return [
          k,
          {
            n: qs.map((q) => q.n),
            median: spread(qs.map((q) => q.median)),
            p99: spread(qs.map((q) => q.p99)),
            max: spread(qs.map((q) => q.max)),
            mean: spread(qs.map((q) => q.mean)),
          },
        ]
      }),
    )
    if (name === 'ours') continue
    const ours = runs.map(perEngine.ours!)
    const pairs = each
      .map((x, i) => [x, ours[i]] as const)
      .filter((p): p is [NonNullable<(typeof p)[0]>, NonNullable<(typeof p)[1]>] => p[0] !== null && p[1] !== null)
    if (pairs.length > 0) {
      // Against ours on the same queries where the record has them (the peer's budget may have stopped it short).
      ratios[name] = Object.fromEntries(
        keys.map((k) => [
          k,
          {
            median: spread(pairs.map(([x, o]) => x[k]!.median / (x[k]!.ours?.median ?? o[k]!.median))),
            p99: spread(pairs.map(([x, o]) => x[k]!.p99 / (x[k]!.ours?.p99 ?? o[k]!.p99))),
          },
        ]),
      )
    }
  }
  const sameAnswers: PeersReport['sameAnswers'] = {}
  for (const k of keys) {
    const compared = runs.filter((r) => r.sanity.engines.length >= 2)
    sameAnswers[k] = {
      same: compared.reduce((a, r) => a + (r.sanity.identical[k] ?? 0), 0),
      of: compared.reduce((a, r) => a + r.sanity.perType, 0),
    }
  }
  return {
    benchmark: 'peers',
    ...prov,
    versions: {
      bun: Bun.version,
      sqlite: first.sqlite.version,
      postgis: runs.map(ran).find((x) => x !== null)?.version ?? null,
    },
    options,
    labels: first.labels,
    engines,
    ratios,
    sameAnswers,
    differences: runs.flatMap((r) => r.sanity.differences.map((d) => ({ ...d, run: r.run }))).slice(0, 5),
    postgisSkipped: runs.flatMap((r) => ('skipped' in r.postgis ? [{ run: r.run, reason: r.postgis.skipped }] : [])),
    runs,
  }
}

export function fmtUs(us: number): string {
  if (us >= 1000) return `${(us / 1000).toFixed(us >= 10_000 ? 0 : 1)} ms`
  return `${us.toFixed(us >= 100 ? 0 : 1)} µs`
}

const TARGET_RATIO: Record<string, number> = { sqlite: 20, postgis: 10 }

export function peersMarkdown(r: PeersReport): string {
  const runs = r.runs.length
  const md: string[] = []
  const pg = r.engines.postgis ? r.runs.map((x) => x.postgis).find((x): x is PeerResult => !('skipped' in x))! : null
  const loads = (f: (x: PeersResult) => number) => spread(r.runs.map(f))
  const secs = (s: Spread) =>
    `${(s.median / 1000).toFixed(1)} s${runs > 1 ? ` (${(s.min / 1000).toFixed(1)}–${(s.max / 1000).toFixed(1)})` : ''}`
  md.push(
    `## Peers at ${r.options.size.toLocaleString('en')} locations (seed ${r.options.seed}, ${runs} run${runs > 1 ? 's' : ''})`,
    '',
  )
  md.push(
    `- **SQLite alone** (${r.versions.sqlite}; loaded and indexed in ${secs(loads((x) => x.sqlite.loadMs))}): ${r.runs[0]!.sqlite.method}`,
  )
  if (pg)
    md.push(
      `- **PostGIS** (${pg.version}; loaded and indexed in ${secs(spread(r.runs.flatMap((x) => ('skipped' in x.postgis ? [] : [x.postgis.loadMs]))))}): ${pg.method}`,
    )
  for (const s of r.postgisSkipped) md.push(`- PostGIS: skipped${runs > 1 ? ` in run ${s.run}` : ''} (${s.reason})`)
  if (r.engines.ours)
    md.push(
      '- **Ours**: the GET /locations body path in process (sync, parse, index query with totals, the answer written as the bytes sent), as bench/query.ts times it.',
    )
  md.push(
    `- Each run is a fresh process (data seeded, every engine loaded and indexed), with its own query strings (bench/scenario.ts, run 1 to ${runs}, as bench/query.ts draws them). Timed type by type, the engines taking turns: each warmed up, then the type's timed queries cut into ${r.runs[0]!.rounds} parts, every engine answering its part in each round, their order turned by one each round.`,
  )
  md.push(
    `- 1-minute load average at each run's start and end: ${r.runs.map((x) => `${x.loadAverage.start.toFixed(2)} → ${x.loadAverage.end.toFixed(2)}`).join(', ')} (this bench keeps about one core busy: well above 1, other processes competed).`,
  )
  md.push(
    `- Times per query in µs from the query string to the page's rows and the total in hand (ours: to the answer's bytes); medians of the runs' medians${runs > 1 ? ' (min–max across runs)' : ''}, p99 and max likewise. Ratio = peer median ÷ our median over the same query strings (those the peer answered within its time budget), taken per run, then the median over runs${runs > 1 ? ' (min–max)' : ''}, and the p99 ratio; targets: SQLite ≥ ${TARGET_RATIO.sqlite}×, PostGIS ≥ ${TARGET_RATIO.postgis}× slower than ours. "Same answers": of the first ${r.runs[0]!.sanity.perType} timed queries of each type in each run, those for which every engine gave the same ids in the same order and the same total.`,
    '',
  )
  const peers = ['sqlite', 'postgis'].filter((e) => r.engines[e])
  const head = ['Query', 'N/run']
  if (r.engines.ours) head.push('ours median', 'ours p99')
  for (const e of peers) {
    head.push(`${ENGINE_NAMES[e]} median`, 'p99', 'max')
    if (r.ratios[e]) head.push(`${ENGINE_NAMES[e]} ÷ ours`)
  }
  head.push('rows (mean)')
  if (r.engines.ours) head.push('ours total (mean)')
  head.push('same answers')
  md.push(
    `| ${head.join(' | ')} |`,
    `|---|${head
      .slice(1)
      .map(() => '---:')
      .join('|')}|`,
  )
  const withSpread = (s: Spread, f: (x: number) => string) =>
    `${f(s.median)}${runs > 1 && s.runs.length > 1 ? ` (${f(s.min)}–${f(s.max)})` : ''}`
  const x = (v: number) => `${v.toFixed(v >= 10 ? 0 : v >= 1 ? 1 : 2)}×`
  for (const k of Object.keys(r.labels)) {
    const ns = Object.values(r.engines).flatMap((e) => e[k]!.n)
    const cells = [
      r.labels[k]!,
      `${Math.min(...ns)}${Math.min(...ns) !== Math.max(...ns) ? `–${Math.max(...ns)}` : ''}`,
    ]
    if (r.engines.ours) cells.push(withSpread(r.engines.ours[k]!.median, fmtUs), fmtUs(r.engines.ours[k]!.p99.median))
    for (const e of peers) {
      const q = r.engines[e]![k]!
      cells.push(withSpread(q.median, fmtUs), fmtUs(q.p99.median), fmtUs(q.max.median))
      const ratio = r.ratios[e]?.[k]
      if (ratio)
        cells.push(
          `${withSpread(ratio.median, x)}, p99 ${x(ratio.p99.median)}${ratio.median.median >= TARGET_RATIO[e]! ? '' : ' **MISS**'}`,
        )
    }
    cells.push(r.engines.sqlite![k]!.mean.median.toFixed(1))
    if (r.engines.ours) cells.push(r.engines.ours[k]!.mean.median.toFixed(0))
    const same = r.sameAnswers[k]!
    cells.push(
      same.of === 0
        ? '—'
        : same.same === same.of
          ? `${same.same} of ${same.of}`
          : `**${same.same} of ${same.of}: answers differ**`,
    )
    md.push(`| ${cells.join(' | ')} |`)
  }
  md.push('')
  const engines = [...new Set(r.runs.flatMap((x) => x.sanity.engines))].map((e) => ENGINE_NAMES[e] ?? e)
  if (engines.length < 2) {
    md.push('Same answers: only one engine ran, nothing to compare.', '')
    return md.join('\n')
  }
  const same = Object.values(r.sameAnswers).reduce((a, b) => a + b.same, 0)
  const of = Object.values(r.sameAnswers).reduce((a, b) => a + b.of, 0)
  md.push(
    `Same answers: ${engines.join(' = ')}: the same ids in the same order, and the same total, for ${same} of ${of} compared queries.${same === of ? '' : ' **Some differ: the ratios of those types compare different work.**'}`,
  )
  for (const d of r.differences) {
    md.push(
      `- run ${d.run}, ${d.type} \`${d.qs}\`: ${Object.entries(d.ids)
        .map(
          ([e, { ids, total }]) =>
            `${ENGINE_NAMES[e] ?? e} ${ids.length} of ${total} [${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''}]`,
        )
        .join('; ')}`,
    )
  }
  md.push('')
  return md.join('\n')
}
