// Store codes that differ by invisible characters alone (a zero-width space, a BOM, a soft hyphen)
// on the single-location routes and GET /locations?external_id=, as the bulk route matches them;
// no write makes such twins, a concurrent one included; the zero-width non-joiner and joiner
// spell words (Persian, Indic scripts), so a code with one is another code.
import { describe, expect, test } from 'bun:test'
import { locationRecord, otherProcess, storeBody } from '../helpers'
import { bulk, bulkGeocodingMeanwhile, env, useBulkEnv } from './bulk-fixture'

useBulkEnv()

const BASE = '/admin/v1/locations'
const create = (body: unknown) => env.call('POST', BASE, { body })
const update = (id: string, body: unknown) => env.call('POST', `${BASE}/${id}`, { body })
const byCode = (code: string) => env.call('GET', `${BASE}?external_id=${encodeURIComponent(code)}`)
const codes = () => env.store.db.query('SELECT id, external_id FROM locations ORDER BY seq').values()

async function created(code: string, name = 'Corner Store'): Promise<string> {
  const res = await create(storeBody({ external_id: code, name }))
  expect(res.status).toBe(201)
  return res.body.location.id
}

/** Twins as a release that compared codes as written leaves them once migrated: unkeyed (migration 15). */
function twinned(id: string, code: string): void {
  env.store.db.run('UPDATE locations SET external_id = ?, code_key = NULL WHERE id = ?', [code, id])
}

describe('the single-location routes and the external_id filter', () => {
  test('a code a store holds but for a zero-width space is 409 conflict naming it, on create and update', async () => {
    const a = await created('S1\u200b', 'First')
    const res = await create(storeBody({ external_id: 'S1' }))
    expect([res.status, res.body.error, res.body.message]).toEqual([
      409,
      'conflict',
      `The external_id "S1" is already that of location ${a} ("First") but for invisible characters: "S1" with U+200B; external ids are unique within a locator. Update that location instead, or give it another external_id first.`,
    ])
    const b = await created('S2')
    const moved = await update(b, { external_id: '\ufeffS1\u00ad' })
    expect(moved.status).toBe(409)
    expect(moved.body.message).toContain(`already that of location ${a} ("First") but for invisible characters`)
    // The store itself may take its code without the invisible character.
    const own = await update(a, { external_id: 'S1' })
    expect([own.status, own.body.location.external_id]).toEqual([200, 'S1'])
    expect(codes()).toEqual([
      [a, 'S1'],
      [b, 'S2'],
    ])
  })

  test('?external_id= finds the store holding the code but for invisible characters, either way round', async () => {
    const a = await created('S1\u200b')
    const b = await created('S2')
    const found = await byCode('S1')
    expect([found.status, found.body.locations.map((l: { id: string }) => l.id)]).toEqual([200, [a]])
    const back = await byCode('S2\u2060')
    expect([back.status, back.body.locations.map((l: { id: string }) => l.id)]).toEqual([200, [b]])
    expect((await byCode('S3')).body.locations).toEqual([])
  })

  test('a code two stores hold but for invisible characters is refused, naming both; each holds its own as written', async () => {
    const a = await created('S1\u200b', 'First')
    const b = await created('S2', 'Second')
    twinned(b, 'S1\u2060')
    const twins = `that of 2 locations but for invisible characters: ${a} ("First", "S1" with U+200B), ${b} ("Second", "S1" with U+2060)`
    const listed = await byCode('S1')
    expect([listed.status, listed.body.error, listed.body.message]).toEqual([
      409,
      'conflict',
      `The external_id "S1" names no location alone: it is ${twins}. Read each by its id (GET /admin/v1/locations/{id}), and give one of them another external_id, or delete it if it is the same store twice.`,
    ])
    const made = await create(storeBody({ external_id: 'S1' }))
    expect([made.status, made.body.message]).toEqual([
      409,
      `The external_id "S1" is ${twins}; external ids are unique within a locator. Update one of them instead, or give it another external_id first.`,
    ])
    // As written, each code is its store's: found, and sent back unchanged.
    expect((await byCode('S1\u2060')).body.locations.map((l: { id: string }) => l.id)).toEqual([b])
    expect((await update(b, { external_id: 'S1\u2060', name: 'Second!' })).status).toBe(200)
    // Another spelling of the twins' code would be the other's too.
    expect((await update(b, { external_id: 'S1' })).status).toBe(409)
    expect(codes()).toEqual([
      [a, 'S1\u200b'],
      [b, 'S1\u2060'],
    ])
  })

  test('a code with a zero-width non-joiner (Persian) is another code than the one without', async () => {
    // "mikhane" with U+200C between its first two letters, as Persian writes it, and run together.
    const joined = '\u0645\u06cc\u200c\u062e\u0627\u0646\u0647'
    const together = '\u0645\u06cc\u062e\u0627\u0646\u0647'
    const a = await created(joined, 'First')
    const b = await created(together, 'Second')
    expect((await byCode(joined)).body.locations.map((l: { id: string }) => l.id)).toEqual([a])
    expect((await byCode(together)).body.locations.map((l: { id: string }) => l.id)).toEqual([b])
    // With a zero-width space besides, each is still its own store's.
    expect((await byCode(`${joined}\u200b`)).body.locations.map((l: { id: string }) => l.id)).toEqual([a])
    const res = await bulk({
      locations: [
        { external_id: together, name: 'Second, renamed' },
        { external_id: `\u200b${joined}`, name: 'First, renamed' },
      ],
    })
    expect([res.status, res.body.results.map((r: { id: string; action: string }) => [r.id, r.action])]).toEqual([
      200,
      [
        [b, 'updated'],
        [a, 'updated'],
      ],
    ])
    expect(res.body.results[1].warnings).toEqual([
      `The store code "${joined}" with U+200B and location ${a}'s, "${joined}", differ by invisible characters alone: the row is matched to that location, and the code is stored as "${joined}", without them.`,
    ])
    expect(codes()).toEqual([
      [a, joined],
      [b, together],
    ])
  })
})

describe('a zero-width non-joiner or joiner that joins no letters', () => {
  test('is invisible as any other: "S2" with one at its end or beside a digit is the store "S2"', async () => {
    const a = await created('S2', 'First')
    const res = await create(storeBody({ external_id: 'S2\u200c' }))
    expect([res.status, res.body.message]).toEqual([
      409,
      `The external_id "S2\u200c" is already that of location ${a} ("First") but for invisible characters: "S2"; external ids are unique within a locator. Update that location instead, or give it another external_id first.`,
    ])
    expect((await byCode('S\u200d2')).body.locations.map((l: { id: string }) => l.id)).toEqual([a])
    const sent = await bulk({ locations: [{ external_id: '\u200dS2', name: 'First, renamed' }] })
    expect([sent.status, sent.body.results[0].id, sent.body.results[0].warnings]).toEqual([
      200,
      a,
      [
        `The store code "S2" with U+200D and location ${a}'s, "S2", differ by invisible characters alone: the row is matched to that location, and the code is stored as "S2", without them.`,
      ],
    ])
    expect(codes()).toEqual([[a, 'S2']])
  })
})

describe('a code of invisible characters alone', () => {
  const said = (names: string) =>
    `The external_id field holds invisible characters alone (${names}), which read as no store code: give the store's code, or none.`

  test('is refused on every route, a zero-width non-joiner or joiner alone too: no one can see or type it', async () => {
    const made = await create(storeBody({ external_id: '\u200c' }))
    expect([made.status, made.body.error, made.body.details]).toEqual([
      422,
      'validation_error',
      { external_id: [said('U+200C')] },
    ])
    expect((await create(storeBody({ external_id: '\u200b' }))).body.details).toEqual({ external_id: [said('U+200B')] })
    const a = await created('S1')
    const moved = await update(a, { external_id: '\u200d\u200c' })
    expect([moved.status, moved.body.details]).toEqual([422, { external_id: [said('U+200D and U+200C')] }])
    const res = await bulk({ locations: [storeBody({ external_id: '\u200d' })] })
    expect([res.status, res.body.details]).toEqual([
      422,
      { 'locations[0].external_id': [`locations[0] (external_id "\u200d"): ${said('U+200D')}`] },
    ])
    expect(codes()).toEqual([[a, 'S1']])
  })

  test('a store that holds one as written keeps it when sent back', async () => {
    const a = await created('S1', 'First')
    twinned(a, '\u200c')
    const res = await update(a, { external_id: '\u200c', name: 'First!' })
    expect([res.status, res.body.location.external_id]).toEqual([200, '\u200c'])
  })
})

describe('a code changed by a writer that keeps no key', () => {
  test('a code a server of the previous release changes is found by its new code, and its old one is free', async () => {
    const a = await created('S1', 'First')
    // As a server of the previous release (no code_key) or a hand edit in SQL writes it.
    env.store.db.run("UPDATE locations SET external_id = 'S9' WHERE id = ?", [a])
    const b = await create(storeBody({ external_id: 'S1', name: 'Second' }))
    expect(b.status).toBe(201)
    expect((await byCode('S9\u200b')).body.locations.map((l: { id: string }) => l.id)).toEqual([a])
    const twin = await create(storeBody({ external_id: '\u200bS9' }))
    expect([twin.status, twin.body.message]).toEqual([
      409,
      `The external_id "\u200bS9" is already that of location ${a} ("First") but for invisible characters: "S9"; external ids are unique within a locator. Update that location instead, or give it another external_id first.`,
    ])
  })

  test('a store that takes its own code without its invisible character keeps a key: no other may take it', async () => {
    const a = await created('S1\u200b', 'First')
    expect((await update(a, { external_id: 'S1' })).status).toBe(200)
    expect(env.store.db.query('SELECT code_key FROM locations WHERE id = ?').get(a)).toEqual({ code_key: 'S1' })
  })
})

describe('a twin made while a write waits', () => {
  test('a bulk create is refused when another process gave a store its code but for invisible characters meanwhile', async () => {
    const record = locationRecord(env.locatorId, storeBody({ external_id: 'D\u200b', name: 'Other' }))
    const other = record.id
    const res = await bulkGeocodingMeanwhile(
      // On another connection to the file, as the CLI's import writes.
      async () => otherProcess(env.store, (store) => store.locations.insert(record)),
      { locations: [{ external_id: 'D', name: 'Downing', address: '10 Downing Street, London SW1A 2AA' }] },
    )
    const body = (await res.json()) as { error: string; message: string }
    expect([res.status, body.error, body.message]).toEqual([
      409,
      'conflict',
      `locations[0]: the external_id "D" became that of location ${other} ("D" with U+200B, the same but for invisible characters) meanwhile; nothing was written.`,
    ])
    expect(codes()).toEqual([[other, 'D\u200b']])
  })

  test('a create is refused when another write gave a store its code but for invisible characters meanwhile', async () => {
    let other = ''
    const res = await bulkGeocodingMeanwhile(
      async () => {
        other = (await create(storeBody({ external_id: 'D\u200b', name: 'Other' }))).body.location.id
      },
      { external_id: 'D', name: 'Downing', address: '10 Downing Street, London SW1A 2AA' },
      BASE,
    )
    const body = (await res.json()) as { error: string; message: string }
    expect([res.status, body.error]).toEqual([409, 'conflict'])
    expect(body.message).toStartWith(
      `The external_id "D" is already that of location ${other} ("Other") but for invisible characters: "D" with U+200B;`,
    )
    expect(codes()).toEqual([[other, 'D\u200b']])
  })
})
