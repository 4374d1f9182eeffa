// Pelias: GET /v1/search?text=&size=1 (plus api_key= where the host requires one, as geocode.earth,
// the Pelias team's hosted service and our default endpoint, does). Answers GeoJSON: a
// FeatureCollection with `geocoding` metadata; coordinates are [lng, lat]; `features` is empty when
// nothing matched; errors are listed in `geocoding.errors` (with HTTP 400 for a bad query).
//
// Precision from `properties.layer`, refined by `accuracy` (point | centroid) and `match_type`.
// `confidence` (0-1) scores how well the text matched, not where the point lies, so it does not
// enter precision; a fallback match already shows in its coarser layer.
//
// | layer                                                    | accuracy, match_type                     | precision       |
// |----------------------------------------------------------|------------------------------------------|-----------------|
// | address, venue                                           | point, and not interpolated              | rooftop         |
// | address, venue                                           | centroid, or interpolated                | street          |
// | street                                                   |                                          | street          |
// | postalcode                                               |                                          | postcode        |
// | microhood, neighbourhood, borough, locality, localadmin  |                                          | city            |
// | county, macrocounty, region, macroregion                 |                                          | region          |
// | dependency, country                                      |                                          | country         |
// | anything else (ocean, marinearea, continent, empire)     |                                          | null: not found |
import { Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { Precision } from '../geocoder'
import { addressParts, iso2, streetLine, validPoint } from './parts'
import type { ProviderSpec } from './request'

const Feature = Type.Object({
  geometry: Type.Object({ type: Type.Literal('Point'), coordinates: Type.Tuple([Type.Number(), Type.Number()]) }),
  properties: Type.Object({
    layer: Type.String(),
    accuracy: Type.Optional(Type.String()),
    match_type: Type.Optional(Type.String()),
    confidence: Type.Optional(Type.Number()),
    name: Type.Optional(Type.String()),
    housenumber: Type.Optional(Type.String()),
    street: Type.Optional(Type.String()),
    postalcode: Type.Optional(Type.String()),
    locality: Type.Optional(Type.String()),
    localadmin: Type.Optional(Type.String()),
    region: Type.Optional(Type.String()),
    /** ISO 3166-1 alpha-2; Pelias since 2020. Older servers send only `country_a` (alpha-3), which we leave out. */
    country_code: Type.Optional(Type.String()),
  }),
})
const SearchResponse = Type.Object({
  geocoding: Type.Optional(Type.Object({ errors: Type.Optional(Type.Array(Type.String())) })),
  type: Type.Literal('FeatureCollection'),
  features: Type.Array(Feature),
})

const BY_LAYER = new Map<string, Precision>(
  Object.entries({
    street: 'street',
    postalcode: 'postcode',
    microhood: 'city',
    neighbourhood: 'city',
    borough: 'city',
    locality: 'city',
    localadmin: 'city',
    county: 'region',
    macrocounty: 'region',
    region: 'region',
    macroregion: 'region',
    dependency: 'country',
    country: 'country',
  }),
)

export const pelias: ProviderSpec = {
  name: 'pelias',
  defaultUrl: 'https://api.geocode.earth',
  url(base, address, apiKey) {
    const query = new URLSearchParams({ text: address, size: '1' })
    if (apiKey) query.set('api_key', apiKey)
    return `${base}/v1/search?${query}`
  },
  read(body, fail) {
    if (!Value.Check(SearchResponse, body)) return fail('sent an unexpected response')
    const error = body.geocoding?.errors?.[0]
    if (error !== undefined) return fail(`reported an error (${error})`)
    const feature = body.features[0]
    if (feature === undefined) return null
    const [lng, lat] = feature.geometry.coordinates
    if (!validPoint(lat, lng)) return fail('sent an unexpected response (coordinates)')
    const p = feature.properties
    let level: Precision | null
    if (p.layer === 'address' || p.layer === 'venue') {
      level = p.accuracy === 'point' && p.match_type !== 'interpolated' ? 'rooftop' : 'street'
    } else {
      level = BY_LAYER.get(p.layer) ?? null
    }
    if (level === null) return null
    const country = iso2(p.country_code)
    return {
      lat,
      lng,
      precision: level,
      source: 'pelias',
      parts: addressParts({
        street: streetLine(p.housenumber, p.street ?? (p.layer === 'street' ? p.name : undefined), country),
        city: p.locality ?? p.localadmin,
        region: p.region,
        postcode: p.postalcode,
        country,
      }),
    }
  },
  errorDetail(body) {
    const errors = (body as { geocoding?: { errors?: unknown } } | null)?.geocoding?.errors
    return Array.isArray(errors) && typeof errors[0] === 'string' ? errors[0] : undefined
  },
}
