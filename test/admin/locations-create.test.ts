// POST /admin/v1/locations: a new location with its defaults, or stored as sent, and its
// geocoding: an address without coordinates geocoded, its failure, the cache, geocoding off.
import { test, expect, describe } from 'bun:test'
import { createApp } from '../../src/server/app'
import { noGeocoder } from '../../src/geocode/geocoder'
import { addCustomField, setFilters, setLocatorSettings } from '../../src/operator'
import { KNOWN_ADDRESSES, storeBody } from '../helpers'
import {
  withEnv,
  env,
  BASE,
  WHITE_HOUSE,
  DOWNING,
  ID,
  ISO,
  create,
  get,
  created,
  EMPTY_CONTACT,
  EMPTY_SOCIAL,
  EMPTY_HOURS,
  expectValidation,
  expectNoChange,
} from './locations-fixture'

withEnv()

describe('POST /locations (create)', () => {
  test('a minimal body gives 201 with every field present and the defaults', async () => {
    const res = await create(storeBody())
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      success: true,
      location: {
        id: expect.stringMatching(ID),
        external_id: null,
        name: 'Corner Store',
        address: '1 Main Street, Springfield',
        coordinates: { lat: 39.78, lng: -89.65 },
        description: '',
        tags: [],
        contact: EMPTY_CONTACT,
        social: EMPTY_SOCIAL,
        hours: EMPTY_HOURS,
        special_hours: {},
        timezone: 'America/Chicago', // from the coordinates, Springfield, Illinois
        hours_unread: [],
        custom_fields: {},
        image_url: '',
        status: 'published',
        // The coordinates were sent: the address parts are their town's (Springfield has many postcodes).
        geocoding: { precision: 'city', source: 'reverse' },
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    })
  })

  test('a full body is stored and returned as sent', async () => {
    addCustomField(env.store, env.locatorId, { id: 'floor', name: 'Floor', type: 'number' })
    const res = await create({
      external_id: 'LDN-001',
      name: 'Flagship',
      address: 'Kings Road 1, London',
      coordinates: { lat: 51.4875, lng: -0.1687 },
      description: 'Our first shop.',
      tags: ['Coffee', 'Wifi'],
      contact: { phone: '+44 20 7946 0000', email: 'shop@example.com', website: 'https://example.com' },
      social: { instagram: 'https://instagram.com/shop' },
      hours: { monday: '09:00-17:00', sunday: 'closed' },
      custom_fields: { floor: '2' },
      image_url: 'https://example.com/shop.jpg',
      status: 'draft',
    })
    expect(res.status).toBe(201)
    const location = res.body.location
    expect(location).toEqual({
      id: expect.stringMatching(ID),
      external_id: 'LDN-001',
      name: 'Flagship',
      address: 'Kings Road 1, London',
      coordinates: { lat: 51.4875, lng: -0.1687 },
      description: 'Our first shop.',
      tags: ['Coffee', 'Wifi'],
      contact: { phone: '+44 20 7946 0000', email: 'shop@example.com', website: 'https://example.com' },
      social: { instagram: 'https://instagram.com/shop', facebook: '', twitter: '' },
      hours: { ...EMPTY_HOURS, monday: '09:00-17:00', sunday: 'closed' },
      special_hours: {},
      timezone: 'Europe/London',
      hours_unread: [],
      custom_fields: { floor: '2' },
      image_url: 'https://example.com/shop.jpg',
      status: 'draft',
      geocoding: { precision: 'city', source: 'reverse' }, // the data has no British postcodes
      created_at: expect.stringMatching(ISO),
      updated_at: location.created_at,
    })
    const read = await get(location.id)
    expect(read.status).toBe(200)
    expect(read.body).toEqual({ success: true, location })
  })

  test('status aliases hidden, inactive and unpublished are stored as draft', async () => {
    for (const status of ['hidden', 'inactive', 'unpublished', 'draft']) {
      const location = await created(storeBody({ status }))
      expect(location.status).toBe('draft')
      expect((await get(location.id)).body.location.status).toBe('draft')
    }
    expect((await created(storeBody({ status: 'published' }))).status).toBe('published')
  })

  test('a client-sent id, timestamps and locator are ignored', async () => {
    const before = Date.now()
    const location = await created(
      storeBody({
        id: 'loc_mine00000000000',
        created_at: '2000-01-01T00:00:00.000Z',
        updated_at: '2000-01-01T00:00:00.000Z',
        locator_id: 'lct_other',
      }),
    )
    expect(location.id).toMatch(ID)
    expect(location.id).not.toBe('loc_mine00000000000')
    expect(Date.parse(location.created_at)).toBeGreaterThanOrEqual(before - 1000)
    expect(Date.parse(location.updated_at)).toBeGreaterThanOrEqual(before - 1000)
    expect((await get('loc_mine00000000000')).status).toBe(404)
    const row = env.store.db
      .query<{ locator_id: string }, [string]>('SELECT locator_id FROM locations WHERE id = ?')
      .get(location.id)
    expect(row?.locator_id).toBe(env.locatorId)
  })

  test('tags are deduplicated case-insensitively, keeping the first case sent', async () => {
    const location = await created(storeBody({ tags: ['Coffee', 'coffee', 'WiFi', 'COFFEE', 'wifi', 'Tea'] }))
    expect(location.tags).toEqual(['Coffee', 'WiFi', 'Tea'])
  })

  test('text is stored composed (NFC): "Café" with a combining accent is the tag "Café", grouped by its filter and found by tags[]', async () => {
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    const token = env.store.locators.get(env.locatorId)!.publicToken
    // The filter file written with the combining accent, the locations' tags sent both ways.
    setFilters(env.store, env.locatorId, [
      { id: 'food', name: 'Food', label: 'Food', tags: [{ value: 'Cafe\u0301', label: 'Cafe\u0301' }] },
    ])
    const both = await created(storeBody({ name: 'Cafe\u0301 du Coin', tags: ['Cafe\u0301', 'Caf\u00e9'] }))
    expect(both).toMatchObject({ name: 'Caf\u00e9 du Coin', tags: ['Caf\u00e9'] })
    const decomposed = await created(storeBody({ tags: ['Cafe\u0301'] }))
    expect(decomposed.tags).toEqual(['Caf\u00e9'])
    expect((await get(decomposed.id)).body.location).toEqual(decomposed)
    const pub = await env.call('GET', `/public/v1/${token}/locations/${decomposed.id}`, { key: null })
    expect(pub.body.data.location.tags).toEqual({
      food: { name: 'Food', items: [{ value: 'Caf\u00e9', label: 'Caf\u00e9' }] },
    })
    const found = await env.call(
      'GET',
      `/public/v1/${token}/locations?all=true&tags[]=${encodeURIComponent('Caf\u00e9')}`,
      { key: null },
    )
    expect(found.body.data.locations.map((l: { id: string }) => l.id).sort()).toEqual([both.id, decomposed.id].sort())
    // A page that sends the tag decomposed (as its filter control got it typed) finds them too.
    const asTyped = await env.call(
      'GET',
      `/public/v1/${token}/locations?all=true&tags[]=${encodeURIComponent('Cafe\u0301')}`,
      { key: null },
    )
    expect(asTyped.body.data.locations.map((l: { id: string }) => l.id).sort()).toEqual([both.id, decomposed.id].sort())
  })

  test('each create gets a new id', async () => {
    const ids = new Set<string>()
    for (let i = 0; i < 5; i++) ids.add((await created()).id)
    expect(ids.size).toBe(5)
  })
})

describe('POST /locations geocoding', () => {
  test('an address without coordinates is geocoded, and the response says how', async () => {
    const res = await create({ name: 'White House', address: WHITE_HOUSE })
    expect(res.status).toBe(201)
    expect(res.body.location).toMatchObject({
      address: WHITE_HOUSE,
      coordinates: { lat: KNOWN_ADDRESSES[WHITE_HOUSE].lat, lng: KNOWN_ADDRESSES[WHITE_HOUSE].lng },
      geocoding: { precision: 'rooftop', source: 'table' },
    })
    expect(env.geocoder.calls).toEqual([WHITE_HOUSE])
    expect((await get(res.body.location.id)).body.location).toEqual(res.body.location)
  })

  test('coordinates sent with a geocodable address are used as sent, with geocoding null', async () => {
    const location = await created({ name: 'Pin', address: WHITE_HOUSE, coordinates: { lat: 1.25, lng: 2.5 } })
    expect(location.coordinates).toEqual({ lat: 1.25, lng: 2.5 })
    expect(location.geocoding).toBeNull()
    expect(env.geocoder.calls).toEqual([])
  })

  test('an address that cannot be geocoded gives 422 geocoding_failed and stores nothing', async () => {
    const res = await expectNoChange(() => create({ name: 'Nowhere', address: '1 Nowhere Lane, Atlantis' }))
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ success: false, error: 'geocoding_failed', message: expect.any(String) })
    expect(res.body.message).toContain('Fix the address or send coordinates')
    expect(res.body.message).not.toContain('Did you mean')
    expect(res.body.details).toBeUndefined()
  })

  test('a misspelt town: the refusal names the town it may mean, and stores nothing', async () => {
    const address = '101 Princes Street, Edinbrugh EH2 3AA, United Kingdom'
    const res = await expectNoChange(() => create({ name: 'Typo', address }))
    expect(res.status).toBe(422)
    expect(res.body.message).toBe(
      `The address ${JSON.stringify(address)} could not be geocoded. Did you mean Edinburgh, United Kingdom? Fix the address or send coordinates ({"lat": ..., "lng": ...}).`,
    )
    // A Dutch postcode's letters are no part of the town ("1094 HK").
    const dutch = await create({ name: 'Typo', address: 'Javastraat 50, 1094 HK Amsterdma, Nederland' })
    expect(dutch.body.message).toContain('Did you mean Amsterdam, Netherlands?')
    // Narrowed by the state after it; the street's part is not read as a town ("Floor": Florø).
    const illinois = await create({ name: 'Typo', address: 'Floor 2, 12 Main St, Springfeld, IL, USA' })
    expect(illinois.body.message).toContain('Did you mean Springfield, IL, United States?')
    const street = await create({ name: 'Typo', address: 'Floor 2, Calle Mayor, Xqzvillage' })
    expect(street.body.message).not.toContain('Did you mean')
  })

  test('a bare town of several countries: the refusal names them and asks for the country', async () => {
    const address = '7 High Street, Cambridge'
    const res = await expectNoChange(() => create({ name: 'Namesake', address }))
    expect(res.status).toBe(422)
    expect(res.body.message).toBe(
      `The address ${JSON.stringify(address)} could not be geocoded. "Cambridge" names towns in several countries (Cambridge, United Kingdom; Cambridge, ON, Canada; Cambridge, MA, United States): add the country, a region or a postcode after it. Fix the address or send coordinates ({"lat": ..., "lng": ...}).`,
    )
    const spain = await create({ name: 'Namesake', address: 'Rambla 1, Barcelona' })
    expect(spain.body.message).toContain('(Barcelona, Spain; Barcelona, Venezuela)')
    // A town named with its country is no namesake's: nothing of the kind is said.
    const atlantis = await create({ name: 'Namesake', address: '1 Nowhere Lane, Atlantis, Cambridge, Narnia' })
    expect(atlantis.body.message).not.toContain('several countries')
  })

  test('with geocoding off (GEOCODER=none), an address without coordinates is refused as such, not as a bad address', async () => {
    const app = createApp({
      store: env.store,
      geocoder: noGeocoder,
      config: { maxBodyBytes: 262144, logRequests: false },
      log: () => {},
    })
    const res = await app.handle(
      new Request(`http://localhost${BASE}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Store', address: WHITE_HOUSE }),
      }),
    )
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({
      success: false,
      error: 'geocoding_failed',
      message:
        'Geocoding is off on this service (GEOCODER=none): send coordinates ({"lat": ..., "lng": ...}) with the address.',
    })
    expect((await env.call('GET', BASE)).body.pagination.total).toBe(0)
  })

  test('the geocode cache: a second create of the same address makes no second upstream call', async () => {
    const first = await created({ name: 'A', address: DOWNING })
    const second = await created({ name: 'B', address: DOWNING })
    // Spacing is folded; case is not (some geocoders read "CA" and "ca" apart).
    const third = await created({ name: 'C', address: ' 10 Downing  Street ,London SW1A 2AA ' })
    expect(env.geocoder.calls).toEqual([DOWNING])
    expect(second.coordinates).toEqual(first.coordinates)
    expect(third.coordinates).toEqual(first.coordinates)
    expect(second.geocoding).toEqual({ precision: 'rooftop', source: 'table' })
  })

  test('validation runs before geocoding: an invalid body makes no upstream call', async () => {
    expectValidation(await create({ name: 5, address: WHITE_HOUSE }), ['name'])
    expect(env.geocoder.calls).toEqual([])
  })
})
