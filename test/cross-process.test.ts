// SQLite is the source of truth and every process keeps its own index in step through the change
// log: two servers on one database file, and the CLI as a third process.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createLocator, setLocatorSettings } from '../src/operator'
import { openStore } from '../src/store'
import { serverUrl, startServer, tempDir, type Running } from './helpers'

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
  b = startServer(db, { LOG_REQUESTS: '0' })
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
  fetch(`${base}/public/v1/${token}/locations?lat=52.52&lng=13.405&radius=10&unit=km`).then(async (r) => (await r.json()) as any)

test('a write through one server is in the very next public query of the other, and of itself', async () => {
  expect((await near(urlB)).data.pagination.total).toBe(0) // B has loaded its index before the write
  const created = await admin(urlA, '/locations', { name: 'Berlin Mitte', address: 'Unter den Linden 1, 10117 Berlin', coordinates: { lat: 52.517, lng: 13.389 } })
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

test('the CLI, a third process, changes what both servers answer', async () => {
  const off = Bun.spawnSync([process.execPath, join(import.meta.dir, '..', 'src/cli/main.ts'), 'locator', 'set', lctId(), '--query-api', 'off'], {
    env: { ...process.env, DATABASE_PATH: join(dir, 'shared.db') },
  })
  expect(off.exitCode).toBe(0)
  for (const base of [urlA, urlB]) {
    const res = await fetch(`${base}/public/v1/${token}/locations?all=true`)
    expect(res.status).toBe(403)
    expect(((await res.json()) as any).error.code).toBe('API_NOT_ENABLED')
  }
})

function lctId(): string {
  const store = openStore(join(dir, 'shared.db'))
  try {
    return store.locators.byToken(token)!.id
  } finally {
    store.close()
  }
}
