// POST /admin/v1/locations/bulk with delete items ({"external_id": ..., "delete": true}, or by id):
// deleted with the rest, all or nothing, in dry runs too; one already gone is reported, not refused.
import { describe, expect, test } from 'bun:test'
import { all, bulk, env, snapshot, store, useBulkEnv } from './bulk-fixture'

useBulkEnv()

type Listed = { id: string; external_id: string | null; name: string }
const codes = async () => ((await all()) as Listed[]).map((l) => l.external_id).sort()
const idOf = async (code: string) => ((await all()) as Listed[]).find((l) => l.external_id === code)!.id

describe('bulk upsert, delete items', () => {
  test('deletes by external_id and by id beside creates and updates, counted and reported in item order', async () => {
    await bulk({ locations: [store('S1'), store('S2'), store('S3')] })
    const s3 = await idOf('S3')
    const res = await bulk({
      locations: [
        { external_id: 'S1', delete: true },
        store('S2', { name: 'Renamed' }),
        { id: s3, delete: true },
        store('S4'),
      ],
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ dry_run: false, created: 1, updated: 1, unchanged: 0, deleted: 2, absent: 0 })
    expect(res.body.results.map((r: { index: number; action: string }) => [r.index, r.action])).toEqual([
      [0, 'deleted'],
      [1, 'updated'],
      [2, 'deleted'],
      [3, 'created'],
    ])
    expect(res.body.results[2]).toEqual({
      index: 2,
      id: s3,
      external_id: 'S3',
      name: 'Store S3',
      action: 'deleted',
      geocoding: null,
      warnings: [],
    })
    expect(await codes()).toEqual(['S2', 'S4'])
    expect((await env.call('GET', `/admin/v1/locations/${s3}`)).status).toBe(404)
  })

  test('a dry run answers the same and deletes nothing', async () => {
    await bulk({ locations: [store('S1'), store('S2')] })
    const before = snapshot()
    const body = { locations: [{ external_id: 'S1', delete: true }, store('S2')] }
    const dry = await bulk({ ...body, dry_run: true })
    expect(dry.body).toMatchObject({ dry_run: true, deleted: 1, unchanged: 1 })
    expect(snapshot()).toEqual(before)
    const real = await bulk(body)
    expect({ ...real.body, dry_run: true }).toEqual(dry.body)
    expect(await codes()).toEqual(['S2'])
  })

  test('one already gone is no error: reported as absent, so a sync run again goes through', async () => {
    await bulk({ locations: [store('S1'), store('S2')] })
    const s1 = await idOf('S1')
    const body = { locations: [{ id: s1, delete: true }, { external_id: 'S9', delete: true }, store('S2')] }
    const first = await bulk(body)
    expect(first.body).toMatchObject({ deleted: 1, absent: 1, unchanged: 1 })
    expect(first.body.results[1]).toEqual({
      index: 1,
      id: null,
      external_id: 'S9',
      action: 'absent',
      geocoding: null,
      warnings: ['No location of this locator has the external_id "S9": there was nothing to delete.'],
    })
    const again = await bulk(body)
    expect(again.body).toMatchObject({ deleted: 0, absent: 2, unchanged: 1 })
    expect(again.body.results[0].warnings).toEqual([
      `No location of this locator has the id "${s1}": there was nothing to delete.`,
    ])
  })

  test('a bad delete item, or one naming a location another item names, is refused, nothing written', async () => {
    await bulk({ locations: [store('S1'), store('S2'), store('S3')] })
    const s1 = await idOf('S1')
    const before = snapshot()
    const res = await bulk({
      locations: [
        { external_id: 'S1', delete: true },
        { external_id: 'S2', delete: 'true' },
        { external_id: 'S3', name: 'Gone', delete: true },
        { delete: true },
        { id: 'STORE-7', delete: true },
        { id: s1, external_id: 'S2', delete: true },
        { external_id: 'S1', delete: true },
        store('S1', { name: 'Updated' }),
      ],
    })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe('7 of 8 locations cannot be written as sent; nothing was written.')
    expect(res.body.details).toEqual({
      'locations[1].delete': [
        'locations[1] (external_id "S2"): The delete field must be true or false; got "true", a string: send true, without quotes.',
      ],
      'locations[2]': [
        'locations[2] (external_id "S3"): a delete item names its location by id or external_id, nothing else: leave out "name", or leave out delete to update the location.',
      ],
      'locations[3]': ['locations[3]: a delete item needs the id or the external_id of the location to delete.'],
      'locations[4].id': [
        'locations[4]: id "STORE-7" is not an id of this service (loc_...): to delete by your own store code, give it as external_id.',
      ],
      'locations[5].external_id': [
        `locations[5] (external_id "S2"): id ${s1} is the location with the external_id "S1", not "S2": give one of them.`,
      ],
      'locations[6]': [
        `locations[6] (external_id "S1"): deletes location ${s1}, as locations[0] does; give each delete once.`,
      ],
      // Deleted and updated in one request: refused, as a location updated twice is.
      'locations[7]': [
        `locations[7] (external_id "S1"): writes location ${s1} ("Store S1"), which locations[0] deletes: a request writes a location or deletes it, so give one of them.`,
      ],
    })
    expect(snapshot()).toEqual(before)
  })

  test('an id of no shape of ours beside an external_id is refused, told that the external_id names the location', async () => {
    await bulk({ locations: [store('S2')] })
    const res = await bulk({ locations: [{ id: '7', external_id: 'S2', delete: true }] })
    expect(res.body.details).toEqual({
      'locations[0].id': [
        'locations[0] (external_id "S2"): id "7" is not an id of this service (loc_...): leave the id out, and the external_id "S2" names the location to delete.',
      ],
    })
  })

  test('the external_id of a delete item is held to the rules of every external_id, as no store can have another', async () => {
    await bulk({ locations: [store('S1')] })
    const before = snapshot()
    const long = 'S'.repeat(101)
    const res = await bulk({
      locations: [
        { external_id: long, delete: true },
        { external_id: 'S\u00071', delete: true },
        { external_id: 'S1', delete: true },
      ],
    })
    expect(res.status).toBe(422)
    expect(res.body.details).toEqual({
      'locations[0].external_id': [
        `locations[0] (external_id ${JSON.stringify(long)}): The external_id field may not be greater than 100 characters.`,
      ],
      'locations[1].external_id': [
        'locations[1] (external_id "S\\u00071"): The external_id field may not contain control characters (tabs, line breaks...).',
      ],
    })
    expect(snapshot()).toEqual(before)
  })

  test('a whole row of an export marked delete is one problem of its item, naming the fields to leave out', async () => {
    await bulk({ locations: [store('S1'), store('S2')] })
    const before = snapshot()
    const rows = (await env.call('GET', '/admin/v1/locations/export')).body.locations
    const res = await bulk({ locations: rows.map((row: Record<string, unknown>) => ({ ...row, delete: true })) })
    expect(res.status).toBe(422)
    const extra = Object.keys(rows[0]).filter((k) => k !== 'id' && k !== 'external_id')
    const named = `${extra
      .slice(0, 5)
      .map((k) => `"${k}"`)
      .join(', ')} and ${extra.length - 5} more`
    const problem = (i: number) =>
      `locations[${i}] (external_id "S${i + 1}"): a delete item names its location by id or external_id, nothing else: leave out ${named}, or leave out delete to update the location.`
    expect(res.body.details).toEqual({ 'locations[0]': [problem(0)], 'locations[1]': [problem(1)] })
    expect(snapshot()).toEqual(before)
  })

  test('an external_id that is not a string is refused in the same words on a delete item and an upsert item', async () => {
    const res = await bulk({
      locations: [
        { external_id: 42, delete: true },
        store('S1', { external_id: 42 }),
        { external_id: { code: 'S2' }, delete: true },
        store('S3', { external_id: ['S3'] }),
      ],
    })
    expect(res.status).toBe(422)
    const number = 'The external_id field must be a string (or null for none): send 42 as "42".'
    expect(res.body.details).toEqual({
      'locations[0].external_id': [`locations[0]: ${number}`],
      'locations[1].external_id': [`locations[1] ("Store S1"): ${number}`],
      'locations[2].external_id': [
        'locations[2]: The external_id field must be a string (or null for none); got {"code":"S2"}.',
      ],
      'locations[3].external_id': [
        'locations[3] ("Store S3"): The external_id field must be a string (or null for none); got ["S3"].',
      ],
    })
  })

  test("two delete items of one id are refused even when no location has it, as two of one external_id are, in a delete's words", async () => {
    await bulk({ locations: [store('S1')] })
    const gone = 'loc_0000000000000000'
    const res = await bulk({
      locations: [
        { id: gone, delete: true },
        { external_id: 'S9', delete: true },
        { id: gone, delete: true },
        { external_id: 'S9', delete: true },
      ],
    })
    expect(res.status).toBe(422)
    expect(res.body.details).toEqual({
      'locations[2]': [`locations[2]: deletes location ${gone}, as locations[0] does; give each delete once.`],
      'locations[3].external_id': [
        'locations[3] (external_id "S9"): deletes store code "S9", as locations[1] does; give each delete once.',
      ],
    })
  })

  test('delete: false is an ordinary item; a keyed request is replayed, not run again', async () => {
    await bulk({ locations: [store('S1'), store('S2')] })
    const plain = await bulk({ locations: [store('S1', { name: 'Kept', delete: false })] })
    expect(plain.body).toMatchObject({ updated: 1, deleted: 0 })
    expect(plain.body.results[0].warnings).toEqual([])
    const send = () =>
      env.call('POST', '/admin/v1/locations/bulk', {
        body: { locations: [{ external_id: 'S2', delete: true }] },
        headers: { 'idempotency-key': 'delete-s2' },
      })
    const first = await send()
    const again = await send()
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.body).toEqual(first.body)
    expect(first.body).toMatchObject({ deleted: 1, absent: 0 })
  })

  test('with delete_missing: both delete; deleting every coded location so is still refused', async () => {
    await bulk({ locations: [store('S1'), store('S2'), store('S3')] })
    const res = await bulk({ locations: [store('S1'), { external_id: 'S2', delete: true }], delete_missing: true })
    expect(res.body).toMatchObject({ unchanged: 1, deleted: 2 })
    expect(res.body.results.map((r: { index: number | null }) => r.index)).toEqual([0, 1, null])
    expect(await codes()).toEqual(['S1'])
    await bulk({ locations: [store('S2'), store('S3')] })
    const before = snapshot()
    const wipe = await bulk({ locations: [{ external_id: 'S1', delete: true }], delete_missing: true })
    expect(wipe.status).toBe(422)
    expect(wipe.body.message).toBe(
      'delete_missing would delete all 3 locations with an external_id (the request only deletes); nothing was written.',
    )
    expect(snapshot()).toEqual(before)
  })
})
