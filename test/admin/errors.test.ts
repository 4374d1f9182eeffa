// Server-side failures of the Management API: an unexpected exception is logged with its stack and
// answered with a generic 500; a busy database gives 503 with Retry-After. (The request log and
// request ids: request-log.test.ts.)
import { test, expect, describe, beforeEach, afterEach } from 'bun:test'
import { Database } from 'bun:sqlite'
import { copyFileSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { createApp } from '../../src/server/app'
import { newSecretKey } from '../../src/core/ids'
import { openStore, type Store } from '../../src/store'
import { makeEnv, storeBody, type TestEnv } from '../helpers'
import { settlesBefore } from '../timer-order'
import { type Harness, harness, SECRET_TEXT, throwingGeocoder } from './harness'

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
    const call = env.call('POST', '/admin/v1/locations', { body: storeBody() })
    // The write waits for the lock from timers, each due within the 5 s: they fire before an 8 s
    // timer set after the request's start, however late a loaded machine runs them.
    expect(await settlesBefore(call, 8000)).toBe(true)
    const res = await call
    const elapsed = performance.now() - t0
    other.exec('ROLLBACK')
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBeTruthy()
    expect(elapsed).toBeGreaterThanOrEqual(4500)
    expect((await env.call('GET', '/admin/v1/locations')).body.pagination.total).toBe(0)
  }, 60_000)

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
