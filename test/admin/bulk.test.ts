// POST /admin/v1/locations/bulk with JSON items: matching by id and external_id, the changes an
// update names, geocoding and kept points, conflicts, dry runs that change nothing, all or nothing.
import { describe, expect, test } from 'bun:test'
import { addCustomField } from '../../src/operator'
import { storeBody } from '../helpers'
import { all, at, bulk, bulkGeocodingMeanwhile, DOWNING, env, snapshot, store, useBulkEnv } from './bulk-fixture'

useBulkEnv()

describe('bulk upsert, JSON', () => {
  test('creates, then matches by external_id: updated only where something changed', async () => {
    const first = await bulk({ locations: [store('S1'), store('S2'), storeBody({ name: 'No code' })] })
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({
      success: true,
      dry_run: false,
      created: 3,
      updated: 0,
      unchanged: 0,
      deleted: 0,
    })
    expect(first.body.results).toEqual([
      {
        index: 0,
        id: expect.stringMatching(/^loc_/),
        external_id: 'S1',
        action: 'created',
        geocoding: null,
        warnings: [],
      },
      {
        index: 1,
        id: expect.stringMatching(/^loc_/),
        external_id: 'S2',
        action: 'created',
        geocoding: null,
        warnings: [],
      },
      {
        index: 2,
        id: expect.stringMatching(/^loc_/),
        external_id: null,
        action: 'created',
        geocoding: null,
        warnings: [],
      },
    ])
    const again = await bulk({ locations: [store('S1'), store('S2', { description: 'Now open late' })] })
    expect(again.body).toMatchObject({ created: 0, updated: 1, unchanged: 1, deleted: 0 })
    expect(again.body.results.map((r: { id: string }) => r.id)).toEqual(
      first.body.results.slice(0, 2).map((r: { id: string }) => r.id),
    )
    expect((await all()).find((l: { external_id: string }) => l.external_id === 'S2').description).toBe('Now open late')
  })

  test('an update says which fields it changes, in a dry run as in the write; unchanged ones and creates say none', async () => {
    addCustomField(env.store, env.locatorId, { id: 'floor', name: 'Floor', type: 'number' })
    const base = { hours: { monday: '9-17', tuesday: '9-17' }, custom_fields: { floor: '1' }, tags: ['a'] }
    await bulk({ locations: [store('S1', base), store('S2', base)] })
    const edits = [
      store('S1', {
        name: 'Moved',
        coordinates: { lat: 41, lng: -3 },
        hours: { monday: '10-18', tuesday: '9-17' },
        custom_fields: { floor: '2' },
        contact: { phone: '+44 20 7946 0000' },
      }),
      store('S2', base),
    ]
    const dry = await bulk({ locations: edits, dry_run: true })
    const changes = ['name', 'coordinates', 'contact.phone', 'hours.monday', 'custom_fields.floor']
    expect(dry.body.results.map((r: any) => [r.action, r.changes])).toEqual([
      ['updated', changes],
      ['unchanged', undefined],
    ])
    const real = await bulk({ locations: edits })
    expect(real.body.results[0].changes).toEqual(changes)
    expect((await bulk({ locations: [store('S3')] })).body.results[0].changes).toBeUndefined()
  })

  test("a field that is not a location's is warned about, not read; an answer's own fields are skipped unsaid", async () => {
    const res = await bulk({ locations: [store('S1', { nmae: 'Typo', Phone: '1' })] })
    expect(res.status).toBe(200)
    expect(res.body.results[0].warnings).toEqual([
      '"nmae", "Phone" are not fields of a location, so not read (the fields: docs/management-api.md, The location).',
    ])
    // The list as GET /locations answers it, sent back: ids, timestamps and geocoding are the answer's.
    const listed = (await env.call('GET', '/admin/v1/locations')).body.locations
    const back = await bulk({ locations: listed })
    expect(back.body).toMatchObject({ unchanged: 1 })
    expect(back.body.results[0].warnings).toEqual([])
  })

  test('an address without coordinates is geocoded, and the result says how', async () => {
    const res = await bulk({
      locations: [
        { external_id: 'W', name: 'White House', address: '1600 Pennsylvania Avenue NW, Washington, DC 20500' },
      ],
    })
    expect(res.body.results[0].geocoding).toEqual({ precision: 'rooftop', source: 'table' })
  })

  test('an address as stored, sent without coordinates, keeps its point: a pin moved by hand survives a sync', async () => {
    const white = {
      external_id: 'W',
      name: 'White House',
      address: '1600 Pennsylvania Avenue NW, Washington, DC 20500',
    }
    const id = (await bulk({ locations: [white] })).body.results[0].id
    await env.call('POST', `/admin/v1/locations/${id}`, { body: { coordinates: { lat: 38.8979, lng: -77.0367 } } })
    const pinned = snapshot()
    const again = await bulk({ locations: [white] })
    expect(again.body.results[0]).toMatchObject({ action: 'unchanged', geocoding: null })
    expect(snapshot()).toEqual(pinned)
    // A new address is geocoded, and its point replaces the pin.
    const moved = await bulk({ locations: [{ ...white, address: '10 Downing Street, London SW1A 2AA' }] })
    expect(moved.body.results[0]).toMatchObject({ action: 'updated', geocoding: { precision: 'rooftop' } })
    expect((await env.call('GET', `/admin/v1/locations/${id}`)).body.location.coordinates).toEqual({
      lat: 51.5034,
      lng: -0.1276,
    })
  })

  test('a kept point whose address another write changed while the request geocoded is a conflict; nothing is written', async () => {
    const white = {
      external_id: 'W',
      name: 'White House',
      address: '1600 Pennsylvania Avenue NW, Washington, DC 20500',
    }
    const id = (await bulk({ locations: [white] })).body.results[0].id
    // Another client moves the White House while this request waits for the geocoder.
    const res = await bulkGeocodingMeanwhile(
      () =>
        env.call('POST', `/admin/v1/locations/${id}`, {
          body: { address: '1 Elsewhere Road', coordinates: { lat: 1, lng: 1 } },
        }),
      { locations: [white, DOWNING] },
    )
    expect(res.status).toBe(409)
    expect(((await res.json()) as any).message).toContain('changed meanwhile')
    // Downing Street is not created; the White House is as the other client left it.
    expect((await all()).map((l: any) => [l.name, l.address])).toEqual([['White House', '1 Elsewhere Road']])
  })

  test('a location matched by external_id and deleted while the request geocoded is a conflict, not a 404; sent again, it is made anew', async () => {
    const id = (await bulk({ locations: [store('G1')] })).body.results[0].id
    // Another client deletes G1 while this request waits for the geocoder.
    const res = await bulkGeocodingMeanwhile(() => env.call('POST', `/admin/v1/locations/${id}/delete`), {
      locations: [store('G1', { name: 'Renamed' }), DOWNING],
    })
    expect(res.status).toBe(409)
    const body = (await res.json()) as any
    expect(body.error).toBe('conflict')
    expect(body.message).toBe(
      `locations[0]: location ${id} was deleted meanwhile; nothing was written. Send the request again.`,
    )
    expect(await all()).toEqual([])
    const again = await bulk({ locations: [store('G1', { name: 'Renamed' })] })
    expect(again.body).toMatchObject({ created: 1 })
  })

  test('a dry run answers what the real run then does, and changes nothing', async () => {
    await bulk({ locations: [store('S1'), store('S2'), store('S3')] })
    const request = {
      locations: [store('S1'), store('S2', { name: 'Changed' }), store('S4')],
      delete_missing: true,
    }
    const before = snapshot()
    const dry = await bulk({ ...request, dry_run: true })
    expect(dry.status).toBe(200)
    expect(snapshot()).toEqual(before)
    const real = await bulk(request)
    const { dry_run: d, results: dryResults, ...dryCounts } = dry.body
    const { dry_run: r, results: realResults, ...realCounts } = real.body
    expect([d, r]).toEqual([true, false])
    expect(dryCounts).toEqual(realCounts)
    expect(dryCounts).toMatchObject({ created: 1, updated: 1, unchanged: 1, deleted: 1 })
    // The same results, except that a dry run has no id for a location it would create.
    expect(dryResults).toEqual(
      realResults.map((x: { action: string; id: string }) => (x.action === 'created' ? { ...x, id: null } : x)),
    )
  })

  test('all or nothing: every failing item named by index and external id in details, nothing written', async () => {
    addCustomField(env.store, env.locatorId, { id: 'floor', name: 'Floor', type: 'number' })
    const held = (await bulk({ locations: [store('H1')] })).body.results[0].id
    const before = snapshot()
    const res = await bulk({
      locations: [
        store('S1'),
        { external_id: 'S2', address: 'x', ...at(2) },
        store('S1'),
        { id: 'loc_0000000000000000', name: 'Gone' },
        'text',
        store('S5', { custom_fields: { floor: 'two' } }),
        { id: held, external_id: 'H1' },
        { id: held, name: 'Twice' },
        store('S8', { external_id: 'x'.repeat(101) }),
        store('S5'), // S5 twice: said though the first S5 has a problem of its own
      ],
    })
    expect(res.status).toBe(422)
    expect(res.body.error).toBe('validation_error')
    expect(res.body.message).toBe('8 of 10 locations cannot be written as sent; nothing was written.')
    expect(res.body.details).toEqual({
      'locations[1].name': ['locations[1] (external_id "S2"): The name field is required.'],
      'locations[2].external_id': ['locations[2] (external_id "S1"): repeats locations[0]; give each store once.'],
      'locations[3].id': [
        'locations[3] ("Gone"): id "loc_0000000000000000" is not a location of this locator. Leave the id out to create it, or give its external_id to match by.',
      ],
      'locations[4]': ['locations[4]: each item must be an object of location fields.'],
      'locations[5].custom_fields.floor': [
        'locations[5] (external_id "S5"): The custom_fields.floor field must be a number, written as a string ("12" or "-2.5").',
      ],
      'locations[7]': [`locations[7] ("Twice"): the same location (${held}) as locations[6]; give each store once.`],
      'locations[8].external_id': [
        `locations[8] (external_id "${'x'.repeat(101)}"): The external_id field may not be greater than 100 characters.`,
      ],
      'locations[9].external_id': [
        'locations[9] (external_id "S5"): the same store code as locations[5]; give each external_id once.',
      ],
    })
    expect(snapshot()).toEqual(before)
  })

  test('an address that cannot be geocoded fails its item, after every other check passed', async () => {
    const before = snapshot()
    const res = await bulk({ locations: [store('S1'), { external_id: 'S2', name: 'Lost', address: 'Nowhere Land' }] })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.details)).toEqual(['locations[1].address'])
    expect(res.body.details['locations[1].address'][0]).toStartWith(
      'locations[1] (external_id "S2"): The address "Nowhere Land" could not be geocoded.',
    )
    expect(snapshot()).toEqual(before)
  })
})
