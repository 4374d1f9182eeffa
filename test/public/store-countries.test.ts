// The countries a locator has locations in (src/api/public/store-countries.ts), as GET /places
// prefers their places: through the index API and the real reverse lookup, its lookups counted.
import { afterAll, describe, expect, test } from 'bun:test'
import { storeCountries } from '../../src/api/public/store-countries'
import { type IndexDoc, LocatorIndex } from '../../src/engine/locator-index'
import { DEFAULT_GEODATA_PATH } from '../../src/geocode/embedded/build'
import { placeSearchAt } from '../../src/geocode/embedded/place-source'

const real = placeSearchAt(DEFAULT_GEODATA_PATH)
let asked = 0
const reverse = real.reverse()
const counted = new Proxy(reverse, {
  get: (target, name) =>
    name === 'at'
      ? (lat: number, lng: number) => {
          asked++
          return target.at(lat, lng)
        }
      : Reflect.get(target, name),
})
const places = Object.assign(() => real(), { warm: real.warm, version: real.version, reverse: () => counted })

/** Location n of a grid around Berlin (even n) or Paris (odd n). */
function doc(n: number): IndexDoc {
  const [lat, lng] = n % 2 === 0 ? [52.45, 13.3] : [48.8, 2.25]
  const at = Math.floor(n / 2)
  return {
    id: `loc_${n}`,
    lat: lat + (at % 60) * 0.003,
    lng: lng + Math.floor(at / 60) * 0.003,
    json: null,
    nameSort: `s${n}`,
    rank: 0,
    tags: [],
    text: `s${n}`,
  }
}

describe('storeCountries', () => {
  const index = new LocatorIndex(Array.from({ length: 4000 }, (_, n) => doc(n)))
  afterAll(() => index.dispose())

  test('finds the countries of its locations from a sample of them', () => {
    asked = 0
    expect([...storeCountries(index, places)].sort()).toEqual(['DE', 'FR'])
    expect(asked).toBeGreaterThan(0)
    expect(asked).toBeLessThan(400)
  })

  test('after each of 40 writes, one at a time, looks up again at most the points written', () => {
    storeCountries(index, places)
    asked = 0
    for (let n = 0; n < 20; n++) {
      index.remove(`loc_${n * 97}`)
      expect([...storeCountries(index, places)].sort()).toEqual(['DE', 'FR'])
      index.upsert(doc(4000 + n))
      expect([...storeCountries(index, places)].sort()).toEqual(['DE', 'FR'])
    }
    expect(asked).toBeLessThanOrEqual(40)
  })

  test('a location moved abroad among a few: its country is found', () => {
    const small = new LocatorIndex(Array.from({ length: 10 }, (_, n) => doc(2 * n)))
    expect([...storeCountries(small, places)]).toEqual(['DE'])
    small.upsert({ ...doc(2), lat: 48.86, lng: 2.35 })
    expect([...storeCountries(small, places)].sort()).toEqual(['DE', 'FR'])
    small.dispose()
  })
})
