// Multipart bodies FormData reads otherwise than sent on a location write: a part it drops, an
// encoded or nested part it reads as its raw text, and a body of which it reads no field. Each
// gives 400 naming the part and what is wrong, and stores nothing.
import { describe, expect, test } from 'bun:test'
import { BASE, rawRequest, snapshot, withEnv } from './locations-fixture'

withEnv()

const part = (headers: string, value: string) => `--B\r\n${headers}\r\n\r\n${value}\r\n`
const field = (name: string, value: string) => part(`Content-Disposition: form-data; name="${name}"`, value)
const REST = `${field('address', '1 Rue')}${field('coordinates[lat]', '48.87')}${field('coordinates[lng]', '2.33')}--B--\r\n`

/** The name and description stored, else the status and message of the refusal. */
async function outcome(body: string) {
  const res = await rawRequest('POST', BASE, Buffer.from(body, 'latin1'), {
    'content-type': 'multipart/form-data; boundary=B',
  })
  const sent = (await res.json()) as { location?: { name: string; description: string }; message?: string }
  return res.status === 201 ? [sent.location!.name, sent.location!.description] : [res.status, sent.message!]
}

const refused = (why: string) => [400, `The form body could not be read: ${why}`]

describe('multipart parts FormData does not read as sent', () => {
  test('a part it drops (no Content-Disposition, one not form-data, or naming no field) gives 400 naming it', async () => {
    const lost =
      'its text would be lost. Give each part a Content-Disposition of form-data; name="..." (its field), or send JSON.'
    const before = snapshot()
    const body = (headers: string) => `${field('name', 'Cafe')}${part(headers, 'Open late')}${REST}`
    expect(await outcome(body('Content-Type: text/plain'))).toEqual(
      refused(`part 2 has no Content-Disposition, which names its field: ${lost}`),
    )
    expect(await outcome(`${part('Content-Type: text/plain', 'Open late')}${field('name', 'Cafe')}${REST}`)).toEqual(
      refused(`part 1 has no Content-Disposition, which names its field: ${lost}`),
    )
    // A space beside its name (PHP's header() written "Content-Disposition : ..."): RFC 9112 allows none.
    expect(await outcome(body('Content-Disposition : form-data; name="description"'))).toEqual(
      refused(
        `part 2's header line "Content-Disposition : form-data; name=\\"description\\"" has a space before its ":", which a header line may not have (RFC 9112), so it is no Content-Disposition, which names its field: ${lost}`,
      ),
    )
    expect(await outcome(body('\tcontent-disposition: form-data; name="description"'))).toEqual(
      refused(
        `part 2's header line "\\tcontent-disposition: form-data; name=\\"description\\"" has a space before its name, which a header line may not have (RFC 9112), so it is no Content-Disposition, which names its field: ${lost}`,
      ),
    )
    for (const disposition of ['attachment; name="description"', 'inline; name="description"'])
      expect(await outcome(body(`Content-Disposition: ${disposition}`))).toEqual(
        refused(`part 2's Content-Disposition (${JSON.stringify(disposition)}) is not form-data: ${lost}`),
      )
    expect(await outcome(body('Content-Disposition: form-data'))).toEqual(
      refused(`part 2's Content-Disposition ("form-data") names no field: ${lost}`),
    )
    expect(snapshot()).toEqual(before)
    // Its advice taken as written: the part so named is read.
    expect(await outcome(body('Content-Disposition: form-data; name="description"'))).toEqual(['Cafe', 'Open late'])
  })

  test('a part in base64 or quoted-printable gives 400 naming its field; 7bit, 8bit and binary are read', async () => {
    const body = (encoding: string, value: string) =>
      `${part(`Content-Disposition: form-data; name="name"\r\nContent-Transfer-Encoding: ${encoding}`, value)}${REST}`
    const before = snapshot()
    for (const [encoding, value] of [
      ['base64', 'Q2Fmw6k='],
      ['Quoted-Printable', 'Caf=C3=A9'],
    ])
      expect(await outcome(body(encoding!, value!))).toEqual(
        refused(
          `the field "name" is sent with Content-Transfer-Encoding: ${JSON.stringify(encoding!.toLowerCase())}, which forms do not use (RFC 7578) and is not decoded: its encoded text would be stored. Send its text as it is, or send JSON.`,
        ),
      )
    expect(snapshot()).toEqual(before)
    for (const encoding of ['7bit', '8bit', 'binary'])
      expect(await outcome(body(encoding, 'Cafe'))).toEqual(['Cafe', ''])
  })

  test('a field holding a multipart/mixed of files (RFC 2388) gives 400', async () => {
    const nested =
      '--X\r\nContent-Disposition: file; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nOpen late\r\n--X--'
    const headers = 'Content-Disposition: form-data; name="description"\r\nContent-Type: multipart/mixed; boundary=X'
    const before = snapshot()
    expect(await outcome(`${field('name', 'Cafe')}${part(headers, nested)}${REST}`)).toEqual(
      refused(
        'the field "description" holds parts of its own ("multipart/mixed", as RFC 2388 sent several files in one field); location fields are text.',
      ),
    )
    expect(snapshot()).toEqual(before)
  })

  test('a body FormData reads no field of says why: cut short, a part without headers, a line without ":"', async () => {
    const fix = ' Send the body your HTTP client makes from a form (curl -F), or send JSON.'
    const before = snapshot()
    const whole = `${field('name', 'Cafe')}${REST}`
    for (const cut of [whole.slice(0, -9), whole.slice(0, -20)])
      expect(await outcome(cut)).toEqual(
        refused(`it has no closing delimiter line (--B--) after its last part: it was cut short, or not closed.${fix}`),
      )
    expect(await outcome(`${field('name', 'Cafe')}--B\r\n\r\nOpen late\r\n${REST}`)).toEqual(
      refused(`part 2 has no header lines, so no Content-Disposition, which names its field.${fix}`),
    )
    // A line starting with a space continues the one before (a fold, read); one without, no header.
    expect(await outcome(`${part('Content-Disposition: form-data;\r\nname="name"', 'Cafe')}${REST}`)).toEqual(
      refused(
        `part 1 has a header line without ":" (text before the blank line), and each header line is a name, ":" and its value, or a space or tab then more of the line before it.${fix}`,
      ),
    )
    expect(snapshot()).toEqual(before)
  })
})
