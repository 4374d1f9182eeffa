// A CSV row's address, from its address cell and its parts: street, house number, second line,
// postcode, city, region and country. A spreadsheet writes an address either way, or both. When
// in doubt an address cell is kept as written: a part is added to it only where it plainly lacks it.
import { nameKey } from '../core/text'
import { countryCode, countryOfRegion } from '../geocode/countries'

/** Countries that write the house number before the street ("200 Main Street", "12 rue de Rivoli"). */
const NUMBER_FIRST = new Set(['US', 'CA', 'GB', 'IE', 'AU', 'NZ', 'FR', 'LU', 'MC', 'ZA', 'IN', 'SG', 'MY', 'PH', 'HK'])
/** Countries that write the town, then the region and postcode ("Springfield, IL 62701"). */
const REGION_POSTCODE = new Set(['US', 'CA', 'AU'])
/** Countries that write the postcode after the town ("London SW1A 2AA"). */
const TOWN_POSTCODE = new Set(['GB', 'IE', 'NZ', 'ZA', 'IN', 'SG', 'MY', 'PH'])
/** Words a second line begins with; the part of a cell that does is not its street. */
const UNIT_WORDS = /^(?:unit|shop|flat|suite|ste|apt|apartment|floor|level|building|bldg|room|#)\b/i

/** Whether `text` holds `words` as whole words, case and accents aside ("Hof" is not in "Bahnhofstraße"). */
function hasWords(text: string, words: string): boolean {
  const key = nameKey(words)
  return key !== '' && ` ${nameKey(text)} `.includes(` ${key} `)
}

/** Whether `text` ends with `words` as whole words, case and accents aside. */
function endsWithWords(text: string, words: string): boolean {
  const key = nameKey(words)
  return key !== '' && ` ${nameKey(text)}`.endsWith(` ${key}`)
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

/** Whether a second line is in `text`: its numbers ("Suite 200" in "Ste. 200"), or its words when it has none. */
function hasLine(text: string, line: string): boolean {
  const numbers = line.match(/\d+/g)
  if (numbers === null) return hasWords(text, line)
  const held = new Set(text.match(/\d+/g) ?? [])
  return numbers.every((n) => held.has(n))
}

/** The row's country: its country cell's, else what its region and postcode tell (a US state and a ZIP code). */
function rowCountry(parts: Map<string, string>): string | null {
  const country = parts.get('country')
  if (country) return countryCode(country)
  const [region, postcode] = [parts.get('region'), parts.get('postcode')]
  return region && postcode ? countryOfRegion(region, postcode) : null
}

/** The street with its house number, before or after it as the country writes it (after when not known). */
function numbered(street: string | undefined, number: string | undefined, country: string | null): string {
  if (number === undefined) return street ?? ''
  if (street === undefined) return number
  return country !== null && NUMBER_FIRST.has(country) ? `${number} ${street}` : `${street} ${number}`
}

/** The parts of a cell between commas and line breaks, each with where it starts and ends, trimmed. */
function cellParts(cell: string): { text: string; from: number; to: number }[] {
  const parts: { text: string; from: number; to: number }[] = []
  for (const m of cell.matchAll(/[^,\n\r]+/g)) {
    const lead = m[0].length - m[0].trimStart().length
    const text = m[0].trim()
    if (text !== '') parts.push({ text, from: m.index + lead, to: m.index + lead + text.length })
  }
  return parts
}

/**
 * Whether an address cell names the row's town: its postcode anywhere, or its city as whole words
 * after the first part ("1 Main St, Springfield"), or at the end of a cell of one part
 * ("Friedrichstraße 120 Berlin"). A city within the street's name ("10 London Road") is not one.
 */
function namesTown(cell: string, city: string | undefined, postcode: string | undefined): boolean {
  if (postcode !== undefined && hasPostcode(cell, postcode)) return true
  if (city === undefined) return false
  const parts = cellParts(cell)
  return parts.length === 1 ? endsWithWords(cell, city) : parts.slice(1).some((p) => hasWords(p.text, city))
}

/**
 * A kept address cell with the house number and second line it plainly lacks: the number joins its
 * street part (the first part not a unit's, with no digit in it), the line follows that part. The
 * cell is returned as written when nothing is added.
 */
function completed(
  cell: string,
  number: string | undefined,
  street2: string | undefined,
  country: string | null,
): string {
  const street = cellParts(cell).find((p) => !UNIT_WORDS.test(p.text) && !(street2 && hasLine(p.text, street2)))
  if (street === undefined) return cell
  const addNumber = number !== undefined && !/\d/.test(street.text)
  const addLine = street2 !== undefined && !hasLine(cell, street2)
  if (!addNumber && !addLine) return cell
  const text = (addNumber ? numbered(street.text, number, country) : street.text) + (addLine ? `, ${street2}` : '')
  return cell.slice(0, street.from) + text + cell.slice(street.to)
}

/**
 * The row's address (undefined when it has none). An address cell that names the row's town, or a
 * row without a city and postcode, is kept as written, with what it plainly lacks added
 * (completed). Any other address cell is the street line. A street line is joined with the parts
 * in the order the row's country writes them: "street number, street2, postcode city, region,
 * country", or "…, city, region postcode, country" (US, CA, AU), or "…, city postcode, …" (GB).
 */
export function joinAddress(parts: Map<string, string>, cell: string | undefined): string | undefined {
  const part = (name: string) => parts.get(name) || undefined
  const [city, postcode, region, country] = [part('city'), part('postcode'), part('region'), part('country')]
  const number = part('house_number')
  const street2 = part('street2')
  const code = rowCountry(parts)
  if (cell !== undefined && ((city === undefined && postcode === undefined) || namesTown(cell, city, postcode)))
    return completed(cell, number, street2, code)
  const street = numbered(cell ?? part('street'), number, code)
  const town = REGION_POSTCODE.has(code ?? '')
    ? [city, [region, postcode].filter(Boolean).join(' ')]
    : TOWN_POSTCODE.has(code ?? '')
      ? [[city, postcode].filter(Boolean).join(' '), region]
      : [[postcode, city].filter(Boolean).join(' '), region]
  const joined = [street, street2, ...town, country].filter(Boolean).join(', ')
  return joined === '' ? undefined : joined
}
