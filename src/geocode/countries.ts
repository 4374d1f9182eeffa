// Country names and codes to ISO 3166 alpha-2, from the same lists the embedded geocoder's data
// is built from: several languages' names, alpha-2 and alpha-3 codes, and everyday aliases.
import { createRequire } from 'node:module'
import { nameKey, withinEdits } from '../core/text'
import { LANGS } from '../core/languages'
import { AU_STATES, CA_PROVINCES, COUNTRY_ALIASES, COUNTRY_NAME_LANGUAGES } from './embedded/tables'

const require = createRequire(import.meta.url)

/**
 * Every [key, alpha-2] pair: keys as nameKey makes them; codes lowercased (a code reads as one only
 * in capitals). The first pair of a key wins.
 */
export function* countryNameEntries(): Generator<[string, string]> {
  for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) yield [nameKey(alias), code]
  const codes = require('i18n-iso-countries/codes.json') as [string, string, string][]
  for (const [alpha2, alpha3] of codes) {
    yield [alpha2.toLowerCase(), alpha2]
    yield [alpha3.toLowerCase(), alpha2]
  }
  for (const lang of COUNTRY_NAME_LANGUAGES) {
    for (const [code, value] of Object.entries(namesIn(lang))) {
      for (const name of Array.isArray(value) ? value : [value]) {
        const key = nameKey(name)
        if (key !== '') yield [key, code]
        const short = key.replace(/^the /, '')
        if (short !== key) yield [short, code]
      }
    }
  }
  // The names labels show ("Czechia", "États-Unis", "Antigua & Barbuda") read back as their
  // country; but not a saint's or an article's ("San Bartolomé", "La Réunion"), many towns' names.
  for (const lang of LANGS) {
    for (const [alpha2] of codes) {
      const key = nameKey(cldrName(alpha2, lang) ?? '')
      if (key !== '' && !TOWN_LIKE.test(key)) yield [key, alpha2]
    }
  }
}

/** Names that begin as towns' do: a saint's, an article. */
const TOWN_LIKE = /^(san|santa|sant|st|saint|la|le|el) /

type CountryNames = Record<string, string | string[]>
const names = new Map<string, CountryNames>()

/** i18n-iso-countries' names of every country in `lang`, by alpha-2 code: read once. */
function namesIn(lang: string): CountryNames {
  let found = names.get(lang)
  if (found === undefined) {
    found = (require(`i18n-iso-countries/langs/${lang}.json`) as { countries: CountryNames }).countries
    names.set(lang, found)
  }
  return found
}

let byKey: Map<string, string> | null = null

/** Every country name and code as nameKey makes them, to its alpha-2 code: made once. */
function countryKeys(): Map<string, string> {
  if (byKey === null) {
    byKey = new Map()
    for (const [key, code] of countryNameEntries()) if (!byKey.has(key)) byKey.set(key, code)
  }
  return byKey
}

/** The alpha-2 code a country's name or code names ("Deutschland", "DEU", "de" -> "DE"), or null. */
export function countryCode(text: string): string | null {
  return countryKeys().get(nameKey(text)) ?? null
}

/**
 * The alpha-2 codes of the countries whose names `text` most likely misspells ("Deutchland",
 * "Frankriech", "Itlay" -> ["DE"], ["FR"], ["IT"]; "Austrlia" -> Australia and Austria): the
 * countries with a name of four letters or more within the fewest edits, one (two from eight
 * letters; two letters swapped count one), when they are three at most; [] otherwise, and for a
 * name known.
 */
export function countryMisspelt(text: string): string[] {
  const key = nameKey(text)
  if (key.length < 4 || countryCode(text) !== null) return []
  let found = misspelt.get(key)
  if (found !== undefined) return found
  found = closestCountries(key)
  if (misspelt.size >= 1000) misspelt.clear() // a file's few spellings, not a list of every one
  misspelt.set(key, found)
  return found
}

/** Names already looked at (an import asks for each row's): a scan of every name takes a millisecond or more. */
const misspelt = new Map<string, string[]>()

/** More countries as close as this are no guess worth giving. */
const MOST_MEANT = 3

function closestCountries(key: string): string[] {
  for (let edits = 1; edits <= (key.length >= 8 ? 2 : 1); edits++) {
    const found = new Set<string>()
    for (const [name, code] of countryKeys()) {
      if (name.length < 4 || Math.abs(name.length - key.length) > edits || !withinEdits(key, name, edits)) continue
      found.add(code)
    }
    if (found.size > 0) return found.size <= MOST_MEANT ? [...found] : []
  }
  return []
}

/**
 * A country a postcode can tell, with the row's region (its codes and names as nameKey keys, to
 * its code) and city: whether the postcode is that country's, of that region.
 */
type PostcodeCountry = {
  code: string
  regions: () => Map<string, string>
  holds: (postcode: string, region: string | undefined, city: string) => boolean
}

/** Each region's code and name as nameKey keys, to its code in capitals. */
const regionKeys = (pairs: [string, string][]) =>
  new Map(
    pairs.flatMap(([code, name]) => [
      [nameKey(code), code.toUpperCase()],
      [nameKey(name), code.toUpperCase()],
    ]),
  )
/** "new south wales" -> "New South Wales"; "of" and "and" within a name stay small ("District of Columbia"). */
export const titled = (key: string) =>
  key.replace(/(^|[\s-])(\p{L})(\p{L}*)/gu, (_, a: string, b: string, rest: string) =>
    a !== '' && (b + rest === 'of' || b + rest === 'and') ? a + b + rest : a + b.toUpperCase() + rest,
  )
/** A table made on first use. */
const lazily = <T>(make: () => T) => {
  let made: T | null = null
  return () => (made ??= make())
}

/** The US ZIP codes, with each one's state and town (the zipcodes package), read on first use. */
const usZipCodes = lazily(
  () => (require('zipcodes/lib/codes.js') as { codes: Record<string, { state: string; city: string }> }).codes,
)
/** The US states' names as the package writes them, in capitals ("DELAWARE"), to their codes. */
const usStateTable = lazily(() => (require('zipcodes/lib/states.js') as { full: Record<string, string> }).full)
/** The US states' codes and names, to their codes. */
const usStates = lazily(() => regionKeys(Object.entries(usStateTable()).map(([name, code]) => [code, name])))
/** The US states' codes to their names as people write them ("DC": "District of Columbia"). */
const usStateNames = lazily(
  () => new Map(Object.entries(usStateTable()).map(([name, code]) => [code, titled(name.toLowerCase())])),
)
/**
 * The name of the US state, Canadian province or Australian state of `code` in `country` ("DE"
 * in US: "Delaware"); null for any other.
 */
export function regionName(country: string, code: string): string | null {
  if (country === 'CA') return CA_PROVINCES[code.toLowerCase()]?.name ?? null
  if (country === 'AU') return AU_STATES[code.toLowerCase()]?.name ?? null
  return country === 'US' ? (usStateNames().get(code) ?? null) : null
}
/** State codes an Italian province shares, where the state's ZIP codes and the province's CAPs overlap (Trento). */
const ALSO_ITALIAN = new Set(['TN'])
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
const POSTCODE_COUNTRIES: PostcodeCountry[] = [
  {
    // A real ZIP code of that state: an Italian CAP with its province (PA 90100, CO 22100) is not
    // one. Where they overlap (Trento, TN 38122) the ZIP code's own town is asked for too.
    code: 'US',
    regions: usStates,
    holds: (postcode, region, city) => {
      const zip = /^(\d{5})(?:-\d{4})?$/.exec(postcode)?.[1]
      if (zip === undefined || region === undefined) return false
      const found = usZipCodes()[zip]
      return found?.state === region && (!ALSO_ITALIAN.has(region) || nameKey(found.city) === nameKey(city))
    },
  },
  {
    code: 'CA',
    regions: lazily(() => regionKeys(Object.entries(CA_PROVINCES).map(([code, p]) => [code, p.name]))),
    holds: (postcode, region) =>
      region !== undefined &&
      /^[a-z]\d[a-z][ -]?\d[a-z]\d$/i.test(postcode) &&
      (CA_LETTERS[postcode[0]!.toUpperCase()] ?? []).includes(region),
  },
  {
    code: 'AU',
    regions: lazily(() => regionKeys(Object.entries(AU_STATES).map(([code, s]) => [code, s.name]))),
    holds: (postcode, region) =>
      region !== undefined && /^\d{4}$/.test(postcode) && (AU_DIGITS[postcode[0]!] ?? []).includes(region),
  },
  {
    // A UK postcode's shape is no other country's ("SW1A 1AA", "AL1 3AA"): no region needed.
    code: 'GB',
    regions: () => new Map(),
    holds: (postcode) => /^[a-z]{1,2}\d[a-z\d]? ?\d[a-z]{2}$/i.test(postcode),
  },
]

/**
 * The country a postcode tells with its row's region and city, for a row that names none: a US
 * state with one of its ZIP codes, a Canadian province with one of its postal codes, an
 * Australian state with one of its postcodes, or a UK postcode. Null otherwise.
 */
export function countryOfPostcode(postcode: string, region: string, city: string): string | null {
  const key = nameKey(region)
  const code = postcode.trim()
  return POSTCODE_COUNTRIES.find((c) => c.holds(code, c.regions().get(key), city))?.code ?? null
}

/**
 * Every spelling (as nameKey keys) of the US state, Canadian province or Australian state `text`
 * names by its code or name in `country`: "il" and "illinois" for "Illinois"; [] for any other.
 */
export function regionSpellings(country: string, text: string): string[] {
  const regions = POSTCODE_COUNTRIES.find((c) => c.code === country)?.regions()
  const code = regions?.get(nameKey(text))
  return regions === undefined || code === undefined ? [] : [...regions].filter(([, c]) => c === code).map(([k]) => k)
}

/**
 * The code of the US state, Canadian province or Australian state `text` names in `country` by
 * its code or name ("Illinois": "IL"), as the service stores a region; null for any other.
 */
export const regionCode = (country: string, text: string): string | null =>
  POSTCODE_COUNTRIES.find((c) => c.code === country)
    ?.regions()
    .get(nameKey(text)) ?? null

/**
 * A US ZIP code whose leading zeros a spreadsheet dropped ("2134" for 02134, in MA), given back
 * when the padded code is one of its state's, or, with no state, of its town's ("Boston, 2116,
 * USA"); any other postcode as it is.
 */
export function zipWithZeros(postcode: string, region: string | undefined, city?: string): string {
  const code = postcode.trim()
  if (!/^\d{3,4}$/.test(code)) return postcode
  const padded = code.padStart(5, '0')
  const zip = usZipCodes()[padded]
  if (zip === undefined) return postcode
  if (region) return usStates().get(nameKey(region)) === zip.state ? padded : postcode
  return city !== undefined && nameKey(zip.city) === nameKey(city) ? padded : postcode
}

/** A UK postcode's shape and form: "sw1a2aa" is "SW1A 2AA". */
const UK_FORM = {
  re: /^([a-z]{1,2}\d[a-z\d]?) *(\d[a-z]{2})$/i,
  form: (m: RegExpExecArray) => `${m[1]} ${m[2]}`.toUpperCase(),
}

/** Postcode shapes by country, each with its usual form: "sw1a2aa" is "SW1A 2AA", "1012nx" is "1012 NX". */
const POSTCODE_FORMS: Record<string, { re: RegExp; form: (m: RegExpExecArray) => string }> = {
  GB: UK_FORM,
  // Jersey, Guernsey and the Isle of Man have UK postcodes (JE2 3AB, GY1 1AA, IM1 1AA).
  JE: UK_FORM,
  GG: UK_FORM,
  IM: UK_FORM,
  NL: { re: /^(\d{4}) *([a-z]{2})$/i, form: (m) => `${m[1]} ${m[2]}`.toUpperCase() },
  CA: { re: /^([a-z]\d[a-z])[ -]?(\d[a-z]\d)$/i, form: (m) => `${m[1]} ${m[2]}`.toUpperCase() },
}

/**
 * A postcode of `country` in the form its post writes it (a UK, Jersey, Guernsey, Isle of Man,
 * Dutch or Canadian one in capitals, its two halves apart); any other text as it is.
 */
export function postcodeForm(country: string | null, postcode: string): string {
  const shape = country === null ? undefined : POSTCODE_FORMS[country]
  const m = shape?.re.exec(postcode.trim())
  return m ? shape!.form(m) : postcode
}

/**
 * `postcode` as written in an address, spaces and case aside ("AL1 3AA" is "al13aa"), not within
 * a longer number ("1011" is not in "10117-3"); null for an empty one.
 */
export function postcodePattern(postcode: string, flags = 'iu'): RegExp | null {
  const chars = [...postcode.replace(/\s+/g, '')].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return chars.length === 0 ? null : new RegExp(`(?<!\\d)${chars.join('[ \\t]*')}(?!\\d)`, flags)
}

/** Countries whose everyday name is CLDR's short one: "Hong Kong", not "Hong Kong SAR China". */
const SHORT_NAMED = new Set(['HK', 'MO', 'PS'])

/**
 * A country's name in `lang` ("DE", "fr" -> "Allemagne") as people write it: CLDR's (the names
 * browsers show: "United States", "Czechia", "Taiwan") when countryCode reads it back, else
 * i18n-iso-countries' first, else its code. Made once per language and code.
 */
export function countryLabel(code: string, lang = 'en'): string {
  let byCode = labels.get(lang)
  if (byCode === undefined) labels.set(lang, (byCode = new Map()))
  let name = byCode.get(code)
  if (name === undefined) {
    const cldr = cldrName(code, lang)
    name =
      (cldr !== null && countryCode(cldr) === code ? cldr : listedName(code, lang)) ??
      (lang === 'en' ? code : countryLabel(code))
    byCode.set(code, name)
  }
  return name
}

const labels = new Map<string, Map<string, string>>()

/** CLDR's name of a country code in `lang`; null for a code it does not name. */
function cldrName(code: string, lang: string): string | null {
  if (!/^[A-Z]{2}$/.test(code) || code === 'ZZ') return null
  const style = SHORT_NAMED.has(code) ? 'short' : 'long'
  const name = new Intl.DisplayNames([lang], { type: 'region', style, fallback: 'none' }).of(code)
  return name === undefined || name === code ? null : name
}

/** i18n-iso-countries' name of a code in `lang`: the first of several (the official one). */
function listedName(code: string, lang: string): string | null {
  const value = namesIn(lang)[code]
  const name = Array.isArray(value) ? value[0] : value
  return name ?? null
}
