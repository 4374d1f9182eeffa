// Multipart forms as clients send them beyond the common case: a file named by filename* alone
// (RFC 6266), a form's _charset_ field (RFC 7578 4.6), and boundaries quoted with RFC 2046's signs.
import { describe, expect, test } from 'bun:test'
import { BASE, rawRequest, snapshot, withEnv } from './locations-fixture'

withEnv()

const latin1 = (text: string) => Buffer.from(text, 'latin1')
const CSV = 'name,address,lat,lng\r\nCafe,1 Rue,48.87,2.33'

/** The answer to a multipart body (latin1 text) at `path`, with boundary B unless `type` says otherwise. */
async function post(path: string, text: string, type = 'multipart/form-data; boundary=B') {
  const res = await rawRequest('POST', path, latin1(text), { 'content-type': type })
  const body = (await res.json()) as { message?: string; location?: { name: string } }
  return { status: res.status, message: body.message, name: body.location?.name }
}

/** A body of one part with these Content-Disposition parameters and value. */
const onePart = (params: string, value: string, type = 'text/csv') =>
  `--B\r\nContent-Disposition: form-data; ${params}\r\nContent-Type: ${type}\r\n\r\n${value}\r\n--B--\r\n`

describe('a file named by filename* (RFC 6266)', () => {
  test('alone, it is a file named by its decoded name: the bulk route names it, a create refuses it', async () => {
    const before = snapshot()
    const told = async (params: string) => (await post(`${BASE}/bulk`, onePart(params, CSV))).message
    // "störes.csv" in UTF-8 percent-encoded, in ISO-8859-1, and beside .NET's encoded-word filename.
    const named = 'with curl --data-binary @"störes.csv" -H "Content-Type: text/csv".'
    expect(await told(`name="file"; filename*=UTF-8''st%C3%B6res.csv`)).toEndWith(named)
    expect(await told(`name="file"; filename*=iso-8859-1'en'st%F6res.csv`)).toEndWith(named)
    expect(
      await told(`name=file; filename="=?utf-8?B?c3TDtnJlcy5jc3Y=?="; filename*=utf-8''st%C3%B6res.csv`),
    ).toEndWith(named)
    // Its text is a file's, not the field's value.
    const create = `--B\r\nContent-Disposition: form-data; name="name"\r\n\r\nCafe\r\n--B\r\nContent-Disposition: form-data; name="address"; filename*=UTF-8''a.txt\r\n\r\n1 Rue\r\n--B--\r\n`
    expect(await post(BASE, create)).toEqual({
      status: 400,
      message: 'The form body could not be read: the field "address" is a file; location fields are text.',
      name: undefined,
    })
    expect(snapshot()).toEqual(before)
  })
})
