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

/**
 * A country a region and postcode can tell together: the region's codes and names (nameKey keys,
 * to the region's code), and whether a postcode belongs to that region.
 */
type RegionCountry = {
  code: string
  regions: () => Map<string, string>
  holds: (postcode: string, region: string) => boolean
}

/** Each region's code and name as nameKey keys, to its code in capitals. */
const regionKeys = (pairs: [string, string][]) =>
  new Map(
    pairs.flatMap(([code, name]) => [
      [nameKey(code), code.toUpperCase()],
      [nameKey(name), code.toUpperCase()],
    ]),
  )

let usZips: Record<string, { state: string }> | null = null
let usRegions: Map<string, string> | null = null
/** Canadian postal codes' first letter, to their provinces. */
const CA_LETTERS: Record<string, string[]> = {
  A: ['NL'],
  B: ['NS'],
  C: ['PE'],
  E: ['NB'],
  G: ['QC'],
  H: ['QC'],
  J: ['QC'],
  K: ['ON'],
  L: ['ON'],
  M: ['ON'],
  N: ['ON'],
  P: ['ON'],
  R: ['MB'],
  S: ['SK'],
  T: ['AB'],
  V: ['BC'],
  X: ['NT', 'NU'],
  Y: ['YT'],
}
/** Australian postcodes' first digit, to their states. */
const AU_DIGITS: Record<string, string[]> = {
  '0': ['NT', 'ACT'],
  '1': ['NSW'],
  '2': ['NSW', 'ACT'],
  '3': ['VIC'],
  '4': ['QLD'],
  '5': ['SA'],
  '6': ['WA'],
  '7': ['TAS'],
  '8': ['VIC'],
  '9': ['QLD'],
}
const REGION_COUNTRIES: RegionCountry[] = [
  {
    // A real ZIP code of that state: an Italian CAP with its province (PA 90100, CO 22100) is not one.
    code: 'US',
    regions: () =>
      (usRegions ??= regionKeys(
        Object.entries((require('zipcodes/lib/states.js') as { full: Record<string, string> }).full).map(
          ([name, code]) => [code, name],
        ),
      )),
    holds: (postcode, region) => {
      const zip = /^(\d{5})(?:-\d{4})?$/.exec(postcode)?.[1]
      if (zip === undefined) return false
      usZips ??= (require('zipcodes/lib/codes.js') as { codes: Record<string, { state: string }> }).codes
      return usZips[zip]?.state === region
    },
  },
  {
    code: 'CA',
    regions: () => regionKeys(Object.entries(CA_PROVINCES).map(([code, p]) => [code, p.name])),
    holds: (postcode, region) =>
      /^[a-z]\d[a-z] ?\d[a-z]\d$/i.test(postcode) && (CA_LETTERS[postcode[0]!.toUpperCase()] ?? []).includes(region),
  },
  {
    code: 'AU',
    regions: () => regionKeys(Object.entries(AU_STATES).map(([code, s]) => [code, s.name])),
    holds: (postcode, region) => /^\d{4}$/.test(postcode) && (AU_DIGITS[postcode[0]!] ?? []).includes(region),
  },
]

/**
 * The country a region and postcode tell together, for a row that names none: a US state with one
 * of its ZIP codes, a Canadian province with one of its postal codes, an Australian state with one
 * of its postcodes. Null otherwise.
 */
export function countryOfRegion(region: string, postcode: string): string | null {
  const key = nameKey(region)
  const code = postcode.trim()
  for (const c of REGION_COUNTRIES) {
    const found = c.regions().get(key)
    if (found !== undefined && c.holds(code, found)) return c.code
  }
  return null
}
