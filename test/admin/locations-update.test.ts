// POST /admin/v1/locations/{id}: only the fields sent change, maps merge, re-geocoding, its
// validation and refusals leaving the row as it was.
import { test, expect, describe } from 'bun:test'
import { createApp } from '../../src/server/app'
import type { Geocoder } from '../../src/geocode/geocoder'
import { addCustomField, removeCustomField, setLocatorSettings } from '../../src/operator'
import { storeBody } from '../helpers'
import {
  withEnv,
  env,
  BASE,
  WHITE_HOUSE,
  DOWNING,
  ISO,
  EMPTY_HOURS,
  type Res,
  update,
  get,
  created,
  form,
  snapshot,
  expectValidation,
  expectNoChange,
} from './locations-fixture'

withEnv()

describe('POST /locations/{id} (update)', () => {
  test('only the fields sent change', async () => {
    addCustomField(env.store, env.locatorId, { id: 'floor', name: 'Floor', type: 'number' })
    const before = await created(
      storeBody({
        description: 'd',
        tags: ['A'],
        contact: { phone: '1' },
        social: { twitter: 'https://twitter.com/x' },
        hours: { monday: 'closed' },
        custom_fields: { floor: '3' },
        image_url: 'https://example.com/i.png',
      }),
    )
    await Bun.sleep(2) // so updated_at can differ from created_at
    const res = await update(before.id, { name: 'Renamed' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      success: true,
      location: { ...before, name: 'Renamed', updated_at: expect.stringMatching(ISO) },
    })
    expect(res.body.location.updated_at > before.updated_at).toBe(true)
    expect(res.body.location.created_at).toBe(before.created_at)
    expect((await get(before.id)).body.location).toEqual(res.body.location)
  })

  test('contact, social, hours and custom_fields merge key by key; "" clears a key', async () => {
    addCustomField(env.store, env.locatorId, { id: 'floor', name: 'Floor', type: 'number' })
    addCustomField(env.store, env.locatorId, { id: 'note', name: 'Note', type: 'text' })
    const before = await created(
      storeBody({
        contact: { phone: '111', email: 'a@example.com' },
        social: { instagram: 'https://instagram.com/a', facebook: 'https://facebook.com/a' },
        hours: { monday: '09:00-17:00', tuesday: '09:00-17:00' },
        custom_fields: { floor: '1', note: 'old' },
      }),
    )
    const res = await update(before.id, {
      contact: { email: '', website: 'https://example.com' },
      social: { facebook: '', twitter: 'https://twitter.com/a' },
      hours: { tuesday: 'closed', sunday: '10:00-12:00' },
      custom_fields: { note: '' },
    })
    expect(res.status).toBe(200)
    const l = res.body.location
    expect(l.contact).toEqual({ phone: '111', email: '', website: 'https://example.com' })
    expect(l.social).toEqual({ instagram: 'https://instagram.com/a', facebook: '', twitter: 'https://twitter.com/a' })
    expect(l.hours).toEqual({ ...EMPTY_HOURS, monday: '09:00-17:00', tuesday: 'closed', sunday: '10:00-12:00' })
    expect(l.custom_fields).toEqual({ floor: '1' })
    expect((await get(before.id)).body.location).toEqual(l)
  })

  test('tags replace the stored list (deduplicated); [] clears it', async () => {
    const before = await created(storeBody({ tags: ['Coffee', 'Tea'] }))
    const res = await update(before.id, { tags: ['Wifi', 'wifi', 'Parking'] })
    expect(res.body.location.tags).toEqual(['Wifi', 'Parking'])
    const cleared = await update(before.id, { tags: [] })
    expect(cleared.body.location.tags).toEqual([])
  })

  test('status moves published -> draft -> published, aliases included', async () => {
    const l = await created()
    expect(l.status).toBe('published')
    expect((await update(l.id, { status: 'draft' })).body.location.status).toBe('draft')
    expect((await get(l.id)).body.location.status).toBe('draft')
    expect((await update(l.id, { status: 'published' })).body.location.status).toBe('published')
    expect((await update(l.id, { status: 'unpublished' })).body.location.status).toBe('draft')
    expect((await update(l.id, { status: 'published' })).body.location.status).toBe('published')
    expect((await update(l.id, { status: 'hidden' })).body.location.status).toBe('draft')
  })

  test('a changed address without coordinates is re-geocoded', async () => {
    const before = await created(storeBody())
    const res = await update(before.id, { address: WHITE_HOUSE })
    expect(res.status).toBe(200)
    expect(res.body.location).toEqual({
      ...before,
      address: WHITE_HOUSE,
      coordinates: { lat: 38.8977, lng: -77.0365 },
      geocoding: { precision: 'rooftop', source: 'table' },
      timezone: 'America/New_York', // the zone follows the coordinates
      updated_at: expect.stringMatching(ISO),
    })
    expect(env.geocoder.calls).toEqual([WHITE_HOUSE])
  })

  test('address with coordinates sets the coordinates as sent, without geocoding', async () => {
    const before = await created({ name: 'A', address: DOWNING })
    expect(before.geocoding).not.toBeNull()
    const res = await update(before.id, { address: WHITE_HOUSE, coordinates: { lat: 12.5, lng: 45.25 } })
    expect(res.status).toBe(200)
    expect(res.body.location).toMatchObject({
      address: WHITE_HOUSE,
      coordinates: { lat: 12.5, lng: 45.25 },
      geocoding: null,
    })
    expect(env.geocoder.calls).toEqual([DOWNING])
  })

  test('coordinates alone move the pin and keep the address', async () => {
    const before = await created({ name: 'A', address: DOWNING })
    const res = await update(before.id, { coordinates: { lat: 51.5, lng: -0.1 } })
    expect(res.body.location).toMatchObject({
      address: DOWNING,
      coordinates: { lat: 51.5, lng: -0.1 },
      geocoding: null,
    })
  })

  test('an address re-sent unchanged without coordinates is geocoded again (spec: when address is sent)', async () => {
    const before = await created({ name: 'Hand placed', address: WHITE_HOUSE, coordinates: { lat: 38.9, lng: -77.04 } })
    const res = await update(before.id, { address: WHITE_HOUSE, name: 'Hand placed' })
    expect(res.status).toBe(200)
    expect(res.body.location).toMatchObject({
      coordinates: { lat: 38.8977, lng: -77.0365 },
      geocoding: { precision: 'rooftop', source: 'table' },
    })
    expect(env.geocoder.calls).toEqual([WHITE_HOUSE])
    expect((await get(before.id)).body.location).toEqual(res.body.location)
  })

  test('a whole record sent back as GET returns it keeps hand-placed coordinates', async () => {
    const before = await created({ name: 'Hand placed', address: WHITE_HOUSE, coordinates: { lat: 38.9, lng: -77.04 } })
    const res = await update(before.id, { ...before, name: 'Renamed' })
    expect(res.status).toBe(200)
    expect(res.body.location).toMatchObject({
      name: 'Renamed',
      coordinates: { lat: 38.9, lng: -77.04 },
      geocoding: { precision: 'postcode', source: 'reverse' }, // the postcode its address writes
    })
    expect(env.geocoder.calls).toEqual([])
  })

  test("a geocoded point sent back with another address: the coordinates sent set the point (spec), nothing is geocoded, and the point stays the geocoder's", async () => {
    const before = await created({ name: 'A', address: DOWNING })
    const { id: _, created_at, updated_at, ...record } = before
    for (const address of [WHITE_HOUSE, '1 Nowhere Lane, Atlantis']) {
      const res = await update(before.id, { ...record, address })
      expect(res.status).toBe(200)
      expect(res.body.location).toEqual({ ...before, address, updated_at: expect.stringMatching(ISO) })
      expect((await get(before.id)).body.location).toEqual(res.body.location)
    }
    expect(env.geocoder.calls).toEqual([DOWNING])
  })

  test("a record sent back whole after its pin was moved keeps its address's public parts", async () => {
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    const token = env.store.locators.get(env.locatorId)!.publicToken
    const before = await created({ name: 'A', address: DOWNING })
    const publicAddress = async () =>
      (await env.call('GET', `/public/v1/${token}/locations/${before.id}`, { key: null })).body.data.location.address
    const parts = { formatted: DOWNING, city: 'London', postcode: 'SW1A 2AA', country: 'GB' }
    expect(await publicAddress()).toEqual(parts)
    const moved = (await update(before.id, { coordinates: { lat: 51.5035, lng: -0.1277 } })).body.location
    expect(await publicAddress()).toEqual(parts)
    const { id: _, created_at, updated_at, ...record } = moved
    expect((await update(before.id, record)).status).toBe(200)
    expect(await publicAddress()).toEqual(parts)
    // Another address (with the pin): the old address's parts go; the pin's town comes in.
    expect((await update(before.id, { ...record, address: 'Downing Street, London' })).status).toBe(200)
    expect(await publicAddress()).toEqual({ formatted: 'Downing Street, London', city: 'London', country: 'GB' })
    expect((await get(before.id)).body.location.geocoding).toEqual({ precision: 'city', source: 'reverse' })
  })

  test('geocoding failure on update gives 422 geocoding_failed and leaves the row unchanged', async () => {
    const before = await created()
    const res = await expectNoChange(() => update(before.id, { address: '1 Nowhere Lane, Atlantis', name: 'Moved' }))
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ success: false, error: 'geocoding_failed', message: expect.any(String) })
    expect((await get(before.id)).body.location).toEqual(before)
  })

  test('a body with no valid fields gives 400 invalid_request', async () => {
    const before = await created()
    const bodies: (() => Promise<Res>)[] = [
      () => update(before.id, {}),
      () => update(before.id, { foo: 'bar', id: 'loc_x', created_at: '2000-01-01T00:00:00Z' }),
      () => form(`${BASE}/${before.id}`, ''),
      () => form(`${BASE}/${before.id}`, 'foo=bar'),
      () => env.call('POST', `${BASE}/${before.id}`),
    ]
    for (const run of bodies) {
      const res = await expectNoChange(run)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ success: false, error: 'invalid_request', message: expect.any(String) })
    }
    expect((await get(before.id)).body.location).toEqual(before)
  })

  test('a custom field removed, or removed and added again with another type, while a create or update waits for the geocoder: its value is checked against the definition as it is at the write (422, nothing written)', async () => {
    addCustomField(env.store, env.locatorId, { id: 'size', name: 'Size', type: 'text' })
    addCustomField(env.store, env.locatorId, { id: 'aisle', name: 'Aisle', type: 'text' })
    const l = await created()
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let asked = 0
    const waiting: Geocoder = {
      name: 'table',
      geocode: async (address) => (asked++, await gate, env.geocoder.geocode(address)),
    }
    const app = createApp({
      store: env.store,
      geocoder: waiting,
      config: { maxBodyBytes: 262144, logRequests: false },
      log: () => {},
    })
    const send = (path: string, body: unknown) =>
      app.handle(
        new Request(`http://localhost${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      )
    const pending = [
      send(`${BASE}/${l.id}`, { address: WHITE_HOUSE, custom_fields: { size: 'large' } }),
      send(BASE, { name: 'New', address: WHITE_HOUSE, custom_fields: { size: 'large' } }),
      send(BASE, { name: 'New', address: WHITE_HOUSE, custom_fields: { aisle: '4' } }),
    ]
    while (asked < pending.length) await Bun.sleep(1)
    removeCustomField(env.store, env.locatorId, 'size')
    addCustomField(env.store, env.locatorId, { id: 'size', name: 'Size', type: 'number' })
    removeCustomField(env.store, env.locatorId, 'aisle')
    const before = snapshot()
    release()
    const [moved, createdLarge, createdAisle] = (await Promise.all(
      pending.map(async (p) => ({ status: (await p).status, body: await (await p).json() })),
    )) as [Res, Res, Res]
    expect(moved.body.details).toEqual({
      'custom_fields.size': ['The custom_fields.size field must be a number, written as a string ("12" or "-2.5").'],
    })
    expect(createdLarge.body.details).toEqual({
      'custom_fields.size': ['The custom_fields.size field must be a number, written as a string ("12" or "-2.5").'],
    })
    expect(createdAisle.body.details).toEqual({
      'custom_fields.aisle': [
        'The custom_fields.aisle field is not a custom field of this locator (GET /custom_fields lists them: size).',
      ],
    })
    for (const res of [moved, createdLarge, createdAisle]) expectValidation(res, Object.keys(res.body.details))
    expect(snapshot()).toEqual(before)
  })

  test('a form body updates the fields it carries', async () => {
    const before = await created()
    const res = await form(`${BASE}/${before.id}`, 'name=Via+Form&coordinates%5Blat%5D=1&coordinates%5Blng%5D=2')
    expect(res.status).toBe(200)
    expect(res.body.location).toEqual({
      ...before,
      name: 'Via Form',
      coordinates: { lat: 1, lng: 2 },
      timezone: 'Etc/GMT', // at sea, in the Gulf of Guinea
      geocoding: null, // no town near
      updated_at: expect.stringMatching(ISO),
    })
  })

  test('an invalid field gives 422 and changes nothing, valid fields sent with it included', async () => {
    const before = await created()
    for (const body of [
      { name: 'Ok', image_url: 'example.com/a.png' },
      { name: '' },
      { tags: null },
      { contact: { website: 'example.com' } },
      { coordinates: { lat: 100, lng: 0 } },
      { status: 'archived' },
      { custom_fields: { unknown: 'x' } },
    ]) {
      const res = await expectNoChange(() => update(before.id, body))
      expect(res.status).toBe(422)
      expect(res.body.error).toBe('validation_error')
    }
    expect((await get(before.id)).body.location).toEqual(before)
  })

  test('null fields on update are validation errors, not clears', async () => {
    const before = await created(storeBody({ tags: ['A'] }))
    const res = await expectNoChange(() => update(before.id, { tags: null, hours: null }))
    expectValidation(res, ['tags', 'hours'])
  })

  test('an unknown id gives 404 not_found', async () => {
    const res = await expectNoChange(() => update('loc_doesnotexist0000', { name: 'x' }))
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ success: false, error: 'not_found', message: expect.stringMatching(/not found/i) })
  })

  test('a missing id gives 400 invalid_request', async () => {
    await created()
    const res = await expectNoChange(() => update('%20', { name: 'x' }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, error: 'invalid_request', message: expect.any(String) })
  })

  test("the path /locations/ (an empty id) gives 400 invalid_request on update (the create route's path) and get (the list's), and creates nothing", async () => {
    await created()
    for (const run of [
      () => env.call('POST', `${BASE}/`, { body: storeBody() }),
      () => env.call('POST', `${BASE}/`, { body: { name: 'Renamed' } }),
      () => env.call('GET', `${BASE}/`),
      () => env.call('GET', `${BASE}/?page=1`),
    ]) {
      const res = await expectNoChange(run)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        success: false,
        error: 'invalid_request',
        message: expect.stringMatching(/ID is missing/),
      })
    }
  })

  test('client-sent id and timestamps are ignored on update', async () => {
    const before = await created()
    const res = await update(before.id, {
      name: 'New',
      id: 'loc_other0000000000',
      created_at: '2000-01-01T00:00:00.000Z',
    })
    expect(res.status).toBe(200)
    expect(res.body.location.id).toBe(before.id)
    expect(res.body.location.created_at).toBe(before.created_at)
    expect((await get('loc_other0000000000')).status).toBe(404)
  })
})

describe('the same point (samePoint) is no change', () => {
  test("a geocoder's answer within 1e-9 degrees of the stored point leaves the location as it was", async () => {
    let lat = 40.1
    const drifting: Geocoder = {
      name: 'table',
      geocode: async () => ({ lat, lng: -3.2, precision: 'rooftop', source: 'table', parts: {} }),
    }
    const app = createApp({
      store: env.store,
      geocoder: drifting,
      config: { maxBodyBytes: 262144, logRequests: false },
      log: () => {},
    })
    const send = async (path: string, body: unknown) => {
      const res = await app.handle(
        new Request(`http://localhost${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      )
      return (await res.json()) as { location: { id: string; coordinates: unknown; updated_at: string } }
    }
    const { location } = await send(BASE, { name: 'A', address: '1 Calle Mayor, Madrid' })
    const before = snapshot()
    // Sent again without coordinates, the address is geocoded again: 5e-10 degrees off, 0.05 mm.
    lat = 40.1 + 5e-10
    const again = await send(`${BASE}/${location.id}`, { address: '1 Calle Mayor, Madrid' })
    expect(again.location).toEqual(location)
    expect(snapshot().changes).toEqual(before.changes)
    // 1e-7 (1 cm) off is a point moved.
    lat = 40.1 + 1e-7
    const moved = await send(`${BASE}/${location.id}`, { address: '1 Calle Mayor, Madrid' })
    expect(moved.location.coordinates).toEqual({ lat: 40.1 + 1e-7, lng: -3.2 })
    expect(snapshot().changes).toHaveLength(before.changes.length + 1)
  })

  test('longitude -180 and 180 are one point: a store on the antimeridian sent the other is unchanged', async () => {
    const l = await created(storeBody({ address: 'Taveuni, Fiji', coordinates: { lat: -16.8, lng: 180 } }))
    const before = snapshot()
    const res = await update(l.id, { coordinates: { lat: -16.8, lng: -180 } })
    expect(res.status).toBe(200)
    expect(res.body.location).toEqual(l)
    expect(snapshot()).toEqual(before)
    // Within 1e-9 degrees across it too; 1e-7 across it is a point moved.
    expect((await update(l.id, { coordinates: { lat: -16.8, lng: -179.9999999995 } })).body.location).toEqual(l)
    const moved = await update(l.id, { coordinates: { lat: -16.8, lng: -179.9999999 } })
    expect(moved.body.location.coordinates).toEqual({ lat: -16.8, lng: -179.9999999 })
  })
})
