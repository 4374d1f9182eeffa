// Idempotency-Key answers over the size kept for retries (1 MiB): the write is made once, its
// answer is kept as its size alone, and a retry says so (410), never writing again.
import { afterAll, expect, test } from 'bun:test'
import { makeEnv } from '../helpers'

const env = makeEnv()
afterAll(() => env.close())

const BULK = '/admin/v1/locations/bulk'
const count = () => env.store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM locations').get()!.n
const changes = () => env.store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM changes').get()!.n

/** An item: a long name (deleted locations' results carry it), and eight fields no location has (each item's answer warns of them). */
const item = (i: number, extra = false) => ({
  external_id: `S-${i}`,
  name: `Store ${i} ${'n'.repeat(180)}`,
  address: `${i} Main Street`,
  coordinates: { lat: 50 + i / 10_000, lng: 8 },
  ...(extra ? Object.fromEntries(Array.from({ length: 8 }, (_, j) => [`note_${j}_${'x'.repeat(60)}`, 1])) : {}),
})

test('an answer over 1 MiB is not kept: its retry is 410 idempotency_answer_not_kept and writes nothing', async () => {
  for (const from of [0, 1000]) {
    const made = await env.call('POST', BULK, {
      body: { locations: Array.from({ length: 1000 }, (_, i) => item(from + i)) },
    })
    expect(made.status).toBe(200)
  }
  // 1,000 new items with warnings, one kept, 1,999 deleted: an answer of about 1.3 MB.
  const locations = [item(0), ...Array.from({ length: 999 }, (_, i) => item(5000 + i, true))]
  const send = (body: unknown) =>
    env.call('POST', `${BULK}?delete_missing=true`, { body, headers: { 'idempotency-key': 'k-big' } })
  const first = await send({ locations })
  expect(first.status).toBe(200)
  expect(first.body.deleted).toBe(1999)
  expect(Buffer.byteLength(JSON.stringify(first.body))).toBeGreaterThan(1024 * 1024)
  const kept = env.store.db.query<{ n: number }, []>(
    "SELECT length(body) AS n FROM idempotency_keys WHERE key = 'k-big'",
  )
  expect(kept.get()!.n).toBeLessThan(100)
  const [rows, log] = [count(), changes()]

  const again = await send({ locations })
  expect(again.status).toBe(410)
  expect(again.body).toEqual({
    success: false,
    error: 'idempotency_answer_not_kept',
    message: expect.stringMatching(
      /^The request with the Idempotency-Key "k-big" was made at \S+Z and answered 200, but its answer \(1\.\d MiB\) was over the 1\.0 MiB kept for retries\. It was not made again: read the locations/,
    ),
  })
  expect(again.headers.get('idempotent-replayed')).toBeNull()
  expect([count(), changes()]).toEqual([rows, log])
  // The key still knows its request: another one with it is refused as before.
  const other = await send({ locations: locations.slice(0, 10) })
  expect([other.status, other.body.error]).toEqual([422, 'idempotency_key_reused'])
  expect([count(), changes()]).toEqual([rows, log])
}, 120_000)

test('an answer a few bytes over 1 MiB: its retry names both sizes in bytes, as "1.0 MiB" would not tell apart', async () => {
  const send = () =>
    env.call('POST', '/admin/v1/locations', {
      body: { name: 'Just over', address: '1 Main Street', coordinates: { lat: 50, lng: 8 } },
      headers: { 'idempotency-key': 'k-just-over' },
    })
  expect((await send()).status).toBe(201)
  // What an answer of 1 MiB and one byte leaves: its size alone.
  env.store.db.run(`UPDATE idempotency_keys SET body = 'not kept: ${1024 * 1024 + 1}' WHERE key = 'k-just-over'`)
  const again = await send()
  expect(again.status).toBe(410)
  expect(again.body.message).toContain(
    'but its answer (1,048,577 bytes) was over the 1,048,576 bytes kept for retries.',
  )
})
