// POST /admin/v1/locations validation: each 422 validation_error by field, type, URL, custom
// field and coordinate range, all reported together, with nothing stored.
import { test, expect, describe } from 'bun:test'
import { addCustomField } from '../../src/operator'
import { storeBody } from '../helpers'
import {
  withEnv,
  env,
  BASE,
  create,
  update,
  get,
  created,
  expectValidation,
  expectNoChange,
  defineAllCustomFieldTypes,
} from './locations-fixture'

withEnv()

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

  test('control characters (NUL, BEL, escape) are refused in any text; tabs and line breaks are not', async () => {
    const res = await expectNoChange(() =>
      create(
        storeBody({
          name: 'B\u0000C',
          tags: ['ok', 'x\u001b[31m'],
          contact: { phone: '+1\u0007' },
          custom_fields: {},
          description: 'Line one\nLine two\tend',
        }),
      ),
    )
    expectValidation(res, ['name', 'tags.1', 'contact.phone'])
    expect(res.body.details.name).toEqual([
      'The name field may not contain control characters; it has U+0000 at character 2.',
    ])
    expect(res.body.details['tags.1']).toEqual([
      'The tags.1 field may not contain control characters; it has U+001B at character 2.',
    ])
    const fine = await create(storeBody({ description: 'Line one\r\nLine two\tend' }))
    expect(fine.status).toBe(201)
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
    expect(res.body.details.name).toEqual(['The name field must be a string: send 5 as "5".'])
    expect(res.body.details.tags.join(' ')).toMatch(/must be an array/i)
  })

  test('coordinates sent as strings (a CSV cell not made a number): the refusal says to drop the quotes', async () => {
    const res = await expectNoChange(() => create(storeBody({ coordinates: { lat: '52.5', lng: ' -3,7 ' } })))
    expect(res.body.details).toEqual({
      'coordinates.lat': [
        'The coordinates.lat field must be a number; got "52.5", a string: send 52.5, without quotes.',
      ],
      'coordinates.lng': ['The coordinates.lng field must be a number; got "-3,7".'],
    })
  })

  test('a coordinate sent as a string out of range: the refusal gives the range, not the number to send', async () => {
    const res = await expectNoChange(() => create(storeBody({ coordinates: { lat: '95', lng: '200.5' } })))
    expect(res.body.details).toEqual({
      'coordinates.lat': ['The coordinates.lat field must be a number between -90 and 90; got "95", a string.'],
      'coordinates.lng': ['The coordinates.lng field must be a number between -180 and 180; got "200.5", a string.'],
    })
  })

  test('a map key sent as null (Python None): the refusal says "" is none, not only to leave it out', async () => {
    const res = await expectNoChange(() => create(storeBody({ contact: { phone: null }, hours: { monday: null } })))
    const none = 'It was sent as null: send "" for none (on an update, "" clears it), or leave the key out.'
    expect(res.body.details).toEqual({
      'contact.phone': [`The contact.phone field must be a string. ${none}`],
      'hours.monday': [`The hours.monday field must be a string. ${none}`],
    })
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
      'The contact.website field must be a valid URL including the protocol (https://...); got "www.example.com".',
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
    expect(res.body.details['custom_fields.floor']).toEqual([
      'The custom_fields.floor field must be a number, written as a string ("12" or "-2.5").',
    ])
  })

  test('a value sent as a JSON number or boolean where a string is due says how to send it', async () => {
    defineAllCustomFieldTypes()
    const res = await expectNoChange(() =>
      create(storeBody({ contact: { phone: 5551234 }, custom_fields: { floor: 3, note: true } })),
    )
    expect(res.body.details).toEqual({
      'contact.phone': ['The contact.phone field must be a string: send 5551234 as "5551234".'],
      'custom_fields.floor': ['The custom_fields.floor field must be a string: send 3 as "3".'],
      'custom_fields.note': ['The custom_fields.note field must be a string: send true as "true".'],
    })
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

  test('a coordinate out of range says the number sent, and asks whether a latitude past 90 is the longitude', async () => {
    const details = async (coordinates: { lat: number; lng: number }) =>
      (await expectNoChange(() => create(storeBody({ coordinates })))).body.details
    // A San Francisco store with its two columns swapped.
    expect(await details({ lat: -122.3949, lng: 37.7946 })).toEqual({
      'coordinates.lat': [
        'The coordinates.lat field must be between -90 and 90; got -122.3949, with 37.7946 as the longitude: are latitude and longitude swapped?',
      ],
    })
    // No latitude swapped in could be 95 or -200.
    expect(await details({ lat: 12, lng: -200 })).toEqual({
      'coordinates.lng': ['The coordinates.lng field must be between -180 and 180; got -200.'],
    })
    expect(await details({ lat: 195, lng: 8.8 })).toEqual({
      'coordinates.lat': ['The coordinates.lat field must be between -90 and 90; got 195.'],
    })
    expect(await details({ lat: 95, lng: 0 })).toEqual({
      'coordinates.lat': ['The coordinates.lat field must be between -90 and 90; got 95.'],
    })
    expect(await details({ lat: 95, lng: 120 })).toEqual({
      'coordinates.lat': ['The coordinates.lat field must be between -90 and 90; got 95.'],
    })
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
    expect(res.body.details['coordinates.lng']).toEqual([
      'The coordinates.lng field is required beside the latitude: give both, or neither.',
    ])
  })

  test('a latitude alone on an update says to give both, or neither: neither keeps the stored point', async () => {
    const before = await created(storeBody({ coordinates: { lat: 39.78, lng: -89.65 } }))
    const res = await expectNoChange(() => update(before.id, { coordinates: { lat: 10 } }))
    expect(res.body.details['coordinates.lng']).toEqual([
      'The coordinates.lng field is required beside the latitude: give both, or neither.',
    ])
    const kept = await update(before.id, { name: 'Renamed' })
    expect(kept.body.location.coordinates).toEqual(before.coordinates)
  })

  test('a null latitude is none given: the missing longitude is not said to be beside it', async () => {
    const res = await expectNoChange(() => create(storeBody({ coordinates: { lat: null } })))
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
