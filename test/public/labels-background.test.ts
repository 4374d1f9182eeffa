// New tag labels are searched words: a large index is built again with them in background tasks
// while the old one answers as before the change (body and version), as after a bulk write
// (rebuild.ts); a query never builds it on the event loop, which would hold every locator's queries.
import { expect, test } from 'bun:test'
import { locationsBody } from '../../src/api/public/answer'
import { IndexRegistry } from '../../src/indexes/registry'
import { setFilters } from '../../src/operator'
import type { Store } from '../../src/store'
import { otherProcess, servedLocator, taskQueue, withTempStore } from '../helpers'

const ctx = withTempStore()

const labelled = (store: Store, locatorId: string, label: string) =>
  setFilters(store, locatorId, [
    { id: 'services', name: 'Services', label: 'Leistungen', tags: [{ value: 'repair', label }] },
  ])

function bigRegistry(store: Store, events: string[] = []) {
  const { locator } = servedLocator(store, 'Big', 12, (i) => ({
    address: `${i} Torstraße, Berlin`,
    coordinates: { lat: 52.53 + i * 0.001, lng: 13.4 },
    tags: ['repair'],
  }))
  labelled(store, locator.id, 'Werkstatt')
  const q = taskQueue()
  const registry = new IndexRegistry(store, q.schedule, {
    backgroundBuildMin: 10,
    coldBuildMin: 10,
    onBuiltInBackground: (_, n) => events.push(`swapped ${n}`),
  })
  registry.sync()
  registry.entry(locator.id)
  q.runAll() // its JSON filled
  return { locator, q, registry }
}

test('a large index whose JSON is being made again when its labels change is let go, and built in background tasks', async () => {
  const { store } = ctx
  const { locator, q, registry } = bigRegistry(store)
  otherProcess(store, (other) =>
    setFilters(other, locator.id, [
      { id: 'services', name: 'What we do', label: 'Leistungen', tags: [{ value: 'repair', label: 'Werkstatt' }] },
    ]),
  )
  registry.sync()
  registry.entry(locator.id) // its JSON made again, in tasks not yet run
  otherProcess(store, (other) => labelled(other, locator.id, 'Reparatur'))
  registry.sync()
  const built = registry.whenBuilt(locator.id)
  expect(built).not.toBeNull()
  q.runAll()
  await built
  const url = `http://localhost/public/v1/${locator.publicToken}/locations?all=true&search=Reparatur`
  expect(JSON.parse(new TextDecoder().decode(locationsBody(registry, locator, url).body)).data.locations).toHaveLength(
    12,
  )
})

test('a large index gets new labels from a build in background tasks, the old one answering meanwhile', () => {
  const { store } = ctx
  const events: string[] = []
  const { locator, q, registry } = bigRegistry(store, events)
  const found = (search: string) => {
    const url = `http://localhost/public/v1/${locator.publicToken}/locations?all=true&search=${search}`
    const body = JSON.parse(new TextDecoder().decode(locationsBody(registry, locator, url).body))
    return { total: body.data.locations.length, version: registry.version(locator.id) }
  }
  const before = found('Werkstatt')
  expect(before.total).toBe(12)

  otherProcess(store, (other) => labelled(other, locator.id, 'Reparatur'))
  registry.sync()
  expect(found('Werkstatt')).toEqual(before)
  expect(events).toEqual([])
  q.runAll()
  expect(events).toEqual(['swapped 12'])
  const after = found('Reparatur')
  expect(after.total).toBe(12)
  expect(after.version).not.toBe(before.version)
  expect(found('Werkstatt').total).toBe(0)
})

test('answers of the old index meanwhile carry a version other than the new one, though none was asked before', () => {
  const { store } = ctx
  const { locator, q, registry } = bigRegistry(store)
  // No answer made yet: the locator's version is read from the change log when first asked.
  otherProcess(store, (other) => labelled(other, locator.id, 'Reparatur'))
  registry.sync()
  const url = `http://localhost/public/v1/${locator.publicToken}/locations?all=true&search=Werkstatt`
  const found = () => ({
    total: JSON.parse(new TextDecoder().decode(locationsBody(registry, locator, url).body)).data.locations.length,
    version: registry.version(locator.id),
  })
  const meanwhile = found()
  expect(meanwhile.total).toBe(12)
  q.runAll()
  const after = found()
  expect(after.total).toBe(0)
  expect(after.version).not.toBe(meanwhile.version)
})
