// The typed client's CSV bodies other than a string (a Blob or File, bytes, a stream) and its
// export, JSON or CSV, against the app in process; retries send the same bytes.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { Readable } from 'node:stream'
import { StorelocClient } from '../../src/client'
import { makeEnv, storeBody, type TestEnv } from '../helpers'

let env: TestEnv
beforeEach(() => {
  env = makeEnv()
})
afterEach(() => env.close())

/** A client whose requests reach the app in process; the first try of each POST gets a 503 when `busy`. */
function client(busy = false) {
  const seen: Request[] = []
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(String(input), init as RequestInit)
    seen.push(request.clone() as Request)
    if (busy && request.method === 'POST' && seen.length % 2 === 1)
      return new Response('{}', { status: 503, headers: { 'retry-after': '0' } })
    return env.app.handle(request)
  }) as typeof fetch
  return {
    api: new StorelocClient({ baseUrl: 'http://localhost', apiKey: env.key, fetch: fetchFn, backoffMs: 1 }),
    seen,
  }
}

const FILE = 'external_id,name,address,lat,lng\nS1,Café Eins,1 Main St,52.5,13.4\n'
const bytes = new TextEncoder().encode(FILE)

describe('StorelocClient CSV bodies', () => {
  test('a Blob, a File, bytes, a web stream and a Node stream are sent as the file; a retry sends them again', async () => {
    const { api, seen } = client(true)
    const bodies = {
      blob: new Blob([FILE]),
      file: new File([bytes], 'stores.csv', { type: 'text/csv' }),
      uint8array: bytes,
      buffer: Buffer.from(FILE),
      arraybuffer: bytes.slice().buffer,
      'web stream': new Blob([FILE]).stream(),
      'node stream': Readable.from([bytes.subarray(0, 20), bytes.subarray(20)]),
      'stream of text': Readable.from(['external_id,name,address,lat,lng\n', 'S1,Café Eins,1 Main St,52.5,13.4\n']),
    }
    for (const [kind, body] of Object.entries(bodies)) {
      const report = await api.bulkUpsertCsv(body, { dry_run: true })
      expect({ kind, created: report.created, unknown: report.unknown_columns }).toEqual({
        kind,
        created: 1,
        unknown: [],
      })
    }
    // Each body twice (the 503, then its retry), the bytes the same both times.
    expect(seen).toHaveLength(16)
    for (const r of seen) {
      expect(r.headers.get('content-type')).toBe('text/csv')
      expect(await r.text()).toBe(FILE)
    }
  })

  test("a File's charset is sent with it; a body of another kind is refused before anything is sent", async () => {
    const { api, seen } = client()
    const latin1 = new Uint8Array([
      ...new TextEncoder().encode('external_id,name,address,lat,lng\nS1,Caf'),
      0xe9,
      ...new TextEncoder().encode(',1 Main St,52.5,13.4\n'),
    ])
    const file = new File([latin1], 'stores.csv', { type: 'text/csv; charset=windows-1252' })
    expect(await api.bulkUpsertCsv(file)).toMatchObject({ created: 1 })
    expect(seen[0]!.headers.get('content-type')).toBe('text/csv; charset=windows-1252')
    const [stored] = await api.exportLocations()
    expect(stored!.name).toBe('Café')
    for (const [body, got] of [
      [42, 'number'],
      [{ csv: FILE }, 'Object'],
      [null, 'null'],
    ] as const) {
      const refused = await api.bulkUpsertCsv(body as never).catch((e) => e)
      expect(refused).toBeInstanceOf(TypeError)
      expect(refused.message).toBe(
        `POST /admin/v1/locations/bulk: the CSV body must be the file's text, a Blob or File, bytes (Uint8Array, ArrayBuffer) or a stream of them; got ${got}.`,
      )
    }
    expect(seen).toHaveLength(2)
  })

  test('an ArrayBuffer the script writes over while a try waits is sent as it was at the call', async () => {
    const { api, seen } = client(true)
    const buffer = bytes.slice().buffer
    const sent = api.bulkUpsertCsv(buffer, { dry_run: true })
    // The script reuses its buffer once the call has it: the first try (a 503) is under way.
    new Uint8Array(buffer).fill(0x20)
    expect(await sent).toMatchObject({ created: 1 })
    expect(await Promise.all(seen.map((r) => r.text()))).toEqual([FILE, FILE])
  })
})

describe('StorelocClient export', () => {
  test('JSON gives the locations, CSV the file; each sent back changes nothing', async () => {
    const { api } = client()
    await api.bulkUpsert({
      locations: [storeBody({ external_id: 'S1' }), storeBody({ external_id: 'S2', name: 'Draft', status: 'draft' })],
    })
    const all = await api.exportLocations()
    expect(all.map((l) => [l.external_id, l.status])).toEqual([
      ['S1', 'published'],
      ['S2', 'draft'],
    ])
    expect((await api.exportLocations({ status: 'draft' })).map((l) => l.external_id)).toEqual(['S2'])
    const csv: string = await api.exportLocations({ format: 'csv' })
    expect(csv.startsWith('id,external_id,name,address,lat,lng,')).toBe(true)
    expect(csv.split('\r\n').filter((line) => line !== '')).toHaveLength(3)
    const semicolons = await api.exportLocations({ format: 'csv', separator: ';', status: 'published' })
    expect(semicolons.split('\r\n')[1]).toStartWith(`${all[0]!.id};S1;`)
    expect(await api.bulkUpsertCsv(csv)).toMatchObject({ unchanged: 2, created: 0, updated: 0 })
    expect(await api.bulkUpsert({ locations: all })).toMatchObject({ unchanged: 2 })
  })
})
