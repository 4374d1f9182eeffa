// The embedded offline geocoder on its real compiled data (built once into data/, as on first start).
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { Database } from 'bun:sqlite'
import { copyFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { createApp } from '../../src/server/app'
import { createGeocoder } from '../../src/geocode'
import {
  cachedGeocoder,
  normalizeAddress,
  PRECISIONS,
  type GeocodeResult,
  type Precision,
} from '../../src/geocode/geocoder'
import { DEFAULT_GEODATA_PATH, ensureGeodata, openEmbeddedGeocoder } from '../../src/geocode/embedded'
import { GEODATA_VERSION } from '../../src/geocode/embedded/build'
import { geodataVersion } from '../../src/geocode/embedded/ensure'
import { distanceKm } from '../../src/geocode/embedded/near'
import { RESOLVER_VERSION } from '../../src/geocode/embedded/resolve'
import { createLocator } from '../../src/operator'
import { openStore } from '../../src/store'
import { tempDir } from '../helpers'
import { geo, useEmbeddedGeocoder } from './embedded-fixture'

useEmbeddedGeocoder()

type Expect = { address: string; lat: number; lng: number; km: number; country: string; precision?: Precision }

// True coordinates: city halls, stations and landmarks (Wikipedia), or the town centre for town-only addresses.
const RESOLVES: Expect[] = [
  {
    address: '200 Main Street, Springfield, IL 62701',
    lat: 39.8017,
    lng: -89.6436,
    km: 3,
    country: 'US',
    precision: 'postcode',
  },
  { address: 'Springfield, Illinois', lat: 39.8017, lng: -89.6436, km: 5, country: 'US', precision: 'city' },
  { address: 'Paris, Texas', lat: 33.6609, lng: -95.5555, km: 5, country: 'US' },
  { address: 'Paris', lat: 48.8566, lng: 2.3522, km: 5, country: 'FR' },
  { address: 'Los Angeles, CA', lat: 34.0522, lng: -118.2437, km: 5, country: 'US' },
  {
    address: '1600 Amphitheatre Parkway Mountain View CA 94043',
    lat: 37.422,
    lng: -122.0841,
    km: 5,
    country: 'US',
    precision: 'postcode',
  },
  {
    address: '301 Front St W, Toronto, ON M5V 2T6, Canada',
    lat: 43.6426,
    lng: -79.3871,
    km: 3,
    country: 'CA',
    precision: 'postcode',
  },
  { address: 'Toronto, ON', lat: 43.6532, lng: -79.3832, km: 8, country: 'CA' },
  { address: 'Bondi Beach NSW 2026', lat: -33.8915, lng: 151.2767, km: 2, country: 'AU', precision: 'postcode' },
  { address: 'Bondi Beach, Sydney', lat: -33.8915, lng: 151.2767, km: 3, country: 'AU' },
  { address: 'Marienplatz 1, 80331 München', lat: 48.1374, lng: 11.5755, km: 3, country: 'DE' },
  { address: 'Koeln, Deutschland', lat: 50.9375, lng: 6.9603, km: 5, country: 'DE' },
  // A town and its district beside a dash, as German addresses write them; a dashed town's own name first.
  { address: 'Venloer Str. 100, 50823 Köln-Ehrenfeld', lat: 50.9375, lng: 6.9603, km: 8, country: 'DE' },
  { address: 'Leopoldstraße 50, München-Schwabing', lat: 48.1374, lng: 11.5755, km: 8, country: 'DE' },
  { address: 'Hauptstr. 1, 60594 Frankfurt-Sachsenhausen', lat: 50.1109, lng: 8.6821, km: 8, country: 'DE' },
  // A postcode placed at its town's point, refined by the district the address names (Spandau, not Berlin's centre).
  { address: 'Carl-Schurz-Str. 2, 13597 Berlin-Spandau', lat: 52.5357, lng: 13.2003, km: 3, country: 'DE' },
  // The district after the dash, with no postcode: Favoriten and Pasing, not Vienna's or Munich's centre.
  { address: 'Favoritenstraße 10, Wien-Favoriten', lat: 48.1667, lng: 16.3833, km: 3, country: 'AT' },
  { address: 'Landsberger Str. 500, München-Pasing', lat: 48.1447, lng: 11.4614, km: 3, country: 'DE' },
  { address: 'Saint-Jean-Pied-de-Port, France', lat: 43.1631, lng: -1.2375, km: 3, country: 'FR' },
  { address: 'Berlin, DE', lat: 52.52, lng: 13.405, km: 5, country: 'DE' },
  { address: '5 Avenue Anatole France, 75007 Paris, France', lat: 48.8584, lng: 2.2945, km: 8, country: 'FR' },
  { address: 'Place Bellecour, 69002 Lyon', lat: 45.7578, lng: 4.832, km: 5, country: 'FR' },
  { address: 'Piazza del Duomo, 20122 Milano, Italia', lat: 45.4642, lng: 9.19, km: 3, country: 'IT' },
  { address: 'Firenze, Italia', lat: 43.7696, lng: 11.2558, km: 5, country: 'IT' },
  {
    address: 'Calle de Alcalá 1, 28014 Madrid',
    lat: 40.4169,
    lng: -3.7035,
    km: 3,
    country: 'ES',
    // The Spanish data puts Madrid's 63 codes at one point, the city's: an import warns of it.
    precision: 'city',
  },
  // A town's one Spanish code: its point is the code's alone.
  { address: 'Calle Armiñán 1, 29400 Ronda', lat: 36.7423, lng: -5.1671, km: 3, country: 'ES', precision: 'postcode' },
  { address: 'Málaga, España', lat: 36.7213, lng: -4.4214, km: 5, country: 'ES' },
  { address: 'Den Haag, Nederland', lat: 52.0705, lng: 4.3007, km: 5, country: 'NL' },
  { address: 'Stephansplatz 1, 1010 Wien, Österreich', lat: 48.2085, lng: 16.3731, km: 3, country: 'AT' },
  { address: '10 Downing Street, London SW1A 2AA, UK', lat: 51.5034, lng: -0.1276, km: 5, country: 'GB' },
  // A country named at the end of an address without commas.
  { address: '90210 USA', lat: 34.0901, lng: -118.4065, km: 5, country: 'US', precision: 'postcode' },
  { address: 'London Canada', lat: 42.9849, lng: -81.2453, km: 8, country: 'CA' },
  { address: 'Hamilton New Zealand', lat: -37.787, lng: 175.2793, km: 8, country: 'NZ' },
  // ... but not a country name that ends a state's ("New Mexico", "New Jersey"), names a state too
  // ("Georgia"), or is a code ("BG": Bergamo's province, not Bulgaria).
  { address: 'Santa Fe New Mexico', lat: 35.687, lng: -105.9378, km: 8, country: 'US' },
  { address: 'Trenton New Jersey', lat: 40.2171, lng: -74.7429, km: 8, country: 'US' },
  { address: 'Atlanta Georgia', lat: 33.749, lng: -84.388, km: 8, country: 'US' },
  { address: '24121 Bergamo (BG)', lat: 45.6983, lng: 9.6773, km: 5, country: 'IT' },
  // With commas too: a country name that ends a state's is not the country; one that names a state
  // too is the country when a town of it matches, else the state.
  { address: 'Santa Fe, New Mexico', lat: 35.687, lng: -105.9378, km: 8, country: 'US' },
  { address: 'Jersey City, New Jersey', lat: 40.7178, lng: -74.0431, km: 8, country: 'US' },
  { address: 'Belfast, Northern Ireland', lat: 54.5973, lng: -5.9301, km: 5, country: 'GB' },
  { address: 'Atlanta, Georgia', lat: 33.749, lng: -84.388, km: 8, country: 'US' },
  { address: 'Athens, Georgia', lat: 33.9519, lng: -83.3576, km: 8, country: 'US' },
  { address: 'Tbilisi, Georgia', lat: 41.7151, lng: 44.8271, km: 8, country: 'GE' },
  { address: 'Arlon, Luxembourg', lat: 49.6833, lng: 5.8167, km: 5, country: 'BE' },
  { address: 'Luxembourg, Luxembourg', lat: 49.6116, lng: 6.1319, km: 5, country: 'LU' },
  // A region's name inside a longer one's names nothing: "Wales" in "New South Wales".
  { address: 'Liverpool, New South Wales', lat: -33.92, lng: 150.9239, km: 8, country: 'AU' },
  { address: 'Tamworth, New South Wales', lat: -31.0927, lng: 150.932, km: 8, country: 'AU' },
  // A country's code in capitals beside a postcode names its country, before or after it, and
  // before a region the code also names whose postcodes it is not ("DE": Delaware).
  { address: 'US 90210', lat: 34.0901, lng: -118.4065, km: 5, country: 'US' },
  { address: '90210 US', lat: 34.0901, lng: -118.4065, km: 5, country: 'US' },
  { address: 'FR 75001', lat: 48.8603, lng: 2.3412, km: 3, country: 'FR' },
  { address: 'DE 10115', lat: 52.532, lng: 13.3849, km: 3, country: 'DE' },
  // A 3-letter code or an alias in capitals beside the postcode names its country (not Usa River, Tanzania).
  { address: 'USA 90210', lat: 34.0901, lng: -118.4065, km: 5, country: 'US' },
  { address: 'DEU 10115', lat: 52.532, lng: 13.3849, km: 3, country: 'DE' },
  { address: 'DE 19801', lat: 39.7378, lng: -75.5497, km: 5, country: 'US' },
  // Towns named with words that are streets' in other languages: Italian "Strada", Romanian
  // "Calea", Swedish "-gatan", Finnish "-katu", Norwegian "-vågen" (no Swedish "-vägen").
  { address: 'Strada in Chianti, Italy', lat: 43.659, lng: 11.297, km: 3, country: 'IT' },
  { address: 'Caldaro sulla Strada del Vino, Italy', lat: 46.413, lng: 11.246, km: 3, country: 'IT' },
  { address: 'Calea Mare, Romania', lat: 46.91, lng: 22.068, km: 3, country: 'RO' },
  { address: 'Pagatan, Indonesia', lat: -3.607, lng: 115.938, km: 3, country: 'ID' },
  { address: 'Main Road 5, Hinjilikatu, Odisha', lat: 19.482, lng: 84.745, km: 3, country: 'IN' },
  { address: 'Elnesvågen, Norway', lat: 62.854, lng: 7.138, km: 3, country: 'NO' },
  // A street after its town with no comma: its street word takes no town's word.
  { address: '1052 Budapest Váci utca', lat: 47.498, lng: 19.04, km: 3, country: 'HU' },
  { address: 'Pécs Széchenyi tér', lat: 46.072, lng: 18.231, km: 3, country: 'HU' },
  { address: 'Praha Národní třída', lat: 50.088, lng: 14.421, km: 3, country: 'CZ' },
  { address: 'Bratislava Obchodná ulica', lat: 48.148, lng: 17.107, km: 3, country: 'SK' },
]

describe('resolves real addresses', () => {
  for (const e of RESOLVES) {
    test(e.address, () => {
      const r = geo.lookup(e.address)
      expect(r).not.toBeNull()
      expect(r!.parts.country).toBe(e.country)
      expect(distanceKm(r!.lat, r!.lng, e.lat, e.lng)).toBeLessThanOrEqual(e.km)
      expect(r!.source).toBe('embedded')
      if (e.precision) expect(r!.precision).toBe(e.precision)
    })
  }
})

describe('address parts', () => {
  test('street, city, region, postcode and country are parsed', () => {
    expect(geo.lookup('200 Main Street, Springfield, IL 62701')!.parts).toEqual({
      street: '200 Main Street',
      city: 'Springfield',
      region: 'IL',
      postcode: '62701',
      country: 'US',
    })
  })
  test("a postcode is confirmed by a town close to its place, named otherwise than the data's", () => {
    expect(geo.lookup('Zeil 1, 60311 Frankfurt')!.parts.city).toBe('Frankfurt am Main')
    expect(geo.lookup('Hauptstraße 5, 79098 Freiburg')!.parts).toEqual({
      street: 'Hauptstraße 5',
      city: 'Freiburg im Breisgau',
      postcode: '79098',
      country: 'DE',
    })
    // A town far from the postcode confirms nothing: the answer names no city.
    expect(geo.lookup('Hauptstraße 5, 79098 Hamburg, Germany')!.parts.city).toBeUndefined()
  })
  test("a German postcode's town is the namesake near its other towns: 55606 Limbach is by Kirn, not in Saxony", () => {
    const r = geo.lookup('Hauptstraße 1, 55606 Limbach')!
    expect(r.parts).toMatchObject({ city: 'Limbach', postcode: '55606', country: 'DE' })
    expect(distanceKm(r.lat, r.lng, 49.7883, 7.4577)).toBeLessThan(15) // Kirn's town hall
  })
  test('"75016 Paris" is Paris\'s 16th, not its centre, nor Boulogne-Billancourt, which La Poste also routes through 75016', () => {
    const paris = geo.lookup('Paris, France')!
    for (const address of ['Rue de Passy, 75016 Paris', '75016 PARIS']) {
      const r = geo.lookup(address)!
      expect({ address, parts: r.parts }).toEqual({
        address,
        parts: expect.objectContaining({ city: 'Paris', postcode: '75016', country: 'FR' }),
      })
      expect(distanceKm(r.lat, r.lng, 48.8637, 2.2765)).toBeLessThan(1) // the 16th's town hall
      expect(distanceKm(r.lat, r.lng, paris.lat, paris.lng)).toBeGreaterThan(4)
    }
    // Each arrondissement's code is at its own part of Paris: the Eiffel Tower's 75007 within 2 km of it.
    const tower = geo.lookup('Champ de Mars, 5 Avenue Anatole France, 75007 Paris')!
    expect(distanceKm(tower.lat, tower.lng, 48.8584, 2.2945)).toBeLessThan(2)
    expect(geo.lookup('75016 Boulogne-Billancourt')!.parts.city).toBe('Boulogne-Billancourt')
  })
  test("every arrondissement's code of Paris, Lyon and Marseille is at its own point: precision postcode", () => {
    const two = (n: number) => String(n).padStart(2, '0')
    const codes = [
      ...Array.from({ length: 20 }, (_, i) => `750${two(i + 1)} Paris`),
      ...Array.from({ length: 9 }, (_, i) => `6900${i + 1} Lyon`),
      ...Array.from({ length: 16 }, (_, i) => `130${two(i + 1)} Marseille`),
      'Place Bellecour, 69002 Lyon, France',
      '75116 Paris',
    ]
    for (const address of codes)
      expect({ address, precision: geo.lookup(address)?.precision }).toEqual({ address, precision: 'postcode' })
    // A commune La Poste routes through the 16th's code is at its own town's point, not the code's.
    expect(geo.lookup('75016 Boulogne-Billancourt')!.precision).toBe('city')
  })
  test("a quarter the address names within an arrondissement's code still places it there: Bonneveine, L'Estaque", () => {
    // Marseille's arrondissements are kilometres across: the quarter's point is the nearer.
    const bonneveine = geo.lookup('Bonneveine, 13008 Marseille')!
    expect(bonneveine.parts.city).toBe('Bonneveine')
    expect(distanceKm(bonneveine.lat, bonneveine.lng, 43.25, 5.3833)).toBeLessThan(0.5)
    expect(bonneveine.precision).toBe('city')
    const estaque = geo.lookup("L'Estaque, 13016 Marseille")!
    expect(estaque.parts.city).toBe("L'Estaque")
    expect(distanceKm(estaque.lat, estaque.lng, 43.3638, 5.3085)).toBeLessThan(0.5)
    // Without a quarter, the arrondissement's own point, as a postcode's.
    expect(geo.lookup('13008 Marseille')!.precision).toBe('postcode')
  })
  test('"1130 Wien" is Hietzing, the 13th district, not Vienna\'s centre; a district named after the dash keeps it', () => {
    const vienna = geo.lookup('Wien')!
    const r = geo.lookup('Maxingstraße 13, 1130 Wien')!
    expect(r.parts).toEqual({ street: 'Maxingstraße 13', city: 'Wien', postcode: '1130', country: 'AT' })
    expect(r.precision).toBe('postcode')
    expect(distanceKm(r.lat, r.lng, 48.1878, 16.3004)).toBeLessThan(1) // Hietzing's district office
    expect(distanceKm(r.lat, r.lng, vienna.lat, vienna.lng)).toBeGreaterThan(4)
    // Schönbrunn, in the 13th, within 2 km of its code's point (5 km from Vienna's).
    const palace = geo.lookup('Schloss Schönbrunn, Schönbrunner Schloßstraße 47, 1130 Wien, Österreich')!
    expect(distanceKm(palace.lat, palace.lng, 48.1845, 16.3122)).toBeLessThan(2)
    // The gazetteer's Hernals is 5 km from its office, in the Wienerwald: the code's point stays.
    const hernals = geo.lookup('1170 Wien-Hernals')!
    expect(distanceKm(hernals.lat, hernals.lng, 48.2177, 16.3318)).toBeLessThan(0.5)
  })
  test('a town found by an alternate name reports the gazetteer name', () => {
    expect(geo.lookup('Wien')!.parts).toEqual({ city: 'Vienna', country: 'AT' })
  })

  test('before a dash, a town of 20,000 people or more is the town of a district; a village is not', () => {
    expect(geo.lookup('Wien-Xyzzy')!.parts).toEqual({ city: 'Vienna', country: 'AT' })
    // The district after the dash refines its town only; it is never a town of its own.
    expect(geo.lookup('Berlin-Spandau')!.parts).toEqual({ city: 'Spandau', country: 'DE' })
    expect(geo.lookup('Xyzzy-Spandau')).toBeNull()
    // Vienna's districts are their postcodes' points (embedded-written.test.ts).
    expect(geo.lookup('Wien-Favoriten')!.parts).toEqual({ city: 'Wien', postcode: '1100', country: 'AT' })
    // Frasne is a village of about two thousand: "Frasne-Xyzzy" is no district of it.
    expect(geo.lookup('Frasne-Xyzzy, France')).toBeNull()
    expect(geo.lookup('Frasne, France')!.parts).toEqual({ city: 'Frasne', country: 'FR' })
  })
})

describe('refuses to guess', () => {
  // The last three name towns that have a namesake abroad at least half as big: ambiguous without a country.
  for (const address of [
    '',
    '   ',
    'asdfgh qwerty',
    'Nowhere Land',
    '12345',
    'Main Street 5',
    'Salamanca',
    'Barcelona',
    'Cambridge',
  ]) {
    test(JSON.stringify(address), () => expect(geo.lookup(address)).toBeNull())
  }
  test('an address ending in a region whose towns it names none of: null, not a namesake elsewhere', () => {
    for (const address of [
      '100 Main Street, New Jersey',
      'Xyzzyville, New Jersey',
      '100 Main Street, Rhode Island',
      '10 George Street, New South Wales',
      '12 Elm St, Xyzzyville, Norfolk',
      '12 Elm St, Xyzzyville, Western Australia',
      'Lavras, Georgia',
    ]) {
      expect({ address, got: geo.lookup(address) }).toEqual({ address, got: null })
    }
  })
  test('the same names resolve once the country, a region or a state is given', () => {
    expect(geo.lookup('Salamanca, España')!.parts.country).toBe('ES')
    expect(geo.lookup('Barcelona, Spain')!.parts.country).toBe('ES')
    expect(geo.lookup('Cambridge, MA')!.parts).toMatchObject({ country: 'US', region: 'MA' })
    expect(geo.lookup('St Ives, Cornwall')!.parts.country).toBe('GB') // a county names the country
    expect(geo.lookup('Granada, Andalucía')!.parts.country).toBe('ES')
  })
  test('an address that is only a country is a town of that country (a city-state) or null, not a namesake abroad', () => {
    // USA: Usa River (Tanzania); Brazil: Brazil, Indiana; Canada: La Cañada (Mexico), before.
    // A country's own code in capitals too: "US" is no Us, France (a village); a city-state's
    // code is the country, not its city, though its name is.
    for (const address of [
      'USA',
      'US',
      'GB',
      'SG',
      'MC',
      'SM',
      'HK',
      'Brazil',
      'Canada',
      'France',
      'usa',
      'Moldova',
      'Laos',
      'Burma',
      'Cabo Verde',
      'Holland',
      'Deutschland',
    ]) {
      expect({ address, got: geo.lookup(address) }).toEqual({ address, got: null })
    }
    for (const [address, country] of [
      ['Singapore', 'SG'],
      ['Monaco', 'MC'],
      ['San Marino', 'SM'],
      ['Luxembourg', 'LU'],
    ] as const) {
      expect({ address, country: geo.lookup(address)?.parts.country }).toEqual({ address, country })
    }
    // A big town's own name that is a country's in some language is the town; codes are towns' names too.
    for (const [address, country] of [
      ['Salvador', 'BR'],
      ['Granada', 'ES'],
      ['Franca', 'BR'],
      ['Armenia', 'CO'],
      ['Bo', 'SL'],
      ['Man', 'CI'],
      ['Bra', 'IT'],
    ] as const) {
      expect({ address, country: geo.lookup(address)?.parts.country }).toEqual({ address, country })
    }
    // With a town before it, as before.
    expect(geo.lookup('Brazil, Indiana')!.parts).toMatchObject({ city: 'Brazil', region: 'IN', country: 'US' })
    expect(geo.lookup('Rio de Janeiro, Brazil')!.parts.country).toBe('BR')
  })
  test('a named country is never left: a town it lacks gives null, not a namesake abroad', () => {
    const r = geo.lookup('Springfield, Germany')
    if (r !== null) expect(r.parts.country).toBe('DE')
    expect(geo.lookup('Paris, USA')!.parts.country).toBe('US')
    // Without commas too.
    expect(geo.lookup('Paris USA')!.parts.country).toBe('US')
    const bare = geo.lookup('Springfield Germany')
    if (bare !== null) expect(bare.parts.country).toBe('DE')
  })
})

test('any text (fast-check): a result with a point on Earth and a known precision, or null; never a throw', () => {
  const word = fc.oneof(
    fc.constantFrom(
      'Paris',
      'Springfield',
      'München',
      'Straße',
      'St.',
      'NY',
      '10001',
      'SW1A 2AA',
      '75007',
      'Cedex',
      'CA',
      'France',
      'UK',
      'Москва',
      '東京',
      ',',
      '-',
      '#',
      '/',
      '%',
      "'",
      '\u0000',
    ),
    fc.string({ maxLength: 10 }),
    fc.string({ unit: 'grapheme', maxLength: 6 }),
    fc.integer({ min: 0, max: 99999 }).map(String),
  )
  const address = fc.oneof(
    fc.array(word, { maxLength: 10 }).map((w) => w.join(' ')),
    fc.string({ maxLength: 300 }),
    fc.constant('x'.repeat(5000)),
  )
  fc.assert(
    fc.property(address, (text) => {
      const r = geo.lookup(text)
      if (r === null) return
      expect({
        text,
        lat: Math.abs(r.lat) <= 90,
        lng: Math.abs(r.lng) <= 180,
        precision: (PRECISIONS as readonly string[]).includes(r.precision),
      }).toEqual({
        text,
        lat: true,
        lng: true,
        precision: true,
      })
    }),
    { numRuns: 1000 },
  )
})

test('geocode() answers as lookup() does', async () => {
  expect(await geo.geocode('Firenze, Italia')).toEqual(geo.lookup('Firenze, Italia'))
})

test('the data file is rebuilt when its version changes, and refused until then', async () => {
  const dir = tempDir()
  try {
    const path = join(dir, 'geo.sqlite')
    copyFileSync(DEFAULT_GEODATA_PATH, path)
    const db = new Database(path)
    db.run("UPDATE meta SET value = 'old' WHERE key = 'version'")
    db.close()
    expect(() => openEmbeddedGeocoder(path)).toThrow(/version old/)
    const said: string[] = []
    await ensureGeodata(path, (line) => said.push(line))
    expect(geodataVersion(path)).toBe(GEODATA_VERSION)
    expect(said.join('\n')).toContain('Offline geocoder ready')
    const again = openEmbeddedGeocoder(path)
    expect(again.lookup('Wien')!.parts.country).toBe('AT')
    again.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 120_000)

test('POST /admin/v1/locations with an address only is geocoded offline, with precision and source', async () => {
  const dir = tempDir()
  const store = openStore(join(dir, 'db.sqlite'))
  try {
    const app = createApp({
      store,
      geocoder: cachedGeocoder(geo, store.geocodeCache),
      config: { maxBodyBytes: 262144, logRequests: false },
      log: () => {},
    })
    const { secret } = createLocator(store, 'Geo')
    const res = await app.handle(
      new Request('http://localhost/admin/v1/locations', {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Milan store', address: 'Piazza del Duomo, 20122 Milano, Italia' }),
      }),
    )
    expect(res.status).toBe(201)
    const { location } = (await res.json()) as any
    expect(distanceKm(location.coordinates.lat, location.coordinates.lng, 45.4642, 9.19)).toBeLessThan(3)
    expect(location.geocoding).toEqual({ precision: 'city', source: 'embedded' })
  } finally {
    store.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

test('the configured stack caches embedded answers under the data and resolver versions and purges expired rows on start', async () => {
  const dir = tempDir()
  const store = openStore(join(dir, 'db.sqlite'))
  try {
    await store.geocodeCache.put('embedded@old', 'wien', null, 0, 1) // long expired
    const stack = await createGeocoder(
      {
        provider: 'embedded',
        url: null,
        apiKey: null,
        userAgent: 'test',
        timeoutMs: 1000,
        dataPath: DEFAULT_GEODATA_PATH,
      },
      store,
    )
    const first = await stack.geocoder.geocode('Wien')
    expect(first!.parts.country).toBe('AT')
    const rows = store.db.query('SELECT provider, query FROM geocode_cache ORDER BY provider').all()
    expect(rows).toEqual([{ provider: `embedded@${GEODATA_VERSION}.${RESOLVER_VERSION}`, query: 'Wien' }])
    stack.close()
  } finally {
    store.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

test('addresses that share a cache key get one answer, the street as written included: spacing, tabs, composed accents', () => {
  const pairs: [string, string][] = [
    ['Chelsea\tKings  Road, M5V\t3L9', 'Chelsea Kings Road, M5V 3L9'],
    ['12  Rue de  Rivoli , 75001 Paris', '12 Rue de Rivoli, 75001 Paris'],
    ['Calle de Alcala\u0301 1, 28014 Madrid', 'Calle de Alcalá 1, 28014 Madrid'],
  ]
  for (const [a, b] of pairs) {
    expect(normalizeAddress(a)).toBe(normalizeAddress(b))
    expect({ a, got: geo.lookup(a) }).toEqual({ a, got: geo.lookup(b) })
    expect(geo.lookup(a)).not.toBeNull()
  }
})

test('cached answers (fast-check): each address gets the answer lookup() gives it, whatever was asked before', async () => {
  // Addresses that differ in case, separators and spacing: the resolver reads some of them apart
  // ("Paris, TX" a state, "paris, tx" words; a line break or ";" splits parts, a space does not).
  const piece = fc.constantFrom(
    'Paris',
    'paris',
    'PARIS',
    'TX',
    'tx',
    'London',
    'ON',
    'on',
    'Kings Road',
    'Chelsea',
    'M5V 3L9',
    'm5v 3l9',
    'Springfield',
    'IL',
    'il',
    'USA',
    'St.',
    '12',
  )
  const separator = fc.constantFrom(', ', ',', ' , ', ' ', '  ', '\t', '; ', '\n', '\r\n', '\r', ' | ', '.')
  const address = fc
    .tuple(fc.array(fc.tuple(piece, separator), { maxLength: 4 }), piece)
    .map(([pairs, last]) => pairs.map(([p, sep]) => p + sep).join('') + last)
  const store = openStore(':memory:')
  try {
    let t = 0
    await fc.assert(
      fc.asyncProperty(fc.array(address, { minLength: 1, maxLength: 6 }), async (addresses) => {
        const cached = cachedGeocoder(geo, store.geocodeCache, { hitMs: 1e12, missMs: 1e12 }, () => ++t)
        for (const text of addresses) {
          const answer = await cached.geocode(text)
          const got: GeocodeResult | null = answer === null ? null : { ...answer, obtainedAt: undefined }
          expect({ text, got }).toEqual({ text, got: geo.lookup(text) })
        }
      }),
      { numRuns: 300 },
    )
  } finally {
    store.close()
  }
})
