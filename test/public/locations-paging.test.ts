// GET /locations paging (limit, offset, the pagination object and its next and prev links) and
// all=true: every published location, sorted by name, numbers in names as numbers.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { appOn, CENTER, expectError, FILTERS, idsOf, makeFixture, oracle, send, type Fixture } from './fixture'
import { NEAR, LOCATION_KEYS } from './locations-helpers'
import { setLocatorSettings } from '../../src/operator'
import { makeEnv, storeBody, type TestEnv } from '../helpers'

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

  test('past the end, prev leads to the last results there are, not to another empty page', async () => {
    for (const [query, prevOffset] of [
      ['all=true&limit=3&offset=600', '24'],
      ['all=true&offset=100', '7'],
      ['all=true&limit=5&offset=27', '22'],
      [`all=true&limit=3&offset=${Number.MAX_SAFE_INTEGER}`, '24'],
    ] as const) {
      const res = await f.get(f.url('/locations', query))
      const prev = new URL(res.body.data.pagination.prev)
      expect({ query, offset: prev.searchParams.get('offset') }).toEqual({ query, offset: prevOffset })
      const page = await f.get(prev.href)
      expect({ query, ids: idsOf(page) }).toEqual({ query, ids: allByName().slice(Number(prevOffset)) })
    }
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

describe('name order', () => {
  const NAMES = ['Store 10', 'Store 2', 'A10 Cycles', 'Store 100', 'Route 66 Bikes', 'Store 9b', 'Store 1']
  // Long runs too: one of 150 digits after one of 100 and one of 99.
  const LOTS = [`Lot 1${'0'.repeat(149)}`, `Lot 2${'0'.repeat(99)}`, `Lot ${'9'.repeat(99)}`]
  const NAMES_MORE = ['A2 Cycles', 'Store 09a', 'Route 7 Bikes', 'A1 Cycles', 'Store 0', ...LOTS]
  let env: TestEnv
  beforeAll(async () => {
    env = makeEnv()
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    for (const [i, name] of [...NAMES, ...NAMES_MORE].entries()) {
      const body = storeBody({ name, coordinates: { lat: 51.5 + i / 1000, lng: -0.12 } })
      expect((await env.call('POST', '/admin/v1/locations', { body })).status).toBe(201)
    }
  })
  afterAll(() => env.close())

  test('a number in a name counts as a number: Store 2 before Store 10, with leading zeros not counted', async () => {
    const token = env.store.locators.get(env.locatorId)!.publicToken
    const names = async (qs: string) => {
      const res = await env.call('GET', `/public/v1/${token}/locations?${qs}&limit=50`, { key: null })
      expect(res.status).toBe(200)
      return res.body.data.locations.map((l: { name: string }) => l.name)
    }
    const expected = [
      'A1 Cycles',
      'A2 Cycles',
      'A10 Cycles',
      LOTS[2],
      LOTS[1],
      LOTS[0],
      'Route 7 Bikes',
      'Route 66 Bikes',
      'Store 0',
      'Store 1',
      'Store 2',
      'Store 09a',
      'Store 9b',
      'Store 10',
      'Store 100',
    ]
    expect(await names('all=true')).toEqual(expected)
    // Ties of distance and rank fall back to the name order too.
    expect(await names('all=true&sort=priority')).toEqual(expected)
  })
})
