// The geocoder's names, postcodes and regions read from its data file into the typed arrays and
// maps a PlaceSearch holds (in a worker thread at the start: about a second).
import type { Database } from 'bun:sqlite'
import { LANGS } from '../../core/languages'
import { codePoints, nameKey, withinEdits } from '../../core/text'
import { countryLabel, titled } from '../countries'
import { codeOf, codeText, type KeyParts, keyParts, SortedKeys } from './place-keys'
import type { PlaceHit } from './place-hit'
import { distanceKm } from './near'
import { mexicanStates } from './mexico-states'
import { regionLabel } from './tables'

/** A prefix that begins more names than this keeps a list of its most populous places. */
export const LISTED_FROM = 1500
/** Places a listed prefix keeps, and that a query gives at most (the caller ranks them again). */
export const CANDIDATES = 48

/**
 * A region by one of its names: where its towns are (weighted by people), what it is called, and
 * its reach: how far from that point its towns hold REACH_SHARE of its people.
 */
export type Region = {
  key: string
  lat: number
  lng: number
  country: string
  label: string
  /** This name as written, every way ("Normandía|Normandia"), where the data gives it; else ''. */
  spelling: string
  population: number
  reachKm: number
}

/** A country (alpha-2 code) as regions are kept: its towns' centre, people and reach. */
export type CountryPlace = { lat: number; lng: number; population: number; reachKm: number }

/** The share of a region's people its reach holds: the rest are far-off islands and outposts. */
const REACH_SHARE = 0.9

/**
 * What a PlaceSearch holds, as plain typed arrays and maps: made by buildPlaceParts (in a worker
 * thread, placeSearchAt().warm) and handed over whole.
 */
export type PlaceParts = {
  // Towns, by row: where, how many live there, the country, the region code (in `admins`), the name.
  lat: Float64Array
  lng: Float64Array
  population: Int32Array
  country: Uint16Array
  admin1: Int32Array
  admins: string[]
  names: KeyParts
  /** Every name of every town (main and alternate), in byte order, each to its town's row. */
  nameKeys: KeyParts
  /** By name index: an alternate name as written, every way ("München|Munchen"); '' for a main name. */
  spellings: KeyParts
  /** By prefix (its bytes as latin1 text) that begins more than LISTED_FROM names: its best towns, as name indexes. */
  listed: Map<string, Int32Array>
  // Postcodes, by row, and their keys (lowercase, without spaces) in byte order.
  codes: KeyParts
  codeLat: Float64Array
  codeLng: Float64Array
  codeCountry: Uint16Array
  /** The region code, in `admins` ("" where the data has none). */
  codeAdmin1: Int32Array
  codeLabel: KeyParts
  /** 1: the postcode's own point; 0: its town's. */
  codePrecision: Uint8Array
  regions: Region[]
  /** Every country with towns, by alpha-2 code. */
  countries: Map<string, CountryPlace>
  /**
   * Every name and code of a region ("or", "oregon", "bayern"), to its regions as "US OR", or
   * "DE *" where the data tells only its country: what a visitor writes after a town's name.
   */
  regionKeys: Map<string, string[]>
  /** A region's code of two or three letters ("tx", "nsw"), to its regions (one name each), most populous first. */
  regionCodes: Map<string, Region[]>
}

/**
 * The name indexes from..to of the `most` best towns, one name each, best first: those a main
 * name matches before those only an alternate one does ("Sainte-..." before a city whose name
 * in some language begins so), then the most populous. An alternate name with no spelling fit to
 * show (`spellingStart`: the spellings' offsets) is no town's name begun: those are mostly
 * transliterations in lower case ("emstaradyama" of Amsterdam is not what "Ems" begins).
 */
export function bestTowns(
  keys: SortedKeys,
  population: Int32Array,
  spellingStart: Int32Array,
  from: number,
  to: number,
  most: number,
  keep: ((town: number) => boolean) | null = null,
): Int32Array {
  const best: number[] = []
  const towns = new Set<number>()
  const { main, ref } = keys
  const score = (i: number) => main[i]! * 2 ** 32 + population[ref[i]!]!
  for (let i = from; i < to; i++) {
    const town = ref[i]!
    if (main[i] === 0 && spellingStart[i + 1] === spellingStart[i]) continue
    if (keep !== null && !keep(town)) continue
    if (best.length === most && score(i) <= score(best[best.length - 1]!)) continue
    if (towns.has(town)) {
      // A town's best name counts: its main name may come after an alternate one.
      const had = best.findIndex((j) => ref[j] === town)
      if (score(best[had]!) >= score(i)) continue
      best.splice(had, 1)
    }
    // Kept sorted, best first: the lists are short.
    let at = best.length
    while (at > 0 && score(best[at - 1]!) < score(i)) at--
    best.splice(at, 0, i)
    towns.add(town)
    if (best.length > most) towns.delete(ref[best.pop()!]!)
  }
  return Int32Array.from(best)
}

/**
 * Lists, for the prefix of `depth` bytes that the names from..to begin with and every longer one
 * that begins more than LISTED_FROM, its best towns (bestTowns).
 */
function listPrefixes(
  keys: SortedKeys,
  population: Int32Array,
  spellingStart: Int32Array,
  listed: Map<string, Int32Array>,
  from: number,
  to: number,
  depth: number,
): void {
  if (depth > 0) {
    const prefix = keys.bytes.toString('latin1', keys.start[from]!, keys.start[from]! + depth)
    listed.set(prefix, bestTowns(keys, population, spellingStart, from, to, CANDIDATES))
  }
  // The names one byte longer, each run of the same next byte (a name that ends here comes first).
  let i = from
  while (i < to && keys.length(i) === depth) i++
  while (i < to) {
    const b = keys.byteAt(i, depth)
    let j = i + 1
    while (j < to && keys.byteAt(j, depth) === b) j++
    if (j - i > LISTED_FROM) listPrefixes(keys, population, spellingStart, listed, i, j, depth + 1)
    i = j
  }
}

/** How a place is shown: its name, its US state or Canadian or Australian province, its country. */
export function placeLabel(name: string, country: string, admin1: string): string {
  const region = regionLabel(country, admin1)
  return `${name}, ${region ? `${region}, ` : ''}${countryLabel(country)}`
}

/**
 * A place's label as shown: the other name the text equals, when it has one ("München, Germany"
 * for "münchen"), as `typed` spells it where the data has that spelling; else the spelling
 * nearest it ("München" for the typo "Müchen", not "Munchen").
 */
export function shownLabel({ label, named }: { label: string; named?: string }, typed: string): string {
  if (named === undefined) return label
  const spellings = named.split('|')
  const text = typed.toLowerCase()
  // Of spellings alike near, the one with letters beyond ASCII: the data writes "Munchen" beside "München".
  const near = (most: number) => {
    const close = spellings.filter((s) => withinEdits(s.toLowerCase(), text.trim(), most))
    return close.find((s) => /[^\0-\x7f]/.test(s)) ?? close[0]
  }
  const name = spellings.find((s) => text.includes(s.toLowerCase())) ?? near(1) ?? near(2) ?? spellings[0]!
  return name + label.slice(label.indexOf(','))
}

/**
 * Whether `key` (nameKey of a text) is `hit`'s label, or with `named` the label shown for the other
 * name the text names it by, with its country in any language labels are shown in ("New York,
 * Vereinigte Staaten").
 */
const isLabelOf = (key: string, hit: PlaceHit, named: boolean): boolean => {
  const english = countryLabel(hit.country)
  const comma = hit.label.indexOf(',')
  const rest = comma < 0 ? '' : hit.label.slice(comma)
  const labels = named ? (hit.named?.split('|') ?? []).map((name) => name + rest) : [hit.label]
  return labels.some((label) =>
    label.endsWith(english)
      ? LANGS.some((lang) => nameKey(label.slice(0, -english.length) + countryLabel(hit.country, lang)) === key)
      : nameKey(label) === key,
  )
}

/**
 * The place of `hits` whose label `text` is: as spelt ("Micești", not Miceşti), else as folded
 * (isLabelOf), its own label before one shown for another name ("Washington, VA" is the town,
 * not Tappahannock, once called so). -1 when none is, or the text has no comma, as labels have.
 */
export function labelIndex(text: string, key: string, hits: PlaceHit[]): number {
  if (!text.includes(',')) return -1
  const spelt = hits.findIndex((h) => h.label === text.trim())
  if (spelt >= 0) return spelt
  const own = hits.findIndex((h) => isLabelOf(key, h, false))
  return own >= 0 ? own : hits.findIndex((h) => isLabelOf(key, h, true))
}

/** Reads the geocoder's data file into the parts of a PlaceSearch (about a second). */
export function buildPlaceParts(db: Database): PlaceParts {
  const places = db
    .query<
      { id: number; name: string; country: string; admin1: string; lat: number; lng: number; population: number },
      []
    >('SELECT id, name, country, admin1, lat, lng, population FROM places ORDER BY id')
    .all()
  const n = places.length
  const ids = Int32Array.from(places, (p) => p.id)
  const admins: string[] = []
  const adminIds = new Map<string, number>()
  /** A region code's index in `admins`, shared by towns and postcodes. */
  const adminOf = (code: string) => {
    let a = adminIds.get(code)
    if (a === undefined) {
      a = admins.push(code) - 1
      adminIds.set(code, a)
    }
    return a
  }
  const admin1 = Int32Array.from(places, (p) => adminOf(p.admin1))
  /** A GeoNames id's row: the ids are in order. */
  const rowOf = (id: number) => {
    let lo = 0
    let hi = n - 1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      if (ids[mid]! < id) lo = mid + 1
      else if (ids[mid]! > id) hi = mid - 1
      else return mid
    }
    return -1
  }
  const keys: string[] = []
  const refs: number[] = []
  const main: number[] = []
  const spellings: string[] = []
  for (const r of db
    .query<{ key: string; place_id: number; alt: number; spelling: string }, []>(
      'SELECT key, place_id, alt, spelling FROM place_names ORDER BY key, place_id',
    )
    .iterate()) {
    const row = rowOf(r.place_id)
    if (row === -1) continue
    keys.push(r.key)
    refs.push(row)
    main.push(r.alt === 0 ? 1 : 0)
    spellings.push(r.spelling)
  }
  const population = Int32Array.from(places, (p) => p.population)
  const nameKeys = keyParts(keys, refs, main)
  const spelt = keyParts(spellings)
  const listed = new Map<string, Int32Array>()
  listPrefixes(new SortedKeys(nameKeys), population, spelt.start, listed, 0, keys.length, 0)
  // By key (ASCII: code unit order is byte order); a code's towns the most populous first, of
  // any country ("75016": Paris 16e before the part of Boulogne-Billancourt it serves; "75015":
  // Paris before Bretten, Germany), then by country, then as the table keeps them (by name).
  // Sorted here: SQLite's sort of the last terms took longer.
  const codes = db
    .query<
      {
        country: string
        postcode: string
        place: string
        admin1: string
        lat: number
        lng: number
        precision: string
        people: number
      },
      []
    >('SELECT country, postcode, place, admin1, lat, lng, precision, people FROM postcodes')
    .all()
    .map((c) => ({ ...c, key: c.postcode.toLowerCase().replace(/\s+/g, '') }))
    .sort(
      (a, b) =>
        (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
        b.people - a.people ||
        (a.country < b.country ? -1 : a.country > b.country ? 1 : 0),
    )
  const parts: Towns = {
    lat: Float64Array.from(places, (p) => p.lat),
    lng: Float64Array.from(places, (p) => p.lng),
    population,
    country: Uint16Array.from(places, (p) => codeOf(p.country)),
    admin1,
    admins,
    names: keyParts(places.map((p) => p.name)),
    nameKeys,
    spellings: spelt,
    listed,
    codes: keyParts(
      codes.map((c) => c.key),
      codes.map((_, i) => i),
    ),
    codeLat: Float64Array.from(codes, (c) => c.lat),
    codeLng: Float64Array.from(codes, (c) => c.lng),
    codeCountry: Uint16Array.from(codes, (c) => codeOf(c.country)),
    codeAdmin1: Int32Array.from(codes, (c) => adminOf(c.admin1)),
    codeLabel: keyParts(
      codes.map((c) => placeLabel(c.place ? `${c.postcode} ${c.place}` : c.postcode, c.country, c.admin1)),
    ),
    codePrecision: Uint8Array.from(codes, (c) => (c.precision === 'postcode' ? 1 : 0)),
  }
  const regionRows = db.query<RegionRow, []>('SELECT country, key, admin1, name, spelling FROM regions').all()
  const regionKeys = new Map<string, string[]>()
  for (const r of regionRows) {
    const list = regionKeys.get(r.key) ?? []
    list.push(`${r.country} ${r.admin1 || '*'}`)
    regionKeys.set(r.key, list)
  }
  // Mexico's states by their letters, which the data's regions lack (mexico-states.ts).
  for (const [key, admin1] of mexicanStates()) regionKeys.set(key, [...(regionKeys.get(key) ?? []), `MX ${admin1}`])
  return { ...parts, ...readRegions(regionRows, parts), regionKeys }
}

/** A name of a region (admin1 empty: of a country), as the data file keeps it; `name` the label, or ''. */
type RegionRow = { country: string; key: string; admin1: string; name: string; spelling: string }

type Towns = Omit<PlaceParts, 'regions' | 'countries' | 'regionKeys' | 'regionCodes'>

/** Where a group's towns are (weighted by people), how many live there, and its reach. */
type Spread = { lat: number; lng: number; population: number; reachKm: number }

/** Each group's spread, its towns grouped by `groupOf` (null: in none). */
function spreads(towns: Towns, groupOf: (row: number) => string | null): Map<string, Spread> {
  const sums = new Map<string, { lat: number; lng: number; population: number; rows: number[] }>()
  for (let i = 0; i < towns.lat.length; i++) {
    const k = groupOf(i)
    if (k === null) continue
    const w = Math.max(1, towns.population[i]!)
    const c = sums.get(k) ?? { lat: 0, lng: 0, population: 0, rows: [] }
    c.lat += towns.lat[i]! * w
    c.lng += towns.lng[i]! * w
    c.population += w
    c.rows.push(i)
    sums.set(k, c)
  }
  const out = new Map<string, Spread>()
  for (const [k, c] of sums) {
    const [lat, lng] = [c.lat / c.population, c.lng / c.population]
    const far = c.rows
      .map((i) => ({ km: distanceKm(lat, lng, towns.lat[i]!, towns.lng[i]!), w: Math.max(1, towns.population[i]!) }))
      .sort((a, b) => a.km - b.km)
    let held = 0
    let reachKm = 0
    for (const { km, w } of far) {
      held += w
      reachKm = km
      if (held >= REACH_SHARE * c.population) break
    }
    out.set(k, { lat, lng, population: c.population, reachKm })
  }
  return out
}

/**
 * Regions by their names (codes such as "NSW" left out: they begin too many words), each at its
 * towns' centre; and every country so.
 */
function readRegions(all: RegionRow[], towns: Towns): Pick<PlaceParts, 'regions' | 'countries' | 'regionCodes'> {
  const rows = all.filter((r) => r.admin1 !== '' && codePoints(r.key) > 3)
  const wanted = new Set(rows.map((r) => `${r.country} ${r.admin1}`))
  const regionOf = (i: number) => {
    const k = `${codeText(towns.country[i]!)} ${towns.admins[towns.admin1[i]!]!}`
    return wanted.has(k) ? k : null
  }
  const centre = spreads(towns, regionOf)
  // Its label: the name the data gives ("Île-de-France"), else its longest name ("california",
  // not "calif") in title case.
  const given = new Map<string, string>()
  const longest = new Map<string, string>()
  for (const r of rows) {
    const k = `${r.country} ${r.admin1}`
    if (r.name !== '') given.set(k, r.name)
    if ((longest.get(k)?.length ?? 0) < r.key.length) longest.set(k, r.key)
  }
  const byRegion = new Map<string, Region>()
  const regions = rows.flatMap((r) => {
    const k = `${r.country} ${r.admin1}`
    const c = centre.get(k)
    if (c === undefined) return []
    const region = {
      key: r.key,
      country: r.country,
      label: `${given.get(k) ?? titled(longest.get(k)!)}, ${countryLabel(r.country)}`,
      spelling: r.spelling,
      ...c,
    }
    byRegion.set(k, region)
    return [region]
  })
  const regionCodes = new Map<string, Region[]>()
  for (const r of all) {
    const region = byRegion.get(`${r.country} ${r.admin1}`)
    if (region === undefined || !/^[a-z]{2,3}$/.test(r.key)) continue
    regionCodes.set(
      r.key,
      [...(regionCodes.get(r.key) ?? []), region].sort((a, b) => b.population - a.population),
    )
  }
  return { regions, countries: spreads(towns, (i) => codeText(towns.country[i]!)), regionCodes }
}
