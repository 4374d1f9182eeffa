// POST /admin/v1/locations/bulk, the request as a whole: the locations field and the flags, a
// misspelt flag, the larger body limit, and a key's reach.
import { describe, expect, test } from 'bun:test'
import { createLocator } from '../../src/operator'
import { storeBody } from '../helpers'
import { all, BULK, bulk, csv, env, snapshot, store, useBulkEnv } from './bulk-fixture'

useBulkEnv()

describe('bulk upsert, the request', () => {
  test('the request itself: locations required, an array, at most 1,000; flags true or false', async () => {
    const cases: [unknown, number, string, string][] = [
      [{}, 422, 'locations', 'The locations field is required.'],
      [{ locations: {} }, 422, 'locations', 'The locations field must be an array.'],
      [{ locations: [], dry_run: 'yes' }, 422, 'dry_run', 'The dry_run field must be true or false; got "yes".'],
      [
        { locations: [], delete_missing: 1 },
        422,
        'delete_missing',
        'The delete_missing field must be true or false; got 1.',
      ],
      // What a script's own reading of "true" sends (Python's "true" from a config, None): said how to send it.
      [
        { locations: [], dry_run: 'true' },
        422,
        'dry_run',
        'The dry_run field must be true or false; got "true", a string: send true, without quotes.',
      ],
      [
        { locations: [], dry_run: null },
        422,
        'dry_run',
        'The dry_run field must be true or false; got null: leave the field out instead (false).',
      ],
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
    // Sent in parts with delete_missing, each part would delete the others': the refusal says so.
    const whole = await bulk({
      locations: Array.from({ length: 1001 }, (_, i) => store(`S${i}`)),
      delete_missing: true,
    })
    expect(whole.body.details.locations[0]).toBe(
      "The locations field may not have more than 1000 items; got 1001. Send them in several requests without delete_missing: it looks only at its own request, so each part would delete the others' locations. Then delete the locations the list lacks, as examples/sync.ts does, or import the whole list with the CLI's locations import --delete-missing, which takes any number.",
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
    const whole = await bulk(
      { locations: [store('S1', { description: 'x'.repeat(9 * 1024 * 1024) })] },
      '?delete_missing=true',
    )
    expect([whole.status, whole.body.message]).toEqual([
      413,
      expect.stringContaining('Send the locations in several requests without delete_missing'),
    ])
    // delete_missing in the body, as the route's fields are mostly sent: the unread body may hold
    // it, so splitting it is told how, and a query's false is told nothing of it.
    const inBody = await bulk({
      locations: [store('S1', { description: 'x'.repeat(9 * 1024 * 1024) })],
      delete_missing: true,
    })
    expect([inBody.status, inBody.body.message]).toEqual([
      413,
      "The request body may not be larger than 8 MiB on this route. Send the locations in several requests (the CLI's locations import takes any number). With delete_missing, send each part without it: it looks only at its own request, so each part would delete the others' locations. Then delete the locations the list lacks, as examples/sync.ts does, or import the whole list with the CLI's locations import --delete-missing.",
    ])
    const not = await bulk(
      { locations: [store('S1', { description: 'x'.repeat(9 * 1024 * 1024) })] },
      '?delete_missing=0',
    )
    expect(not.body.message).toBe(
      "The request body may not be larger than 8 MiB on this route. Send the locations in several requests (the CLI's locations import takes any number).",
    )
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
