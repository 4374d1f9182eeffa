// GET /locations query parameters -> an index query. Each bad parameter is named in the error.
import { type Bbox, bboxMiddle, type IndexQuery, type SortOrder, type TagLogic } from '../../engine/locator-index'
import type { Locator } from '../../store/locators'
import { FLAG_VALUES, firstBrokenPair, flagValue, single } from '../../core/urlencoded'
import { PublicError } from './errors'
import { DEFAULT_RADIUS, KM_PER_MILE, MAX_LIMIT, MAX_RADIUS, MAX_SEARCH, MAX_TAGS } from '../../core/limits'
import { codePoints, WHOLE_NUMBER } from '../../core/text'

export type LocationsRequest = {
  query: IndexQuery
  /** The label of the place near= named as the centre; null for lat/lng or all=true. */
  label: string | null
  unit: 'miles' | 'km'
  /** Radius in `unit` as meta.query shows it (radius queries only): the locator's, converted to another unit, rounded (shownRadius). */
  radius: number
  /** The box of a bbox query, as sent; null for the other kinds. */
  bbox: Bbox | null
}

/** What parseLocationsRequest reads of a query string: URLSearchParams, or queryParams' own reading of a plain one. */
export type Params = Pick<URLSearchParams, 'get' | 'getAll'>

/** A plain query string's name or value with %5B, %5D and %2C decoded. */
const unbracket = (text: string) => text.replaceAll('%5B', '[').replaceAll('%5D', ']').replaceAll('%2C', ',')

/** 1 for the characters a plain query string holds besides "=", "&" and "%" (plainPairs). */
const PLAIN_CHAR = new Uint8Array(128)
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._[],') PLAIN_CHAR[c.charCodeAt(0)] = 1

/**
 * The pairs of a plain query string (without "?"), name then value, decoded; null if it is not
 * plain. Plain: what URLSearchParams gives back unchanged but for its brackets and commas,
 * name=value pairs (a name not empty) of the characters that application/x-www-form-urlencoded
 * leaves as they are (ASCII letters and digits, * - . _), "[" and "]" (as in tags[]=) and ","
 * (as in bbox=), raw or as %5B, %5D and %2C, which it writes so. Tested and split in one pass over
 * the characters: cheaper than a pattern's test, then a split (PERF-013).
 */
export function plainPairs(search: string): string[] | null {
  const pairs: string[] = []
  return isPlainQuery(search, pairs) ? pairs : null
}

/** Whether a query string (without "?") is plain (plainPairs); its pairs, decoded, pushed to `pairs` if given. */
export function isPlainQuery(search: string, pairs: string[] | null = null): boolean {
  const n = search.length
  if (n === 0) return false
  let start = 0
  let eq = -1
  let encoded = false
  for (let i = 0; i <= n; i++) {
    const c = i < n ? search.charCodeAt(i) : 0x26 // the end ends the last pair
    if (c === 0x26) {
      // "&": a pair ends; its name must not be empty, and it must have its "="
      if (eq <= start) return false
      if (pairs !== null) {
        const name = search.slice(start, eq)
        const value = search.slice(eq + 1, i)
        if (encoded) pairs.push(unbracket(name), unbracket(value))
        else pairs.push(name, value)
      }
      start = i + 1
      eq = -1
      encoded = false
    } else if (c === 0x3d) {
      if (eq !== -1) return false // a second "=" in a pair
      eq = i
    } else if (c === 0x25) {
      // "%": only %5B, %5D or %2C
      const h = search.charCodeAt(i + 1)
      const d = search.charCodeAt(i + 2)
      if (!(h === 0x35 && (d === 0x42 || d === 0x44)) && !(h === 0x32 && d === 0x43)) return false
      i += 2
      encoded = true
    } else if (c > 127 || PLAIN_CHAR[c] === 0) return false
  }
  return true
}

/** A plain query string's pairs, name then value, decoded: only %5B and %5D are encoded in one. */
class PlainParams {
  constructor(private readonly pairs: string[]) {}

  get(name: string): string | null {
    for (let i = 0; i < this.pairs.length; i += 2) if (this.pairs[i] === name) return this.pairs[i + 1]!
    return null
  }

  getAll(name: string): string[] {
    const values: string[] = []
    for (let i = 0; i < this.pairs.length; i += 2) if (this.pairs[i] === name) values.push(this.pairs[i + 1]!)
    return values
  }

  /**
   * A name's value if it is given once, null if never, undefined if more than once: what `once`
   * asks, without getAll's array for each name a query reads (PERF-029, PERF-036).
   */
  only(name: string): string | null | undefined {
    let value: string | null = null
    for (let i = 0; i < this.pairs.length; i += 2) {
      if (this.pairs[i] !== name) continue
      if (value !== null) return undefined
      value = this.pairs[i + 1]!
    }
    return value
  }
}

/**
 * A query string's parameters (`search`: without "?"), read as URLSearchParams reads them. A plain
 * one (most queries; a search of two words is not) is split here (plainPairs), cheaper than
 * URLSearchParams made and read ten times over (PERF-007); test/public/query-string.test.ts
 * checks the two agree.
 */
export function queryParams(search: string): Params {
  const pairs = plainPairs(search)
  if (pairs !== null) return new PlainParams(pairs)
  refuseBrokenEscapes(search)
  // With its "?": URLSearchParams drops a leading "?", which would be the query's own.
  return new URLSearchParams(`?${search}`)
}

const invalid = (message: string) => new PublicError('INVALID_PARAMETER', message)

/** The parameters the Query API reads: GET /locations's (tags[] also as tags), and GET /places's q. */
const READ_PARAMS = new Set([
  'all',
  'unit',
  'limit',
  'offset',
  'tagLogic',
  'tags[]',
  'tags',
  'search',
  'sort',
  'lat',
  'lng',
  'radius',
  'open_now',
  'near',
  'bbox',
  'q',
])

/**
 * 400 INVALID_PARAMETER for a parameter it reads whose escapes' bytes are not UTF-8: URLSearchParams
 * would read Latin-1's "caf%E9" as "caf\uFFFD", a search or tag other than the one asked for (a
 * word no location has; or one that folds to no word, so no search at all). A "%" without two hex
 * digits after it is the character typed, as URLSearchParams reads it. Other parameters (a
 * tracker's) are not the Query API's to judge.
 */
function refuseBrokenEscapes(search: string): void {
  const broken = firstBrokenPair(search, (name) => READ_PARAMS.has(name))
  if (broken === null) return
  const { name, value } = broken
  throw invalid(
    `${name} holds an escape whose bytes are not UTF-8 (é is %C3%A9, not Latin-1's %E9); got "${value.length > 60 ? `${value.slice(0, 60)}...` : value}".`,
  )
}

/**
 * A flag: true or 1, false or 0, in any case, as the Management API reads one (flagValue); absent
 * or empty is false, where the Management API refuses an empty one: an empty form field asks for no filter.
 */
export function flag(params: Params, name: string): boolean {
  const raw = once(params, name)
  if (raw === 'true') return true
  if (raw === null || raw === 'false' || raw.trim() === '') return false
  const value = flagValue(raw)
  if (value === null) throw invalid(`${name} must be ${FLAG_VALUES}; got "${raw}".`)
  return value
}

/** A parameter's value, or null; given twice, 400 INVALID_PARAMETER (only tags[] repeats). */
export function once(params: Params, name: string): string | null {
  const value = params instanceof PlainParams ? params.only(name) : undefined
  return value !== undefined ? value : single(params, name, (tail) => invalid(`${name} ${tail}`))
}

/** A number as a parameter is written: a sign, digits, a point, an exponent, spaces around. */
const NUMBER = /^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/

function number(params: Params, name: string): number | null {
  const raw = once(params, name)
  if (raw === null || raw.trim() === '') return null
  // A number too large for a double ("1e400") is Infinity: out of any range, not "not a number".
  if (!NUMBER.test(raw)) throw invalid(`${name} must be a number; got "${raw}".`)
  return Number(raw)
}

/**
 * bbox=west,south,east,north: longitudes from -180 to 180 (west > east crosses the antimeridian),
 * latitudes from -90 to 90, south not above north. null when absent or empty.
 */
export function bboxOf(params: Params): Bbox | null {
  const raw = once(params, 'bbox')
  if (raw === null || raw.trim() === '') return null
  const shown = raw.length > 80 ? `${raw.slice(0, 80)}...` : raw
  const parts = raw.split(',')
  if (parts.length !== 4 || !parts.every((p) => NUMBER.test(p)))
    throw invalid(`bbox must be four numbers, west,south,east,north (as 2.2,48.8,2.4,48.9); got "${shown}".`)
  const [w, s, e, n] = parts.map(Number) as [number, number, number, number]
  if (!(Math.abs(w) <= 180 && Math.abs(e) <= 180))
    throw invalid(
      `bbox's longitudes must be from -180 to 180 (a box wider than the world is too large: wrap a map's longitudes into that range; west > east crosses the antimeridian); got "${shown}".`,
    )
  if (!(Math.abs(s) <= 90 && Math.abs(n) <= 90))
    throw invalid(`bbox's latitudes must be from -90 to 90 (beyond is past a pole); got "${shown}".`)
  if (s > n)
    throw invalid(`bbox's south edge (${s}) is north of its north edge (${n}): the order is west,south,east,north.`)
  return [w, s, e, n]
}

export function integer(params: Params, name: string, fallback: number, min: number, max: number): number {
  const raw = once(params, name)
  if (raw === null || raw.trim() === '') return fallback
  // The spec types limit and offset as numbers: a whole one may be written "20.0".
  if (!WHOLE_NUMBER.test(raw) || Number(raw) < min || Number(raw) > max)
    throw invalid(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`)
  return Number(raw)
}

function oneOf<T extends string>(params: Params, name: string, allowed: readonly T[], fallback: T): T {
  const raw = once(params, name)
  if (raw === null || raw === '') return fallback
  if (!(allowed as readonly string[]).includes(raw))
    throw invalid(`${name} must be one of ${allowed.join(', ')}; got "${raw}".`)
  return raw as T
}

/**
 * The tags of tags[] and tags, trimmed, composed (NFC, as the Management API stores tags: "Café"
 * typed with a combining accent is "Café") and lowercased; empty ones dropped. In loops, not
 * spread into one array, mapped and filtered, which parses slower (PERF-036).
 */
function tagsOf(params: Params): string[] {
  const tags: string[] = []
  for (const name of TAG_PARAMS) {
    const values = params.getAll(name)
    for (let i = 0; i < values.length; i++) {
      const value = values[i]!
      // Printable ASCII but capitals: what trimming, composing and lowercasing leave as it is, so
      // most tags skip the three, toLowerCase the dearest (PERF-029, PERF-036).
      const tag = AS_IT_IS.test(value) ? value : value.trim().normalize('NFC').toLowerCase()
      if (tag !== '') tags.push(tag)
    }
  }
  return tags
}
const TAG_PARAMS = ['tags[]', 'tags']
const AS_IT_IS = /^[!-@[-~]*$/

/** tagLogic, tags[] (and tags) and search: the filters GET /locations and GET /clusters share, checked. */
export function tagsAndSearch(params: Params): { tagLogic: TagLogic; tags: string[]; search: string } {
  const tagLogic = oneOf<TagLogic>(params, 'tagLogic', ['any', 'all', 'match'], 'any')
  const tags = tagsOf(params)
  if (tags.length > MAX_TAGS) throw invalid(`tags[] may be given at most ${MAX_TAGS} times; got ${tags.length}.`)
  const search = once(params, 'search') ?? ''
  // Characters are code points (an emoji is one), not UTF-16 units; never fewer than the units.
  if (search.length > MAX_SEARCH && codePoints(search) > MAX_SEARCH)
    throw invalid(`search may be at most ${MAX_SEARCH} characters; got ${codePoints(search)}.`)
  return { tagLogic, tags, search }
}

export function parseLocationsRequest(
  params: Params,
  locator: Locator,
  groupOf: (tag: string) => string,
  now: number,
  /** The place near= names, as the centre (throws PLACE_NOT_FOUND or PLACES_UNAVAILABLE). */
  place: (text: string) => { lat: number; lng: number; label: string; reachKm?: number },
): LocationsRequest {
  const all = flag(params, 'all')
  const bbox = bboxOf(params)
  if (bbox !== null && all)
    throw invalid('bbox asks for the locations in a box, and all=true for every one: send one or the other.')
  const openNow = flag(params, 'open_now')
  const near = once(params, 'near') ?? ''
  if (near.length > MAX_SEARCH && codePoints(near) > MAX_SEARCH)
    throw invalid(`near may be at most ${MAX_SEARCH} characters; got ${codePoints(near)}.`)

  // Miles unless sent, as the spec's table says; the locator's unit is only its radius's.
  const unit = oneOf(params, 'unit', ['miles', 'km'] as const, 'miles')
  const limit = integer(params, 'limit', 20, 1, MAX_LIMIT)
  const offset = integer(params, 'offset', 0, 0, Number.MAX_SAFE_INTEGER)
  const { tagLogic, tags, search } = tagsAndSearch(params)
  const sortAllowed: SortOrder[] = all
    ? ['name', 'priority']
    : bbox !== null
      ? ['distance', 'name', 'priority']
      : ['distance', 'priority']
  const sort = oneOf<SortOrder>(params, 'sort', sortAllowed, all ? 'name' : 'distance')

  // Read and checked with all=true too, where they are not needed: a bad or repeated one is the
  // sender's mistake either way, and every parameter but tags[] is given at most once.
  const lat = number(params, 'lat')
  const lng = number(params, 'lng')
  if (near.trim() !== '' && all) throw invalid('near names a centre, and all=true takes none: send one or the other.')
  if (near.trim() !== '' && (lat !== null || lng !== null))
    throw invalid('near and lat/lng both name a centre: send one or the other.')
  let center: IndexQuery['center'] = all || lat === null || lng === null ? null : { lat, lng }
  let label: string | null = null
  let reachKm: number | undefined
  if (near.trim() !== '') {
    const found = place(near)
    center = { lat: found.lat, lng: found.lng }
    label = found.label
    reachKm = found.reachKm
  }
  if (bbox !== null && center === null) {
    if (lat !== null || lng !== null)
      throw new PublicError(
        'MISSING_COORDINATES',
        `${lat === null ? 'lat' : 'lng'} is required with ${lat === null ? 'lng' : 'lat'}: together they name where distances are measured from.`,
      )
    center = bboxMiddle(bbox)
  }
  if (!all && center === null)
    throw new PublicError(
      'MISSING_COORDINATES',
      `${lat === null ? 'lat' : 'lng'} is required unless near or bbox is sent, or all=true.`,
    )
  const outside =
    lat !== null && (lat < -90 || lat > 90) ? 'lat' : lng !== null && (lng < -180 || lng > 180) ? 'lng' : null
  if (outside !== null)
    throw new PublicError(
      'INVALID_COORDINATES',
      `${outside} must be between ${outside === 'lat' ? '-90 and 90' : '-180 and 180'}; got "${params.get(outside)}".`,
    )
  const sent = number(params, 'radius')
  if (sent !== null && bbox !== null)
    throw invalid('radius bounds a query around a point, and bbox is a box: send one or the other.')
  if (sent !== null && (!(sent > 0) || sent > MAX_RADIUS))
    throw invalid(`radius must be more than 0 and at most ${MAX_RADIUS} ${unit}; got ${params.get('radius')}.`)

  let radius = 0
  let shown = 0
  if (center !== null && bbox === null) {
    // The locator's radius was checked in its own unit when it was set: in another it may be more
    // than MAX_RADIUS (1000 miles is 1609 km), and is still the radius the locator asks for.
    if (sent !== null) radius = shown = sent
    else if (locator.defaultRadius === null) radius = shown = DEFAULT_RADIUS
    else if (locator.defaultUnit === unit) radius = shown = locator.defaultRadius
    else {
      radius = convert(locator.defaultRadius, locator.defaultUnit, unit)
      shown = shownRadius(radius)
    }
    // A region or country as the centre: the radius reaches most of its towns, however small the
    // one sent ("near=California" is Los Angeles and San Francisco, not 25 miles of its middle).
    const reach =
      reachKm === undefined ? 0 : Math.min(MAX_RADIUS, Math.ceil(unit === 'km' ? reachKm : reachKm / KM_PER_MILE))
    if (reach > radius) radius = shown = reach
  }
  return {
    query: {
      center,
      radiusKm: unit === 'km' ? radius : radius * KM_PER_MILE,
      bbox,
      tags,
      tagLogic,
      groupOf,
      search,
      sort,
      offset,
      limit,
      openAt: openNow ? now : null,
    },
    label,
    unit,
    radius: shown,
    bbox,
  }
}

/**
 * A radius converted to another unit as meta.query shows it: rounded to hundredths as distances
 * are (40 km in miles: 24.85, not 24.854847689493358), or to two significant digits when that
 * would be 0 (a radius is more than 0). The query searches the radius as converted, unrounded.
 */
export function shownRadius(radius: number): number {
  return Math.round(radius * 100) / 100 || Number(radius.toPrecision(2))
}

export function convert(value: number, from: 'miles' | 'km', to: 'miles' | 'km'): number {
  if (from === to) return value
  return from === 'miles' ? value * KM_PER_MILE : value / KM_PER_MILE
}
