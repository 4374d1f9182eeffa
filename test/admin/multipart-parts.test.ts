// How a multipart body on a location write is split beside FormData: its text made once, its
// boundary and each part's Content-Disposition read one way or refused, and the refusals that
// name a part or its lines.
import { describe, expect, spyOn, test } from 'bun:test'
import { BASE, env, rawRequest, snapshot, withEnv } from './locations-fixture'

withEnv()

const utf8 = (text: string) => new TextEncoder().encode(text)
const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0))

/** A part of a multipart body with boundary B: its header lines as given, its value. */
const part = (headers: string, value: string) => `--B\r\n${headers}\r\n\r\n${value}\r\n`
const field = (name: string, value: string) => part(`Content-Disposition: form-data; name="${name}"`, value)
const REST = `${field('address', '1 Rue')}${field('coordinates[lat]', '48.87')}${field('coordinates[lng]', '2.33')}--B--\r\n`

/** The name stored, else the status and message of the refusal. */
async function outcome(body: string | Uint8Array, contentType = 'multipart/form-data; boundary=B', headers = {}) {
  const bytes = typeof body === 'string' ? utf8(body) : body
  const res = await rawRequest('POST', BASE, bytes, { 'content-type': contentType, ...headers })
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

  test('delimiter lines padded with spaces or tabs (RFC 2046) are read as the form without them', async () => {
    const body = `${field('name', 'Cafe')}${field('description', 'Open late')}${REST}`
    const stored = async (sent: string, headers = {}) => {
      const res = await rawRequest('POST', BASE, utf8(sent), {
        'content-type': 'multipart/form-data; boundary=B',
        ...headers,
      })
      const { location } = (await res.json()) as { location?: { name: string; description: string } }
      return [res.status, location?.name, location?.description]
    }
    const lines = body.split('\r\n')
    // Each delimiter line, the first or one within: FormData reads none of them as a delimiter.
    const padded = (pad: string, which: (i: number) => boolean) =>
      lines.map((line, i) => (line === '--B' && which(i) ? `--B${pad}` : line)).join('\r\n')
    for (const sent of [
      padded('  ', () => true),
      padded('\t', () => true),
      padded(' \t ', (i) => i === 0),
      padded(' ', (i) => i > 0 && i < 6),
      body.replace('--B--', '--B--  '),
    ])
      expect(await stored(sent)).toEqual([201, 'Cafe', 'Open late'])
    // Padding means nothing: a retry under its key, unpadded and with another boundary, replays.
    const key = { 'idempotency-key': 'k-padded' }
    expect(
      await stored(
        padded('  ', () => true),
        key,
      ),
    ).toEqual([201, 'Cafe', 'Open late'])
    const again = await rawRequest('POST', BASE, utf8(body.replaceAll('--B', '--C')), {
      'content-type': 'multipart/form-data; boundary=C',
      ...key,
    })
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
  })

  test('padded delimiter lines ended by LF alone give 400 saying lines end in CRLF, and store nothing', async () => {
    const body = `${field('name', 'Cafe')}${field('description', 'Open late')}${REST}`
    const before = snapshot()
    for (const sent of [
      body.replaceAll('\r\n', '\n').replaceAll('--B\n', '--B  \n'),
      body.replaceAll('\r\n', '\n').replaceAll('--B\n', '--B\t\n'),
      // Its first part in CRLF: FormData would read the rest as that part's value.
      body.replace(
        /(Open late\r\n)([\s\S]*)$/,
        (_, value, rest) => value + rest.replaceAll('\r\n', '\n').replaceAll('--B\n', '--B \n'),
      ),
    ])
      expect(await outcome(sent)).toEqual([400, expect.stringMatching(/its lines end in LF alone .*end in CRLF/)])
    expect(snapshot()).toEqual(before)
  })

  test('a boundary holding a backslash, quoted or not, gives 400 naming it, and stores nothing', async () => {
    // A part FormData reads as Windows-1252 text: refused when its part is judged, stored else.
    const latin = 'Content-Type: text/plain; charset=windows-1252'
    const body = (b: string) =>
      `${field('name', 'Cafe')}${part(`Content-Disposition: form-data; name="description"\r\n${latin}`, 'Café')}${REST}`.replaceAll(
        '--B',
        `--${b}`,
      )
    const refused = (shown: string) => [
      400,
      `The form body could not be read: the boundary its Content-Type names (${shown}) holds a backslash, which a boundary may not hold (RFC 2046). Send the body your HTTP client makes from a form (curl -F), or a boundary of letters, digits and '()+_,-./:=?.`,
    ]
    const before = snapshot()
    // Quoted, RFC 9110 reads B\C and FormData B\\C: as FormData reads it, and as the RFC does.
    expect(await outcome(body('B\\\\C'), 'multipart/form-data; boundary="B\\\\C"')).toEqual(refused('B\\\\C'))
    expect(await outcome(body('B\\C'), 'multipart/form-data; boundary="B\\\\C"')).toEqual(refused('B\\\\C'))
    expect(await outcome(body('B\\C'), 'multipart/form-data; boundary=B\\C')).toEqual(refused('B\\C'))
    // A backslash before another character: RFC 9110 drops it (BC, B"C), FormData keeps it.
    expect(await outcome(body('B\\C'), 'multipart/form-data; boundary="B\\C"')).toEqual(refused('B\\C'))
    expect(await outcome(body('B\\"C'), 'multipart/form-data; boundary="B\\"C"')).toEqual(refused('B\\"C'))
    expect(snapshot()).toEqual(before)
    expect(await outcome(body('B/C'), 'multipart/form-data; boundary="B/C"')).toEqual([
      400,
      'The form body could not be read: the field "description" is in the charset "windows-1252" (its part\'s Content-Type says so), and form bodies are read as UTF-8 only. Send it encoded as UTF-8 (charset=utf-8), or send JSON.',
    ])
  })

  test('a boundary parameter written otherwise than RFC 9110 writes one gives 400 naming its fault', async () => {
    const body = `${field('name', 'Cafe')}${REST}`
    for (const [type, fault] of [
      ['boundary =B', 'a space before its "="'],
      ['boundary = B', 'a space before its "="'],
      ['boundary= B', 'a space after its "="'],
      ['boundary="B', 'a quote that is not closed'],
      ['boundary="B"x', 'text after its closing quote'],
      ['boundary=B"', 'a quote in a value not quoted'],
      ['boundary:B', 'a ":" where its "=" goes'],
      ['charset=utf-8 boundary=B', 'no ";" before it'],
    ] as [string, string][]) {
      const written = type.replace('charset=utf-8 ', '')
      const before = snapshot()
      const [status, message] = (await outcome(body, `multipart/form-data; ${type}`)) as [number, string]
      expect([type, status, message]).toEqual([
        type,
        400,
        `The form body could not be read: the boundary parameter of its Content-Type (${written}) has ${fault}, which RFC 9110 does not allow: no boundary is read from it. Write it as multipart/form-data; boundary=B, or leave the Content-Type to your HTTP client, which names the boundary of the form it sends, or send JSON.`,
      ])
      // Its advice taken as written: the body is read.
      const named = /Write it as ([^,]+),/.exec(message)![1]!
      expect(snapshot()).toEqual(before)
      expect(await outcome(body, named)).toBe('Cafe')
    }
    // A space or "," for the ";" after the type: a form miswritten, not a type that is not read.
    for (const [type, fault] of [
      ['multipart/form-data, boundary=B', 'a "," before it where a ";" goes'],
      ['multipart/form-data boundary=B', 'no ";" before it'],
    ])
      expect(await outcome(body, type)).toEqual([
        400,
        `The form body could not be read: the boundary parameter of its Content-Type (boundary=B) has ${fault}, which RFC 9110 does not allow: no boundary is read from it. Write it as multipart/form-data; boundary=B, or leave the Content-Type to your HTTP client, which names the boundary of the form it sends, or send JSON.`,
      ])
    // On bulk, which reads no form: the same why.
    for (const [type, fault] of [
      ['multipart/form-data; boundary =B', 'boundary =B) has a space before its "="'],
      ['multipart/form-data, boundary=B', 'boundary=B) has a "," before it where a ";" goes'],
    ]) {
      const bulk = await rawRequest('POST', `${BASE}/bulk`, utf8(body), { 'content-type': type! })
      expect((await bulk.json()) as { message: string }).toMatchObject({
        message: expect.stringContaining(
          `It was sent as "multipart/form-data", and this route reads no form; nor could its parts be read: the boundary parameter of its Content-Type (${fault}, which RFC 9110 does not allow: no boundary is read from it. Send JSON`,
        ),
      })
    }
  })

  test('an empty boundary gives 400 saying so, and stores nothing', async () => {
    // FormData reads boundary="" with delimiters "--": a part in Latin-1 would go unjudged.
    const latin = 'Content-Type: text/plain; charset=iso-8859-1'
    const body = `${field('name', 'Cafe')}${part(`Content-Disposition: form-data; name="description"\r\n${latin}`, 'Café')}${REST}`
    const says = [
      400,
      'The form body could not be read: the boundary its Content-Type names is empty, and a boundary has 1 to 70 characters (RFC 2046). Send the body your HTTP client makes from a form (curl -F), or send JSON.',
    ]
    const before = snapshot()
    expect(await outcome(body.replaceAll('--B', '--'), 'multipart/form-data; boundary=""')).toEqual(says)
    expect(await outcome(body.replaceAll('--B', '--'), 'multipart/form-data; boundary=')).toEqual(says)
    expect(snapshot()).toEqual(before)
  })

  test('a Content-Type of "multipart/form-data" alone, set by hand, gives 400 saying to leave it to the client', async () => {
    // fetch and requests send the type set by hand as it is, without the boundary of the body they write.
    const form = new FormData()
    for (const [k, v] of Object.entries({ name: 'Cafe', address: '1 Rue', 'coordinates[lat]': '48.87' }))
      form.append(k, v)
    form.append('coordinates[lng]', '2.33')
    const made = new Response(form)
    const boundary = /boundary=(\S+)$/.exec(made.headers.get('content-type')!)![1]!
    const bytes = new Uint8Array(await made.arrayBuffer())
    const before = snapshot()
    const [status, message] = (await outcome(bytes, 'multipart/form-data')) as [number, string]
    expect([status, message]).toEqual([
      400,
      `The form body could not be read: its Content-Type names no boundary (multipart/form-data; boundary=...), the line each part starts with. Leave the Content-Type to your HTTP client, which names the boundary of the form it sends, or name the boundary its parts start with (multipart/form-data; boundary=${boundary}), or send JSON.`,
    ])
    expect(snapshot()).toEqual(before)
    // Its advice taken as written: the form with the type its client writes, or the type named.
    const res = await env.app.handle(
      new Request(`http://localhost${BASE}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}` },
        body: form,
      }),
    )
    expect(res.status).toBe(201)
    const named = /start with \((multipart\/form-data; boundary=[^)]+)\)/.exec(message)![1]!
    expect(await outcome(bytes, named)).toBe('Cafe')
    // On bulk, which reads no form: why, and to send JSON or the CSV file.
    const bulk = await rawRequest('POST', `${BASE}/bulk`, bytes, { 'content-type': 'multipart/form-data' })
    expect([bulk.status, ((await bulk.json()) as { message: string }).message]).toEqual([
      400,
      'Send the locations as JSON ({"locations": [...]}, Content-Type: application/json) or as CSV (Content-Type: text/csv, or text/tab-separated-values for tab separated values). It was sent as "multipart/form-data", and this route reads no form; nor could its parts be read: its Content-Type names no boundary (multipart/form-data; boundary=...), the line each part starts with. Send JSON, such as {"locations": [{"name": "A", "address": "1 Main St, Town"}]} with Content-Type: application/json, or a CSV file as it is, with curl --data-binary @FILE.csv -H "Content-Type: text/csv".',
    ])
    // A body that starts otherwise than with a delimiter: no boundary to name.
    expect(await outcome(`preamble\r\n${field('name', 'Cafe')}${REST}`, 'multipart/form-data; charset=utf-8')).toEqual([
      400,
      'The form body could not be read: its Content-Type names no boundary (multipart/form-data; boundary=...), the line each part starts with. Leave the Content-Type to your HTTP client, which names the boundary of the form it sends, or send JSON.',
    ])
  })

  test('a Content-Disposition read in more than one way (a bare word, a quote in a word, given twice) gives 400', async () => {
    const body = (headers: string) => `${field('name', 'Cafe')}${part(headers, 'Café')}${REST}`
    const doubted = (disposition: string) => [
      400,
      `The form body could not be read: a part's Content-Disposition (${JSON.stringify(disposition)}) is read in more than one way: it is given twice, a parameter is given twice or has no value, or a value holds a backslash or a quote. Give it once, with each value a word or in quotes, as form-data; name="name", or send JSON.`,
    ]
    const before = snapshot()
    for (const disposition of [
      'form-data; name=descr"iption',
      'form-data; name="description"; size; filename="a.csv"',
      'form-data; name="x"; name="description"; filename="a.csv"',
    ])
      expect(await outcome(body(`Content-Disposition: ${disposition}`))).toEqual(doubted(disposition))
    // FormData takes the last name: "name", where the first is read here.
    const twice = 'Content-Disposition: form-data; name="désignation"\r\nContent-Disposition: form-data; name="name"'
    expect(await outcome(body(twice))).toEqual(doubted('form-data; name="désignation"'))
    expect(snapshot()).toEqual(before)
    // Its advice taken as written: the part sent so is read.
    const [, message] = (await outcome(body('Content-Disposition: form-data; name=descr"iption'))) as [number, string]
    const given = /as (form-data; [^,]+), or send JSON\.$/.exec(message)![1]!
    // The example names the field "name", which this body gives before it: given once, it is read.
    expect(await outcome(`${part(`Content-Disposition: ${given}`, 'Café')}${REST}`)).toBe('Café')
    // Words without quotes read one way, as .NET writes them: FormData reads "description;
    // filename=a.csv" as a text field's name, and the part is read as the file it is.
    const file = [400, 'The form body could not be read: the field "description" is a file; location fields are text.']
    for (const disposition of [
      'form-data; name=description; filename=a.csv',
      'form-data; filename=a.csv; name="description"',
      'form-data; name="description"; size=3; filename="a.csv"',
      'form-data; name="description"; filename=a.csv',
    ])
      expect(await outcome(body(`Content-Disposition: ${disposition}`))).toEqual(file)
    expect(await outcome(body('Content-Disposition: form-data; name=description'))).toBe('Cafe')
    expect(await outcome(body('Content-Disposition: form-data; name="descr;iption"'))).toBe('Cafe')
    // Read so, each field is the part's name and its text in UTF-8.
    expect(await outcome(`${part('Content-Disposition: form-data; name=name; size=5', 'Café')}${REST}`)).toBe('Café')
  })

  test('a parameter miswritten beside a name that every reading reads alike is read, its name the field', async () => {
    // No backslash: FormData and a lenient reading name the field alike, whatever the rest holds.
    for (const disposition of [
      'form-data; name="name";;',
      'form-data; name="name"; modification-date=Wed, 12 Feb 1997',
      'form-data; name="name"; size=1 234',
      'form-data; name="name"; note=café',
      'form-data; name="name",',
      'form-data; name="name"; size=',
      'form-data; name="name"; note=two words',
    ])
      expect([disposition, await outcome(`${part(`Content-Disposition: ${disposition}`, 'Café')}${REST}`)]).toEqual([
        disposition,
        'Café',
      ])
  })

  test('a file input named with a backslash last, as browsers write it, is the file it is, whatever its filename holds', async () => {
    // Chromium, undici and curl -F write name="photo\"; filename="a;b;c.csv" for a field named
    // photo\: FormData reads the backslash as escaping its quote, a text field; a browser escapes none.
    const body = (filename: string) =>
      `${part(`Content-Disposition: form-data; name="photo\\"; filename="${filename}"\r\nContent-Type: text/csv`, 'name,address')}${field('name', 'Cafe')}${REST}`
    const before = snapshot()
    for (const filename of ['a.csv', 'a;b;c.csv', 'stores; v2; final.csv'])
      expect(await outcome(body(filename))).toEqual([
        400,
        'The form body could not be read: the field "photo\\\\" is a file; location fields are text.',
      ])
    expect(snapshot()).toEqual(before)
  })

  test('a refused part named beyond ASCII is named as sent, in UTF-8', async () => {
    const headers =
      'Content-Disposition: form-data; name="désignation"\r\nContent-Type: text/plain; charset=windows-1252'
    const bytes = new Uint8Array([
      ...utf8(`${field('name', 'Cafe')}--B\r\n${headers}\r\n\r\n`),
      ...latin1('Café'),
      ...utf8(`\r\n${REST}`),
    ])
    expect(await outcome(bytes)).toEqual([
      400,
      'The form body could not be read: the field "désignation" is in the charset "windows-1252" (its part\'s Content-Type says so), and form bodies are read as UTF-8 only. Send it encoded as UTF-8 (charset=utf-8), or send JSON.',
    ])
  })

  test('part header lines ended by LF alone, between delimiters in CRLF, give 400 saying lines end in CRLF', async () => {
    const says = [400, expect.stringMatching(/: its lines end in LF alone .*end in CRLF/)]
    const before = snapshot()
    for (const headers of [
      'Content-Disposition: form-data; name="description"\n',
      'Content-Disposition: form-data; name="description"\nContent-Type: text/plain\n',
      'Content-Disposition: form-data; name="description"\r\n\n',
    ])
      expect(await outcome(`${field('name', 'Cafe')}--B\r\n${headers}\nsome text\r\n${REST}`)).toEqual(says)
    expect(snapshot()).toEqual(before)
    // A LF within headers that end in a blank line in CRLF is read.
    const inner = 'Content-Disposition: form-data; name="description"\nContent-Type: text/plain'
    expect(await outcome(`${field('name', 'Cafe')}${part(inner, 'some text')}${REST}`)).toBe('Cafe')
  })
})
