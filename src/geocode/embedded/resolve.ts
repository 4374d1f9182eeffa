// Address -> coordinates from the compiled tables: country, then postcode confirmed by its town,
// then the place names (most specific part wins, narrowed by region, most populous on ties).
// Refuses (null) rather than guess when nothing in the address matches.
import type { Database } from 'bun:sqlite'
import type { AddressParts } from '../../store/locations'
import type { GeocodeResult, Precision } from '../geocoder'
import { nameKey } from './normalize'
import { AU_STATES, CA_PROVINCES } from './tables'

type PlaceRow = { id: number; name: string; country: string; admin1: string; lat: number; lng: number; population: number }
type PostcodeRow = { country: string; postcode: string; place_key: string; place: string; admin1: string; lat: number; lng: number; precision: Precision }
type RegionHint = { country: string; admin1: string; key: string; part: number; whole: boolean }

const US_STATE = /^(A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY])$/

/** Postcode shapes, each with the countries it may belong to. Tables exist for US, CA, AU, DE, FR, ES, IT. */
const POSTCODE_FORMS: { re: RegExp; countries: string[]; canonical: (m: RegExpExecArray) => string }[] = [
  { re: /\b([A-Z]\d[A-Z]) ?\d[A-Z]\d\b/g, countries: ['CA'], canonical: (m) => m[1]!.toUpperCase() },
  { re: /\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b/g, countries: ['GB'], canonical: (m) => m[0]!.toUpperCase() },
  { re: /\b\d{4} ?[A-Z]{2}\b/g, countries: ['NL'], canonical: (m) => m[0]!.replace(' ', '').toUpperCase() },
  { re: /\b(\d{5})(?:-\d{4})?\b/g, countries: ['US', 'DE', 'FR', 'ES', 'IT'], canonical: (m) => m[1]! },
  { re: /\b\d{4}\b/g, countries: ['AU', 'AT', 'CH', 'BE', 'DK', 'NO'], canonical: (m) => m[0]! },
]

const SUBURB_KM = 30

/** How a region is written in an address: US state codes are GeoNames' own; CA and AU have theirs. */
const REGION_ABBR: Record<string, Record<string, string>> = {
  CA: Object.fromEntries(Object.entries(CA_PROVINCES).map(([abbr, r]) => [r.admin1, abbr.toUpperCase()])),
  AU: Object.fromEntries(Object.entries(AU_STATES).map(([abbr, r]) => [r.admin1, abbr.toUpperCase()])),
}
const regionLabel = (country: string, admin1: string) => (country === 'US' ? admin1 : REGION_ABBR[country]?.[admin1])
const rad = Math.PI / 180
export function distanceKm(aLat: number, aLng: number, bLat: number, bLng: number): number {
  const dLat = (bLat - aLat) * rad
  const dLng = (bLng - aLng) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * rad) * Math.cos(bLat * rad) * Math.sin(dLng / 2) ** 2
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)))
}

// Street words. A suffix word ends a street name ("Main Street"), a prefix word starts one ("Rue de Rivoli").
const STREET_SUFFIX = new Set(
  'street road avenue ave boulevard blvd lane ln drive way court ct terrace parkway pkwy highway hwy square crescent close place pl row strasse str weg allee gasse platz damm ufer straat laan gracht plein kade singel steeg'.split(' '),
)
const STREET_SUFFIX_AT_END = new Set(['st', 'rd', 'dr', 'av'])
const STREET_PREFIX = new Set(
  'rue avenue av boulevard bd chemin allee impasse quai place via viale piazza piazzale corso largo vicolo calle avenida plaza paseo carrer rua travessa praca'.split(' '),
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
    if (STREET_SUFFIX.has(key) || (STREET_SUFFIX_AT_END.has(key) && atEnd && k > 0) || (key.length > 6 && COMPOUND_STREET.test(key))) {
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

type Part = { raw: string; tokens: string[] }
type Window = { key: string; part: number; start: number; len: number }
type Candidate = { place: PlaceRow; window: Window }

export function resolver(db: Database) {
  const qCountry = db.prepare<{ code: string }, [string]>('SELECT code FROM countries WHERE key = ?')
  const qRegions = db.prepare<{ country: string; admin1: string }, [string]>('SELECT country, admin1 FROM regions WHERE key = ?')
  const qPostcode = db.prepare<PostcodeRow, [string, string]>('SELECT * FROM postcodes WHERE country = ? AND postcode = ?')
  const qPlaces = db.prepare<PlaceRow, [string]>(
    'SELECT p.id, p.name, p.country, p.admin1, p.lat, p.lng, p.population FROM place_names n JOIN places p ON p.id = n.place_id WHERE n.key = ? ORDER BY p.population DESC LIMIT 25',
  )
  const qPlacesIn = db.prepare<PlaceRow, [string, string]>(
    'SELECT p.id, p.name, p.country, p.admin1, p.lat, p.lng, p.population FROM place_names n JOIN places p ON p.id = n.place_id WHERE n.key = ? AND p.country = ? ORDER BY p.population DESC LIMIT 25',
  )

  const countryOf = (key: string): string | null => (key === '' ? null : qCountry.get(key)?.code ?? null)

  /** Strips a trailing country name or code; returns its ISO code and, for a 2-letter code that is also a US state, that too. */
  function takeCountry(parts: Part[]): { country: string | null; stateAlso: string | null } {
    const last = parts[parts.length - 1]!
    for (let n = Math.min(4, last.tokens.length); n >= 1; n--) {
      const tail = last.tokens.slice(-n)
      if (n === last.tokens.length && parts.length === 1) break // never the whole address
      const key = nameKey(tail.join(' '))
      const code = countryOf(key)
      if (!code) continue
      const raw = tail.join(' ')
      if (key.length === 2 && raw !== raw.toUpperCase()) continue // "de", "in": words, not codes
      if (key.length === 2 && US_STATE.test(raw)) return { country: null, stateAlso: raw }
      last.tokens.splice(-n, n)
      if (last.tokens.length === 0) parts.pop()
      return { country: code, stateAlso: null }
    }
    return { country: null, stateAlso: null }
  }

  function regionHints(parts: Part[], lastPart: number): RegionHint[] {
    const hints: RegionHint[] = []
    parts.forEach((part, p) => {
      for (let start = 0; start < part.tokens.length; start++) {
        for (let len = 1; len <= 3 && start + len <= part.tokens.length; len++) {
          const raw = part.tokens.slice(start, start + len).join(' ')
          const key = nameKey(raw)
          if (key === '' || /\d/.test(key)) continue
          if (key.length <= 3 && raw !== raw.toUpperCase()) continue // abbreviations only in capitals
          for (const r of qRegions.all(key)) {
            hints.push({ country: r.country, admin1: r.admin1, key, part: p, whole: p === lastPart && nameKey(part.tokens.filter((t) => !/\d/.test(t)).join(' ')) === key })
          }
        }
      }
    })
    return hints
  }

  function windowsOf(parts: Part[], skipPart: number): Window[] {
    const out: Window[] = []
    parts.forEach((part, p) => {
      if (p === skipPart) return
      const street = streetMask(part.tokens)
      for (let start = 0; start < part.tokens.length; start++) {
        for (let len = 1; len <= 4 && start + len <= part.tokens.length; len++) {
          const slice = part.tokens.slice(start, start + len)
          if (slice.some((t) => /\d/.test(t)) || street[start + len - 1]) break
          const key = nameKey(slice.join(' '))
          if (key.length >= 2) out.push({ key, part: p, start, len })
        }
      }
    })
    return out
  }

  function lookup(address: string): GeocodeResult | null {
    const parts: Part[] = address
      .split(/[,;\n|]+/)
      .map((raw) => raw.trim())
      .filter((raw) => raw !== '')
      .map((raw) => ({ raw, tokens: raw.split(/\s+/) }))
    if (parts.length === 0) return null
    const { country: explicit, stateAlso } = takeCountry(parts)
    if (parts.length === 0) return null

    // The first of several parts that holds a number is the street: its words are not towns.
    const streetPart = parts.length > 1 && /\d/.test(parts[0]!.raw) ? 0 : -1
    const street = streetPart === 0 ? parts[0]!.raw : undefined
    const houseNumberFirst = parts.length === 1 && /^\d+[a-z]?$/i.test(parts[0]!.tokens[0] ?? '') && parts[0]!.tokens.length > 2

    const hints = regionHints(parts, parts.length - 1)
    if (stateAlso) hints.push({ country: 'US', admin1: stateAlso, key: stateAlso.toLowerCase(), part: parts.length, whole: true })
    const allowed = (c: string) => explicit === null || c === explicit

    const windows = windowsOf(parts, streetPart)
    const windowKeys = new Set(windows.map((w) => w.key))

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
            const rows = qPostcode.all(c, code)
            if (rows.length === 0) continue
            hits.push({ country: c, code, rows, confirmed: rows.find((r) => r.place_key !== '' && windowKeys.has(r.place_key)) ?? null })
          }
        }
      }
    }
    const hinted = (c: string) => hints.some((h) => h.country === c)
    const chosen =
      hits.find((h) => h.confirmed && (explicit !== null || hinted(h.country) || hits.filter((x) => x.confirmed).length === 1)) ??
      hits.find((h) => h.confirmed) ??
      hits.find((h) => explicit !== null || hinted(h.country) || h.country === formatCountry) ??
      null
    if (chosen) {
      const row = chosen.confirmed ?? centroid(chosen.rows)
      return {
        lat: row.lat,
        lng: row.lng,
        precision: row.precision,
        source: 'embedded',
        parts: clean({
          street,
          city: chosen.confirmed?.place || undefined,
          region: regionLabel(chosen.country, row.admin1),
          postcode: chosen.code,
          country: chosen.country,
        }),
      }
    }

    // Place names.
    const country = explicit ?? formatCountry
    let candidates: Candidate[] = []
    for (const w of windows) {
      const rows = country ? qPlacesIn.all(w.key, country) : qPlaces.all(w.key)
      for (const place of rows) candidates.push({ place, window: w })
    }
    if (candidates.length === 0) return null
    const fits = (c: Candidate) => hints.some((h) => h.country === c.place.country && h.admin1 === c.place.admin1)
    if (hints.length > 0 && candidates.some(fits)) {
      const narrowed = candidates.filter(fits)
      // A window that is only the region's own name ("Texas" in "Paris, Texas") is not the town.
      const notRegion = narrowed.filter((c) => !hints.some((h) => h.whole && h.key === c.window.key && h.part === c.window.part))
      candidates = notRegion.length > 0 ? notRegion : narrowed
    } else if (stateAlso && explicit === null) {
      // "Berlin, DE" is not Delaware: read the code as a country instead.
      const code = countryOf(stateAlso.toLowerCase())
      const inCountry = candidates.filter((c) => c.place.country === code)
      if (inCountry.length > 0) candidates = inCountry
    }
    candidates.sort((a, b) => b.window.part - a.window.part || b.window.len - a.window.len || b.place.population - a.place.population)
    let best = candidates[0]!
    // A more specific place named earlier ("Bondi Beach, Sydney") wins when it lies within the town.
    const inner = candidates
      .filter((c) => c.window.part < best.window.part && distanceKm(c.place.lat, c.place.lng, best.place.lat, best.place.lng) <= SUBURB_KM)
      .sort((a, b) => b.window.part - a.window.part || b.window.len - a.window.len || b.place.population - a.place.population)
    if (inner.length > 0) best = inner[0]!
    return {
      lat: best.place.lat,
      lng: best.place.lng,
      precision: 'city',
      source: 'embedded',
      parts: clean({ street, city: best.place.name, region: regionLabel(best.place.country, best.place.admin1), country: best.place.country }),
    }
  }

  return { lookup }
}

function centroid(rows: PostcodeRow[]): PostcodeRow {
  if (rows.length === 1) return rows[0]!
  let lat = 0
  let lng = 0
  for (const r of rows) {
    lat += r.lat
    lng += r.lng
  }
  return { ...rows[0]!, place: '', lat: lat / rows.length, lng: lng / rows.length }
}

function clean(parts: AddressParts): AddressParts {
  const out: AddressParts = {}
  for (const [k, v] of Object.entries(parts) as [keyof AddressParts, string | undefined][]) if (v) out[k] = v
  return out
}
