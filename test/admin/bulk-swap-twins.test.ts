// Bulk swaps of store codes where a code has twins but for invisible characters (code_key,
// migration 15), and where another write comes between the check and the write.
import { describe, expect, test } from 'bun:test'
import { locationRecord, otherProcess, storeBody } from '../helpers'
import { bulk, bulkGeocodingMeanwhile, DOWNING, env, snapshot, store, useBulkEnv } from './bulk-fixture'

useBulkEnv()

const codes = () => env.store.db.query('SELECT id, external_id, code_key FROM locations ORDER BY seq').values()
const ids = async (...codes: string[]): Promise<[string, string, string]> =>
  (await bulk({ locations: codes.map((c) => store(c)) })).body.results.map((r: { id: string }) => r.id)

describe('bulk swaps beside twins', () => {
  test('a store whose code another item takes first, left with none, is updated as the dry run says, and logged', async () => {
    const [a, b] = await ids('A', 'B')
    const logged = () =>
      env.store.db.query("SELECT entity_id FROM changes WHERE entity = 'location' ORDER BY seq").values()
    const before = logged()
    const sw = [
      { id: a, external_id: 'B' },
      { id: b, external_id: null },
    ]
    const dry = await bulk({ locations: sw, dry_run: true })
    const real = await bulk({ locations: sw })
    expect(real.body.results).toEqual(dry.body.results)
    expect(real.body.results.map((r: { action: string }) => r.action)).toEqual(['updated', 'updated'])
    expect(logged()).toEqual([...before, [a], [b]])
    expect(codes()).toEqual([
      [a, 'B', 'B'],
      [b, null, null],
    ])
  })

  test('taking a code from a store that gives it up is refused when a third store holds it but for invisible characters, dry run or not', async () => {
    const [a, b, t] = await ids('X', 'Y', 'T')
    // A legacy twin of "X", unkeyed as migration 15 leaves it.
    env.store.db.run('UPDATE locations SET external_id = ?, code_key = NULL WHERE id = ?', ['X\u200b', t!])
    const before = snapshot()
    const swap = [
      { id: a, external_id: 'Y' },
      { id: b, external_id: 'X' },
    ]
    const dry = await bulk({ locations: swap, dry_run: true })
    const real = await bulk({ locations: swap })
    expect([dry.status, real.status]).toEqual([422, 422])
    expect(real.body.details['locations[1].external_id'][0]).toContain(t)
    expect(real.body).toEqual(dry.body)
    expect(snapshot()).toEqual(before)
    // The twin renumbered too, the code is free.
    const all = await bulk({ locations: [...swap, { id: t, external_id: 'W' }] })
    expect(all.status).toBe(200)
    expect(codes()).toEqual([
      [a, 'Y', 'Y'],
      [b, 'X', 'X'],
      [t, 'W', 'W'],
    ])
  })

  test('a code two stores hold but for invisible characters is free when the request renumbers both', async () => {
    const [a, b, c] = await ids('A', 'B', 'C')
    env.store.db.run('UPDATE locations SET external_id = ?, code_key = NULL WHERE id = ?', ['X\u200b', a])
    env.store.db.run('UPDATE locations SET external_id = ?, code_key = NULL WHERE id = ?', ['X\u2060', b])
    const one = await bulk({
      locations: [
        { id: c, external_id: 'X' },
        { id: a, external_id: 'A' },
      ],
    })
    expect(one.status).toBe(422)
    expect(one.body.details['locations[0].external_id'][0]).toContain(`already the store code of location ${b}`)
    const res = await bulk({
      locations: [
        { id: c, external_id: 'X' },
        { id: a, external_id: 'A' },
        { id: b, external_id: 'B' },
      ],
    })
    expect(res.status).toBe(200)
    expect(codes()).toEqual([
      [a, 'A', 'A'],
      [b, 'B', 'B'],
      [c, 'X', 'X'],
    ])
  })

  test('two stores swapping codes that are twins but for invisible characters are told the codes are one', async () => {
    const [a, b] = await ids('A', 'B')
    env.store.db.run('UPDATE locations SET external_id = ?, code_key = NULL WHERE id = ?', ['X', a])
    env.store.db.run('UPDATE locations SET external_id = ?, code_key = NULL WHERE id = ?', ['X\u200b', b])
    const before = snapshot()
    const res = await bulk({
      locations: [
        { id: a, external_id: 'X\u200b' },
        { id: b, external_id: 'X' },
      ],
    })
    expect(res.status).toBe(422)
    expect(res.body.details['locations[1].external_id']).toEqual([
      `locations[1] (external_id "X"): already the store code of location ${a} ("Store A"); external ids are unique within a locator. The request gives that one "X" with U+200B, the same code but for invisible characters: give it another.`,
    ])
    expect(snapshot()).toEqual(before)
  })

  test('a swap rolled back by a later item leaves both codes and their keys as they were', async () => {
    const [a, b] = await ids('X', 'Y')
    const before = codes()
    const res = await bulkGeocodingMeanwhile(
      async () =>
        otherProcess(env.store, (other) =>
          other.locations.insert(locationRecord(env.locatorId, storeBody({ external_id: 'D', name: 'Other' }))),
        ),
      {
        locations: [{ id: a, external_id: 'Y' }, { id: b, external_id: 'X' }, DOWNING],
      },
    )
    expect(res.status).toBe(409)
    expect(codes().slice(0, 2)).toEqual(before)
  })

  test('a swap whose other side another write renumbered meanwhile still ends with unique codes', async () => {
    const [a, b] = await ids('X', 'Y')
    const res = await bulkGeocodingMeanwhile(
      async () =>
        otherProcess(env.store, (other) => {
          const cur = other.locations.get(env.locatorId, b!)!
          other.locations.replace({ ...cur, externalId: 'Z' }, cur)
        }),
      { locations: [{ id: a, external_id: 'Y' }, { id: b, external_id: 'X' }, DOWNING] },
    )
    expect(res.status).toBe(200)
    expect(codes().slice(0, 2)).toEqual([
      [a, 'Y', 'Y'],
      [b, 'X', 'X'],
    ])
  })
})
