// near= on GET /locations: the best place GET /places finds is the centre, a region's or
// country's radius its reach; a text that names no place says why.
import { describe, expect, test } from 'bun:test'
import { get, ids, places, token, usePlacesEnv } from './places-fixture'

usePlacesEnv()

describe('near= on GET /locations', () => {
  test('the best place is the centre: the same answer as its coordinates, and meta says which place', async () => {
    const near = await get(`${token}/locations?near=Lond&radius=30&unit=km`)
    expect(near.status).toBe(200)
    const center = near.body.meta.query.center
    expect(center.label).toBe('London, United Kingdom')
    const byCoords = await get(`${token}/locations?lat=${center.lat}&lng=${center.lng}&radius=30&unit=km`)
    expect(near.body.data.locations.map((l: any) => l.id)).toEqual(byCoords.body.data.locations.map((l: any) => l.id))
    expect(near.body.data.locations.map((l: any) => l.id)).toEqual([ids.soho, ids.camden, ids.croydon])
    expect(byCoords.body.meta.query.center.label).toBeUndefined()
    // lang names the label's country as GET /places does; the centre is the same.
    const german = await get(`${token}/locations?near=Lond&radius=30&unit=km&lang=de`)
    expect(german.body.meta.query.center).toEqual({ ...center, label: 'London, Vereinigtes Königreich' })
    expect(german.body.data.locations).toEqual(near.body.data.locations)
    expect((await get(`${token}/locations?near=Lond&radius=30&unit=km&lang=pt`)).body.meta.query.center).toEqual(center)
    // An exonym, and other parameters beside it.
    const cologne = await get(`${token}/locations?near=Cologne&radius=10&unit=km&open_now=false`)
    expect(cologne.body.data.locations.map((l: any) => l.id)).toEqual([ids.koeln])
  })

  test('a region or country as the centre: the radius reaches most of its towns, at least', async () => {
    // Germany's centre is its towns' centre, near Kassel: Köln is 200 km from it, London 700.
    const germany = await get(`${token}/locations?near=Germany&unit=km`)
    expect(germany.body.meta.query.center.label).toBe('Germany')
    expect(germany.body.meta.query.radius).toBeGreaterThan(250)
    expect(germany.body.meta.query.radius).toBeLessThan(500)
    expect(germany.body.data.locations.map((l: any) => l.id)).toEqual([ids.koeln])
    // The same reach in miles.
    const miles = await get(`${token}/locations?near=Germany`)
    expect(Math.abs(miles.body.meta.query.radius - germany.body.meta.query.radius / 1.609344)).toBeLessThan(1)
    // A smaller radius sent is widened to the reach (a store finder's 25 miles); a larger one is kept.
    const small = await get(`${token}/locations?near=Germany&radius=10&unit=km`)
    expect(small.body.meta.query.radius).toBe(germany.body.meta.query.radius)
    const large = await get(`${token}/locations?near=Germany&radius=900&unit=km`)
    expect(large.body.meta.query.radius).toBe(900)
    // A region that shares its name with the country's alias is the region.
    const england = await get(`${token}/locations?near=England`)
    expect(england.body.meta.query.center.label).toBe('England, United Kingdom')
    expect(england.body.data.locations.map((l: any) => l.id).sort()).toEqual([ids.soho, ids.camden, ids.croydon].sort())
    // A region alike: California's towns lie 400 km and more apart; a town keeps the default.
    const california = await get(`${token}/locations?near=California&unit=km`)
    expect(california.body.meta.query.radius).toBeGreaterThan(300)
    expect((await get(`${token}/locations?near=Sacramento`)).body.meta.query.radius).toBe(25)
  })

  test('a text that names no place is 400 PLACE_NOT_FOUND; near with lat/lng or all=true is 400 INVALID_PARAMETER', async () => {
    const none = await get(`${token}/locations?near=xyzqxyzq`)
    expect(none.status).toBe(400)
    expect(none.body.error.code).toBe('PLACE_NOT_FOUND')
    expect(none.body.error.message).toContain('xyzqxyzq')
    // A postcode of a country the data has no postcodes of says so.
    for (const [q, country] of [
      ['E1 6NF', 'United Kingdom'],
      ['1012 JW', 'Netherlands'],
    ]) {
      const res = await get(`${token}/locations?near=${encodeURIComponent(q!)}`)
      expect(res.body.error).toMatchObject({
        code: 'PLACE_NOT_FOUND',
        message: `near "${q}" looks like a postcode of ${country}, whose postcodes the place data does not have: send a town instead. GET /places suggests places as a visitor types.`,
      })
    }
    // A postcode the text only begins is no answer to near=, though GET /places suggests it as one
    // types: "1012" (Amsterdam) is not 10120 (Spain), "E1" (London) not E1A (Canada).
    for (const q of ['1012', 'E1']) {
      const res = await get(`${token}/locations?near=${q}`)
      expect({ q, code: res.body.error?.code }).toEqual({ q, code: 'PLACE_NOT_FOUND' })
    }
    expect((await places('1012')).some((p) => p.label.startsWith('1012'))).toBe(true)
    expect((await get(`${token}/locations?near=1012`)).body.error.message).toContain(
      'is no postcode the place data has; it may be one of Austria, Switzerland, Belgium, Denmark, Norway, Netherlands, whose',
    )
    expect((await get(`${token}/locations?near=10115`)).body.meta.query.center.label).toBe('10115 Berlin, Germany')
    // Digits alone name a place whole or none: no town a typo away.
    expect((await get(`${token}/locations?near=10`)).body.error?.code).toBe('PLACE_NOT_FOUND')
    // "near me" is the visitor's own position, not a town a typo away (Néa Mesimvría).
    for (const q of ['near me', 'Near me', 'in meiner Nähe', 'près de moi']) {
      const res = await get(`${token}/locations?near=${encodeURIComponent(q)}`)
      expect(res.body.error).toMatchObject({
        code: 'PLACE_NOT_FOUND',
        message: `near "${q}" asks for the visitor's own position, which only their browser knows: send lat and lng from it instead. GET /places suggests places as a visitor types.`,
      })
      expect(await places(q)).toEqual([])
    }
    for (const qs of ['near=Lond&lat=51.5&lng=-0.1', 'near=Lond&lat=51.5', 'near=Lond&all=true']) {
      const res = await get(`${token}/locations?${qs}`)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('INVALID_PARAMETER')
      expect(res.body.error.message).toContain('near')
    }
    // Empty: no centre named, as if not sent.
    expect((await get(`${token}/locations?near=`)).body.error.code).toBe('MISSING_COORDINATES')
  })
})
