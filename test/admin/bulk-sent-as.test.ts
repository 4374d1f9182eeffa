// Bulk bodies sent the wrong way (a form, a file upload, another Content-Type): 400 invalid_request,
// nothing written, and the message says how to send what the body holds.
import { describe, expect, test } from 'bun:test'
import { BULK, env, snapshot, useBulkEnv } from './bulk-fixture'

useBulkEnv()

const TEXT = 'external_id,name,address,lat,lng\nS1,A,1 Main St,40.1,-3.2\n'
const READS =
  'Send the locations as JSON ({"locations": [...]}, Content-Type: application/json) or as CSV (Content-Type: text/csv, or text/tab-separated-values for tab separated values).'
const AS_JSON =
  'Send JSON, such as {"locations": [{"name": "A", "address": "1 Main St, Town"}]} with Content-Type: application/json, or a CSV file as it is, with curl --data-binary @stores.csv -H "Content-Type: text/csv".'

/** The bulk route's answer to `body`, its Content-Type `type` (none when undefined). */
async function post(body: string | Uint8Array | FormData, type?: string): Promise<{ status: number; message: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${env.key}` }
  if (type !== undefined) headers['content-type'] = type
  const res = await env.app.handle(new Request(`http://localhost${BULK}`, { method: 'POST', headers, body }))
  return { status: res.status, message: ((await res.json()) as { message: string }).message }
}

const upload = (parts: [string, string | Blob, string?][]) => {
  const form = new FormData()
  for (const [name, value, file] of parts)
    if (typeof value === 'string') form.append(name, value)
    else form.append(name, value, file)
  return form
}

describe('bulk bodies sent the wrong way', () => {
  test('a JSON file uploaded as a form (curl -F) is told to send it as JSON, by its own name', async () => {
    const json = new Blob(['{"locations": []}'], { type: 'application/json' })
    expect(await post(upload([['file', json, 'my-stores.json']]))).toEqual({
      status: 400,
      message: `${READS} It was sent as "multipart/form-data", a form's file upload (curl -F): send the file itself as the body, with curl --data-binary @my-stores.json -H "Content-Type: application/json".`,
    })
    // Its type unnamed: read by its bytes. A name a shell would split is quoted; one a shell reads
    // otherwise even in quotes ($, %) is named by a placeholder.
    const untyped = new Blob(['[{"name": "A"}]'], { type: 'application/octet-stream' })
    expect((await post(upload([['file', untyped, 'my stores']]))).message).toEndWith(
      'with curl --data-binary @"my stores" -H "Content-Type: application/json".',
    )
    for (const name of ['$HOME.json', '100%.json', 'a"b.json'])
      expect((await post(upload([['file', untyped, name]]))).message).toEndWith(
        'with curl --data-binary @stores.json -H "Content-Type: application/json".',
      )
    const sheet = new Blob(['PK\x03\x04\x00\x00'], { type: 'application/vnd.ms-excel' })
    expect((await post(upload([['file', sheet, 'stores.xls']]))).message).toEndWith(
      'a form\'s file upload (curl -F) of "stores.xls" ("application/vnd.ms-excel"), neither JSON nor CSV: save it as CSV, and send that file itself as the body, with curl --data-binary @stores.csv -H "Content-Type: text/csv".',
    )
    expect(snapshot().locations).toEqual([])
  })

  test('a CSV file uploaded as a form is told its own name without its folder, and the charset its part names', async () => {
    // Its name in UTF-8, as clients write it; its text in the charset named.
    const part = (filename: string, type: string) =>
      Buffer.concat([
        Buffer.from(
          `--B\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
        ),
        Buffer.from(TEXT.replace('A', 'Caf\xe9'), 'latin1'),
        Buffer.from('\r\n--B--\r\n'),
      ])
    const sent = async (filename: string, type: string) =>
      (await post(part(filename, type), 'multipart/form-data; boundary=B')).message
    const told = (command: string) =>
      `${READS} It was sent as "multipart/form-data", a form's file upload (curl -F): send the file itself as the body, with ${command}.`
    // An old browser sends the path (C:\fakepath\...); the shell reads the name without it.
    expect(await sent('C:\\fakepath\\my-shops.csv', 'text/csv; charset=windows-1252')).toBe(
      told('curl --data-binary @my-shops.csv -H "Content-Type: text/csv; charset=windows-1252"'),
    )
    expect(await sent('tiendas españa.csv', 'text/csv; charset=UTF-8')).toBe(
      told('curl --data-binary @"tiendas españa.csv" -H "Content-Type: text/csv"'),
    )
    expect(snapshot().locations).toEqual([])
    // Its advice taken as written: the file's bytes with the type named are read.
    const [, type] = /-H "Content-Type: ([^"]+)"/.exec(await sent('a.csv', 'text/csv; charset=iso-8859-1'))!
    const bytes = Buffer.from(TEXT.replace('A', 'Caf\xe9'), 'latin1')
    const res = await env.app.handle(
      new Request(`http://localhost${BULK}?dry_run=true`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}`, 'content-type': type! },
        body: bytes,
      }),
    )
    expect([res.status, ((await res.json()) as { created: number }).created]).toEqual([200, 1])
  })

  test('a tab separated file uploaded as a form is told to send it as text/tab-separated-values', async () => {
    const notes = 'Delivers to (Leeds, York, Hull, Bradford, Wakefield, Harrogate)'
    const tsv = `Store Code\tName\tAddress\tLatitude\tLongitude\t${notes}\r\nG1\tHub\t12 Briggate, Leeds\t53.8\t-1.54\tYes\r\n`
    const told = (file: string, charset = '') =>
      `${READS} It was sent as "multipart/form-data", a form's file upload (curl -F): send the file itself as the body, with curl --data-binary @${file} -H "Content-Type: text/tab-separated-values${charset}".`
    // By its type, its name, or its lines, which split by tabs (a .csv file's too: its commas are text).
    const cases: [string, string, string][] = [
      ['stores.tsv', 'text/tab-separated-values', 'stores.tsv'],
      ['stores.TSV', 'application/octet-stream', 'stores.TSV'],
      ['export.txt', 'text/plain', 'export.txt'],
      ['stores.csv', 'text/csv', 'stores.csv'],
      ['$HOME', 'text/tab-separated-values', 'stores.tsv'],
    ]
    for (const [name, type, file] of cases) {
      const sent = await post(upload([['file', new Blob([tsv], { type }), name]]))
      expect([name, sent]).toEqual([name, { status: 400, message: told(file) }])
    }
    const latin1 = new Blob([Buffer.from(tsv.replace('Hub', 'Caf\xe9'), 'latin1')])
    const part = Buffer.concat([
      Buffer.from(
        '--B\r\nContent-Disposition: form-data; name="file"; filename="a.tsv"\r\nContent-Type: text/tab-separated-values; charset=windows-1252\r\n\r\n',
      ),
      Buffer.from(await latin1.arrayBuffer()),
      Buffer.from('\r\n--B--\r\n'),
    ])
    const named = await post(part, 'multipart/form-data; boundary=B')
    expect(named.message).toBe(told('a.tsv', '; charset=windows-1252'))
    // Sent as it is under a form's type: told the same type.
    expect((await post(tsv, 'multipart/form-data')).message).toEndWith(
      'it reads as tab separated values. Send it as text/tab-separated-values, with curl --data-binary @FILE.tsv -H "Content-Type: text/tab-separated-values".',
    )
    expect((await post(tsv, 'application/x-www-form-urlencoded')).message).toEndWith(
      'add the CSV type, with curl --data-binary @stores.tsv -H "Content-Type: text/tab-separated-values".',
    )
    expect(snapshot().locations).toEqual([])
    // Its advice taken as written: the file's bytes with the type named are read, by tabs.
    const [, type] = /-H "Content-Type: ([^"]+)"/.exec(named.message)!
    const res = await env.app.handle(
      new Request(`http://localhost${BULK}?dry_run=true`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}`, 'content-type': type! },
        body: Buffer.from(await latin1.arrayBuffer()),
      }),
    )
    expect([res.status, ((await res.json()) as { created: number }).created]).toEqual([200, 1])
  })

  test('a comma CSV with a tab in a quoted cell uploaded as a form is told to send it as text/csv', async () => {
    const csv = 'name,address,lat,lng,notes\nA,1 Main St,40.1,-3.2,"x\ty"\n'
    for (const [name, type] of [
      ['stores.csv', 'text/csv'],
      ['export.txt', 'text/plain'],
    ]) {
      const sent = await post(upload([['file', new Blob([csv], { type }), name]]))
      expect([name, sent]).toEqual([
        name,
        {
          status: 400,
          message: `${READS} It was sent as "multipart/form-data", a form's file upload (curl -F): send the file itself as the body, with curl --data-binary @${name} -H "Content-Type: text/csv".`,
        },
      ])
    }
    // Its advice taken as written: the file's bytes with the type named are read, by commas.
    const headers = { authorization: `Bearer ${env.key}`, 'content-type': 'text/csv' }
    const res = await env.app.handle(
      new Request(`http://localhost${BULK}?dry_run=true`, { method: 'POST', headers, body: csv }),
    )
    expect([res.status, ((await res.json()) as { created: number }).created]).toEqual([200, 1])
  })

  test('a CSV file sent as it is under a multipart type set by hand is told to send it as text/csv', async () => {
    // curl --data-binary @stores.csv -H "Content-Type: multipart/form-data": no delimiter, no form.
    for (const type of ['multipart/form-data', 'multipart/form-data; boundary=X', 'multipart/form-data; boundary =X'])
      expect([type, await post(TEXT, type)]).toEqual([
        type,
        {
          status: 400,
          message: `${READS} It was sent as "multipart/form-data", but is no form: it reads as CSV. Send it as text/csv, with curl --data-binary @FILE.csv -H "Content-Type: text/csv".`,
        },
      ])
    expect(snapshot().locations).toEqual([])
    // Its advice taken as written: the same bytes are read.
    const res = await env.app.handle(
      new Request(`http://localhost${BULK}?dry_run=true`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}`, 'content-type': 'text/csv' },
        body: TEXT,
      }),
    )
    expect([res.status, ((await res.json()) as { created: number }).created]).toEqual([200, 1])
  })

  test('a multipart form of text fields only is told it is a form, and what the route reads', async () => {
    expect(
      await post(
        upload([
          ['name', 'A'],
          ['lat', '1'],
        ]),
      ),
    ).toEqual({
      status: 400,
      message: `${READS} It was sent as "multipart/form-data", a form with the fields "name", "lat", and this route reads no form. ${AS_JSON}`,
    })
    // Its text not UTF-8: a form of fields still, as an urlencoded one is.
    const latin1 = new Uint8Array([
      ...new TextEncoder().encode('--B\r\nContent-Disposition: form-data; name="name"\r\n\r\nCaf'),
      0xe9,
      ...new TextEncoder().encode('\r\n--B\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--B--\r\n'),
    ])
    expect(await post(latin1, 'multipart/form-data; boundary=B')).toEqual({
      status: 400,
      message: `${READS} It was sent as "multipart/form-data", a form with the fields "name", "x", and this route reads no form. ${AS_JSON}`,
    })
    expect(snapshot().locations).toEqual([])
  })

  test('a form that is no CSV is told the route reads JSON or CSV, not to send it as a CSV', async () => {
    const form = 'application/x-www-form-urlencoded'
    expect(await post('name=A&lat=1&name=B', form)).toEqual({
      status: 400,
      message: `${READS} It was sent as a form, "application/x-www-form-urlencoded", with the fields "name", "lat", and this route reads no form. ${AS_JSON}`,
    })
    // A comma in a value, and a charset not UTF-8 with a Latin-1 byte: forms still.
    expect((await post('name=A,B&lat=1', form)).message).toContain('with the fields "name", "lat", and this route')
    const latin1 = new Uint8Array([...new TextEncoder().encode('name=Caf'), 0xe9, ...new TextEncoder().encode('&x=1')])
    expect(await post(latin1, `${form}; charset=iso-8859-1`)).toEqual({
      status: 400,
      message: `${READS} It was sent as a form, "application/x-www-form-urlencoded", with the fields "name", "x", and this route reads no form. ${AS_JSON}`,
    })
    // Its fields told however far into the body: a textarea of 64 KiB first, a name cut there none.
    const far = `notes=${'x'.repeat(65_530)}&name=A&lat=1`
    expect((await post(far, form)).message).toContain('with the fields "notes", "name", "lat", and this route')
    expect(snapshot().locations).toEqual([])
  })

  test('a CSV sent as text/plain, as bytes or without a Content-Type is told to send it as text/csv', async () => {
    const told = 'reads as CSV: send it as text/csv, with curl --data-binary @stores.csv -H "Content-Type: text/csv".'
    const bytes = new TextEncoder().encode(TEXT)
    expect(await post(TEXT, 'text/plain')).toEqual({
      status: 400,
      message: `${READS} It was sent as "text/plain", and ${told}`,
    })
    expect((await post(bytes, 'application/octet-stream')).message).toEndWith(
      `It was sent as "application/octet-stream", and ${told}`,
    )
    expect((await post(bytes)).message).toEndWith(`It was sent without a Content-Type header, and ${told}`)
    // A back office's "|" separated dump, which the CSV reader reads, reads as CSV too.
    const piped = 'FILIALNR|BEZEICHNUNG|STRASSE|ORT\r\n1|Müller|Königstraße 5|Stuttgart\r\n'
    expect((await post(piped, 'text/plain')).message).toEndWith(`It was sent as "text/plain", and ${told}`)
    expect((await post(new TextEncoder().encode(piped))).message).toEndWith(
      `It was sent without a Content-Type header, and ${told}`,
    )
    // Windows-1252 text reads as CSV too; a binary file, or prose, does not.
    expect((await post(new Uint8Array([...bytes, 0xe9, 0x0a]), 'text/plain')).message).toEndWith(told)
    expect((await post(new Uint8Array([0x50, 0x4b, 3, 4, 0x2c, 0x2c]), 'application/octet-stream')).message).toBe(
      `${READS} It was sent as "application/octet-stream".`,
    )
    expect((await post('Hello there', 'text/plain')).message).toBe(`${READS} It was sent as "text/plain".`)
    expect(snapshot().locations).toEqual([])
  })

  test('a multipart part of millions of header lines is read in one pass: its fields are named', async () => {
    // 7 MiB of lines without a colon: each searched to the headers' end would take minutes.
    const lines = 'x\n'.repeat(3_500_000)
    const body = `--B\r\nContent-Disposition: form-data; name="name"\r\n${lines}X-Note: 1\r\n\r\nA\r\n--B--\r\n`
    expect(await post(body, 'multipart/form-data; boundary=B')).toEqual({
      status: 400,
      message: `${READS} It was sent as "multipart/form-data", a form with the field "name", and this route reads no form. ${AS_JSON}`,
    })
    expect(snapshot().locations).toEqual([])
  })

  test('no body in any type is a 500: empty, huge, binary and not UTF-8', async () => {
    const bodies: Uint8Array[] = [
      new Uint8Array(0),
      new Uint8Array([0xff, 0xfe, 0x00, 0x2c, 0xc3]),
      new Uint8Array(256).map((_, i) => i),
      new TextEncoder().encode(`${' '.repeat(2_000_000)}a,b`),
      // One line, a run of spaces in it: read at once, a pattern's backtracking would take minutes.
      new TextEncoder().encode(`a${' '.repeat(300_000)}b,c`),
      new Uint8Array(9 * 1024 * 1024).fill(0x2c),
    ]
    const types = [
      undefined,
      'text/plain',
      'application/octet-stream',
      'application/json',
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded; charset=latin1',
      'multipart/form-data; boundary=x',
      'text/csv',
    ]
    for (const type of types)
      for (const body of bodies) {
        const { status } = await post(body, type)
        expect([type, body.length, status < 500]).toEqual([type, body.length, true])
      }
    expect(snapshot().locations).toEqual([])
  })
})
