// The benchmark scenario shared by every bench that compares like with like: one locator seeded
// with synthetic stores (bench/synthetic.ts), and the mix of public queries asked of it. The
// in-process bench (query.ts), the peers (peers.ts) and the HTTP bench (http.ts) all use these, so
// their figures are over the same data and the same query strings.
import { normalizeLocationBody, pickLocationFields } from '../src/locations/normalize'
import { newLocationRecord } from '../src/locations/record'
import { addCustomField, createLocator, setFilters, setLocatorSettings, setPriorityRules } from '../src/operator'
import type { Store } from '../src/store'
import {
  CUSTOM_FIELDS,
  FILTERS,
  FILTER_GROUPS,
  PRIORITY,
  type SyntheticSet,
  generate,
  prng,
  searchableWords,
  zipfPicker,
} from './synthetic'

export type Seeded = {
  locatorId: string
  set: SyntheticSet
  /** Location ids, by the bodies' order. */
  ids: string[]
  generateMs: number
  prepareMs: number
  insertMs: number
}

/**
 * A new locator (Query API on, 25 miles, the synthetic filter groups, custom fields and priority
 * rules) with `size` published stores, validated as the Management API does and inserted in one
 * write transaction.
 */
export function seedLocator(store: Store, size: number, seed: number): Seeded {
  const { locator: created } = createLocator(store, 'Bench locator')
  const locatorId = created.id
  setLocatorSettings(store, locatorId, { queryApi: 'on', radius: '25', unit: 'miles' })
  for (const f of CUSTOM_FIELDS) addCustomField(store, locatorId, f)
  setFilters(store, locatorId, FILTERS)
  setPriorityRules(store, locatorId, PRIORITY)
  const definitions = store.customFields.list(locatorId)

  let t = performance.now()
  const set = generate(size, seed)
  const generateMs = performance.now() - t

  t = performance.now()
  const now = new Date().toISOString()
  let records: ReturnType<typeof newLocationRecord>[] | null = set.bodies.map((b) =>
    newLocationRecord(locatorId, normalizeLocationBody(pickLocationFields(b), 'create', definitions), null, null, now),
  )
  const prepareMs = performance.now() - t

  t = performance.now()
  store.write(() => {
    for (const r of records!) store.locations.insert(r)
  })
  const insertMs = performance.now() - t
  const ids = records.map((r) => r.id)
  records = null
  return { locatorId, set, ids, generateMs, prepareMs, insertMs }
}

/**
 * Warm-up queries drawn per type before the timed ones (bench/query.ts and bench/peers.ts draw the
 * same strings; each stops warming after WARM_MS). JavaScriptCore's last tier takes a query's code
 * only after thousands of calls: with fewer, the type timed first runs partly cold, as a server that
 * has answered its traffic for a while does not (PERF-014).
 */
export const WARM_QUERIES = 10_000

/** The most a type's warm-up takes (ms): the slower types stop there, as the peers do (SQLite's typical radius query after ~4000). */
export const WARM_MS = 2000

export type QueryType = {
  key: string
  label: string
  /** Which target of the benchmark issue applies. */
  target: 'radius' | 'search' | 'bbox' | null
  /** A query string for GET /:token/locations (without the "?"). */
  gen: () => string
  /** Every answer must hold at least one location: the bench reports a type that times empty pages as a miss. */
  nonEmpty?: true
}

export type Scenario = {
  types: QueryType[]
  /** A point near a typical city centre, as `lat=..&lng=..`. */
  typical: () => string
  /** A uniformly chosen element. */
  pick: <T>(a: readonly T[]) => T
  /** The 5 cities with the most stores (indexes into set.cities). */
  densest: number[]
  /** bbox= of a map of 1280 × 800 px at a zoom over a typical centre. */
  view: (zoom: number) => string
}

/** The deep page: the "deep page (offset 400)", of the Query API's default 20 locations (no type sends a limit). */
const DEEP_OFFSET = 400
const LIMIT = 20
/** Radii (miles) the deep page may take, the locator's own 25 first. 1000 is the Query API's most. */
const DEEP_RADII = [25, 50, 100, 200, 400, 1000]
/** How far (km) a densest query's centre may be from its city's: 5 times the jitter's 1 km standard deviation. */
const DENSE_JITTER_KM = 5

/**
 * `all=true` pages start at any offset from 0 to PAGED_OFFSETS - 1, not only at multiples of 20:
 * a type's 2000 timed queries are then as many distinct strings as the other types' (pages at
 * multiples of 20 up to 980 made 50).
 */
const PAGED_OFFSETS = 2000

/** Great-circle distance in km (as geokdbush, on a 6371 km sphere). */
function kmBetween(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180
  const h =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2
  return 2 * 6371 * Math.asin(Math.sqrt(h))
}

/** Stores within `km` of a city's centre, counted until there are more than `enough`. */
function storesWithin(set: SyntheticSet, ci: number, km: number, enough: number): number {
  const c = set.cities[ci]!
  const dLat = km / 111 // no store further in latitude is within km (a degree of latitude is 111.2 km)
  let n = 0
  for (const b of set.bodies) {
    const p = b.coordinates as { lat: number; lng: number }
    if (Math.abs(p.lat - c.lat) <= dLat && kmBetween(c.lat, c.lng, p.lat, p.lng) <= km && ++n > enough) break
  }
  return n
}

/**
 * Where the deep page is asked: the first 5 cities, densest first, with a full page at offset 400
 * (more than 420 stores) within the radius, and that radius the smallest of DEEP_RADII where 5
 * such cities exist. Only stores close enough that every centre the jitter gives has them in its
 * circle count. At 10k no city had 420 stores within 25 miles (the densest about 310) and a deep
 * page there was empty; from 100k the 5 densest cities have them within 25 miles. With fewer than
 * 5 at the largest radius, those there are (the densest when none: the bench then counts empty
 * answers).
 */
function deepPage(set: SyntheticSet, byDensity: number[]): { miles: number; centres: number[] } {
  const need = DEEP_OFFSET + LIMIT
  let found: number[] = []
  for (const miles of DEEP_RADII) {
    const km = miles * 1.609344 - DENSE_JITTER_KM
    found = []
    for (const ci of byDensity) {
      if (storesWithin(set, ci, km, need) > need) found.push(ci)
      if (found.length === 5) return { miles, centres: found }
    }
  }
  return { miles: DEEP_RADII[DEEP_RADII.length - 1]!, centres: found.length > 0 ? found : byDensity.slice(0, 5) }
}

/**
 * The query mix, from a seeded generator: "typical" is a uniformly chosen populated city centre
 * ±3 km, "densest" one of the 5 cities with the most stores ±1 km; searches use words (1) or
 * consecutive word pairs (2) of a random store of that city, so they hit. The deep page (offset
 * 400) is asked ±1 km from dense centres, in a radius that gives each a full page (deepPage).
 */
export function scenario(set: SyntheticSet, seed: number, run: number): Scenario {
  const rnd = prng(seed * 7919 + run)
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd())
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!
  const populated = set.cities.map((_, i) => i).filter((i) => set.perCity[i]! > 0)
  const byDensity = [...populated].sort((a, b) => set.perCity[b]! - set.perCity[a]!)
  const densest = byDensity.slice(0, 5)
  const byCity: number[][] = set.cities.map(() => [])
  set.cityOf.forEach((c, i) => {
    if (c >= 0) byCity[c]!.push(i)
  })
  const around = (ci: number, jitterKm: number) => {
    const c = set.cities[ci]!
    const lat = c.lat + (gauss() * jitterKm) / 111.32
    const lng = c.lng + (gauss() * jitterKm) / (111.32 * Math.cos((c.lat * Math.PI) / 180))
    return `lat=${lat.toFixed(5)}&lng=${lng.toFixed(5)}`
  }
  const typical = () => around(pick(populated), 3)
  // A map of 1280 × 800 px at `zoom` (256 px tiles, Web Mercator) over a city centre ±3 km, as bbox=.
  const view = (zoom: number) => {
    const c = set.cities[pick(populated)]!
    const lat = c.lat + (gauss() * 3) / 111.32
    const lng = c.lng + (gauss() * 3) / (111.32 * Math.cos((c.lat * Math.PI) / 180))
    const degPerPx = 360 / 256 / 2 ** zoom
    const dLng = 640 * degPerPx
    const dLat = 400 * degPerPx * Math.cos((lat * Math.PI) / 180)
    const f = (x: number) => x.toFixed(5)
    return `bbox=${f(lng - dLng)},${f(lat - dLat)},${f(lng + dLng)},${f(lat + dLat)}`
  }
  const dense = () => around(pick(densest), 1)
  const deep = deepPage(set, byDensity)
  // Every offset once in a seeded order, walked round and round: any PAGED_OFFSETS queries in a
  // row are distinct, wherever the timed ones start after the warm-up. Its own generator, so the
  // other types' strings do not depend on how many offsets there are.
  const offsets = Array.from(
    { length: Math.max(1, Math.min(PAGED_OFFSETS, set.bodies.length - LIMIT + 1)) },
    (_, i) => i,
  )
  const shuffle = prng((seed * 7919 + run) ^ 0x5bd1e995)
  for (let i = offsets.length - 1; i > 0; i--) {
    const j = Math.floor(shuffle() * (i + 1))
    ;[offsets[i], offsets[j]] = [offsets[j]!, offsets[i]!]
  }
  let paged = 0
  // Tags are asked as often as stores carry them: a shopper filters on what most stores offer.
  const product = zipfPicker(FILTER_GROUPS.products, rnd)
  const service = zipfPicker(FILTER_GROUPS.services, rnd)
  const two = () => {
    const a = product()
    let b = product()
    while (b === a) b = product()
    return `tags[]=${a}&tags[]=${b}`
  }
  const words = (ci: number, n: 1 | 2) => {
    const body = set.bodies[pick(byCity[ci]!)]!
    const phrases = searchableWords(body).filter((p) => p.length >= n)
    const p = pick(phrases)
    const at = Math.floor(rnd() * (p.length - n + 1))
    return encodeURIComponent(p.slice(at, at + n).join(' '))
  }
  const searchAt = (dense: boolean, n: 1 | 2) => {
    const ci = dense ? pick(densest) : pick(populated)
    return `${around(ci, dense ? 1 : 3)}&search=${words(ci, n)}`
  }
  // A search as it is typed: the first 1 to 3 characters of a word of a store of the city, from
  // its name, address or description (a house number's or a postcode's digits too).
  const typed = (ci: number) => {
    const body = set.bodies[pick(byCity[ci]!)]!
    const all = [body.name, body.address, body.description]
      .join(' ')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w !== '')
    return pick(all).slice(0, 1 + Math.floor(rnd() * 3))
  }
  const types: QueryType[] = [
    { key: 'radius_typical', label: 'radius top-20, typical centre', target: 'radius', gen: typical },
    { key: 'radius_dense', label: 'radius top-20, 5 densest centres', target: 'radius', gen: dense },
    {
      key: 'tags_any',
      label: 'radius + 2 tags, any',
      target: 'radius',
      gen: () => `${typical()}&${two()}&tagLogic=any`,
    },
    {
      key: 'tags_all',
      label: 'radius + 2 tags, all',
      target: 'radius',
      gen: () => `${typical()}&${two()}&tagLogic=all`,
    },
    {
      key: 'tags_match',
      label: 'radius + 3 tags (2 groups), match',
      target: 'radius',
      gen: () => `${typical()}&${two()}&tags[]=${service()}&tagLogic=match`,
    },
    {
      key: 'tags_match_dense',
      label: 'radius + 3 tags, match, densest',
      target: 'radius',
      gen: () => `${dense()}&${two()}&tags[]=${service()}&tagLogic=match`,
    },
    { key: 'search1', label: 'radius + 1-word search', target: 'search', gen: () => searchAt(false, 1) },
    { key: 'search2', label: 'radius + 2-word search', target: 'search', gen: () => searchAt(false, 2) },
    { key: 'search2_dense', label: 'radius + 2-word search, densest', target: 'search', gen: () => searchAt(true, 2) },
    { key: 'priority', label: 'radius, sort=priority', target: null, gen: () => `${typical()}&sort=priority` },
    {
      key: 'priority_dense',
      label: 'radius, sort=priority, densest',
      target: null,
      gen: () => `${dense()}&sort=priority`,
    },
    {
      key: 'deep_page',
      label: `radius ${deep.miles} miles, offset=${DEEP_OFFSET}, dense centres`,
      target: null,
      gen: () => `${around(pick(deep.centres), 1)}&radius=${deep.miles}&offset=${DEEP_OFFSET}`,
      nonEmpty: true,
    },
    {
      key: 'all_name_paging',
      label: `all=true by name, offsets 0–${offsets.length - 1}`,
      target: null,
      gen: () => `all=true&offset=${offsets[paged++ % offsets.length]}`,
    },
    // Appended: the types above draw the same strings as before these were added.
    {
      key: 'search_typed',
      label: 'radius + a word as typed (1–3 characters)',
      target: 'search',
      gen: () => {
        const ci = pick(populated)
        return `${around(ci, 3)}&search=${typed(ci)}`
      },
    },
    {
      key: 'all_search_typed',
      label: 'all=true by name + a word as typed (1–3 characters)',
      target: null,
      gen: () => `all=true&search=${typed(pick(populated))}`,
    },
    {
      key: 'bbox_city',
      label: 'bbox top-20, a city map (1280 × 800 px, zoom 13)',
      target: 'bbox',
      gen: () => view(13),
    },
    { key: 'bbox_region', label: 'bbox top-20, a region map (zoom 10)', target: null, gen: () => view(10) },
  ]
  return { types, typical, pick, densest, view }
}
