// A multipart Content-Type as RFC 9110 lets it be written: spaces and tabs before a ";", parameter
// names in any case, a quoted boundary holding a space. Each reads the parts as the plain spelling
// does, on create and on bulk, and a retry under another spelling replays; spaces around "=" are
// refused by name.
import { describe, expect, test } from 'bun:test'
import { BASE, rawRequest, snapshot, withEnv } from './locations-fixture'

withEnv()

const utf8 = (text: string) => new TextEncoder().encode(text)
const FIELDS = { name: 'Cafe', address: '1 Rue', 'coordinates[lat]': '48.87', 'coordinates[lng]': '2.33' }

/** FIELDS as parts of boundary `boundary`, then `extra` (whole parts) before the close. */
const body = (boundary: string, extra = '') =>
  `${Object.entries(FIELDS)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('')}${extra}--${boundary}--\r\n`

/** Spellings RFC 9110 allows for boundary B: optional whitespace around ";", names in any case. */
const SPELLINGS = [
  'multipart/form-data; boundary=B ; charset=utf-8',
  'multipart/form-data; boundary=B\t; charset=utf-8',
  'multipart/form-data; boundary=B ;charset=utf-8',
  'multipart/form-data ;\tBoundary=B \t;\tCharset=UTF-8',
  'Multipart/Form-Data; BOUNDARY="B" ; charset=utf-8',
  'multipart/form-data; charset=utf-8 ; boundary=B',
]

/** What a request's answer holds, as far as these tests look. */
type Answer = { location?: { name: string }; message?: string; error?: string }

const answer = async (path: string, bytes: Uint8Array, headers: Record<string, string>) => {
  const res = await rawRequest('POST', path, bytes, headers)
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: (await res.json()) as Answer }
}

describe('a multipart Content-Type written as RFC 9110 allows', () => {
  test('spaces before a ";", any case, a quoted boundary with a space read; spaces by "=" do not', async () => {
    const cases: [string, string][] = [
      ...SPELLINGS.map((type): [string, string] => [type, 'B']),
      ['multipart/form-data; boundary="a b"', 'a b'],
      ['multipart/form-data; boundary="a b" ; charset=utf-8', 'a b'],
      ['multipart/form-data; Boundary="a b"\t;charset=utf-8', 'a b'],
    ]
    for (const [type, boundary] of cases) {
      const { status, body: sent } = await answer(BASE, utf8(body(boundary)), { 'content-type': type })
      expect([type, status, sent.location?.name]).toEqual([type, 201, 'Cafe'])
    }
    // Spaces or tabs around "=", which RFC 9110 allows none of, are refused by name in any case.
    const before = snapshot()
    for (const [written, fault] of [
      ['boundary\t=B', 'a space before its "="'],
      ['boundary=\tB', 'a space after its "="'],
      ['Boundary = B', 'a space before its "="'],
      ['BOUNDARY= "B"', 'a space after its "="'],
    ]) {
      const type = `multipart/form-data; ${written} ; charset=utf-8`
      const { status, body: sent } = await answer(BASE, utf8(body('B')), { 'content-type': type })
      expect([type, status, sent.message]).toEqual([
        type,
        400,
        `The form body could not be read: the boundary parameter of its Content-Type (${written}) has ${fault}, which RFC 9110 does not allow: no boundary is read from it. Write it as multipart/form-data; boundary=B, or leave the Content-Type to your HTTP client, which names the boundary of the form it sends, or send JSON.`,
      ])
    }
    expect(snapshot()).toEqual(before)
  })

  test('on bulk, each spelling gets the answer the plain one gets: the form read, its file named', async () => {
    const file =
      '--B\r\nContent-Disposition: form-data; name="stores"; filename="my-stores.csv"\r\nContent-Type: text/csv\r\n\r\nname,address\r\nCafe,1 Rue\r\n'
    const bytes = utf8(body('B', file))
    const plain = await answer(`${BASE}/bulk`, bytes, { 'content-type': 'multipart/form-data; boundary=B' })
    expect([plain.status, plain.body.message]).toEqual([400, expect.stringContaining('upload (curl -F)')])
    for (const type of SPELLINGS)
      expect([type, await answer(`${BASE}/bulk`, bytes, { 'content-type': type })]).toEqual([type, plain])
  })

  test('a retry with the same parts under another spelling and boundary replays; other parts do not', async () => {
    const keyed = (type: string, key: string) => ({ 'content-type': type, 'idempotency-key': key })
    const first = await answer(BASE, utf8(body('B')), keyed('multipart/form-data; boundary=B', 'k-spelling'))
    expect([first.status, first.replayed]).toEqual([201, null])
    for (const [type, boundary] of [
      ...SPELLINGS.map((type): [string, string] => [type, 'B']),
      ['multipart/form-data; Boundary="a b" ; charset=utf-8', 'a b'],
    ]) {
      const retry = await answer(BASE, utf8(body(boundary!)), keyed(type!, 'k-spelling'))
      expect([type, retry.status, retry.replayed, retry.body]).toEqual([type, 201, 'true', first.body])
    }
    const other = body('B').replace('Cafe', 'Bar')
    const reused = await answer(BASE, utf8(other), keyed(SPELLINGS[0]!, 'k-spelling'))
    expect([reused.status, reused.body.error]).toEqual([422, 'idempotency_key_reused'])
  })
})
