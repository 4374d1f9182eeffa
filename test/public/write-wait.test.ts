// A Management API write answers once its own locator's index shows it (a bulk's changes applied
// in slices, or an index built again in the background), and waits for no other locator's work
// read by the same sync: one tenant's create does not wait for another's bulk.
import { Database } from 'bun:sqlite'
import { expect, test } from 'bun:test'
import { CATCH_UP_MIN } from '../../src/indexes/catch-up'
import { createApp, type AppDeps } from '../../src/server/app'
import type { Store } from '../../src/store'
import { otherProcess, servedLocator, tableGeocoder, withTempStore } from '../helpers'

const ctx = withTempStore()

const QUERY = 'lat=48.85&lng=2.35&radius=50&unit=km&limit=500'
const SWAPPED = 'index built again in the background and swapped in'

/** A locator with its Query API on and `n` published locations, each with an external id. */
function served(store: Store, name: string, n: number) {
  const { locator, secret, ids } = servedLocator(store, name, n, (i) => ({
    external_id: `${name}-${i}`,
    address: `${i} Rue de Rivoli, Paris`,
    coordinates: { lat: 48.85 + i * 0.0001, lng: 2.35 },
  }))
  return { id: locator.id, token: locator.publicToken, secret, ids }
}

/** Renames every location of `ids` in one transaction of another connection (a bulk import's). */
const renameAll = (store: Store, locatorId: string, ids: string[], prefix: string) =>
  otherProcess(store, (other) => {
    for (const id of ids) {
      const row = other.locations.get(locatorId, id)!
      other.locations.replace({ ...row, name: `${prefix} ${row.name}` }, row)
    }
  })

function twoTenants(indexUpkeep?: AppDeps['indexUpkeep']) {
  const lines: Record<string, unknown>[] = []
  const swapped = () => lines.some((l) => String(l.message).startsWith(SWAPPED))
  const app = createApp({
    store: ctx.store,
    geocoder: tableGeocoder({}),
    config: { maxBodyBytes: 256 * 1024, logRequests: false },
    log: (line) => lines.push(line),
    indexUpkeep,
  })
  const a = served(ctx.store, 'Bulk', CATCH_UP_MIN * 3)
  const b = served(ctx.store, 'Single', 4)
  const query = (token: string) => app.handle(new Request(`http://localhost/public/v1/${token}/locations?${QUERY}`))
  const names = async (answer: Response | Promise<Response>) =>
    ((await (await answer).json()) as { data: { locations: { name: string }[] } }).data.locations.map((l) => l.name)
  const post = async (secret: string, path: string, body: unknown) =>
    app.handle(
      new Request(`http://localhost/admin/v1/locations${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    )
  const create = (secret: string) =>
    post(secret, '', { name: 'New', address: '1 Rue de Rivoli, Paris', coordinates: { lat: 48.85, lng: 2.35 } })
  return { app, swapped, a, b, query, names, post, create }
}

test("one tenant's create answers without waiting for another's bulk changes its sync read; their queries wait for them", async () => {
  const { a, b, query, names, create } = twoTenants()
  expect(await names(query(a.token))).toHaveLength(a.ids.length) // built
  renameAll(ctx.store, a.id, a.ids, 'Renamed')
  // B's write's sync reads A's bulk too: A's changes are applied in slices, which B's answer does not wait for.
  expect((await create(b.secret)).status).toBe(201)
  const asked = query(a.token)
  expect(asked).toBeInstanceOf(Promise) // A's queries wait for the last slice: none sees half the bulk
  const shown = await names(asked)
  expect(shown).toHaveLength(a.ids.length)
  expect(shown.every((name) => name.startsWith('Renamed '))).toBe(true)
  expect(await names(query(b.token))).toContain('New')
})

test("a tenant's own bulk answers once its changes are applied: the next query shows them at once", async () => {
  const { a, query, names, post } = twoTenants()
  expect(await names(query(a.token))).toHaveLength(a.ids.length)
  const locations = a.ids.map((_, i) => ({ external_id: `Bulk-${i}`, name: `Updated ${i}` }))
  const res = await post(a.secret, '/bulk', { locations })
  expect(res.status).toBe(200)
  const asked = query(a.token)
  expect(asked).toBeInstanceOf(Response) // nothing left to wait for
  const shown = await names(asked)
  expect(shown).toHaveLength(a.ids.length)
  expect(shown.every((name) => name.startsWith('Updated '))).toBe(true)
})

test("one tenant's create does not wait for another's index built again in the background", async () => {
  const { app, swapped, a, b, query, names, create } = twoTenants({ backlogMin: 4, backgroundBuildMin: 10 })
  expect(await names(query(a.token))).toHaveLength(a.ids.length)
  await app.preload() // A's JSON filled: its old index answers while a new one is built
  renameAll(ctx.store, a.id, a.ids, 'Rebuilt')
  expect((await create(b.secret)).status).toBe(201)
  expect(swapped()).toBe(false)
  expect(await names(query(b.token))).toContain('New')
  while (!swapped()) await Bun.sleep(5) // the test's timeout ends a hang
  const shown = await names(query(a.token))
  expect(shown.every((name) => name.startsWith('Rebuilt '))).toBe(true)
})

test("a refused write does not wait for its locator's index its sync began to build again", async () => {
  const { app, swapped, a, query, names, post } = twoTenants({ backlogMin: 4, backgroundBuildMin: 10 })
  expect(await names(query(a.token))).toHaveLength(a.ids.length)
  await app.preload() // A's JSON filled: its old index answers while a new one is built
  renameAll(ctx.store, a.id, a.ids, 'Rebuilt')
  // Its sync reads the rename and starts A's build; a 422 wrote nothing, so it answers at once.
  const refused = await post(a.secret, '', { name: '' })
  expect(refused.status).toBe(422)
  expect(swapped()).toBe(false)
  while (!swapped()) await Bun.sleep(5) // the test's timeout ends a hang
  expect((await names(query(a.token))).every((name) => name.startsWith('Rebuilt '))).toBe(true)
})

test("a bulk committed with another tenant's write, whose answer syncs first, answers once its own index is swapped in; the other's does not wait for it", async () => {
  const { app, swapped, b, query, names, post } = twoTenants({ backlogMin: 4, backgroundBuildMin: 10 })
  // More than a thousand of its own changes: its old index does not show them (rebuild.ts ownToShow).
  const a = served(ctx.store, 'Large', 1200)
  expect(await names(query(a.token))).toHaveLength(500)
  await app.preload() // its JSON filled: a bulk then builds it again in the background
  const bulk = (secret: string, body: unknown) => post(secret, '/bulk', body)
  const rename = { locations: [{ external_id: 'Single-0', name: 'Renamed' }] }
  expect((await bulk(b.secret, rename)).status).toBe(200) // its statements made: under 8 ms of a shared commit
  // Another connection holds the write lock: both writes wait for it, then commit together, B's
  // first, whose answer's sync reads A's too.
  const locker = new Database(ctx.store.db.filename)
  locker.exec('BEGIN IMMEDIATE')
  const seen: Record<string, boolean> = {}
  let answered: Promise<Response>
  let next: Promise<string[]> | undefined // the query sent as A's answer comes
  // The lock let go once both writes wait in the store's shared commit.
  const { writeSoon } = ctx.store
  let queued = 0
  let bothQueued = () => {}
  const both = new Promise<void>((resolve) => (bothQueued = resolve))
  ctx.store.writeSoon = (fn) => {
    if (++queued === 2) bothQueued()
    return writeSoon(fn)
  }
  try {
    const other = bulk(b.secret, rename).then((res) => ((seen.b = swapped()), res))
    const kept = [0, 1, 2].map((i) => ({ external_id: `Large-${i}`, name: `Kept ${i}` }))
    answered = bulk(a.secret, { delete_missing: true, locations: kept }).then((res) => {
      seen.a = swapped()
      next = names(query(a.token))
      return res
    })
    await both
    locker.exec('COMMIT')
    expect((await other).status).toBe(200)
  } finally {
    ctx.store.writeSoon = writeSoon
    locker.close()
  }
  expect((await answered).status).toBe(200)
  expect((await next!).sort()).toEqual(['Kept 0', 'Kept 1', 'Kept 2'])
  expect(seen).toEqual({ a: true, b: false })
})
