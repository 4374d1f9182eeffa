// The HTTP bench's markdown report, from a run's record: what the bench prints, and what
// `--render <json>` prints again from a --json file.
import { readFileSync } from 'node:fs'
import { type Spread, spread } from '../spread'
import { type Provenance, provenance, provenanceLine } from '../system'
import { cpuOverWholeRun, type HttpRecord, perCpu, TARGETS, UNCACHED } from './record'

/** Other processes' CPU (fraction of one core) above which the report says the figures are disturbed. */
const OTHER_LOAD_WARN = 0.05
/** wrk at or above this share of its core against the bare server: the bare rate may be the client's limit (the report says so). */
const CLIENT_BOUND = 0.95

/**
 * The report, from a run's record: what the bench prints, and `--render <json>` prints again from
 * a --json file (with this code's judgement: the ratios the targets are judged on are taken from
 * each run's scenarios, so a record made before they were is judged the same way).
 */
export function report(j: HttpRecord): string {
  const { options: o, versions, runs, writes, summary } = j
  const prov: Provenance = { date: j.date, commit: j.commit, dirty: j.dirty, machine: j.machine }
  const {
    workersUnsupported: unsupported,
    workersUnpinned: extraWorkers,
    tmpFs,
    synchronous,
    serverCpu: SERVER_CPU,
    clientCpu: CLIENT_CPU,
  } = j.setup
  const keys = Object.keys(summary.scenarios)
  /** Scenarios of varied paths (not the one repeated) in which some run (or slice of one) asked more requests than it had paths. */
  const wentRound = new Set(
    keys.filter(
      (k) =>
        !UNCACHED.has(k) &&
        k !== 'repeated' &&
        runs.some((r) =>
          (r.scenarios[k]!.slices ?? [r.scenarios[k]!]).some(
            (x, _, all) => x.requests > Math.floor(r.paths / all.length),
          ),
        ),
    ),
  )
  const slices = o.slices ?? 1
  const perCpuRatio = (k: string) => spread(runs.map((r) => perCpu(r.scenarios[k]!) / perCpu(r.scenarios.bare!)))
  const n = o.runs
  const rng = (s: Spread, f: (x: number) => string) => (s.runs.length > 1 ? `${f(s.min)}–${f(s.max)}` : '(1 run)')
  const num = (x: number) => x.toFixed(0)
  const ms = (us: number) => `${(us / 1000).toFixed(us >= 10_000 ? 1 : 2)} ms`
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`
  const verdict = (ok: boolean) => (ok ? 'PASS' : '**MISS**')
  const meanBody = spread(runs.map((r) => r.meanBodyBytes))
  const md: string[] = []
  md.push('# HTTP benchmark', '')
  md.push(`${provenanceLine(prov)} · bun ${versions.bun} · ${versions.wrk} · SQLite ${versions.sqlite}`, '')
  md.push(
    `${o.size.toLocaleString('en')} locations (seed ${o.seed}), ${n} run${n > 1 ? 's' : ''}, ${o.duration} s measured after ${o.warmup} s warm-up per scenario, scenario order rotated per run` +
      (slices > 1
        ? `, each scenario's ${o.duration} s in ${slices} slices of ${o.duration / slices} s, the scenarios' slices taken in turn (each slice on its own ${Math.floor(o.paths / slices).toLocaleString('en')} of the run's paths), so every scenario's time is spread over the run. `
        : '. ') +
      `Server (and the bare baseline) pinned to CPU ${SERVER_CPU}, \`taskset -c ${CLIENT_CPU} wrk -t1 -c${o.connections}\` on CPU ${CLIENT_CPU}, loopback, keep-alive. ` +
      `Query types: ${o.types.join(', ')}; mean body ${num(meanBody.median)} bytes${n > 1 ? ` (${num(meanBody.min)}–${num(meanBody.max)} across runs)` : ''}, which is the bare body's size. ` +
      'Figures: median over runs; spread: min–max over runs; latency from wrk (closed loop, so it includes queueing behind the other connections)' +
      (slices > 1 ? ", each run's p50 and p99 the median of its slices'." : '.'),
    '',
  )
  md.push(
    `| Scenario | req/s | spread | p50 | spread | p99 | spread | bytes/response (wire) | server CPU | wrk CPU | CPU ${SERVER_CPU} / ${CLIENT_CPU} busy | other load (worst run) | server page faults / request | errors |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  )
  for (const k of keys) {
    const s = summary.scenarios[k]!
    md.push(
      `| ${s.label} | ${num(s.rps.median)} | ${rng(s.rps, num)} | ${ms(s.p50Us.median)} | ${rng(s.p50Us, ms)} | ${ms(s.p99Us.median)} | ${rng(s.p99Us, ms)} | ${num(s.bytesPerResponse.median)} | ${pct(s.serverCpu.median)} | ${pct(s.clientCpu.median)} | ${pct(s.serverCoreBusy.median)} / ${pct(s.clientCoreBusy.median)} | ${pct(s.otherCpu.max)} | ${s.faultsPerRequest ? `${s.faultsPerRequest.median.toFixed(3)}${n > 1 ? ` (${rng(s.faultsPerRequest, (x) => x.toFixed(3))})` : ''}` : '—'} | ${s.errors === 0 ? '0' : `**${s.errors}**`} |`,
    )
  }
  for (const w of unsupported)
    md.push(
      `| public radius query, varied, WORKERS=${w} | not supported by this build, skipped | | | | | | | | | | | | |`,
    )
  md.push('')
  md.push(
    wentRound.size === 0
      ? `Distinct paths: ${o.paths.toLocaleString('en')} a run, more than any measurement asked for, so none was asked twice in one (the first ${o.sample.toLocaleString('en')}, fetched before to size the bare body, twice): every answer was made, none came from the response cache, which keeps an answer from its second ask and sends it from the third.`
      : `**Some measurements of ${[...wentRound].join(', ')} asked more requests than the run's ${o.paths.toLocaleString('en')} paths: a path asked for a third time may have been answered from the response cache. Rerun with a larger --paths.**`,
    '',
  )
  const worstOther = Math.max(
    ...runs.flatMap((x) => Object.values(x.scenarios).map((y) => y.otherCpu)),
    ...writes.map((x) => x.result.otherCpu),
  )
  if (worstOther > OTHER_LOAD_WARN) {
    md.push(
      `**Other processes used up to ${pct(worstOther)} of a core during a measurement ("other load", worst run): the machine was shared and these figures are disturbed; rerun when it is quiet.**`,
      '',
    )
  }
  // wrk's core full against the bare server: its rate is the client's limit, below what the server could do.
  const bare = summary.scenarios.bare
  if (bare && bare.clientCpu.median >= CLIENT_BOUND) {
    md.push(
      `**Against the bare server wrk used ${pct(bare.clientCpu.median)} of its core (the server ${pct(bare.serverCpu.median)} of its own): the bare rate is most likely the load generator's limit rather than the server's, and a ratio of rates flatters ours.**`,
      '',
    )
  }
  md.push(
    "The targets are judged per second of the server's own CPU (its requests ÷ the CPU seconds it used, per run): what each server answers with its core full, which one wrk core cannot drive the bare server to. The ratios of rates as measured are shown beside them.",
    '',
  )
  if (cpuOverWholeRun(runs)) {
    md.push(
      `**This record's server CPU was taken over wrk's whole run, its start-up included** (as the bench took it before f9e178d). wrk reads its script's paths before its clock starts: the run's ${o.paths.toLocaleString('en')} for every scenario but the repeated one, whose script has one (about 1 s for 400,000 on the AMD EPYC VM of 2026-11-28, against ${o.duration} s measured here), while the server idles. So the CPU a request of the servers measured with the long scripts, the bare one's among them, and the repeated scenario's ratio per second of CPU below, are understated by that start-up's share of the run. The bench now takes each server's CPU a request (its CPU seconds over the measured window ÷ its requests).`,
      '',
    )
  }
  md.push('| Ratio (per run, then median) | value | spread | target | |', '|---|---:|---:|---|---|')
  // A record made before the ratios per second of CPU were has them taken from its runs here.
  const r: Record<string, Spread> = { ...summary.ratios }
  for (const k of ['varied', 'repeated']) r[`${k}_vs_bare_per_cpu`] ??= perCpuRatio(k)
  md.push(
    `| varied / bare, per second of server CPU | ${pct(r.varied_vs_bare_per_cpu!.median)} | ${rng(r.varied_vs_bare_per_cpu!, pct)} | ≥ ${pct(TARGETS.variedVsBare)} | ${verdict(r.varied_vs_bare_per_cpu!.median >= TARGETS.variedVsBare)} |`,
  )
  md.push(
    `| repeated / bare, per second of server CPU | ${pct(r.repeated_vs_bare_per_cpu!.median)} | ${rng(r.repeated_vs_bare_per_cpu!, pct)} | ≥ ${pct(TARGETS.repeatedVsBare)} | ${verdict(r.repeated_vs_bare_per_cpu!.median >= TARGETS.repeatedVsBare)} |`,
  )
  md.push(
    `| varied / bare, req/s as measured | ${pct(r.varied_vs_bare!.median)} | ${rng(r.varied_vs_bare!, pct)} | | |`,
  )
  md.push(
    `| repeated / bare, req/s as measured | ${pct(r.repeated_vs_bare!.median)} | ${rng(r.repeated_vs_bare!, pct)} | | |`,
  )
  if (r.varied_vs_bare_blob_per_cpu && r.repeated_vs_bare_blob_per_cpu) {
    md.push(
      `| varied / bare with a Blob body, per second of server CPU | ${pct(r.varied_vs_bare_blob_per_cpu.median)} | ${rng(r.varied_vs_bare_blob_per_cpu, pct)} | (measured, no target) | |`,
    )
    md.push(
      `| repeated / bare with a Blob body, per second of server CPU | ${pct(r.repeated_vs_bare_blob_per_cpu.median)} | ${rng(r.repeated_vs_bare_blob_per_cpu, pct)} | (measured, no target) | |`,
    )
  }
  md.push(
    `| stand-in: copies / bare | ${pct(r.copies_vs_bare!.median)} | ${rng(r.copies_vs_bare!, pct)} | (measured, no target) | |`,
  )
  md.push(
    `| stand-in: answer path alone / bare | ${pct(r.answer_vs_bare!.median)} | ${rng(r.answer_vs_bare!, pct)} | (measured, no target) | |`,
  )
  for (const w of extraWorkers) {
    const s = r[`workers${w}_vs_varied`]!
    md.push(
      `| WORKERS=${w} / WORKERS=1, varied (gain) | ${s.median.toFixed(2)}× | ${rng(s, (x) => `${x.toFixed(2)}×`)} | (measured, no target) | |`,
    )
  }
  md.push('')
  // Where a distinct answer's time goes: each step of the ladder's CPU a request (records before
  // f9e178d: its time per request at its rate, 1 / req/s), the median over runs, less the step before.
  const byCpu = !cpuOverWholeRun(runs)
  const usPer = (k: string) =>
    byCpu ? spread(runs.map((x) => 1e6 / perCpu(x.scenarios[k]!))).median : 1e6 / summary.scenarios[k]!.rps.median
  const pieceCount = spread(runs.map((x) => x.pieces)).median
  const signed = (x: number) => `${x < 0 ? '−' : '+'}${Math.abs(x).toFixed(1)}`
  md.push(
    (byCpu
      ? "What a distinct answer's time is made of, in µs of the server's CPU a request (medians over runs), each less the step before: "
      : "What a distinct answer's time is made of, per request at the median rates (1 s / req/s, each less the step before; the server's core was not always full, so these are upper bounds): ") +
      `the bare server ${usPer('bare').toFixed(1)} µs; ` +
      `copying the body from ${num(pieceCount)} random places of a buffer as large as the locations' JSON, as an answer's JSON is copied, ${signed(usPer('copies') - usPer('bare'))} µs; ` +
      `the answer path itself instead (sync, parse, the index's query with its total, the JSON copied), ${signed(usPer('answer') - usPer('bare'))} µs over bare; ` +
      `the service's route around it (the guards, the rate count, the answer cache, the ETag and CORS headers, the request id) ${signed(usPer('varied') - usPer('answer'))} µs more. ` +
      `The ${pct(TARGETS.variedVsBare)} target leaves ${(usPer('bare') / TARGETS.variedVsBare - usPer('bare')).toFixed(1)} µs a request over bare.` +
      (byCpu && summary.scenarios.bareBlob
        ? ` The bare server with its body kept as a Blob (sent without a copy, as the service sends a kept answer): ${usPer('bareBlob').toFixed(1)} µs.`
        : ''),
    '',
  )
  if (summary.writes) {
    const w = summary.writes
    const created = writes.map((x) => x.created)
    const added = writes.map((x) => x.rowsAdded)
    md.push(
      `Writes: \`POST /admin/v1/locations\`, one location per request with coordinates (no geocoding), ${o.writeConnections} connections, ${o.writeDuration} s per run after ${o.warmup} s warm-up, WORKERS=1 server pinned to CPU ${SERVER_CPU}; SQLite WAL, synchronous=${synchronous === 2 ? 'FULL' : `${synchronous} (not FULL!)`}, database on ${tmpFs}.`,
      '',
    )
    md.push('| Figure | value | spread | target | |', '|---|---:|---:|---|---|')
    md.push(
      `| creates/s | ${num(w.rps.median)} | ${rng(w.rps, num)} | ≥ ${TARGETS.createsPerSecond} | ${verdict(w.rps.median >= TARGETS.createsPerSecond)} |`,
    )
    md.push(`| latency p50 | ${ms(w.p50Us.median)} | ${rng(w.p50Us, ms)} | | |`)
    md.push(`| latency p99 | ${ms(w.p99Us.median)} | ${rng(w.p99Us, ms)} | | |`)
    md.push(`| server CPU / other load (worst run) | ${pct(w.serverCpu.median)} / ${pct(w.otherCpu.max)} | | | |`)
    md.push(
      `| 201 answers / rows added, per run | ${created.join(', ')} / ${added.join(', ')} | | rows − 201s in 0…${o.writeConnections} (in flight at stop) | ${w.allLanded ? 'PASS' : '**MISS**'} |`,
    )
    md.push(
      `| rows in the file after a graceful stop = rows the API counted | ${w.fileRows ? `${w.fileRows.file} = ${w.fileRows.api}` : '—'} | | equal | ${w.fileRows && w.fileRows.file === w.fileRows.api ? 'PASS' : '**MISS**'} |`,
    )
    md.push('')
  }
  return md.join('\n')
}

/** The report of a --json file, written again by this code; a skipped run's one line. */
export function render(path: string): string {
  const record = JSON.parse(readFileSync(path, 'utf8')) as HttpRecord | { skipped: string }
  if ('skipped' in record) return `# HTTP benchmark\n\nHTTP: skipped (${record.skipped}).\n`
  if (
    !record.runs?.every((r) =>
      ['bare', 'copies', 'answer', 'varied', 'repeated'].every((k) => r.scenarios?.[k]?.serverCpu !== undefined),
    )
  ) {
    throw new Error(
      `${path}: a record without the scenarios this report is made of (bare, copies, answer, varied, repeated, each with its server CPU), from before they were all measured; the markdown written with it is its report`,
    )
  }
  const now = provenance(new Date())
  const note = `Written again from the run's JSON by \`bench/http.ts --render\` on ${now.date.slice(0, 10)} at commit ${now.commit.slice(0, 7)}: the run's figures as recorded, the targets judged as that code judges them.`
  const parts = report(record).split('\n\n') // the title, the run's provenance, then the rest
  parts.splice(2, 0, note)
  return parts.join('\n\n')
}
