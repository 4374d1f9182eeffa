// A CSV row's address, from its address cell and its parts: street, house number, second line,
// postcode, city, region and country. A spreadsheet writes an address either way, or both. When
// in doubt an address cell is kept as written: a part is added to it only where it plainly lacks it.
import { LANGS } from '../core/languages'
import { holdsWords, nameKey } from '../core/text'
import type { AddressParts } from '../store/locations'
import {
  countryCode,
  countryLabel,
  countryOfPostcode,
  postcodeForm,
  postcodePattern,
  regionCode,
  regionSpellings,
  zipWithZeros,
} from '../geocode/countries'

/** The fields of a row's address other than its address cell: the parts joined into an address. */
export const ADDRESS_PARTS: ReadonlySet<string> = new Set([
  'street',
  'house_number',
  'street2',
  'sublocality',
  'city',
  'postcode',
  'region',
  'country',
])

/** Countries that write the house number before the street ("200 Main Street", "12 rue de Rivoli"). */
const NUMBER_FIRST = new Set([
  'US',
  'CA',
  'GB',
  'JE',
  'GG',
  'IM',
  'IE',
  'AU',
  'NZ',
  'FR',
  'LU',
  'MC',
  'ZA',
  'IN',
  'SG',
  'MY',
  'PH',
  'HK',
])
/** Countries that write the town, then the region and postcode ("Springfield, IL 62701"). */
const REGION_POSTCODE = new Set(['US', 'CA', 'AU'])
/** Countries that write the postcode after the town ("London SW1A 2AA", "St Helier JE2 3AB"). */
const TOWN_POSTCODE = new Set(['GB', 'JE', 'GG', 'IM', 'IE', 'NZ', 'ZA', 'IN', 'SG', 'MY', 'PH'])
/**
 * Jersey, Guernsey and the Isle of Man: addresses were joined before with their postcodes before
 * the town, their house numbers after the street.
 */
const CROWN_DEPENDENCIES = new Set(['JE', 'GG', 'IM'])

/**
 * How joinAddress orders a row's parts: the country whose order the house number takes
 * (NUMBER_FIRST; none: after the street), whether the postcode follows the town, and whether a
 * region of the town's own name is written once.
 */
type Order = { numbering: string | null; postcodeAfterTown: boolean; regionOfTownOnce: boolean }

/**
 * The order of `code`'s addresses as joined now or, `before`, as joined before
 * (BulkItem.formerAddress): a Crown Dependency's postcode before its town and house number after
 * its street, and a region of its town's name after the town too.
 */
function orderOf(code: string | null, before: boolean): Order {
  const former = before && CROWN_DEPENDENCIES.has(code ?? '')
  return {
    numbering: former ? null : code,
    postcodeAfterTown: TOWN_POSTCODE.has(code ?? '') && !former,
    regionOfTownOnce: !before,
  }
}

/** Words a second line begins with; the part of a cell that does is not its street. */
const UNIT_WORDS =
  /^(?:(?:unit|shop|flat|suite|ste|apt|apartment|floor|level|lot|building|bldg|room|shopping cent(?:re|er))\b|c\/o\b|#)/i

/** Whether `text` ends with `words` as whole words, case and accents aside. */
function endsWithWords(text: string, words: string): boolean {
  const key = nameKey(words)
  return key !== '' && ` ${nameKey(text)}`.endsWith(` ${key}`)
}

/** Whether `text` holds `postcode` ("10115" is in "Hauptstraße 12\n10115 Berlin"). */
const hasPostcode = (text: string, postcode: string): boolean => postcodePattern(postcode)?.test(text) ?? false

/**
 * Whether `text` holds `part`: its numbers ("Suite 200" in "Ste. 200", "10a" in "10 a" or "10-A"),
 * or its words when it has none ("Rear").
 */
function holds(text: string, part: string): boolean {
  const numbers = part.match(/\d+/g)
  if (numbers === null) return holdsWords(text, part)
  const held = new Set(text.match(/\d+/g) ?? [])
  return numbers.every((n) => held.has(n))
}

/**
 * The field of a column of country codes beside the country column (country_iso, Country Code):
 * the row's country where its country cell is empty.
 */
export const COUNTRY_CODE = 'country_code'

/** Two letters in any case ("us", "De"): what a column of country codes holds for a code. */
const TWO_LETTERS = /^[a-z]{2}$/i

/** A country code column's cell as the code it is: "us" is US. */
export const asCode = (cell: string): string => (TWO_LETTERS.test(cell) ? cell.toUpperCase() : cell)

/**
 * The country cells of a file written as codes not in capitals ("us", "de"), each with its code:
 * in a column of codes (Country Code, country_iso) any two letters; in a column of countries a
 * known code when the file's other filled cells are known codes too ("de" beside "FR"), as two
 * letters alone or beside names may be a word.
 */
export function lowerCodes(cells: readonly string[], codeColumn: boolean): Map<string, string> {
  const filled = cells.filter((cell) => cell !== '')
  const codes = filled.filter((cell) => TWO_LETTERS.test(cell) && (codeColumn || countryCode(cell) !== null))
  if (!codeColumn && (codes.length < 2 || codes.length < filled.length)) return new Map()
  return new Map(codes.filter((cell) => cell !== cell.toUpperCase()).map((cell) => [cell, cell.toUpperCase()]))
}

/** The country a cell written as a code names ("DE", "UK": two capitals), or null. */
const codeOf = (cell: string): string | null => (/^[A-Z]{2}$/.test(cell) ? countryCode(cell) : null)

/**
 * The names a file's country cells written as codes ("DE", "UK") take, by cell, so its rows write
 * each country alike: the spelling another row gives the country ("Deutschland"), else its name in
 * the language of the file's names. None when no row names a country: a file of codes is
 * consistent as written, and its stores' addresses stay as they were imported.
 */
export function countryNames(cells: readonly string[]): { names: Map<string, string>; lang: string } {
  const spelt = new Map<string, string>()
  const votes = new Map<string, number>()
  for (const cell of cells) {
    // Two letters in any case ("de") are a code, no name's spelling.
    const code = /^\p{L}{2}$/u.test(cell) ? null : countryCode(cell)
    if (code === null) continue
    if (!spelt.has(code)) spelt.set(code, cell)
    const lang = LANGS.find((l) => nameKey(countryLabel(code, l)) === nameKey(cell))
    if (lang !== undefined) votes.set(lang, (votes.get(lang) ?? 0) + 1)
  }
  const names = new Map<string, string>()
  const lang = [...votes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'en'
  if (spelt.size === 0) return { names, lang }
  for (const cell of cells) {
    const code = codeOf(cell)
    if (code !== null) names.set(cell, spelt.get(code) ?? countryLabel(code, lang))
  }
  return { names, lang }
}

/**
 * The file's note when its country codes outnumber its names yet are written as names: a few
 * rows' names then set the language of every address, which the person should see and can undo.
 */
export function countryNamesNote(
  cells: readonly string[],
  lines: readonly number[],
  names: ReadonlyMap<string, string>,
  lang: string,
): string | null {
  const coded = cells.flatMap((cell) => (names.has(cell) ? [cell] : []))
  const named = cells.flatMap((cell, i) =>
    cell !== '' && !names.has(cell) && !/^\p{L}{2}$/u.test(cell) && countryCode(cell) !== null ? [i] : [],
  )
  if (named.length === 0 || coded.length <= named.length) return null
  const first = named[0]!
  const more = named.length === 1 ? '' : `, and ${named.length - 1} more`
  const language = new Intl.DisplayNames(['en'], { type: 'language' }).of(lang) ?? lang
  const which = named.length === 1 ? "that row's country as a code" : "those rows' countries as codes"
  return (
    `The file gives ${coded.length} rows a country code and ${named.length} a country name ` +
    `(line ${lines[first]}: "${cells[first]}"${more}), so the addresses write the codes as names in ${language} ` +
    `("${coded[0]}" as "${names.get(coded[0]!)}"). To keep the codes, write ${which} ("${countryCode(cells[first]!)}").`
  )
}

/** The row's country: its country cell's, else what its postcode tells with its region and city. */
export function rowCountry(parts: Map<string, string>): string | null {
  const country = parts.get('country')
  if (country) return countryCode(country)
  const postcode = parts.get('postcode')
  return postcode ? countryOfPostcode(postcode, parts.get('region') ?? '', parts.get('city') ?? '') : null
}

/**
 * The street with its house number, before or after it as the country writes it (after when not
 * known); as it is when it holds the number already ("Hauptstraße 5").
 */
function numbered(street: string | undefined, number: string | undefined, country: string | null): string {
  if (number === undefined) return street ?? ''
  if (street === undefined) return number
  if (holds(street, number)) return street
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
  return parts.length === 1 ? endsWithWords(cell, city) : parts.slice(1).some((p) => holdsWords(p.text, city))
}

/**
 * A kept address cell with the house number and lines (second line, district) it plainly lacks:
 * the number joins its street part (its first part that is not a unit's, such as "Flat 2") unless
 * that part holds it; each line follows that part unless another part holds it. The cell is
 * returned as written when nothing is added.
 */
function completed(
  cell: string,
  number: string | undefined,
  lines: readonly (string | undefined)[],
  country: string | null,
): string {
  const parts = cellParts(cell)
  const street = parts.find((p) => !UNIT_WORDS.test(p.text))
  if (street === undefined) return cell
  const withNumber = numbered(street.text, number, country)
  const added = lines.filter(
    (line): line is string => line !== undefined && !parts.some((p) => p !== street && holds(p.text, line)),
  )
  if (withNumber === street.text && added.length === 0) return cell
  return cell.slice(0, street.from) + [withNumber, ...added].join(', ') + cell.slice(street.to)
}

/**
 * Whether `text` names `region` in whole words, as written or by another spelling of a US, CA or
 * AU state ("Portland OR 97201" names Oregon; "Illinois" is IL).
 */
function namesRegion(text: string, region: string, country: string | null): boolean {
  if (holdsWords(text, region)) return true
  return country !== null && regionSpellings(country, region).some((s) => holdsWords(text, s))
}

/** The row's city, postcode and region, for a kept cell to be completed with. */
type Place = { city?: string; postcode?: string; region?: string }

/**
 * A kept cell with the row's postcode and region it plainly lacks, after its town in the order its
 * country writes them ("1 Main St, Springfield" with IL 62701: "…, Springfield, IL 62701";
 * "Hauptstraße 5, Berlin" with 10117: "…, 10117 Berlin"), before a country it ends with. A town's
 * namesakes make the difference: Springfield alone is in Missouri. The row's country is not added:
 * beside an address cell it is a check on where the address was placed. `afterTown`: the
 * postcode follows the town (Order).
 */
function withPlace(cell: string, place: Place, code: string | null, afterTown: boolean): string {
  const parts = cellParts(cell)
  const last = parts.at(-1)
  if (last === undefined) return cell
  const isRegion = (text: string) => place.region !== undefined && namesRegion(text, place.region, code)
  const after = parts.length > 1 && !isRegion(last.text) && countryCode(last.text) !== null ? parts.at(-2)! : last
  const postcode = place.postcode !== undefined && !hasPostcode(cell, place.postcode) ? place.postcode : undefined
  // The street part does not name it: "10 Illinois St, Springfield" lacks IL.
  const named = parts.length > 1 ? parts.slice(1) : parts
  const region = place.region !== undefined && !named.some((p) => isRegion(p.text)) ? place.region : undefined
  if (postcode === undefined && region === undefined) return cell
  let town = after.text
  const added: string[] = []
  if (REGION_POSTCODE.has(code ?? '')) {
    if (region !== undefined) added.push([region, postcode].filter(Boolean).join(' '))
    else if (isRegion(town)) town = `${town} ${postcode}`
    else added.push(postcode!)
  } else if (postcode !== undefined) {
    const city = place.city ?? ''
    if (afterTown && endsWithWords(town, city)) town = `${town} ${postcode}`
    else if (!afterTown && nameKey(town) === nameKey(city)) town = `${postcode} ${town}`
    else added.push(postcode)
  }
  if (!REGION_POSTCODE.has(code ?? '') && region !== undefined) added.push(region)
  return cell.slice(0, after.from) + [town, ...added].join(', ') + cell.slice(after.to)
}

/**
 * The row's address (undefined when it has none). An address cell that names the row's town, or a
 * row without a city and postcode, is kept as written, with what it plainly lacks added
 * (completed, withPlace). Any other address cell is the street line. A street line is joined
 * with the parts in the order the row's country writes them: "street number, street2, district,
 * postcode city, region, country", or "…, city, region postcode, country" (US, CA, AU), or "…, city
 * postcode, …" (GB, JE, GG, IM). A region of the town's own name is written once. `before` joins
 * it as addresses were joined before (BulkItem.formerAddress): such a region after its town too,
 * a Jersey, Guernsey or Isle of Man postcode before its town.
 */
export function joinAddress(parts: Map<string, string>, cell: string | undefined, before = false): string | undefined {
  const part = (name: string) => parts.get(name) || undefined
  const [city, postcode, region, country] = [part('city'), part('postcode'), part('region'), part('country')]
  const number = part('house_number')
  const street2 = part('street2')
  const code = rowCountry(parts)
  const { numbering, postcodeAfterTown, regionOfTownOnce } = orderOf(code, before)
  const sublocality = part('sublocality')
  // A cell naming its town is a whole address, kept without the district; one without a town
  // beside it gets the district as its second line, else the column's text would be lost.
  if (cell !== undefined && city === undefined && postcode === undefined) {
    const district = sublocality !== undefined && holdsWords(cell, sublocality) ? undefined : sublocality
    return withPlace(
      completed(cell, number, [street2, district], numbering),
      { city, postcode, region },
      code,
      postcodeAfterTown,
    )
  }
  if (cell !== undefined && namesTown(cell, city, postcode))
    return withPlace(completed(cell, number, [street2], numbering), { city, postcode, region }, code, postcodeAfterTown)
  const street = numbered(cell ?? part('street'), number, numbering)
  // A district the street line or the town names already ("…, Partick"; Glasgow as its own) is not written twice.
  const district = [street, street2, city].some(
    (p) => p !== undefined && sublocality !== undefined && holdsWords(p, sublocality),
  )
    ? undefined
    : sublocality
  // A region named as its town is not written again, a city-state's ("10117 Berlin", not "10117
  // Berlin, Berlin") or not (Salzburg, Valencia, Durango).
  const state =
    regionOfTownOnce && city !== undefined && region !== undefined && nameKey(city) === nameKey(region)
      ? undefined
      : region
  const town = REGION_POSTCODE.has(code ?? '')
    ? [city, [region, postcode].filter(Boolean).join(' ')]
    : postcodeAfterTown
      ? [[city, postcode].filter(Boolean).join(' '), state]
      : [[postcode, city].filter(Boolean).join(' '), state]
  const joined = [street, street2, district, ...town, country].filter(Boolean).join(', ')
  return joined === '' ? undefined : joined
}

/**
 * Whether joinAddress may join the row otherwise `before`: its region is its town's name, or its
 * country is a Crown Dependency and it has a postcode or a house number.
 */
export function joinedOtherwiseBefore(parts: Map<string, string>): boolean {
  const [city, region, postcode] = [parts.get('city'), parts.get('region'), parts.get('postcode')]
  if (city && region && nameKey(city) === nameKey(region)) return true
  return Boolean(postcode || parts.get('house_number')) && CROWN_DEPENDENCIES.has(rowCountry(parts) ?? '')
}

/**
 * Whether `stored` is a row's address as joined before (`former`, BulkItem.formerAddress), the
 * spelling of its `postcode` aside ("London sw1a2aa" is "London SW1A 2AA"): a postcode was
 * joined as its cell wrote it before it was joined in its country's form.
 */
export function joinedAsBefore(
  stored: string,
  former: string | undefined,
  postcode: string | null | undefined,
): boolean {
  if (former === undefined || stored === former) return stored === former
  const pattern = postcode ? spellingsOf(postcode) : null
  return pattern !== null && stored.replace(pattern, () => postcode!) === former.replace(pattern, () => postcode!)
}

/**
 * `postcode` as a cell may have written it before postcodeForm: case and spaces aside, and a
 * hyphen between its halves ("k1a-0a2" is "K1A 0A2").
 */
function spellingsOf(postcode: string): RegExp | null {
  const halves = postcode.trim().split(/\s+/).filter(Boolean)
  const half = (h: string) => [...h].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[ \\t]*')
  return halves.length === 0 ? null : new RegExp(`(?<!\\d)${halves.map(half).join('[ \\t]*-?[ \\t]*')}(?!\\d)`, 'iu')
}

/** Countries whose postcodes are five digits, some with a leading zero (Dresden 01099, Barcelona 08012). */
const FIVE_DIGITS = new Set(['DE', 'ES', 'FR', 'IT'])

/**
 * The row's parts with a postcode's dropped leading zero put back (Excel reads "02134" as a
 * number): a US ZIP code's when its region is the state of the padded code, or with no region in
 * the US its town is the code's, and it names no other country; a four-digit one's in a country of
 * five-digit codes.
 */
export function mendParts(parts: Map<string, string>): void {
  const [postcode, region, country] = [parts.get('postcode'), parts.get('region'), parts.get('country')]
  const city = parts.get('city')
  const code = country ? countryCode(country) : null
  if (postcode && FIVE_DIGITS.has(code ?? '') && /^\d{4}$/.test(postcode.trim()))
    parts.set('postcode', `0${postcode.trim()}`)
  else if (postcode && (region || (city && code === 'US')) && (!country || code === 'US'))
    parts.set('postcode', zipWithZeros(postcode, region, city))
}

/** The row's postcode in its country's usual form ("sw1a 2aa": "SW1A 2AA"), when its country is known. */
export function postcodeInForm(parts: Map<string, string>): void {
  const postcode = parts.get('postcode')
  if (postcode) parts.set('postcode', postcodeForm(rowCountry(parts), postcode))
}

/**
 * A row's address parts as its columns give them, as the service stores parts: its street line
 * (with its house number; an address `cell` beside a town or postcode that names neither is that
 * line, as joinAddress reads it), town and postcode as written, its country's code, and its region
 * where the service stores one (a US state's, Canadian province's or Australian state's code).
 */
export function rowParts(parts: Map<string, string>, cell?: string): AddressParts {
  const part = (name: string) => parts.get(name)?.trim() || undefined
  const country = rowCountry(parts) ?? undefined
  const region = country && part('region') ? (regionCode(country, part('region')!) ?? undefined) : undefined
  const [city, postcode] = [part('city'), part('postcode')]
  const line = cell?.trim() && (city || postcode) && !namesTown(cell, city, postcode) ? cell.trim() : part('street')
  const street = line && numbered(line, part('house_number'), country ?? null)
  const found: AddressParts = { street, city, region, postcode, country }
  return Object.fromEntries(Object.entries(found).filter(([, v]) => v !== undefined))
}
