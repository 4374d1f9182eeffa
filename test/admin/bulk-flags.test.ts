// POST /admin/v1/locations/bulk's flags in the query string (dry_run, delete_missing): the values
// they take, and a refusal that names them; an empty one is refused, never guessed.
import { describe, expect, test } from 'bun:test'
import { bulk, csv, snapshot, store, useBulkEnv } from './bulk-fixture'

useBulkEnv()

describe('bulk upsert, flags in the query string', () => {
  test('a flag in the query string is true, false, 1 or 0; another value, none too, is refused saying so', async () => {
    const before = snapshot()
    // A bare "?dry_run" could mean a dry run or not: refused, never a real write by a guess.
    for (const [query, got] of [
      ['?dry_run=yes', '"yes"'],
      ['?dry_run=', '""'],
      ['?dry_run', '""'],
      ['?delete_missing=', '""'],
    ] as const) {
      const name = query.slice(1).split('=')[0]
      for (const res of [
        await csv('external_id,name,lat,lng\nS1,One,1,2\n', query),
        await bulk({ locations: [store('S1')] }, query),
      ])
        expect(res.body).toEqual({
          success: false,
          error: 'invalid_request',
          message: `The ${name} parameter must be true, false, 1 or 0 (in any case); got ${got}.`,
        })
    }
    expect(snapshot()).toEqual(before)
    expect((await bulk({ locations: [store('S1')] }, '?dry_run=TRUE')).body).toMatchObject({ dry_run: true })
    expect((await bulk({ locations: [store('S1')] }, '?dry_run=0')).body).toMatchObject({ dry_run: false })
  })
})
