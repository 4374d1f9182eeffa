// Country names and codes to ISO 3166 alpha-2, from the same lists the embedded geocoder's data
// is built from: several languages' names, alpha-2 and alpha-3 codes, and everyday aliases.
import { createRequire } from 'node:module'
import { nameKey } from '../core/text'
import { COUNTRY_ALIASES, COUNTRY_NAME_LANGUAGES } from './embedded/tables'

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
