// Address -> coordinates from the compiled tables: country, then postcode confirmed by its town,
// then the place names (most specific part wins, narrowed by region, most populous on ties).
// Refuses (null) rather than guess when nothing in the address matches.
import type { Database } from 'bun:sqlite'
import { distance } from 'geokdbush'
import type { AddressParts } from '../../store/locations'
import { normalizeAddress, type GeocodeResult, type Precision } from '../geocoder'
import { nameKey } from '../../core/text'
import { districtPostcode } from './district-codes'
import { POSTCODE_FORMS, postcodePrefix } from './postcode-forms'
import { AU_STATES, CA_PROVINCES, COUNTRY_ALIASES } from './tables'

/** The aliases ("USA", "UK"): names of countries though as short as a code. */
const ALIASES = new Set(Object.keys(COUNTRY_ALIASES).map(nameKey))

/**
 * A town at least this populous whose own name is a country's in some language is the town when
 * named alone ("Salvador", Brazil, 2.7M: El Salvador in Spanish; "Granada", Spain: Grenada;
 * "Franca", Brazil: France in Portuguese), not the country.
 */
const TOWN_OVER_COUNTRY = 100_000

type PlaceRow = {
  id: number
  name: string
  country: string
  admin1: string
  lat: number
  lng: number
  population: number
  alt: number
  weight: number
}
type PostcodeRow = {
  country: string
  postcode: string
  place_key: string
  place: string
  admin1: string
  lat: number
  lng: number
  precision: Precision
  /** The town's population where the data knows it, else 0. */
  people: number
}
type RegionHint = { country: string; admin1: string; key: string; part: number; whole: boolean }

const US_STATE =
  /^(A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY])$/

/** A place named before the town and within this distance of it is a suburb of it ("Bondi Beach, Sydney"). */
const SUBURB_KM = 15
/** A place this close to a town's point is the town itself, by another name. */
const TOWN_ITSELF_KM = 1
/** A town named beside a postcode confirms it when this close to it: "Freiburg" is the data's "Freiburg im Breisgau". */
export const CONFIRM_KM = 15
/** A town of at least TOWN_POPULATION named before a place this close is the town, the other its province ("Marbella, Málaga"). */
const PROVINCE_KM = 100
const TOWN_POPULATION = 5000
/** What stands between a town and its district: "Köln-Ehrenfeld", "Wien–Favoriten". */
export const DASHES = /[-‐–—]/g
/** A town written before a dash and its district has this many people: "Mont-Saint-Michel" is not in Mont. */
export const DISTRICT_TOWN_POPULATION = 20_000
const ALT_NAME_WEIGHT = 0.2
/** Refuse when a same-named place in another country has at least half the best one's weight: bare "Barcelona" (Spain 1.6M, Venezuela 0.8M) or "Salamanca" (Mexico 273k, Spain 156k). With the country added, both resolve. */
const AMBIGUITY_RATIO = 2

/** How a region is written in an address: US state codes are GeoNames' own; CA and AU have theirs. */
const REGION_ABBR: Record<string, Record<string, string>> = {
  CA: Object.fromEntries(Object.entries(CA_PROVINCES).map(([abbr, r]) => [r.admin1, abbr.toUpperCase()])),
  AU: Object.fromEntries(Object.entries(AU_STATES).map(([abbr, r]) => [r.admin1, abbr.toUpperCase()])),
}
export const regionLabel = (country: string, admin1: string) =>
  country === 'US' ? admin1 : REGION_ABBR[country]?.[admin1]
/** Great-circle distance in km, in the API's (lat, lng) order: geokdbush's formula, as the index uses. */
export const distanceKm = (aLat: number, aLng: number, bLat: number, bLng: number): number =>
  distance(aLng, aLat, bLng, bLat)

// Street words. A suffix word ends a street name ("Main Street"), a prefix word starts one ("Rue de Rivoli").
const STREET_SUFFIX = new Set(
  'street road avenue ave boulevard blvd lane ln drive way court ct terrace parkway pkwy highway hwy square crescent close place pl row strasse str weg allee gasse platz damm ufer straat laan gracht plein kade singel steeg'.split(
    ' ',
  ),
)
const STREET_SUFFIX_AT_END = new Set(['st', 'rd', 'dr', 'av'])
const STREET_PREFIX = new Set(
  'rue avenue av boulevard bd chemin allee impasse quai place via viale piazza piazzale corso largo vicolo calle avenida plaza paseo carrer rua travessa praca'.split(
    ' ',
  ),
)
const COMPOUND_STREET = /(strasse|straße|gasse|allee|platz|damm|weg|straat|laan|gracht|plein)$/
const DIRECTION = /^(n|s|e|w|ne|nw|se|sw)$/

/** Which tokens of a part belong to a street name (and so never name a town). */
function streetMask(tokens: string[]): boolean[] {
  const keys = tokens.map((t) => nameKey(t))
  const mask = keys.map(() => false)
  const isNumber = (i: number) => /\d/.test(tokens[i] ?? '')
  keys.forEach((key, k) => {
    const atEnd = k === keys.length - 1 || isNumber(k + 1) || DIRECTION.test(keys[k + 1] ?? '')
    if (
      STREET_SUFFIX.has(key) ||
      (STREET_SUFFIX_AT_END.has(key) && atEnd && k > 0) ||
      (key.length > 6 && COMPOUND_STREET.test(key))
    ) {
      let start = k
      while (start > 0 && !isNumber(start - 1)) start--
      for (let i = start; i <= k; i++) mask[i] = true
      if (DIRECTION.test(keys[k + 1] ?? '')) mask[k + 1] = true
    } else if (STREET_PREFIX.has(key) && k < keys.length - 1) {
      for (let i = k; i < keys.length && !isNumber(i); i++) mask[i] = true
    }
  })
  return mask
}

/**
 * Bump when the resolver places an address differently on the same data: cached answers are keyed
 * by it and the data's version, so old answers are not served after a fix.
 */
export const RESOLVER_VERSION = '15'

type Part = { raw: string; tokens: string[] }
/**
 * dashed: the words before a dash in a word ("Köln" of "Köln-Ehrenfeld"); district: the words
 * after it ("Ehrenfeld"), which only ever refine the town before the dash.
 */
type Window = {
  key: string
  part: number
  start: number
  len: number
  whole: boolean
  dashed?: boolean
  district?: boolean
}
type Candidate = { place: PlaceRow; window: Window }

/** The statements the resolver asks the data with. */
type Queries = ReturnType<typeof queriesOf>

function queriesOf(db: Database) {
  const qCountry = db.prepare<{ code: string }, [string]>('SELECT code FROM countries WHERE key = ?')
  const qRegions = db.prepare<{ country: string; admin1: string }, [string]>(
    'SELECT country, admin1 FROM regions WHERE key = ?',
  )
  const qPostcode = db.prepare<PostcodeRow, [string, string]>(
    'SELECT * FROM postcodes WHERE country = ? AND postcode = ?',
  )
  // A place found by an alternate name counts for a fifth of its population, so "Porto" is Porto,
  // not Bordeaux (which also bears that name), while "Milano" is still Milan.
  const PLACE_COLUMNS = `p.id, p.name, p.country, p.admin1, p.lat, p.lng, p.population, n.alt,
    p.population * (CASE n.alt WHEN 1 THEN ${ALT_NAME_WEIGHT} ELSE 1 END) AS weight`
  const qPlaces = db.prepare<PlaceRow, [string]>(
    `SELECT ${PLACE_COLUMNS} FROM place_names n JOIN places p ON p.id = n.place_id WHERE n.key = ? ORDER BY weight DESC LIMIT 25`,
  )
  const qPlacesIn = db.prepare<PlaceRow, [string, string]>(
    `SELECT ${PLACE_COLUMNS} FROM place_names n JOIN places p ON p.id = n.place_id WHERE n.key = ? AND p.country = ? ORDER BY weight DESC LIMIT 25`,
  )

  const countryOf = (key: string): string | null => (key === '' ? null : (qCountry.get(key)?.code ?? null))
  return { countryOf, qRegions, qPostcode, qPlaces, qPlacesIn }
}

export function resolver(db: Database) {
  const q = queriesOf(db)
  return { lookup: (address: string) => lookup(q, address) }
}

/**
 * The country a whole address names by one of its names (not its codes, which are words and
 * towns' names too: "Bo", "Man", "Bra"; the aliases are names), unless a big town's own name
 * it is too (TOWN_OVER_COUNTRY); null otherwise.
 */
function countryAlone(q: Queries, key: string): string | null {
  if (key.length <= 3 && !ALIASES.has(key)) return null
  const code = q.countryOf(key)
  if (code === null) return null
  return q.qPlaces.all(key).some((p) => p.alt === 0 && p.population >= TOWN_OVER_COUNTRY) ? null : code
}

/**
 * Strips a trailing country name or code and returns its ISO code. A capitalised 2-letter code that
 * is also a state or province ("CA", "DE", "NL", "SK") is left in place and returned as codeAlso:
 * read as a region first, as a country when no town of that region matches. A name that is a
 * region's too ("Georgia") is taken, and alsoRegion says so: the caller reads it as the region
 * when no town of the country matches ("Atlanta, Georgia"). With keepRegionNames, such a name is
 * left in place.
 */
function takeCountry(
  q: Queries,
  parts: Part[],
  keepRegionNames: boolean,
): { country: string | null; codeAlso: string | null; alsoRegion: boolean } {
  const last = parts[parts.length - 1]!
  const oneTail = (n: number) => nameKey(last.tokens.slice(-n).join(' '))
  for (let n = Math.min(4, last.tokens.length); n >= 1; n--) {
    const tail = last.tokens.slice(-n)
    if (n === last.tokens.length && parts.length === 1) continue // never the whole address
    const key = nameKey(tail.join(' '))
    const code = q.countryOf(key)
    if (!code) continue
    // Not the end of a longer name ("Santa Fe, New Mexico", "Jersey City New Jersey").
    let longer = false
    for (let m = n + 1; m <= Math.min(n + 3, last.tokens.length); m++)
      if (q.countryOf(oneTail(m)) !== null || q.qRegions.get(oneTail(m)) !== null) longer = true
    if (longer) continue
    const alsoRegion = q.qRegions.get(key) !== null
    if (alsoRegion && keepRegionNames) continue
    // Without a comma before it, only a plain country name is taken: not a code ("Bergamo BG"),
    // not a region's name too ("Atlanta Georgia").
    if (parts.length === 1 && (key.length === 2 || alsoRegion)) continue
    const raw = tail.join(' ')
    if (key.length === 2 && raw !== raw.toUpperCase()) continue // "de", "in": words, not codes
    if (key.length === 2 && (US_STATE.test(raw) || key in CA_PROVINCES || key in AU_STATES))
      return { country: null, codeAlso: raw, alsoRegion: false }
    last.tokens.splice(-n, n)
    if (last.tokens.length === 0) parts.pop()
    return { country: code, codeAlso: null, alsoRegion }
  }
  return { country: null, codeAlso: null, alsoRegion: false }
}

function regionHints(q: Queries, parts: Part[], lastPart: number): RegionHint[] {
  const hints: (RegionHint & { start: number; len: number })[] = []
  parts.forEach((part, p) => {
    for (let start = 0; start < part.tokens.length; start++) {
      for (let len = 1; len <= 3 && start + len <= part.tokens.length; len++) {
        const raw = part.tokens.slice(start, start + len).join(' ')
        const key = nameKey(raw)
        if (key === '' || /\d/.test(key)) continue
        if (key.length <= 3 && raw !== raw.toUpperCase()) continue // abbreviations only in capitals
        for (const r of q.qRegions.all(key)) {
          hints.push({
            country: r.country,
            admin1: r.admin1,
            key,
            part: p,
            start,
            len,
            whole: p === lastPart && nameKey(part.tokens.filter((t) => !/\d/.test(t)).join(' ')) === key,
          })
        }
      }
    }
  })
  // A region's name inside a longer one's is not named: "Wales" in "New South Wales".
  const within = (h: { part: number; start: number; len: number }, o: { part: number; start: number; len: number }) =>
    o.part === h.part && o.len > h.len && o.start <= h.start && h.start + h.len <= o.start + o.len
  return hints.filter((h) => !hints.some((o) => within(h, o))).map(({ start: _, len: __, ...h }) => h)
}

function windowsOf(parts: Part[], skipPart: number): Window[] {
  const out: Window[] = []
  parts.forEach((part, p) => {
    if (p === skipPart) return
    const street = streetMask(part.tokens)
    // Words that can name a place: no numbers, no street words, no district letters ("København V").
    const nameTokens = part.tokens.filter((t, i) => !/\d/.test(t) && !street[i] && nameKey(t).length > 1).length
    for (let start = 0; start < part.tokens.length; start++) {
      for (let len = 1; len <= 4 && start + len <= part.tokens.length; len++) {
        const slice = part.tokens.slice(start, start + len)
        if (slice.some((t) => /\d/.test(t)) || street[start + len - 1]) break
        const key = nameKey(slice.join(' '))
        if (key.length >= 2) out.push({ key, part: p, start, len, whole: len === nameTokens })
      }
      // A town before a dash, its district after it ("Köln-Ehrenfeld"): the town, never whole,
      // so a place's own dashed name comes first ("Saint-Jean-Pied-de-Port").
      const token = part.tokens[start]!
      if (/\d/.test(token) || street[start]) continue
      for (const dash of token.matchAll(DASHES)) {
        const key = nameKey(token.slice(0, dash.index))
        if (key.length >= 2) out.push({ key, part: p, start, len: 1, whole: false, dashed: true })
        const rest = nameKey(token.slice(dash.index + dash[0].length))
        if (rest.length >= 2) out.push({ key: rest, part: p, start, len: 1, whole: false, district: true })
      }
    }
  })
  return out
}

function lookup(q: Queries, address: string): GeocodeResult | null {
  // The cache's key, so that addresses sharing one get one answer (the street as written, too).
  const text = normalizeAddress(address)
  const first = resolve(q, text, false)
  return first.result === null && first.alsoRegion ? resolve(q, text, true).result : first.result
}

function resolve(
  q: Queries,
  address: string,
  keepRegionNames: boolean,
): { result: GeocodeResult | null; alsoRegion: boolean } {
  const parts: Part[] = address
    .split(/[,;\n|]+/)
    .map((raw) => raw.trim())
    .filter((raw) => raw !== '')
    .map((raw) => ({ raw, tokens: raw.split(/\s+/) }))
  if (parts.length === 0) return { result: null, alsoRegion: false }
  const prefixed = readPrefixed(parts)
  // An address that is a country's name and nothing else is a town only in that country: a
  // city-state ("Singapore", "Monaco"), not a namesake abroad ("USA": Usa River, Tanzania;
  // "Brazil": Brazil, Indiana). Otherwise it names no place precisely enough (null).
  const whole = parts.length === 1 ? countryAlone(q, nameKey(parts[0]!.raw)) : null
  if (whole !== null) return { result: place(q, parts, whole, null), alsoRegion: false }
  const { country, codeAlso, alsoRegion } = takeCountry(q, parts, keepRegionNames)
  return { result: parts.length === 0 ? null : place(q, parts, country ?? prefixed, codeAlso), alsoRegion }
}

/**
 * The country a part's vehicle code names before its postcode ("D-80331 München": DE), kept in
 * place: "D-60311 Frankfurt am Main" is no house number and street. Rewrites, in place, each part
 * that is wholly a district by its number or name as its postcode and city ("Wien 13": "1130 Wien").
 */
function readPrefixed(parts: Part[]): string | null {
  let country: string | null = null
  for (const part of parts) {
    const prefixed = postcodePrefix(part.raw)
    if (prefixed?.postcode) country ??= prefixed.country
    const head = prefixed?.postcode ? part.raw.slice(0, part.raw.length - prefixed.rest.length) : ''
    const district = districtPostcode(part.raw.slice(head.length))
    if (district !== null) Object.assign(part, { raw: head + district, tokens: (head + district).split(/\s+/) })
  }
  return country
}

function place(q: Queries, parts: Part[], explicit: string | null, codeAlso: string | null): GeocodeResult | null {
  // The first of several parts is the street when it holds a house number or a street word
  // ("200 Main Street"), but not when it is a postcode and its town ("79098 Freiburg").
  const first = parts[0]!
  const postcodeTown = /^\s*(\d{4,5}|[A-Z]\d[A-Z] ?\d[A-Z]\d|\d{4} ?[A-Z]{2})\s+\D+$/.test(first.raw)
  const streetPart =
    parts.length > 1 && !postcodeTown && (/\d/.test(first.raw) || streetMask(first.tokens).some(Boolean)) ? 0 : -1
  const street = streetPart === 0 ? parts[0]!.raw : undefined
  const houseNumberFirst =
    parts.length === 1 && /^\d+[a-z]?$/i.test(parts[0]!.tokens[0] ?? '') && parts[0]!.tokens.length > 2

  const hints = regionHints(q, parts, parts.length - 1)
  const windows = windowsOf(parts, streetPart)
  const parsed: Parsed = { parts, explicit, codeAlso, street, streetPart, houseNumberFirst, hints, windows }
  const { result, formatCountry } = byPostcode(q, parsed)
  return result ?? byPlaceName(q, parsed, explicit ?? formatCountry)
}

/** What place() read off an address, for the steps that place it. */
type Parsed = {
  parts: Part[]
  explicit: string | null
  codeAlso: string | null
  street: string | undefined
  streetPart: number
  houseNumberFirst: boolean
  hints: RegionHint[]
  windows: Window[]
}

/** The address placed by a postcode it holds; or null, with the country a postcode's format alone tells. */
function byPostcode(q: Queries, a: Parsed): { result: GeocodeResult | null; formatCountry: string | null } {
  const { parts, explicit, street, streetPart, houseNumberFirst, hints } = a
  const allowed = (c: string) => explicit === null || c === explicit
  const windowKeys = new Set(a.windows.map((w) => w.key))
  // The postcode's row its town confirms: by the data's name for it or a name it begins ("Paris
  // 16" of "75016 Paris", not the part of Boulogne-Billancourt 75016 serves; a numbered part's town
  // is the town), else by a place the address names in the same country close to it.
  const partOf = (r: PostcodeRow): PostcodeRow | undefined => {
    const w = a.windows.find((w) => r.place_key.startsWith(`${w.key} `))
    if (w === undefined || !/^\d/.test(r.place_key.slice(w.key.length + 1))) return w && r
    return { ...r, place: q.qPlacesIn.get(w.key, r.country)?.name ?? r.place }
  }
  const confirm = (country: string, rows: PostcodeRow[]): PostcodeRow | null => {
    const named = rows.find((r) => r.place_key !== '' && windowKeys.has(r.place_key)) ?? rows.map(partOf).find(Boolean)
    if (named) return named
    for (const w of a.windows)
      for (const p of q.qPlacesIn.all(w.key, country)) {
        const near = rows.find((r) => r.place !== '' && distanceKm(r.lat, r.lng, p.lat, p.lng) <= CONFIRM_KM)
        if (near) return near
      }
    return null
  }
  // Postcodes, rightmost first.
  type PostcodeHit = { country: string; code: string; rows: PostcodeRow[]; confirmed: PostcodeRow | null }
  const hits: PostcodeHit[] = []
  let formatCountry: string | null = null
  for (let p = parts.length - 1; p >= 0; p--) {
    const text = parts[p]!.tokens.join(' ')
    for (const form of POSTCODE_FORMS) {
      form.re.lastIndex = 0
      for (let m = form.re.exec(text); m; m = form.re.exec(text)) {
        if (houseNumberFirst && p === 0 && m.index === 0) continue
        if (p === streetPart && m.index === 0) continue
        const code = form.canonical(m)
        if (form.countries.length === 1) formatCountry ??= form.countries[0]!
        for (const c of form.countries) {
          if (!allowed(c)) continue
          const rows = q.qPostcode.all(c, code)
          if (rows.length === 0) continue
          hits.push({ country: c, code, rows, confirmed: confirm(c, rows) })
        }
      }
    }
  }
  const hinted = (c: string) => hints.some((h) => h.country === c)
  // A country's code in capitals beside the postcode names its country ("US 90210", "75001 FR",
  // "USA 90210", "DEU 10115"), though, without a comma before it, takeCountry leaves it ("Bergamo
  // BG" names a province).
  const coded = new Set(
    parts.flatMap((p) => p.tokens.filter((t) => /^[A-Z]{2,3}$/.test(t)).map((t) => q.countryOf(t.toLowerCase()))),
  )
  const named = (c: string) => explicit !== null || hinted(c) || coded.has(c)
  const chosen =
    hits.find((h) => h.confirmed && (named(h.country) || hits.filter((x) => x.confirmed).length === 1)) ??
    hits.find((h) => h.confirmed) ??
    hits.find((h) => coded.has(h.country)) ?? // "DE 10115" is Berlin: "DE" names Delaware too, but not its postcode's region
    hits.find((h) => named(h.country) || h.country === formatCountry) ??
    null
  if (chosen) {
    const row = chosen.confirmed ?? centroid(chosen.rows)
    // A postcode placed at its town's point: a district the address names refines it.
    const district = chosen.confirmed && row.precision === 'city' ? districtOf(q, a, row) : null
    const result: GeocodeResult = {
      lat: district?.lat ?? row.lat,
      lng: district?.lng ?? row.lng,
      precision: row.precision,
      source: 'embedded',
      parts: clean({
        street,
        city: district?.name ?? (chosen.confirmed?.place || undefined),
        region: regionLabel(chosen.country, row.admin1),
        postcode: chosen.code,
        country: chosen.country,
      }),
    }
    return { result, formatCountry }
  }
  return { result: null, formatCountry }
}

/**
 * A place a whole part of the address, or the words after a town's dash, names within SUBURB_KM
 * of a postcode's town point, other than that town: "13597 Berlin-Spandau" is in Spandau, 14 km
 * from Berlin's point.
 */
function districtOf(q: Queries, a: Parsed, row: PostcodeRow): PlaceRow | null {
  let best: PlaceRow | null = null
  for (const w of a.windows) {
    if (!(w.whole || w.district) || w.key === row.place_key) continue
    for (const p of q.qPlacesIn.all(w.key, row.country)) {
      // A place at the town's own point is the town by another name ("Freiburg" for the
      // postcode's "Freiburg im Breisgau"), and refines nothing.
      // Nor is a place as populous as the town: the town itself, named beside a code at its
      // part's point ("75016 Paris", at the 16th's town hall, is not Paris's centre).
      const km = distanceKm(p.lat, p.lng, row.lat, row.lng)
      if (row.people > 0 && p.population >= row.people) continue
      if (km >= TOWN_ITSELF_KM && km <= SUBURB_KM && (best === null || p.weight > best.weight)) best = p
    }
  }
  return best
}

/** The address placed by the names of places it holds, in `country` when one is known. */
function byPlaceName(q: Queries, a: Parsed, country: string | null): GeocodeResult | null {
  const { parts, explicit, codeAlso, street, hints, windows } = a
  let candidates: Candidate[] = []
  const districts: Candidate[] = []
  for (const w of windows) {
    const rows = country ? q.qPlacesIn.all(w.key, country) : q.qPlaces.all(w.key)
    for (const place of rows)
      if (w.district) districts.push({ place, window: w })
      else if (!w.dashed || place.population >= DISTRICT_TOWN_POPULATION) candidates.push({ place, window: w })
  }
  if (candidates.length === 0) return null
  // A hint with no admin1 ("Cornwall", "Andalucía") names only the country.
  const fits = (c: Candidate) =>
    hints.some((h) => h.country === c.place.country && (h.admin1 === '' || h.admin1 === c.place.admin1))
  // The last part is wholly a region's name ("..., New Jersey", "..., Norfolk"), named in place of
  // a country: a town found elsewhere is a namesake, not the address's (refused, as a named
  // country is never left). A code ("Berlin, DE") may still be read as a country, below.
  if (
    explicit === null &&
    codeAlso === null &&
    parts.length > 1 &&
    hints.some((h) => h.whole) &&
    !candidates.some(fits)
  )
    return null
  if (hints.length > 0 && candidates.some(fits)) {
    const narrowed = candidates.filter(fits)
    // A window that is only the region's own name ("Texas" in "Paris, Texas") is not the town.
    const notRegion = narrowed.filter(
      (c) => !hints.some((h) => h.whole && h.key === c.window.key && h.part === c.window.part),
    )
    candidates = notRegion.length > 0 ? notRegion : narrowed
  } else if (codeAlso && explicit === null) {
    // "Berlin, DE" is not Delaware: read the code as a country instead.
    const code = q.countryOf(codeAlso.toLowerCase())
    const inCountry = candidates.filter((c) => c.place.country === code)
    if (inCountry.length > 0) candidates = inCountry
  }
  // The town: a part that is wholly a place name beats a word inside a longer part ("Torre de
  // Belém, Lisboa" is in Lisbon), then the most populous, so a county ("Bath, Somerset") is not
  // taken for the town.
  candidates.sort(
    (a, b) =>
      Number(b.window.whole) - Number(a.window.whole) ||
      b.place.weight - a.place.weight ||
      b.window.len - a.window.len ||
      b.window.part - a.window.part,
  )
  let best = candidates[0]!
  // Nothing tells the country and a namesake abroad is nearly as big ("Salamanca": Mexico or
  // Spain?): refuse rather than guess.
  if (country === null && !fits(best)) {
    const rival = candidates.find(
      (c) =>
        c.place.country !== best.place.country &&
        c.window.whole === best.window.whole &&
        c.window.key === best.window.key,
    )
    if (rival && rival.place.weight * AMBIGUITY_RATIO >= best.place.weight) return null
  }
  // A place named before it is more precise: a suburb of the town ("Bondi Beach, Sydney"), or a
  // town in a province named after its capital ("Marbella, Málaga").
  const town = best
  // The district after the town's dash ("Wien-Favoriten") is the most precise of all.
  const district = districtAfterDash(town, districts)
  if (district) best = district
  const suburbs = candidates
    .filter(
      (c) => c.window.part < town.window.part && c.place.id !== town.place.id && c.place.country === town.place.country,
    )
    .filter((c) => {
      const km = distanceKm(c.place.lat, c.place.lng, town.place.lat, town.place.lng)
      return km <= SUBURB_KM || (c.window.whole && km <= PROVINCE_KM && c.place.population >= TOWN_POPULATION)
    })
    .sort(
      (a, b) =>
        b.window.part - a.window.part ||
        Number(b.window.whole) - Number(a.window.whole) ||
        b.window.len - a.window.len ||
        b.place.weight - a.place.weight,
    )
  if (!district && suburbs.length > 0) best = suburbs[0]!
  return {
    lat: best.place.lat,
    lng: best.place.lng,
    precision: 'city',
    source: 'embedded',
    parts: clean({
      street,
      city: best.place.name,
      region: regionLabel(best.place.country, best.place.admin1),
      country: best.place.country,
    }),
  }
}

/** The heaviest place named after the town's own dash, within SUBURB_KM of it. */
function districtAfterDash(town: Candidate, districts: Candidate[]): Candidate | null {
  if (!town.window.dashed) return null
  let best: Candidate | null = null
  for (const c of districts) {
    if (c.window.part !== town.window.part || c.window.start !== town.window.start) continue
    if (c.place.country !== town.place.country || c.place.id === town.place.id) continue
    if (distanceKm(c.place.lat, c.place.lng, town.place.lat, town.place.lng) > SUBURB_KM) continue
    if (best === null || c.place.weight > best.place.weight) best = c
  }
  return best
}

function centroid(rows: PostcodeRow[]): PostcodeRow {
  if (rows.length === 1) return rows[0]!
  const mean = (of: (r: PostcodeRow) => number) => rows.reduce((sum, r) => sum + of(r), 0) / rows.length
  return { ...rows[0]!, place: '', lat: mean((r) => r.lat), lng: mean((r) => r.lng) }
}

function clean(parts: AddressParts): AddressParts {
  const out: AddressParts = {}
  for (const [k, v] of Object.entries(parts) as [keyof AddressParts, string | undefined][]) if (v) out[k] = v
  return out
}
