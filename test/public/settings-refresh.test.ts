// New priority rules, filters or custom fields reach a loaded index without rebuilding it
// (registry.ts, refresh): ranks are taken again, JSON is made again. The answers after each change
// are those of an index built from scratch on the changed database. New tag labels, which are
// searched, build it again (search-labels.test.ts).
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { addCustomField, removeCustomField, setFilters, setPriorityRules } from '../../src/operator'
import { locationsBody } from '../../src/api/public/answer'
import { IndexRegistry } from '../../src/indexes/registry'
import { FILTERS, makeFixture, type Fixture } from './fixture'

let f: Fixture
beforeEach(async () => (f = await makeFixture()))
afterEach(() => f.env.close())

const QUERIES = [
  'lat=48.8566&lng=2.3522&radius=1000&unit=km&limit=50',
  'lat=48.8566&lng=2.3522&radius=1000&unit=km&sort=priority&limit=50',
  'all=true&sort=priority&limit=50',
  'all=true&limit=50',
  'all=true&tags[]=repair&tags[]=Trek&tagLogic=match&limit=50',
  'all=true&tags[]=repair&tags[]=rental&tagLogic=match&limit=50',
  'lat=48.8566&lng=2.3522&radius=1000&unit=km&tags[]=vintage&tags[]=Giant&tagLogic=match&sort=priority',
  'all=true&search=bike&limit=50',
]

const text = new TextDecoder()
/** Every query's answer, and GET /filters' groups, from a registry. */
function answers(registry: IndexRegistry): string[] {
  const locator = f.env.store.locators.get(f.env.locatorId)!
  const out = QUERIES.map((qs) => {
    registry.sync()
    return text.decode(locationsBody(registry, locator, new URL(f.url('/locations', qs)).href).body)
  })
  out.push(JSON.stringify(registry.filters(locator.id)))
  return out
}

describe('settings reach a loaded index without a rebuild', () => {
  let registry: IndexRegistry
  let before: string[]
  beforeEach(() => {
    registry = new IndexRegistry(f.env.store)
    before = answers(registry)
  })
  /** The registry's answers equal a new registry's; the index is the one built before. Returns the answers. */
  function expectFresh(): string[] {
    const index = registry.entry(f.env.locatorId).index
    const now = answers(registry)
    expect(now).toEqual(answers(new IndexRegistry(f.env.store)))
    expect(registry.entry(f.env.locatorId).index).toBe(index)
    return now
  }

  test('new priority rules: the priority order changes, nothing else; later writes are ranked by them', async () => {
    setPriorityRules(f.env.store, f.env.locatorId, [
      { tag: 'vintage' },
      { custom_field: 'partner', value: 'silver' },
      { ids: [f.ids.lyon!] },
    ])
    const now = expectFresh()
    expect(now[1]).not.toBe(before[1])
    expect(now[2]).not.toBe(before[2])
    expect(now[0]).toBe(before[0])
    // Ranked last by the old rules, first by the new ones.
    const res = await f.env.call('POST', `/admin/v1/locations/${f.ids.hotel}`, {
      body: { tags: ['rental', 'vintage'] },
    })
    expect(res.status).toBe(200)
    const after = expectFresh()
    const rankOfHotel = (answer: string) =>
      JSON.parse(answer).data.locations.findIndex((l: { id: string }) => l.id === f.ids.hotel)
    expect(rankOfHotel(after[2]!)).toBeLessThan(rankOfHotel(now[2]!))
  })

  test('new filters: tag groups (match) and the JSON change', () => {
    // "repair" moves into the brands' group, renamed Makes: repair and Trek are then one group
    // to match (either), where they were two (both).
    setFilters(f.env.store, f.env.locatorId, [
      { ...FILTERS[0]!, tags: FILTERS[0]!.tags.filter((t) => t.value !== 'repair') },
      { ...FILTERS[1]!, name: 'Makes', tags: [...FILTERS[1]!.tags, { value: 'repair', label: 'Repair' }] },
    ])
    const now = expectFresh()
    expect(now[0]).not.toBe(before[0]) // the JSON shows the new group and label
    expect(now[0]).toContain('"Makes"')
    expect(now[4]).not.toBe(before[4]) // repair AND Trek became repair OR Trek
    expect(now.at(-1)).not.toBe(before.at(-1))
  })

  test('custom fields added and removed: the JSON changes', () => {
    addCustomField(f.env.store, f.env.locatorId, { id: 'bays', name: 'Bike bays', type: 'number' })
    expectFresh()
    removeCustomField(f.env.store, f.env.locatorId, 'note')
    const now = expectFresh()
    expect(now[0]).not.toBe(before[0])
  })

  test('several changes between two queries, with a location write among them', async () => {
    setPriorityRules(f.env.store, f.env.locatorId, [{ custom_field: 'partner', value: 'gold' }])
    const res = await f.env.call('POST', `/admin/v1/locations/${f.ids.lyon}`, {
      body: { custom_fields: { partner: 'gold' } },
    })
    expect(res.status).toBe(200)
    setFilters(f.env.store, f.env.locatorId, [{ ...FILTERS[0]!, name: 'What we do' }, FILTERS[1]!])
    const now = expectFresh()
    expect(now[2]).not.toBe(before[2])
    expect(
      JSON.parse(now[2]!)
        .data.locations.slice(0, 3)
        .map((l: { id: string }) => l.id),
    ).toContain(f.ids.lyon)
  })
})
