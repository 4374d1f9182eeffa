// LOCATOR_MAX_LOCATIONS: a locator's creates past the most are refused with limit_exceeded (400),
// naming the setting; updates, deletions and other locators go on.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { noGeocoder } from '../../src/geocode/geocoder'
import { bulkUpsert } from '../../src/locations/bulk'
import { locationCap } from '../../src/locations/cap'
import { createLocator } from '../../src/operator'
import { createApp } from '../../src/server/app'
import { openStore, type Store } from '../../src/store'
import { cliRunner, storeBody, tempDir } from '../helpers'

const MOST = 3
let dir: string
let store: Store
let app: ReturnType<typeof createApp>
beforeEach(() => {
  dir = tempDir()
  store = openStore(join(dir, 'cap.db'))
  app = createApp({
    store,
    geocoder: noGeocoder,
    config: { maxBodyBytes: 262144, logRequests: false, locatorMaxLocations: MOST },
    log: () => {},
  })
})
afterEach(() => {
  store.close()
  rmSync(dir, { recursive: true, force: true })
})

async function post(key: string, path: string, body?: unknown) {
  const res = await app.handle(
    new Request(`http://localhost/admin/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  )
  return { status: res.status, body: (await res.json()) as any }
}

const refusal = (locatorId: string, holds: number, adding: number) => ({
  status: 400,
  body: {
    success: false,
    error: 'limit_exceeded',
    message: `The locator ${locatorId} holds ${holds} locations and this request would create ${adding} more: one locator may hold at most ${MOST} (the service's LOCATOR_MAX_LOCATIONS setting). Nothing was written. Delete locations it no longer needs (a sync script that creates instead of updating makes duplicates: send external_id and use POST /admin/v1/locations/bulk), or ask the service's operator to raise LOCATOR_MAX_LOCATIONS.`,
  },
})

test('creates past LOCATOR_MAX_LOCATIONS are refused, in a dry run too; updates, deletions and another locator go on', async () => {
  const { locator, secret } = createLocator(store, 'Capped')
  const ids: string[] = []
  for (let i = 0; i < MOST; i++) {
    const made = await post(secret, '/locations', storeBody({ name: `Store ${i}` }))
    expect(made.status).toBe(201)
    ids.push(made.body.location.id)
  }
  expect(await post(secret, '/locations', storeBody({ name: 'One too many' }))).toEqual(refusal(locator.id, MOST, 1))
  expect(store.locations.count(locator.id, null)).toBe(MOST)
  // A bulk that would create past it is refused whole; so is its dry run, which answers as the real run would.
  const bulk = (names: string[]) => ({ locations: names.map((name) => storeBody({ name, external_id: name })) })
  expect(await post(secret, '/locations/bulk', bulk(['x1', 'x2']))).toEqual(refusal(locator.id, MOST, 2))
  expect(await post(secret, '/locations/bulk', { ...bulk(['x1', 'x2']), dry_run: true })).toEqual(
    refusal(locator.id, MOST, 2),
  )
  expect((await post(secret, `/locations/${ids[0]}`, { name: 'Renamed' })).status).toBe(200)
  // Another locator's room is its own.
  const other = createLocator(store, 'Other')
  expect((await post(other.secret, '/locations', storeBody())).status).toBe(201)
  // A deletion makes room again, at once.
  expect((await post(secret, `/locations/${ids[1]}/delete`)).status).toBe(200)
  expect(await post(secret, '/locations/bulk', { ...bulk(['y1']), dry_run: true })).toMatchObject({
    status: 200,
    body: { dry_run: true, created: 1 },
  })
  expect((await post(secret, '/locations', storeBody({ name: 'In its place' }))).status).toBe(201)
  expect(await post(secret, '/locations', storeBody({ name: 'Past it again' }))).toEqual(refusal(locator.id, MOST, 1))
})

test('two servers on one database file (WORKERS=2) are held to LOCATOR_MAX_LOCATIONS together', async () => {
  const { locator, secret } = createLocator(store, 'Shared')
  // A second app on its own connection to the file: a worker, as WORKERS=2 runs it.
  const otherStore = openStore(join(dir, 'cap.db'))
  const other = createApp({
    store: otherStore,
    geocoder: noGeocoder,
    config: { maxBodyBytes: 262144, logRequests: false, locatorMaxLocations: MOST },
    log: () => {},
  })
  const postTo = async (to: typeof app, path: string, body: unknown) => {
    const res = await to.handle(
      new Request(`http://localhost/admin/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    )
    return { status: res.status, body: (await res.json()) as any }
  }
  try {
    const a1 = await post(secret, '/locations', storeBody({ name: 'A1' }))
    expect(a1.status).toBe(201)
    expect((await post(secret, '/locations', storeBody({ name: 'A2' }))).status).toBe(201)
    expect((await postTo(other, '/locations', storeBody({ name: 'B1' }))).status).toBe(201)
    // Each has counted its own creates; the file holds three.
    expect(await post(secret, '/locations', storeBody({ name: 'A3' }))).toEqual(refusal(locator.id, MOST, 1))
    expect(await postTo(other, '/locations/bulk', { locations: [storeBody({ name: 'B2' })] })).toEqual(
      refusal(locator.id, MOST, 1),
    )
    // The same sent at once to both, after a deletion makes room for one: one is made, one refused.
    expect((await postTo(other, `/locations/${a1.body.location.id}/delete`, undefined)).status).toBe(200)
    const both = await Promise.all([
      post(secret, '/locations', storeBody({ name: 'A4' })),
      postTo(other, '/locations', storeBody({ name: 'B3' })),
    ])
    expect(both.map((r) => r.status).sort()).toEqual([201, 400])
    expect(store.locations.count(locator.id, null)).toBe(MOST)
  } finally {
    otherStore.close()
  }
})

test("a bulk dry run answers from one state of the file: another process's commit while it reads is not half in it", async () => {
  const { locator, secret } = createLocator(store, 'Snapshot')
  expect((await post(secret, '/locations', storeBody({ name: 'A', external_id: 'A' }))).status).toBe(201)
  expect((await post(secret, '/locations', storeBody({ name: 'No id' }))).status).toBe(201)
  // Another process (the CLI) imports one location between the dry run's first read (the external
  // ids delete_missing keeps) and its count: the file then holds MOST.
  const file = join(dir, 'one.json')
  writeFileSync(file, JSON.stringify([storeBody({ name: 'Imported' })]))
  const cap = locationCap(store, MOST)
  let imported = false
  const roomFor = (locatorId: string, adding: number) => {
    if (!imported) cliRunner(() => join(dir, 'cap.db')).json('locations', 'import', locator.id, '--file', file)
    imported = true
    cap(locatorId, adding)
  }
  const items = ['A', 'B'].map((name, i) => ({ raw: storeBody({ name, external_id: name }), key: `locations[${i}]` }))
  const report = await bulkUpsert({ store, geocoder: noGeocoder, roomFor }, locator.id, items, {
    dryRun: true,
    deleteMissing: true,
  })
  expect(imported).toBe(true)
  // As the file was when it began: 2 held, 1 created, within MOST.
  expect({ created: report.created, unchanged: report.unchanged, deleted: report.deleted }).toEqual({
    created: 1,
    unchanged: 1,
    deleted: 0,
  })
  expect(store.locations.count(locator.id, null)).toBe(MOST)
})
