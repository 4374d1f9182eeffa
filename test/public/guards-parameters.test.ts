// The Query API's errors for what a request asks, once the guards let it through: MISSING_COORDINATES,
// INVALID_COORDINATES, INVALID_PARAMETER and LOCATION_NOT_FOUND; and unknown public routes.
import { describe, expect, test } from 'bun:test'
import { appOn, CENTER, expectError, naming, send, type Res } from './fixture'
import { f, NEAR, useGuardsFixture } from './guards-fixture'

useGuardsFixture()

describe('MISSING_COORDINATES (400)', () => {
  test('lat and lng both missing', async () => {
    expectError(await f.get(f.url('/locations')), 400, 'MISSING_COORDINATES')
    expectError(await f.get(f.url('/locations', 'radius=10&unit=km')), 400, 'MISSING_COORDINATES')
  })

  test('the message names every way to give a centre', async () => {
    const res = await f.get(f.url('/locations'))
    expectError(res, 400, 'MISSING_COORDINATES')
    for (const way of ['near', 'bbox', 'all=true']) expect(res.body.error.message).toContain(way)
  })

  test('lat missing', async () => {
    expectError(await f.get(f.url('/locations', `lng=${CENTER.lng}`)), 400, 'MISSING_COORDINATES', naming('lat'))
    expectError(await f.get(f.url('/locations', `lat=&lng=${CENTER.lng}`)), 400, 'MISSING_COORDINATES', naming('lat'))
  })

  test('lng missing', async () => {
    expectError(await f.get(f.url('/locations', `lat=${CENTER.lat}`)), 400, 'MISSING_COORDINATES', naming('lng'))
  })
})

describe('INVALID_COORDINATES (400)', () => {
  test('lat or lng out of range', async () => {
    for (const q of [
      'lat=90.0001&lng=0',
      'lat=-91&lng=0',
      'lat=0&lng=180.5',
      'lat=0&lng=-181',
      'lat=1000&lng=1000',
      'lat=1e400&lng=0',
      'lat=0&lng=-1e400',
      'all=true&lat=95',
      'all=true&lng=-181',
      'all=true&lat=0&lng=200',
    ]) {
      const res = await f.get(f.url('/locations', q))
      expectError(res, 400, 'INVALID_COORDINATES')
    }
  })

  test('the message names the parameter out of range and the value sent', async () => {
    const message = async (q: string) => (await f.get(f.url('/locations', q))).body.error.message
    expect(await message('lat=91&lng=0')).toBe('lat must be between -90 and 90; got "91".')
    expect(await message('lat=0&lng=-181.5')).toBe('lng must be between -180 and 180; got "-181.5".')
    expect(await message('lat=1e400&lng=500')).toBe('lat must be between -90 and 90; got "1e400".')
  })
})

describe('INVALID_PARAMETER (400)', () => {
  const cases: [query: string, param: string][] = [
    [`${NEAR}&unit=feet`, 'unit'],
    [`${NEAR}&tagLogic=some`, 'tagLogic'],
    [`${NEAR}&tagLogic=AND`, 'tagLogic'],
    [`${NEAR}&sort=rating`, 'sort'],
    [`${NEAR}&limit=0`, 'limit'],
    [`${NEAR}&limit=501`, 'limit'],
    [`${NEAR}&limit=abc`, 'limit'],
    [`${NEAR}&limit=-5`, 'limit'],
    [`${NEAR}&limit=2.5`, 'limit'],
    [`${NEAR}&offset=-1`, 'offset'],
    [`${NEAR}&offset=abc`, 'offset'],
    [`${NEAR}&radius=0`, 'radius'],
    [`${NEAR}&radius=-1`, 'radius'],
    [`${NEAR}&radius=1001`, 'radius'],
    [`${NEAR}&radius=1000.5&unit=km`, 'radius'],
    [`${NEAR}&radius=abc`, 'radius'],
    [`${NEAR}&radius=10km`, 'radius'],
    [`lat=abc&lng=${CENTER.lng}`, 'lat'],
    [`lat=${CENTER.lat}&lng=east`, 'lng'],
    [`lat=48.8.5&lng=${CENTER.lng}`, 'lat'],
    ['all=maybe', 'all'],
    ['all=yes', 'all'],
    [`all=true&${Array.from({ length: 51 }, (_, i) => `tags[]=t${i}`).join('&')}`, 'tags'],
    [`all=true&search=${'a'.repeat(201)}`, 'search'],
    [`all=true&search=${encodeURIComponent('🚲'.repeat(201))}`, 'search'],
    [`${NEAR}&radius=1e400`, 'radius'],
    // Given twice: refused whichever value the sender meant, the same value too (only tags[] repeats).
    [`${NEAR}&limit=5&limit=x`, 'limit'],
    [`${NEAR}&limit=5&limit=5`, 'limit'],
    [`${NEAR}&lat=10`, 'lat'],
    [`${NEAR}&radius=5&radius=10&unit=km`, 'radius'],
    [`${NEAR}&unit=km&unit=miles`, 'unit'],
    ['all=true&all=false', 'all'],
    [`all=true&sort=name&sort=priority`, 'sort'],
    [`${NEAR}&tagLogic=all&tagLogic=any`, 'tagLogic'],
    [`all=true&offset=0&offset=20`, 'offset'],
    [`all=true&search=a&search=b`, 'search'],
    [`all=true&search=caf%C3%A9&search=`, 'search'],
    // With all=true the centre and radius are not needed, but one sent is checked all the same.
    ['all=true&lat=48&lat=49', 'lat'],
    ['all=true&lng=2&lng=3', 'lng'],
    ['all=true&radius=5&radius=6', 'radius'],
    ['all=true&lat=abc', 'lat'],
    ['all=true&lng=undefined', 'lng'],
    ['all=true&radius=-5', 'radius'],
    ['all=true&radius=abc', 'radius'],
    ['all=true&radius=1001', 'radius'],
    // Escapes that are not UTF-8: Latin-1's é, a broken escape, a lone byte.
    ['all=true&search=caf%E9', 'search'],
    ['all=true&search=caf%C3', 'search'],
    [`${NEAR}&tags%5B%5D=%FF`, 'tags[]'],
    [`${NEAR}&tags[]=bike&tags[]=caf%E9s`, 'tags[]'],
    [`lat=4%88&lng=${CENTER.lng}`, 'lat'],
  ]

  for (const [query, param] of cases) {
    test(`${param}: ${query.replace(`${NEAR}&`, '').slice(0, 60)}`, async () => {
      expectError(await f.get(f.url('/locations', query)), 400, 'INVALID_PARAMETER', naming(param))
    })
  }

  test('escapes that are UTF-8 are read as sent (U+FFFD and "%" among them); a broken one in a parameter the API does not read is no error', async () => {
    const total = async (query: string) => {
      const res = await f.get(f.url('/locations', query))
      expect({ query, status: res.status }).toEqual({ query, status: 200 })
      return res.body.data.pagination.total
    }
    expect(await total('all=true&search=v%C3%A9lo')).toBe(await total('all=true&search=velo'))
    // "%" and U+FFFD sent encoded are what was meant: no error (they fold to no word, as punctuation does).
    for (const query of ['all=true&search=%25', 'all=true&search=%EF%BF%BD'])
      expect(await total(query)).toBe(await total('all=true&search=-'))
    expect(await total('all=true&search=v%C3%A9lo%25')).toBe(await total('all=true&search=velo'))
    // A "%" without two hex digits after it is the character typed, as URLSearchParams reads it.
    expect(await total('all=true&search=v%C3%A9lo%')).toBe(await total('all=true&search=velo'))
    expect(await total('all=true&search=velo%ZZ')).toBe(await total('all=true&search=velo+zz'))
    expect(await total(`all=true&utm_source=caf%E9&ref=%ZZ`)).toBe(await total('all=true'))
    expect(await total(`all=true&?search=caf%E9`)).toBe(await total('all=true')) // "?search" is no parameter of the API
    expect(await total(`${NEAR}&utm=%E9&tags%5B%5D=repair`)).toBe(await total(`${NEAR}&tags[]=repair`))
  })

  test('limit and offset are numbers: a whole one written "2.0" or with spaces around it is taken, as lat and radius are', async () => {
    const plain = await f.get(f.url('/locations', 'all=true&limit=2&offset=1'))
    expect(plain.status).toBe(200)
    for (const query of [
      'all=true&limit=2.0&offset=1.00',
      'all=true&limit=%202%20&offset=%201',
      'all=true&limit=2.&offset=1',
    ]) {
      const res = await f.get(f.url('/locations', query))
      expect({ query, status: res.status, ids: res.body.data?.locations.map((l: { id: string }) => l.id) }).toEqual({
        query,
        status: 200,
        ids: plain.body.data.locations.map((l: { id: string }) => l.id),
      })
      expect(res.body.data.pagination.limit).toBe(2)
      expect(res.body.data.pagination.offset).toBe(1)
    }
    // A space alone is no value: the default.
    expect((await f.get(f.url('/locations', 'all=true&limit=%20'))).body.data.pagination.limit).toBe(20)
  })

  test('a parameter given twice is named with each value it was given (their first 50 characters)', async () => {
    const res = await f.get(f.url('/locations', `${NEAR}&limit=5&limit=x`))
    expectError(res, 400, 'INVALID_PARAMETER')
    expect(res.body.error.message).toBe('limit may be given once; got it 2 times ("5", "x").')
    const long = await f.get(f.url('/locations', `all=true&search=${'a'.repeat(6_000)}&search=${'b'.repeat(60)}`))
    expect(long.body.error.message).toBe(
      `search may be given once; got it 2 times ("${'a'.repeat(50)}...", "${'b'.repeat(50)}...").`,
    )
  })

  test("the ETag the release before gave a repeated parameter's answer (its first value) no longer matches: the 400, not a 304", async () => {
    const version = /^W\/"([0-9a-z.~]+)-/.exec(
      (await f.get(f.url('/locations', 'all=true&limit=5'))).headers.get('etag')!,
    )![1]
    const twice = f.url('/locations', 'all=true&limit=5&limit=10')
    const before = `W/"${version}-${Bun.hash(twice, 1).toString(36)}"` // ANSWER_FORMAT 1
    expectError(await f.get(twice, { headers: { 'if-none-match': before } }), 400, 'INVALID_PARAMETER')
  })

  test('with all=true, a centre and radius sent and valid change nothing (a lat alone too), and empty ones are none', async () => {
    const plain = await f.get(f.url('/locations', 'all=true&limit=3'))
    expect(plain.status).toBe(200)
    for (const extra of [NEAR, `${NEAR}&radius=5&unit=km`, 'lat=10', 'radius=1000', 'lat=&lng=&radius=']) {
      const res = await f.get(f.url('/locations', `all=true&limit=3&${extra}`))
      expect({ extra, status: res.status, data: res.body.data, meta: res.body.meta }).toEqual({
        extra,
        status: 200,
        data: { ...plain.body.data, pagination: { ...plain.body.data.pagination, next: expect.any(String) } },
        meta: {},
      })
    }
  })

  test('the ETag the release before gave an all=true answer with a repeated lat (its centre ignored) no longer matches: the 400, not a 304', async () => {
    const version = /^W\/"([0-9a-z.~]+)-/.exec(
      (await f.get(f.url('/locations', 'all=true&limit=5'))).headers.get('etag')!,
    )![1]
    const twice = f.url('/locations', 'all=true&lat=48&lat=49')
    const before = `W/"${version}-${Bun.hash(twice, 3).toString(36)}"` // ANSWER_FORMAT 3
    expectError(await f.get(twice, { headers: { 'if-none-match': before } }), 400, 'INVALID_PARAMETER', naming('lat'))
  })

  test('an empty value means the default', async () => {
    const res = await f.get(f.url('/locations', `${NEAR}&unit=&sort=&tagLogic=&limit=&offset=`))
    expect(res.status).toBe(200)
    expect(res.body.meta.query.unit).toBe('miles')
    expect(res.body.data.pagination).toMatchObject({ offset: 0, limit: 20 })
  })

  test('all is read as the Management API reads a flag: true or 1, false or 0, in any case', async () => {
    const every = (await f.get(f.url('/locations', 'all=true'))).body.data
    for (const on of ['True', 'TRUE', '1']) {
      const { locations, pagination } = (await f.get(f.url('/locations', `all=${on}`))).body.data
      expect({ locations, total: pagination.total }).toEqual({
        locations: every.locations,
        total: every.pagination.total,
      })
    }
    for (const off of ['False', '0'])
      expectError(await f.get(f.url('/locations', `all=${off}`)), 400, 'MISSING_COORDINATES')
  })

  test('search is counted in characters: 200 emoji (400 UTF-16 units) are accepted', async () => {
    const res = await f.get(f.url('/locations', `all=true&search=${encodeURIComponent('🚲'.repeat(200))}`))
    expect(res.status).toBe(200) // no word in it: every location
    expect(res.body.data.pagination.total).toBe(
      (await f.get(f.url('/locations', 'all=true'))).body.data.pagination.total,
    )
  })

  test('the bounds themselves are accepted', async () => {
    for (const q of [
      `${NEAR}&radius=1000`,
      `${NEAR}&radius=1000&unit=km`,
      `${NEAR}&radius=0.01`,
      `${NEAR}&limit=500`,
      `${NEAR}&limit=1`,
      `${NEAR}&offset=0`,
    ]) {
      const res = await f.get(f.url('/locations', q))
      expect({ q, status: res.status }).toEqual({ q, status: 200 })
    }
  })
})

describe('LOCATION_NOT_FOUND (404)', () => {
  test('an unknown id and a draft', async () => {
    expectError(await f.get('/locations/loc_zzzzzzzzzzzzzzzz'), 404, 'LOCATION_NOT_FOUND')
    expectError(await f.get(`/locations/${f.ids.hidden}`), 404, 'LOCATION_NOT_FOUND')
  })
})

describe('unknown public routes', () => {
  /** A JSON 404 in the Query API's error shape, never cached. */
  function expectPublic404(res: Res) {
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(res.body).toEqual({
      success: false,
      error: { code: expect.any(String), message: expect.any(String), docs: expect.any(String) },
    })
    expect(res.body.error.docs).toBe(`http://localhost/docs#${res.body.error.code}`)
    expect(res.headers.get('cache-control')).toBe('no-store')
  }

  test('paths that are no endpoint', async () => {
    for (const path of [
      `/public/v1/${f.token}/stores`,
      `/public/v1/${f.token}`,
      `/public/v1/${f.token}/locations/${f.ids.velo}/extra`,
      '/public/v1',
      '/public/v1/',
      '/public/v1?all=true',
      `/public/v1/${f.token}/filters/x`,
    ]) {
      expectPublic404(await send(f.env.app, `http://localhost${path}`))
    }
  })

  test("behind a PUBLIC_BASE_URL with a path (a proxy's prefix), docs is the full URL of the code's section under it", async () => {
    const based = appOn(f.env, { publicBaseUrl: 'https://example.com/stores' })
    const asked = [
      [`/public/v1/${f.token}/stores`, 'NOT_FOUND'],
      [`/public/v1/${f.token}/locations?lat=95&lng=0`, 'INVALID_COORDINATES'],
      [`/public/v1/${f.token}/locations?all=true&limit=0`, 'INVALID_PARAMETER'],
      [`/public/v1/nope/filters`, 'INVALID_TOKEN'],
    ]
    for (const [path, code] of asked) {
      const res = await send(based, `http://localhost${path}`)
      expect(res.body.error).toMatchObject({ code, docs: `https://example.com/stores/docs#${code}` })
    }
  })

  test('a path that only begins with the prefix is not the Query API', async () => {
    for (const path of [`/public/v10/${f.token}/locations?all=true`, `/public/v1x/${f.token}/filters`]) {
      const res = await send(f.env.app, `http://localhost${path}`)
      expect(res.status).toBe(404)
      expect(res.body).toMatchObject({ success: false, error: 'not_found' })
    }
  })

  test('another method on an endpoint is 405 METHOD_NOT_ALLOWED with Allow, not counted; on no endpoint 404', async () => {
    const endpoints = [
      '/locations?all=true',
      `/locations/${f.ids.velo}`,
      '/filters',
      '/filters/',
      '/places?q=par',
      '/clusters?bbox=2,48,3,49&zoom=5',
      '/clusters/x/leaves',
    ]
    const before = (await f.get(f.url('/filters'))).headers.get('ratelimit-remaining')
    for (const path of endpoints)
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const res = await send(f.env.app, `http://localhost/public/v1/${f.token}${path}`, { method })
        expectError(res, 405, 'METHOD_NOT_ALLOWED')
        expect(res.body.error.message).toContain(`${method} /public/v1/${f.token}${path.split('?')[0]}`)
        expect(res.body.error.message).toContain('GET')
        expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
        expect(res.headers.get('cache-control')).toBe('no-store')
        expect(res.headers.get('ratelimit-remaining')).toBe(before)
      }
    const stores = await send(f.env.app, `http://localhost/public/v1/${f.token}/stores`, { method: 'POST' })
    expectError(stores, 404, 'NOT_FOUND')
    expect(stores.headers.get('allow')).toBeNull()
  })
})
