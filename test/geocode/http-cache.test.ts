// The HTTP adapters under the SQLite cache (cachedGeocoder), each provider's cache terms and
// cache key, and the factory's refusals.
import { Database } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { ConfigError } from '../../src/core/config'
import { cachedGeocoder, normalizeAddress } from '../../src/geocode/geocoder'
import { ADAPTER_VERSIONS, createHttpGeocoder, httpCacheKey, PROVIDER_CACHE_TTL } from '../../src/geocode/http'
import { startChangeLogPrune } from '../../src/server/upkeep'
import { KNOWN_ADDRESSES, makeEnv, tableGeocoder } from '../helpers'
import { CASES, config, expectUnavailable, fixture, reply, standIn, withStandIns } from './http-fixture'

const DAY_MS = 86_400_000

withStandIns()

// ---- with the SQLite cache ----------------------------------------------------------------------

describe('cachedGeocoder over an adapter', () => {
  test('while another process holds the write lock, the answer waits for its row without stopping the process; held past busy_timeout, it is answered, not stored', async () => {
    const env = makeEnv()
    const other = new Database(join(env.dir, 'test.db'))
    try {
      const inner = tableGeocoder(KNOWN_ADDRESSES)
      const geocoder = cachedGeocoder(inner, env.store.geocodeCache, PROVIDER_CACHE_TTL.nominatim)
      const address = Object.keys(KNOWN_ADDRESSES)[0]!
      const rows = () => (env.store.db.query('SELECT count(*) AS n FROM geocode_cache').get() as { n: number }).n

      env.store.db.exec('PRAGMA busy_timeout = 3000')
      other.exec('BEGIN IMMEDIATE')
      let answered = false
      const pending = geocoder.geocode(address).finally(() => (answered = true))
      await Bun.sleep(30) // timers fire meanwhile: before, SQLite's wait for the lock stopped the process
      expect({ answered, rows: rows() }).toEqual({ answered: false, rows: 0 })
      other.exec('ROLLBACK')
      expect((await pending)?.lat).toBe(KNOWN_ADDRESSES[address as keyof typeof KNOWN_ADDRESSES].lat)
      expect(rows()).toBe(1)

      // Past busy_timeout: the answer all the same (the cache is no data), and nothing stored.
      env.store.db.exec('PRAGMA busy_timeout = 50')
      other.exec('BEGIN IMMEDIATE')
      expect(await geocoder.geocode('nowhere at all')).toBeNull()
      other.exec('ROLLBACK')
      expect(rows()).toBe(1)
      expect(await geocoder.geocode('nowhere at all')).toBeNull()
      expect(inner.calls.filter((a) => a === 'nowhere at all')).toHaveLength(2) // asked again: it was not stored
      expect(rows()).toBe(2)
    } finally {
      other.close()
      env.close()
    }
  })

  test('concurrent identical lookups make one upstream call; later ones are served from the cache', async () => {
    const env = makeEnv()
    try {
      const server = standIn(async () => {
        await Bun.sleep(50)
        return reply(fixture('nominatim-found'))
      })
      const geocoder = cachedGeocoder(
        createHttpGeocoder(config('nominatim', { url: server.url })),
        env.store.geocodeCache,
        PROVIDER_CACHE_TTL.nominatim,
      )
      // The same address but for spacing (case and punctuation make another: some geocoders read them apart).
      const addresses = [
        '10 Downing Street, London',
        '10 Downing Street, London',
        '10  Downing\tStreet,London',
        ' 10 Downing Street ,  London ',
        '10 Downing Street, London',
      ]
      const asked = Date.now()
      const results = await Promise.all(addresses.map((a) => geocoder.geocode(a)))
      const answered = Date.now()
      expect(server.hits).toHaveLength(1)
      for (const r of results) expect(r).toStrictEqual(CASES[0]!.expected)
      // From the cache: the same answer, with when it was obtained (a provider's terms count from then).
      const again = await geocoder.geocode('10 Downing Street, London')
      expect(again).toStrictEqual({ ...CASES[0]!.expected, obtainedAt: expect.any(Number) })
      expect(again!.obtainedAt).toBeWithin(asked, answered + 1)
      expect(server.hits).toHaveLength(1)
    } finally {
      env.close()
    }
  })

  test('a failure is not cached: the next lookup goes upstream again', async () => {
    const env = makeEnv()
    try {
      const server = standIn((_, n) => (n === 1 ? reply('Service Unavailable', 503) : reply(fixture('photon-found'))))
      const geocoder = cachedGeocoder(
        createHttpGeocoder(config('photon', { url: server.url })),
        env.store.geocodeCache,
        PROVIDER_CACHE_TTL.photon,
      )
      await expectUnavailable(geocoder.geocode('Pariser Platz 1, Berlin'), 'photon', /HTTP 503/)
      expect((await geocoder.geocode('Pariser Platz 1, Berlin'))?.precision).toBe('rooftop')
      expect(server.hits).toHaveLength(2)
    } finally {
      env.close()
    }
  })

  test('a Google hit is kept 28 days (within the 30 of its terms, and shorter than a point due for refresh); a miss a day', async () => {
    const env = makeEnv()
    try {
      const server = standIn((url) =>
        reply(fixture(url.searchParams.get('address') === 'nowhere' ? 'google-zero-results' : 'google-found')),
      )
      const t0 = 1_717_000_000_000
      const geocoder = cachedGeocoder(
        createHttpGeocoder(config('google', { url: server.url })),
        env.store.geocodeCache,
        PROVIDER_CACHE_TTL.google,
        () => t0,
      )
      await geocoder.geocode('1600 Amphitheatre Parkway, Mountain View, CA')
      await geocoder.geocode('nowhere')
      const cache = env.store.geocodeCache
      const hit = normalizeAddress('1600 Amphitheatre Parkway, Mountain View, CA')
      expect(cache.get('google', hit, t0 + 28 * DAY_MS - 1)).toEqual({ result: expect.any(String), createdAt: t0 })
      expect(cache.get('google', hit, t0 + 28 * DAY_MS)).toBeUndefined()
      expect(cache.get('google', 'nowhere', t0 + DAY_MS - 1)).toEqual({ result: null, createdAt: t0 })
      expect(cache.get('google', 'nowhere', t0 + DAY_MS)).toBeUndefined()
    } finally {
      env.close()
    }
  })
  test('an entry stored under a longer TTL (Google hits were kept 30 days) is used only within the TTL in force now', async () => {
    const env = makeEnv()
    try {
      const server = standIn(() => reply(fixture('google-found')))
      const t0 = 1_717_000_000_000
      let clock = t0
      const address = '1600 Amphitheatre Parkway, Mountain View, CA'
      const old = { lat: 1, lng: 2, precision: 'rooftop' as const, source: 'google', parts: {} }
      await env.store.geocodeCache.put('google', normalizeAddress(address), JSON.stringify(old), t0, 30 * DAY_MS)
      const geocoder = cachedGeocoder(
        createHttpGeocoder(config('google', { url: server.url })),
        env.store.geocodeCache,
        PROVIDER_CACHE_TTL.google,
        () => clock,
      )
      clock = t0 + 28 * DAY_MS - 1
      expect(await geocoder.geocode(address)).toEqual({ ...old, obtainedAt: t0 })
      expect(server.hits).toHaveLength(0)
      clock = t0 + 28 * DAY_MS
      expect((await geocoder.geocode(address))!.lat).not.toBe(1)
      expect(server.hits).toHaveLength(1)
    } finally {
      env.close()
    }
  })

  test("expired rows are purged by the server's periodic prune, not only at its next start: a server that runs for months keeps no more than their time's rows", async () => {
    const env = makeEnv()
    const rows = () => env.store.db.query<{ query: string }, []>('SELECT query FROM geocode_cache ORDER BY query').all()
    try {
      const geocoder = cachedGeocoder(tableGeocoder(KNOWN_ADDRESSES), env.store.geocodeCache, {
        hitMs: DAY_MS,
        missMs: 1,
      })
      await geocoder.geocode('a miss, asked a moment ago') // kept 1 ms
      await geocoder.geocode(Object.keys(KNOWN_ADDRESSES)[0]!) // kept a day
      await Bun.sleep(5)
      const stop = startChangeLogPrune(env.store)
      while (rows().length > 1) await Bun.sleep(10) // its first run, however late (the test's 30 s limit ends a hang)
      stop()
      expect(rows()).toEqual([{ query: normalizeAddress(Object.keys(KNOWN_ADDRESSES)[0]!) }])
    } finally {
      env.close()
    }
  }, 30_000)
})

// ---- factory and cache terms ------------------------------------------------------------------

describe('createHttpGeocoder and PROVIDER_CACHE_TTL', () => {
  test('refuses a provider that is not an HTTP one, and a keyed provider without a key', () => {
    expect(() => createHttpGeocoder({ ...config('nominatim'), provider: 'embedded' })).toThrow(ConfigError)
    expect(() => createHttpGeocoder({ ...config('nominatim'), provider: 'none' })).toThrow(ConfigError)
    for (const provider of ['google', 'mapbox', 'opencage'] as const) {
      expect(() => createHttpGeocoder(config(provider, { apiKey: null }))).toThrow(ConfigError)
    }
    expect(() => createHttpGeocoder(config('pelias', { apiKey: null }))).toThrow(/geocode\.earth/)
    expect(createHttpGeocoder(config('pelias', { apiKey: null, url: 'http://127.0.0.1:4000' })).name).toBe('pelias')
    expect(createHttpGeocoder(config('nominatim', { apiKey: null })).name).toBe('nominatim')
  })

  test('httpCacheKey: name@version for the public endpoint, unset or set to it; one hash per other endpoint however written, user and password left out', () => {
    for (const c of CASES) expect(httpCacheKey(c.provider, null)).toBe(`${c.provider}@${ADAPTER_VERSIONS[c.provider]}`)
    const v = ADAPTER_VERSIONS.nominatim
    for (const url of ['https://nominatim.openstreetmap.org', 'HTTPS://Nominatim.OpenStreetMap.org:443/'])
      expect(httpCacheKey('nominatim', url)).toBe(`nominatim@${v}`)
    const own = httpCacheKey('nominatim', 'https://geo.example.com/nominatim')
    expect(own).toMatch(new RegExp(`^nominatim@${v}#[0-9a-z]{1,13}$`))
    for (const same of [
      'https://geo.example.com/nominatim/',
      'https://GEO.example.com:443/nominatim',
      'https://ops:s3cret@geo.example.com/nominatim',
    ])
      expect(httpCacheKey('nominatim', same)).toBe(own)
    const others = [
      'http://geo.example.com/nominatim',
      'https://geo.example.com:8443/nominatim',
      'https://geo.example.com/nominatim-eu',
      'https://geo.example.org/nominatim',
    ].map((url) => httpCacheKey('nominatim', url))
    expect(new Set([own, ...others]).size).toBe(5)
    expect(httpCacheKey('photon', 'https://geo.example.com/nominatim')).toBe(
      own.replace(`nominatim@${v}`, `photon@${ADAPTER_VERSIONS.photon}`),
    )
  })

  test("every provider has cache terms; Google's hits at most 30 days; misses shorter than hits", () => {
    for (const c of CASES) {
      const ttl = PROVIDER_CACHE_TTL[c.provider]
      expect(ttl.missMs).toBeGreaterThan(0)
      expect(ttl.missMs).toBeLessThan(ttl.hitMs)
    }
    expect(PROVIDER_CACHE_TTL.google.hitMs).toBeLessThanOrEqual(30 * DAY_MS)
  })
})
