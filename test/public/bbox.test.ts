// GET /locations?bbox=: the locations in a map's box, against the fixture's oracle; distances from
// the box's middle or from lat/lng or near=; sorts, filters, search and pages; boxes across the
// antimeridian; bad boxes named in a 400; writes in the very next answer.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { bboxMiddle } from '../../src/engine/locator-index'
import type { Bbox } from '../helpers'
import { expectError, type Fixture, haversineKm, idsOf, KM_PER_MILE, makeFixture, naming, oracle } from './fixture'

/** Île-de-France and around: most of the fixture's Paris region, not Lyon nor London. */
const REGION: Bbox = [1.4, 48.1, 3.6, 49.5]
const box = (b: Bbox) => `bbox=${b.join(',')}`

/** Each location's distance is its haversine distance from `from`, in `unit`, to a hundredth. */
function expectDistancesFrom(f: Fixture, res: { body: any }, from: { lat: number; lng: number }, unit: 'km' | 'miles') {
  for (const l of res.body.data.locations) {
    const km = haversineKm(from, f.locs.find((x) => x.id === l.id)!)
    expect(l.distance.unit).toBe(unit)
    expect(Math.abs(l.distance.value - (unit === 'km' ? km : km / KM_PER_MILE))).toBeLessThanOrEqual(0.01)
  }
}

describe('GET /locations?bbox=', () => {
  let f: Fixture
  beforeAll(async () => {
    f = await makeFixture()
  })
  afterAll(() => f.env.close())

  test('the published locations in the box, nearest its middle first, with their distances and the box in meta', async () => {
    const res = await f.get(f.url('/locations', `${box(REGION)}&limit=100&unit=km`))
    expect(res.status).toBe(200)
    const middle = { lat: 48.8, lng: 2.5 }
    const want = oracle(f.locs, { bbox: REGION, center: middle })
    expect(want.length).toBeGreaterThan(15)
    expect(want.length).toBeLessThan(f.locs.filter((l) => l.published).length)
    expect(idsOf(res)).toEqual(want.map((h) => h.loc.id))
    expect(res.body.data.pagination).toMatchObject({ offset: 0, limit: 100, total: want.length, hasMore: false })
    expectDistancesFrom(f, res, middle, 'km')
    expect(res.body.meta).toEqual({ query: { bbox: REGION, center: middle, unit: 'km' } })
  })

  test('lat/lng or near= say where distances are measured from; meta shows that point', async () => {
    const from = { lat: 48.8566, lng: 2.3522 }
    const res = await f.get(f.url('/locations', `${box(REGION)}&lat=${from.lat}&lng=${from.lng}&limit=100`))
    expect(idsOf(res)).toEqual(oracle(f.locs, { bbox: REGION, center: from }).map((h) => h.loc.id))
    expectDistancesFrom(f, res, from, 'miles')
    expect(res.body.meta).toEqual({ query: { bbox: REGION, center: from, unit: 'miles' } })

    const near = await f.get(f.url('/locations', `${box(REGION)}&near=Versailles&limit=100`))
    expect(near.status).toBe(200)
    const centre = near.body.meta.query.center
    expect(centre.label).toContain('Versailles')
    expect(haversineKm(centre, { lat: 48.8049, lng: 2.1204 })).toBeLessThan(5)
    expect(idsOf(near)).toEqual(oracle(f.locs, { bbox: REGION, center: centre }).map((h) => h.loc.id))
    expect(near.body.data.locations[0].id).toBe(f.ids.versailles)
  })

  test('sort=name and sort=priority, with tags, tagLogic and a search, as the oracle orders them', async () => {
    const middle = bboxMiddle(REGION)
    for (const sort of ['name', 'priority', 'distance'] as const) {
      const all = await f.get(f.url('/locations', `${box(REGION)}&sort=${sort}&limit=100`))
      expect(idsOf(all)).toEqual(oracle(f.locs, { bbox: REGION, center: middle, sort }).map((h) => h.loc.id))
      const tagged = await f.get(f.url('/locations', `${box(REGION)}&sort=${sort}&tags[]=repair&tags[]=rental`))
      const want = oracle(f.locs, { bbox: REGION, center: middle, sort, tags: ['repair', 'rental'] })
      expect(want.length).toBeGreaterThan(3)
      expect(idsOf(tagged)).toEqual(want.map((h) => h.loc.id))
      const both = await f.get(
        f.url('/locations', `${box(REGION)}&sort=${sort}&tags[]=repair&tags[]=rental&tagLogic=all`),
      )
      expect(idsOf(both)).toEqual(
        oracle(f.locs, { bbox: REGION, center: middle, sort, tags: ['repair', 'rental'], tagLogic: 'all' }).map(
          (h) => h.loc.id,
        ),
      )
      const searched = await f.get(f.url('/locations', `${box(REGION)}&sort=${sort}&search=velo`))
      const found = oracle(f.locs, { bbox: REGION, center: middle, sort, search: 'velo' })
      expect(found.length).toBeGreaterThan(0)
      expect(idsOf(searched)).toEqual(found.map((h) => h.loc.id))
    }
  })

  test('pages: limit and offset, with next and prev links that keep the box', async () => {
    const want = oracle(f.locs, { bbox: REGION, center: bboxMiddle(REGION) }).map((h) => h.loc.id)
    const first = await f.get(f.url('/locations', `${box(REGION)}&limit=5`))
    expect(idsOf(first)).toEqual(want.slice(0, 5))
    expect(first.body.data.pagination.hasMore).toBe(true)
    const second = await f.get(first.body.data.pagination.next)
    expect(second.body.data.pagination.next).toContain('bbox=1.4%2C48.1%2C3.6%2C49.5')
    expect(idsOf(second)).toEqual(want.slice(5, 10))
    expect(idsOf(await f.get(second.body.data.pagination.prev))).toEqual(want.slice(0, 5))
  })

  test('a box nothing is in: an empty page, total 0', async () => {
    const res = await f.get(f.url('/locations', 'bbox=-30,-10,-29,-9'))
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ locations: [], pagination: { offset: 0, limit: 20, total: 0, hasMore: false } })
  })

  test('a write is in the next answer, and the ETag changes with it', async () => {
    const inside = { lat: 48.3, lng: 3.3 }
    const before = await f.get(f.url('/locations', box(REGION)))
    const created = await f.env.call('POST', '/admin/v1/locations', {
      body: { name: 'Provins Cycles', address: 'Provins', coordinates: inside },
    })
    expect(created.status).toBe(201)
    const id = created.body.location.id
    const after = await f.get(f.url('/locations', `${box(REGION)}&limit=100`))
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
    expect(idsOf(after)).toContain(id)
    expect(after.body.data.pagination.total).toBe(before.body.data.pagination.total + 1)
    // Moved out of the box, then deleted.
    const moved = await f.env.call('POST', `/admin/v1/locations/${id}`, {
      body: { coordinates: { lat: 45, lng: 3.3 } },
    })
    expect(moved.status).toBe(200)
    expect(idsOf(await f.get(f.url('/locations', `${box(REGION)}&limit=100`)))).not.toContain(id)
    expect((await f.env.call('POST', `/admin/v1/locations/${id}/delete`)).status).toBe(200)
    expect((await f.get(f.url('/locations', box(REGION)))).body.data.pagination.total).toBe(
      before.body.data.pagination.total,
    )
  })
})

describe('GET /locations?bbox= across the antimeridian', () => {
  let f: Fixture
  const pacific = { suva: '', apia: '', east: '', west: '' }
  beforeAll(async () => {
    f = await makeFixture()
    const spots = { suva: [-18.14, 178.44], apia: [-13.83, -171.76], east: [-16, 180], west: [-16.5, -180] } as const
    for (const name of ['suva', 'apia', 'east', 'west'] as const) {
      const [lat, lng] = spots[name]
      const res = await f.env.call('POST', '/admin/v1/locations', {
        body: { name: `Pacific ${name}`, address: 'Pacific', coordinates: { lat, lng } },
      })
      pacific[name] = res.body.location.id
    }
  })
  afterAll(() => f.env.close())

  const ids = async (query: string) => new Set(idsOf(await f.get(f.url('/locations', `${query}&limit=100`))))

  test('west > east crosses it: both sides are in the box, its middle on the antimeridian', async () => {
    const res = await f.get(f.url('/locations', 'bbox=170,-25,-170,-10&limit=100'))
    expect(new Set(idsOf(res))).toEqual(new Set(Object.values(pacific)))
    expect(res.body.meta.query.center).toEqual({ lat: -17.5, lng: 180 })
    expect(idsOf(res).slice(0, 2).sort()).toEqual([pacific.east, pacific.west].sort())
  })

  test('longitude 180 and -180 are one meridian: a box that reaches it from either side holds both', async () => {
    expect(await ids('bbox=175,-25,180,-10')).toEqual(new Set([pacific.suva, pacific.east, pacific.west]))
    expect(await ids('bbox=-180,-25,-170,-10')).toEqual(new Set([pacific.apia, pacific.east, pacific.west]))
    expect(await ids('bbox=179,-25,-179,-10')).toEqual(new Set([pacific.east, pacific.west]))
  })

  test('the whole world holds every published location', async () => {
    const res = await f.get(f.url('/locations', 'bbox=-180,-90,180,90&limit=1'))
    expect(res.body.data.pagination.total).toBe(f.locs.filter((l) => l.published).length + 4)
  })
})

describe('GET /locations?bbox= refusals', () => {
  let f: Fixture
  beforeAll(async () => {
    f = await makeFixture()
  })
  afterAll(() => f.env.close())

  const refused = async (query: string, code = 'INVALID_PARAMETER', param = 'bbox') =>
    expectError(await f.get(f.url('/locations', query)), 400, code, naming(param))

  test('a malformed box is 400 INVALID_PARAMETER naming bbox', async () => {
    for (const bad of ['1,2,3', '1,2,3,4,5', 'a,b,c,d', '2.2,48.8,2.4,', '2.2;48.8;2.4;48.9', 'NaN,1,2,3', '1,,2,3'])
      await refused(`bbox=${encodeURIComponent(bad)}`)
  })

  test('a box larger than the world, past a pole or upside down is 400 INVALID_PARAMETER naming bbox', async () => {
    for (const bad of ['-200,40,20,50', '-10,40,190,50', '-10,-91,10,0', '-10,0,10,1e400', '2,49,3,48'])
      await refused(`bbox=${bad}`)
  })

  test('bbox with all=true or a radius, bbox twice, or lat without lng is refused, naming the clash', async () => {
    await refused(`${box(REGION)}&all=true`)
    await refused(`${box(REGION)}&radius=10`, 'INVALID_PARAMETER', 'radius')
    await refused(`${box(REGION)}&${box(REGION)}`)
    await refused(`${box(REGION)}&lat=48.8`, 'MISSING_COORDINATES', 'lng')
    await refused(`${box(REGION)}&sort=nearest`, 'INVALID_PARAMETER', 'sort')
  })
})
