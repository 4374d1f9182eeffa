// The links a visitor follows from a store: the way there in a maps service, and a website as
// its link reads. The widget (in the browser) and the store pages both use these: no Node, no DOM.
import { LANGS } from './languages'
import { holdsTown, namesBeside, onlyTown, writesRegion } from './region-spellings'
import { nameKey } from './text'

export type DirectionsService = 'google' | 'apple' | 'osm'

/** Each maps service, with the name a link gives it. */
export const DIRECTIONS_SERVICES: readonly [DirectionsService, string][] = [
  ['google', 'Google Maps'],
  ['apple', 'Apple Maps'],
  ['osm', 'OpenStreetMap'],
]

/** Where a directions link leads: a location as the Query API shows it (its address parts where known). */
export type DirectionsPlace = {
  coordinates: { lat: number; lng: number; approximate?: boolean }
  address: { formatted: string; postcode?: string; city?: string; region?: string; country?: string }
}

/** The zoom of the map OpenStreetMap opens on: a town and its surroundings, the view its search prefers. */
const TOWN_ZOOM = 12

/**
 * A link that plans the way to `place` in `service`: to its point, or, where the point is
 * approximate (a town's centre), to its address text, so the service finds the street itself.
 * That text is made whole (addressText) and the point goes along as a hint where the service
 * takes one: Apple Maps' search location (sll), OpenStreetMap's map view (its search prefers
 * what is in view); Google Maps' api=1 takes none. A hint only ranks: the address still decides.
 */
export function directionsUrl(service: DirectionsService, place: DirectionsPlace): string {
  const { lat, lng, approximate } = place.coordinates
  const point = `${lat}%2C${lng}`
  const text = approximate ? addressText(place.address) : ''
  const to = text === '' ? point : encodeURIComponent(text)
  if (service === 'apple') return `https://maps.apple.com/?daddr=${to}${text === '' ? '' : `&sll=${point}`}`
  if (service === 'osm')
    return `https://www.openstreetmap.org/directions?to=${to}${text === '' ? '' : `#map=${TOWN_ZOOM}/${lat}/${lng}`}`
  return `https://www.google.com/maps/dir/?api=1&destination=${to}`
}

/**
 * The address as a maps service is to find it: the text as written, with the parts the geocoder
 * read (town, region, postcode, country name in English) that it does not already say put after
 * it, so "12 Main Street, Springfield" is not found in another Springfield. A region or country
 * counts as said from the town on (townOn): "12 Illinois Street, Springfield" names no state.
 * A region given as the country's code is the country. '' for no text.
 */
export function addressText(address: DirectionsPlace['address']): string {
  const text = address.formatted.trim()
  if (text === '') return ''
  const country = address.country && /^[A-Z]{2}$/.test(address.country) ? address.country : undefined
  const postcode = address.postcode?.trim() ?? ''
  const digits = nameKey(postcode).replace(/ /g, '')
  const city = address.city?.trim() ?? ''
  const tail = townOn(text, city)
  const added: string[] = []
  // A part given as a code ("IN", "ME": a region from a spreadsheet) is said only as codes are.
  if (city !== '' && !(CODE.test(city) ? holdsCode(text, city, digits) : holdsTown(text, city))) added.push(city)
  const region = address.region?.trim() ?? ''
  // A region that is the country's own code (a city-state's region column: "SG" in Singapore)
  // names the country, which is said, or added, by its name.
  const ownCountry = country !== undefined && region.toUpperCase() === country
  if (region !== '' && !ownCountry && !writesRegion(tail, region, country, city)) added.push(region)
  if (postcode !== '' && !holdsPostcode(text, postcode)) added.push(postcode)
  const name = country && countryName(country)
  // A city-state's town added is its country's name too: said once ("1 Raffles Place, Singapore").
  const said = (part: string) => added.some((a) => nameKey(a) === nameKey(part))
  if (name && !namesCountry(text, tail, country!, digits, city) && !said(name)) added.push(name)
  return [text, ...added].join(', ')
}

/**
 * The text from the last of its pieces (between commas) that names the town: where an address
 * says its region and country ("Springfield, IL", "Sydney NSW 2000, Australia"), after its street.
 * From the piece before that when it is the town alone: then the last is a region named as its
 * town is ("New York, New York"). Without the town in it, the pieces after the first; a text of
 * one piece, all of it.
 */
function townOn(text: string, city: string): string {
  const pieces = text.split(',')
  for (let at = pieces.length - 1; city !== '' && at >= 0; at--)
    if (holdsTown(pieces[at]!, city))
      return pieces.slice(at > 0 && onlyTown(pieces[at - 1]!, city) ? at - 1 : at).join(',')
  return pieces.length > 1 ? pieces.slice(1).join(',') : text
}

/**
 * Whether the text holds the postcode, case aside and with or without a space where it has one
 * or where letters meet digits ("SW1A2AA" is "SW1A 2AA", "1012lg" is "1012 LG"), as whole words:
 * "10 12" is not "1012", nor is "104350" "10435".
 */
function holdsPostcode(text: string, postcode: string): boolean {
  const key = nameKey(postcode)
  if (key === '') return false
  let pattern = ''
  for (let i = 0; i < key.length; i++) {
    const [c, next] = [key[i]!, key[i + 1]]
    if (c === ' ') continue
    pattern += c
    if (next === undefined) break
    if (next === ' ' || /\d/.test(c) !== /\d/.test(next)) pattern += ' ?'
  }
  return new RegExp(`(?:^| )${pattern}(?: |$)`, 'u').test(nameKey(text))
}

/**
 * A country's English name as people write it ("DE" -> "Germany"): CLDR's, but its short form
 * where that is the everyday one ("Hong Kong", not "Hong Kong SAR China") and without a
 * parenthesis ("Myanmar"); null where the runtime names none.
 */
function countryName(code: string): string | null {
  let name = ENGLISH.get(code)
  if (name === undefined) {
    const named = regionName('en', code, SHORT_NAMED.has(code) ? 'short' : 'long')?.replace(/\s*\(.*\)$/, '')
    name = named && named !== code ? named : null
    ENGLISH.set(code, name)
  }
  return name
}

const ENGLISH = new Map<string, string | null>()

/**
 * Whether a region as written is its country's own code or English name, as a city-state's
 * region column holds ("MC", "Monaco" in Monaco): the country, no region of it. Not in a country
 * with a region of its own name (REGION_OF_COUNTRY_NAME), where the name is that region's.
 */
export function regionIsCountry(region: string, country: string): boolean {
  const key = nameKey(region)
  const code = country.toUpperCase()
  if (key === '' || REGION_OF_COUNTRY_NAME.has(code)) return false
  return key === nameKey(code) || key === nameKey(countryName(code) ?? '')
}

/**
 * Countries with a first-level region named as the country (ISO 3166-2): the State of Mexico
 * ("México"), Panamá province, Guatemala department, Luxembourg canton, Djibouti region, Belize
 * District, the City of San Marino.
 */
const REGION_OF_COUNTRY_NAME = new Set(['MX', 'PA', 'GT', 'LU', 'DJ', 'BZ', 'SM'])

/** Countries whose everyday name is CLDR's short one (as src/geocode/countries.ts names them). */
const SHORT_NAMED = new Set(['HK', 'MO', 'PS'])

/** A region's name in `lang` by Intl.DisplayNames; null where the runtime has none. */
function regionName(lang: string, code: string, style: 'long' | 'short'): string | null {
  try {
    return new Intl.DisplayNames([lang], { type: 'region', style, fallback: 'none' }).of(code) ?? null
  } catch {
    return null
  }
}

/** A code as people write one: two or three capitals. */
const CODE = /^[A-Z]{2,3}$/

/**
 * Whether the text holds `code` (two or three capitals, CODE) as codes are written: a word in
 * capitals, not joined by "&" ("AT&T"), nor to a road's number ("BR-116", "US-101"): joined to a
 * number it is a postcode's ("CH-8001", "SE-111 51") only with four digits or more, or the address's
 * own postcode (`postcode`, its digits: "IS-101"). In a piece all in capitals, where "IN" and "AT"
 * are words, a code alone counts only in the last piece, where a country stands, or with no other
 * word ("CH 8001").
 */
function holdsCode(text: string, code: string, postcode: string): boolean {
  const pattern = new RegExp(`(?:^|[^\\p{L}\\p{N}&])${code}(?![\\p{L}\\p{N}&])(?:-(\\d+)(?: (\\d\\d)(?!\\d))?)?`, 'gu')
  const pieces = text.split(',')
  return pieces.some((piece, at) => {
    const alone = at === pieces.length - 1 || /\p{Ll}/u.test(piece) || !/\p{L}/u.test(piece.replace(code, ''))
    for (const found of piece.matchAll(pattern)) {
      const number = found[1] === undefined ? undefined : found[1] + (found[2] ?? '')
      if (number === undefined ? alone : number.length >= 4 || number === postcode) return true
    }
    return false
  })
}

/**
 * Whether the text names the country: by its code as codes are written (holdsCode: "CH-8001",
 * not the "Ch." of a chemin, nor the words "in" and "at"), or, from its town on (`tail`), by a
 * name of it in the languages shipped (long or short, either side of a parenthesis, "&" as
 * "and"), or a common short form, not in the town's name (namesBeside: "Panama City").
 */
function namesCountry(text: string, tail: string, code: string, postcode: string, town: string): boolean {
  return holdsCode(text, code, postcode) || namesBeside(tail, countryNames(code), town)
}

/**
 * The keys (nameKey) of the names namesCountry reads of a country, made once per code: making an
 * Intl.DisplayNames takes far longer than reading the text.
 */
function countryNames(code: string): string[] {
  const known = NAMES.get(code)
  if (known !== undefined) return known
  const names = [...(COUNTRY_ALIASES[code] ?? [])]
  for (const lang of LANGS) {
    for (const style of ['long', 'short'] as const) {
      const name = regionName(lang, code, style)
      // A short form that is a code ("US", "UK") counts only as codes do, in namesCountry.
      if (name && !CODE.test(name)) names.push(name, ...name.split(/\s*[()]\s*/), name.replace(/&/g, ' and '))
    }
  }
  const keys = [...new Set(names.map(nameKey))].filter((key) => key !== '')
  NAMES.set(code, keys)
  return keys
}

const NAMES = new Map<string, string[]>()

/** Names CLDR does not give in the languages shipped. */
const COUNTRY_ALIASES: Record<string, string[]> = {
  US: ['USA', 'U.S.A.', 'United States of America'],
  GB: ['UK', 'U.K.', 'Great Britain', 'England', 'Scotland', 'Wales', 'Northern Ireland'],
}

/** A website written without its scheme, "www." or a trailing slash, as a link's text ("example.com/stores/x"). */
export const shortUrl = (url: string) => url.replace(/^https?:\/\/(www\.)?/i, '').replace(/\/$/, '')

/**
 * The mailto: link of an address. The characters a mailto: URL reads as its own (RFC 6068: "?"
 * starts headers such as cc=, "#", "%", "/", "[" and "]") are escaped: they stay the address's.
 */
export const mailtoUrl = (address: string) => `mailto:${address.replace(/[%?#/[\]]/g, encodeURIComponent)}`

/**
 * A phone number as a tel: link ("+", digits and the pause characters; "#" escaped, as it would
 * start a URL fragment), or null when it holds no digit. The "(0)" of "+43 (0)1 123450" is dialled
 * only from inside the country: a link drops it.
 */
export function telUrl(phone: string): string | null {
  // Italy's (+39), San Marino's (+378) and the Vatican's (+379) 0 is dialled from abroad too.
  const dropsZero = /^\s*\+(?!\s*3(9|7[89]))/.test(phone)
  const dial = (dropsZero ? phone.replace(/\(\s*0\s*\)/g, '') : phone).replace(/[^+\d,;#*]/g, '')
  return /\d/.test(dial) ? `tel:${dial.replace(/#/g, encodeURIComponent)}` : null
}
