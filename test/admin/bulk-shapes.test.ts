// CSV and JSON bodies of absurd shapes on the bulk route: refused early, naming the limit, or read in
// slices so that other locators' requests are answered meanwhile (PERF-068).
import { describe, expect, test } from 'bun:test'
import { BULK, bulk, csv, env, snapshot, useBulkEnv } from './bulk-fixture'

useBulkEnv()

/** A row of a store with its point: nothing to geocode. */
const ROW = 'A,1 Main St,40.1,-3.2'

describe('bulk body shapes', () => {
  test('a header of more than 1,000 columns is refused, naming the limit; 1,000 are read', async () => {
    const before = snapshot()
    const header = (n: number) =>
      ['name', 'address', 'lat', 'lng', ...Array.from({ length: n - 4 }, (_, i) => `c${i}`)].join(',')
    const wide = await csv(`${header(1001)}\n${ROW}\n`)
    expect(wide.status).toBe(400)
    expect(wide.body).toMatchObject({ success: false, error: 'invalid_request' })
    expect(wide.body.message).toBe(
      "The CSV body cannot be read: line 1: the header has 1,001 columns; a file may have at most 1,000. Delete the columns that are not locations' fields.",
    )
    const most = await csv(`${header(1000)}\n${ROW}${','.repeat(996)}\n`, '?dry_run=true')
    expect(most.body).toMatchObject({ success: true, created: 1 })
    expect(most.body.unknown_columns).toHaveLength(996)
    expect(snapshot()).toEqual(before)
  })

  test('a cell of more than 32,767 characters is refused with its line and column; 32,767 are read', async () => {
    const long = await csv(`name,address,lat,lng,notes\n${ROW},x\n${ROW},${'n'.repeat(32_768)}\n`)
    expect(long.status).toBe(400)
    expect(long.body.message).toBe(
      'The CSV body cannot be read: line 3: the cell in column E has 32,768 characters; a cell may have at most 32,767 (a spreadsheet\'s own limit). Look for a double quote (") that opens a cell and is never closed where it should be.',
    )
    const most = await csv(`name,address,lat,lng,notes\n${ROW},${'n'.repeat(32_767)}\n`, '?dry_run=true')
    expect(most.body).toMatchObject({ success: true, created: 1, unknown_columns: ['notes'] })
  })

  test('a header longer than the separator sniff, its names quoted, is read with its own separator', async () => {
    // 74 KB of quoted names: the sniff's first 64 KiB ends inside one of them.
    const names = Array.from({ length: 496 }, (_, i) => `"custom column ${i} ${'x'.repeat(130)}"`)
    const header = ['"name"', '"address"', '"lat"', '"lng"', ...names].join(';')
    const answer = await csv(`${header}\n${ROW.replaceAll(',', ';')}${';'.repeat(496)}\n`, '?dry_run=true')
    expect(answer.body).toMatchObject({ success: true, created: 1 })
    expect(answer.body.unknown_columns).toHaveLength(496)
  })

  test('other requests are answered while a body of many empty rows is read', async () => {
    // 4 MiB of rows of empty cells: csv-parse's work for some 100 slices, one stretch if read at once.
    const body = `name,address,lat,lng\n${ROW}\n${',,,,,,,,\n'.repeat(460_000)}`
    let done = false
    const posted = Promise.resolve(
      env.app.handle(
        new Request(`http://localhost${BULK}?dry_run=true`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env.key}`, 'content-type': 'text/csv' },
          body,
        }),
      ),
    ).finally(() => {
      done = true
    })
    // Another client's requests, one after another, until the bulk is answered. Each comes in a
    // turn of its own, as from a socket: read in slices, the body lets them through between two.
    let answered = 0
    while (!done) {
      await new Promise((resolve) => setTimeout(resolve, 0))
      const list = await env.call('GET', '/admin/v1/locations?limit=1')
      expect(list.status).toBe(200)
      if (!done) answered++
    }
    expect(((await (await posted).json()) as { created: number }).created).toBe(1)
    // Read at once, the bulk lets none through; a few prove the slices, however fast the machine.
    expect(answered).toBeGreaterThan(2)
  })

  test('a form, or a body without a Content-Type, is 400 naming the types read', async () => {
    const form = await env.call('POST', BULK, {
      body: 'locations[0][name]=A',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect([form.status, form.body.message]).toEqual([
      400,
      expect.stringContaining('(Content-Type: text/csv, or text/tab-separated-values for tab separated values)'),
    ])
    // Bytes, not a string: fetch would call a string text/plain.
    const body = new TextEncoder().encode('{"locations":[]}')
    const headers = { authorization: `Bearer ${env.key}` }
    const untyped = await env.app.handle(new Request(`http://localhost${BULK}`, { method: 'POST', headers, body }))
    const said = ((await untyped.json()) as { message: string }).message
    expect([untyped.status, said]).toEqual([400, expect.stringContaining('without a Content-Type header')])
    expect(snapshot().locations).toEqual([])
  })

  test('a CSV file sent as curl -d or -F sends it (a form, a file upload) is told how to send it', async () => {
    const text = 'external_id,name,address,lat,lng\nS1,A,1 Main St,40.1,-3.2\n'
    // curl -d @stores.csv: a form, its line breaks dropped.
    const form = await env.call('POST', BULK, {
      body: text.replaceAll('\n', ''),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect([form.status, form.body.message]).toEqual([
      400,
      'Send the locations as JSON ({"locations": [...]}, Content-Type: application/json) or as CSV (Content-Type: text/csv, or text/tab-separated-values for tab separated values). It was sent as a form, "application/x-www-form-urlencoded" (curl -d sends a form, and drops the line breaks of a file): send a CSV file as it is, with curl --data-binary @stores.csv -H "Content-Type: text/csv".',
    ])
    // curl --data-binary @stores.csv without -H: the file whole, with curl's form type.
    const untyped = await env.call('POST', BULK, {
      body: text,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect([untyped.status, untyped.body.message]).toEqual([
      400,
      'Send the locations as JSON ({"locations": [...]}, Content-Type: application/json) or as CSV (Content-Type: text/csv, or text/tab-separated-values for tab separated values). It was sent as a form, "application/x-www-form-urlencoded", curl\'s type for a body sent without a Content-Type of its own: add the CSV type, with curl --data-binary @stores.csv -H "Content-Type: text/csv".',
    ])
    // curl -F file=@stores.csv: a file in a multipart form.
    const upload = new FormData()
    upload.append('file', new Blob([text], { type: 'text/csv' }), 'stores.csv')
    const res = await env.app.handle(
      new Request(`http://localhost${BULK}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.key}` },
        body: upload,
      }),
    )
    expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([
      400,
      'Send the locations as JSON ({"locations": [...]}, Content-Type: application/json) or as CSV (Content-Type: text/csv, or text/tab-separated-values for tab separated values). It was sent as "multipart/form-data", a form\'s file upload (curl -F): send the file itself as the body, with curl --data-binary @stores.csv -H "Content-Type: text/csv".',
    ])
    expect(snapshot().locations).toEqual([])
  })

  test('a CSV file sent as JSON is told to send it as text/csv', async () => {
    const sent = await env.call('POST', BULK, {
      body: 'Filialnummer;Name;Adresse\r\nB1;A;Hauptstraße 5, Berlin\r\n',
      headers: { 'content-type': 'application/json' },
    })
    expect([sent.status, sent.body.message]).toEqual([
      400,
      'The request body is not valid JSON: JSON Parse error: Unexpected identifier "Filialnummer". It reads as CSV: send it with Content-Type: text/csv.',
    ])
  })

  test('a tab separated file sent as JSON is told to send it as text/tab-separated-values, which reads it', async () => {
    const body =
      'Store Code\tName\tAddress\tLat\tLng\tDelivers to (Leeds, York, Hull, Bradford, Wakefield, Harrogate)\r\n' +
      'G1\tHub\t12 Briggate, Leeds\t53.8\t-1.54\tYes\r\n'
    const sent = await env.call('POST', BULK, { body, headers: { 'content-type': 'application/json' } })
    expect([sent.status, sent.body.message]).toEqual([
      400,
      'The request body is not valid JSON: JSON Parse error: Unexpected identifier "Store". It reads as tab separated values: send it with Content-Type: text/tab-separated-values.',
    ])
    const told = await env.call('POST', `${BULK}?dry_run=true`, {
      body,
      headers: { 'content-type': 'text/tab-separated-values' },
    })
    expect([told.status, told.body.created]).toEqual([200, 1])
  })

  test('a comma CSV with a tab in a quoted cell sent as JSON is told text/csv, which reads it', async () => {
    const body = 'name,address,lat,lng,notes\r\nA,1 Main St,40.1,-3.2,"x\ty"\r\nB,2 Main St,40.2,-3.2,ok\r\n'
    const sent = await env.call('POST', BULK, { body, headers: { 'content-type': 'application/json' } })
    expect([sent.status, sent.body.message]).toEqual([
      400,
      'The request body is not valid JSON: JSON Parse error: Unexpected identifier "name". It reads as CSV: send it with Content-Type: text/csv.',
    ])
    // The advice taken as written, and the other CSV type too: both read its commas.
    for (const type of ['text/csv', 'text/tab-separated-values']) {
      const told = await env.call('POST', `${BULK}?dry_run=true`, { body, headers: { 'content-type': type } })
      expect([type, told.status, told.body.created]).toEqual([type, 200, 2])
    }
  })

  test('JSON gone wrong, its braces left out, is not told it reads as CSV', async () => {
    for (const body of ['"locations": [{"name": "A", "lat": 1}]', 'locations: [1, 2]', '[{"name": "A",}]']) {
      const sent = await env.call('POST', BULK, { body, headers: { 'content-type': 'application/json' } })
      expect(sent.status).toBe(400)
      expect(sent.body.message).toStartWith('The request body is not valid JSON: ')
      expect(sent.body.message).not.toContain('CSV')
    }
  })

  test('JSON with an object of more than 1,000 fields or an array of more than 10,000 items is not parsed', async () => {
    const store = { name: 'A', address: '1 Main St', coordinates: { lat: 40.1, lng: -3.2 } }
    const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, 1]))
    const wide = await bulk({ locations: [{ ...store, ...fields(998) }] })
    expect(wide.status).toBe(400)
    expect(wide.body).toMatchObject({
      error: 'invalid_request',
      message: 'The request body has an object of more than 1,000 fields; at most 1,000 are read.',
    })
    const long = await bulk({ locations: Array.from({ length: 10_001 }, () => 1) })
    expect(long.body.message).toBe('The request body has an array of more than 10,000 items; at most 10,000 are read.')
    // 1,000 fields are read, and commas, brackets and escaped quotes inside strings are text.
    const most = await bulk(
      { locations: [{ ...store, description: ',{["\\'.repeat(1500), ...fields(996) }] },
      '?dry_run=true',
    )
    expect(most.body).toMatchObject({ success: true, created: 1 })
    const many = await bulk({ locations: Array.from({ length: 1001 }, () => store) })
    expect(many.status).toBe(422)
  })

  test("a sheet's title above its header: 1,000 rows are read below it, 1,001 refused, and the title told", async () => {
    const title = 'Store list, December 2026\n\nname,address,lat,lng\n'
    // Stores of their own names: no row repeats another.
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `${i}${ROW}\n`).join('')
    const most = await csv(`${title}${rows(1000)}`, '?dry_run=true')
    expect(most.body).toMatchObject({ success: true, created: 1000 })
    expect(most.body.results[0].warnings).toEqual([
      'The header is line 3: line 1 ("Store list, December 2026") was above it and read as no store. If it is a store, move it below the header.',
    ])
    expect(most.body.results[1].warnings).toEqual([])
    // A line past the limit that would be refused if it were read: it is not.
    const before = snapshot()
    const over = await csv(`${title}${rows(1001)}A,"never closed,a,1\n`)
    expect(over.status).toBe(422)
    expect(over.body.details.locations[0]).toStartWith('The locations field may not have more than 1000 items')
    expect(snapshot()).toEqual(before)
  })
})
