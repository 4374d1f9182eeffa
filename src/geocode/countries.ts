// Country names and codes to ISO 3166 alpha-2, from the same lists the embedded geocoder's data
// is built from: several languages' names, alpha-2 and alpha-3 codes, and everyday aliases.
import { createRequire } from 'node:module'
import { nameKey } from '../core/text'
import { AU_STATES, CA_PROVINCES, COUNTRY_ALIASES, COUNTRY_NAME_LANGUAGES } from './embedded/tables'

const require = createRequire(import.meta.url)

/** Every [key, alpha-2] pair: keys as nameKey makes them; codes lowercased (a code reads as one only in capitals). */
export function* countryNameEntries(): Generator<[string, string]> {
  for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) yield [nameKey(alias), code]
  const codes = require('i18n-iso-countries/codes.json') as [string, string, string][]
  for (const [alpha2, alpha3] of codes) {
    yield [alpha2.toLowerCase(), alpha2]
    yield [alpha3.toLowerCase(), alpha2]
  }
  for (const lang of COUNTRY_NAME_LANGUAGES) {
    const { countries } = require(`i18n-iso-countries/langs/${lang}.json`) as {
      countries: Record<string, string | string[]>
    }
    for (const [code, value] of Object.entries(countries)) {
      for (const name of Array.isArray(value) ? value : [value]) {
        const key = nameKey(name)
        if (key !== '') yield [key, code]
        const short = key.replace(/^the /, '')
        if (short !== key) yield [short, code]
      }
    }
  }
}

let byKey: Map<string, string> | null = null

/** The alpha-2 code a country's name or code names ("Deutschland", "DEU", "de" -> "DE"), or null. */
export function countryCode(text: string): string | null {
  if (byKey === null) {
    byKey = new Map()
    for (const [key, code] of countryNameEntries()) if (!byKey.has(key)) byKey.set(key, code)
  }
  return byKey.get(nameKey(text)) ?? null
}

/** A postcode's shape, and the regions (codes and names, as nameKey makes them) of each country it tells. */
type RegionCountry = { code: string; postcode: RegExp; regions: () => Set<string> }

const regionSet = (pairs: [string, string][]) =>
  new Set(pairs.flatMap(([code, name]) => [nameKey(code), nameKey(name)]))
let usRegions: Set<string> | null = null
const REGION_COUNTRIES: RegionCountry[] = [
  {
    code: 'US',
    postcode: /^\d{5}(?:-\d{4})?$/,
    regions: () =>
      (usRegions ??= regionSet(
        Object.entries((require('zipcodes/lib/states.js') as { full: Record<string, string> }).full).map(
          ([name, code]) => [code, name],
        ),
      )),
  },
  {
    code: 'CA',
    postcode: /^[a-z]\d[a-z] ?\d[a-z]\d$/i,
    regions: () => regionSet(Object.entries(CA_PROVINCES).map(([code, p]) => [code, p.name])),
  },
  {
    code: 'AU',
    postcode: /^\d{4}$/,
    regions: () => regionSet(Object.entries(AU_STATES).map(([code, s]) => [code, s.name])),
  },
]

/**
 * The country a region and postcode tell together, for a row that names none: a US state with a
 * ZIP code, a Canadian province with its code, an Australian state with four digits. Null otherwise.
 */
export function countryOfRegion(region: string, postcode: string): string | null {
  const key = nameKey(region)
  const code = postcode.trim()
  return REGION_COUNTRIES.find((c) => c.postcode.test(code) && c.regions().has(key))?.code ?? null
}
