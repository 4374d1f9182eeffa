// The Query API's guards and every error code it documents (plus RATE_LIMITED from the design): one
// test per code asserting status, the whole body and Cache-Control: no-store; the order the guards
// run in; and unknown public routes.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { createApp } from '../../src/server/app'
import { cli } from '../../src/cli/main'
import { RateLimiter } from '../../src/api/public/guards'
import { PublicError } from '../../src/api/public/errors'
import { createLocator, rotatePublicToken, setLocatorSettings } from '../../src/operator'
import { appOn, CENTER, expectError, FAKE_SECRET, makeFixture, naming, send, type Fixture, type Res } from './fixture'

const NEAR = `lat=${CENTER.lat}&lng=${CENTER.lng}`

let f: Fixture
beforeEach(async () => {
  f = await makeFixture()
})
afterEach(() => f.env.close())

/** The three endpoints of the Query API on a token. */
const endpoints = (token: string, id: string) => [
  `http://localhost/public/v1/${token}/locations?all=true`,
  `http://localhost/public/v1/${token}/locations?${NEAR}`,
  `http://localhost/public/v1/${token}/locations/${id}`,
  `http://localhost/public/v1/${token}/filters`,
]

const deactivate = (id: string) => f.env.store.db.run('UPDATE locators SET active = 0 WHERE id = ?', [id])

describe('INVALID_TOKEN (404)', () => {
  test('an unknown token, on every endpoint', async () => {
    for (const token of ['pk_AAAAAAAAAAAAAAAAAAAAAAAA', 'nope', f.env.locatorId]) {
      for (const url of endpoints(token, f.ids.velo!)) {
        const res = await send(f.env.app, url)
        expectError(res, 404, 'INVALID_TOKEN')
        expect(res.headers.get('etag')).toBeNull()
      }
    }
  })

  test('an inactive locator, seen by an app started after the change', async () => {
    expect((await f.get('/filters')).status).toBe(200)
    deactivate(f.env.locatorId)
    const fresh = appOn(f.env)
    for (const url of endpoints(f.token, f.ids.velo!)) expectError(await send(fresh, url), 404, 'INVALID_TOKEN')
  })

  test('an inactive locator, seen by a running app once a locator change is written', async () => {
    expect((await f.get('/filters')).status).toBe(200) // the token is now known to this app
    deactivate(f.env.locatorId)
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '999' }) // any write that appends a locator change
    for (const url of endpoints(f.token, f.ids.velo!)) expectError(await send(f.env.app, url), 404, 'INVALID_TOKEN')
  })

  test('a rotated token stops working at once; the new one works at once', async () => {
    expect((await f.get('/filters')).status).toBe(200)
    const rotated = rotatePublicToken(f.env.store, f.env.locatorId)
    expect(rotated.publicToken).not.toBe(f.token)
    for (const url of endpoints(f.token, f.ids.velo!)) expectError(await send(f.env.app, url), 404, 'INVALID_TOKEN')
    for (const url of endpoints(rotated.publicToken, f.ids.velo!)) expect((await send(f.env.app, url)).status).toBe(200)
  })
})

describe('API_NOT_ENABLED (403)', () => {
  test('a locator whose Query API was never switched on', async () => {
    const other = createLocator(f.env.store, 'Off by default')
    for (const url of endpoints(other.locator.publicToken, f.ids.velo!))
      expectError(await send(f.env.app, url), 403, 'API_NOT_ENABLED')
  })

  test('the CLI switching the API off (another connection to the database) applies to the very next request', async () => {
    expect((await f.get('/filters')).status).toBe(200)
    const out: string[] = []
    const code = await cli(
      ['locator', 'set', f.env.locatorId, '--query-api', 'off'],
      { DATABASE_PATH: join(f.env.dir, 'test.db'), GEOCODER: 'none' },
      (t) => out.push(t),
      (t) => out.push(t),
    )
    expect({ code, out }).toEqual({ code: 0, out: expect.any(Array) })
    for (const url of endpoints(f.token, f.ids.velo!)) expectError(await send(f.env.app, url), 403, 'API_NOT_ENABLED')
  })

  test('switching the API off and on applies to the very next request', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { queryApi: 'off' })
    for (const url of endpoints(f.token, f.ids.velo!)) expectError(await send(f.env.app, url), 403, 'API_NOT_ENABLED')
    setLocatorSettings(f.env.store, f.env.locatorId, { queryApi: 'on' })
    for (const url of endpoints(f.token, f.ids.velo!)) expect((await send(f.env.app, url)).status).toBe(200)
  })
})

describe('REFERRER_NOT_ALLOWED (403)', () => {
  beforeEach(() => {
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'shop.example.com,*.example.org' })
  })
  const from = (headers: Record<string, string>) => f.get(f.url('/locations', 'all=true'), { headers })

  test('Origin: an exact host or a subdomain of a wildcard entry is allowed, any port', async () => {
    for (const origin of [
      'https://shop.example.com',
      'http://shop.example.com:8080',
      'https://a.example.org',
      'https://deep.sub.example.org',
      'https://SHOP.Example.COM',
    ]) {
      const res = await from({ origin })
      expect({ origin, status: res.status }).toEqual({ origin, status: 200 })
    }
  })

  test('Origin: other hosts are refused, including look-alikes', async () => {
    for (const origin of [
      'https://evil.example.com',
      'https://example.com',
      'https://shop.example.com.evil.net',
      'https://notexample.org',
      'https://example.org.evil.net',
      'https://www.shop.example.com',
    ]) {
      const res = await from({ origin })
      expectError(res, 403, 'REFERRER_NOT_ALLOWED')
    }
  })

  test('Referer is used when there is no Origin', async () => {
    expect((await from({ referer: 'https://a.example.org/stores/near-me?x=1' })).status).toBe(200)
    expect((await from({ referer: 'https://shop.example.com/' })).status).toBe(200)
    expectError(await from({ referer: 'https://evil.example.net/page' }), 403, 'REFERRER_NOT_ALLOWED')
  })

  test('Origin wins over Referer', async () => {
    expectError(
      await from({ origin: 'https://evil.example.net', referer: 'https://shop.example.com/' }),
      403,
      'REFERRER_NOT_ALLOWED',
    )
    expect((await from({ origin: 'https://shop.example.com', referer: 'https://evil.example.net/' })).status).toBe(200)
  })

  test('a request naming no site at all is refused', async () => {
    expectError(await from({}), 403, 'REFERRER_NOT_ALLOWED')
    expect((await from({})).body.error.message).toMatch(/named none \(no Origin or Referer\)/)
    for (const url of endpoints(f.token, f.ids.velo!))
      expectError(await send(f.env.app, url), 403, 'REFERRER_NOT_ALLOWED')
  })

  test('an Origin or Referer that names no host is refused, and the message says so (not that none was sent)', async () => {
    for (const headers of [
      { origin: 'null' },
      { origin: 'garbage' },
      { referer: 'garbage' },
      { referer: 'mailto:shop@example.com' },
      { origin: 'null', referer: '/relative/page' },
    ] as Record<string, string>[]) {
      const res = await from(headers)
      expectError(res, 403, 'REFERRER_NOT_ALLOWED')
      expect({ headers, message: res.body.error.message }).toEqual({
        headers,
        message: expect.stringContaining('names no site'),
      })
    }
  })

  test('clearing the allowlist lets every site (and no site) in again, at once', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: '' })
    expect((await from({})).status).toBe(200)
    expect((await from({ origin: 'https://evil.example.net' })).status).toBe(200)
  })
})

describe('MISSING_COORDINATES (400)', () => {
  test('lat and lng both missing', async () => {
    expectError(await f.get(f.url('/locations')), 400, 'MISSING_COORDINATES')
    expectError(await f.get(f.url('/locations', 'radius=10&unit=km')), 400, 'MISSING_COORDINATES')
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
    const long = await f.get(f.url('/locations', `all=true&search=${'a'.repeat(60_000)}&search=${'b'.repeat(60)}`))
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

describe('SECRET_KEY_EXPOSED (400)', () => {
  const keyId = () => f.env.store.keys.findBySecret(f.env.key)!.id

  /** The error, and the key nowhere in the response. */
  function expectExposed(res: Res, key: string) {
    expectError(res, 400, 'SECRET_KEY_EXPOSED')
    expect(res.text).not.toContain(key)
    expect(res.text).not.toContain(key.slice(3, 20))
    for (const [, v] of res.headers) expect(v).not.toContain(key)
  }

  test('a key-shaped value in the token segment', async () => {
    expectExposed(await send(f.env.app, `http://localhost/public/v1/${FAKE_SECRET}/locations?all=true`), FAKE_SECRET)
    expectExposed(await send(f.env.app, `http://localhost/public/v1/${FAKE_SECRET}/filters`), FAKE_SECRET)
    expectExposed(
      await send(f.env.app, `http://localhost/public/v1/${FAKE_SECRET}/locations/${f.ids.velo}`),
      FAKE_SECRET,
    )
  })

  test('a key-shaped value in the query string, plain or percent-encoded', async () => {
    expectExposed(await f.get(f.url('/locations', `all=true&api_key=${FAKE_SECRET}`)), FAKE_SECRET)
    expectExposed(await f.get(f.url('/locations', `${NEAR}&search=${FAKE_SECRET}`)), FAKE_SECRET)
    expectExposed(await f.get(f.url('/filters', `key=%73%6B_${FAKE_SECRET.slice(3)}`)), FAKE_SECRET)
  })

  test('an error message that quotes a key (should one reach it past the check) has it redacted', async () => {
    const res = new PublicError(
      'INVALID_PARAMETER',
      `sort must be one of distance, priority; got "${FAKE_SECRET}".`,
    ).toResponse('http://localhost')
    const text = await res.text()
    expect(text).not.toContain(FAKE_SECRET.slice(3))
    expect(JSON.parse(text).error.message).toBe('sort must be one of distance, priority; got "sk_[redacted]".')
  })

  test('a key spelt with escapes beside an escape that is not UTF-8 (the URL as a whole cannot be decoded)', async () => {
    for (const query of [
      `all=true&search=%73k_${FAKE_SECRET.slice(3)}%E9`,
      `all=true&x=%E9&sort=%73k%5F${FAKE_SECRET.slice(3)}`,
    ]) {
      expectExposed(await f.get(f.url('/locations', query)), FAKE_SECRET)
    }
  })

  test('a key-shaped value in an Authorization header', async () => {
    expectExposed(
      await f.get(f.url('/locations', 'all=true'), { headers: { authorization: `Bearer ${FAKE_SECRET}` } }),
      FAKE_SECRET,
    )
    expectExposed(await f.get('/filters', { headers: { authorization: FAKE_SECRET } }), FAKE_SECRET)
  })

  test('on a path that is no endpoint, too', async () => {
    expectExposed(await send(f.env.app, `http://localhost/public/v1/${FAKE_SECRET}`), FAKE_SECRET)
    expectExposed(await send(f.env.app, `http://localhost/public/v1/${f.token}/nothing?k=${FAKE_SECRET}`), FAKE_SECRET)
  })

  test('a real key is marked exposed (the store and `storeloc key list` show it); a look-alike marks nothing', async () => {
    expectExposed(await f.get(f.url('/locations', `all=true&k=${FAKE_SECRET}`)), FAKE_SECRET)
    await f.env.store.writeSoon(() => {}) // a mark would be written by now (below)
    expect(f.env.store.keys.get(keyId())!.exposedAt).toBeNull()

    expectExposed(await send(f.env.app, `http://localhost/public/v1/${f.env.key}/locations?all=true`), f.env.key)
    await f.env.store.writeSoon(() => {}) // the mark is written soon, not before the answer: this settles after it
    const exposedAt = f.env.store.keys.get(keyId())!.exposedAt
    expect(exposedAt).not.toBeNull()
    expect(Date.now() - Date.parse(exposedAt!)).toBeLessThan(60_000)

    const out: string[] = []
    const code = await cli(
      ['key', 'list', f.env.locatorId, '--json'],
      { DATABASE_PATH: join(f.env.dir, 'test.db'), GEOCODER: 'none' },
      (t) => out.push(t),
      (t) => out.push(t),
    )
    expect(code).toBe(0)
    const rows = JSON.parse(out.join('\n')) as { id: string; exposed: boolean }[]
    expect(rows.find((r) => r.id === keyId())!.exposed).toBe(true)
    // The human list says how to make it stop working at once.
    const human: string[] = []
    expect(
      await cli(
        ['key', 'list', f.env.locatorId],
        { DATABASE_PATH: join(f.env.dir, 'test.db'), GEOCODER: 'none' },
        (t) => human.push(t),
        (t) => human.push(t),
      ),
    ).toBe(0)
    expect(human.join('\n')).toContain('storeloc key rotate KEY_ID --grace-hours 0')
  })

  test('a real key in an Authorization header or the query is marked too', async () => {
    expectExposed(await f.get('/filters', { headers: { authorization: `Bearer ${f.env.key}` } }), f.env.key)
    await f.env.store.writeSoon(() => {})
    expect(f.env.store.keys.get(keyId())!.exposedAt).not.toBeNull()
  })

  test('the key never reaches the request log', async () => {
    const lines: Record<string, unknown>[] = []
    const app = createApp({
      store: f.env.store,
      geocoder: f.env.geocoder,
      config: { maxBodyBytes: 262144, logRequests: true },
      log: (l) => lines.push(l),
    })
    await send(app, `http://localhost/public/v1/${f.env.key}/locations?all=true`)
    await send(app, `http://localhost/public/v1/${f.token}/locations?all=true&k=${f.env.key}`)
    // Percent-encoded, in part or whole: the check decodes it, the log must not show it either.
    const encoded = [
      `sk%5F${f.env.key.slice(3)}`,
      `%73k_${f.env.key.slice(3)}`,
      [...f.env.key].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
    ]
    for (const e of encoded)
      expectExposed(await send(app, `http://localhost/public/v1/${e}/locations?all=true`), f.env.key)
    await Bun.sleep(20) // request lines are written after the response
    expect(lines.length).toBeGreaterThan(0)
    expect(JSON.stringify(lines)).not.toContain(f.env.key)
    expect(JSON.stringify(lines)).not.toContain(f.env.key.slice(3, 20))
    expect(JSON.stringify(lines).match(/sk_\[redacted\]/g)?.length).toBe(4) // the four paths; the query string is not logged
  })
})

describe('RATE_LIMITED (429) and the rate headers', () => {
  const MINUTE = 60_000
  const WINDOW = 28_333_333 * MINUTE // a minute boundary
  let now = WINDOW + 10_000
  let app: ReturnType<typeof appOn>
  beforeEach(() => {
    now = WINDOW + 10_000
    app = appOn(f.env, { limiter: new RateLimiter(() => now) })
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '3' })
  })
  const hit = (path = '/filters', headers: Record<string, string> = {}) =>
    f.get(path.startsWith('http') ? path : f.url(path), { app, headers })
  const rate = (res: Res) => ({
    limit: res.headers.get('ratelimit-limit'),
    remaining: res.headers.get('ratelimit-remaining'),
    reset: res.headers.get('ratelimit-reset'),
  })

  test('the 4th request in a minute is refused with Retry-After and the RateLimit headers', async () => {
    for (const remaining of ['2', '1', '0']) {
      const res = await hit()
      expect(res.status).toBe(200)
      expect(rate(res)).toEqual({ limit: '3', remaining, reset: '50' })
    }
    const res = await hit()
    expectError(res, 429, 'RATE_LIMITED')
    expect(rate(res)).toEqual({ limit: '3', remaining: '0', reset: '50' })
    expect(res.headers.get('retry-after')).toBe('50')

    now += 45_000 // still the same minute
    const later = await hit()
    expectError(later, 429, 'RATE_LIMITED')
    expect(later.headers.get('retry-after')).toBe('5')
  })

  test('a new minute admits again', async () => {
    for (let i = 0; i < 3; i++) expect((await hit()).status).toBe(200)
    expect((await hit()).status).toBe(429)
    now = WINDOW + MINUTE + 1_000
    const res = await hit()
    expect(res.status).toBe(200)
    expect(rate(res)).toEqual({ limit: '3', remaining: '2', reset: '59' })
  })

  test('the wall clock set back (NTP, a VM resumed): a new minute, not the spent one stretched by as much', async () => {
    for (let i = 0; i < 3; i++) expect((await hit()).status).toBe(200)
    expect((await hit()).status).toBe(429)
    now -= 60 * MINUTE // an hour back: 10 s into the minute an hour earlier
    const res = await hit()
    expect(res.status).toBe(200)
    expect(rate(res)).toEqual({ limit: '3', remaining: '2', reset: '50' })
  })

  test('a changed limit applies at once, up and down', async () => {
    for (let i = 0; i < 3; i++) expect((await hit()).status).toBe(200)
    expect((await hit()).status).toBe(429)
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '6' })
    const res = await hit() // the 5th request of the minute
    expect(res.status).toBe(200)
    expect(rate(res).limit).toBe('6')
    expect(rate(res).remaining).toBe('1')
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '2' })
    const down = await hit()
    expectError(down, 429, 'RATE_LIMITED')
    expect(rate(down).limit).toBe('2')
  })

  test('every endpoint counts, and errors after the guards carry the headers too', async () => {
    const bad = await hit(f.url('/locations', 'all=true&limit=0'))
    expectError(bad, 400, 'INVALID_PARAMETER', naming('limit'))
    expect(rate(bad)).toEqual({ limit: '3', remaining: '2', reset: '50' })
    const missing = await hit(`/locations/${f.ids.hidden}`)
    expectError(missing, 404, 'LOCATION_NOT_FOUND')
    expect(rate(missing).remaining).toBe('1')
    expect((await hit(f.url('/locations', `${NEAR}`))).status).toBe(200)
    expectError(await hit(f.url('/locations', 'all=true')), 429, 'RATE_LIMITED')
  })

  test('a refusal by the allowlist or the switch (403) says where the budget stands, and is not counted', async () => {
    expect((await hit()).status).toBe(200)
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'shop.example.com' })
    for (let i = 0; i < 5; i++) {
      const refused = await hit('/filters', { origin: 'https://evil.example.net' })
      expectError(refused, 403, 'REFERRER_NOT_ALLOWED')
      expect(rate(refused)).toEqual({ limit: '3', remaining: '2', reset: '50' })
    }
    const allowed = await hit('/filters', { origin: 'https://shop.example.com' })
    expect(allowed.status).toBe(200)
    expect(rate(allowed).remaining).toBe('1')
    setLocatorSettings(f.env.store, f.env.locatorId, { queryApi: 'off' })
    const off = await hit()
    expectError(off, 403, 'API_NOT_ENABLED')
    expect(rate(off)).toEqual({ limit: '3', remaining: '1', reset: '50' })
    now = WINDOW + MINUTE + 30_000 // a new minute: the whole budget, its reset 30 s away
    expect(rate(await hit())).toEqual({ limit: '3', remaining: '3', reset: '30' })
    // An unknown token has no budget to tell.
    const unknown = await send(app, 'http://localhost/public/v1/pk_000000000000000000000000/filters')
    expectError(unknown, 404, 'INVALID_TOKEN')
    expect(unknown.headers.get('ratelimit-limit')).toBeNull()
  })

  test("a secret key refused (400) and a path with no endpoint (404) under a locator's token say where its budget stands, and are not counted", async () => {
    expect((await hit()).status).toBe(200)
    const exposed = await hit(f.url('/locations', `all=true&k=${FAKE_SECRET}`))
    expectError(exposed, 400, 'SECRET_KEY_EXPOSED')
    expect(rate(exposed)).toEqual({ limit: '3', remaining: '2', reset: '50' })
    for (const path of ['', '/', '/Locations', '/locations/a/b', `/nothing?k=${FAKE_SECRET}`]) {
      const none = await hit(path)
      expect({ path, status: none.status, rate: rate(none) }).toEqual({
        path,
        status: path.includes('k=') ? 400 : 404,
        rate: { limit: '3', remaining: '2', reset: '50' },
      })
    }
    // The token percent-encoded, as the routes read it decoded.
    const token = f.env.store.locators.get(f.env.locatorId)!.publicToken!
    const encoded = await send(app, `http://localhost/public/v1/${token.replace('_', '%5F')}/Locations`)
    expectError(encoded, 404, 'NOT_FOUND')
    expect(rate(encoded).remaining).toBe('2')
    const posted = await send(app, f.url('/locations', 'all=true'), { method: 'POST' })
    expectError(posted, 404, 'NOT_FOUND')
    expect(rate(posted).remaining).toBe('2')
    expect(rate(await hit()).remaining).toBe('1')
    // A token that names no locator, or a key in the token's place: no budget to tell.
    for (const token of ['pk_000000000000000000000000', FAKE_SECRET]) {
      const res = await send(app, `http://localhost/public/v1/${token}/Locations`)
      expect(res.status).toBe(token === FAKE_SECRET ? 400 : 404)
      expect(res.headers.get('ratelimit-limit')).toBeNull()
    }
  })

  test('a failed lookup of the token for these headers alone loses nothing else: the same 404 or 400, without them', async () => {
    const fresh = appOn(f.env) // no token looked up yet
    const { locators } = f.env.store
    const byToken = locators.byToken
    Object.assign(locators, {
      byToken: () => {
        throw new Error('disk I/O error')
      },
    })
    try {
      const none = await send(fresh, f.url('/Locations'))
      expectError(none, 404, 'NOT_FOUND')
      const exposed = await send(fresh, f.url('/locations', `all=true&k=${FAKE_SECRET}`))
      expectError(exposed, 400, 'SECRET_KEY_EXPOSED')
      for (const res of [none, exposed]) expect(res.headers.get('ratelimit-limit')).toBeNull()
    } finally {
      Object.assign(locators, { byToken })
    }
  })

  test('each token has its own budget', async () => {
    const other = createLocator(f.env.store, 'Other')
    setLocatorSettings(f.env.store, other.locator.id, { queryApi: 'on', rateLimit: '3' })
    for (let i = 0; i < 3; i++) expect((await hit()).status).toBe(200)
    expect((await hit()).status).toBe(429)
    const res = await send(app, `http://localhost/public/v1/${other.locator.publicToken}/filters`)
    expect(res.status).toBe(200)
    expect(rate(res).remaining).toBe('2')
  })

  test('successful responses carry the headers with the default of 1,000 per minute', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '1000' })
    const res = await f.get(f.url('/locations', 'all=true'))
    expect(res.status).toBe(200)
    expect(res.headers.get('ratelimit-limit')).toBe('1000')
    expect(Number(res.headers.get('ratelimit-remaining'))).toBeLessThan(1000)
    expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1)
    expect(Number(res.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(60)

    const other = createLocator(f.env.store, 'Defaults')
    setLocatorSettings(f.env.store, other.locator.id, { queryApi: 'on' })
    const fresh = await send(f.env.app, `http://localhost/public/v1/${other.locator.publicToken}/filters`)
    expect(rate(fresh).limit).toBe('1000')
    expect(rate(fresh).remaining).toBe('999')
  })
})

describe('the order of the guards', () => {
  test('a secret key is refused before the token is looked at', async () => {
    expectError(
      await send(f.env.app, `http://localhost/public/v1/pk_AAAAAAAAAAAAAAAAAAAAAAAA/filters?k=${FAKE_SECRET}`),
      400,
      'SECRET_KEY_EXPOSED',
    )
    const off = createLocator(f.env.store, 'Off')
    expectError(
      await send(f.env.app, `http://localhost/public/v1/${off.locator.publicToken}/filters`, {
        headers: { authorization: `Bearer ${FAKE_SECRET}` },
      }),
      400,
      'SECRET_KEY_EXPOSED',
    )
  })

  test('the token before the API switch', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { queryApi: 'off' })
    deactivate(f.env.locatorId)
    expectError(await send(appOn(f.env), f.url('/filters')), 404, 'INVALID_TOKEN')
  })

  test('the API switch before the referrer allowlist', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { queryApi: 'off', referrers: 'shop.example.com' })
    expectError(await f.get('/filters', { headers: { origin: 'https://evil.example.net' } }), 403, 'API_NOT_ENABLED')
    expectError(await f.get('/filters'), 403, 'API_NOT_ENABLED')
  })

  test('the referrer allowlist before the rate limit: refused requests use no budget, and are refused as such when it is spent', async () => {
    let now = 28_333_333 * 60_000
    const app = appOn(f.env, { limiter: new RateLimiter(() => now) })
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'shop.example.com', rateLimit: '3' })
    for (let i = 0; i < 5; i++)
      expectError(
        await f.get('/filters', { app, headers: { origin: 'https://evil.example.net' } }),
        403,
        'REFERRER_NOT_ALLOWED',
      )
    for (let i = 0; i < 3; i++)
      expect((await f.get('/filters', { app, headers: { origin: 'https://shop.example.com' } })).status).toBe(200)
    expectError(await f.get('/filters', { app, headers: { origin: 'https://shop.example.com' } }), 429, 'RATE_LIMITED')
    expectError(
      await f.get('/filters', { app, headers: { origin: 'https://evil.example.net' } }),
      403,
      'REFERRER_NOT_ALLOWED',
    )
    now += 60_000
    expect((await f.get('/filters', { app, headers: { origin: 'https://shop.example.com' } })).status).toBe(200)
  })

  test('parameters are checked only after the guards', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { queryApi: 'off' })
    expectError(await f.get(f.url('/locations', 'limit=0')), 403, 'API_NOT_ENABLED')
    expectError(await send(f.env.app, 'http://localhost/public/v1/nope/locations?limit=0'), 404, 'INVALID_TOKEN')
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

  test('methods other than GET answer in the public error shape', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await send(f.env.app, f.url('/locations', 'all=true'), { method })
      expect([404, 405]).toContain(res.status)
      expect(res.body).toEqual({
        success: false,
        error: { code: expect.any(String), message: expect.any(String), docs: expect.any(String) },
      })
      expect(res.headers.get('cache-control')).toBe('no-store')
    }
  })
})
