// Mapbox Geocoding v5: GET /geocoding/v5/mapbox.places-permanent/{search_text}.json?access_token=&limit=1
// Answers a GeoJSON FeatureCollection; `center` is [lng, lat]; `features` is empty when nothing
// matched; errors come as {"message": "..."} with HTTP 401, 403, 404, 422 or 429.
//
// Storage: results of the default `mapbox.places` endpoint ("temporary geocoding") may not be
// stored, and we store them twice over (the geocode cache and the location row). We therefore use
// v5's `mapbox.places-permanent` endpoint, whose results may be stored (it needs a Mapbox account
// enabled for permanent geocoding). In v5 permanence is chosen by this endpoint name; the
// `permanent=true` query parameter is Geocoding v6's, which v5 does not document, so it is not sent.
// Semicolons separate batch queries on the permanent endpoint (even URL-encoded), so they are
// replaced by commas. `autocomplete=false`: a full address is being resolved, not typed.
//
// | place_type                            | properties.accuracy                       | precision |
// |---------------------------------------|-------------------------------------------|-----------|
// | address                               | rooftop, parcel, point                    | rooftop   |
// | address                               | interpolated, intersection, street, none  | street    |
// | poi                                   |                                           | rooftop   |
// | postcode                              |                                           | postcode  |
// | neighborhood, locality, place         |                                           | city      |
// | district, region                      |                                           | region    |
// | country                               |                                           | country   |
// | anything else                         |                                           | null      |
// A feature with several place types takes the finest.
import { Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { PRECISIONS, type Precision } from '../geocoder'
import { addressParts, iso2, streetLine, validPoint } from './parts'
import type { ProviderSpec } from './request'

const Context = Type.Object({ id: Type.String(), text: Type.String(), short_code: Type.Optional(Type.String()) })
const Feature = Type.Object({
  id: Type.String(),
  place_type: Type.Array(Type.String()),
  text: Type.String(),
  center: Type.Tuple([Type.Number(), Type.Number()]),
  /** The house number of an address feature. */
  address: Type.Optional(Type.String()),
  properties: Type.Object({
    accuracy: Type.Optional(Type.String()),
    short_code: Type.Optional(Type.String()),
    /** A POI's street address. */
    address: Type.Optional(Type.String()),
  }),
  context: Type.Optional(Type.Array(Context)),
})
const SearchResponse = Type.Object({ type: Type.Literal('FeatureCollection'), features: Type.Array(Feature) })

const ROOFTOP_ACCURACY: ReadonlySet<string> = new Set(['rooftop', 'parcel', 'point'])

const BY_PLACE_TYPE = new Map<string, Precision>(
  Object.entries({
    poi: 'rooftop',
    postcode: 'postcode',
    neighborhood: 'city',
    locality: 'city',
    place: 'city',
    district: 'region',
    region: 'region',
    country: 'country',
  }),
)

export const mapbox: ProviderSpec = {
  name: 'mapbox',
  defaultUrl: 'https://api.mapbox.com',
  url(base, address, apiKey) {
    const searchText = encodeURIComponent(address.replace(/;/g, ','))
    const query = new URLSearchParams({ access_token: apiKey ?? '', limit: '1', autocomplete: 'false' })
    return `${base}/geocoding/v5/mapbox.places-permanent/${searchText}.json?${query}`
  },
  read(body, fail) {
    if (!Value.Check(SearchResponse, body)) return fail('sent an unexpected response')
    const feature = body.features[0]
    if (feature === undefined) return null
    const [lng, lat] = feature.center
    if (!validPoint(lat, lng)) return fail('sent an unexpected response (coordinates)')
    let level: Precision | null = null
    for (const type of feature.place_type) {
      const own =
        type === 'address'
          ? ROOFTOP_ACCURACY.has(feature.properties.accuracy ?? '')
            ? 'rooftop'
            : 'street'
          : BY_PLACE_TYPE.get(type)
      if (own !== undefined && (level === null || PRECISIONS.indexOf(own) < PRECISIONS.indexOf(level))) level = own
    }
    if (level === null) return null
    // The feature names itself in `text`; the places around it are in `context`, ids "<type>.<n>".
    const around = (type: string) =>
      feature.place_type.includes(type)
        ? { text: feature.text, short_code: feature.properties.short_code }
        : feature.context?.find((c) => c.id.startsWith(`${type}.`))
    const country = iso2(around('country')?.short_code)
    const street = feature.place_type.includes('address')
      ? streetLine(feature.address, feature.text, country)
      : feature.place_type.includes('poi')
        ? feature.properties.address
        : undefined
    return {
      lat,
      lng,
      precision: level,
      source: 'mapbox',
      parts: addressParts({
        street,
        city: around('place')?.text,
        region: around('region')?.text,
        postcode: around('postcode')?.text,
        country,
      }),
    }
  },
  errorDetail(body) {
    const message = (body as { message?: unknown } | null)?.message
    return typeof message === 'string' ? message : undefined
  },
}
