// Many location changes committed at once by another process (a bulk import): the index is built
// again from the rows instead of being changed once per change, and answers are as a fresh build's.
import { expect, test } from 'bun:test'
import fc from 'fast-check'
import { createApp } from '../../src/server/app'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { locationsBody } from '../../src/api/public/answer'
import { IndexRegistry } from '../../src/indexes/registry'
import type { Store } from '../../src/store'
import { locationRecord, otherProcess, servedLocator, tableGeocoder, withTempStore } from '../helpers'

const ctx = withTempStore()

const QUERY = 'lat=48.85&lng=2.35&radius=50&unit=km&limit=100'

/** The i-th location's address and coordinates, along the Rue de Rivoli. */
const at = (i: number) => ({
  address: `${i} Rue de Rivoli, Paris`,
  coordinates: { lat: 48.85 + i * 0.001, lng: 2.35 - i * 0.001 },
})

const place = (locatorId: string, name: string, i: number, tags: string[] = []) =>
  locationRecord(locatorId, { name, ...at(i), tags, status: 'published' })

/** A locator with its Query API on and `n` published locations. */
function served(store: Store, name: string, n: number) {
  const { locator, ids } = servedLocator(store, name, n, at)
  return { locatorId: locator.id, token: locator.publicToken, ids }
}

/** Renames and moves a location, as an update does. */
function edit(store: Store, locatorId: string, id: string, name: string, dLat: number): void {
  const current = store.locations.get(locatorId, id)!
  store.locations.replace({ ...current, name, lat: current.lat + dLat, updatedAt: new Date().toISOString() }, current)
}

test("a bulk write by another process: the index is built again, logged once, and answers (body and ETag) are a fresh build's; a smaller one is applied change by change", async () => {
  const { store } = ctx
  const big = served(store, 'Big', 12)
  const small = served(store, 'Small', 12)
  const lines: Record<string, unknown>[] = []
  const app = createApp({
    store,
    geocoder: tableGeocoder({}),
    config: { maxBodyBytes: 256 * 1024, logRequests: false },
    log: (l) => lines.push(l),
    indexUpkeep: { backlogMin: 4 },
  })
  const ask = async (a: typeof app, token: string) => {
    const res = await a.handle(new Request(`http://localhost/public/v1/${token}/locations?${QUERY}`))
    expect(res.status).toBe(200)
    return { body: await res.text(), etag: res.headers.get('etag') }
  }
  await ask(app, big.token)
  await ask(app, small.token)

  // Big: 4 renamed and moved, one deleted, one unpublished, 2 added (8 changes: at least 4 and a quarter of 12).
  // Small: 2 changes (under 4).
  otherProcess(store, (other) => {
    for (let i = 0; i < 4; i++) edit(other, big.locatorId, big.ids[i]!, `Big renamed ${i}`, 0.002)
    other.locations.remove(big.locatorId, big.ids[4]!)
    const hidden = other.locations.get(big.locatorId, big.ids[5]!)!
    other.locations.replace({ ...hidden, status: 'draft', updatedAt: new Date().toISOString() }, hidden)
    other.locations.insert(place(big.locatorId, 'Big new A', 20, ['new']))
    other.locations.insert(place(big.locatorId, 'Big new B', 21))
    edit(other, small.locatorId, small.ids[0]!, 'Small renamed', 0.003)
    other.locations.remove(small.locatorId, small.ids[1]!)
  })

  const bigAfter = await ask(app, big.token)
  const smallAfter = await ask(app, small.token)
  expect(lines).toEqual([
    expect.objectContaining({
      level: 'info',
      message: expect.stringContaining('built again from the rows'),
      locator: big.locatorId,
      changes: 8,
    }),
  ])

  // A new app (a process started now) builds both from the rows: the same answers, the same versions.
  const fresh = createApp({
    store,
    geocoder: tableGeocoder({}),
    config: { maxBodyBytes: 256 * 1024, logRequests: false },
    log: () => {},
  })
  expect(bigAfter).toEqual(await ask(fresh, big.token))
  expect(smallAfter).toEqual(await ask(fresh, small.token))
  const names = JSON.parse(bigAfter.body).data.locations.map((l: { name: string }) => l.name)
  expect(names).toContain('Big renamed 0')
  expect(names).toContain('Big new A')
  expect(names).not.toContain('Big 4')
  expect(names).not.toContain('Big 5')
  expect(names).toHaveLength(12)

  // The rebuilt index takes this process's own writes as before.
  otherProcess(store, (other) => edit(other, big.locatorId, big.ids[6]!, 'Big renamed again', 0))
  expect((await ask(app, big.token)).body).toContain('Big renamed again')
  expect(lines).toHaveLength(1)
})

test('the idle sync (with a time budget) that meets a bulk write lets the index go and builds it in a background task, before any query', () => {
  const { store } = ctx
  const { locatorId, ids } = served(store, 'Idle', 10)
  const tasks: (() => void)[] = []
  const backlogs: [string, number][] = []
  const registry = new IndexRegistry(store, (task) => tasks.push(task), {
    backlogMin: 3,
    onBacklog: (id, n) => backlogs.push([id, n]),
  })
  const before = registry.entry(locatorId)
  expect(before.index.size).toBe(10)
  tasks.length = 0 // the JSON fill and upkeep of that build: not needed here

  otherProcess(store, (other) => {
    for (const id of ids.slice(0, 5)) other.locations.remove(locatorId, id)
  })
  registry.sync(0) // a budget of 0: one batch at least; these few are all of it
  expect(backlogs).toEqual([[locatorId, 5]])
  expect(registry.has(locatorId)).toBe(false)
  while (tasks.length > 0) tasks.shift()!()
  expect(registry.has(locatorId)).toBe(true)
  const after = registry.entry(locatorId)
  expect(after).not.toBe(before)
  expect(after.index.size).toBe(5)
  // Counted once: the next syncs, with nothing new committed, let nothing go.
  registry.sync()
  expect(registry.entry(locatorId)).toBe(after)
  expect(backlogs).toHaveLength(1)
})

test("property: any mix of bulk and single writes by another process, any backlog bound: every answer equals a fresh build's", () => {
  let rebuilt = 0
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 8 }),
      fc.array(
        fc.array(
          fc.oneof(
            fc.record({
              op: fc.constant('add' as const),
              at: fc.integer({ min: 0, max: 40 }),
              tag: fc.constantFrom('a', 'b', 'c'),
            }),
            fc.record({ op: fc.constant('edit' as const), pick: fc.nat(), dLat: fc.integer({ min: -20, max: 20 }) }),
            fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }),
            fc.record({ op: fc.constant('unpublish' as const), pick: fc.nat() }),
          ),
          { minLength: 1, maxLength: 12 },
        ),
        { minLength: 1, maxLength: 6 },
      ),
      (backlogMin, commits) => {
        const { store } = ctx
        const { locator } = createLocator(store, 'Property')
        setLocatorSettings(store, locator.id, { queryApi: 'on' })
        const token = store.locators.get(locator.id)!.publicToken!
        const url = `http://localhost/public/v1/${token}/locations?${QUERY}`
        const registry = new IndexRegistry(store, () => {}, { backlogMin, onBacklog: () => rebuilt++ })
        const answer = (r: IndexRegistry) => {
          r.sync()
          const { body } = locationsBody(r, store.locators.get(locator.id)!, url)
          return { body: new TextDecoder().decode(body), version: r.version(locator.id) }
        }
        answer(registry)
        let n = 0
        for (const commit of commits) {
          otherProcess(store, (other) => {
            for (const step of commit) {
              const ids = other.locations.all(locator.id).map((l) => l.id)
              if (step.op === 'add') other.locations.insert(place(locator.id, `Place ${n++}`, step.at, [step.tag]))
              else if (ids.length === 0) continue
              else {
                const id = ids[step.pick % ids.length]!
                if (step.op === 'edit') edit(other, locator.id, id, `Edited ${n++}`, step.dLat / 1000)
                else if (step.op === 'delete') other.locations.remove(locator.id, id)
                else {
                  const current = other.locations.get(locator.id, id)!
                  other.locations.replace(
                    {
                      ...current,
                      status: current.status === 'published' ? 'draft' : 'published',
                      updatedAt: new Date().toISOString(),
                    },
                    current,
                  )
                }
              }
            }
          })
          expect(answer(registry)).toEqual(answer(new IndexRegistry(store, () => {})))
        }
      },
    ),
    { numRuns: 40 },
  )
  expect(rebuilt).toBeGreaterThan(0) // the runs reached the rebuild, not only change-by-change
})
