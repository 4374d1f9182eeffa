// The demo loader: a small fixture loaded through the store, checked against the Management API
// (the same body posted there must give the same location), and all-or-nothing on a bad entry.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { toAdminLocation } from '../src/locations/service'
import { loadDemo } from '../src/operator/demo'
import { placeUnplaced } from '../src/locations/town'
import { placeSearchAt } from '../src/geocode/embedded/place-source'
import { DEFAULT_GEODATA_PATH } from '../src/geocode/embedded/build'
import { LOCATION_ID } from '../src/core/ids'
import { addCustomField, OperatorError } from '../src/operator'
import { makeEnv, type TestEnv } from './helpers'

const FIXTURE = join(import.meta.dir, 'fixtures', 'demo-small.json')
const fixture = () => JSON.parse(readFileSync(FIXTURE, 'utf8'))

let env: TestEnv

beforeEach(() => {
  env = makeEnv()
})
afterEach(() => env.close())

const TABLES = [
  'locators',
  'api_keys',
  'locations',
  'custom_fields',
  'filter_groups',
  'filter_tags',
  'priority_rules',
  'changes',
]
const counts = () =>
  Object.fromEntries(
    TABLES.map((t) => [t, (env.store.db.query(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]),
  )

/** Writes a variant of the fixture and returns its path. */
function variant(change: (demo: any) => void): string {
  const demo = fixture()
  change(demo)
  const path = join(env.dir, 'demo.json')
  writeFileSync(path, JSON.stringify(demo))
  return path
}

describe('loadDemo', () => {
  test('creates a new locator with the Query API on and the file radius and unit, and no key no one was shown', () => {
    const { locator, locations } = loadDemo(env.store, FIXTURE)
    expect(locations).toBe(5)
    expect(locator.id).not.toBe(env.locatorId)
    expect(locator).toMatchObject({
      name: 'Demo Coffee',
      queryApiEnabled: true,
      defaultRadius: 10,
      defaultUnit: 'km',
      active: true,
      referrers: [],
      rateLimit: 1000,
    })
    expect(env.store.locators.get(locator.id)).toEqual(locator)
    expect(env.store.locators.byToken(locator.publicToken)?.id).toBe(locator.id)
    expect(env.store.keys.listForLocator(locator.id)).toEqual([])
  })

  test('writes the custom fields, filters and priority rules of the file', () => {
    const { locator } = loadDemo(env.store, FIXTURE)
    const demo = fixture()
    expect(
      env.store.customFields.list(locator.id).map(({ id, name, type, label }) => ({ id, name, type, label })),
    ).toEqual([
      { id: 'parking', name: 'Parking', type: 'text', label: null },
      { id: 'order', name: 'Order online', type: 'button', label: 'Order now' },
    ])
    const filters = env.store.filters.list(locator.id)
    expect(filters.map((g) => g.id)).toEqual(['services', 'type'])
    expect(filters[0]).toEqual({ ...demo.filters[0], singleSelect: false, hidden: false, hideInLocationDetails: false })
    expect(filters[1]).toEqual({ ...demo.filters[1], inline: false, hidden: false, hideInLocationDetails: false })
    expect(env.store.priority.list(locator.id)).toEqual([{ tag: 'flagship' }])
  })

  test('every location is stored exactly as POST /admin/v1/locations would store it, once the reverse upkeep has placed it', async () => {
    const { locator } = loadDemo(env.store, FIXTURE)
    addCustomField(env.store, env.locatorId, { id: 'parking', name: 'Parking', type: 'text' })
    addCustomField(env.store, env.locatorId, { id: 'order', name: 'Order online', type: 'button', label: 'Order now' })
    expect(env.store.locations.all(locator.id).map((r) => r.townNames)).toEqual([null, null, null, null, null])
    const towns = placeSearchAt(DEFAULT_GEODATA_PATH).reverse()
    expect(await placeUnplaced(env.store, towns)).toBe(5)
    expect(await placeUnplaced(env.store, towns)).toBe(0)
    const loaded = env.store.locations.all(locator.id)
    const bodies = fixture().locations
    expect(loaded).toHaveLength(bodies.length)
    const strip = ({ id, created_at, updated_at, ...rest }: Record<string, unknown>) => rest
    for (const [i, body] of bodies.entries()) {
      const res = await env.call('POST', '/admin/v1/locations', { body })
      expect(res.status).toBe(201)
      const record = loaded[i]!
      expect(record.id).toMatch(LOCATION_ID)
      expect(record.locatorId).toBe(locator.id)
      expect(strip(toAdminLocation(record))).toEqual(strip(res.body.location))
      const written = env.store.locations.get(env.locatorId, res.body.location.id)!
      expect([record.addressParts, record.townNames]).toEqual([written.addressParts, written.townNames])
    }
    expect(env.store.locations.count(locator.id, 'published')).toBe(4)
    expect(env.store.locations.count(locator.id, 'draft')).toBe(1)
    expect(loaded[0]!.customFields).toEqual({ parking: 'Garage nearby', order: 'https://example.com/order/duomo' })
    expect(loaded[0]!.geocoding).toEqual({ precision: 'postcode', source: 'reverse' })
    // As its address writes them: "Piazza del Duomo, 20122 Milano".
    expect(loaded[0]!.addressParts).toEqual({ city: 'Milano', postcode: '20122', country: 'IT' })
    expect(loaded[0]!.townNames).toContain('milano')
    expect(env.geocoder.calls).toEqual([])
  })

  test('the shipped demo loads, and shows no image from another host (its made-up one would show broken)', () => {
    const path = join(import.meta.dir, '..', 'data', 'demo', 'demo.json')
    const { locator, locations } = loadDemo(env.store, path)
    expect(locations).toBeGreaterThan(500)
    const listed = env.store.locations.page(locator.id, null, 1000, 0)
    expect(listed.filter((l) => l.imageUrl !== '').map((l) => l.name)).toEqual([])
    const images = env.store.filters.list(locator.id).flatMap((g) => g.tags.filter((t) => t.image !== undefined))
    expect(images).toEqual([])
  })

  test('each load creates another locator', () => {
    const a = loadDemo(env.store, FIXTURE).locator
    const b = loadDemo(env.store, FIXTURE).locator
    expect(a.id).not.toBe(b.id)
    expect(env.store.locations.count(a.id, null)).toBe(5)
    expect(env.store.locations.count(b.id, null)).toBe(5)
  })
})

describe('loadDemo refuses and writes nothing', () => {
  const refusals: [string, (demo: any) => void, string[]][] = [
    [
      'a location out of range',
      (d) => (d.locations[3].coordinates.lat = 200),
      ['locations[3] ("Demo Coffee Brera") is invalid', 'coordinates.lat', 'between -90 and 90'],
    ],
    [
      'a location without coordinates',
      (d) => delete d.locations[4].coordinates,
      ['locations[4] ("Demo Coffee Centrale") coordinates', 'does not geocode'],
    ],
    [
      'a location without a name',
      (d) => delete d.locations[2].name,
      ['locations[2] is invalid', 'name: The name field is required.'],
    ],
    [
      'a location with an undefined custom field',
      (d) => (d.locations[1].custom_fields = { wifi: 'yes' }),
      ['locations[1]', 'custom_fields.wifi'],
    ],
    [
      'a location with a bad button URL',
      (d) => (d.locations[0].custom_fields.order = 'order.example.com'),
      ['locations[0]', 'custom_fields.order', 'URL including the protocol'],
    ],
    ['a location that is not an object', (d) => (d.locations[2] = 'Demo Coffee'), ['locations[2] must be an object']],
    ['bad filters', (d) => (d.filters[1].tags[0].color = 'gold'), ['filters[1].tags[0].color must be a hex colour']],
    [
      'a priority rule on an undefined custom field',
      (d) => (d.priority = [{ custom_field: 'tier', value: 'gold' }]),
      ['priority[0].custom_field "tier"'],
    ],
    ['a bad custom field', (d) => (d.custom_fields[1].type = 'link'), ['custom_fields[1]: --type must be one of']],
    ['a bad radius', (d) => (d.locator.radius = 5000), ['locator: --radius must be']],
    ['a bad unit', (d) => (d.locator.unit = 'leagues'), ['locator: --unit must be miles or km']],
    [
      'an empty locator name',
      (d) => (d.locator.name = ' '),
      ['locator: The locator name must be 1 to 200 characters.'],
    ],
    ['no locations array', (d) => delete d.locations, ['is not a demo file', 'locations']],
    ['an unknown locator setting', (d) => (d.locator.colour = 'red'), ['is not a demo file', 'locator.colour']],
  ]

  for (const [what, change, messages] of refusals) {
    test(what, () => {
      const before = counts()
      const path = variant(change)
      let error: unknown
      try {
        loadDemo(env.store, path)
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(OperatorError)
      for (const m of messages) expect((error as Error).message).toContain(m)
      expect(counts()).toEqual(before)
    })
  }

  test('a missing file or one that is not JSON', () => {
    const before = counts()
    expect(() => loadDemo(env.store, join(env.dir, 'nope.json'))).toThrow(`No file ${join(env.dir, 'nope.json')}.`)
    const broken = join(env.dir, 'broken.json')
    writeFileSync(broken, '{"locator": ')
    expect(() => loadDemo(env.store, broken)).toThrow(/is not valid JSON/)
    expect(counts()).toEqual(before)
  })

  test('the fixture loads once the broken location is fixed (the refusal was about that location alone)', () => {
    const before = counts()
    expect(() =>
      loadDemo(
        env.store,
        variant((d) => (d.locations[3].coordinates.lat = 200)),
      ),
    ).toThrow(OperatorError)
    expect(counts()).toEqual(before)
    expect(
      loadDemo(
        env.store,
        variant(() => {}),
      ).locations,
    ).toBe(5)
    expect(counts().locations).toBe(before.locations! + 5)
  })
})
