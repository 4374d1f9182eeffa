// Where a point is, from the embedded data alone: its town (by each town's reach, so a point in
// Köln's Altstadt is in Köln, and one in Boulogne-Billancourt is not in Paris), the town's region
// and country, and its postcode where it has only one; and a town's names, which keyword search
// matches. The points are read once from what the data's build stored (writeReverseIndex,
// about 0.2 s); names are asked of SQLite.
import type { Database } from 'bun:sqlite'
import KDBush from 'kdbush'
import { around } from 'geokdbush'
import { holdsWords, nameKey } from '../../core/text'
import { countryCode, postcodePattern } from '../countries'
import type { AddressParts } from '../../store/locations'
import { openGeodata } from './open'
import { distanceKm } from './near'
import { regionLabel } from './tables'

/** A town farther than this from the point is not its town. */
export const TOWN_KM = 30
/**
 * How far a town reaches from its point, in km: 1.5 + sqrt(population) / 100 (a village 1.8,
 * Tours 5, Köln 11, London 31). A point is in the town whose reach it is within that is nearest
 * for its size (distance / sqrt(population): Köln before its districts, Boulogne-Billancourt
 * before Paris); within none, in the nearest town.
 */
const reachKm = (population: number) => 1.5 + Math.sqrt(population) / 100
/** A town an address names holds a point within its reach times this: an address's town is often a neighbour's by reach. */
const WRITTEN_REACH = 1.5
/** Towns this populous are looked for TOWN_KM away (they reach 3.7 km or more); smaller ones as far as that reach. */
const BIG_TOWN = 50_000
/** A city this populous has many postcodes: none is given for it. */
const BIG_CITY = 500_000
/** A town's words kept for search besides its main name's, at most (Köln has 49 other names). */
const OTHER_WORDS = 48
/**
 * SQLite's answers kept at most (see ReverseLookup.answers): a store list's towns many times over.
 * Past it they are all let go and asked again as needed, as the hours' texts are (src/indexes/opening-hours.ts).
 */
export const ANSWERS_KEPT = 20_000

/** What a reverse lookup found: the parts, and `postcode` when a postcode is among them. */
export type Reversed = { precision: 'postcode' | 'city'; parts: AddressParts }

const VOWEL = /[aeiouy]/

/** Towns (their sections left out) in a KDBush: item i at lat[i], lng[i], with its GeoNames id and population. */
type Towns = { index: KDBush; lat: Float64Array; lng: Float64Array; id: Int32Array; population: Int32Array }
type Town = { name: string; country: string; admin1: string; lat: number; lng: number; population: number }

export class ReverseLookup {
  private readonly whole: Towns
  private readonly bigTowns: Towns
  private readonly named: ReturnType<typeof statements>
  /**
   * What SQLite answered, by question: the writes of a store list ask of the same towns again and
   * again. At most ANSWERS_KEPT: the questions hold words of the addresses written (townNamed), so a
   * process that writes ever-new addresses would otherwise keep an answer for each.
   */
  private readonly answers = new Map<string, unknown>()

  /** Reads what writeReverseIndex stored in the data file: 9 MB of blobs. */
  constructor(db: Database) {
    const read = db.query<{ data: Uint8Array }, [string]>('SELECT data FROM reverse_index WHERE name = ?')
    const blob = (name: string) => {
      const b = read.get(name)!.data
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer
    }
    const towns = (name: string): Towns => ({
      index: KDBush.from(blob(`${name}.index`)),
      lat: new Float64Array(blob(`${name}.lat`)),
      lng: new Float64Array(blob(`${name}.lng`)),
      id: new Int32Array(blob(`${name}.id`)),
      population: new Int32Array(blob(`${name}.population`)),
    })
    this.whole = towns('towns')
    this.bigTowns = towns('big_towns')
    this.named = statements(db)
  }

  /** The town, region, country and (where the data has it) postcode at a point; null with no town within TOWN_KM. */
  at(lat: number, lng: number): Reversed | null {
    const id = this.townAt(lat, lng)
    return id === -1 ? null : this.reversed(id, null)
  }

  /**
   * at(), as `address` writes it: when the address names none of the town's names but does name
   * another town whose reach holds the point (a piece between commas, but for its numbers), that
   * town: a point in Jersey City is New York's by reach, and its address says Jersey City. And
   * the postcode the address writes after its first comma (all of it without one), when it is
   * one of the town's in the data.
   */
  writtenAt(lat: number, lng: number, address: string): Reversed | null {
    return this.writtenTown(lat, lng, address).town
  }

  /**
   * writtenAt's answer, and whether `address` names the town at the point or another town whose
   * reach holds it: an import's check and its write ask both of one row, looked up once.
   */
  writtenTown(lat: number, lng: number, address: string): { town: Reversed | null; named: boolean } {
    let id = this.townAt(lat, lng)
    if (id === -1) return { town: null, named: false }
    if (address.trim() === '') return { town: this.reversed(id, null), named: false }
    let named = this.writes(id, address)
    if (!named) {
      const other = this.townWritten(lat, lng, address)
      named = other !== null
      if (other !== null) id = other
    }
    const pieces = address.split(',')
    return { town: this.reversed(id, pieces.length > 1 ? pieces.slice(1).join(',') : address), named }
  }

  /** Whether `address` writes one of town `id`'s names, as whole words. */
  private writes(id: number, address: string): boolean {
    const written = ` ${nameKey(address)} `
    return this.keysOf(id).some((k) => written.includes(` ${k} `))
  }

  /** Town `id`'s parts; its postcode the data's only one, else the one of its that `written` holds. */
  private reversed(id: number, written: string | null): Reversed {
    const town = this.cached(`town ${id}`, () => this.named.town.get(id)!)
    const parts: AddressParts = { city: town.name, country: town.country }
    const region = regionLabel(town.country, town.admin1)
    if (region) parts.region = region
    const postcode =
      this.cached(`postcode ${id}`, () => this.postcodeOf(town)) ??
      (written === null
        ? null
        : (this.cached(`postcodes ${id}`, () => this.postcodesOf(id, town)).find((p) => p.pattern.test(written))
            ?.postcode ?? null))
    if (postcode === null) return { precision: 'city', parts }
    return { precision: 'postcode', parts: { ...parts, postcode } }
  }

  /**
   * The town a piece of `address` names, its numbers left out (and a last word of up to three
   * letters, a state's code: "Bondi Beach NSW 2026"), whose reach holds the point; null for none.
   */
  private townWritten(lat: number, lng: number, address: string): number | null {
    for (const piece of address.split(',').slice(1).concat(address.split(',')[0]!)) {
      const words = nameKey(piece)
        .split(' ')
        .filter((w) => w !== '' && !/\d/.test(w))
      const names = words.length > 1 && words.at(-1)!.length <= 3 ? [words, words.slice(0, -1)] : [words]
      for (const name of names.map((n) => n.join(' '))) {
        if (name.length < 3 || countryCode(name) !== null) continue
        const id = this.townNamed(name, lat, lng)
        if (id === -1) continue
        const town = this.cached(`town ${id}`, () => this.named.town.get(id)!)
        if (distanceKm(lat, lng, town.lat, town.lng) <= reachKm(town.population) * WRITTEN_REACH) return id
      }
    }
    return null
  }

  /** Each folded name of town `id`, main and other. */
  private keysOf(id: number): string[] {
    return this.cached(`keys ${id}`, () => this.named.byTown.all(id).map((k) => k.key))
  }

  /** The postcodes the data places in town `id` (under any of its names), each with how an address writes it. */
  private postcodesOf(id: number, town: Town): { postcode: string; pattern: RegExp }[] {
    const codes = new Set<string>()
    for (const key of new Set([nameKey(town.name), ...this.keysOf(id)]))
      for (const c of this.named.postcodes.all(town.country, key))
        if (distanceKm(town.lat, town.lng, c.lat, c.lng) <= TOWN_KM) codes.add(c.postcode)
    return [...codes].flatMap((postcode) => {
      const pattern = postcodePattern(postcode)
      return pattern === null ? [] : [{ postcode, pattern }]
    })
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
   * The town's postcode, when the data has exactly one for it: a postcode placed in a town of its
   * name within TOWN_KM of it. A town with several has none: the nearest postcode point is too
   * often another postcode's (bench/reverse.ts). Nor has a city of BIG_CITY people or more: its
   * only one in the data is a special code (Manhattan's 10048, the World Trade Center's).
   */
  private postcodeOf(town: Town): string | null {
    if (town.population >= BIG_CITY) return null
    const near = this.named.postcodes
      .all(town.country, nameKey(town.name))
      .filter((c) => distanceKm(town.lat, town.lng, c.lat, c.lng) <= TOWN_KM)
    return new Set(near.map((c) => c.postcode)).size === 1 ? near[0]!.postcode : null
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
    for (const t of this.cached(`named ${key}`, () => this.named.byName.all(key))) {
      const km = distanceKm(lat, lng, t.lat, t.lng)
      if (km <= bestKm) {
        best = t.id
        bestKm = km
      }
    }
    return best
  }

  /**
   * Town `id`, called `name`, as `address` writes it: `name` when the address holds it as whole
   * words; else another name of the town, spelt as written there: after the address's first comma,
   * the one that comes first (a street may bear a town's name: "Wieden 12, 1040 Wien"; Wien of
   * "Wien-Wieden"); else the first piece when it is that name but for numbers ("München,
   * Kaufingerstraße 7", "Praha 1, ..."); with no comma, the one that ends last ("Wieden 12 1040
   * Wien"). Never a country's name ("..., CDMX, Mexico"). Else `name`.
   */
  nameIn(id: number, name: string, address: string): string {
    if (address.trim() === '' || holdsWords(address, name)) return name
    const names = this.cached(`spellings ${id}`, () =>
      this.named.spellings.all(id).filter((n) => n.key.length >= 3 && countryCode(n.key) === null),
    )
    const pieces = address.split(',')
    let best: { key: string; spelling: string } | undefined
    if (pieces.length === 1) best = maxBy(names, address, (_, last, key) => last + key.length)
    else {
      best = maxBy(names, pieces.slice(1).join(','), (first, _, key) => key.length / 1000 - first)
      const first = ` ${nameKey(pieces[0]!)
        .split(' ')
        .filter((w) => !/\d/.test(w))
        .join(' ')} `
      best ??= names.find((n) => first === ` ${n.key} `)
    }
    if (best === undefined) return name
    const spellings = best.spelling.split('|')
    const lower = address.toLowerCase()
    return spellings.find((w) => lower.includes(w.toLowerCase())) ?? spellings[0]!
  }

  /**
   * The words of town `id`'s names, main and other ("koln augusta ubiorum cologne colonia ..."),
   * folded, each once; left out: words under three letters or without a vowel
   * (transliterations such as "klwn"). At most OTHER_WORDS besides the main name's.
   */
  namesOf(id: number): string {
    return this.cached(`names ${id}`, () => this.wordsIn(this.named.byTown.all(id)))
  }

  private wordsIn(keys: { key: string; alt: number }[]): string {
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
    return kept.join(' ')
  }

  /** SQLite's answers kept (at most ANSWERS_KEPT). */
  get answersKept(): number {
    return this.answers.size
  }

  private cached<T>(question: string, ask: () => T): T {
    if (this.answers.has(question)) return this.answers.get(question) as T
    const answer = ask()
    if (this.answers.size >= ANSWERS_KEPT) this.answers.clear()
    this.answers.set(question, answer)
    return answer
  }
}

function statements(db: Database) {
  return {
    byName: db.query<{ id: number; lat: number; lng: number }, [string]>(
      'SELECT p.id, p.lat, p.lng FROM place_names n JOIN places p ON p.id = n.place_id WHERE n.key = ?',
    ),
    town: db.query<Town, [number]>('SELECT name, country, admin1, lat, lng, population FROM places WHERE id = ?'),
    postcodes: db.query<{ postcode: string; lat: number; lng: number }, [string, string]>(
      'SELECT postcode, lat, lng FROM postcodes WHERE country = ? AND place_key = ?',
    ),
    // The main names first, then the others in key order.
    byTown: db.query<{ key: string; alt: number }, [number]>(
      'SELECT key, alt FROM place_names WHERE place_id = ? ORDER BY alt, key',
    ),
    spellings: db.query<{ key: string; spelling: string }, [number]>(
      "SELECT key, spelling FROM place_names WHERE place_id = ? AND alt = 1 AND spelling <> ''",
    ),
  }
}

const lookups = new Map<string, ReverseLookup>()

/** The reverse lookup over the geocoder's data file at `path`: made on first use, shared by every caller in the process. */
export function reverseLookupAt(path: string): ReverseLookup {
  let lookup = lookups.get(path)
  if (lookup === undefined) {
    lookup = new ReverseLookup(openGeodata(path))
    lookups.set(path, lookup)
  }
  return lookup
}

/**
 * Stores in the data file (being built: its places written) the towns the reverse lookup reads:
 * each set's KDBush, with its towns' points, ids and populations beside it, as blobs in
 * reverse_index.
 */
export function writeReverseIndex(db: Database): void {
  db.exec('CREATE TABLE reverse_index (name TEXT PRIMARY KEY, data BLOB NOT NULL) WITHOUT ROWID')
  const put = db.prepare<unknown, [string, Uint8Array]>('INSERT INTO reverse_index VALUES (?, ?)')
  const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
  const putTowns = (name: string, towns: { id: number; lat: number; lng: number; population: number }[]) => {
    const index = new KDBush(Math.max(1, towns.length))
    for (const t of towns) index.add(t.lng, t.lat)
    if (towns.length === 0) index.add(0, 0) // KDBush needs a point; the arrays have none, so no item is found
    index.finish()
    put.run(`${name}.index`, new Uint8Array(index.data))
    put.run(`${name}.lat`, bytes(Float64Array.from(towns, (t) => t.lat)))
    put.run(`${name}.lng`, bytes(Float64Array.from(towns, (t) => t.lng)))
    put.run(`${name}.id`, bytes(Int32Array.from(towns, (t) => t.id)))
    put.run(`${name}.population`, bytes(Int32Array.from(towns, (t) => t.population)))
  }
  const towns = db
    .query<{ id: number; lat: number; lng: number; population: number }, []>(
      'SELECT id, lat, lng, population FROM places WHERE section = 0 ORDER BY id',
    )
    .all()
  try {
    putTowns('towns', towns)
    putTowns(
      'big_towns',
      towns.filter((t) => t.population >= BIG_TOWN),
    )
  } finally {
    put.finalize()
  }
}

/**
 * The items of `set` in the box of `km` around a point (a box on the plane: a few more than the
 * circle; near the antimeridian, the side across it is left out). Fast: no distance computed.
 */
function within(set: Towns, lat: number, lng: number, km: number): number[] {
  const dLat = km / 111
  const dLng = dLat / Math.max(0.01, Math.cos((lat * Math.PI) / 180))
  return set.index.range(lng - dLng, lat - dLat, lng + dLng, lat + dLat).filter((i) => i < set.lat.length)
}

/**
 * Of `names` that `text` holds as whole words, the one `score` ranks highest, given where it is
 * first and last in the text (folded) and its key; undefined for none.
 */
function maxBy<N extends { key: string }>(
  names: N[],
  text: string,
  score: (first: number, last: number, key: string) => number,
): N | undefined {
  const written = ` ${nameKey(text)} `
  let best: N | undefined
  let bestScore = -Infinity
  for (const n of names) {
    const first = written.indexOf(` ${n.key} `)
    if (first === -1) continue
    const value = score(first, written.lastIndexOf(` ${n.key} `), n.key)
    if (value > bestScore) {
      best = n
      bestScore = value
    }
  }
  return best
}
