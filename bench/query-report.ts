// The in-process Query API bench's report: each size's runs gathered (a figure's median and min–max
// over the runs), judged against the issue's targets, written to query.json and query.md, and printed.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fmtUs } from './peers/report'
import type { RunResult } from './query-run'
import { type Spread, spread } from './spread'
import { type Provenance, provenanceLine } from './system'

// ---------------------------------------------------------------- aggregation, report

/** p99Us absent: the issue sets a median only. */
type LatencyTarget = { medianUs: number; p99Us?: number; reference?: boolean }
const TARGETS: {
  radius: LatencyTarget
  search: LatencyTarget
  bbox: LatencyTarget
  buildMs: number
  writeVisibleMs: number
  bytesBeyondJson: number
} = {
  radius: { medianUs: 50, p99Us: 1000 },
  search: { medianUs: 300, p99Us: 3000 },
  bbox: { medianUs: 50 },
  buildMs: 2000,
  writeVisibleMs: 5,
  bytesBeyondJson: 1.5 * 1024,
}
/**
 * The issue's targets are for 100k; at 1M radius may take 2x and the build 30 s. It states none for
 * search at 1M: the 100k one is shown for reference, with no PASS or MISS (a noisy 1M run's p99 of
 * 3.1 ms printed MISS against a target the issue never set).
 */
function targetsFor(size: number) {
  if (size < 1_000_000) return TARGETS
  return {
    ...TARGETS,
    radius: { medianUs: 100, p99Us: 2000 },
    search: { ...TARGETS.search, reference: true },
    bbox: { ...TARGETS.bbox, reference: true },
    buildMs: 30_000,
  }
}

const fmtMs = (ms: number) =>
  ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(2)} ms`
const range = (s: Spread, f: (x: number) => string) => (s.runs.length > 1 ? `${f(s.min)}–${f(s.max)}` : '(1 run)')
const verdict = (ok: boolean) => (ok ? 'PASS' : '**MISS**')

/** Gathers the runs per size, writes query.json and query.md in `o.out`, and prints the markdown. */
export async function queryReport(
  o: { sizes: number[]; runs: number; seed: number; out: string },
  prov: Provenance,
  all: RunResult[],
): Promise<void> {
  const pkg = (name: string) => {
    try {
      return require(`${name}/package.json`).version as string
    } catch {
      return 'unknown'
    }
  }
  const versions = {
    bun: Bun.version,
    kdbush: pkg('kdbush'),
    geokdbush: pkg('geokdbush'),
    flexsearch: pkg('flexsearch'),
    sqlite: '',
  }
  {
    const { Database } = await import('bun:sqlite')
    const db = new Database(':memory:')
    versions.sqlite = db.query<{ v: string }, []>('select sqlite_version() as v').get()!.v
    db.close()
  }

  const sizes = o.sizes.map((size) => {
    const rs = all.filter((r) => r.size === size)
    const queryKeys = Object.keys(rs[0]!.queries)
    const queries = Object.fromEntries(
      queryKeys.map((k) => [
        k,
        {
          n: rs.map((r) => r.queries[k]!.n),
          medianUs: spread(rs.map((r) => r.queries[k]!.median)),
          p99Us: spread(rs.map((r) => r.queries[k]!.p99)),
          maxUs: spread(rs.map((r) => r.queries[k]!.max)),
          meanTotalHits: spread(rs.map((r) => r.queries[k]!.meanTotal)),
          meanBodyBytes: spread(rs.map((r) => r.queries[k]!.meanBodyBytes)),
          emptyAnswers: rs.map((r) => r.queries[k]!.empty),
          distinct: rs.map((r) => r.queries[k]!.distinct),
        },
      ]),
    )
    return {
      size,
      runs: rs.length,
      densest: rs[0]!.densest,
      types: rs[0]!.types,
      generateMs: spread(rs.map((r) => r.generateMs)),
      prepareMs: spread(rs.map((r) => r.prepareMs)),
      insertMs: spread(rs.map((r) => r.insertMs)),
      build: {
        totalMs: spread(rs.map((r) => r.build.totalMs)),
        textBackgroundMs: spread(rs.map((r) => r.build.textBackgroundMs)),
        readRowsMs: spread(rs.map((r) => r.build.breakdown.readRowsMs)),
        presentMs: spread(rs.map((r) => r.build.breakdown.presentMs)),
        locatorIndexMsDerived: spread(rs.map((r) => r.build.breakdown.locatorIndexMsDerived)),
        kdbushOnlyMs: spread(rs.map((r) => r.build.breakdown.kdbushOnlyMs)),
        heapBytes: spread(rs.map((r) => r.build.heapBytes)),
        rssBytes: spread(rs.map((r) => r.build.rssBytes)),
        jsonBytes: spread(rs.map((r) => r.build.jsonBytes)),
        bytesPerLocation: spread(rs.map((r) => r.build.bytesPerLocation)),
        bytesPerLocationBeyondJson: spread(rs.map((r) => r.build.bytesPerLocationBeyondJson)),
      },
      queries,
      write: {
        n: rs.map((r) => r.write.n),
        allVisible: rs.every((r) => r.write.allVisible),
        commitMs: {
          median: spread(rs.map((r) => r.write.commitMs.median)),
          p99: spread(rs.map((r) => r.write.commitMs.p99)),
        },
        syncMs: {
          median: spread(rs.map((r) => r.write.syncMs.median)),
          p99: spread(rs.map((r) => r.write.syncMs.p99)),
        },
        nextQueryMs: {
          median: spread(rs.map((r) => r.write.nextQueryMs.median)),
          p99: spread(rs.map((r) => r.write.nextQueryMs.p99)),
        },
        visibleMs: {
          median: spread(rs.map((r) => r.write.visibleMs.median)),
          p99: spread(rs.map((r) => r.write.visibleMs.p99)),
        },
        compaction: rs.map((r) => r.write.compaction),
        settings: {
          n: rs.map((r) => r.write.settings.n),
          allVisible: rs.every((r) => r.write.settings.allVisible),
          priorityMs: {
            median: spread(rs.map((r) => r.write.settings.priorityMs.median)),
            max: spread(rs.map((r) => r.write.settings.priorityMs.max)),
          },
          filtersMs: {
            median: spread(rs.map((r) => r.write.settings.filtersMs.median)),
            max: spread(rs.map((r) => r.write.settings.filtersMs.max)),
          },
        },
      },
    }
  })

  const md: string[] = []
  md.push('# Query API benchmark (in process)', '')
  md.push(
    `${provenanceLine(prov)} · bun ${versions.bun}, SQLite ${versions.sqlite}, kdbush ${versions.kdbush}, geokdbush ${versions.geokdbush}, flexsearch ${versions.flexsearch}`,
    '',
  )
  md.push(
    'Synthetic stores around the 300 most populous GeoNames places (Zipf-weighted: population^1.3), 5% of them noise, radius 25 miles unless the row says otherwise, limit 20. Each run is a fresh process and database. Figures: median of the runs\' values (median, p99 and max of each run\'s queries); "spread" is min–max across runs. Query times are per request through the route\'s body path (sync, parse, index query, the answer written as the bytes sent), not HTTP. "Empty answers": timed answers with no location in their page (summed over runs).',
    '',
  )
  for (const s of sizes) {
    md.push(`## ${s.size.toLocaleString('en')} locations (${s.runs} run${s.runs > 1 ? 's' : ''})`, '')
    md.push(`Densest cities: ${s.densest.map((d) => `${d.city} ${d.stores}`).join(', ')}.`, '')
    md.push(
      '| Query | N/run | hits (mean total) | empty answers | median | spread | p99 | spread | max | spread | target | |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
    )
    for (const l of s.types) {
      const q = s.queries[l.key]!
      const tg = l.target ? targetsFor(s.size)[l.target] : null
      const ok = tg ? q.medianUs.median < tg.medianUs && q.p99Us.median < (tg.p99Us ?? Infinity) : null
      const empty = q.emptyAnswers.reduce((a, b) => a + b, 0)
      const asked = q.n.reduce((a, b) => a + b, 0)
      // The N column names the distinct strings when a run asked some twice.
      const repeats = q.distinct.some((d, i) => d < q.n[i]!) ? ` (${Math.min(...q.distinct)} distinct)` : ''
      const bounds = tg
        ? `< ${fmtUs(tg.medianUs)}${tg.p99Us === undefined ? ' median' : ` / < ${fmtUs(tg.p99Us)}`}`
        : ''
      const target = tg ? (tg.reference ? `none (100k's: ${bounds})` : bounds) : l.nonEmpty ? 'no empty answer' : '—'
      const met =
        ok !== null
          ? tg!.reference
            ? ok
              ? '(within)'
              : '(over)'
            : verdict(ok)
          : l.nonEmpty
            ? verdict(empty === 0)
            : ''
      md.push(
        `| ${l.label} | ${Math.min(...q.n)}${Math.min(...q.n) !== Math.max(...q.n) ? `–${Math.max(...q.n)}` : ''}${repeats} | ${q.meanTotalHits.median.toFixed(0)} | ${empty === 0 ? '0' : `${empty} of ${asked}`} | ${fmtUs(q.medianUs.median)} | ${range(q.medianUs, fmtUs)} | ${fmtUs(q.p99Us.median)} | ${range(q.p99Us, fmtUs)} | ${fmtUs(q.maxUs.median)} | ${range(q.maxUs, fmtUs)} | ${target} | ${met} |`,
      )
    }
    md.push('')
    const b = s.build
    const w = s.write
    md.push('| Figure | value | spread | target | |', '|---|---:|---:|---|---|')
    md.push(
      `| generate + validate (normalizeLocationBody, newLocationRecord) | ${fmtMs(s.prepareMs.median)} | ${range(s.prepareMs, fmtMs)} | — | |`,
    )
    md.push(`| insert, one write transaction | ${fmtMs(s.insertMs.median)} | ${range(s.insertMs, fmtMs)} | — | |`)
    md.push(
      `| index build, SQLite rows → queryable | ${fmtMs(b.totalMs.median)} | ${range(b.totalMs, fmtMs)} | < ${fmtMs(targetsFor(s.size).buildMs)} | ${verdict(b.totalMs.median < targetsFor(s.size).buildMs)} |`,
    )
    md.push(
      `| then public JSON + FlexSearch postings, in background tasks (queries served meanwhile) | ${fmtMs(b.textBackgroundMs.median)} | ${range(b.textBackgroundMs, fmtMs)} | | |`,
    )
    md.push(
      `| … read rows (locations.indexRows: the columns search needs) | ${fmtMs(b.readRowsMs.median)} | ${range(b.readRowsMs, fmtMs)} | | |`,
    )
    md.push(
      `| … present (searchDoc: folded name and text, tags, rank) | ${fmtMs(b.presentMs.median)} | ${range(b.presentMs, fmtMs)} | | |`,
    )
    md.push(
      `| … new LocatorIndex (tables, vocabulary, KDBush; derived) | ${fmtMs(b.locatorIndexMsDerived.median)} | ${range(b.locatorIndexMsDerived, fmtMs)} | | |`,
    )
    md.push(`| … of which KDBush alone | ${fmtMs(b.kdbushOnlyMs.median)} | ${range(b.kdbushOnlyMs, fmtMs)} | | |`)
    const kb = (x: number) => `${(x / 1024).toFixed(2)} KB`
    const mb = (x: number) => `${(x / 2 ** 20).toFixed(0)} MB`
    md.push(`| heap growth of the index (after GC) | ${mb(b.heapBytes.median)} | ${range(b.heapBytes, mb)} | | |`)
    md.push(`| RSS growth | ${mb(b.rssBytes.median)} | ${range(b.rssBytes, mb)} | | |`)
    md.push(`| heap per location | ${kb(b.bytesPerLocation.median)} | ${range(b.bytesPerLocation, kb)} | | |`)
    md.push(`| … of which pre-serialized JSON | ${kb(b.jsonBytes.median / s.size)} | | | |`)
    md.push(
      `| heap per location beyond the JSON | ${kb(b.bytesPerLocationBeyondJson.median)} | ${range(b.bytesPerLocationBeyondJson, kb)} | < 1.5 KB | ${verdict(b.bytesPerLocationBeyondJson.median < TARGETS.bytesBeyondJson)} |`,
    )
    md.push(
      `| write commit (store.write + locations.replace), median / p99 | ${fmtMs(w.commitMs.median.median)} / ${fmtMs(w.commitMs.p99.median)} | ${range(w.commitMs.median, fmtMs)} | | |`,
    )
    md.push(
      `| registry.sync() applying it, median / p99 | ${fmtMs(w.syncMs.median.median)} / ${fmtMs(w.syncMs.p99.median)} | ${range(w.syncMs.median, fmtMs)} | | |`,
    )
    md.push(
      `| next query (radius top-20), median / p99 | ${fmtMs(w.nextQueryMs.median.median)} / ${fmtMs(w.nextQueryMs.p99.median)} | ${range(w.nextQueryMs.median, fmtMs)} | | |`,
    )
    md.push(
      `| write → visible (commit + sync + query), median / p99 | ${fmtMs(w.visibleMs.median.median)} / ${fmtMs(w.visibleMs.p99.median)} | ${range(w.visibleMs.median, fmtMs)} | < 5 ms | ${verdict(w.visibleMs.median.median < TARGETS.writeVisibleMs)}${w.visibleMs.p99.median >= TARGETS.writeVisibleMs ? ' (p99 over)' : ''} |`,
    )
    const c = w.compaction
    const sync = spread(c.map((x) => x.batchSyncMs / Math.max(1, x.batchWrites)))
    const fullQ = spread(c.map((x) => x.fullDeltaQueryUs.median))
    const fullWarm = spread(c.map((x) => x.fullDeltaWarmUs.median))
    const compactMs = spread(c.map((x) => x.compactMs))
    const blockMs = spread(c.map((x) => x.longestBlockMs))
    md.push(
      `| sync of ${c[0]!.batchWrites} moves (batches until the delta passes its bound), per upsert | ${fmtMs(sync.median)} | ${range(sync, fmtMs)} | | |`,
    )
    md.push(
      `| radius top-20 with a full delta (${c[0]!.deltaWhenFull} keys in it), the first 50 queries after the batch, median | ${fmtUs(fullQ.median)} | ${range(fullQ, fmtUs)} | | |`,
    )
    const warmN = c.map((x) => x.fullDeltaWarmUs.n)
    md.push(
      `| … then warmed (after up to 2000 queries or 1 s), median of ${Math.min(...warmN)}${Math.min(...warmN) === Math.max(...warmN) ? '' : `–${Math.max(...warmN)}`} queries | ${fmtUs(fullWarm.median)} | ${range(fullWarm, fmtUs)} | | |`,
    )
    md.push(
      `| compaction (delta → new KDBush base; scheduled, in steps between requests), wall time | ${fmtMs(compactMs.median)} | ${range(compactMs, fmtMs)} | off the request path | ${verdict(c.every((x) => x.deltaAfter < x.bound))} |`,
    )
    md.push(
      `| … the longest the event loop was blocked meanwhile | ${fmtMs(blockMs.median)} | ${range(blockMs, fmtMs)} | | |`,
    )
    md.push(`| every moved location visible in the next query | ${w.allVisible ? 'yes' : '**no**'} | | | |`)
    const st = w.settings
    md.push(
      `| new priority rules → visible (commit, ranks taken again, query), median / max of ${Math.min(...st.n)} | ${fmtMs(st.priorityMs.median.median)} / ${fmtMs(st.priorityMs.max.median)} | ${range(st.priorityMs.median, fmtMs)} | no rebuild | |`,
    )
    md.push(
      `| new filters → visible (commit, JSON made again, query), median / max of ${Math.min(...st.n)} | ${fmtMs(st.filtersMs.median.median)} / ${fmtMs(st.filtersMs.max.median)} | ${range(st.filtersMs.median, fmtMs)} | no rebuild | |`,
    )
    md.push(`| every settings write seen by the next query | ${st.allVisible ? 'yes' : '**no**'} | | | |`)
    md.push('')
  }
  const markdown = md.join('\n')
  mkdirSync(o.out, { recursive: true })
  const json = {
    benchmark: 'query',
    ...prov,
    versions,
    options: { sizes: o.sizes, runs: o.runs, seed: o.seed },
    targets: TARGETS,
    sizes,
    raw: all,
  }
  writeFileSync(join(o.out, 'query.json'), `${JSON.stringify(json, null, 2)}\n`)
  writeFileSync(join(o.out, 'query.md'), `${markdown}\n`)
  console.log(markdown)
}
