// Nominatim (OpenStreetMap): GET /search?format=jsonv2&addressdetails=1&limit=1&q=
// Answers a JSON array of places, empty when nothing matched; lat and lon are strings.
// Usage policy of the public server: at most one request per second per application, a User-Agent
// that identifies the application, results cached, attribution "© OpenStreetMap contributors".
//
// Precision from `place_rank` (Nominatim's search rank, 0-30), using the rank bands Nominatim's
// own Photon maps to address types; postcodes are recognised by type, whatever their rank:
//
// | place_rank                | typical places                           | precision       |
// |---------------------------|------------------------------------------|-----------------|
// | type/addresstype postcode | postcode areas and points                | postcode        |
// | 29-30                     | buildings, house numbers, POIs           | rooftop         |
// | 26-28                     | streets, paths                           | street          |
// | 13-25                     | cities, towns, villages, suburbs, blocks | city            |
// | 5-12                      | states, regions, provinces, counties     | region          |
// | 4                         | countries                                | country         |
// | 0-3                       | oceans, continents                       | null: not found |
import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { Precision } from '../geocoder'
import { addressParts, iso2, streetLine, validPoint } from './parts'
import type { ProviderSpec } from './request'

/** How Nominatim writes a coordinate: "48.8582599". */
const DECIMAL = /^-?\d+(\.\d+)?$/

const Place = Type.Object({
  lat: Type.String(),
  lon: Type.String(),
  type: Type.String(),
  place_rank: Type.Number(),
  addresstype: Type.Optional(Type.String()),
  address: Type.Optional(Type.Record(Type.String(), Type.String())),
})
const SearchResponse = Type.Array(Place)
type Place = Static<typeof Place>

function precision(place: Place): Precision | null {
  if (place.type === 'postcode' || place.addresstype === 'postcode') return 'postcode'
  const rank = place.place_rank
  if (rank >= 29) return 'rooftop'
  if (rank >= 26) return 'street'
  if (rank >= 13) return 'city'
  if (rank >= 5) return 'region'
  if (rank === 4) return 'country'
  return null
}

export const nominatim: ProviderSpec = {
  name: 'nominatim',
  defaultUrl: 'https://nominatim.openstreetmap.org',
  minIntervalMs: 1000,
  url(base, address) {
    return `${base}/search?${new URLSearchParams({ format: 'jsonv2', addressdetails: '1', limit: '1', q: address })}`
  },
  read(body, fail) {
    if (!Value.Check(SearchResponse, body)) return fail('sent an unexpected response')
    const place = body[0]
    if (place === undefined) return null
    // Decimal text only: Number("") and Number(" ") are 0 (a point off Africa), Number("0x2D") 45.
    if (!DECIMAL.test(place.lat) || !DECIMAL.test(place.lon)) return fail('sent an unexpected response (coordinates)')
    const lat = Number(place.lat)
    const lng = Number(place.lon)
    if (!validPoint(lat, lng)) return fail('sent an unexpected response (coordinates)')
    const level = precision(place)
    if (level === null) return null
    const a = place.address ?? {}
    const country = iso2(a.country_code)
    return {
      lat,
      lng,
      precision: level,
      source: 'nominatim',
      parts: addressParts({
        street: streetLine(a.house_number, a.road ?? a.pedestrian ?? a.square, country),
        city: a.city ?? a.town ?? a.village ?? a.hamlet ?? a.municipality,
        region: a.state ?? a.province ?? a.region,
        postcode: a.postcode,
        country,
      }),
    }
  },
  errorDetail(body) {
    // Errors come as {"error": {"code": 400, "message": "..."}} (older servers: {"error": "..."}).
    const error = (body as { error?: unknown } | null)?.error
    if (typeof error === 'string') return error
    const message = (error as { message?: unknown } | null | undefined)?.message
    return typeof message === 'string' ? message : undefined
  },
}
