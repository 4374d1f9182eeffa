// The geocoding bench's measurement: the reference set read and checked, the geocoder opened, and
// every address geocoded in a warm-up pass then in timed passes, each answer's error and country taken.
import { existsSync, readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { noGeocoder, type GeocodeResult, type Geocoder } from '../src/geocode/geocoder'
import { type Options, ROOT } from './geocode-options'

const EMBEDDED_MODULE = new URL('../src/geocode/embedded.ts', import.meta.url)
/** Mean Earth radius (IUGG), km. */
const EARTH_RADIUS_KM = 6371.0088
export const KINDS = ['centre', 'suburb', 'landmark', 'store'] as const
type Kind = (typeof KINDS)[number]

export class BenchError extends Error {}

// ---------------------------------------------------------------- reference set

export type Reference = {
  address: string
  country: string
  lat: number
  lng: number
  kind: Kind
  has_country: boolean
  has_postcode: boolean
  source: string
}

export function loadReference(path: string): Reference[] {
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

export type Opened = { geocoder: Geocoder; close(): void; setup: { ensureGeodataMs: number | null; openMs: number } }

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

export async function openGeocoder(options: Options): Promise<Opened> {
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

export type Outcome = {
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

export type Measured = { outcomes: Outcome[]; perPass: PassTiming[]; warmup: PassTiming }

export async function run(geocoder: Geocoder, refs: Reference[], passes: number): Promise<Measured> {
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
