// Many location changes to one locator read from the change log together (a bulk write's) are
// applied in slices by background tasks (src/indexes/catch-up.ts): other locators answer
// meanwhile, the locator's own queries wait for the last slice, and then answer as a fresh build.
import { expect, test } from 'bun:test'
import { locationsBody } from '../../src/api/public/answer'
import { CATCH_UP_MAX_MS, CATCH_UP_MIN } from '../../src/indexes/catch-up'
import { IndexRegistry } from '../../src/indexes/registry'
import { setFilters } from '../../src/operator'
import type { Store } from '../../src/store'
import type { Locator } from '../../src/store/locators'
import { otherProcess, servedLocator, taskQueue, withTempStore } from '../helpers'

const ctx = withTempStore()

const QUERY = 'lat=48.85&lng=2.35&radius=500&unit=km&limit=500'

/** A locator with its Query API on and `n` published locations. */
const served = (store: Store, name: string, n: number) =>
  servedLocator(store, name, n, (i) => ({
    address: `${i} Main Street, Paris`,
    coordinates: { lat: 48.85 + i * 0.001, lng: 2.35 },
    tags: ['repair'],
  }))

/** Renames every location of `ids`, in one transaction (a bulk write's). */
function renameAll(store: Store, locatorId: string, ids: string[], prefix: string): void {
  store.write(() => {
    for (const id of ids) {
      const row = store.locations.get(locatorId, id)!
      store.locations.replace({ ...row, name: `${prefix} ${row.name}` }, row)
    }
  })
}

const text = new TextDecoder()
const body = (registry: IndexRegistry, locator: Locator) =>
  text.decode(
    locationsBody(registry, locator, `http://localhost/public/v1/${locator.publicToken}/locations?${QUERY}`).body,
  )
/** The answer and version of an index built now from the rows. */
const fresh = (locator: Locator) => {
  const registry = new IndexRegistry(ctx.store, taskQueue().schedule)
  return { body: body(registry, locator), version: registry.version(locator.id) }
}

/** Two built locators, A with CATCH_UP_MIN * 3 locations; `clock` is what CATCH_UP_MAX_MS is counted on. */
function twoLocators(clock?: () => number) {
  const q = taskQueue()
  const registry = new IndexRegistry(ctx.store, q.schedule, { clock })
  const a = served(ctx.store, 'Written', CATCH_UP_MIN * 3)
  const b = served(ctx.store, 'Other', 10)
  registry.entry(a.locator.id)
  registry.entry(b.locator.id)
  q.runAll()
  return { q, registry, a, b }
}

test("a bulk write's changes are applied by background tasks: its locator's queries wait for them, another's are answered meanwhile", async () => {
  const { q, registry, a, b } = twoLocators()
  const before = body(registry, a.locator)
  const otherBefore = body(registry, b.locator)
  renameAll(ctx.store, a.locator.id, a.ids, 'Renamed')
  registry.sync()
  const waiting = registry.whenBuilt(a.locator.id)
  expect(waiting).toBeInstanceOf(Promise)
  expect(registry.whenBuilt(b.locator.id)).toBeNull()
  expect(body(registry, b.locator)).toBe(otherBefore)
  // A write's answer to A waits too; one to B does not (read by the same sync, in a shared commit).
  expect(registry.builtAfter(registry.buildMark(), a.locator.id)).toBeInstanceOf(Promise)
  expect(registry.builtAfter(registry.buildMark(), b.locator.id)).toBeNull()
  q.runAll()
  await waiting
  expect(registry.whenBuilt(a.locator.id)).toBeNull()
  expect(registry.builtAfter(registry.buildMark(), a.locator.id)).toBeNull()
  const after = body(registry, a.locator)
  expect(after).not.toBe(before)
  expect(after).toContain('Renamed Written 0')
  expect({ body: after, version: registry.version(a.locator.id) }).toEqual(fresh(a.locator))
})

test('a few changes are applied as they are read, as before', () => {
  const { registry, a } = twoLocators()
  renameAll(ctx.store, a.locator.id, a.ids.slice(0, CATCH_UP_MIN - 1), 'Few')
  registry.sync()
  expect(registry.whenBuilt(a.locator.id)).toBeNull()
  expect(body(registry, a.locator)).toContain('Few Written 0')
})

test('read outside a query (entry, version), the index shows every change taken at once; so does a query that waited CATCH_UP_MAX_MS', () => {
  let now = 0
  const { registry, a } = twoLocators(() => now)
  renameAll(ctx.store, a.locator.id, a.ids, 'Once')
  registry.sync()
  expect(registry.whenBuilt(a.locator.id)).toBeInstanceOf(Promise)
  expect({ body: body(registry, a.locator), version: registry.version(a.locator.id) }).toEqual(fresh(a.locator))
  expect(registry.whenBuilt(a.locator.id)).toBeNull()

  // Writes that never stop would keep adding to it: past CATCH_UP_MAX_MS it is applied at once.
  otherProcess(ctx.store, (other) => renameAll(other, a.locator.id, a.ids, 'Late'))
  registry.sync()
  expect(registry.whenBuilt(a.locator.id)).toBeInstanceOf(Promise)
  now += CATCH_UP_MAX_MS - 1
  expect(registry.whenBuilt(a.locator.id)).toBeInstanceOf(Promise)
  now += 1
  expect(registry.whenBuilt(a.locator.id)).toBeNull()
  expect({ body: body(registry, a.locator), version: registry.version(a.locator.id) }).toEqual(fresh(a.locator))
})

test("a change to the locator's settings after a bulk write applies after its changes", () => {
  const { registry, a } = twoLocators()
  renameAll(ctx.store, a.locator.id, a.ids, 'First')
  registry.sync()
  expect(registry.whenBuilt(a.locator.id)).toBeInstanceOf(Promise)
  setFilters(ctx.store, a.locator.id, [
    { id: 'services', name: 'Services', label: 'Services', tags: [{ value: 'repair', label: 'Repair' }] },
  ])
  registry.sync()
  expect(registry.whenBuilt(a.locator.id)).toBeNull()
  expect({ body: body(registry, a.locator), version: registry.version(a.locator.id) }).toEqual(fresh(a.locator))
})
