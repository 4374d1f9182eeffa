// The opening fields of a location through the Management API: its time zone (from its
// coordinates, unless set), its dated exceptions (special_hours), and the hours it could not read
// (hours_unread), which a sync script can fix.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { makeEnv, storeBody, type TestEnv } from '../helpers'

let env: TestEnv
beforeEach(() => {
  env = makeEnv()
})
afterEach(() => env.close())

const BASE = '/admin/v1/locations'
const BERLIN = { lat: 52.52, lng: 13.405 }
const NEW_YORK = { lat: 40.7128, lng: -74.006 }
const create = (body: unknown) => env.call('POST', BASE, { body })
const update = (id: string, body: unknown) => env.call('POST', `${BASE}/${id}`, { body })
const rows = () => env.store.db.query('SELECT * FROM locations ORDER BY seq').all()

async function created(over: Record<string, unknown>) {
  const res = await create(storeBody({ coordinates: BERLIN, ...over }))
  expect(res.status).toBe(201)
  return res.body.location
}

/** The request fails with 422 and these fields in its details, and writes nothing. */
async function refused(send: () => Promise<{ status: number; body: any }>, fields: string[]) {
  const before = rows()
  const res = await send()
  expect(res.status).toBe(422)
  expect(res.body.error).toBe('validation_error')
  expect(Object.keys(res.body.details).sort()).toEqual([...fields].sort())
  expect(rows()).toEqual(before)
  return res.body.details as Record<string, string[]>
}

describe('timezone', () => {
  test('comes from the coordinates, and follows them', async () => {
    const a = await created({})
    expect(a.timezone).toBe('Europe/Berlin')
    expect((await update(a.id, { coordinates: NEW_YORK })).body.location.timezone).toBe('America/New_York')
  })

  test('a zone set is kept in its IANA spelling and shown, whatever the coordinates; null gives the coordinates back', async () => {
    const a = await created({ timezone: 'america/new_york' })
    expect(a.timezone).toBe('America/New_York')
    expect((await env.call('GET', `${BASE}/${a.id}`)).body.location.timezone).toBe('America/New_York')
    expect((await update(a.id, { coordinates: { lat: 48.14, lng: 11.58 } })).body.location.timezone).toBe(
      'America/New_York',
    )
    expect((await update(a.id, { timezone: null })).body.location.timezone).toBe('Europe/Berlin')
    expect((await update(a.id, { timezone: 'Asia/Tokyo' })).body.location.timezone).toBe('Asia/Tokyo')
    expect((await update(a.id, { timezone: '' })).body.location.timezone).toBe('Europe/Berlin')
  })

  test('a zone equal to the coordinates one is not kept apart: it follows them after', async () => {
    const a = await created({ timezone: 'Europe/Berlin' })
    expect((await update(a.id, { coordinates: NEW_YORK })).body.location.timezone).toBe('America/New_York')
  })

  test('anything but an IANA zone name is refused, naming the field, and nothing is written', async () => {
    for (const zone of ['Mars/Olympus', '+01:00', 'CEST now', 'Europe/Berlin; DROP']) {
      const details = await refused(() => create(storeBody({ coordinates: BERLIN, timezone: zone })), ['timezone'])
      expect(details.timezone![0]).toContain('IANA time zone name')
    }
    for (const [zone, message] of [
      [42, 'The timezone field must be a string or null; got 42.'],
      [{ id: 'Europe/Berlin' }, 'The timezone field must be a string or null; got {"id":"Europe/Berlin"}.'],
      ['Europe/'.repeat(10), 'The timezone field may not be greater than 64 characters.'],
    ] as const) {
      const details = await refused(() => create(storeBody({ timezone: zone })), ['timezone'])
      expect(details.timezone![0]).toBe(message)
    }
    const a = await created({})
    await refused(() => update(a.id, { timezone: 'Nowhere/Special' }), ['timezone'])
  })
})

describe('special_hours', () => {
  test('dates with their hours are stored, merged on update, and cleared with ""', async () => {
    const a = await created({ special_hours: { '2026-12-24': '10:00-14:00', '2026-12-25': 'closed' } })
    expect(a.special_hours).toEqual({ '2026-12-24': '10:00-14:00', '2026-12-25': 'closed' })
    const b = (await update(a.id, { special_hours: { '2026-12-31': '10:00-16:00', '2026-12-24': '' } })).body.location
    expect(b.special_hours).toEqual({ '2026-12-25': 'closed', '2026-12-31': '10:00-16:00' })
  })

  test('a key that is not a real date is refused, each named', async () => {
    const details = await refused(
      () =>
        create(
          storeBody({ special_hours: { '2026-02-30': 'closed', '24/12/2026': 'closed', '2026-12-24': 'closed' } }),
        ),
      ['special_hours.2026-02-30', 'special_hours.24/12/2026'],
    )
    expect(details['special_hours.2026-02-30']![0]).toContain('YYYY-MM-DD')
    const many = Object.fromEntries(
      Array.from({ length: 367 }, (_, i) => [new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10), 'closed']),
    )
    await refused(() => create(storeBody({ special_hours: many })), ['special_hours'])
  })
})

describe('hours_unread', () => {
  test('names the days and dates whose text was not read; they are kept as sent', async () => {
    const a = await created({
      hours: { monday: '9-5', tuesday: 'by appointment', wednesday: 'Geschlossen', thursday: '' },
      special_hours: { '2026-12-24': 'ask us', '2026-12-25': 'closed' },
    })
    expect(a.hours_unread).toEqual(['tuesday', '2026-12-24'])
    expect(a.hours.tuesday).toBe('by appointment')
    const fixed = await update(a.id, { hours: { tuesday: '10:00-18:00' }, special_hours: { '2026-12-24': '' } })
    expect(fixed.body.location.hours_unread).toEqual([])
  })

  test('reads times with seconds of none, as databases and spreadsheets export them', async () => {
    const a = await created({
      hours: {
        monday: '09:00:00-18:00:00',
        tuesday: '09:00:00 - 12:30:00, 13:30:00 - 18:00:00',
        wednesday: '9:00:00 AM-6:00:00 PM',
        thursday: '09:00:30-18:00:00',
      },
      special_hours: { '2026-12-24': '09:00:00-14:00:00' },
    })
    expect(a.hours_unread).toEqual(['thursday'])
  })
})

test('an export imported again through the bulk endpoint changes nothing', async () => {
  await created({ external_id: 'A', timezone: 'Asia/Tokyo', special_hours: { '2026-12-24': '10-14' } })
  await created({ external_id: 'B', hours: { monday: 'by appointment' } })
  await created({ external_id: 'C', coordinates: NEW_YORK })
  const exported = (await env.call('GET', `${BASE}/export`)).body.locations
  const before = rows()
  const again = await env.call('POST', `${BASE}/bulk`, { body: { locations: exported } })
  expect(again.status).toBe(200)
  expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 3 })
  expect(rows()).toEqual(before)
})

test('the bulk endpoint warns of each unread day or date, in a dry run too', async () => {
  for (const dryRun of [true, false]) {
    const res = await env.call('POST', `${BASE}/bulk`, {
      body: {
        dry_run: dryRun,
        locations: [
          storeBody({
            external_id: 'W',
            coordinates: BERLIN,
            hours: { friday: 'ask us' },
            special_hours: { '2026-12-24': '?' },
          }),
          storeBody({ external_id: 'OK', coordinates: BERLIN, hours: { friday: '9-17' } }),
        ],
      },
    })
    expect(res.status).toBe(200)
    expect(res.body.results[0].warnings).toEqual([
      'hours.friday "ask us" could not be read as opening hours: it is kept, and counts as unknown (docs/management-api.md, Opening hours).',
      'special_hours.2026-12-24 "?" could not be read as opening hours: it is kept, and counts as unknown (docs/management-api.md, Opening hours).',
    ])
    expect(res.body.results[1].warnings).toEqual([])
  }
})
