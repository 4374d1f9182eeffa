// An address placed by a postcode it holds, confirmed by its town where the address names one.
import type { GeocodeResult } from '../geocoder'
import { clean, type Parsed } from './address-read'
import { CONFIRM_KM, distanceKm, SUBURB_KM } from './near'
import { POSTCODE_FORMS } from './postcode-forms'
import type { PlaceRow, PostcodeRow, Queries } from './resolve-data'
import { saintWritten } from './saint-names'
import { regionLabel } from './tables'

/** A place this close to a town's point is the town itself, by another name. */
const TOWN_ITSELF_KM = 1

/** The postcodes of Paris's, Lyon's and Marseille's arrondissements, each at its own point (build.ts). */
const ARRONDISSEMENT_CODE = /^(?:750(?:0[1-9]|1\d|20)|75116|6900[1-9]|130(?:0[1-9]|1[0-6]))$/

/** The address placed by a postcode it holds; or null, with the country a postcode's format alone tells. */
export function byPostcode(q: Queries, a: Parsed): { result: GeocodeResult | null; formatCountry: string | null } {
  const { parts, explicit, street, streetPart, firstNumber, hints } = a
  const allowed = (c: string) => explicit === null || c === explicit
  // A window's key, and with "St." written out as the data writes most such towns ("83700
  // St-Raphaël" is the postcode's Saint-Raphaël, not Saint-Raphaël, Haiti).
  const keysOf = (key: string) => [key, ...saintWritten(key)]
  const windowKeys = new Set(a.windows.flatMap((w) => keysOf(w.key)))
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
      for (const p of keysOf(w.key).flatMap((key) => q.qPlacesIn.all(key, country))) {
        const near = rows.find((r) => r.place !== '' && distanceKm(r.lat, r.lng, p.lat, p.lng) <= CONFIRM_KM)
        if (near) return near
      }
    return null
  }
  // Postcodes, rightmost first.
  type PostcodeHit = {
    country: string
    code: string
    rows: PostcodeRow[]
    confirmed: PostcodeRow | null
    first: boolean
  }
  const found: PostcodeHit[] = []
  let formatCountry: string | null = null
  for (let p = parts.length - 1; p >= 0; p--) {
    const text = parts[p]!.tokens.join(' ')
    for (const form of POSTCODE_FORMS) {
      form.re.lastIndex = 0
      for (let m = form.re.exec(text); m; m = form.re.exec(text)) {
        // Anywhere in the first word: a flat's number and the house's ("2/2000"), or a range ("1010-1012").
        const first = firstNumber !== null && p === 0 && m.index < parts[0]!.tokens[0]!.length
        if (first && firstNumber === 'house') continue
        if (p === streetPart && m.index === 0) continue
        const code = form.canonical(m)
        if (form.countries.length === 1) formatCountry ??= form.countries[0]!
        for (const c of form.countries) {
          if (!allowed(c)) continue
          const rows = q.qPostcode.all(c, code)
          const confirmed = rows.length === 0 ? null : confirm(c, rows)
          if (rows.length === 0 || (first && confirmed === null)) continue
          found.push({ country: c, code, rows, confirmed, first })
        }
      }
    }
  }
  // A leading number is a postcode only when no other its town confirms follows: "10004 Broadway
  // New York NY 10023" is at 10023, its house number 10004.
  const hits = found.some((h) => !h.first && h.confirmed) ? found.filter((h) => !h.first) : found
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
    // A postcode placed at its town's point, or at an arrondissement's (a part of a city some
    // kilometres across): a district the address names refines it, placed as that place.
    const refined = row.precision === 'city' || (chosen.country === 'FR' && ARRONDISSEMENT_CODE.test(chosen.code))
    const district = chosen.confirmed && refined ? districtOf(q, a, row) : null
    const result: GeocodeResult = {
      lat: district?.lat ?? row.lat,
      lng: district?.lng ?? row.lng,
      precision: district ? 'city' : row.precision,
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

function centroid(rows: PostcodeRow[]): PostcodeRow {
  if (rows.length === 1) return rows[0]!
  const mean = (of: (r: PostcodeRow) => number) => rows.reduce((sum, r) => sum + of(r), 0) / rows.length
  return { ...rows[0]!, place: '', lat: mean((r) => r.lat), lng: mean((r) => r.lng) }
}
