// The embedded geocoder on a Mexican state's letters after the town ("Guadalajara, JAL",
// "Victoria, TAMPS"), which the data's regions lack: read as the state, as a US state's are.
import { describe, expect, test } from 'bun:test'
import { geo, useEmbeddedGeocoder } from './embedded-fixture'

useEmbeddedGeocoder()

describe("a Mexican state's letters after the town", () => {
  test("narrow it to the state, before a bigger namesake elsewhere; a province's or a country's stay so", () => {
    for (const [address, city, lat] of [
      ['Victoria, TAMPS', 'Ciudad Victoria', 23.7], // not Victoria, Hong Kong
      ['La Paz, BCS', 'La Paz', 24.1], // not La Paz, Bolivia
      ['Valladolid, YUC', 'Valladolid', 20.7], // not Valladolid, Spain
      ['Córdoba, VER', 'Córdoba', 18.9], // not Córdoba, Argentina
      ['Guadalupe, ZAC', 'Guadalupe', 22.7], // not the bigger one of Nuevo León
      ['Allende, NL', 'Ciudad de Allende', 25.3], // not Allende, Veracruz
      ['Ensenada, BC', 'Ensenada', 31.9],
      ['Salamanca, GTO', 'Salamanca', 20.6],
      ['San Pedro, COAH', 'San Pedro', 25.8],
      ['Toluca, Edomex', 'Toluca', 19.3],
    ] as const) {
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, country: r?.parts.country, lat: r?.lat.toFixed(1) }).toEqual({
        address,
        city,
        country: 'MX',
        lat: lat.toFixed(1),
      })
    }
    // Letters that are also a Canadian province's or a country's keep those.
    expect(geo.lookup('Vancouver, BC')?.parts.country).toBe('CA')
    expect(geo.lookup("St. John's, NL")?.parts.country).toBe('CA')
    expect(geo.lookup('Amsterdam, NL')?.parts.country).toBe('NL')
  })

  test('not in capitals, name no town by those letters where none of the state is named', () => {
    // "Col" is Colombia's and Colima's letters, and Col, Italy's other name: none of them here.
    for (const address of ['Centro, Col', 'Foobar, Col.'])
      expect({ address, found: geo.lookup(address) }).toEqual({ address, found: null })
    expect(geo.lookup('Colima, COL')?.parts.city).toBe('Colima')
    // "Col." is Colima's usual short form: read as its letters in capitals, Colombia's first.
    for (const [address, city, country] of [
      ['Colima, Col.', 'Colima', 'MX'],
      ['Colima, Col', 'Colima', 'MX'],
      ['Tecomán, Col.', 'Tecomán', 'MX'],
      ['Av. Rey Colimán 123, Colima, Col.', 'Colima', 'MX'],
      ['Manzanillo, col', 'Manzanillo', 'MX'],
      ['Bogotá, Col', 'Bogotá', 'CO'],
    ] as const) {
      const r = geo.lookup(address)
      expect({ address, city: r?.parts.city, country: r?.parts.country }).toEqual({ address, city, country })
    }
  })
})
