// The bulk route and the export with files as Excel reads and writes them: garbled text warned
// of, exports Excel opens with accents intact, other encodings named by the Content-Type's charset.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { addCustomField } from '../../src/operator'
import { BULK, csv, env, snapshot, useBulkEnv } from './bulk-fixture'

useBulkEnv()

const fixture = (name: string) => readFileSync(join(import.meta.dir, '../fixtures/csv', name))

/** The bulk route sent `bytes` as a CSV body with this Content-Type. */
async function sendCsv(bytes: Uint8Array | string, contentType: string, query = '') {
  const res = await env.app.handle(
    new Request(`http://localhost${BULK}${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}`, 'content-type': contentType },
      body: bytes,
    }),
  )
  return { status: res.status, body: (await res.json()) as any }
}

const exportBytes = async (query: string) =>
  new Uint8Array(
    await (
      await env.app.handle(
        new Request(`http://localhost/admin/v1/locations/export?${query}`, {
          headers: { authorization: `Bearer ${env.key}` },
        }),
      )
    ).arrayBuffer(),
  )

describe('CSV as Excel writes it, over HTTP', () => {
  test('garbled text is warned of in each result, naming the column and what it most likely was', async () => {
    const res = await sendCsv(fixture('mojibake.csv'), 'text/csv', '?dry_run=true')
    expect(res.status).toBe(200)
    expect(res.body.results[0].warnings[0]).toStartWith(
      '"CafÃ© MÃ¼ller" in the "Name" column (most likely "Café Müller") and "HauptstraÃŸe 5" in the "Address" column (most likely "Hauptstraße 5") are garbled',
    )
    expect(res.body.results[1].warnings[0]).toContain('(most likely "Señor Bici")')
  })

  test('a body of its header alone, or repeated, is answered as an empty one, saying why', async () => {
    const res = await sendCsv('name,address\nName,Address\n', 'text/csv')
    expect(res).toEqual({
      status: 200,
      body: {
        success: true,
        dry_run: false,
        created: 0,
        updated: 0,
        unchanged: 0,
        deleted: 0,
        absent: 0,
        results: [],
        unknown_columns: [],
        notes: [
          'Line 2 repeats the header (line 1), as files of a header alone joined into one do: read as no store. No line below the header is a store, so nothing is imported: export the sheet again with its rows.',
        ],
      },
    })
    expect((await sendCsv('name,address\n', 'text/csv')).body.notes).toEqual([
      'Line 1 is the header, and no line below it holds a store, so nothing is imported: export the sheet again with its rows.',
    ])
  })

  test('a body in the charset its Content-Type names is read in it; without one, refused naming the parameter', async () => {
    const body = fixture('cp1252.csv')
    const refused = await sendCsv(body, 'text/csv')
    expect(refused.status).toBe(400)
    expect(refused.body.message).toStartWith('The CSV body cannot be read: line 2: this line is not UTF-8 text.')
    expect(refused.body.message).toContain('name it in the Content-Type: text/csv; charset=windows-1252.')
    for (const type of ['text/csv; charset=windows-1252', 'text/csv;charset="ISO-8859-1"']) {
      const res = await sendCsv(body, type, '?dry_run=true')
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ created: 3, unknown_columns: [] })
    }
    const read = await sendCsv(body, 'text/csv; charset=windows-1252')
    expect(read.body.results.flatMap((r: { warnings: string[] }) => r.warnings)).toEqual([])
    const names = (await env.call('GET', '/admin/v1/locations/export')).body.locations.map(
      (l: { name: string }) => l.name,
    )
    expect(names).toEqual(['Café Müller', 'Señor Bici', 'Crème Brûlée Paris'])
  })

  test('a Mac Roman body is refused naming charset=macintosh; in that charset its letters are read', async () => {
    const mac = new TextDecoder('macintosh')
    const bytes = new Map(Array.from({ length: 256 }, (_, b) => [mac.decode(Uint8Array.of(b)), b] as const))
    const text = 'name,address,lat,lng\r\nBäckerei Müller,"Königsallee 1, Düsseldorf",51.22,6.78\r\n'
    const body = Uint8Array.from([...text].map((c) => bytes.get(c)!))
    const refused = await sendCsv(body, 'text/csv')
    expect(refused.status).toBe(400)
    expect(refused.body.message).toContain(
      "Or, if it is Mac Roman (a Mac's export), name it in the Content-Type: text/csv; charset=macintosh.",
    )
    const misread = await sendCsv(body, 'text/csv; charset=windows-1252', '?dry_run=true')
    expect(misread.body.results[0].warnings[0]).toStartWith(
      '"BŠckerei MŸller" in the "name" column (most likely "Bäckerei Müller")',
    )
    const read = await sendCsv(body, 'text/csv; charset=macintosh', '?dry_run=true')
    expect(read.body).toMatchObject({ created: 1, results: [{ warnings: [] }] })
  })

  test('a UTF-16 body with its byte order mark is read, whatever charset the Content-Type names', async () => {
    const body = new Uint8Array(
      Buffer.from('\uFEFFname,address,lat,lng\r\nCafé,"Hauptstraße 5, Berlin",52.5,13.4\r\n', 'utf16le'),
    )
    for (const type of ['text/csv', 'text/csv; charset=utf-16le', 'text/csv; charset=windows-1252']) {
      const read = await sendCsv(body, type, '?dry_run=true')
      expect(read.status).toBe(200)
      expect(read.body).toMatchObject({ created: 1, unknown_columns: [] })
    }
  })

  test('a charset TextDecoder does not know is 400 invalid_request, and nothing is written', async () => {
    const before = snapshot()
    const res = await sendCsv(fixture('cp1252.csv'), 'text/csv; charset=ansi')
    expect(res).toEqual({
      status: 400,
      body: {
        success: false,
        error: 'invalid_request',
        message:
          'The CSV body cannot be read: The encoding "ansi" is not one this service knows. Name it as the WHATWG Encoding Standard does, such as windows-1252 (Western Europe, also read for iso-8859-1), windows-1250 (Central Europe), iso-8859-2, windows-1251 or macintosh; or leave it out for UTF-8.',
      },
    })
    expect(snapshot()).toEqual(before)
  })

  test("a charset as Python's codecs name it (latin-1, utf_8, utf-8-sig, utf_16_le) is told the standard's name", async () => {
    const before = snapshot()
    for (const [sent, named] of [
      ['latin-1', 'latin1'],
      ['utf_8', 'utf-8'],
      ['utf-8-sig', 'utf-8'],
      ['mac_roman', 'x-mac-roman'],
      ['utf_16_le', 'utf-16le'],
      ['utf_16_be', 'utf-16be'],
    ]) {
      const res = await sendCsv(fixture('cp1252.csv'), `text/csv; charset=${sent}`)
      expect([res.status, res.body.message]).toEqual([
        400,
        `The CSV body cannot be read: The encoding "${sent}" is not one this service knows: it is Python's name for what the WHATWG Encoding Standard names ${named}. Name it in the Content-Type: text/csv; charset=${named}.`,
      ])
    }
    expect(snapshot()).toEqual(before)
  })

  test("a charset in single quotes (PHP's header(\"...charset='utf-8'\")) is told to drop them", async () => {
    const before = snapshot()
    const res = await sendCsv(fixture('cp1252.csv'), "text/csv; charset='windows-1252'")
    expect([res.status, res.body.message]).toEqual([
      400,
      `The CSV body cannot be read: The encoding "'windows-1252'" is in single quotes, which no encoding's name holds: name it in the Content-Type: text/csv; charset=windows-1252.`,
    ])
    expect(snapshot()).toEqual(before)
  })

  test('coordinates in one column, in degrees-minutes-seconds or with hemisphere letters are stored as numbers', async () => {
    const text = [
      'Store Code,Name,Address,Coordinates',
      'K1,One,Unter den Linden 1,"52.5170, 13.3889"',
      'K2,Two,Rue de Rivoli 1,"48°51\'24""N, 2°21\'8""E"',
      'K3,Three,Calle Mayor 1,"40.4155 N, 3.7074 W"',
    ].join('\n')
    expect((await csv(text)).body).toMatchObject({ created: 3, unknown_columns: [] })
    const stored = (await env.call('GET', '/admin/v1/locations/export')).body.locations
    expect(stored.map((l: { coordinates: unknown }) => l.coordinates)).toEqual([
      { lat: 52.517, lng: 13.3889 },
      { lat: 48.8566667, lng: 2.3522222 },
      { lat: 40.4155, lng: -3.7074 },
    ])
  })

  test('an email written "mailto:a@b.de" is stored as a@b.de, sent as CSV or as JSON', async () => {
    await csv('external_id,name,address,lat,lng,email\nM1,One,x,1,2,mailto:a@b.de\n')
    await env.call('POST', '/admin/v1/locations', {
      body: { name: 'Two', address: 'y', coordinates: { lat: 1, lng: 2 }, contact: { email: 'MAILTO: c@d.de' } },
    })
    const stored = (await env.call('GET', '/admin/v1/locations/export')).body.locations
    expect(stored.map((l: { contact: { email: string } }) => l.contact.email)).toEqual(['a@b.de', 'c@d.de'])
    const refused = await env.call('POST', '/admin/v1/locations', {
      body: { name: 'Three', address: 'z', contact: { email: 'mailto:nobody' } },
    })
    expect(refused.body.details).toEqual({
      'contact.email': [
        'The contact.email field must be a valid email address, such as info@example.com; got "mailto:nobody".',
      ],
    })
    // An email custom field's value too: its link is made from the address alone.
    addCustomField(env.store, env.locatorId, { id: 'manager', name: 'Manager', type: 'email' })
    const made = await env.call('POST', '/admin/v1/locations', {
      body: {
        name: 'Four',
        address: 'w',
        coordinates: { lat: 1, lng: 2 },
        custom_fields: { manager: 'mailto:m@e.de' },
      },
    })
    expect([made.status, made.body.location?.custom_fields]).toEqual([201, { manager: 'm@e.de' }])
  })

  test('an error Excel saved in place of a value (#NULL!) is not read, said; a store code so is refused', async () => {
    const header = 'Store code,Business name,Address line 1,Locality,Latitude,Longitude,Primary phone,Additional phones'
    await csv(`${header}\nE1,One,1 High St,Leeds,53.8,-1.54,+44 113 496 0000,\n`)
    // Google's "+44 ..." opened and saved in Excel: run as a formula, saved as its error.
    const sent = await csv(
      `${header}\nE1,One,1 High St,Leeds,53.8,-1.54,#NULL!,+44 7700 900001\nE2,Two,2 High St,Leeds,53.7,-1.5,#NULL!,+44 113 496 0002\n`,
    )
    expect([sent.status, sent.body.unchanged, sent.body.created]).toEqual([200, 1, 1])
    // A primary phone Excel lost is unknown, not empty: the further numbers do not replace it.
    expect(sent.body.notes).toEqual([expect.stringContaining('its numbers beside one (line 2) are not imported')])
    expect(sent.body.results[0].warnings).toEqual([
      '"#NULL!" in the "Primary phone" column is an error Excel saved in place of the value (a phone typed with its "+" is run as a formula): it is not read (a value stored before stays). In the spreadsheet, format the column as Text, type the value again, and save.',
    ])
    const phones = (await env.call('GET', '/admin/v1/locations/export')).body.locations.map(
      (l: { contact: { phone: string } }) => l.contact.phone,
    )
    expect(phones).toEqual(['+44 113 496 0000', ''])
    const before = snapshot()
    const lost = await csv(`${header}\n#N/A,Three,3 High St,Leeds,53.6,-1.5,,\n`)
    expect(lost.status).toBe(422)
    expect(JSON.stringify(lost.body)).toContain('\\"#N/A\\" in the \\"Store code\\" column is an error Excel saved')
    expect(snapshot()).toEqual(before)
  })

  test('Additional phones Excel lost (#NULL!, 4.41E+11) beside an empty Primary phone keep the stored phone', async () => {
    const header = 'Store code,Business name,Address line 1,Locality,Latitude,Longitude,Primary phone,Additional phones'
    const rows = (a: string, b: string) =>
      `${header}\nE1,One,1 High St,Leeds,53.8,-1.54,,${a}\nE2,Two,2 High St,Leeds,53.7,-1.5,,${b}\n`
    await csv(rows('+44 113 496 0001', '441134960002'))
    const phones = async () =>
      (await env.call('GET', '/admin/v1/locations/export')).body.locations.map(
        (l: { contact: { phone: string } }) => l.contact.phone,
      )
    expect(await phones()).toEqual(['+44 113 496 0001', '441134960002'])
    const sent = await csv(rows('#NULL!', '"4.41E+11, +44 7700 900100"'))
    expect([sent.status, sent.body.unchanged]).toEqual([200, 2])
    expect(sent.body.results.map((r: { warnings: string[] }) => r.warnings)).toEqual([
      [
        '"#NULL!" in the "Additional phones" column is an error Excel saved in place of the value: it is not read (a value stored before stays). In the spreadsheet, format the column as Text, type the value again, and save.',
      ],
      [
        '"4.41E+11" in the "Additional phones" column is a phone number Excel wrote in scientific notation: its last digits are lost, so it was not read (a phone stored before stays). In Excel, format the column as Text, type the numbers again, and save.',
      ],
    ])
    expect(await phones()).toEqual(['+44 113 496 0001', '441134960002'])
  })

  test('an address part or tags column Excel lost (#N/A) keeps the stored address and tags whole', async () => {
    const header = 'Store code,Business name,Address line 1,Locality,Postal code,Latitude,Longitude,Category,Labels'
    await csv(`${header}\nA1,One,1 High St,Leeds,LS1 1AA,53.8,-1.54,Bikes,Repairs\n`)
    const stored = async () => {
      const [l] = (await env.call('GET', '/admin/v1/locations/export')).body.locations
      return [l.address, l.tags]
    }
    expect(await stored()).toEqual(['1 High St, Leeds LS1 1AA', ['Bikes', 'Repairs']])
    // A lookup that failed in Excel: the street and a tag are unknown, not gone.
    const sent = await csv(`${header}\nA1,One,#N/A,Leeds,LS1 1AA,53.8,-1.54,#N/A,Repairs\n`)
    expect([sent.status, sent.body.unchanged, sent.body.results[0].warnings.length]).toEqual([200, 1, 2])
    expect(await stored()).toEqual(['1 High St, Leeds LS1 1AA', ['Bikes', 'Repairs']])
  })

  test('a coordinate or an opening time Excel lost (#N/A) keeps the stored point and that day whole', async () => {
    const header = 'external_id,name,address,lat,lng,monday open,monday close,tuesday open,tuesday close'
    await csv(`${header}\nA1,One,1 High St Leeds,53.8,-1.5,09:00,17:00,09:00,17:00\n`)
    const sent = await csv(`${header}\nA1,One,1 High St Leeds,#N/A,-1.6,#N/A,18:00,10:00,18:00\n`)
    expect([sent.status, sent.body.results?.[0].changes]).toEqual([200, ['hours.tuesday']])
    const [l] = (await env.call('GET', '/admin/v1/locations/export')).body.locations
    expect([l.coordinates, l.hours.monday, l.hours.tuesday]).toEqual([
      { lat: 53.8, lng: -1.5 },
      '09:00-17:00',
      '10:00-18:00',
    ])
  })

  test("a Closed cell Excel lost (#N/A) is its row's: the column is read on the other rows", async () => {
    const header =
      'Entity ID,Name,Address > Line 1,Address > City,Display Coordinate > Latitude,Display Coordinate > Longitude,Closed'
    const rows = [
      '1,One,1 Main St,Leeds,53.8,-1.5,true',
      '2,Two,2 Main St,Leeds,53.7,-1.5,#N/A',
      '3,Three,3 Main St,Leeds,53.6,-1.5,false',
    ]
    const sent = await csv(`${header}\n${rows.join('\n')}\n`)
    expect([sent.status, sent.body.unknown_columns, sent.body.notes]).toEqual([200, [], undefined])
    expect(sent.body.results[1].warnings).toEqual([
      expect.stringContaining('"#N/A" in the "Closed" column is an error'),
    ])
    const statuses = (await env.call('GET', '/admin/v1/locations/export')).body.locations.map(
      (l: { status: string }) => l.status,
    )
    expect(statuses).toEqual(['draft', 'published', 'published'])
  })

  test("a Location column with a cell Excel lost (#N/A) gives the other rows' points", async () => {
    await csv('external_id,name,address,lat,lng\nL1,One,1 High St Leeds,53.8,-1.54\nL2,Two,2 High St Leeds,53.7,-1.5\n')
    const sent = await csv('external_id,location\nL1,"53.81, -1.55"\nL2,#N/A\n')
    expect([sent.status, sent.body.unknown_columns]).toEqual([200, []])
    const points = (await env.call('GET', '/admin/v1/locations/export')).body.locations.map(
      (l: { coordinates: unknown }) => l.coordinates,
    )
    expect(points).toEqual([
      { lat: 53.81, lng: -1.55 },
      { lat: 53.7, lng: -1.5 },
    ])
  })

  test("Yext's Categories with a cell Excel lost (#N/A) are still ids, not read as tags", async () => {
    const header =
      'Entity ID,Name,Address > Line 1,Display Coordinate > Latitude,Display Coordinate > Longitude,Categories'
    const sent = await csv(`${header}\n1,One,1 Main St,53.8,-1.5,1314\n2,Two,2 Main St,53.7,-1.5,#N/A\n`)
    expect([sent.status, sent.body.unknown_columns]).toEqual([200, ['Categories']])
    const tags = (await env.call('GET', '/admin/v1/locations/export')).body.locations.map(
      (l: { tags: string[] }) => l.tags,
    )
    expect(tags).toEqual([[], []])
  })

  test("a new store's street Excel lost (#N/A) is named in its refusal, not the address alone", async () => {
    const before = snapshot()
    const sent = await csv('external_id,name,street,city,postcode,lat,lng\nN1,New,#N/A,Leeds,LS1 1AA,53.8,-1.5\n')
    expect([sent.status, sent.body.details]).toEqual([
      422,
      {
        'line 2.address': [
          'line 2 (external_id "N1"): The address field is required. "#N/A" in the "street" column is an error Excel saved in place of the value: it is not read. In the spreadsheet, format the column as Text, type the value again, and save.',
        ],
      },
    ])
    expect(snapshot()).toEqual(before)
  })

  test('an id Excel lost (#N/A) beside a store code is matched by that code, saying the id was lost', async () => {
    await csv('external_id,name,address,lat,lng\nS1,One,1 High St Leeds,53.8,-1.5\nS2,Two,2 High St Leeds,53.7,-1.5\n')
    const [s1, s2] = (await env.call('GET', '/admin/v1/locations/export')).body.locations
    const sent = await csv(`id,external_id,name\n#N/A,S1,Renamed\n${s2.id},S2,Two\n`)
    expect([sent.status, sent.body.updated, sent.body.created]).toEqual([200, 1, 0])
    expect(sent.body.results[0]).toMatchObject({ id: s1.id, action: 'updated', changes: ['name'] })
    expect(sent.body.results[0].warnings).toEqual([
      '"#N/A" in the "id" column is an error Excel saved in place of the value: it is not read, and the row is matched by its store code "S1". In the spreadsheet, format the column as Text, type the value again, and save.',
    ])
    // Without a store code, or deleting, the row names no store: refused.
    const before = snapshot()
    const alone = await csv(`id,external_id,name,delete\n#N/A,,Renamed,\n#N/A,S1,,yes\n${s2.id},S2,Two,\n`)
    expect([alone.status, Object.keys(alone.body.details ?? {}).sort()]).toEqual([
      422,
      ['line 2.address', 'line 2.id', 'line 3.id'],
    ])
    expect(snapshot()).toEqual(before)
  })

  test('a Danish Excel file is read by its Danish headers, its decimal commas and its FALSK', async () => {
    const header = 'Butiksnummer;Navn;Adresse;Postnummer;By;Land;Breddegrad;Længdegrad;Telefon;Lukket;Mandag'
    const sent = await csv(
      `${header}\nDK1;Butik Nørreport;Frederiksborggade 1;1360;København;Danmark;55,6833;12,5713;33 12 34 56;FALSK;09:00-17:30\n`,
    )
    expect([sent.status, sent.body.created, sent.body.unknown_columns]).toEqual([200, 1, []])
    const [l] = (await env.call('GET', '/admin/v1/locations/export')).body.locations
    expect([l.external_id, l.name, l.status, l.coordinates, l.contact.phone, l.hours.monday]).toEqual([
      'DK1',
      'Butik Nørreport',
      'published',
      { lat: 55.6833, lng: 12.5713 },
      '33 12 34 56',
      '09:00-17:30',
    ])
    expect(l.address).toContain('1360 København')
  })

  test("a phone Excel saved as its error in another language (#NUL!, #¡NULO!) or LibreOffice's is not read", async () => {
    // The "+33 ..." of each row run as a formula by a French, Spanish, Dutch, Swedish Excel, LibreOffice.
    const errors = ['#NUL!', '#¡NULO!', '#LEEG!', '#SKÄRNING!', 'Err:509']
    const rows = errors.map((e, i) => `F${i};Magasin ${i};${i} rue de Rivoli;Paris;48,86;2,35;${e}`)
    const sent = await csv(`Code magasin;Nom;Adresse;Ville;Latitude;Longitude;Téléphone\n${rows.join('\n')}\n`)
    expect([sent.status, sent.body.created]).toEqual([200, errors.length])
    expect(sent.body.results.map((r: { warnings: string[] }) => r.warnings)).toEqual(
      errors.map((e) => [
        `${JSON.stringify(e)} in the "Téléphone" column is an error Excel saved in place of the value (a phone typed with its "+" is run as a formula): it is not read (a value stored before stays). In the spreadsheet, format the column as Text, type the value again, and save.`,
      ]),
    )
    const phones = (await env.call('GET', '/admin/v1/locations/export')).body.locations.map(
      (l: { contact: { phone: string } }) => l.contact.phone,
    )
    expect(phones).toEqual(errors.map(() => ''))
  })

  test('a CSV export starts with a UTF-8 BOM unless bom=false; either is read back to no change', async () => {
    await csv('external_id,name,address,lat,lng\nC1,Café Müller,Hauptstraße 5,52.517,13.3889\n')
    const excel = await exportBytes('format=csv')
    expect([...excel.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const plain = await exportBytes('format=csv&bom=false')
    expect(plain).toEqual(excel.slice(3))
    const before = snapshot()
    for (const bytes of [excel, plain])
      expect((await sendCsv(bytes, 'text/csv')).body).toMatchObject({ created: 0, updated: 0, unchanged: 1 })
    expect(snapshot()).toEqual(before)
  })

  test('ids written as formulas (="loc_...") are ids beside store codes or without them, as their rows read them', async () => {
    // A back office writes each cell as a formula of its text, for Excel to keep it as written.
    const first = await csv('external_id,name,address,lat,lng\nS1,A,1 Main St,52.5,13.4\nS2,B,2 Main St,52.6,13.4\n')
    const [a, b] = first.body.results.map((r: { id: string }) => `"=""${r.id}"""`)
    const header = 'id,external_id,name,address,lat,lng\n'
    const recoded = `${header}${a},T1,A,1 Main St,52.5,13.4\n${b},T2,B,2 Main St,52.6,13.4\n`
    const mixed = `${header}${a},T1,A,1 Main St,52.5,13.4\n7,S2,B,2 Main St,52.6,13.4\n`
    const noCodes = `id,name,address,lat,lng\n${a},A,1 Main St,52.5,13.4\n${b},B,2 Main St,52.6,13.4\n`
    const dry = async (text: string) => {
      const { created, updated, unchanged, notes = [] } = (await csv(text, '?dry_run=true')).body
      return { created, updated, unchanged, notes }
    }
    expect(await dry(recoded)).toEqual({ created: 0, updated: 2, unchanged: 0, notes: [] })
    expect(await dry(noCodes)).toEqual({ created: 0, updated: 0, unchanged: 2, notes: [] })
    expect(await dry(mixed)).toEqual({
      created: 0,
      updated: 1,
      unchanged: 1,
      notes: [
        'The "id" column is read as ids of this service (loc_...), but 1 of its cells is none ("7" on line 3): that row is matched by its store code in the "external_id" column (with no store code, or deleting its store, it would be refused). Clear the cells that are no ids of this service.',
      ],
    })
  })

  test('ids in capitals (LOC_...) are the ids in lower case: an export of stores without codes matches them again', async () => {
    const first = await csv('name,address,lat,lng\nA,1 Main St,52.5,13.4\nB,2 Main St,52.6,13.4\n')
    const [a, b] = first.body.results.map((r: { id: string }) => r.id.toUpperCase())
    const dry = async (text: string) => {
      const { created, updated, unchanged, notes = [] } = (await csv(text, '?dry_run=true')).body
      return { created, updated, unchanged, notes }
    }
    const same = { created: 0, updated: 0, unchanged: 2, notes: [] }
    // Alone, the column was another system's ids (the external_id); beside empty codes, not read.
    expect(await dry(`id,name,address,lat,lng\n${a},A,1 Main St,52.5,13.4\n${b},B,2 Main St,52.6,13.4\n`)).toEqual(same)
    const codes = `id,external_id,name,address,lat,lng\n${a},,A,1 Main St,52.5,13.4\n${b},,B,2 Main St,52.6,13.4\n`
    expect(await dry(codes)).toEqual(same)
    // A delete row names its store by the id in capitals too.
    const gone = await csv(`id,delete\n${a},yes\n`, '?dry_run=true')
    expect(gone.body.results.map((r: { action: string }) => r.action)).toEqual(['deleted'])
    // A chain's own codes of that shape, shorter than an id, stay its codes.
    const own = await csv('ID,name,address,lat,lng\nLOC_001,C,3 Main St,52.7,13.4\n', '?dry_run=true')
    expect(own.body.results.map((r: { external_id: string }) => r.external_id)).toEqual(['LOC_001'])
  })

  test('an id cell holding an invisible character (a zero-width space, a BOM) is the id it shows', async () => {
    const first = await csv('external_id,name,address,lat,lng\nS1,A,1 Main St,52.5,13.4\nS2,B,2 Main St,52.6,13.4\n')
    const [a, b] = first.body.results.map((r: { id: string }) => r.id)
    const dry = async (text: string) => {
      const { status, body } = await csv(text, '?dry_run=true')
      return { status, unchanged: body.unchanged, notes: body.notes ?? [] }
    }
    const codes = `id,external_id,name,address,lat,lng\n${a},S1,A,1 Main St,52.5,13.4\n\u200b${b},S2,B,2 Main St,52.6,13.4\n`
    expect(await dry(codes)).toEqual({ status: 200, unchanged: 2, notes: [] })
    const alone = `id,name,address,lat,lng\n${a}\u200b,A,1 Main St,52.5,13.4\n\ufeff${b}\u2060,B,2 Main St,52.6,13.4\n`
    expect(await dry(alone)).toEqual({ status: 200, unchanged: 2, notes: [] })
  })

  test("an ID column of a file's own codes with a stray id of ours is read as codes, the stray cell refused", async () => {
    const first = await csv('name,address,lat,lng\nA,1 Main St,52.5,13.4\n')
    const [a] = first.body.results.map((r: { id: string }) => r.id)
    let shop = 'ID,name,address,lat,lng,delete\n'
    for (let i = 1; i <= 5; i++) shop += `100${i},N${i},${i} Main St,52.${i},13.4,\n`
    const said = (cell: string) => [
      `line 7 (external_id "${cell}"): The "ID" column is read as store codes (external_id): 5 of its 6 filled cells are no ids of this service (loc_...), but this one is. Write in its place the store code this location has, if it has one (another code would create it a second time); or name this column external_id and move the ids to an id column of their own; or delete the row.`,
    ]
    // Read as ids, each of the five rows was refused as naming no location, the stray cell in none.
    const stray = await csv(`${shop}${a},A,1 Main St,52.5,13.4,\n`, '?dry_run=true')
    expect([stray.status, stray.body.details]).toEqual([422, { 'line 7.external_id': said(a) }])
    // A delete row naming its store so is refused too, not read as a store code no store has.
    const gone = await csv(`${shop}${a},,,,,yes\n`, '?dry_run=true')
    expect([gone.status, gone.body.details]).toEqual([422, { 'line 7.external_id': said(a) }])
    const codes = (await csv(shop)).body.results.map((r: { external_id: string }) => r.external_id)
    expect(codes).toEqual(['1001', '1002', '1003', '1004', '1005'])
    // Most cells ours (a tie too), the column is ids: a cell that is none is refused as naming no location.
    const ours = await csv(`ID,name\n${a},A\n7,B\n`, '?dry_run=true')
    expect([ours.status, Object.keys(ours.body.details)]).toEqual([422, ['line 3.id']])
  })
})

describe('files from other tools, over HTTP', () => {
  // Each file's stores, and the first two's keys.
  const FILES: [name: string, stores: number, keys: (string | null)[]][] = [
    ['wpsl-csv-manager.csv', 20, ['412', '413']],
    ['storerocket.csv', 20, [null, null]],
    ['google-business-profile.csv', 20, ['CH1', 'CH2']],
    ['excel-de.csv', 10, ['101', '102']],
  ]
  for (const [name, stores, keys] of FILES) {
    test(`${name} sent as text/csv as its tool exports it: a dry run, then the import, create its stores by their keys`, async () => {
      for (const query of ['?dry_run=true', '']) {
        const res = await sendCsv(fixture(name), 'text/csv', query)
        const results = res.body.results.map((r: { action: string; external_id: string | null }) => [
          r.action,
          r.external_id,
        ])
        expect([res.status, res.body.created, results.slice(0, 2)]).toEqual([
          200,
          stores,
          keys.map((key) => ['created', key]),
        ])
      }
    })
  }
})

describe('coordinate columns as sheets name them, over HTTP', () => {
  test('"Latitude (WGS84)", "Lng [decimal degrees]", "Lat °" are the coordinates; another datum stays unread', async () => {
    const heads = [
      ['Latitude (WGS84)', 'Longitude (WGS 84)'],
      ['Lat [decimal degrees]', 'Lng [decimal degrees]'],
      ['Breitengrad (dezimal)', 'Längengrad (dezimal)'],
      ['Lat °', 'Lon °'],
      ['Lat_WGS84', 'Lon_WGS84'],
      ['latitude_deg', 'longitude_deg'],
    ]
    for (const [lat, lng] of heads) {
      const res = await csv(
        `Store Code;Name;Address;${lat};${lng}\nW1;Mitte;Unter den Linden 1;52,517;13,389\n`,
        '?dry_run=true',
      )
      expect([lat, res.status, res.body.unknown_columns, res.body.results[0].geocoding]).toEqual([lat, 200, [], null])
    }
    // Typed by hand, misspelt as often as not; or named for the store or a geo field.
    for (const [lat, lng] of [
      ['Lattitude', 'Longtitude'],
      ['Latitute', 'Longditude'],
      ['Geo Lat', 'Geo Lng'],
      ['Store Latitude', 'Store Longitude'],
    ]) {
      const res = await csv(
        `Store Code;Name;Address;${lat};${lng}\nW1;Mitte;Unter den Linden 1;52,517;13,389\n`,
        '?dry_run=true',
      )
      expect([lat, res.status, res.body.unknown_columns, res.body.results[0].geocoding]).toEqual([lat, 200, [], null])
    }
    // A point of another datum is not WGS84: read as one it would be some hundred metres off.
    const other = await csv(
      'Store Code,Name,Address,Latitude (GCJ-02),Longitude (GCJ-02)\nW1,Downing,"10 Downing Street, London SW1A 2AA",51.5,-0.13\n',
      '?dry_run=true',
    )
    expect(other.body.unknown_columns).toEqual(['Latitude (GCJ-02)', 'Longitude (GCJ-02)'])
  })

  test('degrees beside their minutes ("Lat Deg", "Lat Min") are not read as decimal degrees', async () => {
    for (const heads of [
      'Lat Deg;Lat Min;Lon Deg;Lon Min',
      'Latitude (degrees);Latitude (minutes);Longitude (degrees);Longitude (minutes)',
      'Latitude;Latitude Min;Longitude;Longitude Min',
    ]) {
      // Read as decimal degrees, 51;30 would put the store 55 km from Downing Street.
      const res = await csv(
        `Store Code;Name;Address;${heads}\nD1;Downing;10 Downing Street, London SW1A 2AA;51;30;0;7\n`,
        '?dry_run=true',
      )
      const [latDeg, latMin, lngDeg, lngMin] = heads.split(';')
      expect([heads, res.status, res.body.results[0].geocoding?.source, res.body.unknown_columns]).toEqual([
        heads,
        200,
        'table',
        [latDeg, latMin, lngDeg, lngMin],
      ])
      expect(res.body.notes).toContainEqual(
        `The columns "${latDeg}", "${lngDeg}" and "${latMin}", "${lngMin}" hold degrees and minutes apart, which are not read: each row's address is placed instead. To import the points, give each coordinate in one column as decimal degrees (52.5200, or 52° 31' 12" N).`,
      )
    }
    // "Min" beside "Max" is a range's, a bounding box's: the point's own columns are read.
    const box = await csv(
      'Store Code;Name;Address;X;Y;X Min;X Max;Y Min;Y Max\nD1;Downing;10 Downing Street, London SW1A 2AA;-0,1276;51,5034;-0,13;-0,12;51,50;51,51\n',
      '?dry_run=true',
    )
    expect([box.status, box.body.results[0].geocoding, box.body.unknown_columns]).toEqual([
      200,
      null,
      ['X Min', 'X Max', 'Y Min', 'Y Max'],
    ])
  })
})
