// POST /admin/v1/locations/bulk: matching by id and external_id, all or nothing, dry runs that
// change nothing, delete_missing, CSV bodies, and the larger body limit.
import { describe, expect, test } from 'bun:test'
import { cachedGeocoder } from '../../src/geocode/geocoder'
import { addCustomField, createLocator } from '../../src/operator'
import { createApp } from '../../src/server/app'
import { storeBody, tableGeocoder } from '../helpers'
import {
  all,
  at,
  BULK,
  bulk,
  bulkGeocodingMeanwhile,
  csv,
  DOWNING,
  env,
  snapshot,
  store,
  useBulkEnv,
} from './bulk-fixture'

/** How a latitude cell that is no number is told to write it. */
const LAT_FORMS = `Write a decimal number such as 48.8566 or -3.7074 (48°51'24"N, 48.8566 N and 48.8566° are read too).`

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
      'locations[2].external_id': [
        'locations[2] (external_id "S1"): the same store code as locations[0]; give each external_id once.',
      ],
      'locations[3].id': [
        'locations[3] ("Gone"): id "loc_0000000000000000" is not a location of this locator. Leave the id out to create it, or give its external_id to match by.',
      ],
      'locations[4]': ['locations[4]: each item must be an object of location fields.'],
      'locations[5].custom_fields.floor': [
        'locations[5] (external_id "S5"): The custom_fields.floor field must be a number, written as a string ("12" or "-2.5").',
      ],
      'locations[7]': [`locations[7] ("Twice"): the same location (${held}) as locations[6].`],
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

  test('the request itself: locations required, an array, at most 1,000; flags true or false', async () => {
    const cases: [unknown, number, string, string][] = [
      [{}, 422, 'locations', 'The locations field is required.'],
      [{ locations: {} }, 422, 'locations', 'The locations field must be an array.'],
      [{ locations: [], dry_run: 'yes' }, 422, 'dry_run', 'The dry_run field must be true or false.'],
      [{ locations: [], delete_missing: 1 }, 422, 'delete_missing', 'The delete_missing field must be true or false.'],
    ]
    for (const [body, status, field, message] of cases) {
      const res = await bulk(body)
      expect(res.status).toBe(status)
      expect(res.body.details).toEqual({ [field]: [message] })
    }
    const many = await bulk({ locations: Array.from({ length: 1001 }, (_, i) => store(`S${i}`)) })
    expect(many.status).toBe(422)
    expect(many.body.details.locations[0]).toStartWith(
      'The locations field may not have more than 1000 items; got 1001.',
    )
    // A bare array, as the CLI's locations export prints it: said where it goes.
    const array = await bulk([store('S1')])
    expect(array.body.error).toBe('invalid_request')
    expect(array.body.message).toContain(
      "An array of locations (as the CLI's locations export prints) goes in its locations field.",
    )
    expect((await bulk({ locations: [] })).body).toMatchObject({ success: true, created: 0, results: [] })
  })

  test('a misspelt flag is refused, not read as a real run; a body and query string that disagree too', async () => {
    const before = snapshot()
    const misspelt = await bulk({ locations: [store('S1')], dryRun: true, 'delete-missing': true, note: 'x' })
    expect(misspelt.status).toBe(422)
    const takes =
      ': a bulk body is {"locations": [...], "dry_run": false, "delete_missing": false, "max_delete": null}.'
    expect(misspelt.body.details).toEqual({
      dryRun: [`The dryRun field is unknown (did you mean dry_run?)${takes}`],
      'delete-missing': [`The delete-missing field is unknown (did you mean delete_missing?)${takes}`],
      note: [`The note field is unknown${takes}`],
    })
    const disagree = await bulk({ locations: [store('S1')], dry_run: false }, '?dry_run=true')
    expect(disagree.status).toBe(400)
    expect(disagree.body.message).toBe(
      "The dry_run parameter is true and the body's dry_run field is false: send it once.",
    )
    expect(snapshot()).toEqual(before)
    // Said alike in both, it is read.
    const alike = await bulk({ locations: [store('S1')], dry_run: true }, '?dry_run=1')
    expect(alike.body).toMatchObject({ success: true, dry_run: true, created: 1 })
    expect(snapshot()).toEqual(before)
    // A CSV body has only the query string for its flags: a misspelt one is refused there too.
    for (const [query, says] of [
      ['?dry-run=true&delete_missing=true', 'The dry-run parameter is unknown (did you mean dry_run?)'],
      ['?dryRun=1', 'The dryRun parameter is unknown (did you mean dry_run?)'],
      ['?dry_run=true&force=1', 'The force parameter is unknown'],
    ]) {
      for (const res of [
        await csv('external_id,name,lat,lng\nS1,One,1,2\n', query),
        await bulk({ locations: [store('S1')] }, query),
      ]) {
        expect(res.status).toBe(400)
        expect(res.body.message).toBe(`${says}: this route takes dry_run, delete_missing and max_delete.`)
      }
    }
    expect(snapshot()).toEqual(before)
  })

  test('takes 1,000 full locations (a body far over the 256 KiB of other routes); over 8 MiB is 413', async () => {
    const full = (i: number) =>
      store(`S${i}`, { description: 'd'.repeat(2000), tags: ['Coffee', 'Wifi'], hours: { monday: '9-5' } })
    const locations = Array.from({ length: 1000 }, (_, i) => full(i))
    expect(JSON.stringify({ locations }).length).toBeGreaterThan(2 * 1024 * 1024)
    const res = await bulk({ locations })
    expect(res.status).toBe(200)
    expect(res.body.created).toBe(1000)
    const huge = await bulk({ locations: [store('S1', { description: 'x'.repeat(9 * 1024 * 1024) })] })
    expect(huge.status).toBe(413)
    expect(huge.body.message).toContain('8 MiB')
    // Other routes keep their limit.
    const single = await env.call('POST', '/admin/v1/locations', {
      body: storeBody({ description: 'x'.repeat(300_000) }),
    })
    expect(single.status).toBe(413)
  }, 30_000)

  test("a key reaches only its own locator's locations", async () => {
    const other = createLocator(env.store, 'Other')
    await bulk({ locations: [store('S1')] })
    const res = await env.call('POST', BULK, { body: { locations: [store('S1')] }, key: other.secret })
    expect(res.body).toMatchObject({ created: 1 })
    expect(await all()).toHaveLength(1)
  })
})

describe('bulk upsert, CSV', () => {
  const HEADER = 'Store Code;Name;Address;Latitude;Longitude;Tags;Monday;Colour\r\n'

  test('reads the CSV body, flags from the query; unknown columns are reported', async () => {
    const text = `\uFEFF${HEADER}S1;"Corner; Store";"1 Main St, Springfield";39,78;-89,65;Coffee|Wifi;9-17;red\r\nS2;Other;2 Main St;39.79;-89.66;;;blue\r\n`
    const dry = await csv(text, '?dry_run=true')
    expect(dry.body).toMatchObject({ dry_run: true, created: 2, unknown_columns: ['Colour'] })
    // Each result names its row's line as well as its place.
    expect(dry.body.results.map((r: any) => [r.index, r.line, r.external_id])).toEqual([
      [0, 2, 'S1'],
      [1, 3, 'S2'],
    ])
    expect(await all()).toEqual([])
    const res = await csv(text)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ dry_run: false, created: 2, unknown_columns: ['Colour'] })
    const [s1] = await all()
    expect(s1).toMatchObject({
      external_id: 'S1',
      name: 'Corner; Store',
      coordinates: { lat: 39.78, lng: -89.65 },
      tags: ['Coffee', 'Wifi'],
      hours: { monday: '9-17' },
    })
    const deleting = await csv(
      `${HEADER}S1;"Corner; Store";"1 Main St, Springfield";39.78;-89.65;Coffee|Wifi;9-17;red\r\n`,
      '?delete_missing=true',
    )
    expect(deleting.body).toMatchObject({ unchanged: 1, deleted: 1 })
    // A location deleted as missing has no line: it is not in the file.
    expect(deleting.body.results.map((r: any) => ['line' in r, r.index, r.action])).toEqual([
      [true, 0, 'unchanged'],
      [false, null, 'deleted'],
    ])
    // A column named as a custom field fills it once the field is defined.
    addCustomField(env.store, env.locatorId, { id: 'colour', name: 'Colour', type: 'text' })
    const coloured = await csv(
      `${HEADER}S1;"Corner; Store";"1 Main St, Springfield";39.78;-89.65;Coffee|Wifi;9-17;red\r\n`,
    )
    expect(coloured.body).toMatchObject({ updated: 1, unknown_columns: [] })
    expect((await all())[0].custom_fields).toEqual({ colour: 'red' })
  })

  test('problems name the CSV line; a file that is not CSV is 400 naming its line', async () => {
    const text = `name,address,lat,lng,external_id\nGood,a,1,2,G\n"Two\nlines",b,x,2,T\n,c,1,2,E\n`
    const res = await csv(text)
    expect(res.status).toBe(422)
    expect(res.body.details).toEqual({
      // The file's column, as the person wrote it, with the field it gives.
      'line 3.coordinates.lat': [
        `line 3 (external_id "T"): The "lat" column (coordinates.lat) must be a number; got "x". ${LAT_FORMS}`,
      ],
      'line 5.name': ['line 5 (external_id "E"): The "name" column is required.'],
    })
    // Every problem of a row at once: a status not read hides none of the others.
    addCustomField(env.store, env.locatorId, { id: 'parking', name: 'Parkplätze', type: 'number' })
    const many = await csv('Store Code;Name;Address;Status;Parkplätze\nT-1;;a;aktuell;viele\nT-2;Two;b;aktiv;2,5\n')
    expect(Object.keys(many.body.details)).toEqual(['line 2.status', 'line 2.name', 'line 2.custom_fields.parking'])
    expect(many.body.message).toBe('1 of 2 locations cannot be written as sent; nothing was written.')
    expect(await all()).toEqual([])
    // A decimal comma in a number custom field, as in the coordinates; not before three digits,
    // which English writes for thousands ("1,500"): refused, not read as 1.5.
    const thousands = await csv('Store Code;Name;Address;lat;lng;Parkplätze\nT-2;Two;b;1;2;1,500\n')
    expect(Object.keys(thousands.body.details)).toEqual(['line 2.custom_fields.parking'])
    const comma = await csv('Store Code;Name;Address;lat;lng;Parkplätze\nT-2;Two;b;1;2;2,5\nT-3;Three;c;1;2;0,500\n')
    expect(comma.status).toBe(200)
    expect((await all()).map((l: { custom_fields: unknown }) => l.custom_fields)).toEqual([
      { parking: '2.5' },
      { parking: '0.500' }, // a leading 0 is no thousands
    ])
    const broken = await csv('name,address\n"unclosed,a\n')
    expect(broken.status).toBe(400)
    expect(broken.body.error).toBe('invalid_request')
    expect(broken.body.message).toContain('line 2')
  })

  test('a week of hours in one column: split into the days; one naming no day is a problem of its line, nothing written', async () => {
    const bad = await csv(
      'external_id,name,address,lat,lng,Opening Hours\nA,Good,a,1,2,"Mon-Fri 9-18, Sat 10-14"\nB,Bad,b,1,2,on request\n',
    )
    expect(bad.status).toBe(422)
    expect(bad.body.details).toEqual({
      'line 3.hours': [
        'line 3 (external_id "B"): "on request" could not be read as a week of opening hours. Write it as "Mon-Fri 09:00-18:00, Sat 10:00-16:00, Sun closed", or use one column per day (monday ... sunday).',
      ],
    })
    expect(await all()).toEqual([])
    const good = await csv('external_id,name,address,lat,lng,Opening Hours\nA,Good,a,1,2,"Mon-Fri 9-18, Sat 10-14"\n')
    expect(good.body).toMatchObject({ created: 1, unknown_columns: [] })
    const [a] = await all()
    expect(a.hours).toEqual({
      monday: '9-18',
      tuesday: '9-18',
      wednesday: '9-18',
      thursday: '9-18',
      friday: '9-18',
      saturday: '10-14',
      sunday: 'closed', // a day the week leaves out
    })
    expect(a.hours_unread).toEqual([])
    // A day not read keeps its text, unknown, with a warning; the other days are read.
    const kept = await csv(
      'external_id,name,address,lat,lng,Opening Hours\nC,Kept,c,1,2,"Mon-Fri 9-18, Sat on request"\n',
    )
    expect(kept.body.results[0].warnings).toEqual([
      'hours.saturday "on request" is read as by appointment, with no hours: it is kept, and counts as unknown (docs/management-api.md, Opening hours).',
    ])
    const c = (await all()).find((l: { external_id: string }) => l.external_id === 'C')
    expect(c.hours).toMatchObject({ friday: '9-18', saturday: 'on request', sunday: 'closed' })
    expect(c.hours_unread).toEqual(['saturday'])
  })

  test("a special hours column holds all of a location's dates: those left out are cleared; JSON still merges them", async () => {
    const head = 'external_id,name,address,lat,lng,special_hours\n'
    await csv(`${head}A,Shop,a,1,2,2026-12-24 09:00-14:00; 2026-12-25 closed\n`)
    const special = async () => (await all())[0].special_hours
    expect(await special()).toEqual({ '2026-12-24': '09:00-14:00', '2026-12-25': 'closed' })
    expect((await csv(`${head}A,Shop,a,1,2,2026-12-25 closed\n`)).body).toMatchObject({ updated: 1 })
    expect(await special()).toEqual({ '2026-12-25': 'closed' })
    // A JSON item names the dates it changes, as PATCH does.
    await bulk({ locations: [{ external_id: 'A', special_hours: { '2026-12-31': '10-16' } }] })
    expect(await special()).toEqual({ '2026-12-25': 'closed', '2026-12-31': '10-16' })
    expect((await csv(`${head}A,Shop,a,1,2,\n`)).body).toMatchObject({ updated: 1 })
    expect(await special()).toEqual({})
    // Without the column, they are left as they are.
    await bulk({ locations: [{ external_id: 'A', special_hours: { '2026-12-31': '10-16' } }] })
    expect((await csv('external_id,name,address,lat,lng\nA,Shop,a,1,2\n')).body).toMatchObject({ unchanged: 1 })
    expect(await special()).toEqual({ '2026-12-31': '10-16' })
  })

  test('a CSV body sent compressed is refused, whether or not it is', async () => {
    const text = 'external_id,name,address,lat,lng\nZ1,Test,"1 Main St",51.5,-0.1\n'
    for (const body of [text, Bun.gzipSync(new TextEncoder().encode(text))]) {
      const res = await env.app.handle(
        new Request(`http://localhost${BULK}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env.key}`, 'content-type': 'text/csv', 'content-encoding': 'gzip' },
          body,
        }),
      )
      expect(res.status).toBe(400)
      expect(((await res.json()) as any).message).toContain('Send it uncompressed')
    }
    expect(await all()).toEqual([])
  })

  test('a CSV body of more than 1,000 rows is refused at its 1,001st row, the rest unread', async () => {
    const before = snapshot()
    const row = (i: number) => `S${i},Store ${i},${i} Main St,${40 + i / 1000},-3\n`
    const header = 'external_id,name,address,lat,lng\n'
    const rows = Array.from({ length: 1001 }, (_, i) => row(i)).join('')
    // A line past the limit that would be refused if it were read: it is not.
    const res = await csv(`${header}${rows}S,"never closed,a,1,2\n`)
    expect(res.status).toBe(422)
    expect(res.body.details).toEqual({
      locations: [
        "The locations field may not have more than 1000 items; the CSV body has more rows of locations. Send them in several requests (the CLI's locations import takes any number).",
      ],
    })
    expect(snapshot()).toEqual(before)
    // 1,000 rows and blank padding after them are read whole.
    const padded = await csv(`${header}${rows.slice(row(0).length)}${',,,,\n'.repeat(5)}`, '?dry_run=true')
    expect(padded.body).toMatchObject({ success: true, created: 1000 })
  })

  test('a CSV body of 1,000 stores is taken with a totals row below or its header again among them', async () => {
    const header = 'external_id,name,address,lat,lng,staff\n'
    const rows = Array.from({ length: 1000 }, (_, i) => `S${i},Store ${i},${i} Main St,${40 + i / 1000},-3,2\n`)
    const totals = await csv(`${header}${rows.join('')},Total,,,,2000\n`, '?dry_run=true')
    expect(totals.body).toMatchObject({ success: true, created: 1000 })
    const twice = [...rows.slice(0, 500), header, ...rows.slice(500)].join('')
    const again = await csv(`${header}${twice}`, '?dry_run=true')
    expect(again.body).toMatchObject({ success: true, created: 1000 })
    // A store more is one too many, whatever lines no store are among them.
    const more = await csv(`${header}${twice}S,One more,1 Main St,40,-3,2\n,Total,,,,2002\n`, '?dry_run=true')
    expect(more.status).toBe(422)
    expect(more.body.details.locations[0]).toContain('may not have more than 1000 items')
  })

  test('CSV is read only on the bulk route and only as text/csv', async () => {
    const res = await env.call('POST', '/admin/v1/locations', {
      body: 'name,address\nA,B\n',
      headers: { 'content-type': 'text/csv' },
    })
    expect(res.status).toBe(422)
    const plain = await env.call('POST', BULK, {
      body: 'name,address\nA,B\n',
      headers: { 'content-type': 'text/plain' },
    })
    expect(plain.status).toBe(400)
    expect(plain.body.message).toContain('text/csv')
  })
})

describe('bulk geocoding warnings', () => {
  test('a point in another country than the row, far from its postcode, or only at city level is warned about', async () => {
    const geocoder = tableGeocoder({
      '1 rue de la paix, 75002 paris, france': {
        lat: 48.87,
        lng: 2.33,
        precision: 'street',
        parts: { country: 'FR', city: 'Paris' },
      },
      '1 high street, springfield, united kingdom': {
        lat: 39.78,
        lng: -89.65,
        precision: 'city',
        parts: { country: 'US', city: 'Springfield' },
      },
      '75002, france': { lat: 43.3, lng: 5.37, precision: 'postcode', parts: { country: 'FR' } },
      'mönckebergstraße 7, 80331 hamburg, deutschland': {
        lat: 53.55,
        lng: 10.0,
        precision: 'city',
        parts: { country: 'DE', city: 'Hamburg' },
      },
      // A postcode the data places at its town (Germany, France, Italy): still its place.
      '80331, deutschland': {
        lat: 48.137,
        lng: 11.575,
        precision: 'city',
        parts: { country: 'DE', postcode: '80331' },
      },
    })
    const app = createApp({
      store: env.store,
      geocoder: cachedGeocoder(geocoder, env.store.geocodeCache),
      config: { maxBodyBytes: 256 * 1024, logRequests: false },
      log: () => {},
    })
    const text =
      'external_id,name,street,postcode,city,country\nP,Paris,1 rue de la Paix,75002,Paris,France\nU,Spring,1 High Street,,Springfield,UK\n' +
      'H,Hamburg,Mönckebergstraße 7,80331,Hamburg,Deutschland\n'
    const res = await app.handle(
      new Request(`http://localhost${BULK}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}`, 'content-type': 'text/csv' },
        body: text,
      }),
    )
    const body = (await res.json()) as any
    expect(res.status).toBe(200)
    expect(body.results[0].warnings).toEqual(['The address was placed 662 km from the place of postcode 75002.'])
    expect(body.results[1].warnings).toEqual([
      'The address was placed only at city level (Springfield): check it, or send coordinates.',
      "The address was placed in US, but the row's country is UK.",
    ])
    expect(body.results[2].warnings).toEqual([
      'The address was placed only at city level (Hamburg): check it, or send coordinates.',
      'The address was placed 612 km from the place of postcode 80331.',
    ])
  })
})
