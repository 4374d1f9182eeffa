// How a multipart body on a location write is split beside FormData: its text made once, its
// boundary and each part's Content-Disposition read as FormData reads them or refused, and the
// refusals that name a part or its lines.
import { describe, expect, spyOn, test } from 'bun:test'
import { BASE, rawRequest, withEnv } from './locations-fixture'

withEnv()

const utf8 = (text: string) => new TextEncoder().encode(text)

/** A part of a multipart body with boundary B: its header lines as given, its value. */
const part = (headers: string, value: string) => `--B\r\n${headers}\r\n\r\n${value}\r\n`
const field = (name: string, value: string) => part(`Content-Disposition: form-data; name="${name}"`, value)
const REST = `${field('address', '1 Rue')}${field('coordinates[lat]', '48.87')}${field('coordinates[lng]', '2.33')}--B--\r\n`

/** The name stored, else the status and message of the refusal. */
async function outcome(body: string, contentType = 'multipart/form-data; boundary=B', headers = {}) {
  const res = await rawRequest('POST', BASE, utf8(body), { 'content-type': contentType, ...headers })
  const sent = (await res.json()) as { location?: { name: string }; message?: string }
  return res.status === 201 ? sent.location!.name : [res.status, sent.message!]
}

describe('multipart bodies', () => {
  test('a keyed multipart body is made text once, for its charsets, its line ends and its fingerprint alike', async () => {
    const body = `${field('name', 'Café')}${REST}`
    const size = utf8(body).length
    const asText = spyOn(Buffer.prototype, 'toString')
    try {
      expect(await outcome(body, undefined, { 'idempotency-key': 'k-once' })).toBe('Café')
      const texts = asText.mock.calls.filter((call, i) => {
        const buffer = asText.mock.contexts[i] as unknown as Buffer
        return call[0] === 'latin1' && buffer.length === size
      })
      expect(texts.length).toBe(1)
    } finally {
      asText.mockRestore()
    }
    const again = await rawRequest('POST', BASE, utf8(body.replaceAll('--B', '--C')), {
      'content-type': 'multipart/form-data; boundary=C',
      'idempotency-key': 'k-once',
    })
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
  })
})
