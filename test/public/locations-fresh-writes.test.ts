// Writes made through the Management API, the operator functions and another connection show
// up in the very next query: drafts, deletes, new and moved locations, custom fields.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { createApp } from '../../src/server/app'
import { addCustomField } from '../../src/operator'
import { openStore } from '../../src/store'
import { CENTER, expectError, haversineKm, idsOf, makeFixture, oracle, type Fixture } from './fixture'
import { NEAR } from './locations-helpers'

describe('writes are visible to the very next query', () => {
  let f: Fixture
  beforeEach(async () => {
    f = await makeFixture()
  })
  afterEach(() => f.env.close())

  const radiusIds = async () => idsOf(await f.get(f.url('/locations', `${NEAR}&limit=100`)))
  const allIds = async () => idsOf(await f.get(f.url('/locations', 'all=true&limit=500')))

  test('a location set to draft disappears at once, and returns when published again', async () => {
    expect(await radiusIds()).toContain(f.ids.velo!)
    const res = await f.env.call('POST', `/admin/v1/locations/${f.ids.velo}`, { body: { status: 'draft' } })
    expect(res.status).toBe(200)
    expect(await radiusIds()).not.toContain(f.ids.velo!)
    expect(await allIds()).not.toContain(f.ids.velo!)
    expectError(await f.get(`/locations/${f.ids.velo}`), 404, 'LOCATION_NOT_FOUND')
    expect((await f.get(f.url('/locations', 'all=true&search=velo'))).body.data.pagination.total).toBe(2)

    await f.env.call('POST', `/admin/v1/locations/${f.ids.velo}`, { body: { status: 'published' } })
    expect(await radiusIds()).toContain(f.ids.velo!)
    expect((await f.get(`/locations/${f.ids.velo}`)).status).toBe(200)
  })

  test('a published draft appears at once', async () => {
    await f.env.call('POST', `/admin/v1/locations/${f.ids.hidden}`, { body: { status: 'published' } })
    const ids = await radiusIds()
    expect(ids[0]).toBe(f.ids.hotel!)
    expect(ids[1]).toBe(f.ids.hidden!)
  })

  test('a deleted location disappears at once', async () => {
    const res = await f.env.call('POST', `/admin/v1/locations/${f.ids.bastille}/delete`)
    expect(res.status).toBe(200)
    expect(await radiusIds()).not.toContain(f.ids.bastille!)
    expect(await allIds()).not.toContain(f.ids.bastille!)
    expectError(await f.get(`/locations/${f.ids.bastille}`), 404, 'LOCATION_NOT_FOUND')
    expect((await f.get(f.url('/locations', 'all=true'))).body.data.pagination.total).toBe(26)
  })

  test('a new location appears at once, in distance order', async () => {
    const res = await f.env.call('POST', '/admin/v1/locations', {
      body: { name: 'Pont Neuf Pedals', address: 'Pont Neuf, Paris', coordinates: { lat: 48.8567, lng: 2.3523 } },
    })
    expect(res.status).toBe(201)
    expect((await radiusIds())[0]).toBe(res.body.location.id)
    expect((await f.get(`/locations/${res.body.location.id}`)).body.data.location.name).toBe('Pont Neuf Pedals')
  })

  test('search folds every script alike: a Greek final sigma is a sigma, Indic and Arabic marks stay inside their word', async () => {
    const add = async (name: string) =>
      (
        await f.env.call('POST', '/admin/v1/locations', {
          body: { name, address: 'Pont Neuf, Paris', coordinates: { lat: 48.8567, lng: 2.3523 } },
        })
      ).body.location.id as string
    const greek = await add('Οδοστρωτήρας Ποδηλάτων')
    const hindi = await add('स्तेनम साइकिल')
    const arabic = await add('دراجات مُحَمَّد')
    const found = async (search: string) =>
      (await f.get(f.url('/locations', `all=true&search=${encodeURIComponent(search)}`))).body.data.locations.map(
        (l: { id: string }) => l.id,
      )
    expect(await found('ΟΔΟΣ')).toEqual([greek]) // "οδος" lowercased, its last letter a final sigma
    expect(await found('οδοστρωτηρας')).toEqual([greek])
    expect(await found('स्तेनम')).toEqual([hindi])
    expect(await found('नम')).toEqual([]) // not the end of "स्तेनम", cut at its vowel sign
    expect(await found('محمد')).toEqual([arabic]) // written without its vowel points
  })

  test('moved coordinates and a new name are used by the very next query', async () => {
    // Out of the 25-mile circle...
    let res = await f.env.call('POST', `/admin/v1/locations/${f.ids.velo}`, {
      body: { coordinates: { lat: 49.5, lng: 3.5 }, name: 'Zzyzx Cycles' },
    })
    expect(res.status).toBe(200)
    expect(await radiusIds()).not.toContain(f.ids.velo!)
    const all = await allIds()
    expect(all[all.length - 1]).toBe(f.ids.velo!) // "Zzyzx" now sorts last
    const one = (await f.get(`/locations/${f.ids.velo}`)).body.data.location
    expect(one.name).toBe('Zzyzx Cycles')
    expect(one.coordinates).toEqual({ lat: 49.5, lng: 3.5 })
    expect(
      (await f.get(f.url('/locations', 'all=true&search=zzyzx'))).body.data.locations.map((l: { id: string }) => l.id),
    ).toEqual([f.ids.velo!])
    expect((await f.get(f.url('/locations', 'all=true&search=cafe'))).body.data.locations).toEqual([])

    // ...and back in, at a new distance.
    const to = { lat: 48.88, lng: 2.3522 }
    res = await f.env.call('POST', `/admin/v1/locations/${f.ids.velo}`, { body: { coordinates: to } })
    expect(res.status).toBe(200)
    const near = await f.get(f.url('/locations', `${NEAR}&unit=km&limit=100`))
    const moved = near.body.data.locations.find((l: { id: string }) => l.id === f.ids.velo)
    expect(Math.abs(moved.distance.value - haversineKm(CENTER, to))).toBeLessThanOrEqual(0.01)
    const locs = f.locs.map((l) => (l.id === f.ids.velo ? { ...l, ...to } : l))
    expect(idsOf(near)).toEqual(oracle(locs, { center: CENTER, radiusKm: 25 }).map((h) => h.loc.id)) // 25 in the requested unit
  })

  test('a write through another connection to the same database (the CLI, another server process) is visible at once', async () => {
    expect(await radiusIds()).toContain(f.ids.velo!)
    const store2 = openStore(join(f.env.dir, 'test.db'))
    try {
      const app2 = createApp({
        store: store2,
        geocoder: f.env.geocoder,
        config: { maxBodyBytes: 262144, logRequests: false },
        log: () => {},
      })
      const res = await app2.handle(
        new Request(`http://localhost/admin/v1/locations/${f.ids.velo}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${f.env.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'draft' }),
        }),
      )
      expect(res.status).toBe(200)
      expect(await radiusIds()).not.toContain(f.ids.velo!)
      expectError(await f.get(`/locations/${f.ids.velo}`), 404, 'LOCATION_NOT_FOUND')
    } finally {
      store2.close()
    }
  })

  test('a new custom field and its value show up at once', async () => {
    addCustomField(f.env.store, f.env.locatorId, { id: 'bays', name: 'Bike bays', type: 'number' })
    const res = await f.env.call('POST', `/admin/v1/locations/${f.ids.velo}`, {
      body: { custom_fields: { bays: '12' } },
    })
    expect(res.status).toBe(200)
    const velo = (await f.get(`/locations/${f.ids.velo}`)).body.data.location
    expect(velo.customFields.map((c: { key: string }) => c.key)).toEqual(['note', 'booking', 'partner', 'bays'])
    expect(velo.customFields[3]).toEqual({
      token: expect.any(String),
      key: 'bays',
      name: 'Bike bays',
      type: 'number',
      value: '12',
    })
  })

  test('a custom field whose id names a member every object inherits (constructor) shows only where a location has a value', async () => {
    addCustomField(f.env.store, f.env.locatorId, { id: 'constructor', name: 'Builder', type: 'text' })
    const keys = async () =>
      ((await f.get(`/locations/${f.ids.velo}`)).body.data.location.customFields as { key: string }[]).map((c) => c.key)
    expect(await keys()).not.toContain('constructor')
    expect(
      (
        await f.env.call('POST', `/admin/v1/locations/${f.ids.velo}`, {
          body: { custom_fields: { constructor: 'Ada & Co' } },
        })
      ).status,
    ).toBe(200)
    const velo = (await f.get(`/locations/${f.ids.velo}`)).body.data.location
    expect(velo.customFields.find((c: { key: string }) => c.key === 'constructor')).toEqual({
      token: expect.any(String),
      key: 'constructor',
      name: 'Builder',
      type: 'text',
      value: 'Ada & Co',
    })
  })
})
