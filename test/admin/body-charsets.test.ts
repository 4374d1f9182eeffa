// What each body a location write reads gets for the charset its Content-Type names: JSON and
// forms by one rule (read as UTF-8 when the label names UTF-8 or nothing, the text is ASCII or
// starts with UTF-8's byte order mark), CSV in the charset named, and refused where the bytes
// cannot be in it.
import { describe, expect, test } from 'bun:test'
import { storeBody } from '../helpers'
import { BASE, env, rawRequest, snapshot, withEnv } from './locations-fixture'

withEnv()

const utf8 = (text: string) => new TextEncoder().encode(text)
const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0))
const utf16le = (text: string) => new Uint8Array(Buffer.from(text, 'utf16le'))

type Kind = 'json' | 'form' | 'csv'
const TYPES: Record<Kind, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  csv: 'text/csv',
}
const PATHS: Record<Kind, string> = { json: BASE, form: BASE, csv: `${BASE}/bulk` }

/** A body of each kind creating one store named `name`, in `encode`'s bytes. */
function bodyOf(kind: Kind, name: string, encode: (text: string) => Uint8Array): Uint8Array {
  if (kind === 'json') return encode(JSON.stringify(storeBody({ name })))
  if (kind === 'form') return encode(`name=${name}&address=1+Rue&coordinates%5Blat%5D=48.87&coordinates%5Blng%5D=2.33`)
  return encode(`name,address,lat,lng\n${name},1 Rue,48.87,2.33\n`)
}

/** The name stored when the body is read, else the status and message of its refusal. */
const outcome = (kind: Kind, charset: string, bytes: Uint8Array) =>
  outcomeAs(kind, `${TYPES[kind]}; charset=${charset}`, bytes)

/** outcome, with the whole Content-Type given. */
async function outcomeAs(kind: Kind, contentType: string, bytes: Uint8Array): Promise<string | [number, string]> {
  const res = await rawRequest('POST', PATHS[kind], bytes, { 'content-type': contentType })
  const body = (await res.json()) as { location?: { id: string }; results?: { id: string }[]; message?: string }
  if (res.status >= 400) return [res.status, body.message!]
  const id = body.location?.id ?? body.results![0]!.id
  return (await env.call('GET', `${BASE}/${id}`)).body.location.name
}

const jsonRefused = (label: string): [number, string] => [
  400,
  `The request body is JSON in the charset "${label}" (its Content-Type says so), and JSON is read as UTF-8 only (RFC 8259): nothing was read. Send it encoded as UTF-8, with Content-Type: application/json or application/json; charset=utf-8.`,
]
const formRefused = (label: string): [number, string] => [
  400,
  `The form body could not be read: its charset is "${label}", and form bodies are read as UTF-8 only. Send it encoded as UTF-8 (charset=utf-8), or send JSON.`,
]
const csvMisnamed = (named: string): [number, string] => [
  400,
  `The CSV body cannot be read: The file is ${named}. Its bytes are UTF-8, which is read when no encoding is named: send it as Content-Type: text/csv, or text/csv; charset=utf-8.`,
]
const NOT_UTF16 =
  'named UTF-16 ("utf-16"), but it is not: UTF-16 writes a NUL byte beside each comma, digit and line break, and it has none'

describe('the charset a body names', () => {
  test('ASCII is read in every body whatever the charset names: us-ascii, latin1, utf-16', async () => {
    for (const kind of ['json', 'form', 'csv'] as const)
      for (const charset of ['us-ascii', 'latin1', 'utf-16']) {
        const got = await outcome(kind, charset, bodyOf(kind, 'Cafe', utf8))
        expect({ kind, charset, got }).toEqual({ kind, charset, got: 'Cafe' })
      }
  })

  test('us-ascii with bytes beyond ASCII is refused by every body, nothing stored: they are in a charset not said', async () => {
    const snap = snapshot()
    const cases: [Kind, Uint8Array, string | [number, string]][] = [
      ['json', bodyOf('json', 'Café', utf8), jsonRefused('us-ascii')],
      ['form', bodyOf('form', 'Café', utf8), formRefused('us-ascii')],
      ['form', bodyOf('form', 'Caf%C3%A9', utf8), formRefused('us-ascii')],
      ['csv', bodyOf('csv', 'Café', utf8), csvMisnamed('named ASCII ("us-ascii"), but it holds bytes beyond ASCII')],
    ]
    for (const [kind, bytes, expected] of cases) {
      const got = await outcome(kind, 'us-ascii', bytes)
      expect({ kind, got }).toEqual({ kind, got: expected })
    }
    expect(snapshot()).toEqual(snap)
  })

  test('latin1 beyond ASCII: JSON and forms refuse it; CSV is read in it, UTF-8 bytes garbled as it reads them', async () => {
    expect(await outcome('json', 'latin1', bodyOf('json', 'Café', latin1))).toEqual(jsonRefused('latin1'))
    expect(await outcome('form', 'latin1', bodyOf('form', 'Caf%E9', utf8))).toEqual(formRefused('latin1'))
    expect(await outcome('form', 'latin1', bodyOf('form', 'Café', latin1))).toEqual(formRefused('latin1'))
    expect(await outcome('csv', 'latin1', bodyOf('csv', 'Café', latin1))).toBe('Café')
    expect(await outcome('csv', 'latin1', bodyOf('csv', 'Café', utf8))).toBe('CafÃ©')
  })

  test('utf-16: JSON and forms refuse it beyond ASCII; CSV in it is read, UTF-8 bytes named so are refused saying what they are', async () => {
    const snap = snapshot()
    expect(await outcome('json', 'utf-16', bodyOf('json', 'Café', utf16le))).toEqual(jsonRefused('utf-16'))
    expect(await outcome('json', 'utf-16', bodyOf('json', 'Café', utf8))).toEqual(jsonRefused('utf-16'))
    expect(await outcome('form', 'utf-16', bodyOf('form', 'Café', utf8))).toEqual(formRefused('utf-16'))
    expect(await outcome('csv', 'utf-16', bodyOf('csv', 'Café', utf8))).toEqual(csvMisnamed(NOT_UTF16))
    expect(snapshot()).toEqual(snap)
    expect(await outcome('csv', 'utf-16', bodyOf('csv', 'Café', utf16le))).toBe('Café')
  })

  test('x-user-defined beyond ASCII is refused by every body, nothing stored: it reads bytes as private-use characters', async () => {
    const snap = snapshot()
    expect(await outcome('json', 'x-user-defined', bodyOf('json', 'Café', latin1))).toEqual(
      jsonRefused('x-user-defined'),
    )
    expect(await outcome('form', 'x-user-defined', bodyOf('form', 'Caf%E9', utf8))).toEqual(
      formRefused('x-user-defined'),
    )
    expect(await outcome('csv', 'x-user-defined', bodyOf('csv', 'Café', latin1))).toEqual([
      400,
      'The CSV body cannot be read: The file is named "x-user-defined", which is no text\'s encoding: each byte beyond ASCII would be read as a private-use character, not a letter. Save it again as UTF-8 (in Excel, "CSV UTF-8 (Comma delimited)") and send it as Content-Type: text/csv, or text/csv; charset=utf-8. Or, if it is Windows-1252 (most back offices in the West), name it in the Content-Type: text/csv; charset=windows-1252.',
    ])
    expect(snapshot()).toEqual(snap)
    expect(await outcome('csv', 'x-user-defined', bodyOf('csv', 'Cafe', utf8))).toBe('Cafe')
  })

  test('an empty charset names none: every body is read as UTF-8, and bytes that are not are refused as without one', async () => {
    for (const charset of ['', '""', ' '])
      for (const kind of ['json', 'form', 'csv'] as const) {
        const got = await outcome(kind, charset, bodyOf(kind, kind === 'form' ? 'Caf%C3%A9' : 'Café', utf8))
        expect({ kind, charset, got }).toEqual({ kind, charset, got: 'Café' })
      }
    const snap = snapshot()
    const refused = async (kind: Kind, bytes: Uint8Array) => {
      const none = await rawRequest('POST', PATHS[kind], bytes, { 'content-type': TYPES[kind] })
      const empty = await outcome(kind, '', bytes)
      expect(empty).toEqual([none.status, ((await none.json()) as { message: string }).message])
      return empty
    }
    expect((await refused('json', bodyOf('json', 'Café', latin1)))[0]).toBe(400)
    expect((await refused('form', bodyOf('form', 'Caf%E9', utf8)))[0]).toBe(400)
    expect((await refused('csv', bodyOf('csv', 'Café', latin1)))[1]).toContain('charset=windows-1252')
    expect(snapshot()).toEqual(snap)
  })

  test('a UTF-8 byte order mark says UTF-8 whatever the charset: every body reads it so', async () => {
    const marked = (text: string) => Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(text)])
    for (const charset of ['latin1', 'us-ascii', 'utf-16'])
      for (const kind of ['json', 'form', 'csv'] as const) {
        const got = await outcome(kind, charset, bodyOf(kind, kind === 'form' ? 'Caf%C3%A9' : 'Café', marked))
        expect({ kind, charset, got }).toEqual({ kind, charset, got: 'Café' })
      }
  })

  test('parameters are read as RFC 9110 writes them: a quoted ";" ends none, a backslash keeps the next character', async () => {
    // The charset after a quoted value holding ";charset=" is the one read.
    for (const kind of ['json', 'form', 'csv'] as const) {
      const type = `${TYPES[kind]}; title="Caf;charset=latin1"; charset=utf-8`
      const got = await outcomeAs(kind, type, bodyOf(kind, kind === 'form' ? 'Caf%C3%A9' : 'Café', utf8))
      expect({ kind, got }).toEqual({ kind, got: 'Café' })
    }
    expect(await outcome('json', '"utf\\-8"', bodyOf('json', 'Café', utf8))).toBe('Café')
    expect(await outcome('csv', '"windows\\-1252"', bodyOf('csv', 'Café', latin1))).toBe('Café')
    // Text after a quoted value's closing quote is no part of it.
    expect(await outcome('csv', '"windows-1252" ', bodyOf('csv', 'Café', latin1))).toBe('Café')
  })

  test('bytes named UTF-16 that are not UTF-8 either: the CSV refusal says to save as UTF-8 or name their charset', async () => {
    const res = await outcome('csv', 'utf-16le', bodyOf('csv', 'Café', latin1))
    expect(res).toEqual([
      400,
      'The CSV body cannot be read: The file is named UTF-16 ("utf-16le"), but it is not: UTF-16 writes a NUL byte beside each comma, digit and line break, and it has none. Save it again as UTF-8 (in Excel, "CSV UTF-8 (Comma delimited)") and send it as Content-Type: text/csv, or text/csv; charset=utf-8. Or, if it is Windows-1252 (most back offices in the West), name it in the Content-Type: text/csv; charset=windows-1252.',
    ])
  })

  test("multipart: a charset the body or a text part names is judged as a form's, nothing stored when refused", async () => {
    const part = (name: string, value: string, type = '') =>
      `--B\r\nContent-Disposition: form-data; name="${name}"${type && `\r\nContent-Type: ${type}`}\r\n\r\n${value}\r\n`
    const body = (name: string, type = '') =>
      utf8(
        `${part('name', name, type)}${part('address', '1 Rue')}${part('coordinates[lat]', '48.87')}${part('coordinates[lng]', '2.33')}--B--\r\n`,
      )
    const post = async (bytes: Uint8Array, contentType: string) => {
      const res = await rawRequest('POST', BASE, bytes, { 'content-type': contentType })
      const sent = (await res.json()) as { location?: { name: string }; message?: string }
      return res.status === 201 ? sent.location!.name : [res.status, sent.message!]
    }
    const snap = snapshot()
    // "CafÃ©" in Windows-1252 is the bytes of "Café" in UTF-8: read as UTF-8, another text than sent.
    expect(await post(body('Café'), 'multipart/form-data; boundary=B; charset=windows-1252')).toEqual(
      formRefused('windows-1252'),
    )
    expect(await post(body('Café', 'text/plain; charset=us-ascii'), 'multipart/form-data; boundary=B')).toEqual([
      400,
      'The form body could not be read: the field "name" is in the charset "us-ascii" (its part\'s Content-Type says so), and form bodies are read as UTF-8 only. Send it encoded as UTF-8 (charset=utf-8), or send JSON.',
    ])
    expect(snapshot()).toEqual(snap)
    expect(
      await post(body('Cafe', 'text/plain; charset=latin1'), 'multipart/form-data; boundary=B; charset=latin1'),
    ).toBe('Cafe')
    expect(
      await post(body('Café', 'text/plain; charset=UTF-8'), 'multipart/form-data; boundary="B"; charset=utf8'),
    ).toBe('Café')
    // An empty charset names none; a part's value marked as UTF-8 is UTF-8 whatever its part names.
    expect(await post(body('Café', 'text/plain; charset='), 'multipart/form-data; boundary=B; charset=')).toBe('Café')
    expect(await post(body('\uFEFFCafé', 'text/plain; charset=latin1'), 'multipart/form-data; boundary=B')).toBe('Café')
    // Parts after a closing delimiter that another follows are read: their charsets judge them too.
    const closed = new TextDecoder()
      .decode(body('Cafe'))
      .replace('Cafe\r\n', `Cafe\r\n--B--\r\n${part('description', 'Café', 'text/plain; charset=windows-1252')}`)
    const before = snapshot()
    expect(await post(utf8(closed), 'multipart/form-data; boundary=B')).toEqual([
      400,
      'The form body could not be read: the field "description" is in the charset "windows-1252" (its part\'s Content-Type says so), and form bodies are read as UTF-8 only. Send it encoded as UTF-8 (charset=utf-8), or send JSON.',
    ])
    expect(snapshot()).toEqual(before)
    // filename* alone makes a file (RFC 6266), whatever charset its part names.
    const starred = new TextDecoder()
      .decode(body('Café', 'text/plain; charset=windows-1252'))
      .replace('name="name"', `name="name"; filename*=UTF-8''name.txt`)
    expect(await post(utf8(starred), 'multipart/form-data; boundary=B')).toEqual([
      400,
      'The form body could not be read: the field "name" is a file; location fields are text.',
    ])
  })

  test('multipart: parts are judged as FormData finds them, the first after a preamble that ends in no CRLF too', async () => {
    const part = (name: string, value: string, type = '') =>
      `--B\r\nContent-Disposition: form-data; name="${name}"${type && `\r\nContent-Type: ${type}`}\r\n\r\n${value}\r\n`
    const rest = `${part('address', '1 Rue')}${part('coordinates[lat]', '48.87')}${part('coordinates[lng]', '2.33')}--B--\r\n`
    const post = async (text: string) => {
      const res = await rawRequest('POST', BASE, latin1(text), { 'content-type': 'multipart/form-data; boundary=B' })
      const sent = (await res.json()) as { location?: { name: string }; message?: string }
      return res.status === 201 ? sent.location!.name : [res.status, sent.message!]
    }
    // "CafÃ©" in latin1 is the bytes of "Café" in UTF-8: read as UTF-8, another text than sent.
    const latin = part('name', 'Caf\xc3\xa9', 'text/plain; charset=iso-8859-1')
    const before = snapshot()
    for (const preamble of ['', 'A preamble\r\n', 'A preamble ', 'A preamble\n'])
      expect([preamble, await post(`${preamble}${latin}${rest}`)]).toEqual([
        preamble,
        [
          400,
          'The form body could not be read: the field "name" is in the charset "iso-8859-1" (its part\'s Content-Type says so), and form bodies are read as UTF-8 only. Send it encoded as UTF-8 (charset=utf-8), or send JSON.',
        ],
      ])
    expect(snapshot()).toEqual(before)
    // A delimiter after a value with no CRLF before it starts a part: its charset judges it.
    expect(
      await post(`${part('name', 'Cafe').slice(0, -2)}${latin.replace('"name"', '"description"')}${rest}`),
    ).toEqual([
      400,
      'The form body could not be read: the field "description" is in the charset "iso-8859-1" (its part\'s Content-Type says so), and form bodies are read as UTF-8 only. Send it encoded as UTF-8 (charset=utf-8), or send JSON.',
    ])
    expect(snapshot()).toEqual(before)
    expect(await post(`A preamble ${part('name', 'Caf\xc3\xa9')}${rest}`)).toBe('Café')
  })

  test('a refused multipart part is named as its disposition gives it: unquoted, or quoted with a backslash escape', async () => {
    const body = (disposition: string) =>
      utf8(
        `--B\r\nContent-Disposition: form-data; name="name"\r\n\r\nCafe\r\n--B\r\nContent-Disposition: form-data; ${disposition}\r\nContent-Type: text/plain; charset=windows-1252\r\n\r\nCafé\r\n--B--\r\n`,
      )
    const refusal = async (disposition: string) => {
      const res = await rawRequest('POST', BASE, body(disposition), {
        'content-type': 'multipart/form-data; boundary=B',
      })
      return [res.status, ((await res.json()) as { message: string }).message]
    }
    const refused = (field: string) => [
      400,
      `The form body could not be read: the field ${JSON.stringify(field)} is in the charset "windows-1252" (its part's Content-Type says so), and form bodies are read as UTF-8 only. Send it encoded as UTF-8 (charset=utf-8), or send JSON.`,
    ]
    const snap = snapshot()
    expect(await refusal('name=tags')).toEqual(refused('tags'))
    expect(await refusal('name="ta\\"gs"')).toEqual(refused('ta"gs'))
    expect(snapshot()).toEqual(snap)
  })

  test('multipart text in a charset named that is not UTF-8 either is refused naming that charset, nothing stored', async () => {
    // "東京" in Shift_JIS: bytes that are no UTF-8.
    const tokyo = Uint8Array.of(0x93, 0x8c, 0x8b, 0x9e)
    const body = (type: string) =>
      Buffer.concat([
        utf8(`--B\r\nContent-Disposition: form-data; name="name"\r\n${type}\r\n`),
        tokyo,
        utf8(
          '\r\n--B\r\nContent-Disposition: form-data; name="address"\r\n\r\n1 Rue\r\n--B\r\nContent-Disposition: form-data; name="coordinates[lat]"\r\n\r\n48.87\r\n--B\r\nContent-Disposition: form-data; name="coordinates[lng]"\r\n\r\n2.33\r\n--B--\r\n',
        ),
      ])
    const refusal = async (bytes: Uint8Array, contentType: string) => {
      const res = await rawRequest('POST', BASE, bytes, { 'content-type': contentType })
      return [res.status, ((await res.json()) as { message: string }).message]
    }
    const snap = snapshot()
    expect(
      await refusal(body('Content-Type: text/plain; charset=shift_jis\r\n'), 'multipart/form-data; boundary=B'),
    ).toEqual([
      400,
      'The form body could not be read: the field "name" is in the charset "shift_jis" (its part\'s Content-Type says so), and form bodies are read as UTF-8 only. Send it encoded as UTF-8 (charset=utf-8), or send JSON.',
    ])
    expect(await refusal(body(''), 'multipart/form-data; boundary=B; charset=shift_jis')).toEqual(
      formRefused('shift_jis'),
    )
    expect(snapshot()).toEqual(snap)
  })

  test("a multipart part marked or named UTF-8 is read as UTF-8 under the body's charset; its others are judged by it", async () => {
    const part = (name: string, value: string, type = '') =>
      `--B\r\nContent-Disposition: form-data; name="${name}"${type && `\r\nContent-Type: ${type}`}\r\n\r\n${value}\r\n`
    const body = (name: string, type = '', address = '1 Rue') =>
      utf8(
        `${part('name', name, type)}${part('address', address)}${part('coordinates[lat]', '48.87')}${part('coordinates[lng]', '2.33')}--B--\r\n`,
      )
    const post = async (bytes: Uint8Array) => {
      const res = await rawRequest('POST', BASE, bytes, {
        'content-type': 'multipart/form-data; boundary=B; charset=windows-1252',
      })
      const sent = (await res.json()) as { location?: { name: string }; message?: string }
      return res.status === 201 ? sent.location!.name : [res.status, sent.message!]
    }
    expect(await post(body('\uFEFFCafé'))).toBe('Café')
    expect(await post(body('Café', 'text/plain; charset=utf-8'))).toBe('Café')
    expect(await post(body('\uFEFFCafé', '', 'Rue Hélène'))).toEqual(formRefused('windows-1252'))
  })

  test('a charset in single quotes is refused naming the quotes, by every body alike', async () => {
    const quoted = `The encoding "'utf-8'" is in single quotes, which no encoding's name holds:`
    expect(await outcome('json', "'utf-8'", bodyOf('json', 'Café', utf8))).toEqual([
      400,
      `${quoted} name UTF-8 without them, charset=utf-8 (JSON is read as UTF-8 only).`,
    ])
    expect(await outcome('form', "'utf-8'", bodyOf('form', 'Caf%C3%A9', utf8))).toEqual([
      400,
      `The form body could not be read: ${quoted} name UTF-8 without them, charset=utf-8 (a form body is read as UTF-8 only).`,
    ])
    expect(await outcome('csv', "'utf-8'", bodyOf('csv', 'Café', utf8))).toEqual([
      400,
      `The CSV body cannot be read: ${quoted} name it in the Content-Type: text/csv; charset=utf-8.`,
    ])
    // ASCII reads the same in any charset: a JSON or form body in it is read, as under any label.
    expect(await outcome('json', "'utf-8'", bodyOf('json', 'Cafe', utf8))).toBe('Cafe')
    expect(await outcome('form', "'utf-8'", bodyOf('form', 'Cafe', utf8))).toBe('Cafe')
  })

  test('JSON on the bulk route in a charset a CSV body is read in is told so; in us-ascii or x-user-defined, not', async () => {
    const post = async (charset: string) => {
      const bytes = utf8(JSON.stringify({ locations: [storeBody({ name: 'Café' })] }))
      const res = await rawRequest('POST', `${BASE}/bulk`, bytes, {
        'content-type': `application/json; charset=${charset}`,
      })
      return ((await res.json()) as { message: string }).message
    }
    const hint = ' A CSV body is read in the charset it names: Content-Type: text/csv; charset=windows-1252.'
    expect(await post('windows-1252')).toBe(jsonRefused('windows-1252')[1] + hint)
    expect(await post('us-ascii')).toBe(jsonRefused('us-ascii')[1])
    // Nor in one a CSV body is refused in too: x-user-defined, or a label no encoding has.
    expect(await post('x-user-defined')).toBe(jsonRefused('x-user-defined')[1])
    expect(await post('ansi')).toBe(jsonRefused('ansi')[1])
  })
})
