// The rows the resolver reads from the compiled tables, and the statements it reads them with.
import type { Database } from 'bun:sqlite'
import type { Precision } from '../geocoder'
import { mexicanState } from './mexico-states'

export type PlaceRow = {
  id: number
  name: string
  country: string
  admin1: string
  lat: number
  lng: number
  population: number
  alt: number
  weight: number
}
export type PostcodeRow = {
  country: string
  postcode: string
  place_key: string
  place: string
  admin1: string
  lat: number
  lng: number
  precision: Precision
  /** The town's population where the data knows it, else 0. */
  people: number
}
export type RegionHint = { country: string; admin1: string; key: string; part: number; whole: boolean }

/** A place found by an alternate name weighs this share of its people. */
const ALT_NAME_WEIGHT = 0.2

/** The statements the resolver asks the data with. */
export type Queries = ReturnType<typeof queriesOf>

export function queriesOf(db: Database) {
  const qCountry = db.prepare<{ code: string }, [string]>('SELECT code FROM countries WHERE key = ?')
  const qRegionRows = db.prepare<{ country: string; admin1: string }, [string]>(
    'SELECT country, admin1 FROM regions WHERE key = ?',
  )
  // Mexico's states by their letters too, which the data's regions lack (mexico-states.ts).
  const regionsOf = (key: string): { country: string; admin1: string }[] => {
    const mexican = mexicanState(key)
    const rows = qRegionRows.all(key)
    return mexican === undefined ? rows : [...rows, { country: 'MX', admin1: mexican }]
  }
  // The data's rows come before Mexico's: the first row is the data's, else the state's.
  const firstRegion = (key: string): { country: string; admin1: string } | null => {
    const row = qRegionRows.get(key)
    if (row !== null) return row
    const mexican = mexicanState(key)
    return mexican === undefined ? null : { country: 'MX', admin1: mexican }
  }
  const qRegions = { all: regionsOf, get: firstRegion }
  const qPostcode = db.prepare<PostcodeRow, [string, string]>(
    'SELECT * FROM postcodes WHERE country = ? AND postcode = ?',
  )
  // A place found by an alternate name counts for a fifth of its population, so "Porto" is Porto,
  // not Bordeaux (which also bears that name), while "Milano" is still Milan.
  const PLACE_COLUMNS = `p.id, p.name, p.country, p.admin1, p.lat, p.lng, p.population, n.alt,
    p.population * (CASE n.alt WHEN 1 THEN ${ALT_NAME_WEIGHT} ELSE 1 END) AS weight`
  const qPlaces = db.prepare<PlaceRow, [string]>(
    `SELECT ${PLACE_COLUMNS} FROM place_names n JOIN places p ON p.id = n.place_id WHERE n.key = ? ORDER BY weight DESC LIMIT 25`,
  )
  const qPlacesIn = db.prepare<PlaceRow, [string, string]>(
    `SELECT ${PLACE_COLUMNS} FROM place_names n JOIN places p ON p.id = n.place_id WHERE n.key = ? AND p.country = ? ORDER BY weight DESC LIMIT 25`,
  )

  const qNamed = db.prepare<{ one: number }, [string]>('SELECT 1 AS one FROM place_names WHERE key = ? LIMIT 1')
  const qBegun = db.prepare<{ one: number }, [string, string]>(
    'SELECT 1 AS one FROM place_names WHERE key >= ? AND key < ? LIMIT 1',
  )

  const qBegunIn = db.prepare<{ one: number }, [string, string, string, string]>(
    `SELECT 1 AS one FROM place_names n JOIN places p ON p.id = n.place_id
     WHERE n.key >= ? AND n.key < ? AND p.country = ? AND p.admin1 = ? LIMIT 1`,
  )

  const countryOf = (key: string): string | null => (key === '' ? null : (qCountry.get(key)?.code ?? null))
  /** Whether some place bears this name. */
  const named = (key: string): boolean => qNamed.get(key) !== null
  /** Whether some place's name begins with this key (the keys up to its last character's next). */
  const begins = (key: string): boolean =>
    key !== '' && qBegun.get(key, key.slice(0, -1) + String.fromCharCode(key.charCodeAt(key.length - 1) + 1)) !== null
  /** Whether a place of the region bears a name whose first words are `key`'s ("belo" of Belo Horizonte). */
  const wordsBegin = (key: string, country: string, admin1: string): boolean =>
    key !== '' && qBegunIn.get(`${key} `, `${key}!`, country, admin1) !== null
  return { countryOf, named, begins, wordsBegin, qRegions, qPostcode, qPlaces, qPlacesIn }
}
