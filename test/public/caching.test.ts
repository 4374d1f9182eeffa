// Caching and CORS on the Query API: Cache-Control, ETag and If-None-Match (304), the ETag moving
// with every write to the locator and with nothing else; CORS headers on the public API only.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { RateLimiter } from '../../src/api/public/guards'
import { addCustomField, createLocator, setFilters, setLocatorSettings, setPriorityRules } from '../../src/operator'
import {
  type AnyApp,
  appOn,
  CENTER,
  expectError,
  FILTERS,
  makeFixture,
  priorityRules,
  send,
  type Fixture,
  type Res,
} from './fixture'
import { storeBody } from '../helpers'

const NEAR = `lat=${CENTER.lat}&lng=${CENTER.lng}`

let f: Fixture
beforeEach(async () => {
  f = await makeFixture()
})
afterEach(() => f.env.close())

const urls = () => [
  f.url('/locations', 'all=true'),
  f.url('/locations', NEAR),
  f.url(`/locations/${f.ids.velo}`),
  f.url('/filters'),
]

describe('Cache-Control and ETag', () => {
  test('success responses are cacheable for 60 seconds and carry an ETag', async () => {
    for (const url of urls()) {
      const res = await f.get(url)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('public, max-age=60')
      expect(res.headers.get('etag')).toMatch(/^(W\/)?"[^"]+"$/)
    }
  })

  test('If-None-Match with the ETag gives 304 with no body; the same request gives the same ETag', async () => {
    for (const url of urls()) {
      const first = await f.get(url)
      const etag = first.headers.get('etag')!
      const again = await f.get(url)
      expect(again.headers.get('etag')).toBe(etag)
      expect(again.text).toBe(first.text)
      const res = await f.get(url, { headers: { 'if-none-match': etag } })
      expect(res.status).toBe(304)
      expect(res.text).toBe('')
      expect(res.headers.get('etag')).toBe(etag)
      expect(res.headers.get('cache-control')).toBe('public, max-age=60')
    }
  })

  test('If-None-Match listing several ETags, the current one among them, gives 304', async () => {
    const url = f.url('/locations', 'all=true')
    const etag = (await f.get(url)).headers.get('etag')!
    const res = await f.get(url, { headers: { 'if-none-match': `W/"0-stale", ${etag}` } })
    expect(res.status).toBe(304)
    expect(res.text).toBe('')
  })

  test('If-None-Match: * gives 304 for an answer there is, and the error for a request that has none', async () => {
    for (const url of urls()) {
      const res = await f.get(url, { headers: { 'if-none-match': '*' } })
      expect({ url, status: res.status, text: res.text }).toEqual({ url, status: 304, text: '' })
    }
    const star = { headers: { 'if-none-match': '*' } }
    expectError(await f.get('/locations/loc_0000000000000000', star), 404, 'LOCATION_NOT_FOUND')
    expectError(await f.get(f.url('/locations', 'lat=abc&lng=1'), star), 400, 'INVALID_PARAMETER')
    expectError(await f.get(f.url('/locations', 'lat=95&lng=0'), star), 400, 'INVALID_COORDINATES')
    expectError(await f.get(f.url('/locations', ''), star), 400, 'MISSING_COORDINATES')
  })

  test('another ETag in If-None-Match gives the full answer', async () => {
    const url = f.url('/locations', 'all=true')
    const other = (await f.get(f.url('/filters'))).headers.get('etag')!
    for (const inm of [other, '"nope"', 'W/"0-0"']) {
      const res = await f.get(url, { headers: { 'if-none-match': inm } })
      expect(res.status).toBe(200)
      expect(res.body.data.locations.length).toBe(20)
    }
  })

  test("an ETag of the release before the answers' format changed (unit defaulting to the locator's) gives the full answer", async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { radius: '40', unit: 'km' })
    const url = f.url('/locations', NEAR)
    const res = await f.get(url)
    expect(res.body.meta.query.unit).toBe('miles') // the same URL answered in km before
    const [, version] = /^W\/"([0-9a-z.~]+)-/.exec(res.headers.get('etag')!)!
    // As that release made them: the locator's version, the URL's hash.
    const before = `W/"${version}-${Bun.hash(new URL(url, 'http://localhost').href).toString(36)}"`
    expect(before).not.toBe(res.headers.get('etag'))
    const again = await f.get(url, { headers: { 'if-none-match': before } })
    expect(again.status).toBe(200)
    expect(again.body.meta.query.unit).toBe('miles')
  })

  test('an ETag of the release that showed a converted radius unrounded (format 2) gives the full answer, with the radius rounded', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { radius: '10', unit: 'km' })
    const url = f.url('/locations', NEAR)
    const res = await f.get(url)
    const [, version] = /^W\/"([0-9a-z.~]+)-/.exec(res.headers.get('etag')!)!
    const before = `W/"${version}-${Bun.hash(url, 2).toString(36)}"` // ANSWER_FORMAT 2: radius 6.2137119223733395
    expect(before).not.toBe(res.headers.get('etag'))
    const again = await f.get(url, { headers: { 'if-none-match': before } })
    expect(again.status).toBe(200)
    expect(again.body.meta.query.radius).toBe(6.21)
  })

  test('different queries have different ETags', async () => {
    const queries = [
      f.url('/locations', 'all=true'),
      f.url('/locations', 'all=true&limit=5'),
      f.url('/locations', 'all=true&offset=20'),
      f.url('/locations', 'all=true&sort=priority'),
      f.url('/locations', 'all=true&tags[]=repair'),
      f.url('/locations', 'all=true&tags[]=rental'),
      f.url('/locations', 'all=true&search=bik'),
      f.url('/locations', NEAR),
      f.url('/locations', `${NEAR}&unit=km`),
      f.url('/locations', `${NEAR}&radius=10`),
      f.url('/locations', `lat=48.9&lng=${CENTER.lng}`),
      f.url(`/locations/${f.ids.velo}`),
      f.url(`/locations/${f.ids.eclair}`),
      f.url('/filters'),
    ]
    const etags = new Set<string>()
    for (const url of queries) {
      const res = await f.get(url)
      expect(res.status).toBe(200)
      etags.add(res.headers.get('etag')!)
    }
    expect(etags.size).toBe(queries.length)
  })

  test('the ETag is the same from another app on the same database (another process, or after a restart)', async () => {
    const other = appOn(f.env)
    for (const url of urls()) {
      const a = await f.get(url)
      const b = await f.get(url, { app: other })
      expect(b.headers.get('etag')).toBe(a.headers.get('etag'))
      expect((await f.get(url, { app: other, headers: { 'if-none-match': a.headers.get('etag')! } })).status).toBe(304)
    }
  })

  test('a restart on another PUBLIC_BASE_URL gives other ETags (its answers link elsewhere): no 304 for the old links', async () => {
    const url = f.url('/locations', 'all=true&limit=5')
    const plain = await f.get(url)
    const based = appOn(f.env, { publicBaseUrl: 'https://stores.example.com' })
    const res = await f.get(url, { app: based, headers: { 'if-none-match': plain.headers.get('etag')! } })
    expect(res.status).toBe(200)
    expect(res.body.data.pagination.next).toStartWith('https://stores.example.com/')
    expect(res.headers.get('etag')).not.toBe(plain.headers.get('etag'))
    expect(
      (
        await f.get(url, {
          app: appOn(f.env, { publicBaseUrl: 'https://stores.example.com' }),
          headers: { 'if-none-match': res.headers.get('etag')! },
        })
      ).status,
    ).toBe(304)
  })

  test('a backup restored into the file: a write after it gives no ETag given before it for other rows, in a process started since', async () => {
    const url = f.url('/locations', 'all=true')
    const backupSeq = f.env.store.changes.lastSeq()
    expect(
      (await f.env.call('POST', '/admin/v1/locations', { body: storeBody({ name: 'Gone after the restore' }) })).status,
    ).toBe(201)
    const before = await f.get(url)
    expect(before.text).toContain('Gone after the restore')
    // What restoring the backup taken at backupSeq does: the row is gone and the log is back where it was.
    f.env.store.db.transaction(() => {
      f.env.store.db.run("DELETE FROM locations WHERE name = 'Gone after the restore'")
      f.env.store.db.run('DELETE FROM changes WHERE seq > ?', [backupSeq])
      f.env.store.db.run("UPDATE sqlite_sequence SET seq = ? WHERE name = 'changes'", [backupSeq])
    })()
    // The service restarted on the restored file, then a write that takes the seq given before.
    const restarted = appOn(f.env)
    expect(
      (await f.env.call('POST', '/admin/v1/locations', { body: storeBody({ name: 'Made after the restore' }) })).status,
    ).toBe(201)
    expect(f.env.store.changes.lastSeq()).toBe(backupSeq + 1)
    const res = await f.get(url, { app: restarted, headers: { 'if-none-match': before.headers.get('etag')! } })
    expect(res.status).toBe(200)
    expect(res.text).toContain('Made after the restore')
    expect(res.headers.get('etag')).not.toBe(before.headers.get('etag'))
  })

  /** ETags of every url, before and after `write`; each must change, and the old one must no longer give 304. */
  async function expectEtagsChange(write: () => unknown | Promise<unknown>) {
    const before = await Promise.all(urls().map(async (u) => (await f.get(u)).headers.get('etag')!))
    await write()
    for (const [i, url] of urls().entries()) {
      const res = await f.get(url, { headers: { 'if-none-match': before[i]! } })
      expect({ url, status: res.status }).toEqual({ url, status: 200 })
      expect(res.headers.get('etag')).not.toBe(before[i])
      expect(res.text.length).toBeGreaterThan(0)
    }
  }

  test('repeated identical requests between writes get the same bytes, and the first after a write the new answer', async () => {
    for (const url of urls()) {
      const first = await f.get(url)
      expect(first.status).toBe(200)
      expect(first.text.length).toBeGreaterThan(30)
      const hits = f.env.app.cacheHits()
      // The second is made again, and kept; the third and fourth are answered from the response cache.
      for (let i = 0; i < 3; i++) expect((await f.get(url)).text).toBe(first.text)
      expect({ url, hits: f.env.app.cacheHits() - hits }).toEqual({ url, hits: 2 })
    }
    expect(
      (await f.env.call('POST', `/admin/v1/locations/${f.ids.velo}`, { body: { name: 'Aaa Vélo Renamed' } })).status,
    ).toBe(200)
    // all=true (by name: now first) and the location itself: their kept answers are for the version before.
    const hits = f.env.app.cacheHits()
    for (const url of [urls()[0]!, urls()[2]!]) expect((await f.get(url)).text).toContain('Aaa Vélo Renamed')
    expect(f.env.app.cacheHits()).toBe(hits)
  })

  test('a new location changes the ETag', async () => {
    await expectEtagsChange(async () => {
      const res = await f.env.call('POST', '/admin/v1/locations', {
        body: { name: 'New', address: '1 New Street', coordinates: { lat: 48.86, lng: 2.35 } },
      })
      expect(res.status).toBe(201)
    })
  })

  test('an update changes the ETag, and the new body shows it', async () => {
    await expectEtagsChange(async () => {
      expect(
        (await f.env.call('POST', `/admin/v1/locations/${f.ids.velo}`, { body: { description: 'Now with pastries.' } }))
          .status,
      ).toBe(200)
    })
    expect((await f.get(`/locations/${f.ids.velo}`)).body.data.location.description).toBe('Now with pastries.')
  })

  test("an update to a location the query does not show still changes the ETag (the locator's version moved)", async () => {
    await expectEtagsChange(async () => {
      expect(
        (await f.env.call('POST', `/admin/v1/locations/${f.ids.hidden}`, { body: { description: 'still a draft' } }))
          .status,
      ).toBe(200)
    })
  })

  test('a status change and a delete change the ETag', async () => {
    await expectEtagsChange(async () => {
      expect(
        (await f.env.call('POST', `/admin/v1/locations/${f.ids.eclair}`, { body: { status: 'draft' } })).status,
      ).toBe(200)
    })
    await expectEtagsChange(async () => {
      expect((await f.env.call('POST', `/admin/v1/locations/${f.ids.bastille}/delete`)).status).toBe(200)
    })
  })

  test('settings, filters, custom fields and priority rules change the ETag', async () => {
    await expectEtagsChange(() => setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '999' }))
    await expectEtagsChange(() => setLocatorSettings(f.env.store, f.env.locatorId, { radius: '30', unit: 'km' }))
    await expectEtagsChange(() => setFilters(f.env.store, f.env.locatorId, [FILTERS[1]!]))
    await expectEtagsChange(() =>
      addCustomField(f.env.store, f.env.locatorId, { id: 'extra', name: 'Extra', type: 'text' }),
    )
    await expectEtagsChange(() => setPriorityRules(f.env.store, f.env.locatorId, priorityRules(f.ids).slice(1)))
  })

  test('the ETag stays the same across reads, time, and writes to another locator', async () => {
    const before = await Promise.all(urls().map(async (u) => (await f.get(u)).headers.get('etag')!))
    // reads through both APIs
    expect((await f.env.call('GET', '/admin/v1/locations?limit=50')).status).toBe(200)
    expect((await f.env.call('GET', `/admin/v1/locations/${f.ids.velo}`)).status).toBe(200)
    for (const u of urls()) await f.get(u)
    // writes to another locator
    const other = createLocator(f.env.store, 'Other')
    setLocatorSettings(f.env.store, other.locator.id, { queryApi: 'on', rateLimit: '50' })
    const created = await f.env.call('POST', '/admin/v1/locations', {
      key: other.secret,
      body: { name: 'Elsewhere', address: '1 Other Street', coordinates: { lat: 48.86, lng: 2.35 } },
    })
    expect(created.status).toBe(201)
    expect(
      (
        await f.env.call('POST', `/admin/v1/locations/${created.body.location.id}`, {
          key: other.secret,
          body: { name: 'Elsewhere 2' },
        })
      ).status,
    ).toBe(200)
    addCustomField(f.env.store, other.locator.id, { id: 'other', name: 'Other', type: 'text' })
    await Bun.sleep(5)
    for (const [i, url] of urls().entries()) {
      const res = await f.get(url, { headers: { 'if-none-match': before[i]! } })
      expect({ url, status: res.status }).toEqual({ url, status: 304 })
    }
  })

  test('error responses are never cached and carry no ETag', async () => {
    for (const res of [
      await f.get(f.url('/locations')),
      await f.get(f.url('/locations', `${NEAR}&limit=0`)),
      await f.get(`/locations/${f.ids.hidden}`),
      await send(f.env.app, 'http://localhost/public/v1/nope/filters'),
    ]) {
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('etag')).toBeNull()
    }
  })
})

/**
 * A limiter whose clock stands still. On the wall clock, two apps compared header for header each keep
 * their own rate window, opened a few ms apart, so their RateLimit-Reset differs whenever those ms
 * straddle a second; and requests counted against a limit start a new window when they straddle a minute.
 */
const frozenLimiter = () => new RateLimiter(() => 28_333_333 * 60_000)

describe('answers kept in the response cache', () => {
  /** A response's headers but those that change from one request to the next. */
  const lasting = (res: Res) =>
    Object.fromEntries(
      [...res.headers].filter(([name]) => !['x-request-id', 'ratelimit-remaining', 'date'].includes(name)),
    )

  test('go out as the answer made for the first asks, with the same headers, whoever asks', async () => {
    const app = appOn(f.env, { limiter: frozenLimiter() })
    const viaApp = appOn(f.env, { publicFastPath: false, limiter: frozenLimiter() }) // every answer made by the Elysia app
    // None again last: a kept answer's headers, set for an Origin, go back to "*".
    const origins: Record<string, string>[] = [
      {},
      { origin: 'https://shop.example.com' },
      { origin: 'https://other.example.org' },
      {},
    ]
    for (const url of urls()) {
      for (let i = 0; i < 2; i++) expect((await f.get(url, { app })).status).toBe(200) // kept from the second ask
      for (const headers of origins) {
        const made = await f.get(url, { headers, app: viaApp })
        const hits = app.cacheHits()
        const kept = await f.get(url, { headers, app })
        expect(app.cacheHits()).toBe(hits + 1)
        expect(viaApp.cacheHits()).toBe(0)
        expect(kept.status).toBe(200)
        expect(kept.text).toBe(made.text)
        expect(lasting(kept)).toEqual(lasting(made))
        expect(kept.headers.get('x-request-id')).toMatch(/^[0-9a-z]{16}$/)
      }
    }
  })

  test('each counts against the rate limit like any answer', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '5' })
    const app = appOn(f.env, { limiter: frozenLimiter() }) // one window, though the requests straddle a minute
    const url = urls()[1]!
    const remaining = []
    for (let i = 0; i < 5; i++) {
      const res = await f.get(url, { app })
      expect(res.status).toBe(200)
      remaining.push(res.headers.get('ratelimit-remaining'))
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0'])
    expect(app.cacheHits()).toBe(3) // the third to the fifth
    const refused = await f.get(url, { app })
    expectError(refused, 429, 'RATE_LIMITED')
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(app.cacheHits()).toBe(3)
  })

  test('are refused when the guards refuse the request: a secret key, a referrer not allowed', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'shop.example.com' })
    const url = urls()[1]!
    const shop = { origin: 'https://shop.example.com' }
    for (let i = 0; i < 3; i++) expect((await f.get(url, { headers: shop })).status).toBe(200)
    expect(f.env.app.cacheHits()).toBe(1) // an answer is kept
    expectError(await f.get(url, { headers: { origin: 'https://evil.example.net' } }), 403, 'REFERRER_NOT_ALLOWED')
    expectError(await f.get(url), 403, 'REFERRER_NOT_ALLOWED')
    expectError(
      await f.get(url, { headers: { ...shop, authorization: `Bearer sk_${'a'.repeat(38)}` } }),
      400,
      'SECRET_KEY_EXPOSED',
    )
    expect((await f.get(url, { headers: shop })).status).toBe(200)
    expect(f.env.app.cacheHits()).toBe(2)
  })
})

describe('/locations answers made on the fast path (without Elysia)', () => {
  const lasting = (res: Res) =>
    Object.fromEntries(
      [...res.headers].filter(([name]) => !['x-request-id', 'ratelimit-remaining', 'date'].includes(name)),
    )
  /**
   * The app, asserting who answers each request: the fast path answers in the turn it is asked
   * (a Response), the Elysia app after an await (a promise of one).
   */
  const answeredBy = (by: 'fast path' | 'app', app: AnyApp): AnyApp => ({
    handle: (request) => {
      const answered = app.handle(request)
      expect({ url: request.url, by: answered instanceof Response ? 'fast path' : 'app' }).toEqual({
        url: request.url,
        by,
      })
      return answered
    },
  })
  const queries = [
    NEAR,
    `${NEAR}&unit=km&radius=5&limit=3`,
    `${NEAR}&tags[]=repair&tags[]=rental&tagLogic=all`,
    `${NEAR}&search=v%C3%A9lo&offset=1`,
    'all=true&sort=name&limit=2&offset=2',
    `lat=10&lng=10`,
  ]

  test('are the answers the app makes, headers and all, with or without an Origin, under a public base URL', async () => {
    for (const publicBaseUrl of [undefined, 'https://stores.example.com']) {
      const fast = appOn(f.env, { publicBaseUrl, limiter: frozenLimiter() })
      const viaApp = appOn(f.env, { publicBaseUrl, publicFastPath: false, limiter: frozenLimiter() })
      for (const qs of queries) {
        for (const headers of [{}, { origin: 'https://shop.example.com' }] as Record<string, string>[]) {
          const made = await f.get(f.url('/locations', qs), { headers, app: viaApp })
          const quick = await f.get(f.url('/locations', qs), { headers, app: answeredBy('fast path', fast) })
          expect(made.status).toBe(200)
          expect(quick.text).toBe(made.text)
          expect(lasting(quick)).toEqual(lasting(made))
        }
      }
    }
  })

  test('count once against the rate limit, answers and refusals alike; a refused request is answered by the app', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '5' })
    const app = appOn(f.env, { limiter: frozenLimiter() }) // one window, though the requests straddle a minute
    const remaining = []
    for (const [qs, by] of [
      [NEAR, 'fast path'],
      ['lat=999', 'app'],
      [`${NEAR}&limit=0`, 'app'],
      [`${NEAR}&unit=km`, 'fast path'],
      [NEAR, 'fast path'],
    ] as const) {
      remaining.push(
        (await f.get(f.url('/locations', qs), { app: answeredBy(by, app) })).headers.get('ratelimit-remaining'),
      )
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0'])
    expectError(
      await f.get(f.url('/locations', `${NEAR}&radius=3`), { app: answeredBy('app', app) }),
      429,
      'RATE_LIMITED',
    )
  })

  test('carry the rate limit as it is now, made or kept', async () => {
    const app = answeredBy('fast path', appOn(f.env, { limiter: frozenLimiter() }))
    const limitOf = async (qs: string) => (await f.get(f.url('/locations', qs), { app })).headers.get('ratelimit-limit')
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '50' })
    expect(await limitOf(NEAR)).toBe('50')
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '70' })
    expect(await limitOf(`${NEAR}&limit=3`)).toBe('70') // made
    for (let i = 0; i < 3; i++) expect(await limitOf(`${NEAR}&limit=3`)).toBe('70') // kept from the second ask
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '60' })
    for (let i = 0; i < 3; i++) expect(await limitOf(`${NEAR}&limit=3`)).toBe('60')
  })

  test('leave to the app what is its to say: 304, bad parameters, a refused referrer, a secret key', async () => {
    const app = answeredBy('app', f.env.app)
    const first = await f.get(f.url('/locations', NEAR), { app: answeredBy('fast path', f.env.app) })
    expect(
      (await f.get(f.url('/locations', NEAR), { headers: { 'if-none-match': first.headers.get('etag')! }, app }))
        .status,
    ).toBe(304)
    expectError(await f.get(f.url('/locations', 'lat=91&lng=0'), { app }), 400, 'INVALID_COORDINATES')
    expectError(await f.get(f.url('/locations', `${NEAR}&limit=0`), { app }), 400, 'INVALID_PARAMETER')
    expectError(
      await f.get(f.url('/locations', NEAR), { headers: { authorization: `Bearer sk_${'a'.repeat(38)}` }, app }),
      400,
      'SECRET_KEY_EXPOSED',
    )
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'shop.example.com' })
    expectError(
      await f.get(f.url('/locations', `${NEAR}&radius=7`), { headers: { origin: 'https://evil.example.net' }, app }),
      403,
      'REFERRER_NOT_ALLOWED',
    )
    expect(
      (
        await f.get(f.url('/locations', `${NEAR}&radius=7`), {
          headers: { origin: 'https://shop.example.com' },
          app: answeredBy('fast path', f.env.app),
        })
      ).status,
    ).toBe(200)
  })

  test('a token in the query string ("/public/v1?<token>/locations?...") is no endpoint: 404, asked once or twice, as through the app', async () => {
    const token = f.env.store.locators.get(f.env.locatorId)!.publicToken
    const url = `http://localhost/public/v1?${token}/locations?x=1&${NEAR}` // the first parameter "<token>/locations?x"
    for (let i = 0; i < 3; i++) expect((await f.get(url)).status).toBe(404)
    expect((await f.get(url, { headers: { 'if-none-match': '*' } })).status).toBe(404)
  })
})

describe('CORS', () => {
  const ORIGIN = 'https://maps.shop.test'
  const corsHeaders = (res: Res) => [...res.headers.keys()].filter((k) => k.startsWith('access-control-'))

  test('public responses allow the calling origin, vary on Origin and expose the ETag and rate headers', async () => {
    for (const url of urls()) {
      const res = await f.get(url, { headers: { origin: ORIGIN } })
      expect(res.status).toBe(200)
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
      expect(res.headers.get('vary')?.toLowerCase()).toContain('origin')
      const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/)
      for (const h of [
        'etag',
        'ratelimit-limit',
        'ratelimit-remaining',
        'ratelimit-reset',
        'retry-after',
        'x-request-id',
      ])
        expect(exposed).toContain(h) // the id a 500 asks to quote
    }
  })

  test('with a referrer allowlist, answers vary on Referer too (it decides for a request without an Origin), made, kept or 304, and not once it is cleared', async () => {
    const viaApp = appOn(f.env, { publicFastPath: false })
    const varyOf = async (url: string, headers: Record<string, string>, app?: AnyApp) => {
      const res = await f.get(url, { headers, app })
      expect({ url, status: res.status }).toEqual({ url, status: 200 })
      return res.headers.get('vary')
    }
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'maps.shop.test' })
    for (const url of urls()) {
      for (const headers of [{ origin: ORIGIN }, { referer: `${ORIGIN}/stores` }] as Record<string, string>[]) {
        // Made, then kept from the second ask (the fast path for /locations), and made by the app.
        for (let i = 0; i < 3; i++)
          expect({ url, i, vary: await varyOf(url, headers) }).toEqual({ url, i, vary: 'Origin, Referer' })
        expect(await varyOf(url, headers, viaApp)).toBe('Origin, Referer')
        const etag = (await f.get(url, { headers })).headers.get('etag')!
        const revalidated = await f.get(url, { headers: { ...headers, 'if-none-match': etag } })
        expect({ url, status: revalidated.status, vary: revalidated.headers.get('vary') }).toEqual({
          url,
          status: 304,
          vary: 'Origin, Referer',
        })
      }
    }
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: '' })
    for (const url of urls())
      for (let i = 0; i < 3; i++) expect({ url, vary: await varyOf(url, {}) }).toEqual({ url, vary: 'Origin' })
  })

  test('with a referrer allowlist, an allowed origin is echoed', async () => {
    setLocatorSettings(f.env.store, f.env.locatorId, { referrers: 'maps.shop.test' })
    const res = await f.get('/filters', { headers: { origin: ORIGIN } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
  })

  test('error responses carry CORS headers too, so a browser can read the error', async () => {
    let now = 28_333_333 * 60_000
    const app = appOn(f.env, { limiter: new RateLimiter(() => now) })
    setLocatorSettings(f.env.store, f.env.locatorId, { rateLimit: '1' })
    expect((await f.get('/filters', { app, headers: { origin: ORIGIN } })).status).toBe(200)
    const limited = await f.get('/filters', { app, headers: { origin: ORIGIN } })
    expectError(limited, 429, 'RATE_LIMITED')
    now += 60_000
    const invalid = await f.get(f.url('/locations', 'all=maybe'), { app, headers: { origin: ORIGIN } })
    expectError(invalid, 400, 'INVALID_PARAMETER')
    const token = await send(app, 'http://localhost/public/v1/nope/filters', { headers: { origin: ORIGIN } })
    expectError(token, 404, 'INVALID_TOKEN')
    for (const res of [limited, invalid, token]) expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
  })

  test('an OPTIONS preflight on a public path answers 204 with the CORS headers', async () => {
    for (const url of urls()) {
      const res = await send(f.env.app, url, {
        method: 'OPTIONS',
        headers: {
          origin: ORIGIN,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'if-none-match',
        },
      })
      expect(res.status).toBe(204)
      expect(res.text).toBe('')
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
      expect(res.headers.get('access-control-allow-methods')).toContain('GET')
      expect((res.headers.get('access-control-allow-headers') ?? '').toLowerCase()).toContain('if-none-match')
    }
  })

  test('a preflight that asks for no extra headers gets no garbage in its headers', async () => {
    const res = await send(f.env.app, f.url('/locations'), {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    for (const [k, v] of res.headers) expect({ header: k, value: v }).not.toEqual({ header: k, value: 'undefined' })
  })

  test('the Management API and the health endpoints send no access-control-* headers', async () => {
    const admin = await f.env.call('GET', '/admin/v1/locations', { headers: { origin: ORIGIN } })
    expect(admin.status).toBe(200)
    expect([...admin.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([])
    const denied = await f.env.call('GET', '/admin/v1/locations', { headers: { origin: ORIGIN }, key: null })
    expect(denied.status).toBe(401)
    expect([...denied.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([])
    for (const path of ['/healthz', '/readyz']) {
      const res = await send(f.env.app, `http://localhost${path}`, { headers: { origin: ORIGIN } })
      expect(res.status).toBe(200)
      expect(corsHeaders(res)).toEqual([])
    }
    const preflight = await send(f.env.app, 'http://localhost/admin/v1/locations', {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
    })
    expect(corsHeaders(preflight)).toEqual([])
    expect(preflight.status).not.toBe(204)
  })
})
