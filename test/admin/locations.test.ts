// Management API location resource: create, get, update, delete, their validation, geocoding, and
// the change log written with every row.
import { test, expect, describe, beforeEach, afterEach } from 'bun:test'
import { createApp } from '../../src/server/app'
import { noGeocoder, type Geocoder } from '../../src/geocode/geocoder'
import { addCustomField, removeCustomField, setFilters, setLocatorSettings } from '../../src/operator'
import { KNOWN_ADDRESSES, makeEnv, storeBody, type TestEnv } from '../helpers'

let env: TestEnv
beforeEach(() => {
  env = makeEnv()
})
afterEach(() => env.close())

const BASE = '/admin/v1/locations'
const WHITE_HOUSE = '1600 Pennsylvania Avenue NW, Washington, DC 20500'
const DOWNING = '10 Downing Street, London SW1A 2AA'
const ID = /^loc_[0-9a-z]{16}$/
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

type Res = Awaited<ReturnType<TestEnv['call']>>

const create = (body: unknown) => env.call('POST', BASE, { body })
const update = (id: string, body: unknown) => env.call('POST', `${BASE}/${id}`, { body })
const get = (id: string) => env.call('GET', `${BASE}/${id}`)
const remove = (id: string) => env.call('POST', `${BASE}/${id}/delete`)

async function created(body: unknown = storeBody()) {
  const res = await create(body)
  expect(res.status).toBe(201)
  return res.body.location
}

/** Raw bytes with no Content-Type header at all (a string body would get text/plain). */
function rawRequest(method: string, path: string, bytes: Uint8Array, headers: Record<string, string> = {}) {
  return env.app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { authorization: `Bearer ${env.key}`, ...headers },
      body: bytes,
    }),
  )
}

const form = (path: string, body: string) =>
  env.call('POST', path, { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } })

/** Every row of the tables a write touches, to prove a refused request changed nothing. */
const snapshot = () => ({
  locations: env.store.db.query('SELECT * FROM locations ORDER BY seq').all(),
  changes: env.store.db.query('SELECT * FROM changes ORDER BY seq').all(),
})

const locationChanges = () =>
  env.store.db
    .query<{ locator_id: string; entity: string; entity_id: string; op: string }, []>(
      "SELECT locator_id, entity, entity_id, op FROM changes WHERE entity = 'location' ORDER BY seq",
    )
    .all()

const EMPTY_CONTACT = { phone: '', email: '', website: '' }
const EMPTY_SOCIAL = { instagram: '', facebook: '', twitter: '' }
const EMPTY_HOURS = { monday: '', tuesday: '', wednesday: '', thursday: '', friday: '', saturday: '', sunday: '' }

/** A 422 validation_error whose details name exactly these fields, each with at least one message. */
function expectValidation(res: Res, fields: string[]) {
  expect(res.status).toBe(422)
  expect(res.body).toEqual({
    success: false,
    error: 'validation_error',
    message: expect.any(String),
    details: expect.any(Object),
  })
  expect(Object.keys(res.body.details).sort()).toEqual([...fields].sort())
  for (const f of fields) {
    expect(Array.isArray(res.body.details[f])).toBe(true)
    expect(res.body.details[f].length).toBeGreaterThan(0)
    for (const m of res.body.details[f]) expect(typeof m).toBe('string')
  }
}

/** Runs a request that must be refused and checks it left every row as it was. */
async function expectNoChange(run: () => Promise<Res>): Promise<Res> {
  const before = snapshot()
  const res = await run()
  expect(res.status).toBeGreaterThanOrEqual(400)
  expect(snapshot()).toEqual(before)
  return res
}

function defineAllCustomFieldTypes() {
  addCustomField(env.store, env.locatorId, { id: 'note', name: 'Note', type: 'text' })
  addCustomField(env.store, env.locatorId, { id: 'floor', name: 'Floor', type: 'number' })
  addCustomField(env.store, env.locatorId, { id: 'menu', name: 'Menu', type: 'url' })
  addCustomField(env.store, env.locatorId, { id: 'mail', name: 'Mail', type: 'email' })
  addCustomField(env.store, env.locatorId, { id: 'tel', name: 'Phone', type: 'phone' })
  addCustomField(env.store, env.locatorId, { id: 'order', name: 'Order', type: 'button', label: 'Order online' })
  addCustomField(env.store, env.locatorId, {
    id: 'promo',
    name: 'Promo',
    type: 'badge',
    label: 'New',
    color: '#1a7f37',
  })
}

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

describe('POST /locations validation (422 validation_error)', () => {
  test('missing name and address: "The ... field is required."', async () => {
    const res = await expectNoChange(() => create({ coordinates: { lat: 1, lng: 2 } }))
    expect(res.body).toEqual({
      success: false,
      error: 'validation_error',
      message: expect.any(String),
      details: { name: ['The name field is required.'], address: ['The address field is required.'] },
    })
  })

  test('empty or blank name and address count as missing', async () => {
    const res = await expectNoChange(() => create(storeBody({ name: '', address: '   ' })))
    expectValidation(res, ['name', 'address'])
    expect(res.body.details.name).toEqual(['The name field is required.'])
    expect(res.body.details.address).toEqual(['The address field is required.'])
  })

  test('only one of the two missing names only that one', async () => {
    expectValidation(await create({ name: 'A', coordinates: { lat: 1, lng: 2 } }), ['address'])
    expectValidation(await create({ address: 'B', coordinates: { lat: 1, lng: 2 } }), ['name'])
  })

  test('null tags, contact, social, hours are rejected with a "must be an array" message', async () => {
    const res = await expectNoChange(() => create(storeBody({ tags: null, contact: null, social: null, hours: null })))
    expectValidation(res, ['tags', 'contact', 'social', 'hours'])
    for (const f of ['tags', 'contact', 'social', 'hours'])
      expect(res.body.details[f].join(' ')).toMatch(/must be an array/i)
  })

  test('wrong types are rejected per field', async () => {
    const res = await expectNoChange(() =>
      create(
        storeBody({
          name: 5,
          address: ['x'],
          description: 3,
          tags: 'coffee',
          contact: 'x',
          social: [],
          hours: 'always',
          image_url: 7,
          status: true,
          custom_fields: [],
        }),
      ),
    )
    expectValidation(res, [
      'name',
      'address',
      'description',
      'tags',
      'contact',
      'social',
      'hours',
      'image_url',
      'status',
      'custom_fields',
    ])
    expect(res.body.details.name).toEqual(['The name field must be a string.'])
    expect(res.body.details.tags.join(' ')).toMatch(/must be an array/i)
  })

  test('a tag that is not a string is named by its index', async () => {
    expectValidation(await expectNoChange(() => create(storeBody({ tags: ['ok', 3] }))), ['tags.1'])
  })

  test('map values that are not strings are named by their dotted path', async () => {
    const res = await expectNoChange(() => create(storeBody({ contact: { phone: 5 }, hours: { monday: true } })))
    expectValidation(res, ['contact.phone', 'hours.monday'])
  })

  test('URLs without a protocol: contact.website, image_url, social.*', async () => {
    const res = await expectNoChange(() =>
      create(
        storeBody({
          contact: { website: 'www.example.com' },
          image_url: 'example.com/shop.jpg',
          social: { instagram: 'instagram.com/shop', facebook: 'facebook.com/shop', twitter: 'twitter.com/shop' },
        }),
      ),
    )
    expectValidation(res, ['contact.website', 'image_url', 'social.instagram', 'social.facebook', 'social.twitter'])
    expect(res.body.details['contact.website']).toEqual([
      'The contact.website field must be a valid URL including the protocol (https://...).',
    ])
  })

  test('each URL field alone is checked', async () => {
    for (const [body, field] of [
      [{ contact: { website: 'example.com' } }, 'contact.website'],
      [{ image_url: 'www.example.com/a.png' }, 'image_url'],
      [{ social: { instagram: '@shop' } }, 'social.instagram'],
      [{ social: { facebook: 'shop' } }, 'social.facebook'],
      [{ social: { twitter: 'https://' } }, 'social.twitter'],
    ] as const) {
      expectValidation(await expectNoChange(() => create(storeBody(body))), [field])
    }
  })

  test('unknown keys inside contact, social and hours are rejected', async () => {
    const res = await expectNoChange(() =>
      create(
        storeBody({
          contact: { fax: '123' },
          social: { tiktok: 'https://tiktok.com/@x' },
          hours: { funday: '10:00-12:00' },
        }),
      ),
    )
    expectValidation(res, ['contact.fax', 'social.tiktok', 'hours.funday'])
  })

  test('a custom field id the locator does not define is an error on custom_fields.<id>', async () => {
    addCustomField(env.store, env.locatorId, { id: 'floor', name: 'Floor', type: 'number' })
    const res = await expectNoChange(() => create(storeBody({ custom_fields: { floor: '1', parking: 'yes' } })))
    expectValidation(res, ['custom_fields.parking'])
  })

  test('custom field values are checked by their type', async () => {
    defineAllCustomFieldTypes()
    const res = await expectNoChange(() =>
      create(
        storeBody({
          custom_fields: {
            floor: 'two',
            menu: 'example.com/menu',
            mail: 'not-an-email',
            order: 'www.example.com/order',
            note: 'ok',
          },
        }),
      ),
    )
    expectValidation(res, ['custom_fields.floor', 'custom_fields.menu', 'custom_fields.mail', 'custom_fields.order'])
  })

  test('custom_fields sent as an array is rejected, empty or not', async () => {
    for (const custom_fields of [[], [{ note: 'x' }], ['x']]) {
      expectValidation(await expectNoChange(() => create(storeBody({ custom_fields }))), ['custom_fields'])
    }
  })

  test('custom field values that are not strings are rejected', async () => {
    defineAllCustomFieldTypes()
    expectValidation(await expectNoChange(() => create(storeBody({ custom_fields: { floor: 2 } }))), [
      'custom_fields.floor',
    ])
  })

  test('valid custom field values of every type are stored', async () => {
    defineAllCustomFieldTypes()
    const values = {
      note: 'Entrance at the back',
      floor: '-1.5',
      menu: 'https://example.com/menu',
      mail: 'shop@example.com',
      tel: '+1 555 0100',
      order: 'https://example.com/order',
      promo: 'Open late',
    }
    const location = await created(storeBody({ custom_fields: values }))
    expect(location.custom_fields).toEqual(values)
    expect((await get(location.id)).body.location.custom_fields).toEqual(values)
  })

  test('coordinates out of range', async () => {
    expectValidation(await expectNoChange(() => create(storeBody({ coordinates: { lat: 90.0001, lng: 0 } }))), [
      'coordinates.lat',
    ])
    expectValidation(await expectNoChange(() => create(storeBody({ coordinates: { lat: -91, lng: 0 } }))), [
      'coordinates.lat',
    ])
    expectValidation(await expectNoChange(() => create(storeBody({ coordinates: { lat: 0, lng: 180.5 } }))), [
      'coordinates.lng',
    ])
    expectValidation(await expectNoChange(() => create(storeBody({ coordinates: { lat: 91, lng: -181 } }))), [
      'coordinates.lat',
      'coordinates.lng',
    ])
  })

  test('coordinates too large for a number (1e999, 400 digits: Infinity once parsed) are out of range, not "not a number"', async () => {
    const headers = { 'content-type': 'application/json' }
    for (const [lat, lng] of [
      ['1e999', '0'],
      ['0', '-1e999'],
      ['9'.repeat(400), `-${'9'.repeat(400)}`],
    ]) {
      const body = `{"name":"A","address":"B","coordinates":{"lat":${lat},"lng":${lng}}}`
      const res = await expectNoChange(() => env.call('POST', BASE, { body, headers }))
      expect(res.status).toBe(422)
      const details: Record<string, string[]> = {}
      if (lat !== '0') details['coordinates.lat'] = ['The coordinates.lat field must be between -90 and 90.']
      if (lng !== '0') details['coordinates.lng'] = ['The coordinates.lng field must be between -180 and 180.']
      expect(res.body.details).toEqual(details)
    }
  })

  test('coordinates at the edges of the range are accepted', async () => {
    const location = await created(storeBody({ coordinates: { lat: -90, lng: 180 } }))
    expect(location.coordinates).toEqual({ lat: -90, lng: 180 })
  })

  test('non-numeric coordinates', async () => {
    expectValidation(await expectNoChange(() => create(storeBody({ coordinates: { lat: 'abc', lng: 1 } }))), [
      'coordinates.lat',
    ])
    expectValidation(await expectNoChange(() => create(storeBody({ coordinates: { lat: '10', lng: '20' } }))), [
      'coordinates.lat',
      'coordinates.lng',
    ])
    expectValidation(await expectNoChange(() => create(storeBody({ coordinates: '39.78,-89.65' }))), ['coordinates'])
    expectValidation(await expectNoChange(() => create(storeBody({ coordinates: null }))), ['coordinates'])
  })

  test('coordinates without lng', async () => {
    const res = await expectNoChange(() => create(storeBody({ coordinates: { lat: 10 } })))
    expectValidation(res, ['coordinates.lng'])
    expect(res.body.details['coordinates.lng']).toEqual(['The coordinates.lng field is required.'])
  })

  test('a status that is not published, draft or an alias', async () => {
    expectValidation(await expectNoChange(() => create(storeBody({ status: 'archived' }))), ['status'])
  })

  test('a status naming a member every object inherits (constructor, __proto__, toString) is a validation error, on create and update', async () => {
    const before = await created()
    for (const status of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expectValidation(await expectNoChange(() => create(storeBody({ status }))), ['status'])
      expectValidation(await expectNoChange(() => update(before.id, { status, name: 'X' })), ['status'])
    }
    expect((await get(before.id)).body.location).toEqual(before)
  })

  test('lengths count characters, not UTF-16 units: 200 emoji make a name, 201 are refused saying so', async () => {
    const ok = await create(storeBody({ name: '🏪'.repeat(200), tags: ['🍕'.repeat(100)] }))
    expect(ok.status).toBe(201)
    expect(ok.body.location.name).toBe('🏪'.repeat(200))
    const res = await expectNoChange(() => create(storeBody({ name: '🏪'.repeat(201), tags: ['🍕'.repeat(101)] })))
    expectValidation(res, ['name', 'tags.0'])
    expect(res.body.details.name).toEqual(['The name field may not be greater than 200 characters.'])
  })

  test('all errors of a body are reported together', async () => {
    const res = await expectNoChange(() => create({ tags: null, image_url: 'nope', status: 'gone' }))
    expectValidation(res, ['name', 'address', 'tags', 'image_url', 'status'])
  })
})

describe('POST /locations body formats', () => {
  test('a form-urlencoded body with name, address and coordinates[lat]/[lng] creates the location', async () => {
    const res = await form(
      BASE,
      'name=Form+Shop&address=2+High+Street&coordinates%5Blat%5D=51.5&coordinates%5Blng%5D=-0.12&tags%5B%5D=a&tags%5B%5D=b&contact%5Bphone%5D=123',
    )
    expect(res.status).toBe(201)
    expect(res.body.location).toMatchObject({
      name: 'Form Shop',
      address: '2 High Street',
      coordinates: { lat: 51.5, lng: -0.12 },
      tags: ['a', 'b'],
      contact: { phone: '123', email: '', website: '' },
      status: 'published',
      geocoding: { precision: 'city', source: 'reverse' },
    })
    expect((await get(res.body.location.id)).body.location).toEqual(res.body.location)
  })

  test('a multipart form body creates the location too', async () => {
    const fd = new FormData()
    fd.set('name', 'Multipart Shop')
    fd.set('address', '3 High Street')
    fd.set('coordinates[lat]', '10')
    fd.set('coordinates[lng]', '20')
    const res = await env.app.handle(
      new Request(`http://localhost${BASE}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}` },
        body: fd,
      }),
    )
    expect(res.status).toBe(201)
    const body = (await res.json()) as { location: unknown }
    expect(body.location).toMatchObject({
      name: 'Multipart Shop',
      address: '3 High Street',
      coordinates: { lat: 10, lng: 20 },
    })
  })

  test('a form body is read as URLSearchParams reads it: "+" a space, escapes decoded, a "%" without hex digits as typed, an ASCII body in any charset', async () => {
    const coords = '&coordinates%5Blat%5D=48.87&coordinates%5Blng%5D=2.33'
    const cases: [body: string, type: string, fields: Record<string, string>][] = [
      [
        `name=Caf%C3%A9+Cr%C3%A8me&address=1%2B1+Rue${coords}`,
        'application/x-www-form-urlencoded',
        { name: 'Café Crème', address: '1+1 Rue' },
      ],
      [`name=Caf%C3%A9&address=1+Rue${coords}`, 'application/x-www-form-urlencoded; charset=UTF-8', { name: 'Café' }],
      // As curl -d sends what it is given: a "%" not followed by two hex digits is the character.
      [
        `name=Shop&address=1+Rue&description=20% off, 100%ZZ${coords}`,
        'application/x-www-form-urlencoded',
        { description: '20% off, 100%ZZ' },
      ],
      // Apache HttpClient says ISO-8859-1 by default: an ASCII body reads the same in it.
      [
        `name=Plain+Shop&address=1+Rue${coords}`,
        'application/x-www-form-urlencoded; charset=ISO-8859-1',
        { name: 'Plain Shop' },
      ],
    ]
    for (const [body, type, fields] of cases) {
      const res = await env.call('POST', BASE, { body, headers: { 'content-type': type } })
      expect({ body, status: res.status }).toEqual({ body, status: 201 })
      expect(res.body.location).toMatchObject(fields)
    }
  })

  test('a form body whose text would be read changed gives 400 invalid_request saying why, and stores nothing', async () => {
    const rest = '&address=1+Rue&coordinates%5Blat%5D=1&coordinates%5Blng%5D=2'
    const latin1 = (text: string) => new Uint8Array([...text].map((c) => c.charCodeAt(0)))
    const cases: [body: string | Uint8Array, type: string, says: string][] = [
      [`name=Caf%E9${rest}`, 'application/x-www-form-urlencoded; charset=iso-8859-1', 'its charset is "iso-8859-1"'],
      [
        `name=Caf%E9${rest}`,
        'application/x-www-form-urlencoded',
        'the field "name" holds an escape whose bytes are not UTF-8',
      ],
      [
        `name=Shop${rest}&description%5Bx%5D=%FF%FE`,
        'application/x-www-form-urlencoded',
        'the field "description[x]" holds an escape',
      ],
      [latin1(`name=Caf\u00e9${rest}`), 'application/x-www-form-urlencoded', 'it is not valid UTF-8'],
      [
        new Uint8Array([...`name=Shop${rest}`].flatMap((c) => [c.charCodeAt(0), 0])),
        'application/x-www-form-urlencoded; charset=utf-16le',
        'its charset is "utf-16le"',
      ],
      ['--nope\r\ngarbage', 'multipart/form-data; boundary=other', 'it is not multipart/form-data that can be read'],
      [
        latin1(
          `--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nCaf\u00e9\r\n--b\r\nContent-Disposition: form-data; name="address"\r\n\r\n1 Rue\r\n--b--\r\n`,
        ),
        'multipart/form-data; boundary=b',
        'it is not valid UTF-8',
      ],
    ]
    for (const [body, type, says] of cases) {
      const res = await expectNoChange(async () => {
        const r = await rawRequest('POST', BASE, typeof body === 'string' ? new TextEncoder().encode(body) : body, {
          'content-type': type,
        })
        return { status: r.status, body: await r.json(), headers: r.headers }
      })
      expect({ type, status: res.status, body: res.body }).toEqual({
        type,
        status: 400,
        body: {
          success: false,
          error: 'invalid_request',
          message: expect.stringContaining(`The form body could not be read: ${says}`),
        },
      })
    }
  })

  test('a multipart body with a file in it gives 400 invalid_request naming the field; a file input left empty is no field', async () => {
    const form = (name: string | File, photo: File) => {
      const fd = new FormData()
      fd.set('name', name)
      fd.set('address', '3 High Street')
      fd.set('coordinates[lat]', '10')
      fd.set('coordinates[lng]', '20')
      fd.set('photo', photo)
      return env.app.handle(
        new Request(`http://localhost${BASE}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env.key}` },
          body: fd,
        }),
      )
    }
    const empty = new File([], '', { type: 'application/octet-stream' }) // what a browser sends for a file input left empty
    const res = await expectNoChange(async () => {
      const r = await form(new File(['Shop'], 'name.txt'), empty)
      return { status: r.status, body: await r.json(), headers: r.headers }
    })
    expect(res.body).toEqual({
      success: false,
      error: 'invalid_request',
      message: 'The form body could not be read: the field "name" is a file; location fields are text.',
    })
    const made = await form('Shop', empty)
    expect(made.status).toBe(201)
    expect(((await made.json()) as { location: { name: string } }).location.name).toBe('Shop')
  })

  test('a JSON body without a Content-Type header gives required-field errors on name and address', async () => {
    const before = snapshot()
    const res = await rawRequest('POST', BASE, new TextEncoder().encode(JSON.stringify(storeBody())))
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({
      success: false,
      error: 'validation_error',
      message: expect.any(String),
      details: { name: ['The name field is required.'], address: ['The address field is required.'] },
    })
    expect(snapshot()).toEqual(before)
  })

  test('a JSON body sent as text/plain or as a form also gives required-field errors', async () => {
    const json = JSON.stringify(storeBody())
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await expectNoChange(() => env.call('POST', BASE, { body: json, headers: { 'content-type': type } }))
      expectValidation(res, ['name', 'address'])
    }
  })

  test('a body sent without a JSON Content-Type says so: on create (the required-field errors) and on update (not "no fields", the fields were sent)', async () => {
    const before = await created()
    const json = JSON.stringify({ name: 'Renamed', address: 'x' })
    const sends: [string, () => Promise<{ status: number; body: any }>][] = [
      [
        'without a Content-Type header',
        async () => {
          const res = await rawRequest('POST', `${BASE}/${before.id}`, new TextEncoder().encode(json))
          return { status: res.status, body: await res.json() }
        },
      ],
      [
        'as "text/plain"',
        () =>
          env.call('POST', `${BASE}/${before.id}`, {
            body: json,
            headers: { 'content-type': 'text/plain;charset=UTF-8' },
          }),
      ],
    ]
    for (const [sent, send] of sends) {
      const snap = snapshot()
      const res = await send()
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        success: false,
        error: 'invalid_request',
        message: expect.stringContaining(
          `The request body was not read: it was sent ${sent}. Send JSON with the header "Content-Type: application/json".`,
        ),
      })
      expect(snapshot()).toEqual(snap)
    }
    const res = await expectNoChange(() =>
      env.call('POST', BASE, { body: json, headers: { 'content-type': 'text/plain' } }),
    )
    expectValidation(res, ['name', 'address'])
    expect(res.body.message).toBe(
      'The given data was invalid. The request body was not read: it was sent as "text/plain". Send JSON with the header "Content-Type: application/json".',
    )
    // Nothing sent: the documented errors alone; an unknown id stays 404.
    expect((await env.call('POST', `${BASE}/${before.id}`)).body.message).not.toContain('not read')
    expect(
      (
        await env.call('POST', `${BASE}/loc_0000000000000000`, {
          body: json,
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(404)
  })

  test('a JSON content type with a charset parameter is JSON', async () => {
    const res = await env.call('POST', BASE, {
      body: JSON.stringify(storeBody()),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
    expect(res.status).toBe(201)
  })

  test('a +json content type (application/vnd.api+json) is JSON', async () => {
    const res = await env.call('POST', BASE, {
      body: JSON.stringify(storeBody()),
      headers: { 'content-type': 'application/vnd.api+json' },
    })
    expect(res.status).toBe(201)
    expect(res.body.location.name).toBe(storeBody().name)
  })

  test('a JSON null body counts as an empty one: required-field errors on create, no fields on update', async () => {
    const headers = { 'content-type': 'application/json' }
    expectValidation(await expectNoChange(() => env.call('POST', BASE, { body: 'null', headers })), ['name', 'address'])
    const before = await created()
    const res = await expectNoChange(() => env.call('POST', `${BASE}/${before.id}`, { body: 'null', headers }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, error: 'invalid_request', message: expect.any(String) })
  })

  test('malformed JSON gives 400 invalid_request', async () => {
    const res = await expectNoChange(() =>
      env.call('POST', BASE, { body: '{"name": "x",', headers: { 'content-type': 'application/json' } }),
    )
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, error: 'invalid_request', message: expect.stringMatching(/json/i) })
  })

  test('a JSON array or scalar body gives 400 invalid_request', async () => {
    for (const body of ['[]', JSON.stringify([storeBody()]), '"name"', '42']) {
      const res = await expectNoChange(() =>
        env.call('POST', BASE, { body, headers: { 'content-type': 'application/json' } }),
      )
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ success: false, error: 'invalid_request', message: expect.any(String) })
    }
  })

  test('a body over 256 KiB on a delete, which reads none, gives 413 and deletes nothing', async () => {
    const before = await created()
    const res = await expectNoChange(() =>
      env.call('POST', `${BASE}/${before.id}/delete`, { body: storeBody({ description: 'x'.repeat(300 * 1024) }) }),
    )
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ success: false, error: 'payload_too_large', message: expect.any(String) })
    expect((await get(before.id)).status).toBe(200)
  })

  test('a body over 256 KiB gives 413 and stores nothing', async () => {
    const res = await expectNoChange(() => create(storeBody({ description: 'x'.repeat(256 * 1024) })))
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ success: false, error: 'payload_too_large', message: expect.any(String) })
  })

  test('a streamed body of 64 MiB gives 413 once past 256 KiB: it is read no further', async () => {
    let sent = 0
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 64 * 1024 * 1024) return controller.close()
        sent += 65536
        controller.enqueue(new Uint8Array(65536).fill(0x20))
      },
    })
    const res = await expectNoChange(async () => {
      const r = await rawRequest('POST', BASE, endless as unknown as Uint8Array, { 'content-type': 'application/json' })
      return { status: r.status, body: await r.json(), headers: r.headers }
    })
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ success: false, error: 'payload_too_large', message: expect.any(String) })
    expect(sent).toBeLessThan(1024 * 1024)
  })

  test('a known field nested 120,000 levels deep gives 422, not 500, on create and update', async () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`
    const json = (field: string) => `{"name":"Deep","address":"x","coordinates":{"lat":1,"lng":2},${field}}`
    const headers = { 'content-type': 'application/json' }
    const made = await expectNoChange(() =>
      env.call('POST', BASE, { body: json(`"description":${deep(120_000)}`), headers }),
    )
    expectValidation(made, ['description'])
    const before = await created()
    const changed = await expectNoChange(() =>
      env.call('POST', `${BASE}/${before.id}`, { body: `{"contact":{"phone":${deep(120_000)}}}`, headers }),
    )
    expectValidation(changed, ['contact.phone'])
  })

  test('a lone UTF-16 surrogate is stored as U+FFFD, and the response says so', async () => {
    const res = await env.call('POST', BASE, {
      body: '{"name":"a\\ud800b","address":"x","coordinates":{"lat":1,"lng":2},"tags":["t\\udc00"],"contact":{"phone":"\\ud83d"}}',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(201)
    expect(res.body.location).toMatchObject({ name: 'a\ufffdb', tags: ['t\ufffd'], contact: { phone: '\ufffd' } })
    expect((await get(res.body.location.id)).body.location).toEqual(res.body.location)
  })

  test('a JSON body that is not valid UTF-8 (a Latin-1 "é") gives 400 invalid_request saying so, on create and update, and stores nothing', async () => {
    const latin1 = (json: string) => Uint8Array.from(json, (c) => c.charCodeAt(0)) // one byte per character: "é" is 0xE9
    const headers = { 'content-type': 'application/json' }
    const before = await created()
    for (const [path, body] of [
      [BASE, JSON.stringify(storeBody({ name: 'Café' }))],
      [`${BASE}/${before.id}`, JSON.stringify({ name: 'Café' })],
    ] as const) {
      const snap = snapshot()
      const res = await rawRequest('POST', path, latin1(body), headers)
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({
        success: false,
        error: 'invalid_request',
        message: expect.stringContaining('not valid UTF-8'),
      })
      expect(snapshot()).toEqual(snap)
    }
    // The same text as UTF-8, with a byte order mark as some clients send it, is read.
    const ok = await rawRequest(
      'POST',
      BASE,
      new TextEncoder().encode(`\ufeff${JSON.stringify(storeBody({ name: 'Café' }))}`),
      headers,
    )
    expect(ok.status).toBe(201)
    expect(((await ok.json()) as { location: { name: string } }).location.name).toBe('Café')
  })

  test('a body just under 256 KiB is read (and judged on its fields)', async () => {
    // 200 KiB of description: read fine, then refused by the 10,000-character field limit, not by size.
    const res = await expectNoChange(() => create(storeBody({ description: 'x'.repeat(200 * 1024) })))
    expectValidation(res, ['description'])
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
    expect(res.body.details).toBeUndefined()
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

describe('GET /locations/{id}', () => {
  test('returns the location, draft included', async () => {
    const location = await created(storeBody({ status: 'draft' }))
    const res = await get(location.id)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, location })
  })

  test('an unknown id gives 404 not_found saying it was not found', async () => {
    const res = await get('loc_doesnotexist0000')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ success: false, error: 'not_found', message: expect.stringMatching(/not found/i) })
  })

  test('a blank id gives 400 invalid_request', async () => {
    const res = await get('%20')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, error: 'invalid_request', message: expect.any(String) })
  })

  test('an id that is not valid percent-encoding gives 400 invalid_request saying so', async () => {
    for (const bad of ['%zz', '%E0%A4%A']) {
      for (const res of [await get(bad), await update(bad, { name: 'x' }), await remove(bad)]) {
        expect(res.status).toBe(400)
        expect(res.body).toEqual({
          success: false,
          error: 'invalid_request',
          message: expect.stringContaining('percent-encoded'),
        })
      }
    }
  })
})

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
      geocoding: { precision: 'city', source: 'reverse' },
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
    expect(moved.body.details).toEqual({ 'custom_fields.size': ['The custom_fields.size field must be a number.'] })
    expect(createdLarge.body.details).toEqual({
      'custom_fields.size': ['The custom_fields.size field must be a number.'],
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

describe('POST /locations/{id}/delete', () => {
  test('deletes: success body, then 404 on get, update and a second delete', async () => {
    const l = await created(storeBody({ status: 'draft' }))
    const res = await remove(l.id)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, message: expect.any(String) })
    expect(res.body.message.length).toBeGreaterThan(0)

    for (const after of [await get(l.id), await update(l.id, { name: 'x' }), await remove(l.id)]) {
      expect(after.status).toBe(404)
      expect(after.body).toEqual({ success: false, error: 'not_found', message: expect.stringMatching(/not found/i) })
    }
    expect((await env.call('GET', BASE)).body.pagination.total).toBe(0)
  })

  test('deletes only the location named', async () => {
    const a = await created(storeBody({ name: 'A' }))
    const b = await created(storeBody({ name: 'B' }))
    expect((await remove(a.id)).status).toBe(200)
    expect((await get(b.id)).body.location).toEqual(b)
  })

  test('an unknown id gives 404 not_found', async () => {
    await created()
    const res = await expectNoChange(() => remove('loc_doesnotexist0000'))
    expect(res.status).toBe(404)
    expect(res.body.error).toBe('not_found')
  })

  test('a missing id gives 400 invalid_request', async () => {
    await created()
    for (const path of [`${BASE}//delete`, `${BASE}/%20/delete`]) {
      const res = await expectNoChange(() => env.call('POST', path))
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ success: false, error: 'invalid_request', message: expect.any(String) })
    }
  })

  test('DELETE, PUT or PATCH on /locations/{id} (REST habits): 404 naming the routes there are, not "lives under /admin/v1", and nothing changes', async () => {
    const location = await created()
    for (const method of ['DELETE', 'PUT', 'PATCH']) {
      const res = await expectNoChange(() =>
        env.call(method, `${BASE}/${location.id}`, method === 'DELETE' ? {} : { body: { name: 'Renamed' } }),
      )
      expect(res.status).toBe(404)
      expect(res.body).toEqual({
        success: false,
        error: 'not_found',
        message: expect.stringContaining(`No route ${method} ${BASE}/${location.id}.`),
      })
      expect(res.body.message).toContain('POST /admin/v1/locations/bulk (many at once)')
      expect(res.body.message).not.toContain('lives under')
    }
    expect((await get(location.id)).body.location).toEqual(location)
    // Outside /admin/v1, where it is.
    expect((await env.call('GET', '/admin/locations')).body.message).toBe(
      'No route GET /admin/locations. The Management API lives under /admin/v1.',
    )
  })
})

describe('the change log', () => {
  test('create, update and delete each append one row for the location', async () => {
    expect(locationChanges()).toEqual([])
    const l = await created()
    const row = { locator_id: env.locatorId, entity: 'location', entity_id: l.id }
    expect(locationChanges()).toEqual([{ ...row, op: 'upsert' }])
    await update(l.id, { name: 'Changed' })
    expect(locationChanges()).toEqual([
      { ...row, op: 'upsert' },
      { ...row, op: 'upsert' },
    ])
    await remove(l.id)
    expect(locationChanges()).toEqual([
      { ...row, op: 'upsert' },
      { ...row, op: 'upsert' },
      { ...row, op: 'delete' },
    ])
  })

  test('an update that changes nothing (a record sent back as GET gave it, or a field sent as it is) writes nothing: updated_at, the change log and the public ETag stay', async () => {
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    const token = env.store.locators.get(env.locatorId)!.publicToken
    addCustomField(env.store, env.locatorId, { id: 'floor', name: 'Floor', type: 'number' })
    const l = await created(
      storeBody({
        tags: ['Coffee', 'Tea'],
        contact: { phone: '1', email: 'a@example.com' },
        hours: { monday: 'closed' },
        custom_fields: { floor: '2' },
      }),
    )
    const etag = async () =>
      (await env.call('GET', `/public/v1/${token}/locations?all=true`, { key: null })).headers.get('etag')
    const before = { etag: await etag(), changes: locationChanges().length }
    await Bun.sleep(2) // so a new updated_at would differ
    const { id, created_at, updated_at, geocoding, ...whole } = l
    for (const body of [
      whole,
      { name: l.name },
      { tags: ['Coffee', 'Tea'] },
      { contact: { email: 'a@example.com', phone: '1' } },
      { status: 'published', hours: { monday: 'closed', friday: '' } },
    ]) {
      const res = await update(l.id, body)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ success: true, location: l })
    }
    expect({ etag: await etag(), changes: locationChanges().length }).toEqual(before)
    // A change of one of them is a change: written, logged, a new ETag.
    const changed = await update(l.id, { tags: ['Tea', 'Coffee'] })
    expect(changed.body.location.updated_at > l.updated_at).toBe(true)
    expect(locationChanges().length).toBe(before.changes + 1)
    expect(await etag()).not.toBe(before.etag)
  })

  test('an address sent again is geocoded again; the same point found writes nothing a response shows (updated_at, change log), only the new geocoding time', async () => {
    const l = await created({ name: 'Geocoded', address: WHITE_HOUSE })
    const geocodedAt = () => env.store.locations.get(env.locatorId, l.id)!.geocodedAt
    env.store.db.run('DELETE FROM geocode_cache') // so the geocoder is asked again, not the cache
    env.store.db.run("UPDATE locations SET geocoded_at = '2020-01-01T00:00:00.000Z' WHERE id = ?", [l.id])
    const changes = locationChanges().length
    const res = await update(l.id, { address: WHITE_HOUSE })
    expect(res.body).toEqual({ success: true, location: l })
    expect(env.geocoder.calls).toEqual([WHITE_HOUSE, WHITE_HOUSE])
    expect(locationChanges().length).toBe(changes)
    expect(geocodedAt()! > '2020-01-01T00:00:00.000Z').toBe(true)
  })

  test('change seqs increase with every write', async () => {
    const { changes } = env.store
    const start = changes.lastSeq()
    const l = await created()
    const seqs = [changes.lastSeq()]
    for (const name of ['x', 'y']) {
      expect((await update(l.id, { name })).status).toBe(200)
      seqs.push(changes.lastSeq())
    }
    // Each write's change is the newest in the log when it is made, and the log holds the three in that order.
    expect([start, ...seqs].every((seq, i, all) => i === 0 || seq > all[i - 1]!)).toBe(true)
    expect(
      changes
        .since(start)
        .filter((c) => c.entity === 'location' && c.entityId === l.id)
        .map((c) => c.seq),
    ).toEqual(seqs)
  })

  test('rejected requests append nothing and change no row', async () => {
    const l = await created()
    const refused: (() => Promise<Res>)[] = [
      () => create({ name: 'No address' }),
      () => create({ name: 'X', address: 'Unknown place 999' }),
      () => create(storeBody({ description: 'x'.repeat(300 * 1024) })),
      () => env.call('POST', BASE, { body: '{', headers: { 'content-type': 'application/json' } }),
      () => env.call('POST', BASE, { body: storeBody(), key: null }),
      () => update(l.id, {}),
      () => update(l.id, { image_url: 'nope' }),
      () => update(l.id, { address: 'Unknown place 999' }),
      () => update('loc_doesnotexist0000', { name: 'x' }),
      () => remove('loc_doesnotexist0000'),
    ]
    for (const run of refused) await expectNoChange(run)
  })

  test('the row and its change are one transaction: a failing change-log append undoes the write', async () => {
    const l = await created()
    const before = snapshot()
    env.store.db.exec(
      "CREATE TRIGGER refuse_changes BEFORE INSERT ON changes BEGIN SELECT RAISE(ABORT, 'change log unavailable'); END",
    )

    const results = [
      await create(storeBody({ name: 'Never' })),
      await update(l.id, { name: 'Never' }),
      await remove(l.id),
    ]
    for (const res of results) {
      expect(res.status).toBe(500)
      expect(res.body).toEqual({ success: false, error: 'error', message: expect.any(String) })
      expect(JSON.stringify(res.body)).not.toContain('change log unavailable')
    }
    expect(snapshot()).toEqual(before)

    env.store.db.exec('DROP TRIGGER refuse_changes')
    expect((await get(l.id)).body.location).toEqual(l)
  })
})
