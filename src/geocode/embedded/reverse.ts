// Where a point is, from the embedded data alone: its town (by each town's reach, so a point in
// Köln's Altstadt is in Köln, and one in Boulogne-Billancourt is not in Paris), the town's region
// and country, and a postcode where the data places one there; and a town's names, which keyword
// search matches. The points are read once from what the data's build stored (writeReverseIndex,
// about 0.2 s); names are asked of SQLite.
import { Database } from 'bun:sqlite'
import KDBush from 'kdbush'
import { around } from 'geokdbush'
import { nameKey } from '../../core/text'
import type { AddressParts } from '../../store/locations'
import { distanceKm, regionLabel } from './resolve'

/** A town farther than this from the point is not its town. */
export const TOWN_KM = 30
/**
 * How far a town reaches from its point, in km: 1.5 + sqrt(population) / 100 (a village 1.8,
 * Tours 5, Köln 11, London 31). A point is in the town whose reach it is within that is nearest
 * for its size (distance / sqrt(population): Köln before its districts, Boulogne-Billancourt
 * before Paris); within none, in the nearest town.
 */
const reachKm = (population: number) => 1.5 + Math.sqrt(population) / 100
/** Towns this populous are looked for TOWN_KM away (they reach 3.7 km or more); smaller ones as far as that reach. */
const BIG_TOWN = 50_000
/** A postcode's own point farther than this from the point does not give its postcode. */
export const POSTCODE_KM = 10
/** How near two postcode points must be to count as one point. */
const SAME_POINT_KM = 0.05
/** A town's words kept for search besides its main name's, at most (Köln has 49 other names). */
const OTHER_WORDS = 48

/** What a reverse lookup found: the parts, and `postcode` when a postcode is among them. */
export type Reversed = { precision: 'postcode' | 'city'; parts: AddressParts }

const VOWEL = /[aeiouy]/

/** Points in a KDBush, item i at lat[i], lng[i]. */
type Points = { index: KDBush; lat: Float64Array; lng: Float64Array }
/** Towns (their sections left out): each with its GeoNames id and population. */
type Towns = Points & { id: Int32Array; population: Int32Array }
/** Postcodes: each as "CC CODE" (country and code). */
type Codes = Points & { code: string[] }
type Town = { name: string; country: string; admin1: string; lat: number; lng: number }

export class ReverseLookup {
  private readonly whole: Towns
  private readonly bigTowns: Towns
  /** Postcodes at their own points, and those at their towns' points. */
  private readonly ownCodes: Codes
  private readonly townCodes: Codes
  private readonly named: ReturnType<typeof statements>
  private readonly wordsOf = new Map<number, string>()

  /** Reads what writeReverseIndex stored in the data file: 16 MB of blobs, about 0.2 s. */
  constructor(db: Database) {
    const read = db.query<{ data: Uint8Array }, [string]>('SELECT data FROM reverse_index WHERE name = ?')
    const blob = (name: string) => {
      const b = read.get(name)!.data
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer
    }
    const points = (name: string): Points => ({
      index: KDBush.from(blob(`${name}.index`)),
      lat: new Float64Array(blob(`${name}.lat`)),
      lng: new Float64Array(blob(`${name}.lng`)),
    })
    const towns = (name: string): Towns => ({
      ...points(name),
      id: new Int32Array(blob(`${name}.id`)),
      population: new Int32Array(blob(`${name}.population`)),
    })
    const codes = (name: string): Codes => ({
      ...points(name),
      code: new TextDecoder().decode(blob(`${name}.code`)).split('\n'),
    })
    this.whole = towns('towns')
    this.bigTowns = towns('big_towns')
    this.ownCodes = codes('own_codes')
    this.townCodes = codes('town_codes')
    this.named = statements(db)
  }

  /** The town, region, country and (where the data has it) postcode at a point; null with no town within TOWN_KM. */
  at(lat: number, lng: number): Reversed | null {
    const id = this.townAt(lat, lng)
    if (id === -1) return null
    const town = this.named.town.get(id)!
    const parts: AddressParts = { city: town.name, country: town.country }
    const region = regionLabel(town.country, town.admin1)
    if (region) parts.region = region
    const postcode = this.postcodeAt(lat, lng, town)
    if (postcode === null) return { precision: 'city', parts }
    return { precision: 'postcode', parts: { ...parts, postcode } }
  }

  /** The GeoNames id of the town at a point (see reachKm), or -1. */
  private townAt(lat: number, lng: number): number {
    let best = -1
    let bestScore = Infinity
    let bestPopulation = 0
    const weigh = (set: Towns, i: number) => {
      const population = set.population[i]!
      const km = distanceKm(lat, lng, set.lat[i]!, set.lng[i]!)
      if (km > reachKm(population)) return
      const score = km / Math.sqrt(Math.max(population, 1))
      if (score < bestScore || (score === bestScore && population > bestPopulation)) {
        best = set.id[i]!
        bestScore = score
        bestPopulation = population
      }
    }
    for (const i of within(this.whole, lat, lng, reachKm(BIG_TOWN))) weigh(this.whole, i)
    for (const i of within(this.bigTowns, lat, lng, TOWN_KM)) weigh(this.bigTowns, i)
    if (best !== -1) return best
    const nearest = around(this.whole.index, lng, lat, 1, TOWN_KM)[0]
    return nearest === undefined ? -1 : this.whole.id[nearest]!
  }

  /**
   * The postcode at a point: that of the nearest postcode point within POSTCODE_KM; else, where
   * the country's postcodes sit at their towns' points, the town's only one. None from another
   * country than the town's, or from a point that several postcodes share (Madrid's are all at
   * its centre).
   */
  private postcodeAt(lat: number, lng: number, town: Town): string | null {
    const own = this.ownCodes
    const nearest = within(own, lat, lng, POSTCODE_KM)
      .map((i) => ({ i, km: distanceKm(lat, lng, own.lat[i]!, own.lng[i]!) }))
      .filter((c) => c.km <= POSTCODE_KM)
      .sort((a, b) => a.km - b.km)
      .slice(0, 2)
      .map((c) => c.i)
    const [set, here] =
      nearest.length > 0 ? [own, nearest] : [this.townCodes, within(this.townCodes, town.lat, town.lng, SAME_POINT_KM)]
    if (here.length === 0) return null
    const [a, b] = here
    if (b !== undefined && distanceKm(set.lat[a!]!, set.lng[a!]!, set.lat[b]!, set.lng[b]!) <= SAME_POINT_KM)
      return null
    const [country, code] = [set.code[a!]!.slice(0, 2), set.code[a!]!.slice(3)]
    return country === town.country ? code : null
  }

  /**
   * The GeoNames id of the town called `name` (any of its names, folded) nearest the point within
   * TOWN_KM, or -1: the town a geocoder's city names.
   */
  townNamed(name: string, lat: number, lng: number): number {
    const key = nameKey(name)
    if (key === '') return -1
    let best = -1
    let bestKm = TOWN_KM
    for (const t of this.named.byName.all(key)) {
      const km = distanceKm(lat, lng, t.lat, t.lng)
      if (km <= bestKm) {
        best = t.id
        bestKm = km
      }
    }
    return best
  }

  /**
   * The words of town `id`'s names, main and other ("koln augusta ubiorum cologne colonia ..."),
   * folded, each once; left out: words under three letters or without a vowel
   * (transliterations such as "klwn"). At most OTHER_WORDS besides the main name's.
   */
  namesOf(id: number): string {
    const known = this.wordsOf.get(id)
    if (known !== undefined) return known
    const keys = this.named.byTown.all(id)
    const main = new Set(keys.filter((k) => k.alt === 0).flatMap((k) => k.key.split(' ')))
    main.delete('')
    const kept = [...main]
    const seen = new Set(main)
    // A key with a word of one letter is a broken transliteration ("k oln"): none of its words is kept.
    for (const { key, alt } of keys)
      for (const w of alt === 1 && !/(^| )\S( |$)/.test(key) ? key.split(' ') : [])
        if (!seen.has(w) && w.length >= 3 && VOWEL.test(w) && kept.length < main.size + OTHER_WORDS) {
          seen.add(w)
          kept.push(w)
        }
    const text = kept.join(' ')
    this.wordsOf.set(id, text)
    return text
  }
}

function statements(db: Database) {
  return {
    byName: db.query<{ id: number; lat: number; lng: number }, [string]>(
      'SELECT p.id, p.lat, p.lng FROM place_names n JOIN places p ON p.id = n.place_id WHERE n.key = ?',
    ),
    town: db.query<Town, [number]>('SELECT name, country, admin1, lat, lng FROM places WHERE id = ?'),
    // The main names first, then the others in key order.
    byTown: db.query<{ key: string; alt: number }, [number]>(
      'SELECT key, alt FROM place_names WHERE place_id = ? ORDER BY alt, key',
    ),
  }
}

const lookups = new Map<string, ReverseLookup>()

/** The reverse lookup over the geocoder's data file at `path`: made on first use, shared by every caller in the process. */
export function reverseLookupAt(path: string): ReverseLookup {
  let lookup = lookups.get(path)
  if (lookup === undefined) {
    lookup = new ReverseLookup(new Database(path, { readonly: true, strict: true }))
    lookups.set(path, lookup)
  }
  return lookup
}

/**
 * Stores in the data file (being built: its places and postcodes written) the points the reverse
 * lookup reads: each set's KDBush, with its points' data beside it, as blobs in reverse_index.
 */
export function writeReverseIndex(db: Database): void {
  db.exec('CREATE TABLE reverse_index (name TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID')
  const put = db.prepare<unknown, [string, Uint8Array]>('INSERT INTO reverse_index VALUES (?, ?)')
  const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
  const putPoints = (name: string, points: { lat: number; lng: number }[]) => {
    const index = new KDBush(Math.max(1, points.length))
    for (const p of points) index.add(p.lng, p.lat)
    if (points.length === 0) index.add(0, 0) // KDBush needs a point; its data arrays have none, so no item is found
    index.finish()
    put.run(`${name}.index`, new Uint8Array(index.data))
    put.run(`${name}.lat`, bytes(Float64Array.from(points, (p) => p.lat)))
    put.run(`${name}.lng`, bytes(Float64Array.from(points, (p) => p.lng)))
  }
  const putTowns = (name: string, towns: { id: number; lat: number; lng: number; population: number }[]) => {
    putPoints(name, towns)
    put.run(`${name}.id`, bytes(Int32Array.from(towns, (t) => t.id)))
    put.run(`${name}.population`, bytes(Int32Array.from(towns, (t) => t.population)))
  }
  const putCodes = (name: string, codes: { country: string; postcode: string; lat: number; lng: number }[]) => {
    putPoints(name, codes)
    put.run(`${name}.code`, new TextEncoder().encode(codes.map((c) => `${c.country} ${c.postcode}`).join('\n')))
  }
  const towns = db
    .query<{ id: number; lat: number; lng: number; population: number }, []>(
      'SELECT id, lat, lng, population FROM places WHERE section = 0 ORDER BY id',
    )
    .all()
  putTowns('towns', towns)
  putTowns(
    'big_towns',
    towns.filter((t) => t.population >= BIG_TOWN),
  )
  const codes = db
    .query<{ country: string; postcode: string; lat: number; lng: number; own: number }, []>(
      "SELECT country, postcode, lat, lng, precision = 'postcode' AS own FROM postcodes ORDER BY country, postcode",
    )
    .all()
  putCodes(
    'own_codes',
    codes.filter((c) => c.own === 1),
  )
  putCodes(
    'town_codes',
    codes.filter((c) => c.own === 0),
  )
}

/**
 * The items of `set` in the box of `km` around a point (a box on the plane: a few more than the
 * circle; near the antimeridian, the side across it is left out). Fast: no distance computed.
 */
function within(set: Points, lat: number, lng: number, km: number): number[] {
  const dLat = km / 111
  const dLng = dLat / Math.max(0.01, Math.cos((lat * Math.PI) / 180))
  return set.index.range(lng - dLng, lat - dLat, lng + dLng, lat + dLat).filter((i) => i < set.lat.length)
}
