// storeloc locations import of 20-store files as other hosted locators and listing tools export
// them (test/fixtures/csv): every column a person expects read is read, the rest are listed as not
// read, and the file and its export import again changing nothing.
import { beforeEach, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { EXCEL_WORDS } from './excel-words'
import { file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Moving').locator.id
})

const fixture = (name: string) => readFileSync(join(import.meta.dir, '../fixtures/csv', name))

type Stored = {
  external_id: string | null
  name: string
  address: string
  status: string
  tags: string[]
  hours: Record<string, string>
  contact: Record<string, string>
}

/** Each file, the columns it has that no field takes, and what its first two stores hold. */
const LOCATOR_FILES: [
  tool: string,
  name: string,
  unread: string[],
  shown: (l: Stored) => unknown,
  stored: unknown[],
][] = [
  [
    'Yext (entities download)',
    'yext-entities.csv',
    ['Entity Type', 'Categories', 'Featured Message > Description'],
    (l) => [l.external_id, l.address, l.contact.email, l.contact.website, l.hours.monday, l.hours.sunday, l.status],
    [
      [
        'ch-sea-01',
        '1520 4th Ave, Seattle, WA 98101, US',
        'seattle@cyclehub.example',
        'https://cyclehub.example/seattle',
        '9:00am-6:00pm',
        'closed',
        'published',
      ],
      [
        'ch-sea-02',
        '5300 Ballard Ave NW, Unit 4, Rear entrance, Seattle, WA 98107, US',
        'ballard@cyclehub.example',
        'https://cyclehub.example/ballard',
        '10am-12pm',
        'closed',
        'draft',
      ],
    ],
  ],
  [
    'Storepoint',
    'storepoint.csv',
    ['Extra'],
    (l) => [l.name, l.tags, l.hours.monday, l.hours.saturday],
    [
      ['Cycle Hub Leeds', ['Repairs', 'Rentals'], '9am - 5:30pm', '10am - 4pm'],
      ['Cycle Hub York', ['Repairs'], '10am - 6pm', 'Closed'],
    ],
  ],
  [
    'Shopify locations',
    'shopify-locations.csv',
    ['Province Code', 'Fulfills Online Orders', 'Legacy', 'Created At', 'Updated At'],
    (l) => [l.external_id, l.address, l.status],
    [
      ['68123456700', '12 Briggate, Leeds LS1 6HD, West Yorkshire, United Kingdom', 'published'],
      ['68123456701', '3 Coney Street, York YO1 9QL, North Yorkshire, United Kingdom', 'published'],
    ],
  ],
  [
    'Brandify',
    'brandify.csv',
    ['fax', 'icon'],
    (l) => [l.external_id, l.address, l.hours.monday, l.hours.saturday, l.hours.sunday],
    [
      ['CH1001', '12 Briggate, Leeds LS1 6HD, West Yorkshire, GB', '0900-1800', '1000-1600', 'closed'],
      ['CH1002', '3 Coney Street, York YO1 9QL, North Yorkshire, GB', '0900-1800', 'closed', 'closed'],
    ],
  ],
]

describe('files from other locators, 20 stores each', () => {
  const stores = 20
  for (const [tool, name, unread, shown, stored] of LOCATOR_FILES) {
    test(`${tool}: reads every column it can, lists the rest, and imports again to no change`, () => {
      const path = file(name, fixture(name))
      const dry = json('locations', 'import', locatorId, '--file', path, '--dry-run')
      expect([dry.created, dry.unknown_columns]).toEqual([stores, unread])
      expect(json('locations', 'import', locatorId, '--file', path).created).toBe(stores)
      expect(json('locations', 'export', locatorId).slice(0, 2).map(shown)).toEqual(stored)
      const exported = storeloc('locations', 'export', locatorId, '--format', 'csv')
      const again = json('locations', 'import', locatorId, '--file', file('export.csv', exported.stdout))
      expect([again.created, again.updated, again.unchanged]).toEqual([0, 0, stores])
      if (name === 'storepoint.csv') return // no store code: it would make every store again
      const source = json('locations', 'import', locatorId, '--file', path)
      expect([source.created, source.updated, source.unchanged]).toEqual([0, 0, stores])
    })
  }
})

describe("Yext's Closed", () => {
  const header =
    'Entity ID,Name,Address > Line 1,Address > City,Display Coordinate > Latitude,Display Coordinate > Longitude'
  /** The path of a sheet with Yext's columns and `column` of `cells`. */
  const withColumn = (column: string, cells: string[]) =>
    file(
      'closed.csv',
      [
        `${header},${column}`,
        `Y1,North,1 Briggate,Leeds,53.8,-1.54,${cells[0]}`,
        `Y2,South,2 Briggate,Leeds,53.7,-1.5,${cells[1]}`,
      ].join('\n'),
    )

  test('true is a store closed for good, imported as a draft; false publishes it again', () => {
    expect(json('locations', 'import', locatorId, '--file', withColumn('Closed', ['TRUE', 'false'])).created).toBe(2)
    expect(json('locations', 'export', locatorId).map((l: Stored) => l.status)).toEqual(['draft', 'published'])
    const reopened = json('locations', 'import', locatorId, '--file', withColumn('Closed', ['false', 'false']))
    expect([reopened.updated, reopened.unchanged]).toEqual([1, 1])
    expect(json('locations', 'export', locatorId).map((l: Stored) => l.status)).toEqual(['published', 'published'])
  })

  test("Excel's TRUE and FALSE in other languages (WAHR, FALSO) are yes and no in a Closed and an Active column", () => {
    const sheet = (column: string) =>
      file(
        'excel.csv',
        [
          `${header},${column}`,
          ...EXCEL_WORDS.flatMap(([yes, no], i) => [
            `T${i},North ${i},${i} Briggate,Leeds,53.8,-1.54,${yes}`,
            `F${i},South ${i},${i} Boar Lane,Leeds,53.79,-1.55,${no}`,
          ]),
        ].join('\n'),
      )
    const statuses = () =>
      Object.fromEntries(json('locations', 'export', locatorId).map((l: Stored) => [l.external_id, l.status]))
    const expected = (yes: string, no: string) =>
      Object.fromEntries(
        EXCEL_WORDS.flatMap((_, i) => [
          [`T${i}`, yes],
          [`F${i}`, no],
        ]),
      )
    expect(json('locations', 'import', locatorId, '--file', sheet('Closed')).created).toBe(EXCEL_WORDS.length * 2)
    expect(statuses()).toEqual(expected('draft', 'published'))
    expect(json('locations', 'import', locatorId, '--file', sheet('Active')).updated).toBe(EXCEL_WORDS.length * 2)
    expect(statuses()).toEqual(expected('published', 'draft'))
  })

  test('a Closed column of other text is not read but noted; beside a status column it is not read', () => {
    const dry = json('locations', 'import', locatorId, '--file', withColumn('Closed', ['Sundays', '']), '--dry-run')
    expect([dry.created, dry.unknown_columns, dry.notes]).toEqual([
      2,
      ['Closed'],
      [expect.stringContaining('The column "Closed" holds "Sundays", neither yes nor no')],
    ])
    const beside = withColumn('status,Closed', ['draft,false', 'published,true'])
    const done = json('locations', 'import', locatorId, '--file', beside)
    expect([done.created, done.unknown_columns]).toEqual([2, ['Closed']])
    expect(json('locations', 'export', locatorId).map((l: Stored) => l.status)).toEqual(['draft', 'published'])
  })

  test('a Closed column of other text leaves the status to the Active column after it', () => {
    const both = withColumn('Closed,Active', ['Sundays,TRUE', ',FALSE'])
    const done = json('locations', 'import', locatorId, '--file', both)
    expect([done.created, done.unknown_columns, done.notes]).toEqual([
      2,
      ['Closed'],
      [expect.stringContaining('The column "Closed" holds "Sundays", neither yes nor no')],
    ])
    expect(json('locations', 'export', locatorId).map((l: Stored) => l.status)).toEqual(['published', 'draft'])
  })

  test('a Closed column of closed days is noted with where closed days go, not true or false', () => {
    const dry = json('locations', 'import', locatorId, '--file', withColumn('Closed', ['Sun & Mon', '']), '--dry-run')
    expect(dry.notes).toEqual([
      expect.stringContaining("If it lists the days a store is closed, give them in the store's hours"),
    ])
    expect(dry.notes[0]).not.toContain('true or false')
  })

  test("a Closed column that names one of the locator's custom fields fills that, not the status", () => {
    storeloc('custom-field', 'add', locatorId, '--id', 'closed', '--name', 'Closed', '--type', 'text')
    const done = json('locations', 'import', locatorId, '--file', withColumn('Closed', ['yes', 'no']))
    expect([done.created, done.unknown_columns, done.notes]).toEqual([
      2,
      [],
      ['The column "Closed" is read as the custom field "closed", which it names, not as the status.'],
    ])
    const stored = json('locations', 'export', locatorId).map((l: Stored & { custom_fields: unknown }) => [
      l.status,
      l.custom_fields,
    ])
    expect(stored).toEqual([
      ['published', { closed: 'yes' }],
      ['published', { closed: 'no' }],
    ])
  })
})

describe('columns of a field another column fills', () => {
  test("Yext's Featured Message and Google's Additional phones beside a phone are not read; notes say why", () => {
    const notesOf = (name: string) =>
      json('locations', 'import', locatorId, '--file', file(name, fixture(name)), '--dry-run').notes
    expect(notesOf('yext-entities.csv')).toContainEqual(
      expect.stringContaining(
        'The column "Featured Message > Description" is Yext\'s featured message, a promotion shown for a time, not the store\'s description',
      ),
    )
    expect(notesOf('google-business-profile.csv')).toContainEqual(
      expect.stringContaining(
        'The column "Additional phones" gives the phone, its first number, only where "Primary phone" is empty: a location keeps one phone, so its numbers beside one (line 12) are not imported.',
      ),
    )
  })

  test('Additional phones give the phone where no phone cell does: the first, the others said dropped', () => {
    const sheet = [
      'Store code,Business name,Address line 1,Locality,Country/Region,Latitude,Longitude,Additional phones',
      'N1,North,1 Briggate,Leeds,GB,53.8,-1.54,"0113 496 0000, 07700 900100"',
      'N2,South,2 Briggate,Leeds,GB,53.79,-1.55,0113 496 0001',
    ].join('\n')
    const done = json('locations', 'import', locatorId, '--file', file('phones.csv', sheet))
    expect([done.created, done.unknown_columns ?? [], done.notes]).toEqual([2, [], undefined])
    expect(done.results[0].warnings).toEqual([
      'The "Additional phones" cell holds 2 numbers, and a location keeps one phone: the first, "0113 496 0000", is imported; "07700 900100" is not. To show it, add it to the description or to a custom field.',
    ])
    expect(done.results[1].warnings ?? []).toEqual([])
    const phones = () => json('locations', 'export', locatorId).map((l: Stored) => l.contact.phone)
    expect(phones()).toEqual(['0113 496 0000', '0113 496 0001'])
    // Beside Primary phone, as Google's sheet has it: a row whose primary phone is empty takes the first.
    const beside = sheet
      .replace('Additional phones', 'Primary phone,Additional phones')
      .replace('-1.54,', '-1.54,,')
      .replace('-1.55,', '-1.55,0113 496 0002,')
    const again = json('locations', 'import', locatorId, '--file', file('beside.csv', beside))
    expect([again.updated, again.unchanged, again.notes]).toEqual([
      1,
      1,
      [expect.stringContaining('so its numbers beside one (line 3) are not imported.')],
    ])
    expect(phones()).toEqual(['0113 496 0000', '0113 496 0002'])
  })
})

describe('two region columns', () => {
  test("each row's region is the one it fills; a row giving two regions is a problem of its line", () => {
    const header = 'clientkey,name,address1,city,state,province,postalcode,country,latitude,longitude'
    const rows = [
      'B1,Cycle Hub Austin,1100 S Congress Ave,Austin,TX,,78704,US,30.2518,-97.749',
      'B2,Cycle Hub Toronto,100 Queen St W,Toronto,,ON,M5H 2N2,CA,43.6525,-79.3838',
    ]
    const path = file('two.csv', [header, ...rows].join('\n'))
    expect(json('locations', 'import', locatorId, '--file', path).created).toBe(2)
    expect(json('locations', 'export', locatorId).map((l: Stored) => l.address)).toEqual([
      '1100 S Congress Ave, Austin, TX 78704, US',
      '100 Queen St W, Toronto, ON M5H 2N2, CA',
    ])
    // Beside a row that fills one: the columns are each row's one of two, not two things.
    const both = file('both.csv', `${header}\n${rows[0]}\n${rows[1]!.replace(',,ON', ',QC,ON')}\n`)
    const refused = storeloc('locations', 'import', locatorId, '--file', both)
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain(
      'line 3 (external_id "B2"): The "state" cell gives the region "QC" and the "province" cell "ON": fill in one of them.',
    )
  })
})

describe('a tags column of numbers alone', () => {
  test('is category ids, not read but noted; tags of numbers an export writes read back', () => {
    const header = 'external_id,name,address,lat,lng,Categories'
    const ids = file(
      'ids.csv',
      `${header}\nN1,North,1 Briggate,53.8,-1.54,"1314,1316"\nN2,South,2 Briggate,53.7,-1.5,1314\n`,
    )
    const dry = json('locations', 'import', locatorId, '--file', ids, '--dry-run')
    expect([dry.unknown_columns, dry.notes]).toEqual([
      ['Categories'],
      [expect.stringContaining('The column "Categories" holds numbers alone')],
    ])
    const numbers = file(
      'numbers.csv',
      'external_id,name,address,lat,lng,tags\nN1,North,1 Briggate,53.8,-1.54,2024|7\n',
    )
    expect(json('locations', 'import', locatorId, '--file', numbers).created).toBe(1)
    const exported = storeloc('locations', 'export', locatorId, '--format', 'csv')
    const again = json('locations', 'import', locatorId, '--file', file('export.csv', exported.stdout))
    expect([again.unchanged, again.unknown_columns ?? []]).toEqual([1, []])
    expect(json('locations', 'export', locatorId)[0].tags).toEqual(['2024', '7'])
  })
})

describe("other locators' import templates", () => {
  // Each template's header, a row of it, the columns no field takes, and what the row is stored as.
  type Template = [
    tool: string,
    header: string,
    row: string,
    unread: string[],
    shown: (l: any) => unknown,
    stored: unknown,
  ]
  const TEMPLATES: Template[] = [
    [
      'RP Store Locator',
      'title,id,priority,status,phone,web,webdisplay,store_image,marker_image,address,city,state,zipcode,country,latitude,longitude,tags,schedule',
      'Cycle Hub Leeds,17,5,0,0113 496 0000,https://cyclehub.example/leeds,cyclehub.example,https://cyclehub.example/a.jpg,,12 Briggate,Leeds,West Yorkshire,LS1 6HD,GB,53.7972,-1.5417,"Repairs,Rentals","Mon-Fri 9am-5pm, Sat 10am-2pm"',
      ['priority', 'webdisplay', 'marker_image'],
      (l) => [l.status, l.image_url, l.hours.monday, l.hours.saturday],
      ['draft', 'https://cyclehub.example/a.jpg', '9am-5pm', '10am-2pm'],
    ],
    [
      'PinPoint',
      'name,address,city,state,zip_code,country,phone,website,tags,is_active,is_featured',
      'Cycle Hub Leeds,12 Briggate,Leeds,West Yorkshire,LS1 6HD,GB,0113 496 0000,https://cyclehub.example/leeds,"Flagship,Repairs",false,true',
      ['is_featured'],
      (l) => [l.status, l.tags],
      ['draft', ['Flagship', 'Repairs']],
    ],
    [
      'Store Locator Widgets',
      'Store Name,Description,AddressComplete,State / County,Website,Website_text',
      'Cycle Hub Leeds,Repairs,"12 Briggate, Leeds LS1 6HD, United Kingdom",West Yorkshire,https://cyclehub.example/leeds,Visit us',
      ['Website_text'],
      (l) => [l.name, l.address],
      ['Cycle Hub Leeds', '12 Briggate, Leeds LS1 6HD, West Yorkshire, United Kingdom'],
    ],
  ]
  for (const [tool, header, row, unread, shown, stored] of TEMPLATES) {
    test(`${tool}: its columns are read, the rest listed`, () => {
      const path = file('template.csv', `${header}\n${row}\n`)
      const done = json('locations', 'import', locatorId, '--file', path)
      expect([done.created, done.unknown_columns]).toEqual([1, unread])
      expect(shown(json('locations', 'export', locatorId)[0])).toEqual(stored)
    })
  }
})

describe('further address lines', () => {
  test("Google's Address line 3 to 5 follow the second line in the address", () => {
    const header =
      'Store code,Business name,Address line 1,Address line 2,Address line 3,Address line 4,Locality,Postal code,Country/Region,Latitude,Longitude'
    const rows = [
      'G1,Cycle Hub,1 Princes Street,Waverley Mall,Unit 3,,Edinburgh,EH2 2EQ,GB,55.9533,-3.1883',
      'G2,Cycle Hub,10 Byres Road,,Floor 2,,Glasgow,G11 5JY,GB,55.8721,-4.288',
    ]
    const path = file('gbp.csv', [header, ...rows].join('\n'))
    const done = json('locations', 'import', locatorId, '--file', path)
    expect([done.created, done.unknown_columns]).toEqual([2, []])
    expect(json('locations', 'export', locatorId).map((l: Stored) => l.address)).toEqual([
      '1 Princes Street, Waverley Mall, Unit 3, Edinburgh EH2 2EQ, GB',
      '10 Byres Road, Floor 2, Glasgow G11 5JY, GB',
    ])
  })

  test("Yext's Address > Line 3 follows Line 2 in the address, with or without it", () => {
    const header =
      'Entity ID,Name,Address > Line 1,Address > Line 2,Address > Line 3,Address > City,Address > Postal Code,Address > Country Code'
    const rows = [
      'Y1,Cycle Hub,1 Princes Street,Waverley Mall,Unit 3,Edinburgh,EH2 2EQ,GB',
      'Y2,Cycle Hub,10 Byres Road,,Floor 2,Glasgow,G11 5JY,GB',
    ]
    const done = json('locations', 'import', locatorId, '--file', file('yext.csv', [header, ...rows].join('\n')))
    expect([done.created, done.unknown_columns]).toEqual([2, []])
    expect(json('locations', 'export', locatorId).map((l: Stored) => l.address)).toEqual([
      '1 Princes Street, Waverley Mall, Unit 3, Edinburgh EH2 2EQ, GB',
      '10 Byres Road, Floor 2, Glasgow G11 5JY, GB',
    ])
  })
})

describe('template spellings in a sheet where they mean something else', () => {
  const header = 'external_id,name,address,lat,lng'
  const rows = ['N1,North,1 Briggate,53.8,-1.54', 'N2,South,2 Briggate,53.7,-1.5']
  /** The path of the sheet with one more column, of `cells`. */
  const withColumn = (column: string, cells: string[]) =>
    file('sheet.csv', [`${header},${column}`, ...rows.map((r, i) => `${r},${cells[i]}`)].join('\n'))
  const dryRun = (path: string) => json('locations', 'import', locatorId, '--file', path, '--dry-run')

  test('a Schedule of no hours is not read but noted; one of hours is, and exports back', () => {
    const dry = dryRun(withColumn('Schedule', ['Weekly', 'Open daily']))
    expect([dry.created, dry.unknown_columns, dry.notes]).toEqual([
      2,
      ['Schedule'],
      [expect.stringContaining('The column "Schedule" holds no opening hours')],
    ])
    const path = withColumn('Schedule', ['Mon-Fri 9am-5pm', 'Weekly'])
    const refused = storeloc('locations', 'import', locatorId, '--file', path)
    expect(refused.stderr).toContain('line 3 (external_id "N2"): "Weekly" could not be read as a week')
    const hours = withColumn('Schedule', ['Mon-Fri 9am-5pm', 'Sat 10am-2pm'])
    expect(json('locations', 'import', locatorId, '--file', hours).created).toBe(2)
    const exported = storeloc('locations', 'export', locatorId, '--format', 'csv')
    const again = json('locations', 'import', locatorId, '--file', file('export.csv', exported.stdout))
    expect([again.unchanged, again.unknown_columns]).toEqual([2, []])
  })

  test('a Schedule of Excel-guarded hours (="Mo-Fr 9-18") is judged as its rows read it: hours', () => {
    const guarded = withColumn('Schedule', ['"=""Mo-Fr 9-18"""', '"=""Mo-Sa 10-14"""'])
    const done = json('locations', 'import', locatorId, '--file', guarded)
    expect([done.created, done.unknown_columns ?? [], done.notes]).toEqual([2, [], undefined])
    const stored = json('locations', 'export', locatorId).map((l: Stored) => [l.hours.monday, l.hours.saturday])
    expect(stored).toEqual([
      ['9-18', 'closed'],
      ['10-14', '10-14'],
    ])
  })

  test('a Schedule beside day columns is read only when every cell is hours; the days win, noted', () => {
    const days = 'Monday Open,Monday Close,Tuesday Open,Tuesday Close'
    const times = ['09:00,17:00,09:00,17:00', '10:00,18:00,10:00,12:00']
    /** The sheet with a Schedule column of `cells` and the day columns. */
    const sheet = (cells: string[]) =>
      file('days.csv', [`${header},Schedule,${days}`, ...rows.map((r, i) => `${r},${cells[i]},${times[i]}`)].join('\n'))
    // "Closed" reads as a week (closed every day), "Weekly" as none: not the hours beside the days'.
    const dry = dryRun(sheet(['Closed', 'Weekly']))
    expect([dry.created, dry.unknown_columns, dry.notes]).toEqual([
      2,
      ['Schedule'],
      [
        expect.stringContaining(
          'The column "Schedule" holds text that is no opening hours ("Weekly"), and the day columns ("Monday Open", "Monday Close", "Tuesday Open", "Tuesday Close") give them',
        ),
      ],
    ])
    // Hours in every cell are read beside the days, as before: they give the days left empty.
    const week = dryRun(sheet(['Sat 10am-2pm', 'Sat 10am-4pm']))
    expect([week.created, week.unknown_columns ?? []]).toEqual([2, []])
    // A day of the week by appointment is kept as unknown, as in a Schedule alone: still hours.
    const kept = dryRun(sheet(['Sat 10am-2pm', '"Mon-Fri 9-5, Sat by appointment"']))
    expect([kept.created, kept.unknown_columns ?? [], kept.notes]).toEqual([2, [], undefined])
    expect(kept.results[1].warnings).toEqual([expect.stringContaining('Saturday\'s hours "by appointment"')])
    expect(json('locations', 'import', locatorId, '--file', sheet(['Closed', 'Weekly'])).created).toBe(2)
    const stored = json('locations', 'export', locatorId).map((l: Stored) => [l.hours.monday, l.hours.tuesday])
    expect(stored).toEqual([
      ['09:00-17:00', '09:00-17:00'],
      ['10:00-18:00', '10:00-12:00'],
    ])
  })

  test('a store_image of file names is not read but noted', () => {
    const dry = dryRun(withColumn('store_image', ['leeds.jpg', 'york.png']))
    expect([dry.created, dry.unknown_columns, dry.notes]).toEqual([
      2,
      ['store_image'],
      [expect.stringContaining('The column "store_image" holds file names, not web addresses')],
    ])
  })

  test('AddressComplete beside a street column is not read; beside an Address column neither', () => {
    const path = file(
      'parts.csv',
      'external_id,name,AddressComplete,Street,City,Postcode,Country,lat,lng\n' +
        'S1,North,"12 Briggate, Leeds LS1 6HD, UK",12 Briggate,Leeds,LS1 6HD,GB,53.8,-1.54\n' +
        'S2,South,,3 Coney Street,York,YO1 9QL,GB,53.96,-1.08\n',
    )
    const done = json('locations', 'import', locatorId, '--file', path)
    expect([done.created, done.unknown_columns, done.notes]).toEqual([
      2,
      ['AddressComplete'],
      [expect.stringContaining('The column "AddressComplete" is read as the whole address only')],
    ])
    expect(json('locations', 'export', locatorId).map((l: Stored) => l.address)).toEqual([
      '12 Briggate, Leeds LS1 6HD, GB',
      '3 Coney Street, York YO1 9QL, GB',
    ])
    const beside = file(
      'beside.csv',
      'external_id,name,Address,AddressComplete,lat,lng\nS3,East,1 Briggate,"1 Briggate, Leeds, UK",53.8,-1.54\n',
    )
    const dry = dryRun(beside)
    expect([dry.created, dry.unknown_columns]).toEqual([1, ['AddressComplete']])
  })

  test("Yext's Emails of two addresses says one is kept and which to write", () => {
    const path = withColumn('Emails', ['"north@cyclehub.example, sales@cyclehub.example"', 'south@cyclehub.example'])
    const refused = storeloc('locations', 'import', locatorId, '--file', path)
    expect(refused.stderr).toContain(
      'line 2 (external_id "N1"): The "Emails" column holds 2 email addresses; a location keeps one. Write the one customers should write to, such as "north@cyclehub.example".',
    )
  })
})
