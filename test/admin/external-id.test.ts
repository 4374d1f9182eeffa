// External ids: the chain's own store code on a location, unique within its locator, found by
// GET /locations?external_id=, shown by the Query API only when the locator turns it on.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { makeEnv, storeBody, type TestEnv } from '../helpers'

let env: TestEnv
beforeEach(() => {
  env = makeEnv()
})
afterEach(() => env.close())

const BASE = '/admin/v1/locations'
const create = (body: unknown, key?: string) => env.call('POST', BASE, { body, key })
const update = (id: string, body: unknown) => env.call('POST', `${BASE}/${id}`, { body })
const rows = () => env.store.db.query('SELECT * FROM locations ORDER BY seq').all()

async function created(over: Record<string, unknown>) {
  const res = await create(storeBody(over))
  expect(res.status).toBe(201)
  return res.body.location
}

describe('external_id on create and update', () => {
  test('is stored as sent, and null when not sent', async () => {
    const a = await created({ external_id: 'S-001' })
    const b = await created({})
    expect(a.external_id).toBe('S-001')
    expect(b.external_id).toBeNull()
    expect((await env.call('GET', `${BASE}/${a.id}`)).body.location.external_id).toBe('S-001')
  })

  test('an update sets, changes, and clears it with null or ""; other fields stay', async () => {
    const a = await created({})
    expect((await update(a.id, { external_id: 'S-1' })).body.location).toMatchObject({
      external_id: 'S-1',
      name: a.name,
    })
    expect((await update(a.id, { external_id: 'S-2' })).body.location.external_id).toBe('S-2')
    expect((await update(a.id, { external_id: null })).body.location.external_id).toBeNull()
    await update(a.id, { external_id: 'S-3' })
    expect((await update(a.id, { external_id: '' })).body.location.external_id).toBeNull()
  })

  test('a record sent back as GET gave it (external_id included) changes nothing', async () => {
    const a = await created({ external_id: 'S-9' })
    const before = rows()
    const res = await update(a.id, a)
    expect(res.status).toBe(200)
    expect(res.body.location).toEqual(a)
    expect(rows()).toEqual(before)
  })

  test('a clash is 409 conflict naming the location that has it, and writes nothing', async () => {
    const a = await created({ external_id: 'S-1', name: 'Holder' })
    const b = await created({ external_id: 'S-2' })
    const before = rows()
    const onCreate = await create(storeBody({ external_id: 'S-1' }))
    expect(onCreate.status).toBe(409)
    expect(onCreate.body).toMatchObject({ success: false, error: 'conflict' })
    expect(onCreate.body.message).toContain(a.id)
    expect(onCreate.body.message).toContain('"Holder"')
    const onUpdate = await update(b.id, { external_id: 'S-1', name: 'Renamed' })
    expect(onUpdate.status).toBe(409)
    expect(onUpdate.body.message).toContain(a.id)
    expect(rows()).toEqual(before)
    // A location keeps its own external id without a clash with itself.
    expect((await update(a.id, { external_id: 'S-1', name: 'Holder 2' })).status).toBe(200)
  })

  test('the same external id in another locator is no clash', async () => {
    await created({ external_id: 'S-1' })
    const other = createLocator(env.store, 'Other')
    const res = await create(storeBody({ external_id: 'S-1' }), other.secret)
    expect(res.status).toBe(201)
  })

  test('it is checked like the other fields: length, control characters, type', async () => {
    const long = await create(storeBody({ external_id: 'x'.repeat(101) }))
    expect(long.status).toBe(422)
    expect(long.body.details).toEqual({
      external_id: ['The external_id field may not be greater than 100 characters.'],
    })
    expect((await create(storeBody({ external_id: '🏪'.repeat(100) }))).status).toBe(201)
    const tab = await create(storeBody({ external_id: 'A\tB', name: '' }))
    expect(tab.status).toBe(422)
    expect(tab.body.details.external_id[0]).toContain('control characters')
    expect(tab.body.details.name).toBeDefined()
    const num = await create(storeBody({ external_id: 42 }))
    expect(num.body.details).toEqual({
      external_id: ['The external_id field must be a string (or null for none): send 42 as "42".'],
    })
  })

  test('surrounding spaces are trimmed, as on every field', async () => {
    const a = await created({ external_id: '  S-7 ' })
    expect(a.external_id).toBe('S-7')
    expect((await create(storeBody({ external_id: 'S-7' }))).status).toBe(409)
  })
})

describe('GET /locations?external_id=', () => {
  test('finds the one location with it, or none', async () => {
    await created({ external_id: 'S-1' })
    const b = await created({ external_id: 'S-2', status: 'draft' })
    const found = await env.call('GET', `${BASE}?external_id=S-2`)
    expect(found.status).toBe(200)
    expect(found.body.locations.map((l: { id: string }) => l.id)).toEqual([b.id])
    expect(found.body.pagination).toMatchObject({ total: 1, total_pages: 1, next: null, previous: null })
    const none = await env.call('GET', `${BASE}?external_id=S-3`)
    expect(none.body.locations).toEqual([])
    expect(none.body.pagination.total).toBe(0)
    // With a status filter, both must hold.
    expect((await env.call('GET', `${BASE}?external_id=S-2&status=published`)).body.locations).toEqual([])
    expect((await env.call('GET', `${BASE}?external_id=S-2&status=draft`)).body.pagination.total).toBe(1)
  })

  test('found as written: "Café" typed with a combining accent, or with spaces around, finds "Café"', async () => {
    const cafe = await created({ external_id: 'Cafe\u0301 2' })
    for (const typed of ['Caf\u00e9 2', 'Cafe\u0301 2', ' Caf\u00e9 2 ']) {
      const res = await env.call('GET', `${BASE}?external_id=${encodeURIComponent(typed)}`)
      expect(res.body.locations.map((l: { id: string }) => l.id)).toEqual([cafe.id])
    }
  })

  test('pagination links keep the filter, encoded', async () => {
    await created({ external_id: 'A&B 1' })
    const res = await env.call('GET', `${BASE}?external_id=${encodeURIComponent('A&B 1')}&page=2&limit=5`)
    expect(res.body.locations).toEqual([])
    expect(res.body.pagination.previous).toBe('/admin/v1/locations?page=1&limit=5&external_id=A%26B%201')
  })

  test('one no location can have, empty or too long, is 400 invalid_request', async () => {
    await created({ external_id: 'S-1' })
    for (const [value, got] of [
      ['', 'an empty one'],
      ['%20', 'an empty one'],
      ['x'.repeat(101), '101 characters'],
    ]) {
      const res = await env.call('GET', `${BASE}?external_id=${value}`)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({
        error: 'invalid_request',
        message: `The external_id parameter must be 1 to 100 characters; got ${got}. Leave it out to list every location.`,
      })
    }
    expect((await env.call('GET', `${BASE}?external_id=${'x'.repeat(100)}`)).status).toBe(200)
  })

  test('given twice is 400 invalid_request', async () => {
    const res = await env.call('GET', `${BASE}?external_id=a&external_id=b`)
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('invalid_request')
    expect(res.body.message).toContain('external_id')
  })
})

describe('external_id in the Query API', () => {
  const publicGet = async (path: string) => {
    const token = env.store.locators.get(env.locatorId)!.publicToken
    const res = await env.app.handle(new Request(`http://localhost/public/v1/${token}${path}`))
    return (await res.json()) as any
  }

  test('is hidden unless the locator turns it on, and follows the setting both ways', async () => {
    setLocatorSettings(env.store, env.locatorId, { queryApi: 'on' })
    const a = await created({ external_id: 'S-1' })
    const one = () => publicGet(`/locations/${a.id}`)
    const all = () => publicGet('/locations?all=true')
    expect((await one()).data.location).not.toHaveProperty('external_id')
    expect((await all()).data.locations[0]).not.toHaveProperty('external_id')
    setLocatorSettings(env.store, env.locatorId, { publicExternalId: 'on' })
    expect((await one()).data.location.external_id).toBe('S-1')
    expect((await all()).data.locations[0].external_id).toBe('S-1')
    const b = await created({})
    expect((await publicGet(`/locations/${b.id}`)).data.location.external_id).toBeNull()
    setLocatorSettings(env.store, env.locatorId, { publicExternalId: 'off' })
    expect((await one()).data.location).not.toHaveProperty('external_id')
  })
})
