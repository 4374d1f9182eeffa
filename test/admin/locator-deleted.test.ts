// A Management API write whose locator is deleted (storeloc locator delete) after its key was
// checked, while its body arrives: 401 no_locator, nothing written, nothing logged as a fault.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { createLocator, deleteLocator } from '../../src/operator'
import { makeEnv, storeBody, type TestEnv } from '../helpers'

let env: TestEnv
beforeEach(() => {
  env = makeEnv()
  createLocator(env.store, 'Kept') // the last locator may not be deleted
})
afterEach(() => env.close())

/** The request sent with the first bytes of its body; the rest once `between` has run. */
async function sentAcross(path: string, body: string, headers: Record<string, string>, between: () => void) {
  let release!: () => void
  const gate = new Promise<void>((r) => {
    release = r
  })
  let asked!: () => void
  const askedForMore = new Promise<void>((r) => {
    asked = r
  })
  const bytes = new TextEncoder().encode(body)
  const stream = new ReadableStream({
    start(c) {
      c.enqueue(bytes.subarray(0, 5))
    },
    // Called once the app has read the first bytes: its key was checked, and it waits for the rest.
    async pull(c) {
      asked()
      await gate
      c.enqueue(bytes.subarray(5))
      c.close()
    },
  })
  const init = {
    method: 'POST',
    headers: { authorization: `Bearer ${env.key}`, ...headers },
    body: stream,
    duplex: 'half',
  }
  const answer = env.app.handle(new Request(`http://localhost${path}`, init as RequestInit))
  await askedForMore
  between()
  release()
  const res = await answer
  return { status: res.status, body: (await res.json()) as { success: boolean; message: string } }
}

const json = { 'content-type': 'application/json' }
const csv = { 'content-type': 'text/csv' }

test.each([
  ['a create', '/locations', JSON.stringify(storeBody({ name: 'New' })), json],
  [
    'a create with an Idempotency-Key',
    '/locations',
    JSON.stringify(storeBody({ name: 'New' })),
    { ...json, 'idempotency-key': 'k1' },
  ],
  ['an update', '/locations/ID', JSON.stringify({ name: 'Renamed' }), json],
  [
    'a bulk upsert',
    '/locations/bulk',
    JSON.stringify({ locations: [storeBody({ name: 'Bulk', external_id: 'B1' })] }),
    json,
  ],
  ['a CSV bulk upsert', '/locations/bulk', 'name,address,lat,lng\nCsv,1 Road,51.5,-0.1\n', csv],
])('%s: 401 no_locator, nothing written', async (_, path, body, headers) => {
  const id = (await env.call('POST', '/admin/v1/locations', { body: storeBody({ name: 'Old' }) })).body.location.id
  const res = await sentAcross(`/admin/v1${path.replace('ID', id)}`, body, headers, () =>
    deleteLocator(env.store, env.locatorId, true),
  )
  expect(res.status).toBe(401)
  expect(res.body.success).toBe(false)
  expect(res.body.message).toBe(`Locator ${env.locatorId} was deleted meanwhile; nothing was written.`)
  const rows = env.store.db.query('SELECT count(*) AS n FROM locations WHERE locator_id = ?').get(env.locatorId)
  expect(rows).toEqual({ n: 0 })
})
