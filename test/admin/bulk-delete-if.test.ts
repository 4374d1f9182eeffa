// POST /admin/v1/locations/bulk with delete items carrying if_updated_at: a location is deleted
// only while its updated_at is the one sent; changed since, 412 precondition_failed, nothing written.
import { describe, expect, test } from 'bun:test'
import { all, bulk, bulkGeocodingMeanwhile, csv, DOWNING, env, snapshot, store, useBulkEnv } from './bulk-fixture'

useBulkEnv()

type Listed = { id: string; external_id: string | null; updated_at: string }
const read = async (code: string) => ((await all()) as Listed[]).find((l) => l.external_id === code)!
const codes = async () => ((await all()) as Listed[]).map((l) => l.external_id).sort()
/** Another client's edit of the store `id`, a few ms on so its updated_at moves. */
const rename = async (id: string) => {
  await Bun.sleep(3)
  expect((await env.call('POST', `/admin/v1/locations/${id}`, { body: { name: 'Edited by hand' } })).status).toBe(200)
}

describe('bulk upsert, delete items with if_updated_at', () => {
  test("deletes a location whose updated_at is still the one sent, in any offset's writing", async () => {
    await bulk({ locations: [store('S1'), store('S2')] })
    const [s1, s2] = [await read('S1'), await read('S2')]
    // The same instant two hours east of UTC.
    const shifted = new Date(Date.parse(s2.updated_at) + 2 * 3600_000).toISOString().replace('Z', '+02:00')
    const res = await bulk({
      locations: [
        { id: s1.id, delete: true, if_updated_at: s1.updated_at },
        { external_id: 'S2', delete: true, if_updated_at: shifted },
      ],
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ deleted: 2, absent: 0 })
    expect(await codes()).toEqual([])
  })

  test('refuses the whole request with 412 when another write changed a location since, naming each', async () => {
    await bulk({ locations: [store('S1'), store('S2'), store('S3')] })
    const [s1, s2] = [await read('S1'), await read('S2')]
    await rename(s2.id)
    const edited = await read('S2')
    const before = snapshot()
    const body = {
      locations: [
        { id: s1.id, delete: true, if_updated_at: s1.updated_at },
        { id: s2.id, delete: true, if_updated_at: s2.updated_at },
        store('S3', { name: 'Renamed' }),
      ],
    }
    const expected = {
      success: false,
      error: 'precondition_failed',
      message: `locations[1]: location ${s2.id} ("S2") was changed at ${edited.updated_at}, after the if_updated_at sent (${s2.updated_at}); nothing was written.`,
      details: {
        'locations[1].if_updated_at': [
          `The location ${s2.id} ("S2") was changed at ${edited.updated_at}, not at ${s2.updated_at}: another write changed it since it was read. Read it again (GET /admin/v1/locations/${s2.id}); if it is still to go, send its delete with its updated_at now.`,
        ],
      },
    }
    const dry = await bulk({ ...body, dry_run: true })
    expect([dry.status, dry.body]).toEqual([412, expected])
    const res = await bulk(body)
    expect([res.status, res.body]).toEqual([412, expected])
    expect(snapshot()).toEqual(before)
    // Sent again with the updated_at read now, it goes through.
    const again = await bulk({
      locations: [body.locations[0], { id: s2.id, delete: true, if_updated_at: edited.updated_at }],
    })
    expect(again.body).toMatchObject({ deleted: 2 })
    expect(await codes()).toEqual(['S3'])
  })

  test('a change made while the request geocodes, after its checks, is seen as it writes', async () => {
    await bulk({ locations: [store('S1')] })
    const s1 = await read('S1')
    const res = await bulkGeocodingMeanwhile(() => rename(s1.id), {
      locations: [DOWNING, { external_id: 'S1', delete: true, if_updated_at: s1.updated_at }],
    })
    expect(res.status).toBe(412)
    expect(((await res.json()) as any).error).toBe('precondition_failed')
    expect(await codes()).toEqual(['S1'])
  })

  test('an item naming no location is absent whatever its if_updated_at; a bad value is its problem', async () => {
    const gone = await bulk({ locations: [{ external_id: 'S9', delete: true, if_updated_at: '2026-01-01T00:00:00Z' }] })
    expect(gone.body).toMatchObject({ deleted: 0, absent: 1 })
    const bad = await bulk({
      locations: [
        { external_id: 'S9', delete: true, if_updated_at: 'yesterday' },
        { external_id: 'S8', delete: true, if_updated_at: null },
        { external_id: 'S7', delete: true, if_updated_at: '2026-02-30T00:00:00Z' },
        // Python's isoformat() of a naive datetime: no zone.
        { external_id: 'S6', delete: true, if_updated_at: '2026-12-02T02:27:31.441000' },
      ],
    })
    expect(bad.status).toBe(422)
    expect(bad.body.details).toEqual({
      'locations[0].if_updated_at': [
        `locations[0] (external_id "S9"): The if_updated_at field must be the location's updated_at as read, such as "2026-12-02T02:27:31.441Z"; got "yesterday".`,
      ],
      'locations[2].if_updated_at': [
        `locations[2] (external_id "S7"): The if_updated_at field must be the location's updated_at as read, such as "2026-12-02T02:27:31.441Z"; got "2026-02-30T00:00:00Z".`,
      ],
      'locations[3].if_updated_at': [
        `locations[3] (external_id "S6"): The if_updated_at field must be the location's updated_at as read, such as "2026-12-02T02:27:31.441Z"; got "2026-12-02T02:27:31.441000", which names no time zone: add Z, as updated_at is in UTC.`,
      ],
    })
  })

  test('under an Idempotency-Key a conditional delete replays its answer; another condition is another request', async () => {
    await bulk({ locations: [store('S1')] })
    const s1 = await read('S1')
    const headers = { 'idempotency-key': 'delete-s1' }
    const body = { locations: [{ id: s1.id, delete: true, if_updated_at: s1.updated_at }] }
    const first = await env.call('POST', '/admin/v1/locations/bulk', { body, headers })
    expect(first.body).toMatchObject({ deleted: 1 })
    const retry = await env.call('POST', '/admin/v1/locations/bulk', { body, headers })
    expect([retry.status, retry.headers.get('idempotent-replayed'), retry.body]).toEqual([200, 'true', first.body])
    const other = { locations: [{ id: s1.id, delete: true, if_updated_at: '2026-01-01T00:00:00.000Z' }] }
    const reused = await env.call('POST', '/admin/v1/locations/bulk', { body: other, headers })
    expect([reused.status, reused.body.error]).toEqual([422, 'idempotency_key_reused'])
  })

  test('a refusal is not kept under its key: the retry asks again, and is refused while the change stands', async () => {
    await bulk({ locations: [store('S1')] })
    const s1 = await read('S1')
    await rename(s1.id)
    const headers = { 'idempotency-key': 'delete-s1' }
    const body = { locations: [{ id: s1.id, delete: true, if_updated_at: s1.updated_at }] }
    for (let i = 0; i < 2; i++) {
      const res = await env.call('POST', '/admin/v1/locations/bulk', { body, headers })
      expect([res.status, res.headers.get('idempotent-replayed'), res.body.error]).toEqual([
        412,
        null,
        'precondition_failed',
      ])
    }
    expect(await codes()).toEqual(['S1'])
  })

  test("an update item with if_updated_at is refused: the condition is a delete's, never an update's", async () => {
    await bulk({ locations: [store('S1')] })
    const s1 = await read('S1')
    await rename(s1.id)
    const before = snapshot()
    const res = await bulk({ locations: [store('S1', { name: 'Renamed', if_updated_at: s1.updated_at })] })
    expect(res.status).toBe(422)
    expect(res.body.error).toBe('validation_error')
    expect(Object.keys(res.body.details)).toEqual(['locations[0].if_updated_at'])
    expect(res.body.details['locations[0].if_updated_at'][0]).toContain('"delete": true')
    expect(snapshot()).toEqual(before)
    // null is no condition, as on a delete item.
    const plain = await bulk({ locations: [store('S1', { name: 'Renamed', if_updated_at: null })] })
    expect([plain.status, plain.body.updated]).toEqual([200, 1])
  })

  test("a CSV body's if_updated_at column is each delete row's condition; an empty cell is none", async () => {
    await bulk({ locations: [store('S1'), store('S2'), store('S3')] })
    const s1 = await read('S1')
    await rename(s1.id)
    const edited = await read('S1')
    const before = snapshot()
    const rows = (when: string) => `external_id,name,delete,if_updated_at\nS1,,yes,${when}\nS2,,yes,\nS3,Store S3,,\n`
    const res = await csv(rows(s1.updated_at))
    expect([res.status, res.body.error, Object.keys(res.body.details)]).toEqual([
      412,
      'precondition_failed',
      ['line 2.if_updated_at'],
    ])
    expect(snapshot()).toEqual(before)
    const bad = await csv(rows('yesterday'))
    expect([bad.status, Object.keys(bad.body.details)]).toEqual([422, ['line 2.if_updated_at']])
    const again = await csv(rows(edited.updated_at))
    expect([again.status, again.body.unknown_columns]).toEqual([200, []])
    expect(again.body).toMatchObject({ deleted: 2, unchanged: 1 })
    expect(await codes()).toEqual(['S3'])
  })

  test('a delete or if_updated_at cell Excel saved as an error (#N/A) is a problem of its row', async () => {
    await bulk({ locations: [store('S1', { contact: { phone: '+44 113 496 0001' } }), store('S2')] })
    const before = snapshot()
    // The condition lost is no condition to drop; a delete cell lost is no update that clears the phone.
    const res = await csv('external_id,phone,delete,if_updated_at\nS1,,yes,#N/A\nS2,,#WERT!,\n')
    expect([res.status, res.body.details]).toEqual([
      422,
      {
        'line 2.if_updated_at': [
          'line 2 (external_id "S1"): "#N/A" in the "if_updated_at" column is an error Excel saved in place of the value: it is not read. In the spreadsheet, format the column as Text, type the value again, and save.',
        ],
        'line 3.delete': [
          'line 3 (external_id "S2"): "#WERT!" in the "delete" column is an error Excel saved in place of the value: it is not read. In the spreadsheet, format the column as Text, type the value again, and save.',
        ],
      },
    ])
    expect(snapshot()).toEqual(before)
  })

  test('a filled if_updated_at cell on a CSV row that does not delete is a problem of its line, as in JSON', async () => {
    await bulk({ locations: [store('S1'), store('S2')] })
    const s1 = await read('S1')
    const before = snapshot()
    const json = await bulk({ locations: [{ ...store('S1'), name: 'Json', if_updated_at: s1.updated_at }] })
    expect([json.status, Object.keys(json.body.details)]).toEqual([422, ['locations[0].if_updated_at']])
    // Any value, an error Excel saved too: the update would be made unguarded.
    const sent = await csv(`external_id,name,delete,if_updated_at\nS1,Csv,,${s1.updated_at}\nS2,Store S2,no,#N/A\n`)
    const refused = (cell: string) =>
      `"${cell}" in the "if_updated_at" column is the condition of a row that deletes its store, and this row does not delete: a row that keeps its store is written whatever changed since. Empty the cell, or write yes in the delete column to delete the store.`
    expect([sent.status, sent.body.error, sent.body.details]).toEqual([
      422,
      'validation_error',
      {
        'line 2.if_updated_at': [`line 2 (external_id "S1"): ${refused(s1.updated_at)}`],
        'line 3.if_updated_at': [`line 3 (external_id "S2"): ${refused('#N/A')}`],
      },
    ])
    expect(snapshot()).toEqual(before)
    const plain = await csv('external_id,name,if_updated_at\nS1,Csv,\n')
    expect([plain.status, plain.body.updated, plain.body.results[0].warnings]).toEqual([200, 1, []])
  })

  test("an if_updated_at later than the location's updated_at is refused as no time a write gave it", async () => {
    await bulk({ locations: [store('S1')] })
    const s1 = await read('S1')
    const res = await bulk({ locations: [{ id: s1.id, delete: true, if_updated_at: '2099-01-01T00:00:00Z' }] })
    expect([res.status, res.body.message, res.body.details]).toEqual([
      412,
      `locations[0]: location ${s1.id} ("S1") was changed at ${s1.updated_at}, before the if_updated_at sent (2099-01-01T00:00:00Z), a time no write gave it; nothing was written.`,
      {
        'locations[0].if_updated_at': [
          `The location ${s1.id} ("S1") was changed at ${s1.updated_at}, not at 2099-01-01T00:00:00Z: that time is later than any write gave it. Read it again (GET /admin/v1/locations/${s1.id}); if it is still to go, send its delete with its updated_at now.`,
        ],
      },
    ])
  })
})
