// The reverse lookup through its API: the town, region, country and postcode at a point, from the
// embedded data alone, and a town's names.
import { describe, expect, test } from 'bun:test'
import { DEFAULT_GEODATA_PATH } from '../../src/geocode/embedded/build'
import { ANSWERS_KEPT, reverseLookupAt } from '../../src/geocode/embedded/reverse'

const towns = reverseLookupAt(DEFAULT_GEODATA_PATH)
const cityAt = (lat: number, lng: number) => towns.at(lat, lng)?.parts.city

describe('the town at a point', () => {
  test("a town's districts and sections are the town", () => {
    expect(cityAt(50.9413, 6.9583)).toBe('Köln') // by the cathedral, in Altstadt Nord
    expect(cityAt(50.951, 6.917)).toBe('Köln') // Neuehrenfeld
    expect(cityAt(52.499, 13.403)).toBe('Berlin') // Kreuzberg
    expect(cityAt(51.513, -0.136)).toBe('London') // Soho, beside Holborn (a place of its own in the data)
    expect(cityAt(49.28, -123.12)).toBe('Vancouver') // not its West End
  })

  test('a town beside a bigger one is itself; away from every reach, the nearest town; at sea, none', () => {
    expect(cityAt(48.8397, 2.2399)).toBe('Boulogne-Billancourt')
    expect(cityAt(40.678, -73.944)).toBe('Brooklyn')
    expect(cityAt(47.2, 0.9)).toBe('Reignac-sur-Indre') // 25 km from Tours, outside its reach
    expect(towns.at(40, -40)).toBeNull()
  })

  test('the region is written as the geocoder writes it, where the country has codes; the country is its ISO code', () => {
    expect(towns.at(-33.87, 151.21)?.parts).toMatchObject({ city: 'Sydney', region: 'NSW', country: 'AU' })
    expect(towns.at(43.6532, -79.3832)?.parts).toMatchObject({ city: 'Toronto', region: 'ON', country: 'CA' })
    expect(towns.at(48.1374, 11.5755)?.parts).toEqual({ city: 'Munich', country: 'DE' })
  })
})

describe('the postcode at a point', () => {
  test("the town's postcode, where the data has only one for it", () => {
    expect(towns.at(44.3876, -68.2039)).toEqual({
      precision: 'postcode',
      parts: { city: 'Bar Harbor', region: 'ME', country: 'US', postcode: '04609' },
    })
    expect(towns.at(47.2, 0.9)).toEqual({
      precision: 'postcode',
      parts: { city: 'Reignac-sur-Indre', country: 'FR', postcode: '37310' },
    })
    expect(towns.at(48.917, 11.886)?.parts.postcode).toBe('93309') // Kelheim
  })

  test('none for a town with several (the nearest postcode point is too often wrong), or where the data has none', () => {
    expect(towns.at(39.78, -89.65)).toEqual({
      precision: 'city',
      parts: { city: 'Springfield', region: 'IL', country: 'US' },
    })
    expect(towns.at(40.4168, -3.7038)).toEqual({ precision: 'city', parts: { city: 'Madrid', country: 'ES' } })
    expect(towns.at(50.9375, 6.9603)).toEqual({ precision: 'city', parts: { city: 'Köln', country: 'DE' } })
    expect(towns.at(51.513, -0.136)).toEqual({ precision: 'city', parts: { city: 'London', country: 'GB' } })
  })
})

describe('the town and postcode at a point, as its address writes them', () => {
  test('the town the address names, when its reach holds the point and the town at the point is not named', () => {
    const grove = '7 Grove Street, Jersey City, NJ 07302, USA'
    expect(cityAt(40.7178, -74.0431)).toBe('New York City') // by reach
    expect(towns.writtenAt(40.7178, -74.0431, grove)).toEqual({
      precision: 'postcode',
      parts: { city: 'Jersey City', region: 'NJ', country: 'US', postcode: '07302' },
    })
    // Ixelles by reach; the address says Bruxelles.
    expect(towns.writtenAt(50.8278, 4.3631, 'Rue de la Paix 123, 1050 Bruxelles')?.parts.city).toBe('Brussels')
    // A suburb written with its state's code and postcode in one piece.
    expect(towns.writtenAt(-33.8915, 151.2767, 'Bondi Beach NSW 2026, Australia')?.parts.city).toBe('Bondi Beach')
    // A town named far from the point is not its town; nor a street that bears a town's name.
    expect(towns.writtenAt(40.7178, -74.0431, '7 Grove Street, Boston, MA')?.parts.city).toBe('New York City')
    expect(towns.writtenAt(52.5301, 13.4016, 'Potsdamer Straße 5, Berlin')?.parts.city).toBe('Berlin')
  })

  test("a postcode the address writes, when it is one of the town's in the data; not a number before the first comma", () => {
    expect(towns.writtenAt(52.5301, 13.4016, 'Torstraße 5, 10119 Berlin')?.parts.postcode).toBe('10119')
    expect(towns.writtenAt(40.7484, -73.9857, '350 5th Ave, New York, NY 10118')?.parts.postcode).toBe('10118')
    expect(towns.writtenAt(52.5301, 13.4016, 'Torstraße 10119, Berlin')?.parts.postcode).toBeUndefined()
    expect(towns.writtenAt(52.5301, 13.4016, 'Torstraße 5, 99999 Berlin')?.parts.postcode).toBeUndefined()
    expect(towns.writtenAt(52.5301, 13.4016, 'Torstraße 5 10119 Berlin')?.parts.postcode).toBe('10119') // no comma
    expect(towns.writtenAt(40, -40, 'Mid-Atlantic')).toBeNull()
  })
})

describe("a town's names", () => {
  test('by any of its names, the nearest town of that name within 30 km', () => {
    const koeln = towns.townNamed('Köln', 50.94, 6.96)
    expect(towns.townNamed('Cologne', 50.9, 7.0)).toBe(koeln)
    expect(towns.townNamed('KOELN', 50.94, 6.96)).toBe(koeln)
    expect(towns.townNamed('Köln', 48.85, 2.35)).toBe(-1) // far from any Köln
    expect(towns.townNamed('', 50.94, 6.96)).toBe(-1)
    const portlandOR = towns.townNamed('Portland', 45.52, -122.68)
    const portlandME = towns.townNamed('Portland', 43.66, -70.26)
    expect(portlandOR).not.toBe(portlandME)
  })

  test('its words: the main name first, then the others, folded, each once, without fragments of broken transliterations', () => {
    const words = towns.namesOf(towns.townNamed('Köln', 50.94, 6.96)).split(' ')
    expect(words.slice(0, 2).sort()).toEqual(['koeln', 'koln'])
    for (const w of ['cologne', 'colonia', 'keulen', 'kolonia']) expect(words).toContain(w)
    expect(new Set(words).size).toBe(words.length)
    for (const w of words) {
      expect(w).toMatch(/^[a-z0-9]+$/)
      expect(w.length).toBeGreaterThanOrEqual(3)
    }
    expect(words).not.toContain('oln') // from "k oln"
    expect(words).not.toContain('klwn') // no vowel
    expect(words.length).toBeLessThanOrEqual(2 + 48)
    expect(towns.namesOf(towns.townNamed('Lisboa', 38.71, -9.14)).split(' ')).toEqual(
      expect.arrayContaining(['lisbon', 'lisboa', 'lissabon']),
    )
  })
})

describe('what it keeps', () => {
  test('at most ANSWERS_KEPT answers, however many addresses name towns it has never seen', () => {
    const koeln = towns.townNamed('Köln', 50.94, 6.96)
    // Each address a sync writes asks for the towns its pieces name: ever-new words, each asked of SQLite once.
    for (let i = 0; i <= ANSWERS_KEPT; i++) towns.townNamed(`Nowhere ${i.toString(36)}`, 50.94, 6.96)
    expect(towns.answersKept).toBeLessThanOrEqual(ANSWERS_KEPT)
    expect(towns.townNamed('Köln', 50.94, 6.96)).toBe(koeln) // let go, asked again
  })
})
