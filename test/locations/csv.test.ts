// Locations CSV through its exports: what a spreadsheet's file reads as, the errors a user can act
// on, and what writeLocationsCsv writes (the round trip: csv-round-trip.test.ts).
import { describe, expect, test } from 'bun:test'
import { readLocationsCsv } from '../../src/locations/csv'
import { type CsvLocation, writeLocationsCsv } from '../../src/locations/csv-write'
import { bodies, misread, readError } from './csv-read'
import { DAYS } from '../../src/store/locations'

const NO_HOURS = Object.fromEntries(DAYS.map((d) => [d, ''])) as CsvLocation['hours']

function location(fields: Partial<CsvLocation> = {}): CsvLocation {
  return {
    id: 'loc_1',
    external_id: null,
    name: 'Shop',
    address: '1 Main St',
    coordinates: { lat: 48.85, lng: 2.35 },
    description: '',
    tags: [],
    contact: { phone: '', email: '', website: '' },
    social: { instagram: '', facebook: '', twitter: '' },
    hours: NO_HOURS,
    special_hours: {},
    timezone: 'Europe/Paris',
    custom_fields: {},
    image_url: '',
    status: 'published',
    ...fields,
  }
}

describe('reading cells', () => {
  test('quoted cells keep separators, doubled quotes and spaces inside; cells are trimmed', () => {
    const csv = 'name,address,description\n  "Café ""Le Bon""" , "1 Rue, Paris" ,  plain text  \n'
    expect(bodies(csv)).toEqual([{ name: 'Café "Le Bon"', address: '1 Rue, Paris', description: 'plain text' }])
  })

  test('a quote inside an unquoted cell is kept as written', () => {
    expect(bodies('name,description\nBob\'s "Bar",27" screen\n')).toEqual([
      { name: 'Bob\'s "Bar"', description: '27" screen' },
    ])
  })

  test('quoted line breaks stay in the cell, and later rows keep their file line numbers', () => {
    const csv = 'name,description\r\nA,"two\r\nlines"\r\n\r\nB,"x\ny\rz"\r\nC,c\r\n'
    const read = readLocationsCsv(csv)
    expect(read.rows.map((r) => r.line)).toEqual([2, 5, 8])
    expect(read.rows.map((r) => r.body.description)).toEqual(['two\r\nlines', 'x\ny\rz', 'c'])
    expect(misread(`${csv}D\r\n`).map((r) => r.line)).toEqual([9])
  })

  test('a UTF-8 BOM is not part of the first header, as a string or as bytes', () => {
    const csv = '\uFEFFid,name\nloc_1,Shop\n'
    expect(bodies(csv)).toEqual([{ id: 'loc_1', name: 'Shop' }])
    expect(bodies(new TextEncoder().encode(csv))).toEqual([{ id: 'loc_1', name: 'Shop' }])
    expect(readLocationsCsv(csv).unknown).toEqual([])
  })

  test('the separator is the one the header uses most outside quotes: comma, semicolon or tab', () => {
    const expected = [{ name: 'Shop, Inc', address: 'Rue 1; Paris' }]
    expect(bodies('name,address\n"Shop, Inc",Rue 1; Paris\n')).toEqual(expected)
    expect(bodies('name;address\nShop, Inc;"Rue 1; Paris"\n')).toEqual(expected)
    expect(bodies('name\taddress\nShop, Inc\tRue 1; Paris\n')).toEqual(expected)
    // Three commas inside quotes, two semicolons outside: a count that ignored quotes would pick ','.
    const quoted = readLocationsCsv('"Notes, a, b, c";name;address\nx;Shop;Rue\n')
    expect(quoted.columns.map((c) => c.header)).toEqual(['Notes, a, b, c', 'name', 'address'])
    expect(quoted.rows[0]!.body).toEqual({ name: 'Shop', address: 'Rue' })
  })

  test('an Excel "sep=" first line names the separator; the lines after keep their numbers', () => {
    // One comma, no semicolon in the header: without the sep line, ',' would be chosen.
    const csv = 'sep=;\r\nname;address, with comma\r\nShop;Rue 1, Paris\r\n;x\r\n'
    const read = readLocationsCsv(csv)
    expect(read.columns.map((c) => c.header)).toEqual(['name', 'address, with comma'])
    expect(read.rows.map((r) => [r.line, r.body])).toEqual([
      [3, { name: 'Shop' }],
      [4, {}],
    ])
    const bytes = new TextEncoder().encode(`\uFEFF${csv}`)
    expect(readLocationsCsv(bytes).rows[0]!.line).toBe(3)
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toStartWith('\uFEFFsep=;') // the caller's bytes are left as they were
  })

  test('CRLF, LF, CR and a mix of them read the same', () => {
    const rows = ['name,address', 'A,1 Main St', '"B","2 Side St"', 'C,3 High St']
    const expected = bodies(`${rows.join('\n')}\n`)
    expect(expected).toHaveLength(3)
    expect(bodies(`${rows.join('\r\n')}\r\n`)).toEqual(expected)
    expect(bodies(rows.join('\r'))).toEqual(expected)
    expect(bodies(`${rows[0]}\r\n${rows[1]}\n${rows[2]}\r${rows[3]}`)).toEqual(expected)
    expect(readLocationsCsv(`${rows[0]}\r\n${rows[1]}\n\n${rows[2]}\r${rows[3]}`).rows.map((r) => r.line)).toEqual([
      2, 4, 5,
    ])
  })

  test('a line of blanks only is skipped as an empty one; the rows after it keep their file line numbers', () => {
    const csv = 'sep=,\nname,address\n   \nA,B\n \t\u00a0\nC,D\n'
    expect(readLocationsCsv(csv).rows.map((r) => r.line)).toEqual([4, 6])
    expect(misread(`${csv}  \nE\n`).map((r) => r.line)).toEqual([8])
    // The header too: the "sep=" line above it is read as a line of blanks.
    expect(readError('sep=,\nname,Name\nA,B\n').line).toBe(2)
  })

  test('empty lines and rows of empty cells are skipped, the header may come after them', () => {
    const read = readLocationsCsv('\n\nname,address\n\n,\n  ,  \nA,B\n,,\n')
    expect(read.rows).toEqual([
      {
        line: 7,
        body: { name: 'A', address: 'B' },
        country: null,
        postcode: null,
        city: null,
        problems: [],
        notes: [],
      },
    ])
  })
})

describe('fields', () => {
  test('empty cells leave id, external_id, name, address and status out and clear everything else', () => {
    const header = `id,external_id,name,address,status,description,image_url,tags,phone,instagram,monday,custom.wifi,lat,lng`
    expect(bodies(`${header}\n,,Shop,,,,,,,,,,,\n`)).toEqual([
      {
        name: 'Shop',
        description: '',
        image_url: '',
        tags: [],
        contact: { phone: '' },
        social: { instagram: '' },
        hours: { monday: '' },
        custom_fields: { wifi: '' },
      },
    ])
  })

  test('every column fills its place in the body', () => {
    const csv = [
      'id,store code,name,address,lat,lng,description,tags,phone,email,website,instagram,facebook,twitter,mon,tuesday,hours.sunday,image,status,custom.wifi,custom_fields.parking',
      'loc_1,S-1,Shop,1 Main St,48.85,2.35,Nice,a|b,+33 1,a@b.fr,https://a.fr,https://i.com/a,https://f.com/a,https://t.com/a,9-5,10-6,closed,https://a.fr/i.png,draft,yes,no',
    ].join('\n')
    expect(bodies(csv)).toEqual([
      {
        id: 'loc_1',
        external_id: 'S-1',
        name: 'Shop',
        address: '1 Main St',
        coordinates: { lat: 48.85, lng: 2.35 },
        description: 'Nice',
        tags: ['a', 'b'],
        contact: { phone: '+33 1', email: 'a@b.fr', website: 'https://a.fr' },
        social: { instagram: 'https://i.com/a', facebook: 'https://f.com/a', twitter: 'https://t.com/a' },
        hours: { monday: '9-5', tuesday: '10-6', sunday: 'closed' },
        image_url: 'https://a.fr/i.png',
        status: 'draft',
        custom_fields: { wifi: 'yes', parking: 'no' },
      },
    ])
  })

  test('a site, or a page with its path, without its protocol is read with https://; anything else is left for validation', () => {
    const csv = [
      'name,website,instagram,facebook,image_url',
      'A,www.cyclehub.example,instagram.com/cyclehub,,cdn.example.co.uk/a.png?w=2',
      'B,münchen.de:8080/laden,@cyclehub,http://f.example/b,HTTPS://cdn.example/b.png',
      'C,cyclehub,not a site.com,1.5,mailto:a@b.example',
      // A handle or a file name with a dot is no page: left for validation to refuse.
      'D,cycle.hub,cycle.hub,northwind.outdoor,front.jpg',
    ].join('\n')
    expect(bodies(csv).map((b) => [b.contact, b.social, b.image_url])).toEqual([
      [
        { website: 'https://www.cyclehub.example' },
        { instagram: 'https://instagram.com/cyclehub', facebook: '' },
        'https://cdn.example.co.uk/a.png?w=2',
      ],
      [
        { website: 'https://münchen.de:8080/laden' },
        { instagram: 'https://www.instagram.com/cyclehub/', facebook: 'http://f.example/b' },
        'HTTPS://cdn.example/b.png',
      ],
      [{ website: 'cyclehub' }, { instagram: 'not a site.com', facebook: '1.5' }, 'mailto:a@b.example'],
      [{ website: 'https://cycle.hub' }, { instagram: 'cycle.hub', facebook: 'northwind.outdoor' }, 'front.jpg'],
    ])
  })

  test('a handle with its @ in a social column is its profile; without the @ it may be a host, left as it is', () => {
    const csv = 'name,instagram,facebook,twitter\nA,@bean.there,@beanthere,@bean_there\nB,beanthere,@,@two words\n'
    expect(bodies(csv).map((b) => b.social)).toEqual([
      {
        instagram: 'https://www.instagram.com/bean.there/',
        facebook: 'https://www.facebook.com/beanthere',
        twitter: 'https://x.com/bean_there',
      },
      { instagram: 'beanthere', facebook: '@', twitter: '@two words' },
    ])
  })

  test("a column named as one of the locator's custom fields, by its name or id, fills it", () => {
    const fields = [
      { id: 'manager', name: 'Store manager' },
      { id: 'parking', name: 'Parking' },
      { id: 'wifi_code', name: 'Guest network' },
      { id: 'phone_2', name: 'Phone' },
    ]
    const read = readLocationsCsv(
      'name,Store Manager,Parking,custom.parking,WIFI-CODE,Phone,Notes\nA,Ann,free,paid,x1,+1 555,call\n',
      fields,
    )
    // "Parking" is not read: custom.parking fills that field. "Phone" is the location's phone.
    expect(read.rows[0]!.body).toEqual({
      name: 'A',
      custom_fields: { manager: 'Ann', parking: 'paid', wifi_code: 'x1' },
      contact: { phone: '+1 555' },
    })
    expect(read.unknown).toEqual(['Parking', 'Notes'])
    expect(readLocationsCsv('name,Store Manager\nA,Ann\n').unknown).toEqual(['Store Manager'])
    // An id matches before a name; a header of no words matches nothing.
    const [lot, star] = [
      { id: 'lot', name: 'Parking' },
      { id: 'star', name: '★' },
    ]
    const byId = readLocationsCsv('name,parking,#\nA,yes,1\n', [lot, { id: 'parking', name: 'Car park' }, star])
    expect(byId.rows[0]!.body.custom_fields).toEqual({ parking: 'yes' })
    expect(byId.unknown).toEqual(['#'])
  })

  test('a week of hours in one column is split into the days; a day column given wins for its day', () => {
    const read = readLocationsCsv(
      'name,address,Opening Hours,sunday\nA,1 Rd,"Mon-Fri 9-18, Sat 10-14",12-16\nB,2 Rd,Mo-Sa 08:00-20:00; So off,\nC,3 Rd,,\nD,4 Rd,Mon-Fri 9-17,\n',
    )
    expect(read.unknown).toEqual([])
    const days = (mon: string, sat: string, sun: string) => ({
      monday: mon,
      tuesday: mon,
      wednesday: mon,
      thursday: mon,
      friday: mon,
      saturday: sat,
      sunday: sun,
    })
    expect(read.rows.map((r) => [r.body.hours, r.problems])).toEqual([
      [days('9-18', '10-14', '12-16'), []],
      [{ ...days('08:00-20:00', '08:00-20:00', 'closed') }, []],
      [days('', '', ''), []], // an empty cell clears the days, as empty day cells do
      [days('9-17', 'closed', 'closed'), []], // the days a week leaves out are closed
    ])
    for (const header of ['hours', 'Store Hours', 'Öffnungszeiten', 'horaires', 'opening_hours'])
      expect(readLocationsCsv(`name,${header}\nA,Mon-Fri 9-5\n`).rows[0]!.body.hours).toMatchObject({ friday: '9-5' })
  })

  test('columns of some days\' hours ("Öffnungszeiten Mo-Fr", "Sat Hours") are read as one week', () => {
    const names = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
    const week = (...days: string[]) => Object.fromEntries(names.map((day, i) => [day, days[i]]))
    const de = readLocationsCsv(
      'Name;Adresse;Öffnungszeiten Mo-Fr;Öffnungszeiten Sa;So;Sales;Mall\nA;1 Rd;9-18;10-14;geschlossen;5;Nord\nB;2 Rd;9-18;;;;\nC;3 Rd;;;;;\n',
    )
    expect(de.unknown).toEqual(['Sales', 'Mall']) // words Spanish day letters would spell are no days
    expect(de.rows.map((r) => [r.body.hours, r.problems])).toEqual([
      [week('9-18', '9-18', '9-18', '9-18', '9-18', '10-14', 'geschlossen'), []],
      [week('9-18', '9-18', '9-18', '9-18', '9-18', 'closed', 'closed'), []], // the days left empty are closed
      [undefined, []], // no day's cell filled: the hours stay as they are
    ])
    const us = readLocationsCsv('Name,Address,Mon-Fri Hours,Sat Hours,Sunday\nA,1 Rd,9am-6pm,10am-4pm,x\n')
    expect(us.rows[0]!.body.hours).toEqual(
      week('9am-6pm', '9am-6pm', '9am-6pm', '9am-6pm', '9am-6pm', '10am-4pm', 'closed'),
    )
    // "Opening" is an hours word; "Weekday" names the days "Weekdays" does.
    for (const days of ['Opening Mon-Fri,Opening Sat,Opening Sun', 'Weekday Hours,Saturday Hours,Sunday Hours']) {
      const read = readLocationsCsv(`Name,Address,${days}\nA,1 Rd,9-18,10-14,closed\n`)
      const hours = week('9-18', '9-18', '9-18', '9-18', '9-18', '10-14', 'closed')
      expect([read.unknown, read.rows[0]!.body.hours]).toEqual([[], hours])
    }
    // A cell not read is kept as written for its column's days, as a week cell's day is.
    const [unread] = readLocationsCsv('Name;Mo-Fr;Sa\nA;9-18;nach Vereinbarung\n').rows
    expect([unread!.body.hours, unread!.problems]).toEqual([
      week('9-18', '9-18', '9-18', '9-18', '9-18', 'nach Vereinbarung', 'closed'),
      [],
    ])
  })

  test('a week of hours in which no day is found is a problem of its row, saying how to write it', () => {
    const [row] = readLocationsCsv('name,address,hours\nA,1 Rd,by appointment\n').rows
    expect(row!.problems).toEqual([
      {
        field: 'hours',
        message:
          '"by appointment" could not be read as a week of opening hours. Write it as "Mon-Fri 09:00-18:00, Sat 10:00-16:00, Sun closed", or use one column per day (monday ... sunday).',
      },
    ])
    expect(row!.body.hours).toBeUndefined()
  })

  test('special hours in one cell: each date and its hours; a cell that is not so is a problem saying how to write it', () => {
    const read = readLocationsCsv(
      'name,Holiday Hours\nA,"2026-12-24 09:00-14:00, 15-17; 2026-12-25 closed"\nB,\nC,Xmas 2026-12-24 closed\nD,2026-12-24; 2026-12-25 closed\nE,closed at Easter\n',
    )
    expect(read.rows.map((r) => r.body.special_hours)).toEqual([
      { '2026-12-24': '09:00-14:00, 15-17', '2026-12-25': 'closed' },
      {},
      undefined,
      undefined,
      undefined,
    ])
    const how =
      'Write each date as YYYY-MM-DD followed by its hours, the dates apart: "2026-12-24 09:00-14:00; 2026-12-25 closed".'
    expect(read.rows.map((r) => r.problems.map((p) => `${p.field}: ${p.message}`))).toEqual([
      [],
      [],
      [`special_hours: "Xmas 2026-12-24 closed" has text before its first date. ${how}`],
      [`special_hours: "2026-12-24; 2026-12-25 closed" gives 2026-12-24 no hours. ${how}`],
      [`special_hours: "closed at Easter" names no date. ${how}`],
    ])
  })

  test('Google Business Profile\'s hours: "x" is closed, and a colon may follow a date', () => {
    const read = readLocationsCsv(
      'name,Monday hours,Tuesday hours,Special hours\nA,9:00AM-5:00PM,x,"2026-12-24: 10:00AM-2:00PM, 2026-12-25: x"\nB,X,xx,2026-12-31:9-14\n',
    )
    expect(read.rows.map((r) => [r.body.hours, r.body.special_hours, r.problems])).toEqual([
      [{ monday: '9:00AM-5:00PM', tuesday: 'closed' }, { '2026-12-24': '10:00AM-2:00PM', '2026-12-25': 'closed' }, []],
      [{ monday: 'closed', tuesday: 'xx' }, { '2026-12-31': '9-14' }, []],
    ])
  })

  test('custom field ids are kept as written, even ones an object would inherit', () => {
    const [body] = bodies('name,custom.Opening_Year,custom.__proto__,custom.constructor\nShop,1999,x,y\n')
    const custom = body!.custom_fields as Record<string, string>
    expect(Object.getPrototypeOf(custom)).toBe(Object.prototype)
    expect(Object.entries(custom)).toEqual([
      ['Opening_Year', '1999'],
      ['__proto__', 'x'],
      ['constructor', 'y'],
    ])
  })

  test('tags split on "|" when the cell has one, else on ";", else on ",", else on a spaced "/"; pieces trimmed, empty ones dropped', () => {
    const cells = [
      'a|b',
      ' a , b ,, c ',
      'Food, drinks | Wifi |',
      'single',
      '',
      ' | , ',
      'x,y|',
      'Repairs; Rentals',
      'a; b, c',
      'Repairs / Rentals / E-Bikes',
      '24/7 /  A/C',
      'Bikes / Scooters, Repairs',
      'Open 24/7',
    ]
    const csv = `name,tags\n${cells.map((c) => `Shop,"${c}"`).join('\n')}\n`
    expect(bodies(csv).map((b) => b.tags)).toEqual([
      ['a', 'b'],
      ['a', 'b', 'c'],
      ['Food, drinks', 'Wifi'],
      ['single'],
      [],
      [','],
      ['x,y'],
      ['Repairs', 'Rentals'],
      ['a', 'b, c'],
      ['Repairs', 'Rentals', 'E-Bikes'],
      ['24/7', 'A/C'],
      ['Bikes / Scooters', 'Repairs'],
      ['Open 24/7'],
    ])
  })

  test("coordinates: numbers, decimal commas; a cell that is no number is the row's problem, no coordinates read", () => {
    const rows = [
      ['48.8566', '2.3522', { lat: 48.8566, lng: 2.3522 }],
      ['"48,8566"', '"-2,35"', { lat: 48.8566, lng: -2.35 }],
      ['-0.5', '.5', { lat: -0.5, lng: 0.5 }],
      ['1e-7', '+12', { lat: 1e-7, lng: 12 }],
      ['abc', '0x10', undefined],
      ['"48,85,1"', '1 000', undefined],
      ['48.5', '', { lat: 48.5 }],
      ['', '"2,5"', { lng: 2.5 }],
    ] as const
    const csv = `name,lat,lng\n${rows.map(([lat, lng]) => `Shop,${lat},${lng}`).join('\n')}\n`
    const read = readLocationsCsv(csv)
    expect(read.rows.map((r) => r.body.coordinates)).toEqual(rows.map((r) => r[2]))
    expect(read.rows[4]!.problems.map((p) => p.field)).toEqual(['coordinates.lat', 'coordinates.lng'])
    expect(read.rows[5]!.problems.map((p) => p.field)).toEqual(['coordinates.lat', 'coordinates.lng'])
    expect(bodies('name,lat,lng\nShop,,\n')).toEqual([{ name: 'Shop' }])
  })
})

describe('unreadable files', () => {
  test('rows with fewer cells than the header are each a problem of their line, named by their first cells', () => {
    const read = readLocationsCsv('external_id,name,address,city\nS1,A,B,C\nS2,D,E\nF\n')
    expect(read.rows.map(({ line, body, problems }) => ({ line, body, problems }))).toEqual([
      { line: 2, body: { external_id: 'S1', name: 'A', address: 'B, C' }, problems: [] },
      {
        line: 3,
        body: { external_id: 'S2', name: 'D' },
        problems: [
          { field: null, message: expect.stringMatching(/^This row has 3 cells but the header has 4 columns/) },
        ],
      },
      {
        line: 4,
        body: { external_id: 'F' },
        problems: [{ field: null, message: expect.stringMatching(/^This row has 1 cell but/) }],
      },
    ])
  })

  test('a row with text past the header names its line; empty trailing cells (spreadsheet padding) are allowed', () => {
    expect(bodies('name,address\nA,B,,\nC,D,\n')).toEqual([
      { name: 'A', address: 'B' },
      { name: 'C', address: 'D' },
    ])
    const [wide, ...none] = misread('name;address\nA;B\nC;D;;x\n')
    expect(none).toEqual([])
    expect(wide!.line).toBe(3)
    expect(wide!.message).toContain('column D')
    expect(wide!.message).toContain('";"')
  })

  test('an unclosed quote names the line its row starts on', () => {
    const e = readError('name,address\nA,B\n"C,D\nE,F\n')
    expect(e.line).toBe(3)
    expect(e.message).toStartWith('line 3: ')
    expect(e.message).toContain('never closed')
  })

  test('text after a closing quote names its line', () => {
    const e = readError('name,description\nA,"multi\nline"\nB,"say "hi" now"\n')
    expect(e.line).toBe(4)
    expect(e.message).toContain('twice')
  })

  test('bytes that are not UTF-8 name their line and say to save as CSV UTF-8', () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode('name,city\r\nA,"two\r\nlines"\r\nB,Z'), 0xfc, 0x72])
    const e = readError(latin1)
    expect(e.line).toBe(4)
    expect(e.message).toStartWith('line 4: ')
    expect(e.message).toContain('CSV UTF-8')
    expect(e.message).toEndWith(
      'From a script, if it is Windows-1252: iconv -f WINDOWS-1252 -t UTF-8 FILE > FILE-utf8.csv',
    )
  })

  test('a file that is no text (an image) is said to be none, not text in another encoding', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52])
    const e = readError(png)
    expect(e.line).toBeNull()
    expect(e.message).toStartWith('The file is not text: it holds NUL bytes, as an image, a PDF or an archive does')
    expect(e.message).not.toContain('Windows-1252')
  })

  test('a workbook (.xlsx, .xls) is said to be one, with how to save it as CSV', () => {
    // An .xlsx is a ZIP archive whose first entry's name is plain text.
    const xlsx = new Uint8Array([
      0x50,
      0x4b,
      0x03,
      0x04,
      0x14,
      0x00,
      ...new TextEncoder().encode('[Content_Types].xml'),
    ])
    const xls = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0])
    for (const bytes of [xlsx, xls]) {
      const e = readError(bytes)
      expect(e.line).toBeNull()
      expect(e.message).toStartWith('The file is a spreadsheet workbook (Excel or OpenDocument), not CSV.')
      expect(e.message).toContain('CSV UTF-8')
    }
  })
})

describe('writing', () => {
  test('columns in order, custom fields last in the order given, CRLF line endings', () => {
    const csv = writeLocationsCsv([location({ custom_fields: { parking: 'no', wifi: 'yes' } })], ['wifi', 'parking'])
    const [header, row, end] = csv.split('\r\n')
    expect(header).toBe(
      'id,external_id,name,address,lat,lng,description,tags,phone,email,website,instagram,facebook,twitter,monday,tuesday,wednesday,thursday,friday,saturday,sunday,special_hours,timezone,image_url,status,custom.wifi,custom.parking',
    )
    expect(row).toBe(`loc_1,,Shop,1 Main St,48.85,2.35${','.repeat(17)}Europe/Paris,,published,yes,no`)
    expect(end).toBe('')
  })

  test('cells with separators, quotes or line breaks are quoted', () => {
    const csv = writeLocationsCsv([location({ name: 'Shop, "Best"', description: 'a\nb', tags: ['x', 'y;z'] })], [])
    expect(csv.split('\r\n')[1]).toStartWith('loc_1,,"Shop, ""Best""",1 Main St,48.85,2.35,"a\nb",x|y;z,')
  })

  test('a lone tag with a comma, a semicolon or a spaced slash gets a trailing "|", so it reads back whole', () => {
    const csv = writeLocationsCsv([location({ tags: ['Food, drinks'] })], [])
    expect(csv.split('\r\n')[1]).toContain(',"Food, drinks|",')
    expect(bodies(csv)[0]!.tags).toEqual(['Food, drinks'])
    const semi = writeLocationsCsv([location({ tags: ['Food; drinks'] })], [])
    expect(bodies(semi)[0]!.tags).toEqual(['Food; drinks'])
    const slash = writeLocationsCsv([location({ tags: ['Bikes / Scooters'] })], [])
    expect(slash.split('\r\n')[1]).toContain(',Bikes / Scooters|,')
    expect(bodies(slash)[0]!.tags).toEqual(['Bikes / Scooters'])
  })

  test('numbers read back as the same double, -0 included', () => {
    // Each beside 10: 0 and -0 together are a placeholder, read as none (below).
    const values = [-0, 5e-324, 0.1 + 0.2, -179.99999999999997, 1.7976931348623157e308]
    const list = values.flatMap((v) => [
      location({ coordinates: { lat: v, lng: 10 } }),
      location({ coordinates: { lat: 10, lng: v } }),
    ])
    const read = bodies(writeLocationsCsv(list, []))
    read.forEach((body, i) => {
      const c = body.coordinates as { lat: number; lng: number }
      const v = values[Math.floor(i / 2)]
      expect([Object.is(c.lat, i % 2 === 0 ? v : 10), Object.is(c.lng, i % 2 === 0 ? 10 : v)]).toEqual([true, true])
    })
  })

  test("coordinates 0,0, a back office's placeholder, are read as none, and the row says so", () => {
    const read = readLocationsCsv('name,address,lat,lng\nA,1 Main St,0,0\nB,2 Main St,0,0.5\nC,3 Main St,-0,0.0\n')
    expect(read.rows.map((r) => [r.body.coordinates, r.notes.length])).toEqual([
      [undefined, 1],
      [{ lat: 0, lng: 0.5 }, 0],
      [undefined, 1],
    ])
    expect(read.rows[0]!.notes[0]).toStartWith('The coordinates 0,0 were read as none')
  })

  test('a tag with "|" cannot be written: the error names the location', () => {
    expect(() => writeLocationsCsv([location(), location({ id: 'loc_9', tags: ['a', 'b|c'] })], [])).toThrow(
      /Location "loc_9".*"b\|c"/,
    )
  })

  test('a text a spreadsheet would run as a formula gets a leading quote; coordinates stay numbers', () => {
    const csv = writeLocationsCsv(
      [
        location({
          name: '=HYPERLINK("http://x.test","Shop")',
          address: "'=1+1",
          coordinates: { lat: -33.9, lng: -70.6 },
          description: '-2+3',
          tags: ['@tag', 'ok'],
          contact: { phone: '+44 20 7946 0000', email: '', website: '' },
          custom_fields: { note: "'plain" },
        }),
      ],
      ['note'],
    )
    const row = csv.split('\r\n')[1]!
    expect(row).toStartWith(
      `loc_1,,"'=HYPERLINK(""http://x.test"",""Shop"")",''=1+1,-33.9,-70.6,'-2+3,'@tag|ok,'+44 20 7946 0000,`,
    )
    expect(row).toEndWith(",'plain")
  })

  test('a part of a cell after ";", ",", a tab or a line break that would start a formula gets a quote too; read back whole', () => {
    const name = "x;@SUM(1+1)*cmd|' /C calc'!A0"
    const description = "a;=1+1\n-2\r\n+3;'=4; ok, Best,=cmd|' /C calc'!A0\tok\t=5+5\t\t-6"
    for (const separator of [',', ';', '\t'] as const) {
      const csv = writeLocationsCsv([location({ name, description })], [], { separator, bom: false })
      // Split as a spreadsheet that takes "," or ";" for its separator does, quotes or not, line by line.
      const parts = csv.split(/[;,\t\r\n]+/).map((p) => p.replace(/^"/, ''))
      expect(parts.filter((p) => /^[=+\-@]/.test(p))).toEqual([])
      expect(csv).toContain(`x;'@SUM(1+1)`)
      expect(csv).toContain(`Best,'=cmd`)
      expect(bodies(csv)[0]).toMatchObject({ name, description })
    }
  })

  test('one leading quote is taken off a cell that starts a formula after it, and only then', () => {
    const [body] = bodies("name,address,phone,description,tags,lat\n'=Shop,''@home,'+1 555,'plain,'-a|b,'-33.5\n")
    expect(body).toMatchObject({
      name: '=Shop',
      address: "'@home",
      contact: { phone: '+1 555' },
      description: "'plain",
      tags: ['-a', 'b'],
      coordinates: { lat: -33.5 },
    })
  })

  test('special hours are written in date order; a text that would not read back cannot be written', () => {
    const csv = writeLocationsCsv([location({ special_hours: { '2026-12-25': 'closed', '2026-12-24': '9-14' } })], [])
    expect(csv.split('\r\n')[1]).toContain(',2026-12-24 9-14; 2026-12-25 closed,')
    for (const text of ['closed until 2027-01-02', '9-14;', ': 9-14'])
      expect(() => writeLocationsCsv([location({ id: 'loc_7', special_hours: { '2026-12-24': text } })], [])).toThrow(
        /Location "loc_7" .*special hours of 2026-12-24/,
      )
  })

  test('a custom field the location lacks is written empty, whatever its id', () => {
    const csv = writeLocationsCsv([location({ custom_fields: { other: 'x' } })], ['constructor', 'wifi', 'wifi'])
    expect(csv.split('\r\n')[0]).toEndWith(',status,custom.constructor,custom.wifi')
    expect(bodies(csv)[0]!.custom_fields).toEqual({ constructor: '', wifi: '' })
  })
})
