// Each HTTP adapter's precision mapping: the provider's own ranks, types and accuracies, as a
// stand-in sends them, to rooftop, street, postcode, city, region, country or not found.
import { describe, expect, test } from 'bun:test'
import type { Precision } from '../../src/geocode/geocoder'
import { createHttpGeocoder, type HttpGeocoderProvider } from '../../src/geocode/http'
import { answering, config, fixture, variant, withStandIns } from './http-fixture'

withStandIns()

// ---- precision mapping, per provider -----------------------------------------------------------

type Row = [label: string, body: unknown, precision: Precision | null]

function precisionTable(provider: HttpGeocoderProvider, rows: Row[]) {
  describe(`${provider} precision mapping`, () => {
    for (const [label, body, expected] of rows) {
      test(`${label} -> ${expected ?? 'null (not found)'}`, async () => {
        const server = answering(body)
        const result = await createHttpGeocoder(config(provider, { url: server.url })).geocode('somewhere')
        expect(result === null ? null : result.precision).toBe(expected)
      })
    }
  })
}

const nominatimPlace = (change: Record<string, unknown>) =>
  variant('nominatim-found', (b) => Object.assign(b[0], change))
precisionTable('nominatim', [
  ['place_rank 30 building', fixture('nominatim-found'), 'rooftop'],
  [
    'place_rank 26 street',
    nominatimPlace({ place_rank: 26, category: 'highway', type: 'residential', addresstype: 'road' }),
    'street',
  ],
  [
    'postcode',
    nominatimPlace({ place_rank: 21, category: 'place', type: 'postcode', addresstype: 'postcode' }),
    'postcode',
  ],
  [
    'place_rank 16 city',
    nominatimPlace({ place_rank: 16, category: 'boundary', type: 'administrative', addresstype: 'city' }),
    'city',
  ],
  [
    'place_rank 19 suburb',
    nominatimPlace({ place_rank: 19, category: 'place', type: 'suburb', addresstype: 'suburb' }),
    'city',
  ],
  [
    'place_rank 8 state',
    nominatimPlace({ place_rank: 8, category: 'boundary', type: 'administrative', addresstype: 'state' }),
    'region',
  ],
  [
    'place_rank 4 country',
    nominatimPlace({ place_rank: 4, category: 'boundary', type: 'administrative', addresstype: 'country' }),
    'country',
  ],
  [
    'place_rank 2 continent',
    nominatimPlace({ place_rank: 2, category: 'place', type: 'continent', addresstype: 'continent' }),
    null,
  ],
])

const photonProps = (change: Record<string, unknown>, drop: string[] = []) =>
  variant('photon-found', (b) => {
    Object.assign(b.features[0].properties, change)
    for (const k of drop) delete b.features[0].properties[k]
  })
precisionTable('photon', [
  ['type house', fixture('photon-found'), 'rooftop'],
  [
    'type street',
    photonProps({ type: 'street', osm_key: 'highway', osm_value: 'residential', name: 'Pariser Platz' }, [
      'housenumber',
      'street',
    ]),
    'street',
  ],
  [
    'osm_value postcode',
    photonProps({ type: 'district', osm_value: 'postcode', name: '10117' }, ['housenumber', 'street']),
    'postcode',
  ],
  [
    'type district',
    photonProps({ type: 'district', osm_value: 'suburb', name: 'Mitte' }, ['housenumber', 'street']),
    'city',
  ],
  ['type city', fixture('photon-city'), 'city'],
  [
    'type state',
    photonProps({ type: 'state', osm_value: 'state', name: 'Berlin' }, ['housenumber', 'street', 'city', 'postcode']),
    'region',
  ],
  [
    'type country',
    photonProps({ type: 'country', osm_value: 'country', name: 'Deutschland' }, [
      'housenumber',
      'street',
      'city',
      'postcode',
      'state',
    ]),
    'country',
  ],
  [
    'type other with a street (never rooftop)',
    photonProps({ type: 'other', osm_key: 'tourism', osm_value: 'attraction' }),
    'street',
  ],
  [
    'type other without any address',
    photonProps({ type: 'other', osm_key: 'natural', osm_value: 'water' }, [
      'housenumber',
      'street',
      'city',
      'postcode',
      'state',
      'countrycode',
      'district',
      'locality',
    ]),
    null,
  ],
  // A type naming a member every object inherits is an unmapped type, as "other" is.
  [
    'type constructor (unmapped)',
    photonProps({ type: 'constructor', osm_key: 'tourism', osm_value: 'attraction' }),
    'street',
  ],
  [
    'type __proto__ (unmapped)',
    photonProps({ type: '__proto__', osm_key: 'tourism', osm_value: 'attraction' }),
    'street',
  ],
])

const peliasProps = (change: Record<string, unknown>) =>
  variant('pelias-found', (b) => Object.assign(b.features[0].properties, change))
precisionTable('pelias', [
  ['address, accuracy point', fixture('pelias-found'), 'rooftop'],
  ['address, match_type interpolated', peliasProps({ match_type: 'interpolated' }), 'street'],
  ['venue, accuracy centroid', peliasProps({ layer: 'venue', accuracy: 'centroid' }), 'street'],
  ['street', peliasProps({ layer: 'street', accuracy: 'centroid', housenumber: undefined }), 'street'],
  ['postalcode', peliasProps({ layer: 'postalcode', accuracy: 'centroid' }), 'postcode'],
  ['locality', peliasProps({ layer: 'locality', accuracy: 'centroid' }), 'city'],
  ['neighbourhood', peliasProps({ layer: 'neighbourhood', accuracy: 'centroid' }), 'city'],
  ['county', peliasProps({ layer: 'county', accuracy: 'centroid' }), 'region'],
  ['region', peliasProps({ layer: 'region', accuracy: 'centroid' }), 'region'],
  ['country', peliasProps({ layer: 'country', accuracy: 'centroid' }), 'country'],
  ['ocean', peliasProps({ layer: 'ocean', accuracy: 'centroid' }), null],
  ['toString (unmapped)', peliasProps({ layer: 'toString', accuracy: 'centroid' }), null],
  ['constructor (unmapped)', peliasProps({ layer: 'constructor', accuracy: 'centroid' }), null],
])

const googleResult = (locationType: string, types: string[]) =>
  variant('google-found', (b) => {
    b.results[0].geometry.location_type = locationType
    b.results[0].types = types
  })
precisionTable('google', [
  ['ROOFTOP', fixture('google-found'), 'rooftop'],
  ['RANGE_INTERPOLATED', googleResult('RANGE_INTERPOLATED', ['street_address']), 'street'],
  ['GEOMETRIC_CENTER of a route', googleResult('GEOMETRIC_CENTER', ['route']), 'street'],
  ['GEOMETRIC_CENTER of a premise (never rooftop)', googleResult('GEOMETRIC_CENTER', ['premise']), 'street'],
  ['APPROXIMATE postal_code', googleResult('APPROXIMATE', ['postal_code']), 'postcode'],
  ['APPROXIMATE locality', fixture('google-locality'), 'city'],
  [
    'APPROXIMATE administrative_area_level_1',
    googleResult('APPROXIMATE', ['administrative_area_level_1', 'political']),
    'region',
  ],
  ['APPROXIMATE country', googleResult('APPROXIMATE', ['country', 'political']), 'country'],
  ['APPROXIMATE of an unmapped type: from its parts', googleResult('APPROXIMATE', ['natural_feature']), 'street'],
  [
    'APPROXIMATE of type constructor (unmapped): from its parts',
    googleResult('APPROXIMATE', ['constructor']),
    'street',
  ],
])

const mapboxFeature = (change: (f: any) => void) => variant('mapbox-found', (b) => change(b.features[0]))
precisionTable('mapbox', [
  ['address, accuracy rooftop', fixture('mapbox-found'), 'rooftop'],
  ['address, accuracy parcel', mapboxFeature((f) => (f.properties.accuracy = 'parcel')), 'rooftop'],
  ['address, accuracy interpolated', mapboxFeature((f) => (f.properties.accuracy = 'interpolated')), 'street'],
  ['address, accuracy street', mapboxFeature((f) => (f.properties.accuracy = 'street')), 'street'],
  [
    'postcode',
    mapboxFeature((f) =>
      Object.assign(f, { id: 'postcode.8031694', place_type: ['postcode'], text: '20500', properties: {} }),
    ),
    'postcode',
  ],
  ['place', fixture('mapbox-place'), 'city'],
  [
    'region',
    mapboxFeature((f) =>
      Object.assign(f, {
        id: 'region.14064402',
        place_type: ['region'],
        text: 'District of Columbia',
        properties: { short_code: 'US-DC' },
      }),
    ),
    'region',
  ],
  [
    'country',
    mapboxFeature((f) =>
      Object.assign(f, {
        id: 'country.8940',
        place_type: ['country'],
        text: 'United States',
        properties: { short_code: 'us' },
        context: [],
      }),
    ),
    'country',
  ],
  [
    'several place types: the finest',
    mapboxFeature((f) => Object.assign(f, { place_type: ['region', 'place'], properties: {} })),
    'city',
  ],
  [
    'an unmapped place type (hasOwnProperty): not found',
    mapboxFeature((f) => Object.assign(f, { place_type: ['hasOwnProperty'], properties: {} })),
    null,
  ],
  [
    'an unmapped place type beside a mapped one: the mapped one',
    mapboxFeature((f) => Object.assign(f, { place_type: ['constructor', 'place'], properties: {} })),
    'city',
  ],
])

const opencageResult = (change: (r: any) => void) => variant('opencage-found', (b) => change(b.results[0]))
precisionTable('opencage', [
  ['building, confidence 10', fixture('opencage-found'), 'rooftop'],
  ['building, confidence 7 (box over 1 km)', opencageResult((r) => (r.confidence = 7)), 'street'],
  [
    'road',
    opencageResult((r) => ((r.components._type = 'road'), delete r.components.house_number, (r.confidence = 9))),
    'street',
  ],
  ['postcode', opencageResult((r) => ((r.components._type = 'postcode'), (r.confidence = 7))), 'postcode'],
  ['city', opencageResult((r) => ((r.components._type = 'city'), (r.confidence = 3))), 'city'],
  ['village', opencageResult((r) => ((r.components._type = 'village'), (r.confidence = 6))), 'city'],
  ['state', opencageResult((r) => ((r.components._type = 'state'), (r.confidence = 1))), 'region'],
  ['country', opencageResult((r) => ((r.components._type = 'country'), (r.confidence = 1))), 'country'],
  ['attraction with a house number', opencageResult((r) => (r.components._type = 'attraction')), 'rooftop'],
  ['__proto__ (unmapped) with a house number', opencageResult((r) => (r.components._type = '__proto__')), 'rooftop'],
  [
    'constructor (unmapped) without a house number',
    opencageResult((r) => ((r.components._type = 'constructor'), delete r.components.house_number, (r.confidence = 9))),
    'street',
  ],
  [
    'body_of_water with only a country',
    opencageResult((r) => {
      r.components = {
        _type: 'body_of_water',
        _category: 'natural/water',
        'ISO_3166-1_alpha-2': 'GB',
        country: 'United Kingdom',
        country_code: 'gb',
      }
      r.confidence = 1
    }),
    'country',
  ],
])
