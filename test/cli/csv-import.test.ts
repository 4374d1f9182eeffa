// storeloc locations import/export with CSV files, dry runs and --delete-missing, run as a real
// subprocess against a real database file.
import { beforeEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { openStore } from '../../src/store'
import { dbPath, dir, file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

/** How a latitude cell that is no number is told to write it. */
const LAT_FORMS = `Write a decimal number such as 48.8566 or -3.7074 (48°51'24"N, 48.8566 N and 48.8566° are read too).`

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Importer').locator.id
  json('custom-field', 'add', locatorId, '--id', 'floor', '--name', 'Floor', '--type', 'number')
})

/** The output lines of a dry-run import of `text`, saved as `name`, which must exit 0. */
function dryRunLines(name: string, text: string): string[] {
  const r = storeloc('locations', 'import', locatorId, '--file', file(name, text), '--dry-run')
  expect(r.code).toBe(0)
  return r.stdout.split('\n')
}

function rows() {
  const store = openStore(dbPath)
  try {
    return {
      locations: store.db.query('SELECT * FROM locations ORDER BY seq').all() as Record<string, unknown>[],
      changes: store.db.query('SELECT * FROM changes ORDER BY seq').all(),
    }
  } finally {
    store.close()
  }
}

// Excel in a German locale: BOM, ';', CRLF, decimal commas, its own header names.
const EXCEL =
  '\uFEFFStore Code;Store Name;Street;Zip;City;Country;Latitude;Longitude;Categories;Mon;custom.floor;Notes\r\n' +
  'B1;Berlin Mitte;Unter den Linden 1;10117;Berlin;Germany;52,517;13,389;Coffee|Wifi;08:00-20:00;2;call first\r\n' +
  'M1;"München; Marienplatz";Marienplatz 1;80331;München;DE;48,137;11,575;Coffee;;;\r\n'

describe('locations import from CSV', () => {
  test('a header with control characters is named escaped: its escape sequences never reach the terminal', () => {
    const csv = 'name,address,lat,lng,\u001b]0;pwned\u0007\u001b[31mRED\nA,1 Main St,52.5,13.4,x\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('escapes.csv', csv), '--dry-run')
    expect(r.code).toBe(0)
    expect(r.stdout).not.toContain('\u001b')
    expect(r.stdout).toContain(': "\\u001b]0;pwned\\u0007\\u001b[31mRED".')
  })

  test('reads a spreadsheet export: aliases, BOM, ";" separators, decimal commas; unknown columns are reported', () => {
    const r = storeloc('locations', 'import', locatorId, '--file', file('stores.csv', EXCEL))
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(
      `Imported ${join(dir, 'stores.csv')} into ${locatorId}: 2 created, 0 updated, 0 unchanged, 0 deleted.\n` +
        'Columns not read (no location field has these names; docs/cli.md lists the columns): Notes.\n',
    )
    const [berlin, munich] = rows().locations
    expect(berlin).toMatchObject({
      external_id: 'B1',
      name: 'Berlin Mitte',
      address: 'Unter den Linden 1, 10117 Berlin, Germany',
      lat: 52.517,
      lng: 13.389,
      tags: '["Coffee","Wifi"]',
      hours: '{"monday":"08:00-20:00"}',
      custom_fields: '{"floor":"2"}',
    })
    expect(munich).toMatchObject({ external_id: 'M1', name: 'München; Marienplatz', hours: '{}' })
  })

  test('a column named as a custom field fills it, and is not reported as unread', () => {
    const r = storeloc(
      'locations',
      'import',
      locatorId,
      '--file',
      file('floors.csv', 'external_id,name,address,lat,lng,Floor\nF1,Up,1 Rd,51.5,-0.1,3\n'),
    )
    expect(r.code).toBe(0)
    expect(r.stdout).not.toContain('Columns not read')
    expect(rows().locations[0]).toMatchObject({ external_id: 'F1', custom_fields: '{"floor":"3"}' })
  })

  test('a workbook is refused by its name: save it as CSV', () => {
    const r = storeloc('locations', 'import', locatorId, '--file', file('stores.xlsx', 'PK'))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('is a spreadsheet workbook, which import does not read: save it as CSV')
  })

  test('a problem with one part of a column (a tag too long) names the column', () => {
    const long = 't'.repeat(101)
    const r = storeloc(
      'locations',
      'import',
      locatorId,
      '--file',
      file('tags.csv', `Store Code,Name,Address,Latitude,Longitude,Labels\nA1,One,1 Main St,1,2,ok|${long}\n`),
    )
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      'line 2 (external_id "A1"): A value of the "Labels" column may not be greater than 100 characters.',
    )
  })

  test('a file whose rows have no store code says that importing it again creates them again', () => {
    // A shop system's export: names and addresses, no code to match a row to its store.
    const shop = 'Name,Address1,City,Zip,Country,Latitude,Longitude\nOne,1 Main St,Springfield,62701,US,39.8,-89.6\n'
    const first = storeloc('locations', 'import', locatorId, '--file', file('shop.csv', shop))
    expect(first.stdout.split('\n').slice(1)).toEqual([
      'No row has an external_id, so importing this file again creates every store again. Give each row its store code in an external_id column ("Store Code" is read as one): later imports update the stores they match.',
      '',
    ])
    // The same file again: each row it would make a second time is named, with the store it repeats.
    const twice = storeloc('locations', 'import', locatorId, '--file', file('shop.csv', shop), '--dry-run')
    const id = /Location (loc_\w+)/.exec(twice.stdout)?.[1]
    expect(twice.stdout.split('\n').slice(1, 4)).toEqual([
      `1 row of 1 to create has the name and address of a location ${locatorId} has, or its name and a point within 10 m of it: if it is the same store, a file without store codes makes it a second time. Give each row its store code in an external_id column ("Store Code" is read as one), and imports update the stores they match.`,
      'Check 1 location:',
      `  line 2: Location ${id} has this name and address: if it is this row's store, this row makes a second one. Give each row its store code as external_id, and imports update the stores they match.`,
    ])
    // With a code, or once nothing is created, it is not said.
    const coded = storeloc('locations', 'import', locatorId, '--file', file('coded.csv', EXCEL))
    expect(coded.stdout).not.toContain('No row has an external_id')
    const again = storeloc('locations', 'import', locatorId, '--file', file('coded.csv', EXCEL))
    expect(again.stdout).toStartWith(
      `Imported ${join(dir, 'coded.csv')} into ${locatorId}: 0 created, 0 updated, 2 unchanged`,
    )
  })

  test('a file without store codes that lists a store twice says both that and that importing it again repeats them', () => {
    const shop =
      'Name,Address1,City,Zip,Country,Latitude,Longitude\nOne,1 Main St,Springfield,62701,US,39.8,-89.6\n' +
      'ONE,1 main st.,Springfield,62701,US,39.8,-89.6\n'
    const first = storeloc('locations', 'import', locatorId, '--file', file('twice.csv', shop))
    expect(first.code).toBe(0)
    const lines = first.stdout.split('\n')
    expect(lines[1]).toStartWith(
      '1 row of 2 to create has the name and address of an earlier row of the file (line 3 repeats line 2)',
    )
    expect(lines).toContain(
      'No row has an external_id, so importing this file again creates every store again. Give each row its store code in an external_id column ("Store Code" is read as one): later imports update the stores they match.',
    )
  })

  test('a dry run says what an import would do and writes nothing; the import then does just that', () => {
    json('locations', 'import', locatorId, '--file', file('stores.csv', EXCEL))
    const before = rows()
    const changed =
      EXCEL.replace('Berlin Mitte', 'Berlin-Mitte').replace(/M1;.*\r\n/, '') +
      'H1;Hamburg;Jungfernstieg 1;20354;Hamburg;DE;53,553;9,993;;;;\r\n'
    const path = file('changed.csv', changed)
    const dry = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run', '--delete-missing')
    expect(dry.code).toBe(0)
    const m1 = before.locations.find((l) => l.external_id === 'M1')!
    expect(dry.stdout.split('\n')).toEqual([
      `Dry run of ${path} on ${locatorId}, nothing written: 1 to create, 1 to update, 0 unchanged, 1 to delete.`,
      'To update:',
      '  line 2 (external_id "B1"): name',
      'To delete (external_id not in the file):',
      `  München; Marienplatz (${m1.id}, external_id "M1")`,
      'Columns read: Store Code as external_id, Store Name as name, Street, Zip as postcode, City, Country, Latitude as lat, Longitude as lng, Categories as tags, Mon as monday, custom.floor.',
      'Columns not read (no location field has these names; docs/cli.md lists the columns): Notes.',
      '',
    ])
    expect(rows()).toEqual(before)
    const real = json('locations', 'import', locatorId, '--file', path, '--delete-missing')
    expect(real).toMatchObject({ dry_run: false, created: 1, updated: 1, unchanged: 0, deleted: 1 })
    expect(rows().locations.map((l) => l.external_id)).toEqual(['B1', 'H1'])
    // A file of only its header row (a truncated export) would delete them all: refused.
    const empty = storeloc(
      'locations',
      'import',
      locatorId,
      '--file',
      file('empty.csv', 'external_id,name\r\n'),
      '--delete-missing',
    )
    expect(empty.code).toBe(1)
    expect(empty.stderr).toContain(
      '--delete-missing would delete all 2 locations with an external_id (no location was sent)',
    )
    expect(empty.stderr).toContain('then import without --delete-missing.')
    expect(rows().locations.map((l) => l.external_id)).toEqual(['B1', 'H1'])
    // --max-delete N: a file that would delete more is refused, writing nothing.
    const oneLeft = file('one.csv', 'external_id,name\r\nB1,Berlin-Mitte\r\n')
    const limited = storeloc(
      'locations',
      'import',
      locatorId,
      '--file',
      oneLeft,
      '--delete-missing',
      '--max-delete',
      '0',
    )
    expect(limited.code).toBe(1)
    expect(limited.stderr).toContain('--delete-missing would delete 1 location, more than --max-delete (0)')
    expect(limited.stderr).toContain(
      'the file lacks the external_id of 1 location ("H1"). Check the file; if they are meant to go, raise --max-delete.',
    )
    expect(limited.stderr).not.toContain('max_delete')
    expect(rows().locations.map((l) => l.external_id)).toEqual(['B1', 'H1'])
    expect(storeloc('locations', 'import', locatorId, '--file', oneLeft, '--max-delete', '1').stderr).toBe(
      'storeloc: --max-delete is for --delete-missing: give both, or neither.\n',
    )
    expect(
      json('locations', 'import', locatorId, '--file', oneLeft, '--delete-missing', '--max-delete', '1'),
    ).toMatchObject({
      deleted: 1,
    })
  })

  test('problems name each CSV line with its store code, in line order; nothing is written', () => {
    const bad =
      'external_id,name,address,lat,lng,custom.floor,Time zone\n' +
      'A,Fine,a,1,2,,\n' +
      'B,,b,1,2,,\n' +
      'C,"Two\nlines",c,north,2,,\n' +
      'D,Floor,d,1,2,two,\n' +
      'E,Zone,e,1,2,,Mars/Olympus\n' +
      'F,,f,1,2,three,\n'
    const zone =
      'The "Time zone" column must be an IANA time zone name, such as Europe/Berlin or America/New_York; got "Mars/Olympus". Leave it empty to take it from the coordinates.'
    const before = rows()
    const r = storeloc('locations', 'import', locatorId, '--file', file('bad.csv', bad))
    expect(r.code).toBe(1)
    expect(r.stderr.split('\n').filter((l) => l !== '')).toEqual([
      `storeloc: Nothing was imported from ${join(dir, 'bad.csv')}: 5 of 6 locations cannot be written as sent; nothing was written.`,
      '  line 3 (external_id "B"): The "name" column is required.',
      `  line 4 (external_id "C"): The "lat" column must be a number; got "north". ${LAT_FORMS}`,
      '  line 6 (external_id "D"): The "custom.floor" column must be a number.',
      `  line 7 (external_id "E"): ${zone}`,
      '  line 8 (external_id "F"): The "name" column is required.',
      '  line 8 (external_id "F"): The "custom.floor" column must be a number.',
    ])
    expect(rows()).toEqual(before)
    // With --json the refusal is JSON on stdout, its details keyed by line and field as the API's.
    const asJson = storeloc('locations', 'import', locatorId, '--file', file('bad.csv', bad), '--json')
    expect({ code: asJson.code, stderr: asJson.stderr }).toEqual({ code: 1, stderr: '' })
    expect(JSON.parse(asJson.stdout)).toEqual({
      success: false,
      error: 'validation_error',
      message: `Nothing was imported from ${join(dir, 'bad.csv')}: 5 of 6 locations cannot be written as sent; nothing was written.`,
      details: {
        'line 3.name': ['line 3 (external_id "B"): The "name" column is required.'],
        'line 4.coordinates.lat': [
          `line 4 (external_id "C"): The "lat" column must be a number; got "north". ${LAT_FORMS}`,
        ],
        'line 6.custom_fields.floor': ['line 6 (external_id "D"): The "custom.floor" column must be a number.'],
        'line 7.timezone': [`line 7 (external_id "E"): ${zone}`],
        'line 8.name': ['line 8 (external_id "F"): The "name" column is required.'],
        'line 8.custom_fields.floor': ['line 8 (external_id "F"): The "custom.floor" column must be a number.'],
      },
    })
    // A refused file names the columns it did not read too: often the reason a field is missing.
    const unnamed = storeloc(
      'locations',
      'import',
      locatorId,
      '--file',
      file('unnamed.csv', 'Shop Title,address\nA,b\n'),
    )
    expect(unnamed.stderr.trimEnd().split('\n').slice(1)).toEqual([
      '  line 2: The name field is required.',
      'Columns not read (no location field has these names; docs/cli.md lists the columns): Shop Title.',
    ])
    // A problem many rows share is told once, naming a few of them.
    const undefinedField = 'Store Code,name,address,custom.parking\n' + 'S1,A,a,x\nS2,B,b,y\nS3,C,c,z\nS4,D,d,w\n'
    expect(storeloc('locations', 'import', locatorId, '--file', file('many.csv', undefinedField)).stderr).toEndWith(
      'nothing was written.\n  4 rows (line 2, line 3, line 4 and 1 more): The "custom.parking" column is not a custom field of this locator (GET /custom_fields lists them: floor).\n',
    )
    const broken = storeloc('locations', 'import', locatorId, '--file', file('broken.csv', 'name,address\nA,"b\n'))
    expect(broken.code).toBe(1)
    expect(broken.stderr).toStartWith(
      `storeloc: Nothing was imported: ${join(dir, 'broken.csv')} cannot be read as CSV: line 2`,
    )
  })

  test('help names every separator a tags cell is split on, a spaced "/" too, as the import splits it', () => {
    const text =
      'external_id,name,address,lat,lng,tags\n' +
      'S1,Slash,"1 Rue de Rivoli, 75001 Paris",48.856,2.352,Repairs / Rentals / E-Bikes\n' +
      'S2,Whole,"2 Rue de Rivoli, 75004 Paris",48.857,2.353,24/7\n' +
      'S3,Both,"3 Rue de Rivoli, 75004 Paris",48.858,2.354,"Repairs / Rentals, E-Bikes"\n'
    expect(storeloc('locations', 'import', locatorId, '--file', file('slash.csv', text)).code).toBe(0)
    expect(rows().locations.map((l) => JSON.parse(l.tags as string))).toEqual([
      ['Repairs', 'Rentals', 'E-Bikes'],
      ['24/7'],
      ['Repairs / Rentals', 'E-Bikes'], // one separator a cell: the first the help names that it holds
    ])
    const help = storeloc('help', 'locations').stdout.replace(/\s+/g, ' ')
    expect(help).toContain(
      'tags (split on the first of |, ;, a comma, and a "/" with spaces around it that the cell holds: "A / B, C" is two tags, "24/7" one)',
    )
  })

  test('--format overrides the extension; a name that says neither is refused', () => {
    const path = file('stores.txt', EXCEL)
    expect(storeloc('locations', 'import', locatorId, '--file', path, '--format', 'csv').code).toBe(0)
    const odd = storeloc('locations', 'import', locatorId, '--file', file('stores.dat', EXCEL))
    expect(odd.code).toBe(1)
    expect(odd.stderr).toContain('give --format csv or --format json')
    expect(storeloc('locations', 'import', locatorId, '--file', path, '--format', 'xml').stderr).toContain(
      '--format must be csv or json',
    )
  })
})

describe('locations export as CSV', () => {
  test('a tag holding "|" cannot round-trip: the export is refused saying what to do, JSON still works', () => {
    json(
      'locations',
      'import',
      locatorId,
      '--file',
      file('p.json', JSON.stringify([{ name: 'Pipe', address: 'x', coordinates: { lat: 1, lng: 2 }, tags: ['a|b'] }])),
    )
    const r = storeloc('locations', 'export', locatorId, '--format', 'csv')
    expect(r).toMatchObject({ code: 1, stdout: '' })
    expect(r.stderr).toContain('contains "|", the tags separator.')
    expect(r.stderr).toContain('Rename the tag. Or export as JSON (--format json).')
    expect(storeloc('locations', 'export', locatorId).code).toBe(0)
  })

  test('an export re-imports to zero changes, as CSV and as JSON', () => {
    json('locations', 'import', locatorId, '--file', file('stores.csv', EXCEL))
    json(
      'locations',
      'import',
      locatorId,
      '--file',
      file(
        'more.json',
        JSON.stringify([
          {
            name: 'No code, "quoted"',
            address: 'x\ny',
            coordinates: { lat: 1.000001, lng: -2 },
            description: '=a;b,c',
            contact: { phone: '+81 3 5555 0000' },
            special_hours: { '2026-12-31': '10:00-15:00', '2027-01-01': 'closed' },
            status: 'draft',
            timezone: 'Asia/Tokyo', // set apart from its coordinates': the export carries it
          },
        ]),
      ),
    )
    const before = rows()
    const exported = storeloc('locations', 'export', locatorId, '--format', 'csv', '--no-bom')
    expect(exported.code).toBe(0)
    expect(exported.stdout.split('\r\n')[0]).toBe(
      'id,external_id,name,address,lat,lng,description,tags,phone,email,website,instagram,facebook,twitter,monday,tuesday,wednesday,thursday,friday,saturday,sunday,special_hours,timezone,image_url,status,custom.floor',
    )
    // Texts a spreadsheet would run as formulas are written with a leading quote.
    expect(exported.stdout).toContain(`,"'=a;b,c",,'+81 3 5555 0000,`)
    const again = json('locations', 'import', locatorId, '--file', file('export.csv', exported.stdout))
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 3, deleted: 0 })
    const viaJson = storeloc('locations', 'export', locatorId)
    expect(json('locations', 'import', locatorId, '--file', file('export.json', viaJson.stdout))).toMatchObject({
      unchanged: 3,
    })
    // For Excel where numbers have a decimal comma: a BOM, ";" between cells, coordinates with a comma.
    for (const separator of [';', 'tab']) {
      const excel = storeloc('locations', 'export', locatorId, '--format', 'csv', '--separator', separator, '--bom')
      expect(excel.code).toBe(0)
      const sep = separator === 'tab' ? '\t' : ';'
      expect(excel.stdout).toStartWith(`\uFEFFid${sep}external_id${sep}name${sep}`)
      if (sep === ';') expect(excel.stdout).toContain(';52,517;13,389;')
      const back = json('locations', 'import', locatorId, '--file', file(`excel-${separator}.csv`, excel.stdout))
      expect(back).toMatchObject({ created: 0, updated: 0, unchanged: 3, deleted: 0 })
    }
    expect(storeloc('locations', 'export', locatorId, '--format', 'csv', '--separator', '|').stderr).toBe(
      'storeloc: --separator must be ",", ";" or tab; got "|".\n',
    )
    expect(storeloc('locations', 'export', locatorId, '--bom').stderr).toBe(
      'storeloc: --bom is for a CSV export: add --format csv (without it, the export is JSON).\n',
    )
    expect(rows()).toEqual(before)
  })

  test('an export imports into another locator: rows with a code are matched by it, one without is refused', () => {
    json('locations', 'import', locatorId, '--file', file('stores.csv', EXCEL))
    const exported = storeloc('locations', 'export', locatorId, '--format', 'csv').stdout
    const other = json('locator', 'create', '--name', 'Copy').locator.id
    json('custom-field', 'add', other, '--id', 'floor', '--name', 'Floor', '--type', 'number')
    expect(json('locations', 'import', other, '--file', file('copy.csv', exported))).toMatchObject({ created: 2 })
    expect(json('locations', 'import', other, '--file', file('copy.csv', exported))).toMatchObject({ unchanged: 2 })
    const codes = (id: string) =>
      rows()
        .locations.filter((l) => l.locator_id === id)
        .map((l) => [l.external_id, l.name])
    expect(codes(other)).toEqual(codes(locatorId))
    // Without an external_id nothing says which location the row is: its id is refused.
    const id = rows().locations[0]!.id as string
    const noCode = storeloc('locations', 'import', other, '--file', file('nc.csv', `id,name,address\n${id},A,b\n`))
    expect(noCode.stderr).toContain(`line 2 ("A"): id "${id}" is not a location of this locator.`)
    expect(noCode.stderr).not.toContain('Store Code')
    // Beside ids of ours, a spreadsheet's own code in the id column is told where its codes belong.
    const mixed = file('mixed.csv', `id,name,address,lat,lng\n${id},A,b,1,2\nS1,B,c,1,2\n`)
    const refused = storeloc('locations', 'import', other, '--file', mixed)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('for your own store codes, name the column external_id or "Store Code"')
  })

  test("a spreadsheet's own ID column (Shopify's, a back office's) is read as the store code", () => {
    // No cell is an id of ours (loc_...), and no other column gives the store code.
    const text =
      'ID,Name,Address1,City,Province Code,Country,Zip\n61238461,Brooklyn,123 Bedford Ave,Brooklyn,NY,US,11211\n'
    const lines = dryRunLines('shopify.csv', text)
    expect(lines).toContain(
      'Columns read: ID as external_id, Name, Address1 as street, City, Province Code as region, Country, Zip as postcode.',
    )
    const path = file('shopify.csv', text)
    expect(json('locations', 'import', locatorId, '--file', path)).toMatchObject({ created: 1 })
    expect(rows().locations.map((l) => l.external_id)).toEqual(['61238461'])
    expect(json('locations', 'import', locatorId, '--file', path)).toMatchObject({ created: 0, unchanged: 1 })
  })
})
