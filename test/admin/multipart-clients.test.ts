// Multipart bodies as real HTTP clients write their parts' headers: each read with the field and
// file names the client gave, and the forms read in more than one way refused.
import { describe, expect, test } from 'bun:test'
import { BASE, rawRequest, snapshot, WHITE_HOUSE, withEnv } from './locations-fixture'

withEnv()

const utf8 = (text: string) => new TextEncoder().encode(text)
/** A client's headers for a text field and for a file part, as it writes them. */
type Client = { client: string; text: (name: string) => string; file: (name: string, filename: string) => string }

const cd = (value: string) => `Content-Disposition: ${value}`
const CLIENTS: Client[] = [
  // .NET MultipartFormDataContent.Add: tokens unquoted, filename* beside filename (dotnet/runtime#121484).
  {
    client: '.NET HttpClient',
    text: (n) =>
      `Content-Type: text/plain; charset=utf-8\r\n${cd(/^\w+$/.test(n) ? `form-data; name=${n}` : `form-data; name="${n}"`)}`,
    file: (n, f) => cd(`form-data; name=${n}; filename=${f}; filename*=utf-8''${f}`),
  },
  // OkHttp MultipartBody.Part.createFormData: values quoted, a quote as %22.
  {
    client: 'OkHttp',
    text: (n) => cd(`form-data; name="${n}"`),
    file: (n, f) => `${cd(`form-data; name="${n}"; filename="${f}"`)}\r\nContent-Type: text/csv`,
  },
  // Apache HttpClient MultipartEntityBuilder: addTextBody's type and transfer encoding, addBinaryBody's.
  {
    client: 'Apache HttpClient',
    text: (n) =>
      `${cd(`form-data; name="${n}"`)}\r\nContent-Type: text/plain; charset=ISO-8859-1\r\nContent-Transfer-Encoding: 8bit`,
    file: (n, f) =>
      `${cd(`form-data; name="${n}"; filename="${f}"`)}\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary`,
  },
  // Go mime/multipart Writer.WriteField and CreateFormFile (quotes and backslashes escaped).
  {
    client: 'Go mime/multipart',
    text: (n) => cd(`form-data; name="${n}"`),
    file: (n, f) => `${cd(`form-data; name="${n}"; filename="${f}"`)}\r\nContent-Type: application/octet-stream`,
  },
  // PHP curl with CURLFile, and curl -F / --form-escape: the file's type guessed from its name.
  {
    client: 'PHP curl, curl -F',
    text: (n) => cd(`form-data; name="${n}"`),
    file: (n, f) => `${cd(`form-data; name="${n}"; filename="${f}"`)}\r\nContent-Type: text/csv`,
  },
  // Python requests (urllib3's encode_multipart_formdata) and httpx: no type on a text field.
  {
    client: 'Python requests, httpx',
    text: (n) => cd(`form-data; name="${n}"`),
    file: (n, f) => `${cd(`form-data; name="${n}"; filename="${f}"`)}\r\nContent-Type: text/csv`,
  },
  // Ruby Net::HTTP#set_form with multipart/form-data.
  {
    client: 'Ruby Net::HTTP',
    text: (n) => cd(`form-data; name="${n}"`),
    file: (n, f) => `${cd(`form-data; name="${n}"; filename="${f}"`)}\r\nContent-Type: application/octet-stream`,
  },
]

const TYPE = { 'content-type': 'multipart/form-data; boundary=B' }

describe('multipart bodies from real clients', () => {
  for (const { client, text, file } of CLIENTS) {
    test(`${client}: text fields are read by their names`, async () => {
      const fieldOf = (n: string) => `--B\r\n${text(n)}\r\n\r\n`
      const body = `${fieldOf('name')}Cafe\r\n${fieldOf('address')}1 Rue\r\n${fieldOf('coordinates[lat]')}48.87\r\n${fieldOf('coordinates[lng]')}2.33\r\n--B--\r\n`
      const res = await rawRequest('POST', BASE, utf8(body), TYPE)
      const sent = (await res.json()) as { location?: { name: string; address: string } }
      expect([res.status, sent.location?.name, sent.location?.address]).toEqual([201, 'Cafe', '1 Rue'])
    })

    test(`${client}: a file part is read as that file, by its field and file name`, async () => {
      const csv = 'name,address,lat,lng\r\nCafe,1 Rue,48.87,2.33'
      const body = `--B\r\n${file('stores', 'my-stores.csv')}\r\n\r\n${csv}\r\n--B--\r\n`
      const bulk = await rawRequest('POST', `${BASE}/bulk`, utf8(body), TYPE)
      expect(((await bulk.json()) as { message: string }).message).toContain(
        'upload (curl -F): send the file itself as the body, with curl --data-binary @my-stores.csv',
      )
      const create = `--B\r\n${text('name')}\r\n\r\nCafe\r\n--B\r\n${file('photo', 'a.csv')}\r\n\r\n${csv}\r\n--B--\r\n`
      const res = await rawRequest('POST', BASE, utf8(create), TYPE)
      expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([
        400,
        'The form body could not be read: the field "photo" is a file; location fields are text.',
      ])
    })
  }

  test('a name ending in a backslash as Go and curl --form-escape write it, or a name given twice, gives 400', async () => {
    // Go writes a field named photo\ as name="photo\\", as a browser writes one named photo\\:
    // FormData reads the last quote as the name's, a text field. A name given twice: FormData takes the last.
    const before = snapshot()
    for (const disposition of [
      'form-data; name="photo\\\\"; filename="a.csv"',
      'form-data; name="photo"; name="name"',
    ]) {
      const body = `--B\r\nContent-Disposition: ${disposition}\r\n\r\nCafe\r\n--B--\r\n`
      const res = await rawRequest('POST', BASE, utf8(body), TYPE)
      expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([
        400,
        `The form body could not be read: a part's Content-Disposition (${JSON.stringify(disposition)}) is read in more than one way: it is given twice, a parameter is given twice or has no value, or a value holds a backslash or a quote. Give it once, with each value a word or in quotes, as form-data; name="name", or send JSON.`,
      ])
    }
    expect(snapshot()).toEqual(before)
  })

  test('curl -F after a Content-Type given with -H names two boundaries: 400 naming the one its parts start with', async () => {
    // curl keeps the type given and adds its own boundary: the first named is read, and is not the body's.
    const own = '------------------------7a79bf016ad83697'
    const fields = { name: 'Cafe', address: '1 Rue', 'coordinates[lat]': '48.87', 'coordinates[lng]': '2.33' }
    const body = `${Object.entries(fields)
      .map(([k, v]) => `--${own}\r\n${cd(`form-data; name="${k}"`)}\r\n\r\n${v}\r\n`)
      .join('')}--${own}--\r\n`
    const before = snapshot()
    const res = await rawRequest('POST', BASE, utf8(body), {
      'content-type': `multipart/form-data; boundary=XYZ; boundary=${own}`,
    })
    const { message } = (await res.json()) as { message: string }
    expect([res.status, message]).toEqual([
      400,
      `The form body could not be read: it is not multipart/form-data that can be read: its parts and the boundary its Content-Type names do not match (it names a boundary twice, and the first is read). Leave the Content-Type to your HTTP client, which names the boundary of the form it sends, or name the boundary its parts start with (multipart/form-data; boundary=${own}), or send JSON.`,
    ])
    expect(snapshot()).toEqual(before)
    // Its advice taken as written: the type it names reads the body.
    const named = /start with \((multipart\/form-data; boundary=[^)]+)\)/.exec(message)![1]!
    const again = await rawRequest('POST', BASE, utf8(body), { 'content-type': named })
    expect([again.status, ((await again.json()) as { location: { name: string } }).location.name]).toEqual([
      201,
      'Cafe',
    ])
    // Cut short after a first delimiter that is the one named, with spaces after it (padding), or
    // of a boundary ending in "--": no other boundary is given, and the closing line is missed.
    const cut = (close: string) =>
      `The form body could not be read: it has no closing delimiter line (${close}) after its last part: it was cut short, or not closed. Send the body your HTTP client makes from a form (curl -F), or send JSON.`
    for (const [first, type, close] of [
      ['--B ', TYPE, '--B--'],
      ['--B--', { 'content-type': 'multipart/form-data; boundary=B--' }, '--B----'],
    ] as const) {
      const res = await rawRequest(
        'POST',
        BASE,
        utf8(`${first}\r\n${cd('form-data; name="name"')}\r\n\r\nCafe\r\n`),
        type,
      )
      expect([first, ((await res.json()) as { message: string }).message]).toEqual([first, cut(close)])
    }
  })

  test('a multipart body that cannot be read is refused on bulk naming why, and how to send the file itself', async () => {
    const before = snapshot()
    const part = (disposition: string) => `--B\r\nContent-Disposition: ${disposition}\r\n\r\nCafe\r\n--B--\r\n`
    const type = TYPE['content-type']
    // Read two ways (a name as curl --form-escape writes it, a name twice), lines in LF alone, a
    // boundary empty or with a backslash, and parts that are not the boundary's.
    const bodies: [string, string][] = [
      [part('form-data; name="photo\\\\"; filename="a.csv"'), type],
      [part('form-data; name="photo"; name="name"'), type],
      ['--B\nContent-Disposition: form-data; name="file"; filename="s.csv"\n\nname,address\n--B--\n', type],
      [part('form-data; name="name"').replaceAll('--B', '--'), 'multipart/form-data; boundary=""'],
      [part('form-data; name="name"'), 'multipart/form-data; boundary="B\\\\C"'],
      [part('form-data; name="name"'), 'multipart/form-data; boundary=other'],
    ]
    const answer = async (path: string, [body, type]: [string, string]) => {
      const res = await rawRequest('POST', path, utf8(body), { 'content-type': type })
      const { error, message } = (await res.json()) as { error: string; message: string }
      return [res.status, error, message]
    }
    const refusal = 'The form body could not be read: '
    const reads =
      'Send the locations as JSON ({"locations": [...]}, Content-Type: application/json) or as CSV (Content-Type: text/csv, or text/tab-separated-values for tab separated values).'
    // Its parts unread, what they hold is not known: FILE stands for a file's name.
    const asIs =
      'Send JSON, such as {"locations": [{"name": "A", "address": "1 Main St, Town"}]} with Content-Type: application/json, or a CSV file as it is, with curl --data-binary @FILE.csv -H "Content-Type: text/csv".'
    for (const sent of bodies) {
      const [status, error, message] = await answer(BASE, sent)
      expect([status, error, String(message).startsWith(refusal)]).toEqual([400, 'invalid_request', true])
      // Why, in create's words but for its advice to send a form, which this route does not read.
      const [bulkStatus, bulkError, told] = (await answer(`${BASE}/bulk`, sent)) as [number, string, string]
      const lead = `${reads} It was sent as "multipart/form-data", and this route reads no form; nor could its parts be read: `
      expect([bulkStatus, bulkError, told.startsWith(lead), told.endsWith(` ${asIs}`)]).toEqual([
        400,
        'invalid_request',
        true,
        true,
      ])
      const why = told.slice(lead.length, -asIs.length - 1)
      expect([sent, String(message).startsWith(`${refusal}${why} `)]).toEqual([sent, true])
    }
    expect(snapshot()).toEqual(before)
    // Its advice taken as written: the CSV sent with the type it names is read.
    const [, , told] = await answer(`${BASE}/bulk`, bodies[2]!)
    const named = /--data-binary @\S+ -H "Content-Type: ([^"]+)"\.$/.exec(String(told))![1]!
    const csv = await rawRequest(
      'POST',
      `${BASE}/bulk?dry_run=true`,
      utf8('name,address,lat,lng\nCafe,1 Rue,48.87,2.33\n'),
      {
        'content-type': named,
      },
    )
    expect([csv.status, ((await csv.json()) as { created: number }).created]).toEqual([200, 1])
  })
})

describe('a backslash in a quoted name, as each client writes it', () => {
  const bulk = async (disposition: string, value: string) => {
    const body = `--B\r\n${cd(disposition)}\r\nContent-Type: text/csv\r\n\r\n${value}\r\n--B--\r\n`
    const res = await rawRequest('POST', `${BASE}/bulk`, utf8(body), TYPE)
    return ((await res.json()) as { message: string }).message
  }

  test("a browser's backslash before the closing quote is the name's own, as browsers write it", async () => {
    // Chromium, curl -F and Python requests (urllib3 2) write \ as it is and " as %22 (WHATWG):
    // a path that ends in its folder, a field named file\. FormData reads \" as an escaped quote.
    expect(await bulk('form-data; name="file"; filename="C:\\dir\\"', '')).toContain(
      'upload (curl -F) of "C:\\\\dir\\\\", which is empty (0 bytes)',
    )
    expect(await bulk('form-data; name="file\\"; filename="my-shops.csv"', 'name,address\r\nCafe,1 Rue')).toEndWith(
      'upload (curl -F): send the file itself as the body, with curl --data-binary @my-shops.csv -H "Content-Type: text/csv".',
    )
  })

  test("Go's path of a file, read both ways, is read: both name the same field, and a file", async () => {
    // Go writes filename="C:\\dir\\x.csv" for C:\dir\x.csv, which a browser writes for C:\\dir\\x.csv.
    const csv = 'name,address\r\nCafe,1 Rue'
    expect(await bulk('form-data; name="file"; filename="C:\\\\dir\\\\x.csv"', csv)).toEndWith(
      'upload (curl -F): send the file itself as the body, with curl --data-binary @x.csv -H "Content-Type: text/csv".',
    )
    const create = (disposition: string, value: string) =>
      rawRequest(
        'POST',
        BASE,
        utf8(
          `--B\r\n${cd('form-data; name="name"')}\r\n\r\nCafe\r\n--B\r\n${cd(disposition)}\r\n\r\n${value}\r\n--B--\r\n`,
        ),
        TYPE,
      )
    const file = await create('form-data; name="photo"; filename="C:\\\\dir\\\\x.jpg"', 'z')
    expect([file.status, ((await file.json()) as { message: string }).message]).toEqual([
      400,
      'The form body could not be read: the field "photo" is a file; location fields are text.',
    ])
    // A parameter that names nothing: the field is the same either way.
    const field = await create('form-data; name="address"; note="a\\\\b"', WHITE_HOUSE)
    const made = (await field.json()) as { location?: { address: string } }
    expect([field.status, made.location?.address]).toEqual([201, WHITE_HOUSE])
  })

  test('an escaping writer\'s \\" within a name is a quote, as Go and curl --form-escape write it', async () => {
    expect(await bulk('form-data; name="file"; filename="The 5\\" list.csv"', '')).toContain(
      'upload (curl -F) of "The 5\\" list.csv", which is empty (0 bytes)',
    )
  })
})

describe('a file name written loosely, without a backslash, as a client writes it', () => {
  test('a file name unquoted, with a space or beyond ASCII, is the file FormData reads', async () => {
    for (const filename of ['résumé.csv', 'my file.csv']) {
      const body = `--B\r\n${cd(`form-data; name="file"; filename=${filename}`)}\r\nContent-Type: text/csv\r\n\r\nname,address\r\n--B--\r\n`
      const res = await rawRequest('POST', `${BASE}/bulk`, utf8(body), TYPE)
      expect(((await res.json()) as { message: string }).message).toEndWith(
        `upload (curl -F): send the file itself as the body, with curl --data-binary @"${filename}" -H "Content-Type: text/csv".`,
      )
    }
  })
})
