// GET /locations (radius and all=true), GET /locations/{id} and GET /filters: the answers against
// the fixture's oracle, the location JSON field by field, paging links, and writes made through the
// Management API and the operator functions showing up in the very next query.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { createApp } from '../../src/server/app'
import { createLocator, setFilters, setLocatorSettings, addCustomField } from '../../src/operator'
import { openStore } from '../../src/store'
import {
  appOn,
  CENTER,
  expectError,
  FILTERS,
  haversineKm,
  idsOf,
  KM_PER_MILE,
  LONDON,
  makeFixture,
  oracle,
  SEEDS,
  send,
  type Fixture,
  type Res,
} from './fixture'

const NEAR = `lat=${CENTER.lat}&lng=${CENTER.lng}`
const LOCATION_KEYS = [
  'address',
  'contact',
  'coordinates',
  'customFields',
  'description',
  'hours',
  'hours_today',
  'id',
  'image',
  'name',
  'next_change',
  'open_now',
  'social',
  'tags',
  'timezone',
]
const keysOf = (f: Fixture, res: Res) => idsOf(res).map((id) => f.locs.find((l) => l.id === id)?.key ?? id)

/** The distances of a radius answer match the haversine distance of each location, rounded to 2 decimals, in `unit`. */
function expectDistances(f: Fixture, res: Res, unit: 'miles' | 'km') {
  for (const l of res.body.data.locations) {
    const loc = f.locs.find((x) => x.id === l.id)!
    const km = haversineKm(CENTER, loc)
    const want = unit === 'km' ? km : km / KM_PER_MILE
    expect(l.distance).toEqual({ value: expect.any(Number), unit })
    expect(Math.abs(l.distance.value - want)).toBeLessThanOrEqual(0.01)
    expect(Math.abs(l.distance.value * 100 - Math.round(l.distance.value * 100))).toBeLessThan(1e-6)
  }
}

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

describe('paging', () => {
  let f: Fixture
  beforeAll(async () => {
    f = await makeFixture()
  })
  afterAll(() => f.env.close())

  const allByName = () => oracle(f.locs, {}).map((h) => h.loc.id)

  test('the answer is JSON as JSON.stringify writes it: pagination, links and meta written by hand agree', async () => {
    // Radius or not, km or miles, first, middle and last pages, links carrying characters JSON
    // or the URL escapes (a quote, a backslash, non-ASCII, brackets).
    const queries = [
      'all=true',
      'all=true&offset=5&limit=3',
      'all=true&offset=26',
      `${NEAR}&limit=2`,
      `${NEAR}&unit=km&radius=7.25&offset=1&limit=1`,
      `lat=-33.8688&lng=151.2093&radius=0.5`,
      `${NEAR}&radius=300&limit=1&offset=2&search=${encodeURIComponent('"a\\b é')}`,
      `${NEAR}&radius=300&limit=1&tags[]=${FILTERS[0]!.tags[0]!.value}&tags%5B%5D=x&tagLogic=any`,
    ]
    for (const qs of queries) {
      const res = await f.get(f.url('/locations', qs))
      expect(res.status).toBe(200)
      expect(res.text).toBe(JSON.stringify(JSON.parse(res.text)))
    }
  })

  test('limit defaults to 20: the first page has next (a full URL) and no prev', async () => {
    const res = await f.get(f.url('/locations', 'all=true'))
    expect(res.status).toBe(200)
    expect(idsOf(res)).toEqual(allByName().slice(0, 20))
    const p = res.body.data.pagination
    expect(p).toEqual({ offset: 0, limit: 20, total: 27, hasMore: true, next: expect.any(String) })
    const next = new URL(p.next)
    expect(`${next.origin}${next.pathname}`).toBe(`http://localhost/public/v1/${f.token}/locations`)
    expect(next.searchParams.get('offset')).toBe('20')
    expect(next.searchParams.get('all')).toBe('true')
  })

  test('following next reaches the last page, which has prev and no next', async () => {
    const first = await f.get(f.url('/locations', 'all=true'))
    const last = await f.get(first.body.data.pagination.next)
    expect(last.status).toBe(200)
    expect(idsOf(last)).toEqual(allByName().slice(20))
    const p = last.body.data.pagination
    expect(p).toEqual({ offset: 20, limit: 20, total: 27, hasMore: false, prev: expect.any(String) })
    const prev = new URL(p.prev)
    expect(`${prev.origin}${prev.pathname}`).toBe(`http://localhost/public/v1/${f.token}/locations`)
    expect(prev.searchParams.get('offset')).toBe('0')
    const back = await f.get(p.prev)
    expect(idsOf(back)).toEqual(idsOf(first))
  })

  test('a middle page has both links, each a full page away; prev never goes below 0', async () => {
    const mid = await f.get(f.url('/locations', 'all=true&limit=5&offset=10'))
    expect(idsOf(mid)).toEqual(allByName().slice(10, 15))
    const p = mid.body.data.pagination
    expect(p).toEqual({
      offset: 10,
      limit: 5,
      total: 27,
      hasMore: true,
      next: expect.any(String),
      prev: expect.any(String),
    })
    expect(new URL(p.next).searchParams.get('offset')).toBe('15')
    expect(new URL(p.prev).searchParams.get('offset')).toBe('5')
    expect(new URL(p.next).searchParams.get('limit')).toBe('5')

    const near = await f.get(f.url('/locations', 'all=true&limit=10&offset=3'))
    expect(idsOf(near)).toEqual(allByName().slice(3, 13))
    expect(new URL(near.body.data.pagination.prev).searchParams.get('offset')).toBe('0')
    expect(new URL(near.body.data.pagination.next).searchParams.get('offset')).toBe('13')
  })

  test('walking next through a filtered radius query returns the whole answer once, in order; links keep every parameter', async () => {
    const query = `${NEAR}&radius=50&unit=km&limit=4&tags[]=repair&tags[]=rental&search=ru`
    const want = oracle(f.locs, { center: CENTER, radiusKm: 50, tags: ['repair', 'rental'], search: 'ru' }).map(
      (h) => h.loc.id,
    )
    expect(want.length).toBeGreaterThan(8)
    const seen: string[] = []
    let url: string | undefined = f.url('/locations', query)
    let pages = 0
    while (url) {
      const res = await f.get(url)
      expect(res.status).toBe(200)
      seen.push(...idsOf(res))
      const p = res.body.data.pagination
      expect(p.total).toBe(want.length)
      expect(p.hasMore).toBe(p.offset + 4 < want.length)
      if (p.next) {
        const next = new URL(p.next)
        for (const [k, v] of [
          ['lat', String(CENTER.lat)],
          ['lng', String(CENTER.lng)],
          ['radius', '50'],
          ['unit', 'km'],
          ['limit', '4'],
          ['search', 'ru'],
        ]) {
          expect(next.searchParams.get(k!)).toBe(v!)
        }
        expect(next.searchParams.getAll('tags[]')).toEqual(['repair', 'rental'])
      }
      url = p.next
      pages++
    }
    expect(seen).toEqual(want)
    expect(pages).toBe(Math.ceil(want.length / 4))
  })

  test('an offset past the end gives an empty page with the true total and no next', async () => {
    const res = await f.get(f.url('/locations', 'all=true&offset=100'))
    expect(res.status).toBe(200)
    expect(res.body.data.locations).toEqual([])
    expect(res.body.data.pagination).toMatchObject({ offset: 100, limit: 20, total: 27, hasMore: false })
    expect(res.body.data.pagination.next).toBeUndefined()
  })

  test('an offset far past every location (up to 2^53 - 1) gives an empty page with the true total and that offset, in every query mode', async () => {
    const modes = [
      NEAR,
      `${NEAR}&sort=priority`,
      `${NEAR}&search=cycles`,
      `${NEAR}&tags[]=repair`,
      'all=true',
      'all=true&sort=priority',
      'all=true&search=velo',
      'all=true&tags[]=repair',
    ]
    for (const mode of modes) {
      const first = await f.get(f.url('/locations', mode))
      expect({ mode, status: first.status }).toEqual({ mode, status: 200 })
      for (const offset of [536870900, 2 ** 31, 1e10, 883048416149842, 7119527102442206, Number.MAX_SAFE_INTEGER]) {
        const res = await f.get(f.url('/locations', `${mode}&offset=${offset}`))
        expect({ mode, offset, status: res.status, locations: res.body.data?.locations }).toEqual({
          mode,
          offset,
          status: 200,
          locations: [],
        })
        expect(res.body.data.pagination).toMatchObject({
          offset,
          limit: 20,
          total: first.body.data.pagination.total,
          hasMore: false,
        })
      }
    }
  })

  test('a page ending exactly at the total has no next', async () => {
    const exact = await f.get(f.url('/locations', 'all=true&limit=9&offset=18'))
    expect(idsOf(exact)).toEqual(allByName().slice(18))
    expect(exact.body.data.pagination).toEqual({
      offset: 18,
      limit: 9,
      total: 27,
      hasMore: false,
      prev: expect.any(String),
    })
    expect(new URL(exact.body.data.pagination.prev).searchParams.get('offset')).toBe('9')
    const whole = await f.get(f.url('/locations', 'all=true&limit=27'))
    expect(whole.body.data.pagination).toEqual({ offset: 0, limit: 27, total: 27, hasMore: false })
  })

  test('limit=500 and limit=1 are accepted', async () => {
    const big = await f.get(f.url('/locations', 'all=true&limit=500'))
    expect(big.status).toBe(200)
    expect(idsOf(big)).toEqual(allByName())
    expect(big.body.data.pagination).toEqual({ offset: 0, limit: 500, total: 27, hasMore: false })
    const one = await f.get(f.url('/locations', `${NEAR}&limit=1`))
    expect(one.status).toBe(200)
    expect(idsOf(one)).toEqual([f.ids.hotel!])
    expect(one.body.data.pagination).toEqual({
      offset: 0,
      limit: 1,
      total: 19,
      hasMore: true,
      next: expect.any(String),
    })
  })

  test('with PUBLIC_BASE_URL the links are built from it, not from the request', async () => {
    const app = appOn(f.env, { publicBaseUrl: 'https://stores.example.com' })
    const res = await f.get(f.url('/locations', 'all=true&limit=10&offset=10'), { app })
    expect(res.status).toBe(200)
    const p = res.body.data.pagination
    expect(p.next.startsWith(`https://stores.example.com/public/v1/${f.token}/locations?`)).toBe(true)
    expect(p.prev.startsWith(`https://stores.example.com/public/v1/${f.token}/locations?`)).toBe(true)
    expect(new URL(p.next).searchParams.get('offset')).toBe('20')
    expect(new URL(p.prev).searchParams.get('offset')).toBe('0')
    expect(new URL(p.next).searchParams.get('all')).toBe('true')
  })

  test('without PUBLIC_BASE_URL the links follow the host the request came to', async () => {
    const res = await send(f.env.app, `https://maps.shop.test/public/v1/${f.token}/locations?all=true&limit=10`)
    expect(res.body.data.pagination.next.startsWith(`https://maps.shop.test/public/v1/${f.token}/locations?`)).toBe(
      true,
    )
  })
})

describe('all=true', () => {
  let f: Fixture
  beforeAll(async () => {
    f = await makeFixture()
  })
  afterAll(() => f.env.close())

  test('every published location, sorted by name ignoring accents, without distance or meta.query', async () => {
    const res = await f.get(f.url('/locations', 'all=true&limit=500'))
    expect(res.status).toBe(200)
    expect(res.body.success).toBe(true)
    expect(res.body.meta?.query).toBeUndefined()
    const names = res.body.data.locations.map((l: { name: string }) => l.name)
    expect(names).toEqual([
      'Aéroport Orly Rides',
      'Ångström Outlet',
      'Bastille Vélos',
      'Beauvais Bikes',
      'Bikes Shop Nord',
      'Cergy Pédale',
      'Chartres Vélos',
      'Dépôt Central',
      'Downing Street Cycles',
      'Eagle Bikes',
      'Éclair Cycles',
      'Émile Repairs',
      'Fast Wheels',
      'Fontainebleau Trail Center',
      'Gare du Nord Cycles',
      'Hôtel de Ville Rentals',
      'Le Bik Shopping',
      'Lyon Lumière Bikes',
      'Marais Spokes',
      'Meaux Cycles',
      'Musée Orsay Bike Stop',
      'Orléans Pédales',
      'Reims Randonnée',
      'Rouen Roues',
      'Vélo Café Bikes',
      'Versailles Royal Cycles',
      "Zoë's Garage",
    ])
    for (const l of res.body.data.locations) {
      expect(Object.keys(l).sort()).toEqual(LOCATION_KEYS)
      expect(l.distance).toBeUndefined()
      expect(l.status).toBeUndefined()
    }
  })

  test('all=true&sort=name is the same answer', async () => {
    const a = await f.get(f.url('/locations', 'all=true&limit=500'))
    const b = await f.get(f.url('/locations', 'all=true&sort=name&limit=500'))
    expect(b.status).toBe(200)
    expect(idsOf(b)).toEqual(idsOf(a))
  })

  test('all=false is a radius query and needs coordinates', async () => {
    const res = await f.get(f.url('/locations', 'all=false'))
    expectError(res, 400, 'MISSING_COORDINATES')
    const ok = await f.get(f.url('/locations', `all=false&${NEAR}`))
    expect(ok.status).toBe(200)
    expect(ok.body.meta.query.radius).toBe(25)
  })
})

describe('the location object', () => {
  let f: Fixture
  beforeAll(async () => {
    f = await makeFixture()
  })
  afterAll(() => f.env.close())

  const veloJson = () => ({
    id: f.ids.velo,
    name: 'Vélo Café Bikes',
    coordinates: { lat: 48.86, lng: 2.356 },
    // Its coordinates were sent: city and country are its point's (by the reverse lookup).
    address: { formatted: '12 Rue de Rivoli, 75004 Paris', city: 'Paris', country: 'FR' },
    contact: { phone: '+33 1 23 45 67 89', email: 'hello@velo.example', website: 'https://velo.example' },
    social: { instagram: 'velo_cafe', facebook: 'velocafe', twitter: 'velocafe' },
    hours: {
      monday: '09:00-18:00',
      tuesday: '09:00-18:00',
      wednesday: '',
      thursday: '',
      friday: '',
      saturday: '10:00-16:00',
      sunday: 'closed',
    },
    timezone: 'Europe/Paris',
    tags: {
      services: { name: 'Services', items: [{ value: 'repair', label: 'Repair', color: '#d73a49' }] },
      brands: { name: 'Brands', items: [{ value: 'Trek', label: 'Trek' }] },
      _default: { name: expect.any(String), items: [{ value: 'vintage', label: 'vintage' }] },
    },
    customFields: [
      { token: expect.any(String), key: 'note', name: 'Note', type: 'text', value: 'Ring twice' },
      {
        token: expect.any(String),
        key: 'booking',
        name: 'Booking',
        type: 'button',
        value: 'https://book.example.com/velo',
        label: 'Book now',
      },
      {
        token: expect.any(String),
        key: 'partner',
        name: 'Partner',
        type: 'badge',
        value: 'gold',
        label: 'Partner',
        color: '#1a7f37',
      },
    ],
    image: 'https://img.example.com/velo.jpg',
    description: 'Coffee, espresso and city bikes.',
    open_now: true, // Monday 10:00 in Paris (FIXTURE_NOW)
    next_change: '2026-06-15T18:00:00+02:00',
    hours_today: '09:00-18:00',
  })

  test('GET /locations/{id}: exactly the documented fields, tags by group, custom fields in definition order, social handles', async () => {
    const res = await f.get(`/locations/${f.ids.velo}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, data: { location: veloJson() } })
    const l = res.body.data.location
    expect(Object.keys(l).sort()).toEqual(LOCATION_KEYS)
    expect(l.id).toMatch(/^loc_[0-9a-z]+$/)
    expect(Object.keys(l.tags.services.items[0]).sort()).toEqual(['color', 'label', 'value'])
    expect(Object.keys(l.tags.brands.items[0]).sort()).toEqual(['label', 'value']) // no color configured: none shown
    expect(Object.keys(l.customFields[0]).sort()).toEqual(['key', 'name', 'token', 'type', 'value'])
    for (const cf of l.customFields) expect(cf.token.length).toBeGreaterThan(0)
    expect(new Set(l.customFields.map((c: { token: string }) => c.token)).size).toBe(3)
    expect(res.headers.get('content-type')).toContain('application/json')
  })

  test('the same object in radius answers, with distance added, and in all=true answers, without', async () => {
    const radius = await f.get(f.url('/locations', `${NEAR}&limit=100`))
    const inRadius = radius.body.data.locations.find((l: { id: string }) => l.id === f.ids.velo)
    const { distance, ...rest } = inRadius
    expect(rest).toEqual(veloJson())
    expect(distance.unit).toBe('miles')
    expect(Object.keys(inRadius).sort()).toEqual([...LOCATION_KEYS, 'distance'].sort())

    const all = await f.get(f.url('/locations', 'all=true&limit=500'))
    expect(all.body.data.locations.find((l: { id: string }) => l.id === f.ids.velo)).toEqual(veloJson())
  })

  test('unset fields are empty strings; tag case follows the filter configuration; ungrouped tags go to _default', async () => {
    const zoe = (await f.get(`/locations/${f.ids.zoe}`)).body.data.location
    expect(zoe).toEqual({
      id: f.ids.zoe,
      name: "Zoë's Garage",
      coordinates: { lat: 48.81, lng: 2.29 },
      address: { formatted: '8 Rue de Vaugirard, 92130 Issy', city: 'Paris', country: 'FR' },
      contact: { phone: '', email: '', website: '' },
      social: { instagram: '', facebook: 'zoesgarage', twitter: '' },
      hours: { monday: '', tuesday: '', wednesday: '', thursday: '', friday: '', saturday: '', sunday: '' },
      timezone: 'Europe/Paris',
      tags: { _default: { name: expect.any(String), items: [{ value: 'outlet', label: 'outlet' }] } },
      customFields: [
        { token: expect.any(String), key: 'note', name: 'Note', type: 'text', value: 'Back entrance' },
        {
          token: expect.any(String),
          key: 'partner',
          name: 'Partner',
          type: 'badge',
          value: 'silver',
          label: 'Partner',
          color: '#1a7f37',
        },
      ],
      image: '',
      description: '',
      open_now: null,
      next_change: null,
      hours_today: null,
    })

    const eclair = (await f.get(`/locations/${f.ids.eclair}`)).body.data.location
    expect(eclair.tags).toEqual({
      services: { name: 'Services', items: [{ value: 'rental', label: 'Rental' }] },
      brands: { name: 'Brands', items: [{ value: 'Giant', label: 'Giant', color: '#123abc' }] }, // stored as "GIANT"
    })
    expect(eclair.customFields).toEqual([])

    const gare = (await f.get(`/locations/${f.ids.gare}`)).body.data.location
    expect(gare.tags).toEqual({})
  })

  test('social handles: the last path segment, without @; a Facebook profile.php URL gives its id', async () => {
    const created = await f.env.call('POST', '/admin/v1/locations', {
      body: {
        name: 'Handles',
        address: '1 Rue X',
        coordinates: { lat: 48.85, lng: 2.35 },
        social: {
          facebook: 'https://www.facebook.com/profile.php?id=100064',
          instagram: 'https://www.instagram.com/@handles.shop/',
          twitter: 'https://x.com/handles',
        },
      },
    })
    expect(created.status).toBe(201)
    const location = (await f.get(`/locations/${created.body.location.id}`)).body.data.location
    expect(location.social).toEqual({ instagram: 'handles.shop', facebook: '100064', twitter: 'handles' })
  })

  test('a geocoded address carries the parts the geocoder parsed', async () => {
    const london = (await f.get(`/locations/${f.ids.london}`)).body.data.location
    expect(london.address).toEqual({
      formatted: '10 Downing Street, London SW1A 2AA',
      city: 'London',
      postcode: 'SW1A 2AA',
      country: 'GB',
    })
    expect(london.coordinates).toEqual(LONDON)
  })

  test('GET /locations/{id} has no distance even when lat/lng are sent', async () => {
    const res = await f.get(f.url(`/locations/${f.ids.velo}`, `${NEAR}&unit=km`))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, data: { location: veloJson() } })
  })

  test("a draft, an unknown id, a malformed id and another locator's location are all 404 LOCATION_NOT_FOUND", async () => {
    const other = createLocator(f.env.store, 'Other locator')
    setLocatorSettings(f.env.store, other.locator.id, { queryApi: 'on' })
    const created = await f.env.call('POST', '/admin/v1/locations', {
      key: other.secret,
      body: { name: 'Elsewhere', address: '1 Other Street', coordinates: { lat: 48.8566, lng: 2.3522 } },
    })
    expect(created.status).toBe(201)
    const otherId = created.body.location.id as string
    // Reachable with its own locator's token...
    const own = await send(f.env.app, `http://localhost/public/v1/${other.locator.publicToken}/locations/${otherId}`)
    expect(own.status).toBe(200)

    for (const id of [f.ids.hidden!, f.ids.workshop!, f.ids.unpub!, 'loc_0000000000000000', 'nope', otherId]) {
      const res = await f.get(`/locations/${id}`)
      expectError(res, 404, 'LOCATION_NOT_FOUND')
      expect(res.headers.get('etag')).toBeNull()
    }
    // A path segment that is not valid percent-encoded UTF-8: said so, not "Location null".
    expectError(
      await f.get('/locations/%E0%A4%A'),
      404,
      'LOCATION_NOT_FOUND',
      expect.stringContaining('percent-encoded'),
    )
  })
})

describe('GET /filters', () => {
  let f: Fixture
  beforeEach(async () => {
    f = await makeFixture()
  })
  afterEach(() => f.env.close())

  const configured = () =>
    FILTERS.map((g) => ({
      id: g.id,
      name: g.name,
      label: g.label,
      singleSelect: g.singleSelect ?? false,
      inline: g.inline ?? false,
      hidden: false,
      hideInLocationDetails: g.hideInLocationDetails ?? false,
      tags: g.tags,
    }))

  test('the configured groups, in order, then _default listing the tags in no group (published locations only)', async () => {
    const res = await f.get('/filters')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      success: true,
      data: {
        filters: [
          ...configured(),
          {
            id: '_default',
            name: expect.any(String),
            label: expect.any(String),
            singleSelect: false,
            inline: false,
            hidden: false,
            hideInLocationDetails: false,
            tags: [
              { value: 'outlet', label: 'outlet' },
              { value: 'vintage', label: 'vintage' },
            ],
          },
        ],
      },
    })
    expect(res.text).not.toContain('draftonly')
  })

  test('a new ungrouped tag shows up in _default at once, as it was spelt, and filtering by it works', async () => {
    const res = await f.env.call('POST', '/admin/v1/locations', {
      body: {
        name: 'Tandem Hub',
        address: '3 Rue X',
        coordinates: { lat: 48.86, lng: 2.35 },
        tags: ['Tandem Friendly'],
      },
    })
    expect(res.status).toBe(201)
    const filters = (await f.get('/filters')).body.data.filters
    const dflt = filters.find((g: { id: string }) => g.id === '_default')
    expect(dflt.tags).toEqual([
      { value: 'outlet', label: 'outlet' },
      { value: 'Tandem Friendly', label: 'Tandem Friendly' },
      { value: 'vintage', label: 'vintage' },
    ])
    expect((await f.get(`/locations/${res.body.location.id}`)).body.data.location.tags._default.items).toEqual([
      { value: 'Tandem Friendly', label: 'Tandem Friendly' },
    ])
    for (const value of ['Tandem%20Friendly', 'tandem%20friendly']) {
      const found = await f.get(f.url('/locations', `all=true&tags[]=${value}`))
      expect(idsOf(found)).toEqual([res.body.location.id])
    }
    // Renamed to its lowercase spelling: the one spelling left is listed.
    expect(
      (await f.env.call('POST', `/admin/v1/locations/${res.body.location.id}`, { body: { tags: ['tandem friendly'] } }))
        .status,
    ).toBe(200)
    const after = (await f.get('/filters')).body.data.filters.find((g: { id: string }) => g.id === '_default')
    expect(after.tags.map((t: { value: string }) => t.value)).toEqual(['outlet', 'tandem friendly', 'vintage'])
  })

  test("changed filter groups are served at once, in /filters and in every location's tags", async () => {
    setFilters(f.env.store, f.env.locatorId, [
      { ...FILTERS[0]!, name: 'Workshop services' },
      {
        id: 'styles',
        name: 'Styles',
        label: 'Style',
        tags: [{ value: 'vintage', label: 'Vintage', color: '#abcdef' }],
      },
    ])
    const filters = (await f.get('/filters')).body.data.filters
    expect(filters.map((g: { id: string }) => g.id)).toEqual(['services', 'styles', '_default'])
    expect(filters[0].name).toBe('Workshop services')
    // Trek, Giant, Specialized are in no group now: each as most locations spell it (Giant 2, GIANT 1,
    // giant 1; specialized 2, Specialized 1; trek 3, Trek 2), as those locations' own tags show it.
    expect(filters[2].tags).toEqual(
      ['Giant', 'outlet', 'specialized', 'trek'].map((value) => ({ value, label: value })),
    )
    const velo = (await f.get(`/locations/${f.ids.velo}`)).body.data.location
    expect(velo.tags).toEqual({
      services: { name: 'Workshop services', items: [{ value: 'repair', label: 'Repair', color: '#d73a49' }] },
      _default: { name: expect.any(String), items: [{ value: 'trek', label: 'trek' }] },
      styles: { name: 'Styles', items: [{ value: 'vintage', label: 'Vintage', color: '#abcdef' }] },
    })
  })

  test('a hidden group is served with hidden: true, and still filters (match) and labels tags', async () => {
    setFilters(f.env.store, f.env.locatorId, [FILTERS[0]!, { ...FILTERS[1]!, hidden: true }])
    const filters = (await f.get('/filters')).body.data.filters
    expect(filters.map((g: { id: string; hidden: boolean }) => [g.id, g.hidden])).toEqual([
      ['services', false],
      ['brands', true],
      ['_default', false],
    ])
    const match = await f.get(f.url('/locations', `${NEAR}&limit=100&tagLogic=match&tags[]=repair&tags[]=trek`))
    expect(idsOf(match)).toEqual(
      oracle(f.locs, { center: CENTER, radiusKm: 25 * KM_PER_MILE, tags: ['repair', 'trek'], tagLogic: 'match' }).map(
        (h) => h.loc.id,
      ),
    )
    expect(idsOf(match).length).toBeGreaterThan(0)
    const velo = (await f.get(`/locations/${f.ids.velo}`)).body.data.location
    expect(velo.tags.brands).toEqual({ name: 'Brands', items: [{ value: 'Trek', label: 'Trek' }] })
  })

  test('with no filter groups and no tags: an empty list', async () => {
    const other = createLocator(f.env.store, 'Empty')
    setLocatorSettings(f.env.store, other.locator.id, { queryApi: 'on' })
    const res = await send(f.env.app, `http://localhost/public/v1/${other.locator.publicToken}/filters`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, data: { filters: [] } })
  })
})

describe('writes are visible to the very next query', () => {
  let f: Fixture
  beforeEach(async () => {
    f = await makeFixture()
  })
  afterEach(() => f.env.close())

  const radiusIds = async () => idsOf(await f.get(f.url('/locations', `${NEAR}&limit=100`)))
  const allIds = async () => idsOf(await f.get(f.url('/locations', 'all=true&limit=500')))

  test('a location set to draft disappears at once, and returns when published again', async () => {
    expect(await radiusIds()).toContain(f.ids.velo!)
    const res = await f.env.call('POST', `/admin/v1/locations/${f.ids.velo}`, { body: { status: 'draft' } })
    expect(res.status).toBe(200)
    expect(await radiusIds()).not.toContain(f.ids.velo!)
    expect(await allIds()).not.toContain(f.ids.velo!)
    expectError(await f.get(`/locations/${f.ids.velo}`), 404, 'LOCATION_NOT_FOUND')
    expect((await f.get(f.url('/locations', 'all=true&search=velo'))).body.data.pagination.total).toBe(2)

    await f.env.call('POST', `/admin/v1/locations/${f.ids.velo}`, { body: { status: 'published' } })
    expect(await radiusIds()).toContain(f.ids.velo!)
    expect((await f.get(`/locations/${f.ids.velo}`)).status).toBe(200)
  })

  test('a published draft appears at once', async () => {
    await f.env.call('POST', `/admin/v1/locations/${f.ids.hidden}`, { body: { status: 'published' } })
    const ids = await radiusIds()
    expect(ids[0]).toBe(f.ids.hotel!)
    expect(ids[1]).toBe(f.ids.hidden!)
  })

  test('a deleted location disappears at once', async () => {
    const res = await f.env.call('POST', `/admin/v1/locations/${f.ids.bastille}/delete`)
    expect(res.status).toBe(200)
    expect(await radiusIds()).not.toContain(f.ids.bastille!)
    expect(await allIds()).not.toContain(f.ids.bastille!)
    expectError(await f.get(`/locations/${f.ids.bastille}`), 404, 'LOCATION_NOT_FOUND')
    expect((await f.get(f.url('/locations', 'all=true'))).body.data.pagination.total).toBe(26)
  })

  test('a new location appears at once, in distance order', async () => {
    const res = await f.env.call('POST', '/admin/v1/locations', {
      body: { name: 'Pont Neuf Pedals', address: 'Pont Neuf, Paris', coordinates: { lat: 48.8567, lng: 2.3523 } },
    })
    expect(res.status).toBe(201)
    expect((await radiusIds())[0]).toBe(res.body.location.id)
    expect((await f.get(`/locations/${res.body.location.id}`)).body.data.location.name).toBe('Pont Neuf Pedals')
  })

  test('search folds every script alike: a Greek final sigma is a sigma, Indic and Arabic marks stay inside their word', async () => {
    const add = async (name: string) =>
      (
        await f.env.call('POST', '/admin/v1/locations', {
          body: { name, address: 'Pont Neuf, Paris', coordinates: { lat: 48.8567, lng: 2.3523 } },
        })
      ).body.location.id as string
    const greek = await add('Οδοστρωτήρας Ποδηλάτων')
    const hindi = await add('स्तेनम साइकिल')
    const arabic = await add('دراجات مُحَمَّد')
    const found = async (search: string) =>
      (await f.get(f.url('/locations', `all=true&search=${encodeURIComponent(search)}`))).body.data.locations.map(
        (l: { id: string }) => l.id,
      )
    expect(await found('ΟΔΟΣ')).toEqual([greek]) // "οδος" lowercased, its last letter a final sigma
    expect(await found('οδοστρωτηρας')).toEqual([greek])
    expect(await found('स्तेनम')).toEqual([hindi])
    expect(await found('नम')).toEqual([]) // not the end of "स्तेनम", cut at its vowel sign
    expect(await found('محمد')).toEqual([arabic]) // written without its vowel points
  })

  test('moved coordinates and a new name are used by the very next query', async () => {
    // Out of the 25-mile circle...
    let res = await f.env.call('POST', `/admin/v1/locations/${f.ids.velo}`, {
      body: { coordinates: { lat: 49.5, lng: 3.5 }, name: 'Zzyzx Cycles' },
    })
    expect(res.status).toBe(200)
    expect(await radiusIds()).not.toContain(f.ids.velo!)
    const all = await allIds()
    expect(all[all.length - 1]).toBe(f.ids.velo!) // "Zzyzx" now sorts last
    const one = (await f.get(`/locations/${f.ids.velo}`)).body.data.location
    expect(one.name).toBe('Zzyzx Cycles')
    expect(one.coordinates).toEqual({ lat: 49.5, lng: 3.5 })
    expect(
      (await f.get(f.url('/locations', 'all=true&search=zzyzx'))).body.data.locations.map((l: { id: string }) => l.id),
    ).toEqual([f.ids.velo!])
    expect((await f.get(f.url('/locations', 'all=true&search=cafe'))).body.data.locations).toEqual([])

    // ...and back in, at a new distance.
    const to = { lat: 48.88, lng: 2.3522 }
    res = await f.env.call('POST', `/admin/v1/locations/${f.ids.velo}`, { body: { coordinates: to } })
    expect(res.status).toBe(200)
    const near = await f.get(f.url('/locations', `${NEAR}&unit=km&limit=100`))
    const moved = near.body.data.locations.find((l: { id: string }) => l.id === f.ids.velo)
    expect(Math.abs(moved.distance.value - haversineKm(CENTER, to))).toBeLessThanOrEqual(0.01)
    const locs = f.locs.map((l) => (l.id === f.ids.velo ? { ...l, ...to } : l))
    expect(idsOf(near)).toEqual(oracle(locs, { center: CENTER, radiusKm: 25 }).map((h) => h.loc.id)) // 25 in the requested unit
  })

  test('a write through another connection to the same database (the CLI, another server process) is visible at once', async () => {
    expect(await radiusIds()).toContain(f.ids.velo!)
    const store2 = openStore(join(f.env.dir, 'test.db'))
    try {
      const app2 = createApp({
        store: store2,
        geocoder: f.env.geocoder,
        config: { maxBodyBytes: 262144, logRequests: false },
        log: () => {},
      })
      const res = await app2.handle(
        new Request(`http://localhost/admin/v1/locations/${f.ids.velo}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${f.env.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'draft' }),
        }),
      )
      expect(res.status).toBe(200)
      expect(await radiusIds()).not.toContain(f.ids.velo!)
      expectError(await f.get(`/locations/${f.ids.velo}`), 404, 'LOCATION_NOT_FOUND')
    } finally {
      store2.close()
    }
  })

  test('a new custom field and its value show up at once', async () => {
    addCustomField(f.env.store, f.env.locatorId, { id: 'bays', name: 'Bike bays', type: 'number' })
    const res = await f.env.call('POST', `/admin/v1/locations/${f.ids.velo}`, {
      body: { custom_fields: { bays: '12' } },
    })
    expect(res.status).toBe(200)
    const velo = (await f.get(`/locations/${f.ids.velo}`)).body.data.location
    expect(velo.customFields.map((c: { key: string }) => c.key)).toEqual(['note', 'booking', 'partner', 'bays'])
    expect(velo.customFields[3]).toEqual({
      token: expect.any(String),
      key: 'bays',
      name: 'Bike bays',
      type: 'number',
      value: '12',
    })
  })

  test('a custom field whose id names a member every object inherits (constructor) shows only where a location has a value', async () => {
    addCustomField(f.env.store, f.env.locatorId, { id: 'constructor', name: 'Builder', type: 'text' })
    const keys = async () =>
      ((await f.get(`/locations/${f.ids.velo}`)).body.data.location.customFields as { key: string }[]).map((c) => c.key)
    expect(await keys()).not.toContain('constructor')
    expect(
      (
        await f.env.call('POST', `/admin/v1/locations/${f.ids.velo}`, {
          body: { custom_fields: { constructor: 'Ada & Co' } },
        })
      ).status,
    ).toBe(200)
    const velo = (await f.get(`/locations/${f.ids.velo}`)).body.data.location
    expect(velo.customFields.find((c: { key: string }) => c.key === 'constructor')).toEqual({
      token: expect.any(String),
      key: 'constructor',
      name: 'Builder',
      type: 'text',
      value: 'Ada & Co',
    })
  })
})
