// Geocoding benchmark: geocodes every address of bench/geocode/reference.json and reports, per
// country and overall, how many resolve, how far off they land (great-circle km), how many land in
// the wrong country, at which precision, and how long one lookup takes.
//
//   bun bench/geocode.ts [--geocoder embedded|none] [--out bench/results] [--passes 5] [--data path]
//
// Writes <out>/geocode.json (everything, machine-readable) and <out>/geocode.md (tables ready for
// a README) and prints the markdown. See bench/geocode/README.md.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { arch, cpus, platform, release, totalmem } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PRECISIONS, noGeocoder, type GeocodeResult, type Geocoder, type Precision } from '../src/geocode/geocoder'

const ROOT = join(import.meta.dir, '..')
const REFERENCE_PATH = join(import.meta.dir, 'geocode', 'reference.json')
const EMBEDDED_MODULE = new URL('../src/geocode/embedded.ts', import.meta.url)
/** Mean Earth radius (IUGG), km. */
const EARTH_RADIUS_KM = 6371.0088
const WORST_SHOWN = 15
const KINDS = ['centre', 'suburb', 'landmark', 'store'] as const
type Kind = (typeof KINDS)[number]

// ---------------------------------------------------------------- command line

type Options = { geocoder: 'embedded' | 'none'; out: string; passes: number; data?: string; reference: string }

class UsageError extends Error {}
class BenchError extends Error {}

const USAGE = `usage: bun bench/geocode.ts [--geocoder embedded|none] [--out DIR] [--passes N] [--data PATH] [--reference PATH]
  --geocoder   which geocoder to measure (default: embedded)
  --out        where to write geocode.json and geocode.md (default: bench/results)
  --passes     timed passes after the warm-up pass (default: 5)
  --data       geodata file handed to the embedded geocoder (default: its own, data/geocoder.sqlite)
  --reference  reference set (default: bench/geocode/reference.json)`

function parseArgs(argv: string[]): Options {
  const options: Options = {
    geocoder: 'embedded',
    out: join(ROOT, 'bench', 'results'),
    passes: 5,
    reference: REFERENCE_PATH,
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '-h' || arg === '--help') {
      console.log(USAGE)
      process.exit(0)
    }
    const eq = arg.indexOf('=')
    const name = eq >= 0 ? arg.slice(0, eq) : arg
    const value = (): string => {
      if (eq >= 0) return arg.slice(eq + 1)
      const next = argv[++i]
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${name} needs a value`)
      return next
    }
    switch (name) {
      case '--geocoder': {
        const v = value()
        if (v !== 'embedded' && v !== 'none')
          throw new UsageError(`--geocoder must be embedded or none, not ${JSON.stringify(v)}`)
        options.geocoder = v
        break
      }
      case '--out':
        options.out = resolve(value())
        break
      case '--passes': {
        const v = Number(value())
        if (!Number.isInteger(v) || v < 1 || v > 1000)
          throw new UsageError('--passes must be an integer from 1 to 1000')
        options.passes = v
        break
      }
      case '--data':
        options.data = resolve(value())
        break
      case '--reference':
        options.reference = resolve(value())
        break
      default:
        throw new UsageError(`unknown argument ${JSON.stringify(arg)}`)
    }
  }
  return options
}

// ---------------------------------------------------------------- reference set

type Reference = {
  address: string
  country: string
  lat: number
  lng: number
  kind: Kind
  has_country: boolean
  has_postcode: boolean
  source: string
}

function loadReference(path: string): Reference[] {
  const raw: unknown = JSON.parse(readFileSync(path, 'utf8'))
  if (!Array.isArray(raw) || raw.length === 0) throw new BenchError(`${path}: expected a non-empty JSON array`)
  const seen = new Set<string>()
  return raw.map((item: unknown, i): Reference => {
    const r = item as Record<string, unknown>
    const fail = (why: string): never => {
      throw new BenchError(`${path}: entry ${i} (${JSON.stringify(r?.address)}): ${why}`)
    }
    if (typeof r !== 'object' || r === null) fail('not an object')
    if (typeof r.address !== 'string' || r.address.trim() === '') fail('address must be a non-empty string')
    if (typeof r.country !== 'string' || !/^[A-Z]{2}$/.test(r.country))
      fail('country must be ISO 3166-1 alpha-2, upper case')
    if (typeof r.lat !== 'number' || !(Math.abs(r.lat) <= 90)) fail('lat must be a number in [-90, 90]')
    if (typeof r.lng !== 'number' || !(Math.abs(r.lng) <= 180)) fail('lng must be a number in [-180, 180]')
    if (!KINDS.includes(r.kind as Kind)) fail(`kind must be one of ${KINDS.join(', ')}`)
    if (typeof r.has_country !== 'boolean' || typeof r.has_postcode !== 'boolean')
      fail('has_country and has_postcode must be booleans')
    if (typeof r.source !== 'string' || r.source === '') fail('source must be a non-empty string')
    if (seen.has(r.address as string)) fail('duplicate address')
    seen.add(r.address as string)
    return r as Reference
  })
}

// ---------------------------------------------------------------- geocoders

/** The API of src/geocode/embedded.ts, typed here so this file compiles whether or not that module exists yet. */
type EmbeddedModule = {
  openEmbeddedGeocoder(path?: string): Geocoder & { close(): void }
  ensureGeodata(path?: string): Promise<void>
}

type Opened = { geocoder: Geocoder; close(): void; setup: { ensureGeodataMs: number | null; openMs: number } }

async function loadEmbeddedModule(): Promise<EmbeddedModule> {
  const file = fileURLToPath(EMBEDDED_MODULE)
  if (!existsSync(file)) {
    throw new BenchError(
      `the embedded geocoder is not there yet: ${relative(ROOT, file)} does not exist.\n` +
        'Run with --geocoder none to check the benchmark itself, or add the module (it must export openEmbeddedGeocoder and ensureGeodata).',
    )
  }
  // A non-literal specifier: tsc does not try to resolve it, so this compiles before and after the module lands.
  const specifier: string = file
  let mod: Partial<EmbeddedModule>
  try {
    mod = (await import(specifier)) as Partial<EmbeddedModule>
  } catch (e) {
    throw new BenchError(`could not load ${relative(ROOT, file)}: ${e instanceof Error ? e.message : String(e)}`)
  }
  if (typeof mod.openEmbeddedGeocoder !== 'function' || typeof mod.ensureGeodata !== 'function') {
    throw new BenchError(`${relative(ROOT, file)} must export the functions openEmbeddedGeocoder and ensureGeodata`)
  }
  return mod as EmbeddedModule
}

async function openGeocoder(options: Options): Promise<Opened> {
  if (options.geocoder === 'none')
    return { geocoder: noGeocoder, close() {}, setup: { ensureGeodataMs: null, openMs: 0 } }
  const mod = await loadEmbeddedModule()
  let t = performance.now()
  await mod.ensureGeodata(options.data)
  const ensureGeodataMs = performance.now() - t
  t = performance.now()
  const geocoder = mod.openEmbeddedGeocoder(options.data)
  const openMs = performance.now() - t
  return { geocoder, close: () => geocoder.close(), setup: { ensureGeodataMs, openMs } }
}

// ---------------------------------------------------------------- measuring

/** Great-circle distance in km (haversine). */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180
  const dLat = (lat2 - lat1) * rad
  const dLng = (lng2 - lng1) * rad
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)))
}

/** Percentile by linear interpolation between closest ranks (numpy's default); null for no data. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const rank = (p / 100) * (sorted.length - 1)
  const lo = Math.floor(rank)
  const hi = Math.ceil(rank)
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo)
}

const COUNTRY_NAMES: Record<string, string> = {
  'united states': 'US',
  'united states of america': 'US',
  usa: 'US',
  canada: 'CA',
  'united kingdom': 'GB',
  uk: 'GB',
  'great britain': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  australia: 'AU',
  germany: 'DE',
  deutschland: 'DE',
  france: 'FR',
  spain: 'ES',
  espana: 'ES',
  italy: 'IT',
  italia: 'IT',
  netherlands: 'NL',
  nederland: 'NL',
  'the netherlands': 'NL',
  austria: 'AT',
  osterreich: 'AT',
  switzerland: 'CH',
  schweiz: 'CH',
  suisse: 'CH',
  svizzera: 'CH',
  belgium: 'BE',
  belgie: 'BE',
  belgique: 'BE',
  ireland: 'IE',
  eire: 'IE',
  portugal: 'PT',
  sweden: 'SE',
  sverige: 'SE',
  denmark: 'DK',
  danmark: 'DK',
}

/** The ISO2 code a result's parts.country stands for, or null when it is absent or not recognised. */
function resultCountry(result: GeocodeResult): string | null {
  const raw = result.parts?.country?.trim()
  if (!raw) return null
  if (/^[A-Za-z]{2}$/.test(raw)) return raw.toUpperCase() === 'UK' ? 'GB' : raw.toUpperCase()
  const key = raw.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
  return COUNTRY_NAMES[key] ?? null
}

type Outcome = {
  ref: Reference
  result: GeocodeResult | null
  /** Set when geocode() threw or answered with unusable coordinates; the address then counts as unresolved. */
  error?: string
  errorKm: number | null
  /** ISO2 of the answer, or null when the answer names no recognisable country. */
  resultCountry: string | null
  /** One sample per timed pass, microseconds. */
  timesUs: number[]
  warmupUs: number
  /** The timed passes did not all give the warm-up pass's answer. */
  unstable: boolean
}

const sameAnswer = (a: GeocodeResult | null, b: GeocodeResult | null): boolean =>
  a === b || (a !== null && b !== null && a.lat === b.lat && a.lng === b.lng && a.precision === b.precision)

async function timedGeocode(
  geocoder: Geocoder,
  address: string,
): Promise<{ us: number; result: GeocodeResult | null; error?: string }> {
  const t0 = performance.now()
  try {
    const result = await geocoder.geocode(address)
    const us = (performance.now() - t0) * 1000
    if (
      result !== null &&
      !(
        Number.isFinite(result.lat) &&
        Number.isFinite(result.lng) &&
        Math.abs(result.lat) <= 90 &&
        Math.abs(result.lng) <= 180
      )
    ) {
      return { us, result: null, error: `invalid coordinates ${result.lat}, ${result.lng}` }
    }
    return { us, result }
  } catch (e) {
    const us = (performance.now() - t0) * 1000
    return { us, result: null, error: `threw: ${e instanceof Error ? e.message : String(e)}` }
  }
}

type PassTiming = { pass: number; medianUs: number; p99Us: number; totalMs: number }

async function run(
  geocoder: Geocoder,
  refs: Reference[],
  passes: number,
): Promise<{ outcomes: Outcome[]; perPass: PassTiming[]; warmup: PassTiming }> {
  // Warm-up pass: its answers are the ones scored; its times are reported apart (cold caches, JIT).
  const outcomes: Outcome[] = []
  for (const ref of refs) {
    const { us, result, error } = await timedGeocode(geocoder, ref.address)
    const errorKm = result ? haversineKm(ref.lat, ref.lng, result.lat, result.lng) : null
    outcomes.push({
      ref,
      result,
      error,
      errorKm,
      resultCountry: result ? resultCountry(result) : null,
      timesUs: [],
      warmupUs: us,
      unstable: false,
    })
  }
  const passTiming = (pass: number, times: number[]): PassTiming => ({
    pass,
    medianUs: percentile(times, 50)!,
    p99Us: percentile(times, 99)!,
    totalMs: times.reduce((s, t) => s + t, 0) / 1000,
  })
  const warmup = passTiming(
    0,
    outcomes.map((o) => o.warmupUs),
  )
  const perPass: PassTiming[] = []
  for (let pass = 1; pass <= passes; pass++) {
    Bun.gc(true) // start each pass from a collected heap so one pass does not pay for the previous one's garbage
    const times: number[] = []
    for (const o of outcomes) {
      const { us, result } = await timedGeocode(geocoder, o.ref.address)
      o.timesUs.push(us)
      times.push(us)
      if (!sameAnswer(result, o.result)) o.unstable = true
    }
    perPass.push(passTiming(pass, times))
  }
  return { outcomes, perPass, warmup }
}

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

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2))
  const refs = loadReference(options.reference)
  const opened = await openGeocoder(options)
  let measured: Awaited<ReturnType<typeof run>>
  try {
    process.stderr.write(
      `geocode bench: ${refs.length} addresses, geocoder ${opened.geocoder.name}, 1 warm-up + ${options.passes} timed passes\n`,
    )
    measured = await run(opened.geocoder, refs, options.passes)
  } finally {
    opened.close()
  }
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

if (import.meta.main) {
  main().catch((e: unknown) => {
    if (e instanceof UsageError) {
      console.error(`geocode bench: ${e.message}\n${USAGE}`)
      process.exit(2)
    }
    console.error(
      `geocode bench: ${e instanceof BenchError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
    )
    process.exit(1)
  })
}
