// The Query API's guards on who may ask: an unknown or inactive token, the API switch, the referrer
// allowlist and a secret key sent where it does not belong. One test per code asserting status, the
// whole body and Cache-Control: no-store.
import { beforeEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { createApp } from '../../src/server/app'
import { cli } from '../../src/cli/main'
import { PublicError } from '../../src/api/public/errors'
import { createLocator, rotatePublicToken, setLocatorSettings } from '../../src/operator'
import { appOn, expectError, FAKE_SECRET, send, type Res } from './fixture'
import { deactivate, f, NEAR, useGuardsFixture } from './guards-fixture'

useGuardsFixture()

/** The three endpoints of the Query API on a token. */
const endpoints = (token: string, id: string) => [
  `http://localhost/public/v1/${token}/locations?all=true`,
  `http://localhost/public/v1/${token}/locations?${NEAR}`,
  `http://localhost/public/v1/${token}/locations/${id}`,
  `http://localhost/public/v1/${token}/filters`,
]

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

  test('a site refused is named, with the command that lets it in', async () => {
    const { message } = (await from({ origin: 'https://evil.example.net' })).body.error
    expect(message).toStartWith("Requests from evil.example.net are not in this locator's referrer allowlist.")
    // --referrers replaces the list, so the command keeps the hosts listed; in the README's form, as API_NOT_ENABLED's.
    expect(message).toContain('`storeloc locator show lct_...`')
    expect(message).toContain('`storeloc locator set lct_... --referrers "LISTED_HOSTS,evil.example.net"`')
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

  test('in the other places a key is sent by mistake: X-Api-Key, Basic authorization, the page address (Referer)', async () => {
    const basic = `Basic ${Buffer.from(`user:${FAKE_SECRET}`).toString('base64')}`
    for (const headers of [
      { 'x-api-key': FAKE_SECRET } as Record<string, string>,
      { authorization: basic },
      { referer: `https://shop.example.com/stores?key=${FAKE_SECRET}` },
    ])
      expectExposed(await f.get(f.url('/locations', 'all=true'), { headers }), FAKE_SECRET)
    // A Basic authorization without a key is no exposure.
    const plain = `Basic ${Buffer.from('user:password').toString('base64')}`
    expect((await f.get(f.url('/locations', 'all=true'), { headers: { authorization: plain } })).status).toBe(200)
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
    // A request line may be written after its answer: the wait is for the five, not for a time.
    while (lines.filter((l) => l.status !== undefined).length < 5) await Bun.sleep(1)
    expect(lines.length).toBeGreaterThan(0)
    expect(JSON.stringify(lines)).not.toContain(f.env.key)
    expect(JSON.stringify(lines)).not.toContain(f.env.key.slice(3, 20))
    expect(JSON.stringify(lines).match(/sk_\[redacted\]/g)?.length).toBe(4) // the four paths; the query string is not logged
  })
})
