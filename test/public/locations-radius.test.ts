// GET /locations radius queries against the fixture's oracle: the default radius and the
// locator's configured one, units, distances measured from the centre sent.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { setLocatorSettings } from '../../src/operator'
import {
  appOn,
  CENTER,
  expectError,
  haversineKm,
  idsOf,
  KM_PER_MILE,
  LONDON,
  makeFixture,
  oracle,
  SEEDS,
  type Fixture,
} from './fixture'
import { NEAR, keysOf, expectDistances } from './locations-helpers'

describe('fixture sanity', () => {
  test('no published location sits within 50 m of a radius the tests use', () => {
    const published = SEEDS.filter((s) => s.status === undefined).map((s) => ({
      lat: s.lat ?? LONDON.lat,
      lng: s.lng ?? LONDON.lng,
    }))
    expect(published.length).toBe(27)
    for (const radiusKm of [25 * KM_PER_MILE, 25, 10 * KM_PER_MILE, 60, 50, 40, 100, 36 * KM_PER_MILE]) {
      for (const p of published) expect(Math.abs(haversineKm(CENTER, p) - radiusKm)).toBeGreaterThan(0.05)
    }
  })
})

describe('GET /locations radius queries', () => {
  let f: Fixture
  beforeAll(async () => {
    f = await makeFixture()
  })
  afterAll(() => f.env.close())

  test('default radius (25 miles): exactly the published locations within it, nearest first, distances in miles', async () => {
    const res = await f.get(f.url('/locations', `${NEAR}&limit=100`))
    expect(res.status).toBe(200)
    const want = oracle(f.locs, { center: CENTER, radiusKm: 25 * KM_PER_MILE })
    expect(want.length).toBe(19) // the fixture: 19 published within 25 miles, 'meaux' just inside
    expect(idsOf(res)).toEqual(want.map((h) => h.loc.id))
    expect(keysOf(f, res)).toContain('meaux')
    expect(keysOf(f, res)).not.toContain('fontainebleau')
    expect(keysOf(f, res)).not.toContain('hidden') // a draft, nearer than anything
    expectDistances(f, res, 'miles')
    const values = res.body.data.locations.map((l: { distance: { value: number } }) => l.distance.value)
    expect(values).toEqual([...values].sort((a, b) => a - b))
    expect(Object.keys(res.body).sort()).toEqual(['data', 'meta', 'success'])
    expect(res.body.success).toBe(true)
    expect(Object.keys(res.body.data).sort()).toEqual(['locations', 'pagination'])
    expect(res.body.meta).toEqual({ query: { center: CENTER, radius: 25, unit: 'miles' } })
    expect(res.body.data.pagination).toEqual({ offset: 0, limit: 100, total: 19, hasMore: false })
  })

  test('many asked at once each get their own answer', async () => {
    const queries = [
      `${NEAR}&limit=100`,
      `${NEAR}&unit=km&radius=5`,
      `lat=48.9&lng=2.3&radius=40&limit=3`,
      'all=true&limit=50',
      'all=true&offset=2&limit=1',
      `${NEAR}&tags[]=repair`,
      `lat=10&lng=10&radius=1`,
    ]
    const alone: string[] = []
    for (const qs of queries) alone.push((await f.get(f.url('/locations', qs))).text)
    expect(new Set(alone).size).toBe(queries.length)
    // Nothing kept: every answer is made, all of them in one turn; on the fast path and through
    // the app, whose Response is made after an await (its answers are copied out of the shared buffer).
    for (const publicFastPath of [true, false]) {
      const fresh = appOn(f.env, { publicFastPath })
      const together = await Promise.all(
        [...queries, ...queries].map((qs) => f.get(f.url('/locations', qs), { app: fresh })),
      )
      expect({ publicFastPath, texts: together.map((r) => r.text) }).toEqual({
        publicFastPath,
        texts: [...alone, ...alone],
      })
    }
  })

  test('unit=km: radius read in km and distances given in km', async () => {
    const res = await f.get(f.url('/locations', `${NEAR}&radius=60&unit=km&limit=100`))
    expect(res.status).toBe(200)
    const want = oracle(f.locs, { center: CENTER, radiusKm: 60 })
    expect(idsOf(res)).toEqual(want.map((h) => h.loc.id))
    expect(keysOf(f, res)).toContain('fontainebleau') // 56.4 km
    expect(keysOf(f, res)).not.toContain('beauvais') // 66.7 km
    expectDistances(f, res, 'km')
    expect(res.body.meta).toEqual({ query: { center: CENTER, radius: 60, unit: 'km' } })
  })

  test('unit=km with no radius: the default of 25 is read in km', async () => {
    const res = await f.get(f.url('/locations', `${NEAR}&unit=km&limit=100`))
    expect(res.status).toBe(200)
    expect(res.body.meta).toEqual({ query: { center: CENTER, radius: 25, unit: 'km' } })
    expect(idsOf(res)).toEqual(oracle(f.locs, { center: CENTER, radiusKm: 25 }).map((h) => h.loc.id))
    expect(keysOf(f, res)).not.toContain('cergy') // 28.4 km
    expectDistances(f, res, 'km')
  })

  test('an explicit radius in miles', async () => {
    const res = await f.get(f.url('/locations', `${NEAR}&radius=10&unit=miles&limit=100`))
    expect(res.status).toBe(200)
    expect(idsOf(res)).toEqual(oracle(f.locs, { center: CENTER, radiusKm: 10 * KM_PER_MILE }).map((h) => h.loc.id))
    expect(keysOf(f, res)).toContain('orly') // 9.03 miles
    expect(keysOf(f, res)).not.toContain('eagle') // 10.45 miles
    expectDistances(f, res, 'miles')
    expect(res.body.meta.query).toEqual({ center: CENTER, radius: 10, unit: 'miles' })
  })

  test('a large radius reaches every published location, however far', async () => {
    const res = await f.get(f.url('/locations', `${NEAR}&radius=1000&unit=km&limit=500`))
    expect(res.status).toBe(200)
    expect(res.body.data.pagination.total).toBe(27)
    expect(idsOf(res)).toEqual(oracle(f.locs, { center: CENTER, radiusKm: 1000 }).map((h) => h.loc.id))
    expect(keysOf(f, res).slice(-2)).toEqual(['london', 'lyon'])
    expectDistances(f, res, 'km')
  })

  test('a centre far from every location gives an empty page, not an error', async () => {
    const res = await f.get(f.url('/locations', 'lat=-33.86&lng=151.2'))
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ locations: [], pagination: { offset: 0, limit: 20, total: 0, hasMore: false } })
    expect(res.body.meta).toEqual({ query: { center: { lat: -33.86, lng: 151.2 }, radius: 25, unit: 'miles' } })
  })

  test('the centre is another point: distances are measured from it', async () => {
    const center = { lat: 49.4431, lng: 1.0993 } // Rouen
    const res = await f.get(f.url('/locations', `lat=${center.lat}&lng=${center.lng}&radius=100&unit=km`))
    expect(res.status).toBe(200)
    const want = f.locs.filter((l) => l.published && haversineKm(center, l) <= 100)
    expect(idsOf(res).sort()).toEqual(want.map((l) => l.id).sort())
    expect(keysOf(f, res)[0]).toBe('rouen')
    expect(res.body.data.locations[0].distance).toEqual({ value: 0, unit: 'km' })
  })

  test('lat/lng at the edges of their ranges are accepted', async () => {
    for (const q of ['lat=90&lng=180', 'lat=-90&lng=-180', 'lat=0&lng=0']) {
      const res = await f.get(f.url('/locations', q))
      expect(res.status).toBe(200)
      expect(res.body.data.locations).toEqual([])
    }
  })
})

describe("the radius default is the locator's configured radius", () => {
  let f: Fixture
  beforeEach(async () => {
    f = await makeFixture()
  })
  afterEach(() => f.env.close())

  test('40 km configured: used when no radius is sent, converted to the requested unit', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { radius: '40', unit: 'km' })
    const km = await f.get(f.url('/locations', `${NEAR}&unit=km&limit=100`))
    expect(km.status).toBe(200)
    expect(km.body.meta).toEqual({ query: { center: CENTER, radius: 40, unit: 'km' } })
    expect(idsOf(km)).toEqual(oracle(f.locs, { center: CENTER, radiusKm: 40 }).map((h) => h.loc.id))
    expect(keysOf(f, km)).toContain('cergy') // 28.4 km
    expect(keysOf(f, km)).not.toContain('meaux') // 40.17 km: inside the API default of 25 miles, outside 40 km

    const miles = await f.get(f.url('/locations', `${NEAR}&unit=miles&limit=100`))
    expect(miles.status).toBe(200)
    expect(miles.body.meta.query.unit).toBe('miles')
    expect(Math.abs(miles.body.meta.query.radius - 40 / KM_PER_MILE)).toBeLessThan(0.01)
    expect(idsOf(miles)).toEqual(idsOf(km))
    expectDistances(f, miles, 'miles')

    // An explicit radius still wins.
    const wide = await f.get(f.url('/locations', `${NEAR}&unit=miles&radius=25&limit=100`))
    expect(keysOf(f, wide)).toContain('meaux')
  })

  test("40 km configured, no unit sent: the answer is in miles (the spec's default), over the same 40 km", async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { radius: '40', unit: 'km' })
    const res = await f.get(f.url('/locations', `${NEAR}&limit=100`))
    expect(res.status).toBe(200)
    expect(res.body.meta.query.unit).toBe('miles')
    expect(res.body.meta.query.radius).toBe(24.85) // 40 / KM_PER_MILE, rounded as distances are
    expect(idsOf(res)).toEqual(oracle(f.locs, { center: CENTER, radiusKm: 40 }).map((h) => h.loc.id))
    expectDistances(f, res, 'miles')
    // A radius sent without a unit is in miles too.
    const sent = await f.get(f.url('/locations', `${NEAR}&radius=10&limit=100`))
    expect(sent.body.meta.query).toEqual({ center: CENTER, radius: 10, unit: 'miles' })
    expect(idsOf(sent)).toEqual(oracle(f.locs, { center: CENTER, radiusKm: 10 * KM_PER_MILE }).map((h) => h.loc.id))
  })

  test('1000 miles configured (the most): asked in km, the default is 1609 km, not an error', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { radius: '1000', unit: 'miles' })
    const res = await f.get(f.url('/locations', `${NEAR}&unit=km&limit=100`))
    expect(res.status).toBe(200)
    expect(res.body.meta.query).toEqual({ center: CENTER, radius: 1609.34, unit: 'km' }) // 1000 * KM_PER_MILE, rounded as distances are
    expect(idsOf(res)).toEqual(
      oracle(f.locs, { center: CENTER, radiusKm: 1000 * KM_PER_MILE })
        .map((h) => h.loc.id)
        .slice(0, 100),
    )
    // A radius sent is still held to 1000 in its unit.
    expectError(await f.get(f.url('/locations', `${NEAR}&unit=km&radius=1609`)), 400, 'INVALID_PARAMETER')
  })

  test('a configured radius converted to the requested unit is shown in meta.query rounded to hundredths, as distances are; the search covers all of it', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { radius: '10', unit: 'km' })
    const miles = await f.get(f.url('/locations', `${NEAR}&limit=100`))
    expect(miles.body.meta.query).toEqual({ center: CENTER, radius: 6.21, unit: 'miles' }) // was 6.2137119223733395
    expect(idsOf(miles)).toEqual(oracle(f.locs, { center: CENTER, radiusKm: 10 }).map((h) => h.loc.id))

    setLocatorSettings(f.env.store, f.env.locatorId, { radius: '7', unit: 'miles' })
    const km = await f.get(f.url('/locations', `${NEAR}&unit=km&limit=100`))
    expect(km.body.meta.query).toEqual({ center: CENTER, radius: 11.27, unit: 'km' }) // was 11.265408
    expect(idsOf(km)).toEqual(oracle(f.locs, { center: CENTER, radiusKm: 7 * KM_PER_MILE }).map((h) => h.loc.id))
    // In its own unit, and sent, a radius is shown as it is.
    expect((await f.get(f.url('/locations', `${NEAR}&unit=miles`))).body.meta.query.radius).toBe(7)
    expect((await f.get(f.url('/locations', `${NEAR}&radius=2.345&unit=km`))).body.meta.query.radius).toBe(2.345)

    // Too small for hundredths (the locator's radius need only be above 0): two significant digits, never 0.
    setLocatorSettings(f.env.store, f.env.locatorId, { radius: '0.005', unit: 'km' })
    expect((await f.get(f.url('/locations', NEAR))).body.meta.query.radius).toBe(0.0031)
  })

  test('36 miles configured: reaches 35-mile Fontainebleau with no radius parameter; clearing it restores 25', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { radius: '36', unit: 'miles' })
    const res = await f.get(f.url('/locations', `${NEAR}&limit=100`))
    expect(res.status).toBe(200)
    expect(res.body.meta).toEqual({ query: { center: CENTER, radius: 36, unit: 'miles' } })
    expect(keysOf(f, res)).toContain('fontainebleau')
    expect(keysOf(f, res)).not.toContain('beauvais')
    expectDistances(f, res, 'miles')

    setLocatorSettings(f.env.store, f.env.locatorId, { radius: '' })
    const back = await f.get(f.url('/locations', `${NEAR}&limit=100`))
    expect(back.body.meta).toEqual({ query: { center: CENTER, radius: 25, unit: 'miles' } })
    expect(keysOf(f, back)).not.toContain('fontainebleau')
  })
})
