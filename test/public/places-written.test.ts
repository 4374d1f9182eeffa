// Postcodes and districts in GET /places and near= as addresses write them: after the country's
// vehicle code and a dash ("A-1130 Wien", "D-80331 München"), and a district by its number
// ("Wien 13", "Wien XIII", "13. Bezirk", "Paris 16e") or, in Vienna, by its name ("Wien-Hernals").
import { describe, expect, test } from 'bun:test'
import { distanceKm } from '../../src/geocode/embedded/near'
import { get, places, token, usePlacesEnv } from './places-fixture'

usePlacesEnv()

const labels = async (q: string, more = '') => (await places(q, more)).map((p) => p.label)

/** District offices and town halls: Hietzing's, Hernals', Paris 16e's. */
const HIETZING = { lat: 48.1878, lng: 16.3004 }
const HERNALS = { lat: 48.2177, lng: 16.3318 }
const HALL_16 = { lat: 48.8637, lng: 2.2765 }

describe("a postcode after its country's vehicle code and a dash", () => {
  test('"A-1130" is Vienna\'s 1130, not Adelaide and Amsterdam, alone, beside its town, and in near=', async () => {
    for (const q of ['A-1130', 'A-1130 Wien', 'A - 1130 Wien', 'a-1130 wien', 'A–1130 Wien', 'A-1130 Wi'])
      expect({ q, labels: await labels(q) }).toEqual({ q, labels: ['1130 Wien, Austria'] })
    const res = await get(`${token}/locations?near=${encodeURIComponent('A-1130 Wien')}`)
    expect(res.status).toBe(200)
    expect(res.body.meta.query.center).toMatchObject({ label: '1130 Wien, Austria', lat: 48.18623, lng: 16.2965 })
  })

  test('is the code in that country only, for each country whose postcodes the data has', async () => {
    for (const [q, label] of [
      ['D-80331 München', '80331 München, Germany'],
      ['D-60311 Frankfurt am Main', '60311 Frankfurt am Main, Germany'],
      ['D-80331', '80331 München, Germany'],
      ['D-75015', '75015 Bretten, Germany'], // not Paris's 75015
      ['F-75015 Paris', '75015 Paris, France'],
      ['F-75015', '75015 Paris, France'],
      ['I-20121 Milano', '20121 Milano, Italy'],
      ['I-10121', '10121 Torino, Italy'],
      ['E-28010 Madrid', '28010 Madrid, Spain'],
      ['E-13001', '13001 Ciudad Real, Spain'], // not Marseille's 13001
      ['USA-10115', '10115 New York, NY, United States'], // not Berlin's
      ['AUS-2000 Sydney', '2000 Sydney, NSW, Australia'],
      ['CDN-M5V 2T6', 'M5V, Canada'],
    ] as const) {
      const found = await places(q)
      expect({ q, first: found[0]?.label }).toEqual({ q, first: label })
      expect({ q, countries: [...new Set(found.map((p) => p.country))] }).toEqual({ q, countries: [found[0].country] })
    }
  })

  test('begun, lists that country\'s codes so begun: "A-11" is Vienna\'s 1100 to 1140', async () => {
    expect(await labels('A-11')).toEqual([1100, 1110, 1120, 1130, 1140].map((c) => `${c} Wien, Austria`))
    expect((await labels('D-8033')).every((l) => /^8033\d München, Germany$/.test(l))).toBe(true)
  })

  test('of a country whose postcodes the data lacks finds the town beside it in that country', async () => {
    for (const [q, label] of [
      ['CH-8001 Zürich', 'Zürich, Switzerland'],
      ['NL-1012 AB Amsterdam', 'Amsterdam, Netherlands'],
      ['B-1000 Bruxelles', 'Bruxelles, Belgium'],
      ['L-1111 Luxembourg', 'Luxembourg, Luxembourg'],
      ['DK-1200 København', 'København, Denmark'],
    ] as const)
      expect({ q, first: (await labels(q))[0] }).toEqual({ q, first: label })
    // Alone, it is none of the data's: near= says whose it is.
    expect(await labels('CH-8001')).toEqual([])
    const res = await get(`${token}/locations?near=CH-8001`)
    expect(res.status).toBe(400)
    expect(res.body.error.message).toContain('looks like a postcode of Switzerland, whose postcodes the place data')
    const near = async (q: string) => (await get(`${token}/locations?near=${encodeURIComponent(q)}`)).body.error.message
    expect(await near('L-1111')).toContain('looks like a postcode of Luxembourg, whose')
    expect(await near('NL-1012 AB')).toContain('looks like a postcode of Netherlands, whose')
    // Austria's outside Vienna: the data has some of Austria's codes, not this one.
    expect(await near('A-4020')).toContain('is no postcode the place data has; it may be one of Austria, whose')
  })
})

describe('a district written by its number or name', () => {
  test('"Wien 13", "Wien XIII", "13. Bezirk", "Wien-Hietzing" are Hietzing\'s 1130, at its office', async () => {
    for (const q of ['Wien 13', 'Wien XIII', 'Vienna 13', '13. Bezirk', 'XIII. Bezirk', 'Wien-Hietzing']) {
      const found = await places(q)
      expect({ q, labels: found.map((p) => p.label) }).toEqual({ q, labels: ['1130 Wien, Austria'] })
      expect(distanceKm(found[0].lat, found[0].lng, HIETZING.lat, HIETZING.lng)).toBeLessThan(1)
    }
    expect(await labels('Wien 1', '&lang=de')).toEqual(['1010 Wien, Österreich'])
    expect(await labels('Wien 23')).toEqual(['1230 Wien, Austria'])
  })

  test('"Wien-Hernals" and "1170 Wien-Hernals" are at Hernals\' office, not the gazetteer\'s point in the woods', async () => {
    for (const q of ['Wien-Hernals', '1170 Wien-Hernals', 'Wien Hernals', 'A-1170 Wien-Hernals']) {
      const found = await places(q)
      expect({ q, first: found[0]?.label }).toEqual({ q, first: '1170 Wien, Austria' })
      expect(distanceKm(found[0].lat, found[0].lng, HERNALS.lat, HERNALS.lng)).toBeLessThan(0.5)
    }
    expect((await labels('Wien-Landstraße'))[0]).toBe('1030 Wien, Austria')
    expect((await labels('Wien-Doebling'))[0]).toBe('1190 Wien, Austria')
  })

  test('"Paris 16", "Paris 16e", "Paris XVIe" are the 16th\'s 75016, at its town hall; Lyon\'s and Marseille\'s alike', async () => {
    for (const q of ['Paris 16', 'Paris 16e', 'Paris 16ème', 'Paris XVIe', 'Paris XVI']) {
      const found = await places(q)
      expect({ q, first: found[0]?.label }).toEqual({ q, first: '75016 Paris, France' })
      expect(distanceKm(found[0].lat, found[0].lng, HALL_16.lat, HALL_16.lng)).toBeLessThan(1)
    }
    expect((await labels('Paris 1er'))[0]).toBe('75001 Paris, France')
    expect((await labels('Lyon 3e'))[0]).toBe('69003 Lyon, France')
    expect((await labels('Marseille 1er'))[0]).toBe('13001 Marseille, France')
    const res = await get(`${token}/locations?near=${encodeURIComponent('Paris XVIe')}`)
    expect(res.body.meta.query.center).toMatchObject({ label: '75016 Paris, France' })
  })

  test('a number past the last district, or a street before it, is read as before', async () => {
    expect(await labels('Wien 24')).toEqual([])
    expect((await labels('Paris 21'))[0]).toBe('Paris, France')
    expect(await labels('Maxingstraße 13, Wien 13')).toEqual(['1130 Wien, Austria'])
  })

  test('a code begun beside its town\'s name begun is that code: "1130 Wi", though "1130 WI" may be Dutch', async () => {
    expect(await labels('1130 Wi')).toEqual(['1130 Wien, Austria'])
    expect(await labels('1012 JW')).toEqual([]) // Amsterdam's, which the data lacks
  })
})

describe("a Brazilian state's letters after a slash", () => {
  test('read as after a spaced dash: "São Paulo/SP" is São Paulo, not São Paulo de Olivença', async () => {
    for (const [q, label] of [
      ['São Paulo/SP', 'São Paulo, Brazil'],
      ['Belo Horizonte/MG', 'Belo Horizonte, Brazil'],
      ['Belo Horizonte / MG', 'Belo Horizonte, Brazil'],
    ] as const)
      expect({ q, label: (await labels(q))[0] }).toEqual({ q, label })
    const res = await get(`${token}/locations?near=${encodeURIComponent('São Paulo/SP')}`)
    expect(res.status).toBe(200)
    expect(res.body.meta.query.center).toMatchObject({ label: 'São Paulo, Brazil' })
  })
  test("read as an Italian province's brackets where no town of the name lies in the state", async () => {
    for (const q of ['Riccione/RN', 'Susa/TO', 'Casale Monferrato/AL'])
      expect({ q, label: (await labels(q))[0] }).toEqual({ q, label: (await labels(`${q.replace('/', ' (')})`))[0] })
    expect((await labels('Riccione/RN'))[0]).toContain('Italy')
  })
})
