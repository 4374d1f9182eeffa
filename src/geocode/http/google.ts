// Google Geocoding API: GET /maps/api/geocode/json?address=&key=
// Answers {results, status[, error_message]} with HTTP 200 even for most failures, so the verdict
// is in `status`: OK (results[0] is the best match), ZERO_RESULTS (not found), OVER_QUERY_LIMIT and
// OVER_DAILY_LIMIT (quota), REQUEST_DENIED (key or API not enabled), INVALID_REQUEST, UNKNOWN_ERROR.
// Terms: coordinates may be cached for at most 30 consecutive days (see PROVIDER_CACHE_TTL).
//
// | geometry.location_type          | result types                                                  | precision       |
// |---------------------------------|---------------------------------------------------------------|-----------------|
// | ROOFTOP                         | any                                                           | rooftop         |
// | RANGE_INTERPOLATED              | any                                                           | street          |
// | GEOMETRIC_CENTER or APPROXIMATE | street_address, premise, subpremise, route, intersection,     | street          |
// |                                 | plus_code, establishment, point_of_interest                   |                 |
// | GEOMETRIC_CENTER or APPROXIMATE | postal_code                                                   | postcode        |
// | GEOMETRIC_CENTER or APPROXIMATE | locality, postal_town, sublocality, sublocality_level_1,      | city            |
// |                                 | neighborhood, administrative_area_level_3-7, colloquial_area  |                 |
// | GEOMETRIC_CENTER or APPROXIMATE | administrative_area_level_1, administrative_area_level_2      | region          |
// | GEOMETRIC_CENTER or APPROXIMATE | country                                                       | country         |
// | GEOMETRIC_CENTER or APPROXIMATE | none of these (parks, airports, ...)                          | from its parts* |
// * the finest level its address components vouch for, at best street; null when it has none.
// The finest matching type wins; a centre or an approximation is never called rooftop.
import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { AddressParts } from '../../store/locations'
import { PRECISIONS, type Precision } from '../geocoder'
import { addressParts, iso2, precisionFromParts, streetLine, validPoint } from './parts'
import type { ProviderSpec } from './request'

const Component = Type.Object({ long_name: Type.String(), short_name: Type.String(), types: Type.Array(Type.String()) })
const Result = Type.Object({
  address_components: Type.Array(Component),
  geometry: Type.Object({
    location: Type.Object({ lat: Type.Number(), lng: Type.Number() }),
    location_type: Type.String(),
  }),
  types: Type.Array(Type.String()),
})
const GeocodeResponse = Type.Object({
  status: Type.String(),
  results: Type.Array(Result),
  error_message: Type.Optional(Type.String()),
})
type Result = Static<typeof Result>

const BY_TYPE = new Map<string, Precision>(
  Object.entries({
    street_address: 'street',
    premise: 'street',
    subpremise: 'street',
    route: 'street',
    intersection: 'street',
    plus_code: 'street',
    establishment: 'street',
    point_of_interest: 'street',
    postal_code: 'postcode',
    locality: 'city',
    postal_town: 'city',
    sublocality: 'city',
    sublocality_level_1: 'city',
    neighborhood: 'city',
    administrative_area_level_3: 'city',
    administrative_area_level_4: 'city',
    administrative_area_level_5: 'city',
    administrative_area_level_6: 'city',
    administrative_area_level_7: 'city',
    colloquial_area: 'city',
    administrative_area_level_1: 'region',
    administrative_area_level_2: 'region',
    country: 'country',
  }),
)

const FAILURES = new Map<string, string>(
  Object.entries({
    OVER_QUERY_LIMIT: 'is over its query limit',
    OVER_DAILY_LIMIT: 'is over its daily limit',
    REQUEST_DENIED: 'refused the request',
    INVALID_REQUEST: 'rejected the request as invalid',
    UNKNOWN_ERROR: 'had a server error',
  }),
)

function precision(result: Result, parts: AddressParts): Precision | null {
  const locationType = result.geometry.location_type
  if (locationType === 'ROOFTOP') return 'rooftop'
  if (locationType === 'RANGE_INTERPOLATED') return 'street'
  let best: Precision | null = null
  for (const type of result.types) {
    const level = BY_TYPE.get(type)
    if (level !== undefined && (best === null || PRECISIONS.indexOf(level) < PRECISIONS.indexOf(best))) best = level
  }
  return best ?? precisionFromParts(parts)
}

export const google: ProviderSpec = {
  name: 'google',
  defaultUrl: 'https://maps.googleapis.com',
  url(base, address, apiKey) {
    return `${base}/maps/api/geocode/json?${new URLSearchParams({ address, key: apiKey ?? '' })}`
  },
  read(body, fail) {
    if (!Value.Check(GeocodeResponse, body)) return fail('sent an unexpected response')
    if (body.status === 'ZERO_RESULTS') return null
    if (body.status !== 'OK') {
      const failure = FAILURES.get(body.status) ?? 'sent an unexpected status'
      // INVALID_REQUEST is about this request (its address); the others about the service or the key.
      return fail(
        `${failure} (${body.status}${body.error_message ? `: ${body.error_message}` : ''})`,
        body.status === 'INVALID_REQUEST' ? 'address' : 'service',
      )
    }
    const result = body.results[0]
    if (result === undefined) return fail('sent an unexpected response (OK without results)', 'address')
    const { lat, lng } = result.geometry.location
    if (!validPoint(lat, lng)) return fail('sent an unexpected response (coordinates)', 'address')
    const component = (type: string) => result.address_components.find((c) => c.types.includes(type))
    const country = iso2(component('country')?.short_name)
    const parts = addressParts({
      street: streetLine(component('street_number')?.long_name, component('route')?.long_name, country),
      city: (
        component('locality') ??
        component('postal_town') ??
        component('administrative_area_level_3') ??
        component('sublocality')
      )?.long_name,
      region: component('administrative_area_level_1')?.long_name,
      postcode: component('postal_code')?.long_name,
      country,
    })
    const level = precision(result, parts)
    if (level === null) return null
    return { lat, lng, precision: level, source: 'google', parts }
  },
  errorDetail(body) {
    const message = (body as { error_message?: unknown } | null)?.error_message
    return typeof message === 'string' ? message : undefined
  },
}
