// Shared shaping of provider answers into our AddressParts and coordinates. Every adapter reads
// through it: a change in what it makes of an answer bumps each one's ADAPTER_VERSIONS (index.ts).
import type { AddressParts } from '../../store/locations'
import { unprintableChar } from '../../core/text'
import type { Precision } from '../geocoder'

/**
 * Countries whose addresses put the house number before the street name ("10 Downing Street");
 * elsewhere it follows ("Unter den Linden 77"). With no country known, the number goes first.
 */
const NUMBER_FIRST: ReadonlySet<string> = new Set([
  'AU',
  'CA',
  'FR',
  'GB',
  'HK',
  'IE',
  'IL',
  'IN',
  'LU',
  'MC',
  'MY',
  'NZ',
  'PH',
  'SG',
  'US',
  'ZA',
])

export function streetLine(
  houseNumber: string | undefined,
  street: string | undefined,
  country: string | undefined,
): string | undefined {
  const name = text(street)
  if (name === undefined) return undefined
  const number = text(houseNumber)
  if (number === undefined) return name
  return country === undefined || NUMBER_FIRST.has(country) ? `${number} ${name}` : `${name} ${number}`
}

/** ISO 3166-1 alpha-2 in upper case, or undefined for anything that is not one ("us" -> "US"). */
export function iso2(code: unknown): string | undefined {
  if (typeof code !== 'string') return undefined
  const upper = code.trim().toUpperCase()
  return /^[A-Z]{2}$/.test(upper) ? upper : undefined
}

/**
 * Longest address part kept, in UTF-16 units: the longest place names are under 200 characters.
 * Parts are shown in every public answer with the location (address.city...), so a provider's
 * runaway field (a broken or hostile endpoint: answers may be up to 1 MiB) must not be copied in.
 */
const MAX_PART = 200

/**
 * A trimmed non-empty string, NFC as the API stores text, or undefined; also undefined for one
 * longer than MAX_PART or with a character no name may hold (a line break, a bidi override:
 * src/core/text.ts), as such a part is no place name: the others are kept.
 */
export function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const trimmed = value.trim().normalize('NFC')
  return trimmed === '' || trimmed.length > MAX_PART || unprintableChar(trimmed) !== null ? undefined : trimmed
}

/** The parts with empty ones left out, so a stored result carries only what the provider parsed. */
export function addressParts(p: AddressParts): AddressParts {
  const out: AddressParts = {}
  const street = text(p.street)
  const city = text(p.city)
  const region = text(p.region)
  const postcode = text(p.postcode)
  const country = iso2(p.country)
  if (street !== undefined) out.street = street
  if (city !== undefined) out.city = city
  if (region !== undefined) out.region = region
  if (postcode !== undefined) out.postcode = postcode
  if (country !== undefined) out.country = country
  return out
}

/**
 * For a result whose type says nothing we map: the finest level its parts vouch for, never better
 * than street (a house number in the parts does not say the point is on the roof). Null: no parts.
 */
export function precisionFromParts(parts: AddressParts): Precision | null {
  if (parts.street !== undefined) return 'street'
  if (parts.postcode !== undefined) return 'postcode'
  if (parts.city !== undefined) return 'city'
  if (parts.region !== undefined) return 'region'
  if (parts.country !== undefined) return 'country'
  return null
}

/**
 * True for a finite latitude and longitude on the globe, degrees, other than 0,0: "Null Island",
 * open sea off Africa, is where a record without a point lands (Pelias has answered it for
 * postcodes), never a store.
 */
export function validPoint(lat: number, lng: number): boolean {
  return (
    Number.isFinite(lat) &&
    Number.isFinite(lng) &&
    lat >= -90 &&
    lat <= 90 &&
    lng >= -180 &&
    lng <= 180 &&
    !(lat === 0 && lng === 0)
  )
}
