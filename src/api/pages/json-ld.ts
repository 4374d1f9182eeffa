// A published location as schema.org LocalBusiness JSON-LD, for its store page: made from the
// Query API's view of it (publicLocation), so the page says nothing the API would not.
import { type DayHours, parseDayHours } from '../../core/hours'
import { socialUrl } from '../../core/social'
import { nameKey } from '../../core/text'
import { countryCode, regionSpellings } from '../../geocode/countries'
import { streetMask } from '../../geocode/embedded/address-read'
import { parsePhoneNumberFromString } from 'libphonenumber-js'
import type { publicLocation } from '../../indexes/present'
// schema.org's vocabulary as types (schema-dts): tsc checks every property and value written here.
import type { DayOfWeek, LocalBusiness, OpeningHoursSpecification, PostalAddress, WithContext } from 'schema-dts'
import { DAYS } from '../../store/locations'

/**
 * A phone number with its country's calling code, as search engines ask ("020 7946 0342" of a
 * store in GB: "+44 20 7946 0342"), read by libphonenumber's rules of the store's country; as
 * written when it reads as no valid number there.
 */
export function internationalPhone(phone: string, country: string | undefined): string {
  const code =
    country && /^[A-Z]{2}$/.test(country) ? (country as Parameters<typeof parsePhoneNumberFromString>[1]) : undefined
  const number = parsePhoneNumberFromString(phone, code)
  return number?.isValid() ? number.formatInternational() : phone
}

/** A location as GET /public/v1/{token}/locations/{id} shows it. */
export type PublicLocation = ReturnType<typeof publicLocation>

export type OpeningHoursSpec = Exclude<OpeningHoursSpecification, string> & {
  '@type': 'OpeningHoursSpecification'
  dayOfWeek: DayOfWeek
  opens: string
  closes: string
}

const DAY_URLS = DAYS.map((d) => `https://schema.org/${d[0]!.toUpperCase()}${d.slice(1)}` as DayOfWeek)
const DAY = 1440

/** Minutes from midnight (0 to 1439) as "HH:MM". */
const hhmm = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`

/**
 * One specification per interval of each day's hours; a day closed, or whose text cannot be read,
 * has none. An interval past midnight (18:00-02:00) stays on its first day with `closes` before
 * `opens`, which schema.org reads as running into the next day; one that ends at midnight closes
 * at "23:59" (schema.org times have no 24:00), so "24 hours" is 00:00-23:59.
 */
export function openingHoursSpecification(hours: Partial<Record<(typeof DAYS)[number], string>>): OpeningHoursSpec[] {
  const out: OpeningHoursSpec[] = []
  for (let d = 0; d < DAYS.length; d++) {
    for (const { next, opens, closes } of intervalTimes(parseDayHours(hours[DAYS[d]!]))) {
      out.push({ '@type': 'OpeningHoursSpecification', dayOfWeek: DAY_URLS[(d + next) % 7]!, opens, closes })
    }
  }
  return out
}

/**
 * A day's intervals as schema.org times, each with the days after it that it starts on (0, or 1
 * for one that starts at 24:00, "24:00-02:00"). None for a day closed or not read.
 */
function intervalTimes(day: DayHours): { next: 0 | 1; opens: string; closes: string }[] {
  if (day.kind !== 'open') return []
  return day.intervals.map(([start, end]) => {
    const next = start >= DAY ? 1 : 0
    const closes = end - next * DAY
    return { next, opens: hhmm(start - next * DAY), closes: closes === DAY ? '23:59' : hhmm(closes % DAY) }
  })
}

export type SpecialHoursSpec = Exclude<OpeningHoursSpecification, string> & {
  '@type': 'OpeningHoursSpecification'
  validFrom: string
  validThrough: string
  opens: string
  closes: string
}

/**
 * Dated hours (YYYY-MM-DD to hours text) as specifications valid on their date: one per interval,
 * and a day closed as opening and closing at 00:00, as search engines read it. A text not read
 * has none.
 */
export function specialHoursSpecification(dates: [string, string][]): SpecialHoursSpec[] {
  const out: SpecialHoursSpec[] = []
  for (const [date, text] of dates) {
    const day = parseDayHours(text)
    const on = (validFrom: string, opens: string, closes: string) =>
      out.push({ '@type': 'OpeningHoursSpecification', validFrom, validThrough: validFrom, opens, closes })
    if (day.kind === 'closed') on(date, '00:00', '00:00')
    for (const { next, opens, closes } of intervalTimes(day)) on(next === 0 ? date : dayAfter(date), opens, closes)
  }
  return out
}

const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY * 60_000).toISOString().slice(0, 10)

/**
 * The street of an address: its own part, else the pieces of the formatted address (between
 * commas) before the first that is its town or holds its postcode. A piece is the town when it is
 * the town's name but for numbers and a code of up to three letters ("London SE1 7PB", "L-1728
 * Luxembourg", "São Paulo - SP"), not a street named after it ("London Road"). Else the whole.
 * An address that starts with its town or postcode ("10435 Berlin", "1052 Budapest, Váci utca 1.")
 * has the pieces after them that are not its town, postcode, region or country and read as a
 * street, with a number or a street's word (streetMask): not a district ("Berlin, Mitte"). '' for none.
 */
export function streetOf(a: PublicLocation['address']): string {
  if (a.street) return a.street
  const town = a.city ? nameKey(a.city) : null
  // The postcode's words, and those written as one ("SW1A2AA"), each between spaces.
  const code = a.postcode ? nameKey(a.postcode) : ''
  const postcodes = code === '' ? [] : [...new Set([` ${code} `, ` ${code.replace(/ /g, '')} `])]
  /** The piece's town and the code with it ('' for none); null when it is not the town. */
  const townIn = (piece: string): { code: string } | null => {
    if (town === null) return null
    const words = nameKey(piece)
      .split(' ')
      .filter((w) => w !== '' && !/\d/.test(w))
    if (words.join(' ') === town) return { code: '' }
    // A code of up to three letters before or after it: a region's ("SP"), a postcode's ("L-").
    if (words.length < 2) return null
    const [first, last] = [words[0]!, words.at(-1)!]
    if (last.length <= 3 && words.slice(0, -1).join(' ') === town) return { code: last }
    if (first.length <= 3 && words.slice(1).join(' ') === town) return { code: first }
    return null
  }
  const holdsPostcode = (piece: string) => postcodes.some((p) => ` ${nameKey(piece)} `.includes(p))
  const pieces = a.formatted.split(',')
  const at = pieces.findIndex((p, i) => i > 0 && (townIn(p) !== null || holdsPostcode(p)))
  if (!isTownPiece(pieces[0]!, townIn(pieces[0]!), postcodes))
    return at > 0 ? pieces.slice(0, at).join(',').trim() : a.formatted
  const spellings = a.region ? [nameKey(a.region), ...(a.country ? regionSpellings(a.country, a.region) : [])] : []
  const isPlace = (piece: string) =>
    nameKey(piece) === '' ||
    isTownPiece(piece, townIn(piece), postcodes) ||
    holdsPostcode(piece) ||
    spellings.includes(nameKey(piece)) ||
    (a.country !== undefined && countryCode(piece) === a.country)
  const isStreet = (piece: string) =>
    /\d/.test(piece) || streetMask(piece.trim().split(/\s+/), { country: a.country }).includes(true)
  return pieces
    .slice(1)
    .filter((p) => !isPlace(p) && isStreet(p))
    .join(',')
    .trim()
}

/**
 * Whether a piece (the first, or one after a first that is the town) is the town or postcode, not
 * a street named after the town: the postcode alone, or the town with no number but its
 * postcode's (a house number makes a street: "800 Chicago") and a code only as codes are written,
 * in capitals ("CH-8001 Zürich", not "Chicago Ave" or "Via Roma").
 */
function isTownPiece(piece: string, town: { code: string } | null, postcodes: string[]): boolean {
  const key = ` ${nameKey(piece)} `
  if (postcodes.includes(key)) return true
  if (town === null) return false
  const numbers = key.split(' ').filter((w) => /\d/.test(w))
  if (postcodes.length > 0 && numbers.some((n) => !postcodes.some((p) => p.includes(` ${n} `)))) return false
  return (
    town.code === '' || piece.split(/[^\p{L}\p{N}]+/u).some((w) => nameKey(w) === town.code && w === w.toUpperCase())
  )
}

/**
 * The PostalAddress from the address parts where known; its street by streetOf (the reverse lookup
 * gives towns, not streets): search engines expect one, where the address names one.
 */
function postalAddress(a: PublicLocation['address']): Exclude<PostalAddress, string> {
  const out: Exclude<PostalAddress, string> = { '@type': 'PostalAddress' }
  const street = streetOf(a)
  if (street) out.streetAddress = street
  if (a.city) out.addressLocality = a.city
  if (a.region) out.addressRegion = a.region
  if (a.postcode) out.postalCode = a.postcode
  if (a.country) out.addressCountry = a.country
  return out
}

/**
 * The schema.org LocalBusiness of a location, with the dated hours `special` it has ahead as more
 * openingHoursSpecification entries, each valid on its date: Google reads dated hours there, not
 * in specialOpeningHoursSpecification. Fields with no value are left out. `id`: its page's URL without ?lang=, one identity of the business for the
 * pages of every language (search engines merge what pages say of one @id); `url`: the canonical
 * URL of the page it is on, a working link in the reader's language, as its canonical link says.
 */
export function localBusinessJsonLd(
  location: PublicLocation,
  id: string,
  url: string,
  special: [string, string][] = [],
): WithContext<LocalBusiness> {
  const { contact, social } = location
  const sameAs = [
    contact.website,
    socialUrl('instagram', social.instagram),
    socialUrl('facebook', social.facebook),
    socialUrl('twitter', social.twitter),
  ].filter((u) => u !== '')
  const hours = [...openingHoursSpecification(location.hours), ...specialHoursSpecification(special)]
  return {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    '@id': id,
    url,
    name: location.name,
    ...(location.description ? { description: location.description } : {}),
    ...(location.image ? { image: location.image } : {}),
    ...(contact.phone ? { telephone: internationalPhone(contact.phone, location.address.country) } : {}),
    ...(contact.email ? { email: contact.email } : {}),
    address: postalAddress(location.address),
    // A point placed only at its town is not the business's: search engines read the address instead.
    ...(location.coordinates.approximate
      ? {}
      : {
          geo: { '@type': 'GeoCoordinates', latitude: location.coordinates.lat, longitude: location.coordinates.lng },
        }),
    ...(hours.length > 0 ? { openingHoursSpecification: hours } : {}),
    ...(sameAs.length > 0 ? { sameAs } : {}),
  }
}
