// Multipart forms as clients send them beyond the common case: a file named by filename* alone
// (RFC 6266) or in sections (RFC 2231), a form's _charset_ field (RFC 7578 4.6), boundaries quoted
// with RFC 2046's signs, and the bulk route's advice for a form.
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

  test('an Idempotency-Key compares its file name: a new boundary replays, another name is another request', async () => {
    // A file input left empty beside the fields is no field, but its name is sent.
    const form = (b: string, file: string) =>
      `${createForm(b).replace(`--${b}--\r\n`, '')}--${b}\r\nContent-Disposition: form-data; name="photo"; filename*=UTF-8''${file}\r\n\r\n\r\n--${b}--\r\n`
    const send = async (b: string, file: string) => {
      const res = await rawRequest('POST', BASE, latin1(form(b, file)), {
        'content-type': `multipart/form-data; boundary=${b}`,
        'idempotency-key': 'k1',
      })
      return [res.status, res.headers.get('idempotent-replayed')]
    }
    expect(await send('B', 'st%C3%B6res.csv')).toEqual([201, null])
    expect(await send('B', 'st%C3%B6res.csv')).toEqual([201, 'true'])
    expect(await send('C', 'st%C3%B6res.csv')).toEqual([201, 'true'])
    expect(await send('C', 'stores.csv')).toEqual([422, null])
  })
})

describe('a file name split in sections (RFC 2231)', () => {
  test('it is a file named by its sections joined, each encoded or plain', async () => {
    const before = snapshot()
    const told = async (params: string) => (await post(`${BASE}/bulk`, onePart(params, CSV))).message
    // As Python's email package splits a long name, "*N*" sections encoded, and "*N" plain beside them.
    const named = 'with curl --data-binary @"störes españa.csv" -H "Content-Type: text/csv".'
    expect(await told(`name="file"; filename*0*=UTF-8''st%C3%B6res; filename*1*=%20espa%C3%B1a.csv`)).toEndWith(named)
    expect(
      await told(`name="file"; filename*0*=utf-8''st%C3%B6; filename*1=res; filename*2*=%20espa%C3%B1a.csv`),
    ).toEndWith(named)
    expect(await told(`name="file"; filename*0*=iso-8859-1''st%F6res; filename*1=" españa.csv"`)).toEndWith(named)
    expect(await told(`name="file"; filename*0="my-"; filename*1="shops.csv"`)).toEndWith(
      'with curl --data-binary @my-shops.csv -H "Content-Type: text/csv".',
    )
    // Its text is a file's, not the field's value.
    const create = `--B\r\nContent-Disposition: form-data; name="name"\r\n\r\nCafe\r\n--B\r\nContent-Disposition: form-data; name="address"; filename*0*=UTF-8''a; filename*1*=.txt\r\n\r\n1 Rue\r\n--B--\r\n`
    expect(await post(BASE, create)).toEqual({
      status: 400,
      message: 'The form body could not be read: the field "address" is a file; location fields are text.',
      name: undefined,
    })
    expect(snapshot()).toEqual(before)
  })

  test('an Idempotency-Key compares its joined name: a new boundary replays, another name is another request', async () => {
    const form = (b: string, last: string) =>
      `${createForm(b).replace(`--${b}--\r\n`, '')}--${b}\r\nContent-Disposition: form-data; name="photo"; filename*0*=UTF-8''st%C3%B6; filename*1=${last}\r\n\r\n\r\n--${b}--\r\n`
    const send = async (b: string, last: string) => {
      const res = await rawRequest('POST', BASE, latin1(form(b, last)), {
        'content-type': `multipart/form-data; boundary=${b}`,
        'idempotency-key': 'k1',
      })
      return [res.status, res.headers.get('idempotent-replayed')]
    }
    expect(await send('B', 'res.csv')).toEqual([201, null])
    expect(await send('C', 'res.csv')).toEqual([201, 'true'])
    expect(await send('C', 'res.json')).toEqual([422, null])
  })
})

/** A create's form with boundary `b`: name, address and coordinates. */
const createForm = (b: string, name = 'Cafe') =>
  [
    ['name', name],
    ['address', '1 Rue'],
    ['coordinates[lat]', '48.87'],
    ['coordinates[lng]', '2.33'],
  ]
    .map(([k, v]) => `--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('')
    .concat(`--${b}--\r\n`)

describe('quoted boundaries', () => {
  test('each of RFC 2046\'s signs in a quoted boundary is read; a ";", which it allows not, is refused by name', async () => {
    for (const b of [
      "a'b",
      'a(b)',
      'a+b',
      'a_b',
      'a,b',
      'a-b',
      'a.b',
      'a/b',
      'a:b',
      'a=b',
      'a?b',
      'a b',
      "'()+_,-./:=?",
    ])
      expect([b, await post(BASE, createForm(b, `Cafe ${b}`), `multipart/form-data; boundary="${b}"`)]).toEqual([
        b,
        { status: 201, message: undefined, name: `Cafe ${b}` },
      ])
    const before = snapshot()
    const refused = `The form body could not be read: the boundary its Content-Type names (a;b) holds a ";", which a boundary may not hold (RFC 2046). Send the body your HTTP client makes from a form (curl -F), or a boundary of letters, digits and '()+_,-./:=?.`
    expect(await post(BASE, createForm('a;b'), 'multipart/form-data; boundary="a;b"')).toEqual({
      status: 400,
      message: refused,
      name: undefined,
    })
    expect((await post(`${BASE}/bulk`, createForm('a;b'), 'multipart/form-data; boundary="a;b"')).message).toContain(
      'nor could its parts be read: the boundary its Content-Type names (a;b) holds a ";"',
    )
    // Unquoted, the ";" ends the boundary: the parts' own, refused, is not offered.
    for (const type of ['multipart/form-data; boundary=a;b', 'multipart/form-data; boundary=X'])
      expect(await post(BASE, createForm('a;b'), type)).toEqual({
        status: 400,
        message:
          'The form body could not be read: it is not multipart/form-data that can be read: its parts and the boundary its Content-Type names do not match. Send the body your HTTP client makes from a form, or send JSON.',
        name: undefined,
      })
    expect(snapshot()).toEqual(before)
  })
})

describe("a form's _charset_ field (RFC 7578 4.6)", () => {
  /** A create's fields in order, `name` last, with `_charset_` and name's own part headers. */
  const form = (charset: string, name: string, own = '') =>
    [
      ['_charset_', charset, ''],
      ['address', '1 Rue', ''],
      ['coordinates[lat]', '48.87', ''],
      ['coordinates[lng]', '2.33', ''],
      ['name', name, own],
    ]
      .map(([k, v, headers]) => `--B\r\nContent-Disposition: form-data; name="${k}"\r\n${headers}\r\n${v}\r\n`)
      .join('')
      .concat('--B--\r\n')
  const refused = (charset: string) =>
    `The form body could not be read: its _charset_ field says its text is in the charset "${charset}", and form bodies are read as UTF-8 only. Send it encoded as UTF-8 (in HTML, a page in UTF-8 or <form accept-charset="UTF-8">), or send JSON.`

  test('names the charset of text parts without their own: one not UTF-8 is refused by name beyond ASCII', async () => {
    const before = snapshot()
    // "Ã©" in Windows-1252 is the bytes of UTF-8's "é": read as UTF-8, another text than sent.
    expect(await post(BASE, form('windows-1252', 'Caf\xc3\xa9'))).toEqual({
      status: 400,
      message: refused('windows-1252'),
      name: undefined,
    })
    expect(await post(BASE, form(' ISO-8859-1 ', 'Caf\xe9'))).toEqual({
      status: 400,
      message: refused('iso-8859-1'),
      name: undefined,
    })
    // Urlencoded, an HTML form sends it too.
    const urlencoded =
      'name=Caf%C3%A9&_charset_=windows-1252&address=1+Rue&coordinates[lat]=48.87&coordinates[lng]=2.33'
    const res = await rawRequest('POST', BASE, latin1(urlencoded), {
      'content-type': 'application/x-www-form-urlencoded',
    })
    expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([400, refused('windows-1252')])
    expect(snapshot()).toEqual(before)
    // ASCII reads alike in it; UTF-8 named is read; a part's own charset, or UTF-8's byte order
    // mark, says its own text's.
    expect((await post(BASE, form('windows-1252', 'Cafe'))).name).toBe('Cafe')
    expect((await post(BASE, form('UTF-8', 'Caf\xc3\xa9'))).name).toBe('Café')
    const own = 'Content-Type: text/plain; charset=utf-8\r\n'
    expect((await post(BASE, form('windows-1252', 'Caf\xc3\xa9 2', own))).name).toBe('Café 2')
    expect((await post(BASE, form('windows-1252', '\xef\xbb\xbfCaf\xc3\xa9 3'))).name).toBe('Café 3')
  })
})

describe("the bulk route's advice for a file uploaded as a form", () => {
  test('a file name whose bytes are not UTF-8 is named by a placeholder, not by U+FFFD', async () => {
    const before = snapshot()
    // "café.csv" typed in a Latin-1 shell; and filename* whose escapes are not UTF-8.
    for (const params of [`name="file"; filename="caf\xe9.csv"`, `name="file"; filename*=UTF-8''caf%E9.csv`])
      expect([params, (await post(`${BASE}/bulk`, onePart(params, CSV))).message]).toEqual([
        params,
        expect.stringContaining('send the file itself as the body, with curl --data-binary @stores.csv -H'),
      ])
    expect(snapshot()).toEqual(before)
  })

  test('an empty file is told as empty, by its name; an empty file input is no field', async () => {
    const before = snapshot()
    const told = async (text: string) => (await post(`${BASE}/bulk`, text)).message
    expect(await told(onePart('name="file"; filename="stores.csv"', ''))).toEndWith(
      'It was sent as "multipart/form-data", a form\'s file upload (curl -F) of "stores.csv", which is empty (0 bytes): send the file that holds the locations as the body, with curl --data-binary @stores.csv -H "Content-Type: text/csv".',
    )
    expect(await told(onePart('name="upload"; filename="my-shops.json"', '', 'application/json'))).toEndWith(
      'of "my-shops.json", which is empty (0 bytes): send the file that holds the locations as the body, with curl --data-binary @my-shops.json -H "Content-Type: application/json".',
    )
    // A browser's file input left empty: no name, no bytes, no file.
    expect(await told(onePart('name="file"; filename=""', '', 'application/octet-stream'))).toEndWith(
      'It was sent as "multipart/form-data", a form with no fields, and this route reads no form. Send JSON, such as {"locations": [{"name": "A", "address": "1 Main St, Town"}]} with Content-Type: application/json, or a CSV file as it is, with curl --data-binary @stores.csv -H "Content-Type: text/csv".',
    )
    expect(snapshot()).toEqual(before)
  })

  test("the form's flags beside its file are told to go in the query string, so a dry run stays one", async () => {
    const before = snapshot()
    // curl -F dry_run=true -F file=@stores.csv: the file alone as the body would write.
    const form = `--B\r\nContent-Disposition: form-data; name="dry_run"\r\n\r\ntrue\r\n${onePart('name="file"; filename="stores.csv"', CSV)}`
    const told = (await post(`${BASE}/bulk`, form)).message!
    expect(told).toEndWith(
      'with curl --data-binary @stores.csv -H "Content-Type: text/csv", and the field "dry_run" in the query string: POST /admin/v1/locations/bulk?dry_run=true.',
    )
    // A file to save as CSV first keeps them too.
    const xls = `--B\r\nContent-Disposition: form-data; name="dry_run"\r\n\r\ntrue\r\n${onePart('name="file"; filename="stores.xls"', '\xd0\xcf\x11\xe0', 'application/vnd.ms-excel')}`
    expect((await post(`${BASE}/bulk`, xls)).message).toEndWith(
      'save it as CSV, and send that file itself as the body, with curl --data-binary @stores.csv -H "Content-Type: text/csv", and the field "dry_run" in the query string: POST /admin/v1/locations/bulk?dry_run=true.',
    )
    // Its advice taken as written: a dry run.
    const [, path] = /POST (\S+)\.$/.exec(told)!
    const res = await rawRequest('POST', path!, latin1(CSV), { 'content-type': 'text/csv' })
    expect([res.status, ((await res.json()) as { dry_run: boolean }).dry_run]).toEqual([200, true])
    expect(snapshot()).toEqual(before)
  })

  test('an empty file beside a flag is told as empty, and the flag to go in the query string', async () => {
    const before = snapshot()
    // curl -F dry_run=true -F file=@empty.csv
    const form = `--B\r\nContent-Disposition: form-data; name="dry_run"\r\n\r\ntrue\r\n${onePart('name="file"; filename="empty.csv"', '')}`
    expect((await post(`${BASE}/bulk`, form)).message).toEndWith(
      'of "empty.csv", which is empty (0 bytes): send the file that holds the locations as the body, with curl --data-binary @empty.csv -H "Content-Type: text/csv", and the field "dry_run" in the query string: POST /admin/v1/locations/bulk?dry_run=true.',
    )
    expect(snapshot()).toEqual(before)
  })

  test('a file part whose Content-Disposition is spaced before its colon is told why it is not read', async () => {
    const before = snapshot()
    const form = `--B\r\nContent-Disposition: form-data; name="dry_run"\r\n\r\ntrue\r\n--B\r\nContent-Disposition : form-data; name="file"; filename="stores.csv"\r\nContent-Type: text/csv\r\n\r\n${CSV}\r\n--B--\r\n`
    expect((await post(`${BASE}/bulk`, form)).message).toEndWith(
      `It was sent as "multipart/form-data", and this route reads no form; nor could one of its parts be read: part 2's header line "Content-Disposition : form-data; name=\\"file\\"; filename=\\"stores.csv\\"" has a space before its ":", which a header line may not have (RFC 9112), so it is no Content-Disposition, which names its field: its text would be lost. Send JSON, such as {"locations": [{"name": "A", "address": "1 Main St, Town"}]} with Content-Type: application/json, or a CSV file as it is, with curl --data-binary @FILE.csv -H "Content-Type: text/csv", and the field "dry_run" in the query string: POST /admin/v1/locations/bulk?dry_run=true.`,
    )
    expect(snapshot()).toEqual(before)
  })

  test("a checkbox's flag (on) is told to go in the query string as true, which the route reads", async () => {
    const before = snapshot()
    // A page's form: <input type="checkbox" name="dry_run"> checked, and a file input.
    const form = `--B\r\nContent-Disposition: form-data; name="dry_run"\r\n\r\non\r\n--B\r\nContent-Disposition: form-data; name="delete_missing"\r\n\r\non\r\n${onePart('name="file"; filename="stores.csv"', CSV)}`
    const told = (await post(`${BASE}/bulk`, form)).message!
    expect(told).toEndWith(
      'and the fields "dry_run", "delete_missing" in the query string: POST /admin/v1/locations/bulk?dry_run=true&delete_missing=true.',
    )
    // Its advice taken as written: a dry run, which deletes nothing.
    const [, path] = /POST (\S+)\.$/.exec(told)!
    const res = await rawRequest('POST', path!, latin1(CSV), { 'content-type': 'text/csv' })
    expect([res.status, ((await res.json()) as { dry_run: boolean }).dry_run]).toEqual([200, true])
    expect(snapshot()).toEqual(before)
  })

  test('a form of text alone, urlencoded or multipart, has its flags told to go in the query string too', async () => {
    const before = snapshot()
    const query = ', and the field "dry_run" in the query string: POST /admin/v1/locations/bulk?dry_run=true.'
    // A form of a location's fields beside the flag, as a page's form would send it.
    const urlencoded = await rawRequest('POST', `${BASE}/bulk`, latin1('locations[0][name]=A&dry_run=true'), {
      'content-type': 'application/x-www-form-urlencoded',
    })
    const told = ((await urlencoded.json()) as { message: string }).message
    expect(told).toEndWith(`with curl --data-binary @stores.csv -H "Content-Type: text/csv"${query}`)
    const multipart = `--B\r\nContent-Disposition: form-data; name="name"\r\n\r\nA\r\n--B\r\nContent-Disposition: form-data; name="dry_run"\r\n\r\ntrue\r\n--B--\r\n`
    expect((await post(`${BASE}/bulk`, multipart)).message).toEndWith(query)
    // Its advice taken as written, with the JSON it names: a dry run.
    const [, path] = /POST (\S+)\.$/.exec(told)!
    const res = await rawRequest(
      'POST',
      path!,
      Buffer.from(
        JSON.stringify({ locations: [{ name: 'A', address: '1 Rue', coordinates: { lat: 48.87, lng: 2.33 } }] }),
      ),
      {
        'content-type': 'application/json',
      },
    )
    expect([res.status, ((await res.json()) as { dry_run: boolean }).dry_run]).toEqual([200, true])
    expect(snapshot()).toEqual(before)
  })
})
