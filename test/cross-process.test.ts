// SQLite is the source of truth and every process keeps its own index in step through the change
// log: two servers on one database file, and the CLI as a third process.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createLocator, setLocatorSettings } from '../src/operator'
import { openStore } from '../src/store'
import { locationRecord, logCaughtUp, serverUrl, startServer, tempDir, type Running } from './helpers'

let dir: string
let a: Running
let b: Running
let urlA: string
let urlB: string
let key: string
let token: string

beforeAll(async () => {
  dir = tempDir()
  const db = join(dir, 'shared.db')
  const store = openStore(db)
  const made = createLocator(store, 'Shared')
  setLocatorSettings(store, made.locator.id, { queryApi: 'on' })
  key = made.secret
  token = made.locator.publicToken
  store.close()
  a = startServer(db, { LOG_REQUESTS: '0' })
  b = startServer(db) // its request log: what tells when its output holds a request's every line
  ;[urlA, urlB] = await Promise.all([serverUrl(a), serverUrl(b)])
}, 30_000)

afterAll(async () => {
  a.proc.kill('SIGTERM')
  b.proc.kill('SIGTERM')
  await Promise.all([a.proc.exited, b.proc.exited])
  rmSync(dir, { recursive: true, force: true })
})

const admin = (base: string, path: string, body?: unknown) =>
  fetch(`${base}/admin/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))

const near = (base: string) =>
  fetch(`${base}/public/v1/${token}/locations?lat=52.52&lng=13.405&radius=10&unit=km`).then(
    async (r) => (await r.json()) as any,
  )

test('a write through one server is in the very next public query of the other, and of itself', async () => {
  expect((await near(urlB)).data.pagination.total).toBe(0) // B has loaded its index before the write
  const created = await admin(urlA, '/locations', {
    name: 'Berlin Mitte',
    address: 'Unter den Linden 1, 10117 Berlin',
    coordinates: { lat: 52.517, lng: 13.389 },
  })
  expect(created.status).toBe(201)
  const id = created.body.location.id
  for (const base of [urlB, urlA]) {
    const res = await near(base)
    expect(res.data.locations.map((l: any) => l.id)).toEqual([id])
  }

  // An update through B moves it out of range, for both.
  expect((await admin(urlB, `/locations/${id}`, { coordinates: { lat: 48.137, lng: 11.575 } })).status).toBe(200)
  expect((await near(urlA)).data.pagination.total).toBe(0)
  expect((await near(urlB)).data.pagination.total).toBe(0)
})

test('a server that applied nothing while the change log was pruned past it (stopped) builds its indexes again: it misses none of the changes pruned', async () => {
  const all = (base: string) =>
    fetch(`${base}/public/v1/${token}/locations?all=true&limit=1`).then(async (r) => (await r.json()) as any)
  const before = (await all(urlB)).data.pagination.total
  b.proc.kill('SIGSTOP')
  try {
    const store = openStore(join(dir, 'shared.db'))
    try {
      const locatorId = store.locators.byToken(token)!.id
      store.write(() => {
        for (const name of ['Missed one', 'Missed two'])
          store.locations.insert(
            locationRecord(locatorId, {
              name,
              address: 'Alexanderplatz 1, Berlin',
              coordinates: { lat: 52.52, lng: 13.41 },
            }),
          )
      })
      // As the server prunes, up to the last change (every change then older than the kept time).
      const end = store.changes.lastSeq()
      while (store.write(() => store.changes.prune(end, 1)) < end) {}
    } finally {
      store.close()
    }
  } finally {
    b.proc.kill('SIGCONT')
  }
  expect((await all(urlB)).data.pagination.total).toBe(before + 2)
  expect((await all(urlA)).data.pagination.total).toBe(before + 2)
  await b.waitFor(/pruned past/) // stdout may come after the answer
  await logCaughtUp(b, urlB) // and a second warning, after the first
  const warned = b.lines.filter((l) => l.includes('pruned past')).map((l) => JSON.parse(l))
  expect(warned).toHaveLength(1)
  expect(warned[0]).toMatchObject({
    level: 'warn',
    message: expect.stringContaining('every index is built again from the rows'),
  })
})

test('the CLI, a third process, changes what both servers answer', async () => {
  const off = Bun.spawnSync(
    [process.execPath, join(import.meta.dir, '..', 'src/cli/main.ts'), 'locator', 'set', lctId(), '--query-api', 'off'],
    {
      env: { ...process.env, DATABASE_PATH: join(dir, 'shared.db') },
    },
  )
  expect(off.exitCode).toBe(0)
  for (const base of [urlA, urlB]) {
    const res = await fetch(`${base}/public/v1/${token}/locations?all=true`)
    expect(res.status).toBe(403)
    expect(((await res.json()) as any).error.code).toBe('API_NOT_ENABLED')
  }
})

test('the change log does not grow for good: a server prunes the changes older than an hour (at start, then every 10 minutes), each locator keeping its last one', async () => {
  const own = tempDir()
  const path = join(own, 'old.db')
  const store = openStore(path)
  const { locator } = createLocator(store, 'Old')
  setLocatorSettings(store, locator.id, { queryApi: 'on' })
  store.write(() => {
    for (let i = 0; i < 50; i++)
      store.locations.insert(
        locationRecord(locator.id, {
          name: `Old ${i}`,
          address: `${i} Main Street, Paris`,
          coordinates: { lat: 48.85, lng: 2.35 },
        }),
      )
  })
  const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000).toISOString()
  store.db.run('UPDATE changes SET at = ?', [twoHoursAgo])
  store.write(() =>
    store.locations.insert(
      locationRecord(locator.id, {
        name: 'Recent',
        address: '1 Main Street, Paris',
        coordinates: { lat: 48.85, lng: 2.35 },
      }),
    ),
  )
  const last = store.changes.lastSeq()
  const count = () => store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM changes').get()!.n
  expect(count()).toBe(last)
  const server = startServer(path, { LOG_REQUESTS: '0', DEMO: '0', GEOCODER: 'none' })
  try {
    const url = await serverUrl(server)
    // The prune at the start, however long a loaded machine takes to it (the test's timeout ends a hang).
    while (count() > 2) await Bun.sleep(25)
    // The last old change (the locator's, up to the cut) and the recent one.
    expect(
      store.db
        .query<{ seq: number }, []>('SELECT seq FROM changes ORDER BY seq')
        .all()
        .map((c) => c.seq),
    ).toEqual([last - 1, last])
    const res = (await (
      await fetch(`${url}/public/v1/${locator.publicToken}/locations?all=true&limit=1`)
    ).json()) as any
    expect(res.data.pagination.total).toBe(51)
  } finally {
    store.close()
    server.proc.kill('SIGTERM')
    await server.proc.exited
    rmSync(own, { recursive: true, force: true })
  }
}, 60_000)

function lctId(): string {
  const store = openStore(join(dir, 'shared.db'))
  try {
    return store.locators.byToken(token)!.id
  } finally {
    store.close()
  }
}
