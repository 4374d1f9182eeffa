// The location object of the Query API field by field, in GET /locations/{id}, radius and
// all=true answers; the locations that are 404 LOCATION_NOT_FOUND.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { expectError, LONDON, makeFixture, send, type Fixture } from './fixture'
import { NEAR, LOCATION_KEYS } from './locations-helpers'

describe('the location object', () => {
  let f: Fixture
  beforeAll(async () => {
    f = await makeFixture()
  })
  afterAll(() => f.env.close())

  const veloJson = () => ({
    id: f.ids.velo,
    name: 'Vélo Café Bikes',
    coordinates: { lat: 48.86, lng: 2.356 },
    // Its coordinates were sent: its town is its point's (by the reverse lookup), with the postcode its address writes.
    address: { formatted: '12 Rue de Rivoli, 75004 Paris', city: 'Paris', postcode: '75004', country: 'FR' },
    contact: { phone: '+33 1 23 45 67 89', email: 'hello@velo.example', website: 'https://velo.example' },
    social: { instagram: 'velo_cafe', facebook: 'velocafe', twitter: 'velocafe' },
    hours: {
      monday: '09:00-18:00',
      tuesday: '09:00-18:00',
      wednesday: '',
      thursday: '',
      friday: '',
      saturday: '10:00-16:00',
      sunday: 'closed',
    },
    timezone: 'Europe/Paris',
    tags: {
      services: { name: 'Services', items: [{ value: 'repair', label: 'Repair', color: '#d73a49' }] },
      brands: { name: 'Brands', items: [{ value: 'Trek', label: 'Trek' }] },
      _default: { name: expect.any(String), items: [{ value: 'vintage', label: 'Vintage' }] },
    },
    customFields: [
      { token: expect.any(String), key: 'note', name: 'Note', type: 'text', value: 'Ring twice' },
      {
        token: expect.any(String),
        key: 'booking',
        name: 'Booking',
        type: 'button',
        value: 'https://book.example.com/velo',
        label: 'Book now',
      },
      {
        token: expect.any(String),
        key: 'partner',
        name: 'Partner',
        type: 'badge',
        value: 'gold',
        label: 'Partner',
        color: '#1a7f37',
      },
    ],
    image: 'https://img.example.com/velo.jpg',
    description: 'Coffee, espresso and city bikes.',
    open_now: true, // Monday 10:00 in Paris (FIXTURE_NOW)
    next_change: '2026-06-15T18:00:00+02:00',
    hours_today: '09:00-18:00',
  })

  test('GET /locations/{id}: exactly the documented fields, tags by group, custom fields in definition order, social handles', async () => {
    const res = await f.get(`/locations/${f.ids.velo}`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, data: { location: veloJson() } })
    const l = res.body.data.location
    expect(Object.keys(l).sort()).toEqual(LOCATION_KEYS)
    expect(l.id).toMatch(/^loc_[0-9a-z]+$/)
    expect(Object.keys(l.tags.services.items[0]).sort()).toEqual(['color', 'label', 'value'])
    expect(Object.keys(l.tags.brands.items[0]).sort()).toEqual(['label', 'value']) // no color configured: none shown
    expect(Object.keys(l.customFields[0]).sort()).toEqual(['key', 'name', 'token', 'type', 'value'])
    for (const cf of l.customFields) expect(cf.token.length).toBeGreaterThan(0)
    expect(new Set(l.customFields.map((c: { token: string }) => c.token)).size).toBe(3)
    expect(res.headers.get('content-type')).toContain('application/json')
  })

  test('the same object in radius answers, with distance added, and in all=true answers, without', async () => {
    const radius = await f.get(f.url('/locations', `${NEAR}&limit=100`))
    const inRadius = radius.body.data.locations.find((l: { id: string }) => l.id === f.ids.velo)
    const { distance, ...rest } = inRadius
    expect(rest).toEqual(veloJson())
    expect(distance.unit).toBe('miles')
    expect(Object.keys(inRadius).sort()).toEqual([...LOCATION_KEYS, 'distance'].sort())

    const all = await f.get(f.url('/locations', 'all=true&limit=500'))
    expect(all.body.data.locations.find((l: { id: string }) => l.id === f.ids.velo)).toEqual(veloJson())
  })

  test('unset fields are empty strings; tag case follows the filter configuration; ungrouped tags go to _default', async () => {
    const zoe = (await f.get(`/locations/${f.ids.zoe}`)).body.data.location
    expect(zoe).toEqual({
      id: f.ids.zoe,
      name: "Zoë's Garage",
      coordinates: { lat: 48.81, lng: 2.29 },
      // In Paris's reach, but its address names Issy(-les-Moulineaux), whose reach holds it too.
      address: { formatted: '8 Rue de Vaugirard, 92130 Issy', city: 'Issy', postcode: '92130', country: 'FR' },
      contact: { phone: '', email: '', website: '' },
      social: { instagram: '', facebook: 'zoesgarage', twitter: '' },
      hours: { monday: '', tuesday: '', wednesday: '', thursday: '', friday: '', saturday: '', sunday: '' },
      timezone: 'Europe/Paris',
      tags: { _default: { name: expect.any(String), items: [{ value: 'outlet', label: 'Outlet' }] } },
      customFields: [
        { token: expect.any(String), key: 'note', name: 'Note', type: 'text', value: 'Back entrance' },
        {
          token: expect.any(String),
          key: 'partner',
          name: 'Partner',
          type: 'badge',
          value: 'silver',
          label: 'Partner',
          color: '#1a7f37',
        },
      ],
      image: '',
      description: '',
      open_now: null,
      next_change: null,
      hours_today: null,
    })

    const eclair = (await f.get(`/locations/${f.ids.eclair}`)).body.data.location
    expect(eclair.tags).toEqual({
      services: { name: 'Services', items: [{ value: 'rental', label: 'Rental' }] },
      brands: { name: 'Brands', items: [{ value: 'Giant', label: 'Giant', color: '#123abc' }] }, // stored as "GIANT"
    })
    expect(eclair.customFields).toEqual([])

    const gare = (await f.get(`/locations/${f.ids.gare}`)).body.data.location
    expect(gare.tags).toEqual({})
  })

  test('social handles: the last path segment, without @; a Facebook profile.php URL gives its id', async () => {
    const created = await f.env.call('POST', '/admin/v1/locations', {
      body: {
        name: 'Handles',
        address: '1 Rue X',
        coordinates: { lat: 48.85, lng: 2.35 },
        social: {
          facebook: 'https://www.facebook.com/profile.php?id=100064',
          instagram: 'https://www.instagram.com/@handles.shop/',
          twitter: 'https://x.com/handles',
        },
      },
    })
    expect(created.status).toBe(201)
    const location = (await f.get(`/locations/${created.body.location.id}`)).body.data.location
    expect(location.social).toEqual({ instagram: 'handles.shop', facebook: '100064', twitter: 'handles' })
  })

  test('a geocoded address carries the parts the geocoder parsed', async () => {
    const london = (await f.get(`/locations/${f.ids.london}`)).body.data.location
    expect(london.address).toEqual({
      formatted: '10 Downing Street, London SW1A 2AA',
      city: 'London',
      postcode: 'SW1A 2AA',
      country: 'GB',
    })
    expect(london.coordinates).toEqual(LONDON)
  })

  test('GET /locations/{id} has no distance even when lat/lng are sent', async () => {
    const res = await f.get(f.url(`/locations/${f.ids.velo}`, `${NEAR}&unit=km`))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, data: { location: veloJson() } })
  })

  test("a draft, an unknown id, a malformed id and another locator's location are all 404 LOCATION_NOT_FOUND", async () => {
    const other = createLocator(f.env.store, 'Other locator')
    setLocatorSettings(f.env.store, other.locator.id, { queryApi: 'on' })
    const created = await f.env.call('POST', '/admin/v1/locations', {
      key: other.secret,
      body: { name: 'Elsewhere', address: '1 Other Street', coordinates: { lat: 48.8566, lng: 2.3522 } },
    })
    expect(created.status).toBe(201)
    const otherId = created.body.location.id as string
    // Reachable with its own locator's token...
    const own = await send(f.env.app, `http://localhost/public/v1/${other.locator.publicToken}/locations/${otherId}`)
    expect(own.status).toBe(200)

    for (const id of [f.ids.hidden!, f.ids.workshop!, f.ids.unpub!, 'loc_0000000000000000', 'nope', otherId]) {
      const res = await f.get(`/locations/${id}`)
      expectError(res, 404, 'LOCATION_NOT_FOUND')
      expect(res.headers.get('etag')).toBeNull()
    }
    // A path segment that is not valid percent-encoded UTF-8: said so, not "Location null".
    expectError(
      await f.get('/locations/%E0%A4%A'),
      404,
      'LOCATION_NOT_FOUND',
      expect.stringContaining('percent-encoded'),
    )
  })
})
