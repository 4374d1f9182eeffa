// Postcodes' shapes, the countries each may belong to, and which of their codes the geocoder's
// data has: what an address's postcode may be, and what to say when the data lacks it. A code
// may follow its country's vehicle code and a dash, as business addresses write it ("D-80331").

/** Postcode shapes, each with the countries it may belong to; POSTCODE_DATA says whose the data has. */
export const POSTCODE_FORMS: { re: RegExp; countries: string[]; canonical: (m: RegExpExecArray) => string }[] = [
  { re: /\b([A-Z]\d[A-Z]) ?\d[A-Z]\d\b/g, countries: ['CA'], canonical: (m) => m[1]!.toUpperCase() },
  { re: /\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b/g, countries: ['GB'], canonical: (m) => m[0]!.toUpperCase() },
  { re: /\b\d{4} ?[A-Z]{2}\b/g, countries: ['NL'], canonical: (m) => m[0]!.replace(' ', '').toUpperCase() },
  // Not five digits of a Brazilian CEP ("57020-000"): no ZIP, though Alabama's letters precede it.
  { re: /\b(\d{5})(?:-\d{4})?\b(?!-\d)/g, countries: ['US', 'DE', 'FR', 'ES', 'IT'], canonical: (m) => m[1]! },
  { re: /\b\d{4}\b/g, countries: ['AU', 'AT', 'CH', 'BE', 'DK', 'NO', 'NL'], canonical: (m) => m[0]! },
]

/** `text` without the postcodes in it, of any shape POSTCODE_FORMS knows ("1094 HK Amsterdma": " Amsterdma"). */
export const withoutPostcodes = (text: string): string => POSTCODE_FORMS.reduce((t, f) => t.replace(f.re, ' '), text)

/** Each form of POSTCODE_FORMS matching a whole text. */
const WHOLE_POSTCODE_FORMS = POSTCODE_FORMS.map((f) => ({
  re: new RegExp(`^(?:${f.re.source})$`),
  countries: f.countries,
}))

/**
 * The countries whose postcodes the data has (POSTCODE_FORMS' tables), each with the codes it
 * has where it has only some (null: all): Austria's of Vienna's districts, 1010 to 1230.
 */
const POSTCODE_DATA: Record<string, RegExp | null> = {
  US: null,
  CA: null,
  AU: null,
  DE: null,
  FR: null,
  ES: null,
  IT: null,
  AT: /^1(?:0[1-9]|1\d|2[0-3])0$/,
}
const hasPostcode = (country: string, code: string) =>
  Object.hasOwn(POSTCODE_DATA, country) && (POSTCODE_DATA[country]?.test(code) ?? true)

/**
 * The countries, by the vehicle code written before their postcodes and a dash ("A-1130 Wien",
 * "D-80331 München", "NL-1012 AB Amsterdam"), with their postcodes' whole shape: those whose
 * postcodes the data has, and their neighbours' that addresses in German-speaking countries name so.
 */
const VEHICLE_CODES: Record<string, { country: string; shape: RegExp }> = {
  A: { country: 'AT', shape: /^\d{4}$/ },
  AUS: { country: 'AU', shape: /^\d{4}$/ },
  B: { country: 'BE', shape: /^\d{4}$/ },
  CDN: { country: 'CA', shape: /^[A-Z]\d[A-Z](?: ?\d[A-Z]\d)?$/i },
  CH: { country: 'CH', shape: /^\d{4}$/ },
  D: { country: 'DE', shape: /^\d{5}$/ },
  DK: { country: 'DK', shape: /^\d{4}$/ },
  E: { country: 'ES', shape: /^\d{5}$/ },
  F: { country: 'FR', shape: /^\d{5}$/ },
  I: { country: 'IT', shape: /^\d{5}$/ },
  L: { country: 'LU', shape: /^\d{4}$/ },
  N: { country: 'NO', shape: /^\d{4}$/ },
  NL: { country: 'NL', shape: /^\d{4}(?: ?[A-Z]{2})?$/i },
  USA: { country: 'US', shape: /^\d{5}(?:-\d{4})?$/ },
}
/** A vehicle code, a dash and what begins a postcode: digits, or Canada's letter and digit. */
const VEHICLE_PREFIX = /^\s*(\p{L}{1,3}) ?[-‐–] ?(?=(\p{L}?)\d)/u

/**
 * The country a text's leading vehicle code and dash name before a postcode ("A-1130 Wien": AT),
 * the text after the dash, and the postcode that begins it when it has the country's whole shape
 * (else null: a place search takes one begun, "A-11"). Null when the text does not begin so
 * ("A-ha", "B-Movie").
 */
export function postcodePrefix(text: string): { country: string; rest: string; postcode: string | null } | null {
  const m = VEHICLE_PREFIX.exec(text)
  const code = m === null ? undefined : VEHICLE_CODES[m[1]!.toUpperCase()]
  if (code === undefined || (m![2] !== '') !== (code.country === 'CA')) return null
  const rest = text.slice(m![0].length)
  // Its first word, or two where the country's shape has a second ("1012 AB", "M5V 2T6").
  const [first, second] = rest.trim().split(/\s+/)
  const postcode = [`${first} ${second}`, first!].find((p) => code.shape.test(p)) ?? null
  return { country: code.country, rest, postcode }
}

/** `text` as a postcode, and the countries it may be of: after a vehicle code, that country's alone ("A-4020": AT). */
function postcodeOf(text: string): { code: string; countries: string[] } {
  const prefixed = postcodePrefix(text)
  if (prefixed === null) return { code: text.trim(), countries: postcodeCountries(text.trim()) }
  const code = prefixed.rest.trim()
  return { code, countries: prefixed.postcode === code ? [prefixed.country] : [] }
}

/** The countries whose postcodes look like `code` as a whole when none of them is in the data ("E1 6NF": GB); else empty. */
export function missingPostcodeCountries(text: string): string[] {
  const { code, countries } = postcodeOf(text)
  // After a vehicle code, its country when the data has none of its codes ("CH-8001"), not some ("A-4020").
  if (postcodePrefix(text) !== null) return countries.filter((c) => !Object.hasOwn(POSTCODE_DATA, c))
  return countries.some((c) => hasPostcode(c, code)) ? [] : countries
}

/** The countries whose postcodes look like `code` as a whole and the data lacks ("1012": AT, CH, NL...; "1130": not AT). */
export function postcodeCountriesLacking(text: string): string[] {
  const { code, countries } = postcodeOf(text)
  return countries.filter((c) => !hasPostcode(c, code))
}

/** The countries whose postcodes look like `code` as a whole, of which the data lacks some or all ("1130": AT, CH...). */
export function postcodeCountriesWithGaps(text: string): string[] {
  return postcodeOf(text).countries.filter((c) => POSTCODE_DATA[c] !== null)
}

/** The countries whose postcodes look like `code` as a whole ("1010": AU, AT, CH...); empty when none do. */
export function postcodeCountries(code: string): string[] {
  const text = code.toUpperCase()
  return WHOLE_POSTCODE_FORMS.filter((f) => f.re.test(text)).flatMap((f) => f.countries)
}
