// A CSV row's address, from its address cell and its parts: street, house number, second line,
// postcode, city, region and country. A spreadsheet writes an address either way, or both.
import { nameKey } from '../core/text'
import { countryCode } from '../geocode/countries'

/** Countries that write the house number before the street ("200 Main Street", "12 rue de Rivoli"). */
const NUMBER_FIRST = new Set(['US', 'CA', 'GB', 'IE', 'AU', 'NZ', 'FR', 'LU', 'MC', 'ZA', 'IN', 'SG', 'MY', 'PH', 'HK'])

/** Whether `text` holds `words` as whole words, case and accents aside ("Hof" is not in "Bahnhofstraße"). */
function hasWords(text: string, words: string): boolean {
  const key = nameKey(words)
  return key !== '' && ` ${nameKey(text)} `.includes(` ${key} `)
}

/** Whether `text` holds `postcode`, spaces and case aside ("AL1 3AA" is "al13aa"), not within a longer number. */
function hasPostcode(text: string, postcode: string): boolean {
  const compact = (t: string) => t.replace(/\s+/g, '').toLowerCase()
  const within = compact(text)
  const code = compact(postcode)
  if (code === '') return false
  for (let i = within.indexOf(code); i >= 0; i = within.indexOf(code, i + 1)) {
    if (!/\d/.test(within[i - 1] ?? '') && !/\d/.test(within[i + code.length] ?? '')) return true
  }
  return false
}

/** The street with its house number, before or after it as the row's country writes it (after when unknown). */
function numbered(street: string | undefined, number: string | undefined, country: string | undefined): string {
  if (number === undefined) return street ?? ''
  if (street === undefined) return number
  const code = country === undefined ? null : countryCode(country)
  return code !== null && NUMBER_FIRST.has(code) ? `${number} ${street}` : `${street} ${number}`
}

/**
 * The row's address (undefined when it has none). An address cell that names the row's city or
 * postcode, or a row without either, is kept as written; its street's number and second line join
 * its first part when it lacks them. Any other address cell is the street line. A street line is
 * joined with the parts as "street number, street2, postcode city, region, country".
 */
export function joinAddress(parts: Map<string, string>, cell: string | undefined): string | undefined {
  const part = (name: string) => parts.get(name) || undefined
  const [city, postcode, country] = [part('city'), part('postcode'), part('country')]
  const number = part('house_number')
  const street2 = part('street2')
  const namesTown =
    (city === undefined && postcode === undefined) ||
    (city !== undefined && hasWords(cell ?? '', city)) ||
    (postcode !== undefined && hasPostcode(cell ?? '', postcode))
  if (cell !== undefined && namesTown) {
    const missing = (text: string | undefined) => (text !== undefined && !hasWords(cell, text) ? text : undefined)
    if (missing(number) === undefined && missing(street2) === undefined) return cell
    const comma = cell.indexOf(',')
    const first = (comma < 0 ? cell : cell.slice(0, comma)).trim()
    const second = missing(street2)
    return (
      numbered(first, missing(number), country) + (second ? `, ${second}` : '') + (comma < 0 ? '' : cell.slice(comma))
    )
  }
  const street = numbered(cell ?? part('street'), number, country)
  const town = [postcode, city].filter(Boolean).join(' ')
  const joined = [street, street2, town, part('region'), country].filter(Boolean).join(', ')
  return joined === '' ? undefined : joined
}
