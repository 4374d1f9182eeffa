// A locator's index is queryable before its public JSON is filled in (registry.ts): answers made
// on demand, while the background fill runs, and after it are the same; a location deleted by
// another writer between the sync and its JSON is not shown half-made.
import { describe, expect, test } from 'bun:test'
import { normalizeLocationBody, pickLocationFields } from '../../src/admin/normalize'
import { newLocationRecord } from '../../src/locations/record'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { locationsBody } from '../../src/public'
import { IndexRegistry } from '../../src/public/registry'
import { withTempStore } from '../helpers'

const ctx = withTempStore()

function seed(n: number) {
  const { store } = ctx
  const { locator } = createLocator(store, 'Fill')
  setLocatorSettings(store, locator.id, { queryApi: 'on' })
  const ids: string[] = []
  store.write(() => {
    for (let i = 0; i < n; i++) {
      const body = { name: `Store ${i}`, address: `${i} Main Street, Paris`, coordinates: { lat: 48.85 + i * 0.001, lng: 2.35 }, tags: ['repair'], status: 'published' }
      const record = newLocationRecord(locator.id, normalizeLocationBody(pickLocationFields(body), 'create', []), null)
      store.locations.insert(record)
      ids.push(record.id)
    }
  })
  return { locator: store.locators.get(locator.id)!, ids }
}

/** A schedule that only queues: the test runs the tasks when it chooses. */
function queue() {
  const tasks: (() => void)[] = []
  return {
    schedule: (task: () => void) => void tasks.push(task),
    runOne: () => tasks.shift()?.(),
    runAll: () => {
      while (tasks.length > 0) tasks.shift()!()
    },
  }
}

const url = (token: string, qs: string) => new URL(`http://localhost/public/v1/${token}/locations?${qs}`)

describe('public JSON fill', () => {
  test('answers before, during and after the background fill are identical', () => {
    const { locator } = seed(2500) // more than one fill page
    const q = queue()
    const registry = new IndexRegistry(ctx.store, q.schedule)
    const qs = 'lat=48.85&lng=2.35&radius=500&unit=km&limit=500&offset=1000'
    const before = locationsBody(registry, locator, url(locator.publicToken!, qs))
    expect(before.total).toBe(2500)
    expect(JSON.parse(before.body).data.locations).toHaveLength(500)
    expect(registry.entry(locator.id).jsonReady).toBe(false)
    // Tasks queued so far: FlexSearch's build and the fill's first page, in some order.
    q.runOne()
    q.runOne()
    const during = locationsBody(registry, locator, url(locator.publicToken!, qs))
    expect(during.body).toBe(before.body)
    expect(registry.entry(locator.id).jsonReady).toBe(false)
    q.runAll()
    expect(registry.entry(locator.id).jsonReady).toBe(true)
    const after = locationsBody(registry, locator, url(locator.publicToken!, qs))
    expect(after.body).toBe(before.body)
    const all = locationsBody(registry, locator, url(locator.publicToken!, 'all=true&limit=500'))
    for (const l of JSON.parse(all.body).data.locations) expect(l.name).toMatch(/^Store \d+$/)
  })

  test('a location deleted after the sync, before its JSON was made, is left out after a fresh sync', () => {
    const { locator, ids } = seed(5)
    const registry = new IndexRegistry(ctx.store, queue().schedule)
    registry.entry(locator.id) // loaded without JSON; the fill never runs here
    // Another writer deletes one: this registry has not synced it yet.
    ctx.store.write(() => ctx.store.locations.remove(locator.id, ids[0]!))
    const { body, total } = locationsBody(registry, locator, url(locator.publicToken!, 'lat=48.85&lng=2.35&radius=50&unit=km'))
    expect(total).toBe(4)
    expect(JSON.parse(body).data.locations.map((l: { id: string }) => l.id)).toEqual(ids.slice(1))
  })
})
