// The bodies a location write reads: JSON, form and multipart, content types, malformed or
// non-UTF-8 JSON, bodies nested deep, and the 256 KiB limit (413).
import { test, expect, describe } from 'bun:test'
import { storeBody } from '../helpers'
import {
  withEnv,
  env,
  BASE,
  create,
  get,
  created,
  rawRequest,
  form,
  snapshot,
  expectValidation,
  expectNoChange,
} from './locations-fixture'

withEnv()

describe('POST /locations body formats', () => {
  test('a form-urlencoded body with name, address and coordinates[lat]/[lng] creates the location', async () => {
    const res = await form(
      BASE,
      'name=Form+Shop&address=2+High+Street&coordinates%5Blat%5D=51.5&coordinates%5Blng%5D=-0.12&tags%5B%5D=a&tags%5B%5D=b&contact%5Bphone%5D=123',
    )
    expect(res.status).toBe(201)
    expect(res.body.location).toMatchObject({
      name: 'Form Shop',
      address: '2 High Street',
      coordinates: { lat: 51.5, lng: -0.12 },
      tags: ['a', 'b'],
      contact: { phone: '123', email: '', website: '' },
      status: 'published',
      geocoding: { precision: 'city', source: 'reverse' },
    })
    expect((await get(res.body.location.id)).body.location).toEqual(res.body.location)
  })

  test('a multipart form body creates the location too', async () => {
    const fd = new FormData()
    fd.set('name', 'Multipart Shop')
    fd.set('address', '3 High Street')
    fd.set('coordinates[lat]', '10')
    fd.set('coordinates[lng]', '20')
    const res = await env.app.handle(
      new Request(`http://localhost${BASE}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}` },
        body: fd,
      }),
    )
    expect(res.status).toBe(201)
    const body = (await res.json()) as { location: unknown }
    expect(body.location).toMatchObject({
      name: 'Multipart Shop',
      address: '3 High Street',
      coordinates: { lat: 10, lng: 20 },
    })
  })

  test('a multipart body with lines ended by LF alone gives 400 saying its lines must end in CRLF, and stores nothing', async () => {
    const part = (name: string, value: string, eol: string) =>
      `--B${eol}Content-Disposition: form-data; name="${name}"${eol}${eol}${value}${eol}`
    const body = (eols: string[]) =>
      `${['name', 'tags[]', 'description'].map((n, i) => part(n, `${n} sent`, eols[i]!)).join('')}--B--${eols[2]}`
    const multipart = { 'content-type': 'multipart/form-data; boundary=B' }
    const send = (path: string, eols: string[], before = '') =>
      expectNoChange(() => env.call('POST', path, { body: before + body(eols), headers: multipart }))
    const refused = (res: { status: number; body: any }) => [res.status, res.body.error, res.body.message]
    const says = [400, 'invalid_request', expect.stringMatching(/lines end in LF alone .*end in CRLF/)]
    expect(refused(await send(BASE, ['\n', '\n', '\n']))).toEqual(says)
    // Written in a template literal that starts on its own line: its first delimiter follows a LF.
    expect(refused(await send(BASE, ['\n', '\n', '\n'], '\n'))).toEqual(says)
    // Its first part in CRLF, FormData would read the rest as that part's value.
    const { id } = await created()
    expect(refused(await send(`${BASE}/${id}`, ['\r\n', '\n', '\n']))).toEqual(says)
    expect(refused(await send(`${BASE}/${id}`, ['\r\n', '\r\n', '\n']))).toEqual(says)
    // In CRLF throughout, it is read: LF in a value, the boundary's text ending no line or after a LF
    // alone (a delimiter follows a CRLF), are its own.
    const value = 'line 1\n--B\nline 2\n--Bx\n--B--'
    const res = await env.call('POST', `${BASE}/${id}`, {
      body: body(['\r\n', '\r\n', '\r\n']).replace('description sent', value),
      headers: multipart,
    })
    expect([res.status, res.body.location.name, res.body.location.description]).toEqual([200, 'name sent', value])
  })

  test('a form body is read as URLSearchParams reads it: "+" a space, escapes decoded, a "%" without hex digits as typed, an ASCII body in any charset', async () => {
    const coords = '&coordinates%5Blat%5D=48.87&coordinates%5Blng%5D=2.33'
    const cases: [body: string, type: string, fields: Record<string, string>][] = [
      [
        `name=Caf%C3%A9+Cr%C3%A8me&address=1%2B1+Rue${coords}`,
        'application/x-www-form-urlencoded',
        { name: 'Café Crème', address: '1+1 Rue' },
      ],
      [`name=Caf%C3%A9&address=1+Rue${coords}`, 'application/x-www-form-urlencoded; charset=UTF-8', { name: 'Café' }],
      // As curl -d sends what it is given: a "%" not followed by two hex digits is the character.
      [
        `name=Shop&address=1+Rue&description=20% off, 100%ZZ${coords}`,
        'application/x-www-form-urlencoded',
        { description: '20% off, 100%ZZ' },
      ],
      // Apache HttpClient says ISO-8859-1 by default: an ASCII body reads the same in it.
      [
        `name=Plain+Shop&address=1+Rue${coords}`,
        'application/x-www-form-urlencoded; charset=ISO-8859-1',
        { name: 'Plain Shop' },
      ],
    ]
    for (const [body, type, fields] of cases) {
      const res = await env.call('POST', BASE, { body, headers: { 'content-type': type } })
      expect({ body, status: res.status }).toEqual({ body, status: 201 })
      expect(res.body.location).toMatchObject(fields)
    }
  })

  test('a form body whose text would be read changed gives 400 invalid_request saying why, and stores nothing', async () => {
    const rest = '&address=1+Rue&coordinates%5Blat%5D=1&coordinates%5Blng%5D=2'
    const latin1 = (text: string) => new Uint8Array([...text].map((c) => c.charCodeAt(0)))
    const cases: [body: string | Uint8Array, type: string, says: string][] = [
      [`name=Caf%E9${rest}`, 'application/x-www-form-urlencoded; charset=iso-8859-1', 'its charset is "iso-8859-1"'],
      [
        `name=Caf%E9${rest}`,
        'application/x-www-form-urlencoded',
        'the field "name" holds an escape whose bytes are not UTF-8',
      ],
      [
        `name=Shop${rest}&description%5Bx%5D=%FF%FE`,
        'application/x-www-form-urlencoded',
        'the field "description[x]" holds an escape',
      ],
      [latin1(`name=Caf\u00e9${rest}`), 'application/x-www-form-urlencoded', 'it is not valid UTF-8'],
      [
        new Uint8Array([...`name=Shop${rest}`].flatMap((c) => [c.charCodeAt(0), 0])),
        'application/x-www-form-urlencoded; charset=utf-16le',
        'its charset is "utf-16le"',
      ],
      ['--nope\r\ngarbage', 'multipart/form-data; boundary=other', 'it is not multipart/form-data that can be read'],
      [
        latin1(
          `--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nCaf\u00e9\r\n--b\r\nContent-Disposition: form-data; name="address"\r\n\r\n1 Rue\r\n--b--\r\n`,
        ),
        'multipart/form-data; boundary=b',
        'it is not valid UTF-8',
      ],
    ]
    for (const [body, type, says] of cases) {
      const res = await expectNoChange(async () => {
        const r = await rawRequest('POST', BASE, typeof body === 'string' ? new TextEncoder().encode(body) : body, {
          'content-type': type,
        })
        return { status: r.status, body: await r.json(), headers: r.headers }
      })
      expect({ type, status: res.status, body: res.body }).toEqual({
        type,
        status: 400,
        body: {
          success: false,
          error: 'invalid_request',
          message: expect.stringContaining(`The form body could not be read: ${says}`),
        },
      })
    }
  })

  test('a multipart body with a file in it gives 400 invalid_request naming the field; a file input left empty is no field', async () => {
    const form = (name: string | File, photo: File) => {
      const fd = new FormData()
      fd.set('name', name)
      fd.set('address', '3 High Street')
      fd.set('coordinates[lat]', '10')
      fd.set('coordinates[lng]', '20')
      fd.set('photo', photo)
      return env.app.handle(
        new Request(`http://localhost${BASE}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env.key}` },
          body: fd,
        }),
      )
    }
    const empty = new File([], '', { type: 'application/octet-stream' }) // what a browser sends for a file input left empty
    const res = await expectNoChange(async () => {
      const r = await form(new File(['Shop'], 'name.txt'), empty)
      return { status: r.status, body: await r.json(), headers: r.headers }
    })
    expect(res.body).toEqual({
      success: false,
      error: 'invalid_request',
      message: 'The form body could not be read: the field "name" is a file; location fields are text.',
    })
    const made = await form('Shop', empty)
    expect(made.status).toBe(201)
    expect(((await made.json()) as { location: { name: string } }).location.name).toBe('Shop')
  })

  test('a JSON body without a Content-Type header gives required-field errors on name and address', async () => {
    const before = snapshot()
    const res = await rawRequest('POST', BASE, new TextEncoder().encode(JSON.stringify(storeBody())))
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({
      success: false,
      error: 'validation_error',
      message: expect.any(String),
      details: { name: ['The name field is required.'], address: ['The address field is required.'] },
    })
    expect(snapshot()).toEqual(before)
  })

  test('a JSON body sent as text/plain or as a form also gives required-field errors', async () => {
    const json = JSON.stringify(storeBody())
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await expectNoChange(() => env.call('POST', BASE, { body: json, headers: { 'content-type': type } }))
      expectValidation(res, ['name', 'address'])
    }
  })

  test('a body sent without a JSON Content-Type says so: on create (the required-field errors) and on update (not "no fields", the fields were sent)', async () => {
    const before = await created()
    const json = JSON.stringify({ name: 'Renamed', address: 'x' })
    const sends: [string, () => Promise<{ status: number; body: any }>][] = [
      [
        'without a Content-Type header',
        async () => {
          const res = await rawRequest('POST', `${BASE}/${before.id}`, new TextEncoder().encode(json))
          return { status: res.status, body: await res.json() }
        },
      ],
      [
        'as "text/plain"',
        () =>
          env.call('POST', `${BASE}/${before.id}`, {
            body: json,
            headers: { 'content-type': 'text/plain;charset=UTF-8' },
          }),
      ],
      [
        // curl -d '{...}' without -H: a form of one field named by the whole JSON text.
        'as a form, "application/x-www-form-urlencoded", though it is JSON (curl -d sends a form unless told otherwise)',
        () =>
          env.call('POST', `${BASE}/${before.id}`, {
            body: json,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          }),
      ],
    ]
    for (const [sent, send] of sends) {
      const snap = snapshot()
      const res = await send()
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        success: false,
        error: 'invalid_request',
        message: expect.stringContaining(
          `The request body was not read: it was sent ${sent}. Send JSON with the header "Content-Type: application/json".`,
        ),
      })
      expect(snapshot()).toEqual(snap)
    }
    const res = await expectNoChange(() =>
      env.call('POST', BASE, { body: json, headers: { 'content-type': 'text/plain' } }),
    )
    expectValidation(res, ['name', 'address'])
    expect(res.body.message).toBe(
      'The given data was invalid. The request body was not read: it was sent as "text/plain". Send JSON with the header "Content-Type: application/json".',
    )
    const asForm = await expectNoChange(() =>
      env.call('POST', BASE, { body: json, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    )
    expectValidation(asForm, ['name', 'address'])
    expect(asForm.body.message).toContain(
      'it was sent as a form, "application/x-www-form-urlencoded", though it is JSON',
    )
    // Nothing sent: the documented errors alone; an unknown id stays 404.
    expect((await env.call('POST', `${BASE}/${before.id}`)).body.message).not.toContain('not read')
    expect(
      (
        await env.call('POST', `${BASE}/loc_0000000000000000`, {
          body: json,
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(404)
  })

  test('a JSON content type with a charset parameter is JSON', async () => {
    const res = await env.call('POST', BASE, {
      body: JSON.stringify(storeBody()),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
    expect(res.status).toBe(201)
  })

  test('a compressed body (Content-Encoding: gzip) is not read: 400 saying to send it uncompressed, nothing stored', async () => {
    const json = { 'content-type': 'application/json', 'content-encoding': 'gzip' }
    const gzipped = await expectNoChange(async () => {
      const res = await rawRequest(
        'POST',
        BASE,
        Bun.gzipSync(new TextEncoder().encode(JSON.stringify(storeBody()))),
        json,
      )
      return { status: res.status, body: (await res.json()) as any, headers: res.headers }
    })
    const plain = await expectNoChange(() =>
      env.call('POST', BASE, { body: JSON.stringify(storeBody()), headers: json }),
    )
    const formBody = { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'br' }
    const sentForm = await expectNoChange(() => env.call('POST', BASE, { body: 'name=A&address=B', headers: formBody }))
    for (const res of [gzipped, plain, sentForm]) {
      expect(res.status).toBe(400)
      expect(res.body.message).toContain('Send it uncompressed')
    }
    const identity = await env.call('POST', BASE, { body: storeBody(), headers: { 'content-encoding': 'identity' } })
    expect(identity.status).toBe(201)
  })

  test('a +json content type (application/vnd.api+json) is JSON', async () => {
    const res = await env.call('POST', BASE, {
      body: JSON.stringify(storeBody()),
      headers: { 'content-type': 'application/vnd.api+json' },
    })
    expect(res.status).toBe(201)
    expect(res.body.location.name).toBe(storeBody().name)
  })

  test('a JSON null body counts as an empty one: required-field errors on create, no fields on update', async () => {
    const headers = { 'content-type': 'application/json' }
    expectValidation(await expectNoChange(() => env.call('POST', BASE, { body: 'null', headers })), ['name', 'address'])
    const before = await created()
    const res = await expectNoChange(() => env.call('POST', `${BASE}/${before.id}`, { body: 'null', headers }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, error: 'invalid_request', message: expect.any(String) })
  })

  test('malformed JSON gives 400 invalid_request', async () => {
    const res = await expectNoChange(() =>
      env.call('POST', BASE, { body: '{"name": "x",', headers: { 'content-type': 'application/json' } }),
    )
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, error: 'invalid_request', message: expect.stringMatching(/json/i) })
  })

  test('a JSON array or scalar body gives 400 invalid_request', async () => {
    for (const body of ['[]', JSON.stringify([storeBody()]), '"name"', '42']) {
      const res = await expectNoChange(() =>
        env.call('POST', BASE, { body, headers: { 'content-type': 'application/json' } }),
      )
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ success: false, error: 'invalid_request', message: expect.any(String) })
    }
  })

  test('a body over 256 KiB on a delete, which reads none, gives 413 and deletes nothing', async () => {
    const before = await created()
    const res = await expectNoChange(() =>
      env.call('POST', `${BASE}/${before.id}/delete`, { body: storeBody({ description: 'x'.repeat(300 * 1024) }) }),
    )
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ success: false, error: 'payload_too_large', message: expect.any(String) })
    expect((await get(before.id)).status).toBe(200)
  })

  test('a body over 256 KiB gives 413 and stores nothing', async () => {
    const res = await expectNoChange(() => create(storeBody({ description: 'x'.repeat(256 * 1024) })))
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ success: false, error: 'payload_too_large', message: expect.any(String) })
  })

  test('a streamed body of 64 MiB gives 413 once past 256 KiB: it is read no further', async () => {
    let sent = 0
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 64 * 1024 * 1024) return controller.close()
        sent += 65536
        controller.enqueue(new Uint8Array(65536).fill(0x20))
      },
    })
    const res = await expectNoChange(async () => {
      const r = await rawRequest('POST', BASE, endless as unknown as Uint8Array, { 'content-type': 'application/json' })
      return { status: r.status, body: await r.json(), headers: r.headers }
    })
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ success: false, error: 'payload_too_large', message: expect.any(String) })
    expect(sent).toBeLessThan(1024 * 1024)
  })

  test('a known field nested 120,000 levels deep gives 422, not 500, on create and update', async () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`
    const json = (field: string) => `{"name":"Deep","address":"x","coordinates":{"lat":1,"lng":2},${field}}`
    const headers = { 'content-type': 'application/json' }
    const made = await expectNoChange(() =>
      env.call('POST', BASE, { body: json(`"description":${deep(120_000)}`), headers }),
    )
    expectValidation(made, ['description'])
    const before = await created()
    const changed = await expectNoChange(() =>
      env.call('POST', `${BASE}/${before.id}`, { body: `{"contact":{"phone":${deep(120_000)}}}`, headers }),
    )
    expectValidation(changed, ['contact.phone'])
  })

  test('a lone UTF-16 surrogate is stored as U+FFFD, and the response says so', async () => {
    const res = await env.call('POST', BASE, {
      body: '{"name":"a\\ud800b","address":"x","coordinates":{"lat":1,"lng":2},"tags":["t\\udc00"],"contact":{"phone":"\\ud83d"}}',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(201)
    expect(res.body.location).toMatchObject({ name: 'a\ufffdb', tags: ['t\ufffd'], contact: { phone: '\ufffd' } })
    expect((await get(res.body.location.id)).body.location).toEqual(res.body.location)
  })

  test('a JSON body that is not valid UTF-8 (a Latin-1 "é") gives 400 invalid_request saying so, on create and update, and stores nothing', async () => {
    const latin1 = (json: string) => Uint8Array.from(json, (c) => c.charCodeAt(0)) // one byte per character: "é" is 0xE9
    const headers = { 'content-type': 'application/json' }
    const before = await created()
    for (const [path, body] of [
      [BASE, JSON.stringify(storeBody({ name: 'Café' }))],
      [`${BASE}/${before.id}`, JSON.stringify({ name: 'Café' })],
    ] as const) {
      const snap = snapshot()
      const res = await rawRequest('POST', path, latin1(body), headers)
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({
        success: false,
        error: 'invalid_request',
        message: expect.stringContaining('not valid UTF-8'),
      })
      expect(snapshot()).toEqual(snap)
    }
    // The same text as UTF-8, with a byte order mark as some clients send it, is read.
    const ok = await rawRequest(
      'POST',
      BASE,
      new TextEncoder().encode(`\ufeff${JSON.stringify(storeBody({ name: 'Café' }))}`),
      headers,
    )
    expect(ok.status).toBe(201)
    expect(((await ok.json()) as { location: { name: string } }).location.name).toBe('Café')
  })

  test("a JSON body in UTF-16 (Windows PowerShell's Out-File) is refused saying so, with or without its byte order mark", async () => {
    const utf16 = (text: string, bom: boolean) => {
      const units = `${bom ? '\ufeff' : ''}${text}`
      const bytes = new Uint8Array(units.length * 2)
      for (let i = 0; i < units.length; i++) bytes[2 * i] = units.charCodeAt(i) & 0xff
      for (let i = 0; i < units.length; i++) bytes[2 * i + 1] = units.charCodeAt(i) >> 8
      return bytes
    }
    const snap = snapshot()
    for (const bom of [true, false]) {
      const res = await rawRequest('POST', BASE, utf16(JSON.stringify(storeBody()), bom), {
        'content-type': 'application/json',
      })
      expect([bom, res.status, ((await res.json()) as { message: string }).message]).toEqual([
        bom,
        400,
        'The request body is not valid JSON: it is UTF-16 (as Windows PowerShell writes a file with Out-File or >), and JSON is read as UTF-8 only. Send it encoded as UTF-8: save the file with Out-File -Encoding utf8 or Set-Content -Encoding utf8.',
      ])
    }
    expect(snapshot()).toEqual(snap)
  })

  test('JSON whose Content-Type names a charset but UTF-8 is refused when not ASCII, saying to send UTF-8; utf-8 in any case is read', async () => {
    const utf8 = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))
    const before = await created()
    const snap = snapshot()
    const refusal = (label: string) =>
      `The request body is JSON in the charset "${label}" (its Content-Type says so), and JSON is read as UTF-8 only (RFC 8259): nothing was read. Send it encoded as UTF-8, with Content-Type: application/json or application/json; charset=utf-8.`
    // Bytes beyond ASCII are other text in the charset named than in UTF-8: Latin-1's "é", or UTF-8's.
    const latin1 = Uint8Array.from(JSON.stringify(storeBody({ name: 'Café Store' })), (c) => c.charCodeAt(0))
    for (const [charset, label] of [
      ['latin1', 'latin1'],
      ['ISO-8859-1', 'iso-8859-1'],
      ['"windows-1252"', 'windows-1252'],
      ['us-ascii', 'us-ascii'],
      ['utf-16', 'utf-16'],
    ] as const) {
      const headers = { 'content-type': `application/json; charset=${charset}` }
      for (const [path, body] of [
        [BASE, latin1],
        [BASE, utf8(storeBody({ name: 'Łódź Store' }))],
        [`${BASE}/${before.id}`, utf8({ name: 'Łódź Store' })],
      ] as const) {
        const res = await rawRequest('POST', path, body, headers)
        expect({ charset, path, status: res.status, body: await res.json() }).toEqual({
          charset,
          path,
          status: 400,
          body: { success: false, error: 'invalid_request', message: refusal(label) },
        })
      }
    }
    // The bulk route says CSV may name its charset.
    const bulk = await rawRequest('POST', `${BASE}/bulk`, latin1, {
      'content-type': 'application/json; charset=latin1',
    })
    expect([bulk.status, ((await bulk.json()) as { message: string }).message]).toEqual([
      400,
      `${refusal('latin1')} A CSV body is read in the charset it names: Content-Type: text/csv; charset=latin1.`,
    ])
    expect(snapshot()).toEqual(snap)
    for (const charset of ['utf-8', 'UTF-8', '"utf-8"', '"UTF-8"', 'utf8']) {
      const res = await rawRequest('POST', BASE, utf8(storeBody({ name: 'Łódź Store' })), {
        'content-type': `application/json;charset=${charset}`,
      })
      expect({ charset, status: res.status }).toEqual({ charset, status: 201 })
    }
    // ASCII reads the same in each (RFC 8259: a charset has no effect on a JSON reader), as a
    // form's does: read, on create and update alike.
    for (const charset of ['latin1', 'ISO-8859-1', 'us-ascii', 'windows-1252']) {
      const headers = { 'content-type': `application/json; charset=${charset}` }
      const create = await rawRequest('POST', BASE, utf8(storeBody({ name: `Lodz ${charset}` })), headers)
      const update = await rawRequest('POST', `${BASE}/${before.id}`, utf8({ name: `Lodz ${charset}` }), headers)
      const names = [create, update].map(async (r) => [
        r.status,
        ((await r.json()) as { location?: { name: string } }).location?.name,
      ])
      expect({ charset, answers: await Promise.all(names) }).toEqual({
        charset,
        answers: [
          [201, `Lodz ${charset}`],
          [200, `Lodz ${charset}`],
        ],
      })
    }
  })

  test('an empty JSON body: the error says the body was empty', async () => {
    const location = await created(storeBody())
    const snap = snapshot()
    for (const [path, sent] of [
      [BASE, ''],
      [BASE, ' \n'],
      [`${BASE}/${location.id}`, ''],
    ] as const) {
      const res = await rawRequest('POST', path, new TextEncoder().encode(sent), { 'content-type': 'application/json' })
      expect(res.status).toBe(path === BASE ? 422 : 400)
      expect(((await res.json()) as { message: string }).message).toEndWith(
        ' The request body was empty: send the fields as a JSON object.',
      )
    }
    // A path's fault is no body's: its error says nothing of the body, empty or unread.
    for (const [type, sent] of [
      ['application/json', ''],
      ['text/plain', '{"name": "A"}'],
    ] as const) {
      const res = await rawRequest('POST', `${BASE}/%FF`, new TextEncoder().encode(sent), { 'content-type': type })
      expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([
        400,
        'The location ID is missing from the path, or is not valid percent-encoded UTF-8: /admin/v1/locations/{id}.',
      ])
    }
    expect(snapshot()).toEqual(snap)
  })

  test('JSON with a comment, a trailing comma or single quotes: the 400 says what and where', async () => {
    const snap = snapshot()
    const item = '{\n  "name": "A // B, }",\n  "address": "1 Main St",\n}'
    for (const [path, sent, message] of [
      [BASE, '{ // a store\n"name": "A"}', 'it has a comment (line 1, column 3), and JSON has none. Take it out.'],
      [BASE, '{"name": "A" /* a store */}', 'it has a comment (line 1, column 14), and JSON has none. Take it out.'],
      // "//" and "," inside a string are its text.
      [BASE, item, 'a comma comes before "}" (line 3, column 25): JSON has none after the last item. Take it out.'],
      [
        `${BASE}/bulk`,
        `{"locations": [1, 2 ,\n]}`,
        'a comma comes before "]" (line 1, column 21): JSON has none after the last item. Take it out.',
      ],
      // A "//" or ",]" inside single quotes is no comment or trailing comma: the quotes are the fault.
      [
        BASE,
        "{'website': 'https://a.example/'}",
        `it has a single quote outside a string (line 1, column 2): JSON's strings take double quotes.`,
      ],
      [
        BASE,
        `{"name": "it's", 'tags': [',]']}`,
        `it has a single quote outside a string (line 1, column 18): JSON's strings take double quotes.`,
      ],
    ] as const) {
      const res = await rawRequest('POST', path, new TextEncoder().encode(sent), { 'content-type': 'application/json' })
      expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([
        400,
        `The request body is not valid JSON: ${message}`,
      ])
    }
    expect(snapshot()).toEqual(snap)
  })

  test('a body just under 256 KiB is read (and judged on its fields)', async () => {
    // 200 KiB of description: read fine, then refused by the 10,000-character field limit, not by size.
    const res = await expectNoChange(() => create(storeBody({ description: 'x'.repeat(200 * 1024) })))
    expectValidation(res, ['description'])
  })
})
