// Server-side failures of the Management API: an unexpected exception is logged with its stack and
// answered with a generic 500; a busy database gives 503 with Retry-After; the request log never
// holds a key.
import { test, expect, describe, beforeEach, afterEach } from 'bun:test'
import { Database } from 'bun:sqlite'
import { copyFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { createApp } from '../../src/server/app'
import type { Geocoder } from '../../src/geocode/geocoder'
import { newSecretKey } from '../../src/core/ids'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { openStore, type Store } from '../../src/store'
import { makeEnv, storeBody, tempDir, type TestEnv } from '../helpers'

const SECRET_TEXT = 'secret internals: db password hunter2 at /srv/private/geocoder.ts'

type Harness = {
  store: Store
  lines: Record<string, unknown>[]
  key: string
  /** Answers the app sent from its answer cache. */
  cacheHits: () => number
  call: (
    method: string,
    path: string,
    body?: unknown,
    key?: string | null,
    sent?: Record<string, string>,
  ) => Promise<{ status: number; text: string; body: any; headers: Headers }>
  close: () => void
}

/** A real app on a temporary store with its own geocoder, capturing every log line. */
function harness(geocoder: Geocoder, logRequests = false): Harness {
  const dir = tempDir()
  const store = openStore(join(dir, 'test.db'))
  const lines: Record<string, unknown>[] = []
  const app = createApp({
    store,
    geocoder,
    config: { maxBodyBytes: 256 * 1024, logRequests },
    log: (line) => lines.push(line),
  })
  const { secret } = createLocator(store, 'Errors')
  return {
    store,
    lines,
    key: secret,
    cacheHits: app.cacheHits,
    async call(method, path, body, key = secret, sent = {}) {
      const headers: Record<string, string> = { ...sent }
      if (key !== null) headers.authorization = `Bearer ${key}`
      if (body !== undefined) headers['content-type'] = 'application/json'
      const res = await app.handle(
        new Request(`http://localhost${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      )
      const text = await res.text()
      let parsed: unknown = text
      try {
        parsed = JSON.parse(text)
      } catch {}
      return { status: res.status, text, body: parsed, headers: res.headers }
    },
    close() {
      store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

const throwingGeocoder: Geocoder = {
  name: 'throwing',
  async geocode() {
    throw new Error(SECRET_TEXT)
  },
}

const countLocations = (store: Store) =>
  store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM locations').get()!.n

describe('500 error', () => {
  let h: Harness
  beforeEach(() => {
    h = harness(throwingGeocoder)
  })
  afterEach(() => h.close())

  test('an unexpected exception gives a generic 500 body that leaks nothing', async () => {
    const res = await h.call('POST', '/admin/v1/locations', { name: 'A', address: 'Somewhere 1' })
    expect(res.status).toBe(500)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(res.body).toEqual({ success: false, error: 'error', message: expect.any(String) })
    expect(res.body.message.length).toBeGreaterThan(0)
    for (const leak of ['secret internals', 'hunter2', '/srv/private', 'geocoder.ts', 'Error:', '    at ']) {
      expect(res.text).not.toContain(leak)
    }
    expect(countLocations(h.store)).toBe(0)
  })

  test('the exception is logged with its stack, under the request id the response carries', async () => {
    const res = await h.call('POST', '/admin/v1/locations', { name: 'A', address: 'Somewhere 1' })
    expect(res.status).toBe(500)
    const errors = h.lines.filter((l) => l.level === 'error')
    expect(errors).toHaveLength(1)
    const line = errors[0]!
    expect(String(line.stack)).toContain(SECRET_TEXT)
    expect(String(line.stack)).toMatch(/\n\s+at /)
    expect(line.method).toBe('POST')
    expect(line.path).toBe('/admin/v1/locations')
    // The 500 message tells the caller to quote X-Request-Id: it must be there and match the log.
    const requestId = res.headers.get('x-request-id')
    expect(requestId).toBeTruthy()
    expect(line.request_id).toBe(requestId)
    expect(JSON.stringify(h.lines)).not.toContain(h.key)
  })

  test('an exception during an update leaves the row unchanged', async () => {
    const created = await h.call('POST', '/admin/v1/locations', storeBody())
    expect(created.status).toBe(201)
    const id = created.body.location.id
    const res = await h.call('POST', `/admin/v1/locations/${id}`, { address: 'Elsewhere 2', name: 'Moved' })
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ success: false, error: 'error', message: expect.any(String) })
    expect(res.text).not.toContain('secret internals')
    expect((await h.call('GET', `/admin/v1/locations/${id}`)).body.location).toEqual(created.body.location)
  })
})

describe('request log', () => {
  test('one line per request with method, path, status, locator and request id; never the key', async () => {
    const h = harness(throwingGeocoder, true)
    try {
      const unknownKey = newSecretKey()
      await h.call('GET', '/admin/v1/locations')
      await h.call('GET', '/admin/v1/locations', undefined, unknownKey)
      // The line is written after the response has been handed over: wait for it, up to 2 s.
      const requests = () => h.lines.filter((l) => l.status !== undefined)
      for (let waited = 0; requests().length < 2 && waited < 2000; waited += 5) await Bun.sleep(5)
      expect(requests()).toHaveLength(2)
      expect(requests()[0]).toMatchObject({
        level: 'info',
        method: 'GET',
        path: '/admin/v1/locations',
        status: 200,
        locator: expect.stringMatching(/^lct_/),
        request_id: expect.any(String),
      })
      expect(requests()[1]).toMatchObject({
        method: 'GET',
        path: '/admin/v1/locations',
        status: 401,
        request_id: expect.any(String),
      })
      const all = JSON.stringify(h.lines)
      expect(all).not.toContain(h.key)
      expect(all).not.toContain(unknownKey)
      expect(all).not.toContain(h.key.slice(3))
      expect(all).not.toContain(unknownKey.slice(3))
    } finally {
      h.close()
    }
  })
})

describe('request ids on every API', () => {
  test('public requests too: a distinct X-Request-Id on each, 16 characters of [0-9a-z], and the log line that names it', async () => {
    const h = harness(throwingGeocoder, true)
    try {
      const a = await h.call('GET', '/public/v1/pk_unknown/filters?x=1', undefined, null)
      const b = await h.call('GET', '/public/v1/pk_unknown/filters', undefined, null)
      expect([a.status, b.status]).toEqual([404, 404])
      const ids = [a.headers.get('x-request-id'), b.headers.get('x-request-id')]
      for (const id of ids) expect(id).toMatch(/^[0-9a-z]{16}$/)
      expect(ids[0]).not.toBe(ids[1])
      const requests = () => h.lines.filter((l) => l.status !== undefined)
      for (let waited = 0; requests().length < 2 && waited < 2000; waited += 5) await Bun.sleep(5)
      expect(requests()).toEqual([
        expect.objectContaining({
          method: 'GET',
          path: '/public/v1/pk_unknown/filters',
          status: 404,
          request_id: ids[0],
        }),
        expect.objectContaining({
          method: 'GET',
          path: '/public/v1/pk_unknown/filters',
          status: 404,
          request_id: ids[1],
        }),
      ])
    } finally {
      h.close()
    }
  })
})

describe('a request id a proxy sends', () => {
  test('is kept, answered and logged, on both APIs, when it is plain text of 8 to 64 characters; else one is made', async () => {
    const h = harness(throwingGeocoder, true)
    try {
      const id = (path: string, sent: string) =>
        h.call('GET', path, undefined, path.startsWith('/admin') ? h.key : null, { 'x-request-id': sent })
      const nginx = '0f8fad5b-d9cb-469f-a165-70867728950e'
      const answers = [
        await id('/public/v1/pk_unknown/filters', nginx),
        await id('/admin/v1/locations', 'lb-7.west:Req_0042'),
        await id('/public/v1/pk_unknown/filters', 'a b\tc'),
        await id('/admin/v1/locations', 'x'.repeat(65)),
        await id('/admin/v1/locations', 'short'),
      ].map((r) => r.headers.get('x-request-id'))
      expect(answers.slice(0, 2)).toEqual([nginx, 'lb-7.west:Req_0042'])
      for (const made of answers.slice(2)) expect(made).toMatch(/^[0-9a-z]{16}$/)
      const requests = () => h.lines.filter((l) => l.status !== undefined)
      for (let waited = 0; requests().length < 5 && waited < 2000; waited += 5) await Bun.sleep(5)
      expect(requests().map((l) => l.request_id)).toEqual(answers)
    } finally {
      h.close()
    }
  })
})

describe('request log lines of long paths', () => {
  test("quote the path's first 512 characters and its length, a key across the cut redacted whole", async () => {
    const h = harness(throwingGeocoder, true)
    try {
      const long = `/admin/v1/locations/${'a'.repeat(15_000)}`
      // The key starts 20 characters before the cut: cut first, its 20 characters would not look like a key.
      const straddling = `/admin/v1/locations/${'b'.repeat(512 - 20 - 20)}${h.key}${'-'.repeat(1000)}`
      for (const path of [long, straddling]) expect((await h.call('GET', path)).status).toBe(404)
      const requests = () => h.lines.filter((l) => l.status !== undefined)
      for (let waited = 0; requests().length < 2 && waited < 2000; waited += 5) await Bun.sleep(5)
      const [first, second] = requests()
      expect(first).toMatchObject({
        method: 'GET',
        status: 404,
        path: `${long.slice(0, 512)}...`,
        path_chars: long.length,
      })
      expect(second).toMatchObject({
        path: expect.stringMatching(/b{20}sk_\[redacted\]-+\.\.\.$/),
        path_chars: straddling.length,
      })
      expect(JSON.stringify(h.lines)).not.toContain(h.key.slice(3, 20))
      expect(JSON.stringify(h.lines).length).toBeLessThan(3000)
    } finally {
      h.close()
    }
  })
})

describe('request log lines of kept answers', () => {
  test('an answer sent from the response cache is logged like any other, under its own request id', async () => {
    const h = harness(throwingGeocoder, true)
    try {
      const { locator } = createLocator(h.store, 'Logged')
      const token = setLocatorSettings(h.store, locator.id, { queryApi: 'on' }).publicToken
      const path = `/public/v1/${token}/filters`
      const answers = []
      for (let i = 0; i < 3; i++) answers.push(await h.call('GET', path, undefined, null)) // the third is kept since the second
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
      expect(answers[2]!.text).toBe(answers[1]!.text)
      expect(h.cacheHits()).toBe(1)
      const ids = answers.map((a) => a.headers.get('x-request-id'))
      const requests = () => h.lines.filter((l) => l.status !== undefined && l.path === path)
      for (let waited = 0; requests().length < 3 && waited < 2000; waited += 5) await Bun.sleep(5)
      expect(requests()).toEqual(
        ids.map((id) =>
          expect.objectContaining({ method: 'GET', path, status: 200, request_id: id, ms: expect.any(Number) }),
        ),
      )
    } finally {
      h.close()
    }
  })

  test("public lines name the token's locator, as the Management API's name the key's: made and kept answers, the app's, its refusals; an unknown token none", async () => {
    const h = harness(throwingGeocoder, true)
    try {
      const { locator } = createLocator(h.store, 'Logged')
      const token = setLocatorSettings(h.store, locator.id, { queryApi: 'on' }).publicToken
      const off = createLocator(h.store, 'Off').locator // its Query API off: 403
      const paths = [
        ...Array(3).fill(`/public/v1/${token}/locations?all=true`), // made on the fast path, then kept
        `/public/v1/${token}/filters`,
        `/public/v1/${token}/locations/loc_unknown`,
        `/public/v1/${off.publicToken}/filters`,
        '/public/v1/pk_unknown/filters',
      ]
      const statuses = []
      for (const path of paths) statuses.push((await h.call('GET', path, undefined, null)).status)
      expect(statuses).toEqual([200, 200, 200, 200, 404, 403, 404])
      expect(h.cacheHits()).toBe(1) // the third all=true
      const requests = () => h.lines.filter((l) => l.status !== undefined)
      for (let waited = 0; requests().length < paths.length && waited < 2000; waited += 5) await Bun.sleep(5)
      expect(requests().map((l) => l.locator)).toEqual([
        locator.id,
        locator.id,
        locator.id,
        locator.id,
        locator.id,
        off.id,
        null,
      ])
    } finally {
      h.close()
    }
  })
})

describe('X-Request-Id on every kind of response', () => {
  test('answers, errors of either API, unknown paths, preflights and health checks all carry one, each its own', async () => {
    const h = harness(throwingGeocoder)
    try {
      const locator = h.store.locators.list()[0]!
      setLocatorSettings(h.store, locator.id, { queryApi: 'on' })
      const token = locator.publicToken
      const calls: [string, string, string | null, number][] = [
        ['GET', `/public/v1/${token}/locations?all=true`, null, 200],
        ['GET', `/public/v1/${token}/locations?all=true`, null, 200], // asked twice: now kept
        ['GET', `/public/v1/${token}/locations?all=true`, null, 200], // the kept answer
        ['GET', `/public/v1/${token}/locations?lat=1`, null, 400],
        ['GET', `/public/v1/${token}/nothing-here`, null, 404],
        ['OPTIONS', `/public/v1/${token}/locations`, null, 204],
        ['GET', '/admin/v1/locations', h.key, 200],
        ['GET', '/admin/v1/locations', null, 401],
        ['GET', '/admin/v1/nothing-here', h.key, 404],
        ['GET', '/healthz', null, 200],
      ]
      const ids = new Set<string>()
      for (const [method, path, key, status] of calls) {
        const res = await h.call(method, path, undefined, key)
        expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} ${status}`)
        const id = res.headers.get('x-request-id')
        expect(id).toMatch(/^[0-9a-z]{16}$/)
        ids.add(id!)
      }
      expect(ids.size).toBe(calls.length)
    } finally {
      h.close()
    }
  })
})

describe('public 500', () => {
  test('an unexpected failure on the Query API: a generic 500 in its error shape, the stack logged under the request id', async () => {
    const h = harness(throwingGeocoder)
    try {
      h.store.close() // every read now throws
      const res = await h.call('GET', '/public/v1/pk_unknown/filters', undefined, null)
      expect(res.status).toBe(500)
      expect(res.body).toEqual({
        success: false,
        error: {
          code: 'INTERNAL_ERROR',
          message: expect.stringContaining('X-Request-Id'),
          docs: 'http://localhost/docs#INTERNAL_ERROR',
        },
      })
      expect(res.headers.get('cache-control')).toBe('no-store')
      const errors = h.lines.filter((l) => l.level === 'error')
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatchObject({
        api: 'public',
        method: 'GET',
        path: '/public/v1/pk_unknown/filters',
        request_id: res.headers.get('x-request-id'),
      })
      expect(String(errors[0]!.stack)).toMatch(/\n\s+at /)
    } finally {
      h.close()
    }
  })
})

describe('503 database busy', () => {
  let env: TestEnv
  let other: Database
  beforeEach(() => {
    env = makeEnv()
    other = new Database(join(env.dir, 'test.db'))
  })
  afterEach(() => {
    if (other.inTransaction) other.exec('ROLLBACK')
    other.close()
    env.close()
  })

  test('a write while another connection holds the write lock gives 503 with Retry-After, and changes nothing', async () => {
    const first = await env.call('POST', '/admin/v1/locations', { body: storeBody({ name: 'Before' }) })
    expect(first.status).toBe(201)
    // The app waits busy_timeout (5 s) before giving up; shorten it on the app's own connection
    // so the test is quick. The slow test below uses the real setting.
    env.store.db.exec('PRAGMA busy_timeout = 50')
    other.exec('BEGIN IMMEDIATE')
    const res = await env.call('POST', '/admin/v1/locations', { body: storeBody({ name: 'During' }) })
    other.exec('ROLLBACK')

    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(res.body).toEqual({ success: false, error: 'unavailable', message: expect.any(String) })
    expect(JSON.stringify(res.body)).not.toMatch(/SQLITE/i)

    const list = await env.call('GET', '/admin/v1/locations')
    expect(list.body.locations.map((l: { name: string }) => l.name)).toEqual(['Before'])
  })

  test('updates and deletes under the lock give 503 too and leave the row as it was', async () => {
    const created = await env.call('POST', '/admin/v1/locations', { body: storeBody() })
    const id = created.body.location.id
    env.store.db.exec('PRAGMA busy_timeout = 50')
    other.exec('BEGIN IMMEDIATE')
    const upd = await env.call('POST', `/admin/v1/locations/${id}`, { body: { name: 'Changed' } })
    const del = await env.call('POST', `/admin/v1/locations/${id}/delete`)
    other.exec('ROLLBACK')
    for (const res of [upd, del]) {
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBeTruthy()
      expect(res.body.error).toBe('unavailable')
    }
    expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location).toEqual(created.body.location)
  })

  test('with the real busy_timeout the app waits about 5 s, then answers 503 (never a 2xx, never a hang)', async () => {
    await env.call('GET', '/admin/v1/locations')
    other.exec('BEGIN IMMEDIATE')
    const t0 = performance.now()
    const res = await env.call('POST', '/admin/v1/locations', { body: storeBody() })
    const elapsed = performance.now() - t0
    other.exec('ROLLBACK')
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBeTruthy()
    expect(elapsed).toBeGreaterThanOrEqual(4500)
    expect(elapsed).toBeLessThan(15_000) // generous: CI machines are shared
    expect((await env.call('GET', '/admin/v1/locations')).body.pagination.total).toBe(0)
  }, 20_000)

  test('a real secret key on the Query API while the lock is held: 400 at once, the process going on; marked exposed once the lock is free', async () => {
    const keyId = env.store.keys.listForLocator(env.locatorId)[0]!.id
    const token = env.store.locators.get(env.locatorId)!.publicToken
    env.store.db.exec('PRAGMA busy_timeout = 3000')
    other.exec('BEGIN IMMEDIATE')
    // On a path that is no endpoint, and on an endpoint. Before, the mark waited for the lock in
    // SQLite, stopping the process, and the request got 503 when it outlasted busy_timeout.
    for (const path of [
      `/public/v1/${token}/nothing/${env.key}`,
      `/public/v1/${token}/locations?all=true&k=${env.key}`,
    ]) {
      const res = await env.call('GET', path, { key: null })
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('SECRET_KEY_EXPOSED')
      expect(JSON.stringify(res.body)).not.toContain(env.key)
    }
    await Bun.sleep(20) // timers still fire: the mark waits for the lock from a timer
    expect(env.store.keys.get(keyId)!.exposedAt).toBeNull()
    other.exec('ROLLBACK')
    await env.store.writeSoon(() => {}) // queued after the marks: settles once they are committed
    expect(env.store.keys.get(keyId)!.exposedAt).not.toBeNull()
  })

  test('a real secret key while the lock is held past busy_timeout: still 400; the log names the key by id, and it is marked when seen again', async () => {
    const keyId = env.store.keys.listForLocator(env.locatorId)[0]!.id
    const lines: Record<string, unknown>[] = []
    const app = createApp({
      store: env.store,
      geocoder: env.geocoder,
      config: { maxBodyBytes: 256 * 1024, logRequests: false },
      log: (line) => lines.push(line),
    })
    const path = `http://localhost/public/v1/${env.store.locators.get(env.locatorId)!.publicToken}/filters?k=${env.key}`
    env.store.db.exec('PRAGMA busy_timeout = 50')
    other.exec('BEGIN IMMEDIATE')
    expect((await app.handle(new Request(path))).status).toBe(400)
    await env.store.writeSoon(() => {}).catch(() => {}) // refused busy too, after the mark
    other.exec('ROLLBACK')
    expect(env.store.keys.get(keyId)!.exposedAt).toBeNull()
    expect(lines).toEqual([
      {
        level: 'warn',
        api: 'public',
        message: `Key ${keyId} was sent to the Query API but could not be marked exposed (another process held the database); it is marked when it is seen again.`,
      },
    ])
    expect(JSON.stringify(lines)).not.toContain(env.key.slice(3, 20))

    expect((await app.handle(new Request(path))).status).toBe(400)
    await env.store.writeSoon(() => {})
    expect(env.store.keys.get(keyId)!.exposedAt).not.toBeNull()
  })

  test('a read is answered while another connection holds the write lock (WAL readers do not wait for writers)', async () => {
    await env.call('POST', '/admin/v1/locations', { body: storeBody() })
    // The key was just used, so there is no last_used_at bookkeeping due either.
    env.store.db.exec('PRAGMA busy_timeout = 50')
    other.exec('BEGIN IMMEDIATE')
    const list = await env.call('GET', '/admin/v1/locations')
    other.exec('ROLLBACK')
    expect(list.status).toBe(200)
    expect(list.body.pagination.total).toBe(1)
  })

  test('a read with a key not used for a while is answered too: last_used_at bookkeeping never fails a read', async () => {
    // A fresh key (never used): authenticating it records last_used_at, which is bookkeeping, not data.
    env.store.db.exec('PRAGMA busy_timeout = 50')
    other.exec('BEGIN IMMEDIATE')
    const list = await env.call('GET', '/admin/v1/locations')
    other.exec('ROLLBACK')
    expect(list.status).toBe(200)
    expect(list.body.pagination.total).toBe(0)
  })
})

describe('a secret key sent where an id or a value belongs', () => {
  let env: TestEnv
  beforeEach(() => (env = makeEnv()))
  afterEach(() => env.close())

  test('is not quoted back in the error: as a location id, a parameter, a custom field id or value', async () => {
    const other = newSecretKey()
    const answers = [
      await env.call('GET', `/admin/v1/locations/${env.key}`),
      await env.call('POST', `/admin/v1/locations/${other}`, { body: { name: 'x' } }),
      await env.call('GET', `/admin/v1/locations?status=${env.key}`),
      await env.call('GET', `/admin/v1/locations?page=1&page=${env.key}`),
      await env.call('POST', '/admin/v1/locations', { body: storeBody({ custom_fields: { [env.key]: 'x' } }) }),
    ]
    expect(answers.map((a) => a.status)).toEqual([404, 404, 400, 400, 422])
    for (const a of answers) {
      const text = JSON.stringify(a.body)
      expect(text).not.toContain(env.key.slice(3))
      expect(text).not.toContain(other.slice(3))
      expect(text).toContain('sk_[redacted]')
    }
  })

  test('is not quoted back by the 404 of a path that is no route, under /admin/v1 or elsewhere', async () => {
    for (const path of [
      `/admin/v1/${env.key}`,
      `/${env.key}`,
      `/admin/v1/locations/x/${encodeURIComponent(env.key).replace('s', '%73')}`,
    ]) {
      const res = await env.call('GET', path)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({
        success: false,
        error: 'not_found',
        message: expect.stringContaining('sk_[redacted]'),
      })
      expect(JSON.stringify(res.body)).not.toContain(env.key.slice(3))
    }
  })
})

describe('the database file deleted or replaced under the server', () => {
  let env: TestEnv
  beforeEach(() => {
    env = makeEnv()
  })
  afterEach(() => env.close())

  const dbPath = () => env.store.db.filename
  const names = async () =>
    (await env.call('GET', '/admin/v1/locations')).body.locations.map((l: { name: string }) => l.name)

  test('writes are refused with 503 saying so (they would go to a file no later start reads), /readyz says failed; the file put back, both work again', async () => {
    expect((await env.call('POST', '/admin/v1/locations', { body: storeBody({ name: 'Before' }) })).status).toBe(201)
    renameSync(dbPath(), `${dbPath()}.moved`)
    const res = await env.call('POST', '/admin/v1/locations', { body: storeBody({ name: 'Lost' }) })
    expect(res.status).toBe(503)
    expect(res.body).toEqual({
      success: false,
      error: 'unavailable',
      message: expect.stringContaining(
        `The database file ${dbPath()} was moved or deleted after this process opened it`,
      ),
    })
    // A restart with no file at the path would make a new, empty database: the file goes back first.
    expect(res.body.message).toContain(`Put the file back at ${dbPath()}`)
    expect(res.body.message).toContain('a restart with no file there makes a new, empty database')
    const ready = await env.call('GET', '/readyz', { key: null })
    expect(ready.status).toBe(503)
    expect(ready.body).toEqual({ status: 'failed', message: res.body.message })

    renameSync(`${dbPath()}.moved`, dbPath())
    expect(await names()).toEqual(['Before'])
    expect((await env.call('POST', '/admin/v1/locations', { body: storeBody({ name: 'After' }) })).status).toBe(201)
    expect((await env.call('GET', '/readyz', { key: null })).body).toEqual({ status: 'ready' })
  })

  test('another file put at the path (a backup moved into place): writes refused, the file at the path untouched', async () => {
    expect((await env.call('POST', '/admin/v1/locations', { body: storeBody({ name: 'Before' }) })).status).toBe(201)
    env.store.db.exec('PRAGMA wal_checkpoint(TRUNCATE)') // the copy holds every row
    copyFileSync(dbPath(), `${dbPath()}.copy`)
    renameSync(`${dbPath()}.copy`, dbPath())
    const res = await env.call('POST', '/admin/v1/locations', { body: storeBody({ name: 'Lost' }) })
    expect(res.status).toBe(503)
    expect(res.body.message).toContain('was replaced by another file after this process opened it')
    const restarted = openStore(dbPath())
    try {
      expect(restarted.locations.all(env.locatorId).map((l) => l.name)).toEqual(['Before'])
    } finally {
      restarted.close()
    }
  })
})
