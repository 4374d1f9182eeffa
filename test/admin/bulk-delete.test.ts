// POST /admin/v1/locations/bulk with delete_missing: what goes, what stays, and the guards that
// refuse a list cut short (every coded location, or more than max_delete), before and during the write.
import { describe, expect, test } from 'bun:test'
import { storeBody } from '../helpers'
import { all, bulk, bulkGeocodingMeanwhile, csv, snapshot, store, useBulkEnv } from './bulk-fixture'

useBulkEnv()

describe('bulk upsert, delete_missing', () => {
  test('delete_missing deletes the locations with an external id the request lacks; those without one stay', async () => {
    await bulk({ locations: [store('S1'), store('S2'), store('S3'), storeBody({ name: 'Hand-made' })] })
    const s3 = (await all()).find((l: { external_id: string }) => l.external_id === 'S3')
    const res = await bulk({ locations: [store('S1'), { id: s3.id, name: 'Kept by id' }], delete_missing: true })
    expect(res.body).toMatchObject({ created: 0, updated: 1, unchanged: 1, deleted: 1 })
    expect(res.body.results[2]).toEqual({
      index: null,
      id: expect.stringMatching(/^loc_/),
      external_id: 'S2',
      name: 'Store S2',
      action: 'deleted',
      geocoding: null,
      warnings: [],
    })
    expect((await all()).map((l: { name: string }) => l.name).sort()).toEqual(['Hand-made', 'Kept by id', 'Store S1'])
  })

  test('delete_missing that would delete every location with an external id is refused, dry run or not', async () => {
    await bulk({ locations: [store('S1'), store('S2'), storeBody({ name: 'Hand-made' })] })
    const before = snapshot()
    // An empty or truncated export, or codes of another column: each would wipe the locator.
    for (const [locations, says] of [
      [[], 'no location was sent'],
      [[store('X1'), storeBody({ name: 'No code' })], 'none of those sent matches one of them'],
    ] as const) {
      for (const dry_run of [false, true]) {
        const res = await bulk({ locations, delete_missing: true, dry_run })
        expect(res.status).toBe(422)
        expect(res.body.error).toBe('validation_error')
        expect(res.body.message).toBe(
          `delete_missing would delete all 2 locations with an external_id (${says}); nothing was written.`,
        )
        expect(res.body.details.delete_missing[0]).toStartWith(
          'Refused: it would delete every location with an external_id.',
        )
      }
    }
    const csvRes = await csv('external_id,name,lat,lng\n', '?delete_missing=true')
    expect(csvRes.status).toBe(422)
    expect(snapshot()).toEqual(before)
    // One of them named: the other goes.
    expect((await bulk({ locations: [store('S1')], delete_missing: true })).body.deleted).toBe(1)
  })

  test('max_delete refuses a delete_missing that would delete more, dry run or not; JSON or CSV', async () => {
    await bulk({ locations: [store('S1'), store('S2'), store('S3'), store('S4')] })
    const before = snapshot()
    for (const dry_run of [false, true]) {
      const res = await bulk({ locations: [store('S1')], delete_missing: true, max_delete: 2, dry_run })
      expect(res.status).toBe(422)
      expect(res.body).toMatchObject({
        error: 'validation_error',
        message: 'delete_missing would delete 3 locations, more than max_delete (2); nothing was written.',
        details: {
          delete_missing: [
            'Refused: the request lacks the external_id of 3 locations ("S2", "S3", "S4"). Check the request; if they are meant to go, raise max_delete.',
          ],
        },
      })
    }
    const csvRes = await csv('external_id,name,lat,lng\nS1,Store S1,40.01,-3.01\n', '?delete_missing=true&max_delete=1')
    expect(csvRes.status).toBe(422)
    for (const [query, body, message] of [
      ['?max_delete=few', {}, 'The max_delete parameter must be a whole number of 0 or more; got "few".'],
      [
        '?max_delete=2',
        { max_delete: 3 },
        "The max_delete parameter is 2 and the body's max_delete field is 3: send it once.",
      ],
    ] as const)
      expect((await bulk({ locations: [store('S1')], delete_missing: true, ...body }, query)).body.message).toBe(
        message,
      )
    expect((await bulk({ locations: [], max_delete: -1 })).body.details).toEqual({
      max_delete: ['The max_delete field must be a whole number of 0 or more, or null; got -1.'],
    })
    expect((await bulk({ locations: [], max_delete: '5' })).body.details).toEqual({
      max_delete: [
        'The max_delete field must be a whole number of 0 or more, or null; got "5", a string: send 5, without quotes.',
      ],
    })
    // max_delete guards delete_missing: alone it is refused, not ignored.
    expect((await bulk({ locations: [store('S1')], max_delete: 0 })).body.message).toBe(
      'max_delete is for delete_missing: send both, or neither.',
    )
    const huge = await bulk({ locations: [store('S1')], delete_missing: true, max_delete: 2 ** 40, dry_run: true })
    expect(huge.body.deleted).toBe(3)
    expect(snapshot()).toEqual(before)
    // Within the limit, they go.
    const within = await bulk({ locations: [store('S1')], delete_missing: true, max_delete: 3 })
    expect(within.body.deleted).toBe(3)
  })

  test('max_delete holds for a location another write adds while the request geocodes; nothing is written', async () => {
    await bulk({ locations: [store('S1'), store('S2')] })
    const before = (await all()).length
    // Another client adds a coded store while this request waits for the geocoder.
    const res = await bulkGeocodingMeanwhile(() => bulk({ locations: [store('S1'), store('S2'), store('S9')] }), {
      locations: [store('S1'), store('S2'), { external_id: 'N', name: 'New', address: '1 Main St, Town' }],
      delete_missing: true,
      max_delete: 0,
    })
    expect(res.status).toBe(422)
    expect(((await res.json()) as any).message).toBe(
      'delete_missing would delete 1 location, more than max_delete (0); nothing was written.',
    )
    expect((await all()).map((l: any) => l.external_id).sort()).toEqual(['S1', 'S2', 'S9'])
    expect(before).toBe(2)
  })

  test('a refusal of delete_missing says when the codes sent lost their leading zeros', async () => {
    await bulk({ locations: [store('0001'), store('0002'), store('0003'), store('S4')] })
    const before = snapshot()
    // A sheet saved again in Excel: every zero-led code comes back without its zeros.
    const lost = [store('1'), store('2'), store('3')]
    const every = await bulk({ locations: [...lost, store('S4', { external_id: 'S9' })], delete_missing: true })
    expect(every.status).toBe(422)
    expect(every.body.details.delete_missing).toEqual([
      expect.stringMatching(/^Refused: it would delete every location with an external_id\./),
      '3 external_ids of the request differ from a stored one only in leading zeros ("1" sent, "0001" stored): a spreadsheet drops them (Excel reads 0001 as 1). Give the codes as they are stored (format the column as text) and send it again.',
    ])
    const capped = await csv(
      'external_id,name,address,lat,lng\n1,Store 1,1 Main St,40.01,-3.01\nS4,Store S4,4 Main St,40.04,-3.04\n',
      '?delete_missing=true&max_delete=1',
    )
    expect(capped.body.details.delete_missing[1]).toStartWith(
      'One external_id of the request differs from a stored one only in leading zeros ("1" sent, "0001" stored)',
    )
    // Codes that match, or differ otherwise, add nothing.
    const plain = await bulk({ locations: [store('S7')], delete_missing: true })
    expect(plain.body.details.delete_missing).toHaveLength(1)
    expect(snapshot()).toEqual(before)
  })
})

describe('bulk upsert, delete_missing and codes without their leading zeros', () => {
  test('stores whose codes come back without their leading zeros are not deleted and made again, though others match', async () => {
    const made = await bulk({ locations: [store('0001'), store('0002'), store('S3'), store('S4')] })
    const before = snapshot()
    // Excel dropped the zeros; the other codes still match, so no "every location" refusal.
    const body = { locations: [store('1'), store('2'), store('S3'), store('S4')], delete_missing: true }
    for (const dry_run of [true, false]) {
      const res = await bulk({ ...body, dry_run })
      expect(res.status).toBe(422)
      expect(res.body).toMatchObject({
        error: 'validation_error',
        message:
          'delete_missing would delete 2 locations and create them again, each with a new id, under codes that differ only in leading zeros; nothing was written.',
      })
      expect(res.body.details).toEqual({
        delete_missing: [
          'Refused: the request has 2 codes that differ from a stored location\'s only in leading zeros ("1" sent, "0001" stored; "2" sent, "0002" stored): a spreadsheet drops them (Excel reads 0001 as 1). Give the codes as they are stored (format the column as text) and send it again. To renumber such a store, give its id beside its new code: it is updated in place and keeps its id.',
        ],
      })
    }
    // The same from a CSV file, and the other way round: a stored code that lost its zeros earlier.
    const file =
      'external_id,name,address,lat,lng\n1,Store 1,1 Main St,40.01,-3.01\nS3,Store S3,3 Main St,40.03,-3.03\nS4,Store S4,4 Main St,40.04,-3.04\n'
    const fromCsv = await csv(file, '?delete_missing=true&dry_run=true')
    expect(fromCsv.body.details.delete_missing[0]).toStartWith(
      'Refused: the request has a code that differs from a stored location\'s only in leading zeros ("1" sent, "0001" stored)',
    )
    expect(snapshot()).toEqual(before)
    // Renumbered by id, each store keeps its id; without delete_missing a new row is only warned.
    const [one, two] = made.body.results.map((r: { id: string }) => r.id)
    const renumbered = await bulk({
      locations: [{ id: one, external_id: '1' }, { id: two, external_id: '2' }, store('S3'), store('S4')],
      delete_missing: true,
    })
    expect(renumbered.body).toMatchObject({ updated: 2, deleted: 0, created: 0 })
    const back = await bulk({ locations: [store('001'), store('2'), store('S3'), store('S4')], delete_missing: true })
    expect(back.status).toBe(422)
    expect(back.body.details.delete_missing[0]).toContain('("001" sent, "1" stored)')
    const warned = await bulk({ locations: [store('02')] })
    expect(warned.body.results[0].warnings[0]).toStartWith(`Location ${two} has the external_id "2"`)
  })
})

describe('bulk upsert, delete_missing and codes of the stores it deletes', () => {
  test('an item takes the code of a store delete_missing deletes; the dry run answers as the real run', async () => {
    const made = await bulk({ locations: [store('S1'), store('S2'), store('S3')] })
    const [a, b, c] = made.body.results.map((r: { id: string }) => r.id)
    // S3 closed, and its code given to the store that was S2.
    const body = {
      locations: [
        { id: a, external_id: 'S1' },
        { id: b, external_id: 'S3' },
      ],
      delete_missing: true,
    }
    const dry = await bulk({ ...body, dry_run: true })
    expect(dry.status).toBe(200)
    const done = await bulk(body)
    expect(done.status).toBe(200)
    expect({ ...done.body, dry_run: true }).toEqual(dry.body)
    expect(done.body.results.map((r: any) => [r.index, r.id, r.external_id, r.action])).toEqual([
      [0, a, 'S1', 'unchanged'],
      [1, b, 'S3', 'updated'],
      [null, c, 'S3', 'deleted'],
    ])
    expect((await all()).map((l: { id: string; external_id: string }) => [l.id, l.external_id])).toEqual([
      [a, 'S1'],
      [b, 'S3'],
    ])
  })

  test("without delete_missing, or with the store named, the code stays its holder's", async () => {
    const made = await bulk({ locations: [store('S1'), store('S2'), store('S3')] })
    const [, b, c] = made.body.results.map((r: { id: string }) => r.id)
    const before = snapshot()
    const taken = `locations[0] (external_id "S3"): already the store code of location ${c} ("Store S3"); external ids are unique within a locator. To give it this location, give that one another code in the same request.`
    const plain = await bulk({ locations: [{ id: b, external_id: 'S3' }], dry_run: true })
    expect([plain.status, plain.body.details]).toEqual([422, { 'locations[0].external_id': [taken] }])
    const named = await bulk({
      locations: [{ id: b, external_id: 'S3' }, { id: c }, store('S1')],
      delete_missing: true,
    })
    expect([named.status, named.body.details]).toEqual([422, { 'locations[0].external_id': [taken] }])
    expect(snapshot()).toEqual(before)
  })

  test('a code that lost its leading zeros is found beside a zero-width space, a BOM or a no-break space', async () => {
    await bulk({ locations: [store('0001\u200b'), store('0002'), store('0003'), store('S4')] })
    const before = snapshot()
    const body = {
      locations: [store('1'), store('\u00a02\u200b'), store('\ufeff3'), store('S4')],
      delete_missing: true,
    }
    for (const dry_run of [true, false]) {
      const res = await bulk({ ...body, dry_run })
      expect([res.status, res.body.details]).toEqual([
        422,
        {
          delete_missing: [
            'Refused: the request has 3 codes that differ from a stored location\'s only in leading zeros ("1" sent, "0001" with U+200B stored; "2" with U+200B sent, "0002" stored; "3" sent, "0003" stored): a spreadsheet drops them (Excel reads 0001 as 1). Give the codes as they are stored (format the column as text) and send it again. To renumber such a store, give its id beside its new code: it is updated in place and keeps its id.',
          ],
        },
      ])
    }
    expect(snapshot()).toEqual(before)
  })
})

describe('bulk upsert, a new row whose code lost its leading zeros', () => {
  test('beside a zero-width space, either side, it is warned, naming the stored code', async () => {
    const made = await bulk({ locations: [store('0005\u200b'), store('7')] })
    const [five, seven] = made.body.results.map((r: { id: string }) => r.id)
    const res = await bulk({ locations: [store('5'), store('\u200b007')], dry_run: true })
    expect(res.body.results.map((r: { warnings: string[] }) => r.warnings)).toEqual([
      [
        `Location ${five} has the external_id "0005" with U+200B: if this row is that store, its code lost its leading zeros (Excel reads 0005 as 5), and the row makes a second one. Format the column as text and give the code as "0005".`,
      ],
      [
        `Location ${seven} has the external_id "7": if this row is that store, an earlier import lost the code's leading zeros (Excel reads 007 as 7), and the row makes a second one. Give the row the code "7", or that location the code "007".`,
      ],
    ])
  })
})
