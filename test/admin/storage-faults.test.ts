// The database's storage refusing a write, with real SQLite conditions on the app's own
// connection: a full database (PRAGMA max_page_count at the file's size: SQLITE_FULL, as a full
// disk gives) and a read-only one (PRAGMA query_only: SQLITE_READONLY, as a file the process may
// not write gives; these tests run as root too, which chmod does not stop). Each answers 503
// unavailable with a Retry-After and words a client can act on, is logged for the operator once
// (not once a request) with the database's path, changes nothing (rows, change log, the public
// answer), and passes without a restart once the condition is lifted.
import { afterEach, beforeEach, describe, expect, spyOn, test } from 'bun:test'
import { createApp } from '../../src/server/app'
import { startChangeLogPrune } from '../../src/server/upkeep'
import { cachedGeocoder } from '../../src/geocode/geocoder'
import { setLocatorSettings } from '../../src/operator'
import { openStore } from '../../src/store'
import { createLocator } from '../../src/operator'
import { makeEnv, storeBody, tableGeocoder, type TestEnv } from '../helpers'

let env: TestEnv
let logs: Record<string, unknown>[]
let app: ReturnType<typeof createApp>
let token: string

beforeEach(() => {
  env = makeEnv()
  logs = []
  // The app of makeEnv, with its log kept.
  app = createApp({
    store: env.store,
    geocoder: cachedGeocoder(env.geocoder, env.store.geocodeCache),
    config: { maxBodyBytes: 256 * 1024, logRequests: false },
    log: (line) => logs.push(line),
  })
  token = setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' }).publicToken
})
afterEach(() => env.close())

async function call(method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${env.key}` }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  )
  return { status: res.status, headers: res.headers, body: (await res.json()) as any }
}

const count = (table: string) => (env.store.db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
/** The public answer for all the locator's locations (no key: a browser's request). */
async function publicAnswer() {
  const res = await app.handle(new Request(`http://localhost/public/v1/${token}/locations?all=true`))
  expect(res.status).toBe(200)
  return (await res.json()) as any
}
/** A description that takes pages of its own: the write needs the file to grow. */
const big = (c: string) => c.repeat(9_000)

/** The database full: no page can be added beyond those it has (what a full disk gives SQLite: SQLITE_FULL). */
function fill(): void {
  const { page_count } = env.store.db.query('PRAGMA page_count').get() as { page_count: number }
  env.store.db.exec(`PRAGMA max_page_count = ${page_count}`)
}
const unfill = () => env.store.db.exec('PRAGMA max_page_count = 4294967294')

describe('a full database (SQLITE_FULL)', () => {
  test('creates and updates answer 503 unavailable with Retry-After, saying the disk is full; nothing is kept; the public answer is as before', async () => {
    const kept = (await call('POST', '/admin/v1/locations', storeBody({ name: 'Kept' }))).body.location
    const before = {
      rows: count('locations'),
      changes: count('changes'),
      answer: await publicAnswer(),
      row: (await call('GET', `/admin/v1/locations/${kept.id}`)).body,
    }
    expect(before.answer.data.locations.map((l: { name: string }) => l.name)).toEqual(['Kept'])
    fill()
    const created = await call('POST', '/admin/v1/locations', storeBody({ name: 'Refused', description: big('x') }))
    const updated = await call('POST', `/admin/v1/locations/${kept.id}`, { name: 'Renamed', description: big('y') })
    for (const res of [created, updated]) {
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('30')
      expect(res.body).toEqual({
        success: false,
        error: 'unavailable',
        message:
          "The service cannot save changes now: its database's disk is full. Nothing was changed. Retry after the seconds in Retry-After; the service's operator is told in its log.",
      })
    }
    expect({
      rows: count('locations'),
      changes: count('changes'),
      answer: await publicAnswer(),
      row: (await call('GET', `/admin/v1/locations/${kept.id}`)).body,
    }).toEqual(before)
  })

  test('the operator is told once, not once a request: "database disk full" with the path, no key; /readyz says degraded; once space is back, writes commit and that is logged', async () => {
    fill()
    for (let i = 0; i < 3; i++)
      expect((await call('POST', '/admin/v1/locations', storeBody({ description: big(String(i)) }))).status).toBe(503)
    const errors = logs.filter((l) => l.level === 'error')
    expect(errors).toEqual([
      {
        level: 'error',
        message: `database disk full: SQLite could not grow ${env.store.path} or its -wal file. Free space on the disk that holds it: writes then succeed again, no restart needed.`,
        database: env.store.path,
        error: 'database or disk is full',
        refused_requests: 1,
        next_report_in_s: 60,
      },
    ])
    expect(JSON.stringify(logs)).not.toContain(env.key)
    const ready = await call('GET', '/readyz')
    expect(ready.status).toBe(200) // reads are answered, and every server on this file meets the same disk
    expect(ready.body).toEqual({
      status: 'degraded',
      message: expect.stringContaining(
        `Writes are refused: database disk full: SQLite could not grow ${env.store.path}`,
      ),
    })

    unfill() // space freed, no restart
    const res = await call('POST', '/admin/v1/locations', storeBody({ name: 'After', description: big('z') }))
    expect(res.status).toBe(201)
    expect((await publicAnswer()).data.locations.map((l: { name: string }) => l.name)).toEqual(['After'])
    expect(logs.filter((l) => l.level === 'info')).toEqual([
      {
        level: 'info',
        message: 'database writes succeed again: the disk full met before has passed',
        database: env.store.path,
      },
    ])
    expect((await call('GET', '/readyz')).body).toEqual({ status: 'ready' })
  })
})

describe('a read-only database (SQLITE_READONLY)', () => {
  test("the background prune's failure says what to mend, as the requests' faults do", async () => {
    await call('POST', '/admin/v1/locations', storeBody({ name: 'Kept' }))
    env.store.db.exec('PRAGMA query_only = ON')
    const said: string[] = []
    const spy = spyOn(console, 'error').mockImplementation((line: string) => void said.push(line))
    try {
      const stop = startChangeLogPrune(env.store)
      while (said.length === 0) await Bun.sleep(10) // its first run, however late (the test's 30 s limit ends a hang)
      stop()
    } finally {
      spy.mockRestore()
      env.store.db.exec('PRAGMA query_only = OFF')
    }
    expect(said).toHaveLength(1)
    const line = JSON.parse(said[0]!)
    expect(line.level).toBe('error')
    expect(line.message).toStartWith(
      `change log not pruned; tried again at the next run: database is read-only: SQLite may not write ${env.store.path}.`,
    )
  }, 30_000)

  test('creates, updates and deletes answer 503 unavailable saying so; nothing is kept; reads go on; writable again, writes commit', async () => {
    const kept = (await call('POST', '/admin/v1/locations', storeBody({ name: 'Kept' }))).body.location
    const before = { rows: count('locations'), changes: count('changes'), answer: await publicAnswer() }
    env.store.db.exec('PRAGMA query_only = ON')
    const refused = [
      await call('POST', '/admin/v1/locations', storeBody({ name: 'Refused' })),
      await call('POST', `/admin/v1/locations/${kept.id}`, { name: 'Renamed' }),
      await call('POST', `/admin/v1/locations/${kept.id}/delete`),
    ]
    for (const res of refused) {
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('30')
      expect(res.body).toEqual({
        success: false,
        error: 'unavailable',
        message:
          "The service cannot save changes now: its database is read-only. Nothing was changed. Retry after the seconds in Retry-After; the service's operator is told in its log.",
      })
    }
    expect((await call('GET', `/admin/v1/locations/${kept.id}`)).status).toBe(200)
    expect({ rows: count('locations'), changes: count('changes'), answer: await publicAnswer() }).toEqual(before)
    const errors = logs.filter((l) => l.level === 'error')
    expect(errors.length).toBe(1)
    expect(errors[0]!.message).toStartWith(`database is read-only: SQLite may not write ${env.store.path}.`)

    env.store.db.exec('PRAGMA query_only = OFF')
    expect((await call('POST', `/admin/v1/locations/${kept.id}`, { name: 'Renamed' })).status).toBe(200)
    expect((await publicAnswer()).data.locations.map((l: { name: string }) => l.name)).toEqual(['Renamed'])
  })

  test("a key's first request in a minute is answered: its last use is not written, rather than the request refused", async () => {
    // In memory, the store's one connection also keeps the keys' last use (a file's has a second).
    const store = openStore(':memory:')
    try {
      const { secret } = createLocator(store, 'In memory')
      const memoryApp = createApp({
        store,
        geocoder: tableGeocoder({}),
        config: { maxBodyBytes: 1024, logRequests: false },
        log: () => {},
      })
      store.db.exec('PRAGMA query_only = ON')
      const res = await memoryApp.handle(
        new Request('http://localhost/admin/v1/locations', { headers: { authorization: `Bearer ${secret}` } }),
      )
      expect(res.status).toBe(200)
      expect(((await res.json()) as any).locations).toEqual([])
    } finally {
      store.close()
    }
  })
})
