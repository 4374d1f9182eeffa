// The geocoding bench's report: the statistics per country and per kind of address, the worst
// errors and the unresolved addresses, written to geocode.json and geocode.md, and printed.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { arch, cpus, platform, release, totalmem } from 'node:os'
import { join, relative } from 'node:path'
import { PRECISIONS, type Precision } from '../src/geocode/geocoder'
import { KINDS, type Measured, type Opened, type Outcome, percentile, type Reference } from './geocode-measure'
import { type Options, ROOT } from './geocode-options'

const WORST_SHOWN = 15

// ---------------------------------------------------------------- statistics

type Stats = {
  n: number
  resolved: number
  resolvedShare: number
  medianKm: number | null
  p90Km: number | null
  within1Km: number
  within5Km: number
  within25Km: number
  /** Resolved, with a recognisable country that is not the true one. */
  wrongCountry: number
  /** Resolved, but the answer names no recognisable country (so right or wrong cannot be told). */
  countryUnknown: number
  precision: Record<Precision, number>
  errors: number
  timeUs: { median: number | null; p99: number | null }
}

function stats(outcomes: Outcome[]): Stats {
  const resolved = outcomes.filter((o) => o.result !== null)
  const km = resolved.map((o) => o.errorKm!)
  const precision = Object.fromEntries(PRECISIONS.map((p) => [p, 0])) as Record<Precision, number>
  for (const o of resolved) precision[o.result!.precision] = (precision[o.result!.precision] ?? 0) + 1
  const times = outcomes.flatMap((o) => o.timesUs)
  return {
    n: outcomes.length,
    resolved: resolved.length,
    resolvedShare: outcomes.length ? resolved.length / outcomes.length : 0,
    medianKm: percentile(km, 50),
    p90Km: percentile(km, 90),
    within1Km: km.filter((k) => k <= 1).length,
    within5Km: km.filter((k) => k <= 5).length,
    within25Km: km.filter((k) => k <= 25).length,
    wrongCountry: resolved.filter((o) => o.resultCountry !== null && o.resultCountry !== o.ref.country).length,
    countryUnknown: resolved.filter((o) => o.resultCountry === null).length,
    precision,
    errors: outcomes.filter((o) => o.error !== undefined).length,
    timeUs: { median: percentile(times, 50), p99: percentile(times, 99) },
  }
}

function groupBy<K extends string>(outcomes: Outcome[], key: (o: Outcome) => K): Map<K, Outcome[]> {
  const groups = new Map<K, Outcome[]>()
  for (const o of outcomes) {
    const k = key(o)
    const g = groups.get(k)
    if (g) g.push(o)
    else groups.set(k, [o])
  }
  return groups
}

// ---------------------------------------------------------------- report

const fmtKm = (v: number | null): string =>
  v === null ? '–' : v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)
const fmtUs = (v: number | null): string =>
  v === null ? '–' : v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : Math.round(v).toString()
const pct = (part: number, whole: number): string => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(0)}%`)
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ')
const histogram = (p: Record<Precision, number>): string =>
  PRECISIONS.filter((k) => p[k] > 0)
    .map((k) => `${k} ${p[k]}`)
    .join(', ') || '–'

function statsRow(label: string, s: Stats): string {
  return `| ${label} | ${s.n} | ${pct(s.resolved, s.n)} (${s.resolved}) | ${fmtKm(s.medianKm)} | ${fmtKm(s.p90Km)} | ${s.wrongCountry} | ${s.countryUnknown} | ${histogram(s.precision)} | ${fmtUs(s.timeUs.median)} | ${fmtUs(s.timeUs.p99)} |`
}

function sliceRow(label: string, s: Stats): string {
  return `| ${label} | ${s.n} | ${pct(s.resolved, s.n)} | ${fmtKm(s.medianKm)} | ${fmtKm(s.p90Km)} | ${pct(s.within1Km, s.resolved)} | ${pct(s.within5Km, s.resolved)} | ${pct(s.within25Km, s.resolved)} | ${s.wrongCountry} |`
}

const describeResult = (o: Outcome): string =>
  o.result
    ? `${o.result.lat.toFixed(4)}, ${o.result.lng.toFixed(4)}${o.result.parts?.city ? ` (${o.result.parts.city})` : ''}`
    : '–'

type Machine = { platform: string; release: string; arch: string; cpu: string; cores: number; memoryGb: number }

function machine(): Machine {
  const cpu = cpus()
  return {
    platform: platform(),
    release: release(),
    arch: arch(),
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
  }
}

/** Writes geocode.json and geocode.md in `options.out` from what was measured, and prints the markdown. */
export function writeReport(options: Options, refs: Reference[], opened: Opened, measured: Measured): void {
  const { outcomes, perPass, warmup } = measured

  const date = new Date().toISOString()
  const m = machine()
  const overall = stats(outcomes)
  const byCountry = [...groupBy(outcomes, (o) => o.ref.country)].map(([cc, os]) => [cc, stats(os)] as const)
  const slices: [string, Stats][] = [
    ...KINDS.map((k): [string, Stats] => [`kind: ${k}`, stats(outcomes.filter((o) => o.ref.kind === k))]),
    ['country named', stats(outcomes.filter((o) => o.ref.has_country))],
    ['country not named', stats(outcomes.filter((o) => !o.ref.has_country))],
    ['with postcode', stats(outcomes.filter((o) => o.ref.has_postcode))],
    ['without postcode', stats(outcomes.filter((o) => !o.ref.has_postcode))],
  ]
  const worst = outcomes
    .filter((o) => o.errorKm !== null)
    .sort((a, b) => b.errorKm! - a.errorKm!)
    .slice(0, WORST_SHOWN)
  const unresolved = outcomes.filter((o) => o.result === null)
  const unstable = outcomes.filter((o) => o.unstable)
  const medians = perPass.map((p) => p.medianUs)
  const p99s = perPass.map((p) => p.p99Us)
  const spread = (xs: number[]) => {
    const min = Math.min(...xs)
    const max = Math.max(...xs)
    return { min, max, relative: min > 0 ? (max - min) / min : 0 }
  }
  const timingSpread = { medianUs: spread(medians), p99Us: spread(p99s) }

  // ---- markdown
  const md: string[] = []
  md.push(`## Geocoding benchmark: \`${opened.geocoder.name}\``, '')
  md.push(
    `${refs.length} reference addresses in ${new Set(refs.map((r) => r.country)).size} countries (\`${relative(ROOT, options.reference)}\`). ` +
      `${date.slice(0, 10)}, Bun ${Bun.version}, ${m.cpu} (${m.cores} threads), ${m.platform} ${m.arch}. ` +
      `Error is the great-circle distance to the reference point, over resolved addresses only. ` +
      `Time is one awaited \`geocode()\` call, ${options.passes} passes after a warm-up pass ` +
      `(per-pass medians ${fmtUs(timingSpread.medianUs.min)}–${fmtUs(timingSpread.medianUs.max)} µs, p99s ${fmtUs(timingSpread.p99Us.min)}–${fmtUs(timingSpread.p99Us.max)} µs).`,
    '',
  )
  md.push(
    '| Country | N | Resolved | Median error (km) | P90 error (km) | Wrong country | Country unknown | Precision | Time median (µs) | Time p99 (µs) |',
    '|---|--:|--:|--:|--:|--:|--:|---|--:|--:|',
  )
  for (const [cc, s] of byCountry) md.push(statsRow(cc, s))
  md.push(statsRow('**All**', overall), '')
  md.push('### By kind of address', '')
  md.push(
    '| Slice | N | Resolved | Median (km) | P90 (km) | ≤ 1 km | ≤ 5 km | ≤ 25 km | Wrong country |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  )
  for (const [label, s] of slices) md.push(sliceRow(label, s))
  md.push(
    '',
    `≤ x km: share of resolved addresses. Wrong country counts answers whose \`parts.country\` names another country; "country unknown" ones name none.`,
    '',
  )
  if (setupLine(opened.setup)) md.push(setupLine(opened.setup)!, '')
  md.push(`### ${WORST_SHOWN} worst errors`, '')
  if (worst.length === 0) md.push('None: nothing resolved.', '')
  else {
    md.push(
      '| # | Address | True country | Error (km) | Precision | Answer country | Answer |',
      '|--:|---|---|--:|---|---|---|',
    )
    worst.forEach((o, i) =>
      md.push(
        `| ${i + 1} | ${cell(o.ref.address)} | ${o.ref.country} | ${fmtKm(o.errorKm)} | ${o.result!.precision} | ${o.resultCountry ?? 'unknown'} | ${cell(describeResult(o))} |`,
      ),
    )
    md.push('')
  }
  md.push(`### Unresolved (${unresolved.length} of ${refs.length})`, '')
  if (unresolved.length === 0) md.push('None.', '')
  else {
    for (const o of unresolved)
      md.push(`- ${o.ref.country}: ${o.ref.address} (${o.ref.kind}${o.error ? `; ${o.error}` : ''})`)
    md.push('')
  }
  if (unstable.length > 0) {
    md.push(
      `### Unstable answers (${unstable.length})`,
      '',
      'These gave a different answer in a timed pass than in the warm-up pass:',
      '',
    )
    for (const o of unstable) md.push(`- ${o.ref.country}: ${o.ref.address}`)
    md.push('')
  }
  const markdown = md.join('\n')

  // ---- json
  const round = (v: number | null, digits = 3) => (v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits)
  const json = {
    benchmark: 'geocode',
    date,
    geocoder: { requested: options.geocoder, name: opened.geocoder.name, data: options.data ?? null },
    reference: { path: relative(ROOT, options.reference), n: refs.length, countries: byCountry.length },
    machine: m,
    bun: { version: Bun.version, revision: Bun.revision },
    setup: opened.setup,
    timing: {
      method:
        'performance.now() around each awaited geocode() call, addresses in file order, sequential; Bun.gc(true) before each timed pass',
      warmupPasses: 1,
      passes: options.passes,
      warmup,
      perPass,
      spread: timingSpread,
    },
    n: refs.length,
    overall,
    perCountry: Object.fromEntries(byCountry),
    slices: Object.fromEntries(slices),
    worst: worst.map((o) => ({
      address: o.ref.address,
      country: o.ref.country,
      errorKm: round(o.errorKm),
      precision: o.result!.precision,
      resultCountry: o.resultCountry,
      lat: o.result!.lat,
      lng: o.result!.lng,
    })),
    unresolved: unresolved.map((o) => ({
      address: o.ref.address,
      country: o.ref.country,
      kind: o.ref.kind,
      error: o.error ?? null,
    })),
    unstable: unstable.map((o) => o.ref.address),
    results: outcomes.map((o) => ({
      address: o.ref.address,
      country: o.ref.country,
      kind: o.ref.kind,
      errorKm: round(o.errorKm),
      result: o.result
        ? {
            lat: o.result.lat,
            lng: o.result.lng,
            precision: o.result.precision,
            source: o.result.source,
            parts: o.result.parts,
          }
        : null,
      resultCountry: o.resultCountry,
      error: o.error ?? null,
      timeUs: { warmup: round(o.warmupUs, 2), median: round(percentile(o.timesUs, 50), 2) },
    })),
  }

  mkdirSync(options.out, { recursive: true })
  // Six decimals are plenty for degrees (0.1 m), km and µs, and keep float noise out of the file.
  const tidy = (_key: string, v: unknown) =>
    typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e6) / 1e6 : v
  writeAtomically(join(options.out, 'geocode.json'), `${JSON.stringify(json, tidy, 2)}\n`)
  writeAtomically(join(options.out, 'geocode.md'), `${markdown}\n`)
  console.log(markdown)
  process.stderr.write(`wrote ${join(options.out, 'geocode.json')} and geocode.md\n`)
}

function setupLine(setup: Opened['setup']): string | null {
  if (setup.ensureGeodataMs === null) return null
  return `Set-up, not counted above: \`ensureGeodata()\` ${setup.ensureGeodataMs.toFixed(0)} ms, \`openEmbeddedGeocoder()\` ${setup.openMs.toFixed(1)} ms.`
}

function writeAtomically(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, text)
  renameSync(tmp, path)
}
