// OpenCage: GET /geocode/v1/json?q=&key=&limit=1&no_annotations=1
// Answers {results, status: {code, message}, ...}; the HTTP status equals status.code: 200 OK,
// 400 invalid request, 401 unable to authenticate, 402 quota exceeded, 403 key disabled or
// blocked, 408 timeout, 410 request too long, 429 too many requests, 503 internal error.
// An empty `results` with code 200 means not found.
//
// Precision from `components._type`; `confidence` (1-10, 0 unknown) measures the size of the
// result's bounding box (9: under 0.5 km, 10: under 0.25 km), so a building-level match whose box
// is larger than that is only vouched for to street level.
//
// | components._type                                                           | precision                          |
// |----------------------------------------------------------------------------|------------------------------------|
// | building, house; an unlisted type whose components have a house_number     | rooftop (street if confidence 1-8) |
// | road                                                                       | street                             |
// | postcode                                                                   | postcode                           |
// | city, town, village, hamlet, municipality, suburb, city_district, quarter, | city                               |
// | neighbourhood, borough, locality                                           |                                    |
// | county, state_district, state, province, region                            | region                             |
// | country                                                                    | country                            |
// | anything else (attraction, body_of_water, continent, ...)                  | from its parts*                    |
// * the finest level its components vouch for, at best street; null when it has none.
import { Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { Precision } from '../geocoder'
import { addressParts, iso2, precisionFromParts, streetLine, text, validPoint } from './parts'
import type { ProviderSpec } from './request'

const Result = Type.Object({
  geometry: Type.Object({ lat: Type.Number(), lng: Type.Number() }),
  confidence: Type.Number(),
  // Values are mostly strings, but some are arrays (ISO_3166-2); `text` picks the strings.
  components: Type.Record(Type.String(), Type.Unknown()),
})
const GeocodeResponse = Type.Object({
  status: Type.Object({ code: Type.Number(), message: Type.String() }),
  results: Type.Array(Result),
})

const BY_TYPE = new Map<string, Precision>(
  Object.entries({
    building: 'rooftop',
    house: 'rooftop',
    road: 'street',
    postcode: 'postcode',
    city: 'city',
    town: 'city',
    village: 'city',
    hamlet: 'city',
    municipality: 'city',
    suburb: 'city',
    city_district: 'city',
    quarter: 'city',
    neighbourhood: 'city',
    borough: 'city',
    locality: 'city',
    county: 'region',
    state_district: 'region',
    state: 'region',
    province: 'region',
    region: 'region',
    country: 'country',
  }),
)

export const opencage: ProviderSpec = {
  name: 'opencage',
  defaultUrl: 'https://api.opencagedata.com',
  url(base, address, apiKey) {
    return `${base}/geocode/v1/json?${new URLSearchParams({ q: address, key: apiKey ?? '', limit: '1', no_annotations: '1' })}`
  },
  read(body, fail) {
    if (!Value.Check(GeocodeResponse, body)) return fail('sent an unexpected response')
    if (body.status.code !== 200)
      return fail(`refused the request (status ${body.status.code}: ${body.status.message})`)
    const result = body.results[0]
    if (result === undefined) return null
    const { lat, lng } = result.geometry
    if (!validPoint(lat, lng)) return fail('sent an unexpected response (coordinates)')
    const c = (key: string) => text(result.components[key])
    const country = iso2(c('ISO_3166-1_alpha-2') ?? c('country_code'))
    const parts = addressParts({
      street: streetLine(c('house_number'), c('road'), country),
      city: c('city') ?? c('town') ?? c('village') ?? c('hamlet') ?? c('municipality'),
      region: c('state') ?? c('province') ?? c('region'),
      postcode: c('postcode'),
      country,
    })
    const type = c('_type') ?? ''
    let level = BY_TYPE.get(type) ?? (c('house_number') !== undefined ? 'rooftop' : precisionFromParts(parts))
    if (level === 'rooftop' && result.confidence >= 1 && result.confidence <= 8) level = 'street'
    if (level === null) return null
    return { lat, lng, precision: level, source: 'opencage', parts }
  },
  errorDetail(body) {
    const message = (body as { status?: { message?: unknown } } | null)?.status?.message
    return typeof message === 'string' ? message : undefined
  },
}
