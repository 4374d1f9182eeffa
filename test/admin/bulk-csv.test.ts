// POST /admin/v1/locations/bulk with a CSV body: columns, flags in the query string, problems by
// line, hours columns, compression, row limits, and where CSV is read.
import { describe, expect, test } from 'bun:test'
import { addCustomField } from '../../src/operator'
import { all, BULK, bulk, csv, env, snapshot, useBulkEnv } from './bulk-fixture'

/** How a latitude cell that is no number is told to write it. */
const LAT_FORMS = `Write a decimal number such as 48.8566 or -3.7074 (48°51'24"N, 48.8566 N and 48.8566° are read too).`

useBulkEnv()

describe('bulk upsert, CSV', () => {
  test('a Store Code column beside wpsl_id matches by the code, and notes that wpsl_id is not read', async () => {
    // Moved from WP Store Locator: its post ids were the stores' external ids.
    await csv('wpsl_id,name,address,lat,lng\n17,Corner,"1 Main St, Springfield",39.78,-89.65\n')
    const both = await csv(
      'Store Code,wpsl_id,name,address,lat,lng\nS1,17,Corner,"1 Main St, Springfield",39.78,-89.65\n',
      '?dry_run=true',
    )
    expect(both.body).toMatchObject({ created: 1, unknown_columns: ['wpsl_id'] })
    expect(both.body.notes[0]).toBe(
      'The "wpsl_id" column is not read: the "Store Code" column gives the rows\' external_id, and rows are matched by it. Stores an import of the "wpsl_id" column alone made have their wpsl_id as their external_id, and a row whose store code matches none makes its store again: import with one of the two columns, or give those stores their store codes first (locations export, fill in external_id, import that file: its rows match by id).',
    )
  })

  test('rows without store codes that repeat stores are counted in notes, the fix named', async () => {
    // StoreRocket exports no store code: the second import of its file makes every store again.
    const header = 'name,address,lat,lng\n'
    await csv(`${header}Corner,"1 Main St, Springfield",39.78,-89.65\nOther,"2 Main St, Springfield",39.79,-89.66\n`)
    // The same store written otherwise, 3 m off; the same address of another store; a new one.
    const again = `${header}Corner,"1 Main Street, Springfield",39.78002,-89.65002\nOther,"2 Main St, Springfield",39.79,-89.66\nThird,"9 Oak St, Springfield",39.7,-89.6\n`
    const dry = await csv(again, '?dry_run=true')
    expect(dry.body).toMatchObject({ created: 3 })
    const note = `2 rows of 3 to create have the name and address of a location ${env.locatorId} has, or its name and a point within 10 m of it: if they are the same stores, a file without store codes makes them a second time. Give each row its store code in an external_id column ("Store Code" is read as one), and imports update the stores they match.`
    expect(dry.body.notes).toEqual([note])
    expect(dry.body.results.map((r: any) => r.warnings.length)).toEqual([1, 1, 0])
    expect((await csv(again)).body.notes).toEqual([note])
    // A JSON body is told in its words; a store 44 m off is another store.
    const third = (lat: number) => ({
      locations: [{ name: 'third', address: '9 Oak Street', coordinates: { lat, lng: -89.6 } }],
    })
    expect((await bulk(third(39.70001), '?dry_run=true')).body.notes).toEqual([
      `1 location of 1 to create has the name and address of a location ${env.locatorId} has, or its name and a point within 10 m of it: if it is the same store, locations sent without an external_id make it a second time. Give each its store code as external_id, and later requests update the stores they match.`,
    ])
    expect((await bulk(third(39.7004), '?dry_run=true')).body.notes).toBeUndefined()
  })

  test('a region carried twice, one row mistyped: that row is the problem, not the file', async () => {
    const header = 'Store Code,Name,Address,City,State,Province,Postcode,Country,lat,lng\n'
    const rows = [
      'B1,Toronto,100 Queen St W,Toronto,ON,ON,M5H 2N2,CA,43.65,-79.38',
      'B2,Ottawa,111 Wellington St,Ottawa,ON,QC,K1A 0A9,CA,45.42,-75.7',
      'B3,Toronto East,200 Queen St E,Toronto,ON,ON,M5A 1S2,CA,43.65,-79.36',
    ]
    const res = await csv(`${header}${rows.join('\n')}\n`, '?dry_run=true')
    expect([res.status, res.body.details]).toEqual([
      422,
      {
        'line 3.region': [
          'line 3 (external_id "B2"): The "State" cell gives the region "ON" and the "Province" cell "QC": fill in one of them.',
        ],
      },
    ])
    const fixed = await csv(`${header}${rows.join('\n').replace(',ON,QC,', ',ON,ON,')}\n`, '?dry_run=true')
    expect([fixed.status, fixed.body.created]).toEqual([200, 3])
  })

  const HEADER = 'Store Code;Name;Address;Latitude;Longitude;Tags;Monday;Colour\r\n'

  test('reads the CSV body, flags from the query; unknown columns are reported', async () => {
    const text = `\uFEFF${HEADER}S1;"Corner; Store";"1 Main St, Springfield";39,78;-89,65;Coffee|Wifi;9-17;red\r\nS2;Other;2 Main St;39.79;-89.66;;;blue\r\n`
    const dry = await csv(text, '?dry_run=true')
    expect(dry.body).toMatchObject({ dry_run: true, created: 2, unknown_columns: ['Colour'] })
    // Each result names its row's line as well as its place.
    expect(dry.body.results.map((r: any) => [r.index, r.line, r.external_id])).toEqual([
      [0, 2, 'S1'],
      [1, 3, 'S2'],
    ])
    expect(await all()).toEqual([])
    const res = await csv(text)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ dry_run: false, created: 2, unknown_columns: ['Colour'] })
    const [s1] = await all()
    expect(s1).toMatchObject({
      external_id: 'S1',
      name: 'Corner; Store',
      coordinates: { lat: 39.78, lng: -89.65 },
      tags: ['Coffee', 'Wifi'],
      hours: { monday: '9-17' },
    })
    const deleting = await csv(
      `${HEADER}S1;"Corner; Store";"1 Main St, Springfield";39.78;-89.65;Coffee|Wifi;9-17;red\r\n`,
      '?delete_missing=true',
    )
    expect(deleting.body).toMatchObject({ unchanged: 1, deleted: 1 })
    // A location deleted as missing has no line: it is not in the file.
    expect(deleting.body.results.map((r: any) => ['line' in r, r.index, r.action])).toEqual([
      [true, 0, 'unchanged'],
      [false, null, 'deleted'],
    ])
    // A column named as a custom field fills it once the field is defined.
    addCustomField(env.store, env.locatorId, { id: 'colour', name: 'Colour', type: 'text' })
    const coloured = await csv(
      `${HEADER}S1;"Corner; Store";"1 Main St, Springfield";39.78;-89.65;Coffee|Wifi;9-17;red\r\n`,
    )
    expect(coloured.body).toMatchObject({ updated: 1, unknown_columns: [] })
    expect((await all())[0].custom_fields).toEqual({ colour: 'red' })
  })

  test('country codes written as names because a few rows name theirs are said, with the fix', async () => {
    const header = 'Store Code,Name,Street,City,Zip,Country,Latitude,Longitude\n'
    const rows = [
      'U1,Loop,1 Main St,Chicago,60601,US,41.88,-87.62',
      'U2,Pike,2 Pike St,Seattle,98101,US,47.61,-122.33',
      'D1,Mitte,Friedrichstr. 1,Berlin,10117,DE,52.52,13.39',
      'F1,Louvre,1 Rue de Rivoli,Paris,75001,Frankreich,48.86,2.34',
    ]
    const res = await csv(`${header}${rows.join('\n')}\n`, '?dry_run=true')
    expect(res.status).toBe(200)
    expect(res.body.notes).toContain(
      'The file gives 3 rows a country code and 1 a country name (line 5: "Frankreich"), so the addresses write the codes as names in German ("US" as "Vereinigte Staaten"). To keep the codes, write that row\'s country as a code ("FR").',
    )
    // Names as many as codes are the file's way of writing countries: nothing to say.
    const named = [...rows.slice(0, 2), 'D1,Mitte,Friedrichstr. 1,Berlin,10117,Deutschland,52.52,13.39', rows[3]]
    const quiet = await csv(`${header}${named.join('\n')}\n`, '?dry_run=true')
    expect(quiet.status).toBe(200)
    expect(quiet.body.notes ?? []).not.toContainEqual(expect.stringContaining('a country name'))
    // Addresses given whole, naming their towns, are kept as written: no code becomes a name.
    const whole = [
      'Store Code,Name,Address,Country,Latitude,Longitude',
      'W1,Loop,"1 Main St, Chicago",US,41.88,-87.62',
      'W2,Pike,"2 Pike St, Seattle",US,47.61,-122.33',
      'W3,Louvre,"1 Rue de Rivoli, Paris",France,48.86,2.34',
    ]
    const kept = await csv(`${whole.join('\n')}\n`, '?dry_run=true')
    expect(kept.status).toBe(200)
    expect(kept.body.notes ?? []).not.toContainEqual(expect.stringContaining('a country name'))
  })

  test('a stored store code given on two rows says to give it once', async () => {
    const header = 'Store Code,Name,Address,Latitude,Longitude\n'
    const id = (await csv(`${header}S1,Corner,"1 Main St, Springfield",39.78,-89.65\n`)).body.results[0].id
    const twice = `${header}S1,Corner,"1 Main St, Springfield",39.78,-89.65\nS1,Other,"2 Main St, Springfield",39.79,-89.66\n`
    const res = await csv(twice, '?dry_run=true')
    expect([res.status, res.body.details]).toEqual([
      422,
      {
        'line 3': [
          `line 3 (external_id "S1"): the same store code as line 2, which matches location ${id}; give each external_id once.`,
        ],
      },
    ])
  })

  test('a latitude without its longitude says to give both, or neither', async () => {
    const text = 'Store Code,Name,Address,Latitude,Longitude\nA,Corner,"1 Main St, Springfield",39.78,\n'
    const res = await csv(text, '?dry_run=true')
    expect(res.status).toBe(422)
    expect(res.body.details).toEqual({
      'line 2.coordinates.lng': [
        'line 2 (external_id "A"): The "Longitude" column is required beside the latitude: give both, or neither.',
      ],
    })
  })

  test('problems name the CSV line; a file that is not CSV is 400 naming its line', async () => {
    const text = `name,address,lat,lng,external_id\nGood,a,1,2,G\n"Two\nlines",b,x,2,T\n,c,1,2,E\n`
    const res = await csv(text)
    expect(res.status).toBe(422)
    expect(res.body.details).toEqual({
      // The file's column, as the person wrote it.
      'line 3.coordinates.lat': [`line 3 (external_id "T"): The "lat" column must be a number; got "x". ${LAT_FORMS}`],
      'line 5.name': ['line 5 (external_id "E"): The "name" column is required.'],
    })
    // Every problem of a row at once: a status not read hides none of the others.
    addCustomField(env.store, env.locatorId, { id: 'parking', name: 'Parkplätze', type: 'number' })
    const many = await csv('Store Code;Name;Address;Status;Parkplätze\nT-1;;a;aktuell;viele\nT-2;Two;b;aktiv;2,5\n')
    expect(Object.keys(many.body.details)).toEqual(['line 2.status', 'line 2.name', 'line 2.custom_fields.parking'])
    expect(many.body.message).toBe('1 of 2 locations cannot be written as sent; nothing was written.')
    expect(await all()).toEqual([])
    // A decimal comma in a number custom field, as in the coordinates; not before three digits,
    // which English writes for thousands ("1,500"): refused, not read as 1.5.
    const thousands = await csv('Store Code;Name;Address;lat;lng;Parkplätze\nT-2;Two;b;1;2;1,500\n')
    expect(Object.keys(thousands.body.details)).toEqual(['line 2.custom_fields.parking'])
    const comma = await csv('Store Code;Name;Address;lat;lng;Parkplätze\nT-2;Two;b;1;2;2,5\nT-3;Three;c;1;2;0,500\n')
    expect(comma.status).toBe(200)
    expect((await all()).map((l: { custom_fields: unknown }) => l.custom_fields)).toEqual([
      { parking: '2.5' },
      { parking: '0.500' }, // a leading 0 is no thousands
    ])
    const broken = await csv('name,address\n"unclosed,a\n')
    expect(broken.status).toBe(400)
    expect(broken.body.error).toBe('invalid_request')
    expect(broken.body.message).toContain('line 2')
  })

  test('a day closed at midday after hours through noon closes at noon', async () => {
    const res = await csv(
      'external_id,name,address,lat,lng,Opening Hours\nA,Noon,a,1,2,"Mo-Fr 8-18, Mittwochmittag geschlossen"\nB,Noon,b,1,2,"Mon-Fri 9-5, Mittwochmittag geschlossen"\nC,Noon,c,1,2,"Mo-Fr 8-18, Mittwochnachmittag geschlossen"\n',
    )
    expect(res.body).toMatchObject({ created: 3 })
    expect(res.body.results.map((r: { warnings: string[] }) => r.warnings)).toEqual([[], [], []])
    const [a, b, c] = await all()
    expect([a.hours.tuesday, a.hours.wednesday, b.hours.tuesday, b.hours.wednesday, c.hours.wednesday]).toEqual([
      '8-18',
      '08:00-12:00',
      '9-5',
      '09:00-12:00',
      '08:00-12:00',
    ])
    expect([a.hours_unread, b.hours_unread, c.hours_unread]).toEqual([[], [], []])
  })

  test("a note's closing alone for a day the file has no column of leaves that day's stored hours", async () => {
    const p1 = { external_id: 'P1', name: 'P1', address: 'a', coordinates: { lat: 1, lng: 2 } }
    await bulk({ locations: [{ ...p1, hours: { thursday: '09:00-20:00' } }] })
    const res = await csv(
      'external_id,name,address,lat,lng,Montag,Dienstag\nP1,P1,a,1,2,"9-18, Do bis 20","9-18, Do bis 20"\n',
    )
    expect(res.body.results[0]).toMatchObject({ action: 'updated', changes: ['hours.monday', 'hours.tuesday'] })
    expect((await all())[0].hours).toMatchObject({ monday: '9-18', tuesday: '9-18', thursday: '09:00-20:00' })
    // Beside an empty Thursday column the closing is read against the note's first hours, as under "Donnerstag".
    const beside = await csv('external_id,name,address,lat,lng,Montag,Donnerstag\nP1,P1,a,1,2,"9-18 Uhr, Do bis 20",\n')
    expect(beside.body.results[0]).toMatchObject({ action: 'updated', changes: ['hours.monday'], warnings: [] })
    expect((await all())[0].hours).toMatchObject({ monday: '9-18 Uhr', thursday: '09:00-20:00' })
  })

  test('"Di" read as Sunday beside a day named in full in Italian is a problem of its line', async () => {
    const res = await csv(
      'external_id,name,address,lat,lng,Opening Hours\nA,Sun,a,1,2,"Di, Do 9-18, Sabato 9-12"\n',
      '?dry_run=true',
    )
    expect(res.status).toBe(422)
    expect(res.body.details).toEqual({
      'line 2.hours': [
        'line 2 (external_id "A"): "Di, Do 9-18, Sabato 9-12" could not be read as a week of opening hours: its "Di" is Sunday only in French, and its other days are Spanish or Italian. Write every day in one language.',
      ],
    })
  })

  test('a week in two languages whose halves name different days is a problem of its line, quoting both', async () => {
    const res = await csv(
      'external_id,name,address,lat,lng,Opening Hours\nA,Both,a,1,2,ma-za 9-18 / lu-ve 9-18\n',
      '?dry_run=true',
    )
    expect(res.status).toBe(422)
    expect(res.body.details).toEqual({
      'line 2.hours': [
        'line 2 (external_id "A"): "ma-za 9-18 / lu-ve 9-18" could not be read as a week of opening hours: its two halves, "ma-za 9-18" and "lu-ve 9-18", are the week in two languages but disagree on its days: only the first names Saturday. Write the week once, with the days it opens, such as "ma-za 9-18".',
      ],
    })
  })

  test('a week whose two days are apart by a space and a gap is a problem of its line, asking which', async () => {
    const res = await csv('external_id,name,address,lat,lng,Opening Hours\nA,Gap,a,1,2,Mon Fri 9-5\n', '?dry_run=true')
    expect(res.status).toBe(422)
    expect(res.body.details).toEqual({
      'line 2.hours': [
        'line 2 (external_id "A"): "Mon Fri 9-5" could not be read as a week of opening hours: its "Mon Fri" could be Monday and Friday, or Monday to Friday. Write "Mon, Fri" for the two days or "Mon-Fri" for the days from one to the other.',
      ],
    })
  })

  test('a week of hours in one column: split into the days; one naming no day is a problem of its line, nothing written', async () => {
    const bad = await csv(
      'external_id,name,address,lat,lng,Opening Hours\nA,Good,a,1,2,"Mon-Fri 9-18, Sat 10-14"\nB,Bad,b,1,2,on request\n',
    )
    expect(bad.status).toBe(422)
    expect(bad.body.details).toEqual({
      'line 3.hours': [
        'line 3 (external_id "B"): "on request" could not be read as a week of opening hours. Write it as "Mon-Fri 09:00-18:00, Sat 10:00-16:00, Sun closed", or use one column per day (monday ... sunday).',
      ],
    })
    expect(await all()).toEqual([])
    const good = await csv('external_id,name,address,lat,lng,Opening Hours\nA,Good,a,1,2,"Mon-Fri 9-18, Sat 10-14"\n')
    expect(good.body).toMatchObject({ created: 1, unknown_columns: [] })
    const [a] = await all()
    expect(a.hours).toEqual({
      monday: '9-18',
      tuesday: '9-18',
      wednesday: '9-18',
      thursday: '9-18',
      friday: '9-18',
      saturday: '10-14',
      sunday: 'closed', // a day the week leaves out
    })
    expect(a.hours_unread).toEqual([])
    // A day not read keeps its text, unknown, with a warning; the other days are read.
    const kept = await csv(
      'external_id,name,address,lat,lng,Opening Hours\nC,Kept,c,1,2,"Mon-Fri 9-18, Sat on request"\n',
    )
    expect(kept.body.results[0].warnings).toEqual([
      'Saturday\'s hours "on request" in the "Opening Hours" column is read as by appointment, with no hours: it is kept, and counts as unknown (docs/management-api.md, Opening hours).',
    ])
    const c = (await all()).find((l: { external_id: string }) => l.external_id === 'C')
    expect(c.hours).toMatchObject({ friday: '9-18', saturday: 'on request', sunday: 'closed' })
    expect(c.hours_unread).toEqual(['saturday'])
  })

  test("a special hours column holds all of a location's dates: those left out are cleared; JSON still merges them", async () => {
    const head = 'external_id,name,address,lat,lng,special_hours\n'
    await csv(`${head}A,Shop,a,1,2,2026-12-24 09:00-14:00; 2026-12-25 closed\n`)
    const special = async () => (await all())[0].special_hours
    expect(await special()).toEqual({ '2026-12-24': '09:00-14:00', '2026-12-25': 'closed' })
    expect((await csv(`${head}A,Shop,a,1,2,2026-12-25 closed\n`)).body).toMatchObject({ updated: 1 })
    expect(await special()).toEqual({ '2026-12-25': 'closed' })
    // A JSON item names the dates it changes, as PATCH does.
    await bulk({ locations: [{ external_id: 'A', special_hours: { '2026-12-31': '10-16' } }] })
    expect(await special()).toEqual({ '2026-12-25': 'closed', '2026-12-31': '10-16' })
    expect((await csv(`${head}A,Shop,a,1,2,\n`)).body).toMatchObject({ updated: 1 })
    expect(await special()).toEqual({})
    // Without the column, they are left as they are.
    await bulk({ locations: [{ external_id: 'A', special_hours: { '2026-12-31': '10-16' } }] })
    expect((await csv('external_id,name,address,lat,lng\nA,Shop,a,1,2\n')).body).toMatchObject({ unchanged: 1 })
    expect(await special()).toEqual({ '2026-12-31': '10-16' })
  })

  test('a CSV body sent compressed is refused, whether or not it is', async () => {
    const text = 'external_id,name,address,lat,lng\nZ1,Test,"1 Main St",51.5,-0.1\n'
    for (const body of [text, Bun.gzipSync(new TextEncoder().encode(text))]) {
      const res = await env.app.handle(
        new Request(`http://localhost${BULK}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env.key}`, 'content-type': 'text/csv', 'content-encoding': 'gzip' },
          body,
        }),
      )
      expect(res.status).toBe(400)
      expect(((await res.json()) as any).message).toContain('Send it uncompressed')
    }
    expect(await all()).toEqual([])
  })

  test('a CSV body of more than 1,000 rows is refused at its 1,001st row, the rest unread', async () => {
    const before = snapshot()
    const row = (i: number) => `S${i},Store ${i},${i} Main St,${40 + i / 1000},-3\n`
    const header = 'external_id,name,address,lat,lng\n'
    const rows = Array.from({ length: 1001 }, (_, i) => row(i)).join('')
    // A line past the limit that would be refused if it were read: it is not.
    const res = await csv(`${header}${rows}S,"never closed,a,1,2\n`)
    expect(res.status).toBe(422)
    expect(res.body.details).toEqual({
      locations: [
        "The locations field may not have more than 1000 items; the CSV body has more rows of locations. Send them in several requests (the CLI's locations import takes any number).",
      ],
    })
    const parts = await csv(`${header}${rows}`, '?delete_missing=true')
    expect(parts.body.details.locations[0]).toContain('Send them in several requests without delete_missing')
    expect(snapshot()).toEqual(before)
    // 1,000 rows and blank padding after them are read whole.
    const padded = await csv(`${header}${rows.slice(row(0).length)}${',,,,\n'.repeat(5)}`, '?dry_run=true')
    expect(padded.body).toMatchObject({ success: true, created: 1000 })
  })

  test('a CSV body of 1,000 stores is taken with a totals row below or its header again among them', async () => {
    const header = 'external_id,name,address,lat,lng,staff\n'
    const rows = Array.from({ length: 1000 }, (_, i) => `S${i},Store ${i},${i} Main St,${40 + i / 1000},-3,2\n`)
    const totals = await csv(`${header}${rows.join('')},Total,,,,2000\n`, '?dry_run=true')
    expect(totals.body).toMatchObject({ success: true, created: 1000 })
    const twice = [...rows.slice(0, 500), header, ...rows.slice(500)].join('')
    const again = await csv(`${header}${twice}`, '?dry_run=true')
    expect(again.body).toMatchObject({ success: true, created: 1000 })
    // A store more is one too many, whatever lines no store are among them.
    const more = await csv(`${header}${twice}S,One more,1 Main St,40,-3,2\n,Total,,,,2002\n`, '?dry_run=true')
    expect(more.status).toBe(422)
    expect(more.body.details.locations[0]).toContain('may not have more than 1000 items')
  })

  test('an hours cell longer than a week of hours is kept as written, not read as hours and a note', async () => {
    // Hours, a note of Saturday's, then text: read as a week, such a cell took seconds per thousand characters.
    const long = `9-18, Sa 10-13 ${'a a a … '.repeat(130)}`.trim()
    const row = (header: string) => `name,address,lat,lng,${header}\nA,1 Main St,39.78,-89.65,"${long}"\n`
    const day = await csv(row('Montag'), '?dry_run=true')
    expect(day.status).toBe(422)
    expect(day.body.details).toEqual({
      'line 2.hours.monday': ['line 2 ("A"): The "Montag" column may not be greater than 100 characters.'],
    })
    const week = await csv(row('Opening Hours'), '?dry_run=true')
    expect(week.body.details).toEqual({
      'line 2.hours': [
        `line 2 ("A"): ${JSON.stringify(long)} could not be read as a week of opening hours: it is ${long.length} characters long, and a week is read up to 500. Write its hours alone, such as "Mon-Fri 09:00-18:00, Sat 10:00-14:00".`,
      ],
    })
  })

  test('CSV is read only on the bulk route and only as text/csv', async () => {
    const res = await env.call('POST', '/admin/v1/locations', {
      body: 'name,address\nA,B\n',
      headers: { 'content-type': 'text/csv' },
    })
    expect(res.status).toBe(422)
    const plain = await env.call('POST', BULK, {
      body: 'name,address\nA,B\n',
      headers: { 'content-type': 'text/plain' },
    })
    expect(plain.status).toBe(400)
    expect(plain.body.message).toContain('text/csv')
  })
})

describe('bulk upsert, CSV columns of coordinates and custom fields', () => {
  test('a latitude column without a longitude one is said so, naming the misspelt column not read', async () => {
    const res = await csv(
      'external_id,name,address,Lattitude,Longitue\nS1,One,1 Main St,39.78,-89.65\nS2,Two,2 Main St,,\n',
    )
    expect(res.status).toBe(422)
    expect(res.body.details).toEqual({
      'line 2.coordinates.lng': [
        'line 2 (external_id "S1"): The "Lattitude" column gives the latitude, but no column gives the longitude: the column "Longitue" is not read, its name misspelt. Name it lng (or longitude), or clear the row\'s coordinate to have its address placed.',
      ],
    })
    // No column near the name: the column to add is named.
    const none = await csv('external_id,name,address,lng\nS1,One,1 Main St,-89.65\n')
    expect(none.body.details['line 2.coordinates.lat']).toEqual([
      'line 2 (external_id "S1"): The "lng" column gives the longitude, but no column gives the latitude. Add a lat column, or clear the row\'s coordinate to have its address placed.',
    ])
    expect(await all()).toEqual([])
  })

  test('a header naming a custom field fills it, though it is a spelling of a location field; the export names stay theirs', async () => {
    addCustomField(env.store, env.locatorId, { id: 'store_latitude', name: 'Survey latitude', type: 'text' })
    const file = 'external_id,name,address,Latitude,Longitude,Store Latitude\nS1,One,1 Main St,39.78,-89.65,39.7801\n'
    const res = await csv(file)
    expect(res.status).toBe(200)
    expect(res.body.notes).toEqual([
      'The column "Store Latitude" is read as the custom field "store_latitude", which it names, not as the latitude. To import it as the latitude, name the column lat; to say the custom field plainly, custom.store_latitude.',
    ])
    const [stored] = await all()
    expect([stored.coordinates, stored.custom_fields]).toEqual([
      { lat: 39.78, lng: -89.65 },
      { store_latitude: '39.7801' },
    ])
    // Beside custom.<id>, the header is the location field's again; the export's own names always are.
    addCustomField(env.store, env.locatorId, { id: 'phone', name: 'Phone', type: 'text' })
    const plain = await csv(
      'external_id,name,address,Store Latitude,Longitude,custom.store_latitude,phone\nS1,One,1 Main St,39.5,-89.65,x,555-0100\n',
    )
    expect(plain.status).toBe(200)
    expect(plain.body.notes).toEqual([
      'The column "Store Latitude" is read as the latitude, though it names the custom field "store_latitude": the column "custom.store_latitude" fills that.',
    ])
    const [again] = await all()
    expect([again.coordinates.lat, again.custom_fields, again.contact.phone]).toEqual([
      39.5,
      { store_latitude: 'x' },
      '555-0100',
    ])
    // The latitude's column read as the custom field it names: the lone longitude says so.
    const lone = await csv('external_id,name,address,Store Latitude,Longitude\nS2,Two,2 Main St,39.5,-89.65\n')
    expect(lone.body.details['line 2.coordinates.lat']).toEqual([
      'line 2 (external_id "S2"): The "Longitude" column gives the longitude, but no column gives the latitude: the column "Store Latitude" is read as the custom field "store_latitude", which it names. Name it lat (or latitude), or clear the row\'s coordinate to have its address placed.',
    ])
    // A store code column stays one, rows matched by it: read as the custom field, each would be new.
    addCustomField(env.store, env.locatorId, { id: 'shop_code', name: 'Store Code', type: 'text' })
    const coded = await csv('Store Code,name,address,lat,lng\nS1,One,1 Main St,39.5,-89.65\n')
    expect(coded.body).toMatchObject({ created: 0, unchanged: 1 })
    expect(coded.body.notes).toEqual([
      'The column "Store Code" is read as the store code, though it names the custom field "shop_code": rows are matched by it. To fill the custom field, name the column custom.shop_code.',
    ])
  })
})
