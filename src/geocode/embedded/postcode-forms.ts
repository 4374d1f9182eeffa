// Postcodes' shapes, the countries each may belong to, and which of their codes the geocoder's
// data has: what an address's postcode may be, and what to say when the data lacks it.

/** Postcode shapes, each with the countries it may belong to; POSTCODE_DATA says whose the data has. */
export const POSTCODE_FORMS: { re: RegExp; countries: string[]; canonical: (m: RegExpExecArray) => string }[] = [
  { re: /\b([A-Z]\d[A-Z]) ?\d[A-Z]\d\b/g, countries: ['CA'], canonical: (m) => m[1]!.toUpperCase() },
  { re: /\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b/g, countries: ['GB'], canonical: (m) => m[0]!.toUpperCase() },
  { re: /\b\d{4} ?[A-Z]{2}\b/g, countries: ['NL'], canonical: (m) => m[0]!.replace(' ', '').toUpperCase() },
  { re: /\b(\d{5})(?:-\d{4})?\b/g, countries: ['US', 'DE', 'FR', 'ES', 'IT'], canonical: (m) => m[1]! },
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

/** The countries whose postcodes look like `code` as a whole when none of them is in the data ("E1 6NF": GB); else empty. */
export function missingPostcodeCountries(code: string): string[] {
  const countries = postcodeCountries(code.trim())
  return countries.some((c) => hasPostcode(c, code.trim())) ? [] : countries
}

/** The countries whose postcodes look like `code` as a whole and the data lacks ("1012": AT, CH, NL...; "1130": not AT). */
export function postcodeCountriesLacking(code: string): string[] {
  return postcodeCountries(code.trim()).filter((c) => !hasPostcode(c, code.trim()))
}

/** The countries whose postcodes look like `code` as a whole, of which the data lacks some or all ("1130": AT, CH...). */
export function postcodeCountriesWithGaps(code: string): string[] {
  return postcodeCountries(code.trim()).filter((c) => POSTCODE_DATA[c] !== null)
}

/** The countries whose postcodes look like `code` as a whole ("1010": AU, AT, CH...); empty when none do. */
export function postcodeCountries(code: string): string[] {
  const text = code.toUpperCase()
  return WHOLE_POSTCODE_FORMS.filter((f) => f.re.test(text)).flatMap((f) => f.countries)
}
