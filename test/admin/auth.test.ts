// Management API authentication: every 401 case the spec lists, and that one locator's key never
// reaches another locator's data.
import { test, expect, describe, beforeEach, afterEach } from 'bun:test'
import { newSecretKey } from '../../src/core/ids'
import { addCustomField, createKey, createLocator, revokeKey, rotateKey } from '../../src/operator'
import { makeEnv, storeBody, type TestEnv } from '../helpers'

let env: TestEnv
beforeEach(() => {
  env = makeEnv()
})
afterEach(() => env.close())

const LIST = '/admin/v1/locations'
type Res = Awaited<ReturnType<TestEnv['call']>>

/** The documented 401 body, a message naming the case, and no trace of the presented key. */
function expectAuthFailure(res: Res, names: RegExp, presented?: string) {
  expect(res.status).toBe(401)
  expect(res.body).toEqual({ success: false, error: 'Authentication failed', message: expect.any(String) })
  expect(res.body.message).toMatch(names)
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/)
  if (presented) {
    const text = JSON.stringify(res.body)
    expect(text).not.toContain(presented)
    // Not even the random part without its prefix, nor the checksum-free half.
    expect(text).not.toContain(presented.slice(3))
    expect(text).not.toContain(presented.slice(3, 20))
  }
}

const envKeyId = () => env.store.keys.listForLocator(env.locatorId)[0]!.id
const countRows = (table: string) =>
  env.store.db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n

/** Flips one base62 character so the result keeps the key's alphabet and length. */
const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1)

describe('a valid key', () => {
  test('is accepted as a Bearer token', async () => {
    const res = await env.call('GET', LIST)
    expect(res.status).toBe(200)
    expect(res.body.success).toBe(true)
  })

  test('is accepted with the scheme in any case (RFC 7235)', async () => {
    const res = await env.call('GET', LIST, { headers: { authorization: `bearer ${env.key}` } })
    expect(res.status).toBe(200)
  })
})

describe('401 Authentication failed', () => {
  test('no Authorization header: message says the key is missing', async () => {
    expectAuthFailure(await env.call('GET', LIST, { key: null }), /missing/i)
  })

  test('an empty Authorization header counts as missing', async () => {
    expectAuthFailure(await env.call('GET', LIST, { key: null, headers: { authorization: '' } }), /missing/i)
  })

  test('every endpoint requires the key', async () => {
    const created = await env.call('POST', LIST, { body: storeBody() })
    const id = created.body.location.id
    const calls: [string, string, unknown?][] = [
      ['GET', LIST],
      ['GET', `${LIST}/${id}`],
      ['POST', LIST, storeBody()],
      ['POST', `${LIST}/${id}`, { name: 'Changed' }],
      ['POST', `${LIST}/${id}/delete`],
      ['GET', '/admin/v1/custom_fields'],
      ['GET', '/admin/v1/locator'],
    ]
    for (const [method, path, body] of calls) {
      const res = await env.call(method, path, { key: null, body })
      expectAuthFailure(res, /missing/i)
    }
    const after = await env.call('GET', `${LIST}/${id}`)
    expect(after.body.location).toEqual(created.body.location)
    expect(countRows('locations')).toBe(1)
  })

  test('a scheme other than Bearer is malformed, and the credentials are not echoed', async () => {
    const basic = Buffer.from(`user:${env.key}`).toString('base64')
    expectAuthFailure(
      await env.call('GET', LIST, { headers: { authorization: `Basic ${basic}` } }),
      /malformed/i,
      basic,
    )
    expectAuthFailure(
      await env.call('GET', LIST, { headers: { authorization: `Token ${env.key}` } }),
      /malformed/i,
      env.key,
    )
    expectAuthFailure(await env.call('GET', LIST, { headers: { authorization: env.key } }), /malformed/i, env.key)
  })

  test('a token of the wrong shape is malformed', async () => {
    for (const bad of [
      'sk_short',
      'pk_abcdefghijklmnopqrstuvwx',
      `${env.key}x`,
      env.key.slice(0, -1),
      env.key.replace('sk_', 'SK_'),
      `sk_${'-'.repeat(38)}`,
    ]) {
      expectAuthFailure(await env.call('GET', LIST, { key: bad }), /malformed/i, bad.length > 20 ? bad : undefined)
    }
  })

  test("a locator's public token is named as such, with the key the Management API takes", async () => {
    const token = env.store.locators.get(env.locatorId)!.publicToken
    const res = await env.call('GET', LIST, { key: token })
    expectAuthFailure(res, /public token \("pk_\.\.\."\), which the Query API/, token)
    expect(res.body.message).toContain('secret key ("sk_...")')
  })

  test('a key whose checksum does not match is malformed', async () => {
    const badChecksum = flip(env.key, env.key.length - 1)
    const badRandom = flip(env.key, 10)
    for (const bad of [badChecksum, badRandom]) {
      expect(bad).not.toBe(env.key)
      expect(bad).toHaveLength(env.key.length)
      expectAuthFailure(await env.call('GET', LIST, { key: bad }), /malformed/i, bad)
      // Its shape is right: the message says what is wrong instead (a character changed).
      const { message } = (await env.call('GET', LIST, { key: bad })).body
      expect(message).toMatch(/checksum/)
      expect(message).not.toMatch(/38 letters and digits/)
    }
  })

  test('a well-formed key that was never issued is invalid', async () => {
    const unknown = newSecretKey()
    expectAuthFailure(await env.call('GET', LIST, { key: unknown }), /invalid/i, unknown)
  })

  test('a revoked key is refused as revoked/inactive, and other keys keep working', async () => {
    const { key, secret } = createKey(env.store, env.locatorId, null)
    expect((await env.call('GET', LIST, { key: secret })).status).toBe(200)
    revokeKey(env.store, key.id)
    expectAuthFailure(await env.call('GET', LIST, { key: secret }), /revoked|inactive/i, secret)
    expect((await env.call('GET', LIST)).status).toBe(200)
  })

  test('an expired key is refused as expired (replaced only if it was rotated: it may just have expired)', async () => {
    const past = new Date(Date.now() - 60_000).toISOString()
    const { secret } = env.store.write(() => env.store.keys.insert(env.locatorId, past))
    expectAuthFailure(await env.call('GET', LIST, { key: secret }), /expired/i, secret)
    expect((await env.call('GET', LIST, { key: secret })).body.message).toBe(
      `API key expired at ${past}. If it was rotated, use the key that replaced it; otherwise create one with \`storeloc key create LOCATOR_ID\`.`,
    )
  })

  test('a key that expires once it has been working is refused from then on', async () => {
    const { key, secret } = createKey(env.store, env.locatorId, new Date(Date.now() + 3_600_000).toISOString())
    expect((await env.call('GET', LIST, { key: secret })).status).toBe(200)
    env.store.db
      .query('UPDATE api_keys SET expires_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 1000).toISOString(), key.id)
    expectAuthFailure(await env.call('GET', LIST, { key: secret }), /expired/i, secret)
  })

  test('a key rotated without grace stops at once; its replacement works', async () => {
    const { secret } = rotateKey(env.store, envKeyId(), 0)
    expectAuthFailure(await env.call('GET', LIST), /expired/i, env.key)
    expect((await env.call('GET', LIST, { key: secret })).status).toBe(200)
  })

  test('a key rotated with grace works alongside its replacement during the grace period', async () => {
    const { secret } = rotateKey(env.store, envKeyId(), 24)
    expect((await env.call('GET', LIST)).status).toBe(200)
    expect((await env.call('GET', LIST, { key: secret })).status).toBe(200)
  })

  test('a key rotated with grace is refused as expired once the grace period is over', async () => {
    // Rotated two hours ago with one hour of grace.
    const { secret } = rotateKey(env.store, envKeyId(), 1, new Date(Date.now() - 2 * 3_600_000))
    expectAuthFailure(await env.call('GET', LIST), /expired/i, env.key)
    expect((await env.call('GET', LIST, { key: secret })).status).toBe(200)
  })

  test('a refused write changes nothing', async () => {
    const before = countRows('changes')
    for (const key of [null, newSecretKey(), 'sk_bad']) {
      const res = await env.call('POST', LIST, { key, body: storeBody() })
      expect(res.status).toBe(401)
    }
    expect(countRows('locations')).toBe(0)
    expect(countRows('changes')).toBe(before)
  })

  test('authentication is checked before the body: a bad body without a key gives 401, not 422', async () => {
    expectAuthFailure(await env.call('POST', LIST, { key: null, body: { name: 5 } }), /missing/i)
  })

  test("a database fault met while checking a write's key is answered as on a read, not as a bad body", async () => {
    const fault = (code: string) => Object.assign(new Error(`${code} from the test`), { code })
    const original = env.store.keys.findBySecret
    for (const [code, error] of [
      ['SQLITE_BUSY', 'unavailable'],
      ['SQLITE_CORRUPT', 'database_damaged'],
    ] as const) {
      env.store.keys.findBySecret = () => {
        throw fault(code)
      }
      try {
        for (const method of ['GET', 'POST'] as const) {
          const res = await env.call(method, LIST, method === 'POST' ? { body: storeBody() } : {})
          expect({ code, method, status: res.status, error: res.body.error }).toEqual({
            code,
            method,
            status: 503,
            error,
          })
        }
      } finally {
        env.store.keys.findBySecret = original
      }
    }
  })

  test('a body sent without a working key is never read (no one unkeyed makes the server parse 8 MiB)', async () => {
    for (const [path, key] of [
      ['/admin/v1/locations/bulk', null],
      [LIST, 'sk_bad'],
    ] as const) {
      let pulled = 0
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled++
          controller.enqueue(new TextEncoder().encode('{"locations": ['.padEnd(64 * 1024, ' ')))
          if (pulled === 64) controller.close() // 4 MiB
        },
      })
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (key !== null) headers.authorization = `Bearer ${key}`
      const res = await env.app.handle(
        new Request(`http://localhost${path}`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit),
      )
      expect(res.status).toBe(401)
      expect(pulled).toBeLessThanOrEqual(1) // at most the stream's first chunk, made ready when it starts
    }
  })
})

describe('401 error: no locator', () => {
  test('a valid key whose locator is inactive gets the "no locator" variant', async () => {
    env.store.db.query('UPDATE locators SET active = 0 WHERE id = ?').run(env.locatorId)
    for (const [method, path] of [
      ['GET', LIST],
      ['POST', LIST],
      ['GET', '/admin/v1/custom_fields'],
    ] as const) {
      const res = await env.call(method, path, method === 'POST' ? { body: storeBody() } : {})
      expect(res.status).toBe(401)
      expect(res.body).toEqual({
        success: false,
        error: 'error',
        message: expect.stringMatching(/no locator was found/i),
      })
      // It says why, and how to switch the locator back on.
      expect(res.body.message).toContain(`storeloc locator set ${env.locatorId} --active on`)
      expect(JSON.stringify(res.body)).not.toContain(env.key)
    }
    expect(countRows('locations')).toBe(0)
  })

  test('a valid key whose locator no longer exists gets the variant, saying so', async () => {
    const { secret } = createKey(env.store, env.locatorId, null)
    env.store.db.query('PRAGMA foreign_keys = OFF').run()
    env.store.db.query('DELETE FROM locators WHERE id = ?').run(env.locatorId)
    const res = await env.call('GET', LIST, { key: secret })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({
      success: false,
      error: 'error',
      message: 'No locator was found for this API key: its locator no longer exists.',
    })
  })
})

describe('one locator per key', () => {
  test("a second locator's key reaches none of the first locator's data", async () => {
    addCustomField(env.store, env.locatorId, { id: 'floor', name: 'Floor', type: 'number' })
    const created = await env.call('POST', LIST, {
      body: storeBody({ tags: ['Coffee'], custom_fields: { floor: '2' } }),
    })
    expect(created.status).toBe(201)
    const id = created.body.location.id
    const other = createLocator(env.store, 'Other locator')
    const as2 = { key: other.secret }
    const changesBefore = countRows('changes')

    const list = await env.call('GET', LIST, as2)
    expect(list.status).toBe(200)
    expect(list.body).toEqual({
      success: true,
      locations: [],
      pagination: { page: 1, limit: 10, total: 0, total_pages: 0, next: null, previous: null },
    })
    expect((await env.call('GET', `${LIST}?status=published`, as2)).body.locations).toEqual([])
    expect((await env.call('GET', '/admin/v1/custom_fields', as2)).body).toEqual({ success: true, custom_fields: [] })
    // Each key names its own locator, so a script sees which one it is about to write.
    expect((await env.call('GET', '/admin/v1/locator', as2)).body).toEqual({
      success: true,
      locator: { id: other.locator.id, name: 'Other locator' },
    })
    expect((await env.call('GET', '/admin/v1/locator')).body.locator).toEqual({
      id: env.locatorId,
      name: 'Test locator',
    })

    const get = await env.call('GET', `${LIST}/${id}`, as2)
    expect(get.status).toBe(404)
    expect(get.body.error).toBe('not_found')

    const update = await env.call('POST', `${LIST}/${id}`, { ...as2, body: { name: 'Hijacked', status: 'draft' } })
    expect(update.status).toBe(404)
    expect(update.body.error).toBe('not_found')

    const del = await env.call('POST', `${LIST}/${id}/delete`, as2)
    expect(del.status).toBe(404)
    expect(del.body.error).toBe('not_found')

    // The first locator's data is exactly as it was, and no write was logged.
    const after = await env.call('GET', `${LIST}/${id}`)
    expect(after.status).toBe(200)
    expect(after.body.location).toEqual(created.body.location)
    expect(countRows('changes')).toBe(changesBefore)
  })

  test("locations created with the second locator's key are invisible to the first", async () => {
    const other = createLocator(env.store, 'Other locator')
    const mine = await env.call('POST', LIST, { body: storeBody({ name: 'Mine' }) })
    const theirs = await env.call('POST', LIST, { key: other.secret, body: storeBody({ name: 'Theirs' }) })
    expect(theirs.status).toBe(201)

    const list1 = await env.call('GET', LIST)
    expect(list1.body.locations.map((l: { id: string }) => l.id)).toEqual([mine.body.location.id])
    expect(list1.body.pagination.total).toBe(1)
    const list2 = await env.call('GET', LIST, { key: other.secret })
    expect(list2.body.locations.map((l: { id: string }) => l.id)).toEqual([theirs.body.location.id])
    expect((await env.call('GET', `${LIST}/${theirs.body.location.id}`)).status).toBe(404)
  })
})
