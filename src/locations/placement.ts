// Where the geocoder put an address, checked against what its source row says: the warnings a
// bulk import gives so a person can look at the few rows that need it.
import { countryCode, postcodePattern } from '../geocode/countries'
import { type GeocodeResult, geocodeOffline } from '../geocode/geocoder'
import { nameKey } from '../core/text'
import { regionNamed } from '../core/region-spellings'
import { distanceKm } from '../geocode/embedded/near'
import type { ReverseLookup } from '../geocode/embedded/reverse'
import type { AdminDeps } from './service'

/** Farther than this from its postcode's place, a point is worth a look. */
export const POSTCODE_DISTANCE_KM = 50

/** Precisions that place an address no finer than its town. */
export const COARSE_PRECISIONS = ['city', 'region', 'country'] as const
const COARSE = new Set<string>(COARSE_PRECISIONS)

/** What the row itself says about where the location is. */
export type RowPlace = { country?: string | null; postcode?: string | null; city?: string | null }

/**
 * The warnings for `address` placed at `found`: only at city level or coarser; in another
 * country than the row's; farther than 50 km from the place of the row's postcode (when the
 * geocoder knows that postcode), or from the town the address names beside a postcode that town
 * does not confirm. The checks ask the embedded geocoder, never an HTTP provider: they cost no
 * request. Never throws: a check that cannot be made gives no warning.
 */
export async function placementWarnings(
  deps: AdminDeps,
  address: string,
  found: GeocodeResult,
  row: RowPlace,
): Promise<string[]> {
  const warnings: string[] = []
  if (COARSE.has(found.precision)) {
    const postcode = found.parts.postcode && `postcode ${found.parts.postcode}`
    const where = found.parts.city
      ? `${found.parts.city}${within(found.parts)}`
      : (postcode ?? found.parts.region ?? found.parts.country ?? '')
    warnings.push(
      `The address was placed only at ${found.precision} level${where ? ` (${where})` : ''}: check it, or send coordinates.`,
    )
  }
  const rowCountry = row.country ? countryCode(row.country) : null
  if (rowCountry !== null && found.parts.country && found.parts.country !== rowCountry) {
    warnings.push(`The address was placed in ${found.parts.country}, but the row's country is ${row.country}.`)
  }
  if (row.postcode) {
    const query = row.country ? `${row.postcode}, ${row.country}` : row.postcode
    const place = await geocodeOffline(deps.geocoder, query).catch(() => null)
    // A postcode the data places at its town (city precision: DE, FR, IT) still tells its place.
    if (place && (place.precision === 'postcode' || (place.precision === 'city' && place.parts.postcode))) {
      const km = distanceKm(found.lat, found.lng, place.lat, place.lng)
      if (km > POSTCODE_DISTANCE_KM)
        warnings.push(`The address was placed ${Math.round(km)} km from the place of postcode ${row.postcode}.`)
    }
  }
  const town = await townApart(deps, address, found)
  if (town !== null)
    warnings.push(
      `The address was placed at postcode ${found.parts.postcode}, ${town.km} km from ${town.city}, the town it names: check which is right.`,
    )
  return warnings
}

const COUNTRY_NAMES = new Intl.DisplayNames(['en'], { type: 'region' })

/**
 * ", Oregon" or ", France": the region the geocoder chose for a town, by name where the table has
 * it, else its country's name; "Portland, USA" may be in Oregon or Maine.
 */
function within(parts: GeocodeResult['parts']): string {
  const { region, country } = parts
  const name = region && country ? (regionNamed(country, region) ?? region) : country && COUNTRY_NAMES.of(country)
  return name ? `, ${name}` : ''
}

/** Countries whose postcodes are five digits, some with a leading zero, and whose data the embedded geocoder has. */
const FIVE_DIGIT_POSTCODES = new Set(['DE', 'ES', 'FR', 'IT', 'US'])

/**
 * The postcode and country of a row's four-digit postcode read with the leading zero a
 * spreadsheet dropped ("1069" beside Dresden: 01069), when the row names no country and the
 * embedded geocoder places the padded code at the row's town (the town confirms it), in a
 * country of five-digit codes; null otherwise.
 */
export async function paddedPostcode(
  deps: AdminDeps,
  row: RowPlace,
): Promise<{ postcode: string; country: string } | null> {
  const postcode = row.postcode?.trim()
  if (row.country || !row.city || postcode === undefined || !/^\d{4}$/.test(postcode)) return null
  const padded = `0${postcode}`
  const found = await geocodeOffline(deps.geocoder, `${padded} ${row.city}`).catch(() => null)
  const country = found?.parts.country
  if (found?.parts.postcode !== padded || found.parts.city === undefined || country === undefined) return null
  return FIVE_DIGIT_POSTCODES.has(country) ? { postcode: padded, country } : null
}

/** A four-digit number standing alone: a postcode of five digits that may have lost its leading zero. */
const FOUR_DIGITS = /(?<![\p{L}\p{N}])\d{4}(?![\p{L}\p{N}])/gu

/**
 * An address cell with the leading zero its four-digit postcode lost put back ("Prager Straße
 * 10, 1069 Dresden": 01069), with the postcode and its town, when the embedded geocoder places
 * the address's place (its pieces after the first comma: the first holds a house's number) with
 * the padded code at a town of that postcode, in a country of five-digit codes (the row's, when
 * it names one); null otherwise, and for a place with no such number or more than one.
 */
export async function paddedInAddress(
  deps: AdminDeps,
  address: string,
  row: RowPlace,
  memo: PostcodeMemo,
): Promise<{ address: string; written: string; postcode: string; city: string } | null> {
  const comma = address.indexOf(',')
  if (comma < 0) return null
  const place = address.slice(comma + 1)
  const numbers = [...place.matchAll(FOUR_DIGITS)]
  if (numbers.length !== 1) return null
  const written = numbers[0]![0]
  const at = numbers[0]!.index
  const postcode = `0${written}`
  const mended = `${place.slice(0, at)}${postcode}${place.slice(at + written.length)}`
  const found = await placedOnce(deps, mended.trim(), memo)
  const country = found?.parts.country
  if (found?.parts.postcode !== postcode || found.parts.city === undefined || country === undefined) return null
  if (!FIVE_DIGIT_POSTCODES.has(country) || (row.country && countryCode(row.country) !== country)) return null
  return { address: address.slice(0, comma + 1) + mended, written, postcode, city: found.parts.city }
}

/**
 * The town an address names, when the geocoder placed it at a postcode that town does not
 * confirm (no city in its answer: "Chicago, IL 62701") and the town lies farther than
 * POSTCODE_DISTANCE_KM from it; null otherwise. The town is the address without its postcode.
 */
async function townApart(
  deps: AdminDeps,
  address: string,
  found: GeocodeResult,
): Promise<{ city: string; km: number } | null> {
  const postcode = found.parts.postcode
  if (postcode === undefined || found.parts.city !== undefined) return null
  const pattern = postcodePattern(postcode, 'giu')
  const withoutPostcode = pattern === null ? address : address.replace(pattern, ' ')
  if (withoutPostcode === address) return null
  const town = await geocodeOffline(deps.geocoder, withoutPostcode).catch(() => null)
  if (town?.parts.city === undefined || town.parts.country !== found.parts.country) return null
  const km = Math.round(distanceKm(found.lat, found.lng, town.lat, town.lng))
  return km > POSTCODE_DISTANCE_KM ? { city: town.parts.city, km } : null
}

/**
 * The warning for coordinates sent with a row that names its country, when the point is not in
 * it: in another country, or near no town at all; saying so when lat and lng swapped would fit.
 */
export function pointWarnings(towns: ReverseLookup, at: { lat: number; lng: number }, row: RowPlace): string[] {
  const rowCountry = row.country ? countryCode(row.country) : null
  if (rowCountry === null) return []
  const country = towns.at(at.lat, at.lng)?.parts.country ?? null
  if (country === rowCountry) return []
  const swapped =
    Math.abs(at.lng) <= 90 && towns.at(at.lng, at.lat)?.parts.country === rowCountry ? ' Are lat and lng swapped?' : ''
  const where = country === null ? 'near no town' : `in ${country}`
  return [`The coordinates ${at.lat}, ${at.lng} are ${where}, but the row's country is ${row.country}.${swapped}`]
}

/** The postcodes and addresses an import looked up, by the text asked: a file's rows share many. */
export type PostcodeMemo = Map<string, Promise<GeocodeResult | null>>

/** `text` as the embedded geocoder places it, asked once per import. */
function placedOnce(deps: AdminDeps, text: string, memo: PostcodeMemo): Promise<GeocodeResult | null> {
  let asked = memo.get(text)
  if (asked === undefined) {
    asked = geocodeOffline(deps.geocoder, text).catch(() => null)
    memo.set(text, asked)
  }
  return asked
}

/**
 * What most likely moved a point far from `place`, when read otherwise it lies near it: lat and
 * lng swapped, or a minus sign lost or added; '' when neither.
 */
function misreadHint(at: { lat: number; lng: number }, place: { lat: number; lng: number }): string {
  const near = (lat: number, lng: number) =>
    Math.abs(lat) <= 90 && distanceKm(lat, lng, place.lat, place.lng) <= POSTCODE_DISTANCE_KM
  if (near(at.lng, at.lat)) return ' Are lat and lng swapped?'
  return near(-at.lat, at.lng) || near(at.lat, -at.lng) ? ' Is a minus sign missing, or one too many?' : ''
}

/**
 * The warning for coordinates sent with an address that names no town near them (`named`: it
 * does, as ReverseLookup.writtenTown tells), when the embedded geocoder places the address, at
 * its town or finer, farther than POSTCODE_DISTANCE_KM from the point ("Hauptstraße 5, 10117
 * Berlin" at 13.3889, 52.517); saying so when lat and lng swapped, or a sign turned, would fit.
 * Rows of a file that names no country get it too; a row that names one only for a place in it.
 */
export async function addressPointWarnings(
  deps: AdminDeps,
  named: boolean,
  at: { lat: number; lng: number },
  address: string,
  row: RowPlace,
  memo: PostcodeMemo,
): Promise<string[]> {
  if (address.trim() === '' || named) return []
  const place = await placedOnce(deps, address, memo)
  if (place === null || place.precision === 'region' || place.precision === 'country') return []
  // A row that names its country is asked about only a place there: another is the geocoder's guess.
  if (row.country && countryCode(row.country) !== place.parts.country) return []
  const km = Math.round(distanceKm(at.lat, at.lng, place.lat, place.lng))
  if (km <= POSTCODE_DISTANCE_KM) return []
  const hint = misreadHint(at, place)
  const where = [place.parts.postcode, place.parts.city, place.parts.country].filter(Boolean).join(' ')
  return [
    `The coordinates ${at.lat}, ${at.lng} are ${km} km from ${where}, where the address is: check which is right.${hint}`,
  ]
}

/**
 * The warning for coordinates sent with a row that names its postcode and country, when the
 * point lies farther than POSTCODE_DISTANCE_KM from the postcode's place ("10119 Berlin" at
 * Munich's coordinates). A point whose own postcode or town (the reverse lookup) is the row's
 * is not asked about; a postcode the geocoder does not place, or places in another country,
 * gives none. Says so when lat and lng swapped, or a sign turned, would fit.
 */
export async function postcodeWarnings(
  deps: AdminDeps,
  towns: ReverseLookup | null,
  at: { lat: number; lng: number },
  row: RowPlace,
  memo: PostcodeMemo,
): Promise<string[]> {
  if (!row.country || !row.postcode) return []
  const here = towns?.at(at.lat, at.lng)?.parts
  if (here && (here.postcode === row.postcode || (row.city && here.city && nameKey(here.city) === nameKey(row.city))))
    return []
  const place = await placedOnce(deps, `${row.postcode}, ${row.country}`, memo)
  // A postcode the data places at its town (DE, FR, IT) still tells its place, as placementWarnings reads it.
  const placed = place && (place.precision === 'postcode' || (place.precision === 'city' && place.parts.postcode))
  if (!placed || place.parts.country !== countryCode(row.country)) return []
  const km = Math.round(distanceKm(at.lat, at.lng, place.lat, place.lng))
  return km > POSTCODE_DISTANCE_KM
    ? [
        `The coordinates ${at.lat}, ${at.lng} are ${km} km from the place of postcode ${row.postcode}: check which is right.${misreadHint(at, place)}`,
      ]
    : []
}

/**
 * For a row whose address could not be placed: " Its postcode and town, 80331 München, are in
 * Germany, not France: check the row's country." when its postcode and town, asked without the
 * row's country, are placed in another one (a country cell filled down a sheet), and not in the
 * row's country when asked with it (Paris is in France and Texas, Valencia in Spain and
 * Venezuela: an HTTP provider that knows no such street says nothing of the country); else "".
 * Asks the embedded geocoder only: it costs no HTTP provider request.
 */
export async function otherCountryHint(deps: AdminDeps, row: RowPlace): Promise<string> {
  const code = row.country ? countryCode(row.country) : null
  const where = [row.postcode, row.city].filter((p) => p).join(' ')
  if (code === null || where === '' || !row.city) return ''
  const placed = (p: GeocodeResult | null): p is GeocodeResult =>
    p !== null && (p.precision === 'postcode' || p.precision === 'city')
  const home = await geocodeOffline(deps.geocoder, `${where}, ${row.country}`).catch(() => null)
  if (placed(home) && home.parts.country === code) return ''
  const place = await geocodeOffline(deps.geocoder, where).catch(() => null)
  const found = place?.parts.country
  if (!found || found === code || !placed(place)) return ''
  const parts = row.postcode ? 'Its postcode and town' : 'Its town'
  return ` ${parts}, ${where}, ${row.postcode ? 'are' : 'is'} in ${COUNTRY_NAMES.of(found) ?? found}, not ${COUNTRY_NAMES.of(code) ?? row.country}: check the row's country.`
}
