// Photon (komoot, OpenStreetMap data): GET /api?q=&limit=1
// Answers a GeoJSON FeatureCollection; coordinates are [lng, lat]; `features` is empty when nothing
// matched. `properties.type` is Photon's address type, derived from Nominatim's address rank.
//
// | properties                                 | precision                                         |
// |--------------------------------------------|---------------------------------------------------|
// | osm_value postcode                         | postcode                                          |
// | type house (rank 29-30: buildings, POIs)   | rooftop                                           |
// | type street (rank 26-28)                   | street                                            |
// | type locality, district, city (rank 13-25) | city                                              |
// | type county, state (rank 5-12)             | region                                            |
// | type country (rank 4)                      | country                                           |
// | type other or absent (older servers)       | finest level its parts vouch for, at best street; none: null |
import { Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { Precision } from '../geocoder'
import { addressParts, iso2, precisionFromParts, streetLine, text, validPoint } from './parts'
import type { ProviderSpec } from './request'

const Feature = Type.Object({
  geometry: Type.Object({ type: Type.Literal('Point'), coordinates: Type.Tuple([Type.Number(), Type.Number()]) }),
  properties: Type.Object({
    osm_key: Type.Optional(Type.String()),
    osm_value: Type.Optional(Type.String()),
    type: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    housenumber: Type.Optional(Type.String()),
    street: Type.Optional(Type.String()),
    postcode: Type.Optional(Type.String()),
    city: Type.Optional(Type.String()),
    state: Type.Optional(Type.String()),
    countrycode: Type.Optional(Type.String()),
  }),
})
const SearchResponse = Type.Object({ type: Type.Literal('FeatureCollection'), features: Type.Array(Feature) })

const BY_TYPE = new Map<string, Precision>(
  Object.entries({
    house: 'rooftop',
    street: 'street',
    locality: 'city',
    district: 'city',
    city: 'city',
    county: 'region',
    state: 'region',
    country: 'country',
  }),
)

export const photon: ProviderSpec = {
  name: 'photon',
  defaultUrl: 'https://photon.komoot.io',
  url(base, address) {
    return `${base}/api?${new URLSearchParams({ q: address, limit: '1' })}`
  },
  read(body, fail) {
    if (!Value.Check(SearchResponse, body)) return fail('sent an unexpected response')
    const feature = body.features[0]
    if (feature === undefined) return null
    const [lng, lat] = feature.geometry.coordinates
    if (!validPoint(lat, lng)) return fail('sent an unexpected response (coordinates)')
    const p = feature.properties
    const isPostcode = p.osm_value === 'postcode'
    // A place's own name is not repeated in its address fields: a city result has no `city`.
    const own = (type: string) => (p.type === type ? p.name : undefined)
    const country = iso2(p.countrycode)
    const parts = addressParts({
      street: streetLine(p.housenumber, p.street ?? own('street'), country),
      city: p.city ?? own('city'),
      region: p.state ?? own('state'),
      postcode: p.postcode ?? (isPostcode ? p.name : undefined),
      country,
    })
    const level = isPostcode ? 'postcode' : (BY_TYPE.get(text(p.type) ?? '') ?? precisionFromParts(parts))
    if (level === null) return null
    return { lat, lng, precision: level, source: 'photon', parts }
  },
  errorDetail(body) {
    const message = (body as { message?: unknown } | null)?.message
    return typeof message === 'string' ? message : undefined
  },
}
