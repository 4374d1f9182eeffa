// storeloc locations import of spreadsheet rows whose cells are read otherwise than written: a
// week's hours with a day by appointment, kept as the Management API keeps it; a postcode whose
// leading zero Excel dropped, in its column or in an address cell.
import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openStore } from '../../src/store'
import { dbPath, dir, json, storeloc, useTempDatabase } from './temp-database'

useTempDatabase()

/** A new locator, with `csv` written to stores.csv for it. */
function locatorFor(csv: string): string {
  writeFileSync(join(dir, 'stores.csv'), csv)
  return json('locator', 'create', '--name', 'Importer').locator.id as string
}

function importCsv(csv: string, ...flags: string[]) {
  return storeloc('locations', 'import', locatorFor(csv), '--file', join(dir, 'stores.csv'), ...flags)
}

function storedHours(): Record<string, string>[] {
  const store = openStore(dbPath)
  try {
    const rows = store.db.query('SELECT hours FROM locations ORDER BY seq').all() as { hours: string }[]
    return rows.map((r) => JSON.parse(r.hours))
  } finally {
    store.close()
  }
}

const WEEKS =
  'name,address,lat,lng,hours\n' +
  'A,"Prager Straße 10, 01069 Dresden",51.04,13.73,"Mo-Fr 9-18, Sa nach Vereinbarung"\n' +
  'B,"1 Main St, Springfield, IL 62701",39.8,-89.65,"Mon-Fri 9am-6pm, Sat by appointment"\n' +
  'C,"Via Roma 1, 00184 Roma",41.9,12.49,"Lun-Ven 9-18, Sab su appuntamento"\n'

test('a week cell keeps a day by appointment as written, with a warning; its other days are read', () => {
  const dry = importCsv(WEEKS, '--dry-run')
  expect(dry.code).toBe(0)
  expect(dry.stdout).toContain('3 to create')
  expect(dry.stdout).toContain(
    'line 2: Saturday\'s hours "nach Vereinbarung" in the "hours" column is read as by appointment, with no hours: it is kept, and counts as unknown (docs/management-api.md, Opening hours).',
  )
  const r = importCsv(WEEKS)
  expect(r.code).toBe(0)
  expect(r.stdout).toContain('3 created')
  expect(r.stdout).toContain('Check 3 locations:')
  expect(r.stdout).toContain(
    'line 3: Saturday\'s hours "by appointment" in the "hours" column is read as by appointment',
  )
  // "su" is no Sunday within "su appuntamento".
  expect(r.stdout).toContain(
    'line 4: Saturday\'s hours "su appuntamento" in the "hours" column is read as by appointment',
  )
  const weekdays = (hours: string) =>
    Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, hours]))
  expect(storedHours()).toEqual([
    { ...weekdays('9-18'), saturday: 'nach Vereinbarung', sunday: 'closed' },
    { ...weekdays('9am-6pm'), saturday: 'by appointment', sunday: 'closed' },
    { ...weekdays('9-18'), saturday: 'su appuntamento', sunday: 'closed' },
  ])
})

test('a day-named column whose cell is not read keeps it for its days, with a warning, as a week cell does', () => {
  const csv =
    'name,address,lat,lng,Mo-Fr,Sa\n' +
    'A,"Prager Straße 10, 01069 Dresden",51.04,13.73,9-18,nach Vereinbarung\n' +
    'B,"1 Main St, Springfield, IL 62701",39.8,-89.65,9am-6pm,by appointment\n' +
    'C,"Via Roma 1, 00184 Roma",41.9,12.49,9-18,Mo ab 14 sonst zu\n' +
    'D,"Via Roma 2, 00184 Roma",41.9,12.49,,by appointment\n'
  const r = importCsv(csv)
  expect(r.code).toBe(0)
  expect(r.stdout).toContain('4 created')
  expect(r.stdout).toContain(
    'line 2: Saturday\'s hours "nach Vereinbarung" in the "Sa" column is read as by appointment, with no hours: it is kept, and counts as unknown (docs/management-api.md, Opening hours).',
  )
  // Text not read at all is kept too, and no day within it ("Mo") is read as one.
  expect(r.stdout).toContain(
    'line 4: Saturday\'s hours "Mo ab 14 sonst zu" in the "Sa" column could not be read as opening hours: it is kept',
  )
  const weekdays = (hours: string) =>
    Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, hours]))
  expect(storedHours()).toEqual([
    { ...weekdays('9-18'), saturday: 'nach Vereinbarung', sunday: 'closed' },
    { ...weekdays('9am-6pm'), saturday: 'by appointment', sunday: 'closed' },
    { ...weekdays('9-18'), saturday: 'Mo ab 14 sonst zu', sunday: 'closed' },
    // The days a row leaves empty are closed, as with cells that are read.
    { ...weekdays('closed'), saturday: 'by appointment', sunday: 'closed' },
  ])
})

test('a week cell in which no day is found is still refused', () => {
  const r = importCsv('name,address,lat,lng,hours\nA,"Prager Straße 10, 01069 Dresden",51.04,13.73,nach Vereinbarung\n')
  expect(r.code).not.toBe(0)
  expect(r.stderr).toContain('line 2 ("A"): "nach Vereinbarung" could not be read as a week of opening hours.')
  expect(storedHours()).toEqual([])
})

function storedAddresses(): string[] {
  const store = openStore(dbPath)
  try {
    return (store.db.query('SELECT address FROM locations ORDER BY seq').all() as { address: string }[]).map(
      (r) => r.address,
    )
  } finally {
    store.close()
  }
}

test('a four-digit postcode its town confirms gets back the leading zero Excel dropped, without a country column', () => {
  const csv =
    'Store Code,Name,Straße,PLZ,Ort\n' +
    'D1,Dresden,Prager Straße 10,1069,Dresden\n' +
    'N1,Nice,1 Avenue Jean Médecin,6000,Nice\n' +
    // 01069 is no Berlin postcode: the cell stays as written.
    'B1,Berlin,Hauptstraße 1,1069,Berlin\n'
  const r = importCsv(csv)
  expect(r.code).toBe(0)
  expect(r.stdout).toContain(
    `line 2 (external_id "D1"): The postcode 1069 was read as 01069, Dresden's postcode: Excel drops leading zeros; format the "PLZ" column as text.`,
  )
  expect(r.stdout).toContain(`line 3 (external_id "N1"): The postcode 6000 was read as 06000, Nice's postcode`)
  expect(r.stdout).not.toContain('"B1"): The postcode')
  expect(storedAddresses()).toEqual([
    'Prager Straße 10, 01069 Dresden',
    '1 Avenue Jean Médecin, 06000 Nice',
    'Hauptstraße 1, 1069 Berlin',
  ])
})

test('a postcode given its leading zero by its country column says so too', () => {
  const r = importCsv('Store Code,Name,Straße,PLZ,Ort,Land\nD1,Dresden,Prager Straße 10,1069,Dresden,DE\n')
  expect(r.code).toBe(0)
  expect(r.stdout).toContain(
    'line 2 (external_id "D1"): The postcode 1069 was read as 01069: Excel drops leading zeros; format the "PLZ" column as text.',
  )
  expect(storedAddresses()).toEqual(['Prager Straße 10, 01069 Dresden, DE'])
})

test('a four-digit postcode in an address cell its town confirms gets back its leading zero, with a note', () => {
  const csv =
    'Store Code,Name,Address\n' +
    'D1,Dresden,"Prager Straße 10, 1069 Dresden, Germany"\n' +
    'B1,Boston,"1 Main St, Boston, MA 2108"\n' +
    // 1010 is Vienna's own postcode, and 01069 is no Berlin postcode: both stay as written.
    'W1,Wien,"Stephansplatz 1, 1010 Wien"\n' +
    'X1,Berlin,"Hauptstraße 1, 1069 Berlin"\n'
  const r = json('locations', 'import', locatorFor(csv), '--file', join(dir, 'stores.csv'))
  const results = r.results as { external_id: string; geocoding: { precision: string }; warnings: string[] }[]
  const of = (id: string) => results.find((x) => x.external_id === id)!
  expect(of('D1').warnings[0]).toBe(
    "The postcode 1069 in the address was read as 01069, Dresden's postcode: its leading zero was lost, as Excel drops it from a postcode read as a number.",
  )
  // Its postcode found, Boston's address is placed at it, not only at the city.
  expect(of('B1').geocoding.precision).toBe('postcode')
  expect(of('B1').warnings).toEqual([expect.stringContaining('The postcode 2108 in the address was read as 02108')])
  expect(of('W1').warnings.join(' ')).not.toContain('The postcode')
  expect(of('X1').warnings.join(' ')).not.toContain('The postcode')
  expect(storedAddresses()).toEqual([
    'Prager Straße 10, 01069 Dresden, Germany',
    '1 Main St, Boston, MA 02108',
    'Stephansplatz 1, 1010 Wien',
    'Hauptstraße 1, 1069 Berlin',
  ])
})

test("a UK, Dutch or Canadian postcode is stored in its country's form; its export imports back unchanged", () => {
  const csv =
    'Store Code,Name,Street,City,Postcode,Country\n' +
    'G1,London,10 Downing Street,London,sw1a2aa,GB\n' +
    'N1,Amsterdam,Kalverstraat 1,Amsterdam,1012nx,NL\n' +
    'C1,Toronto,100 Queen St W,Toronto,m5h-2n2,CA\n' +
    // A UK postcode's shape tells its country; other text stays as written.
    'G2,Leeds,1 Park Row,Leeds,ls1 5hd,\n' +
    'N2,Utrecht,Oudegracht 1,Utrecht,postbus 12,NL\n' +
    'D1,Berlin,Unter den Linden 1,Berlin,10117,de\n'
  const locator = locatorFor(csv)
  const stores = join(dir, 'stores.csv')
  expect(storeloc('locations', 'import', locator, '--file', stores).code).toBe(0)
  expect(storedAddresses()).toEqual([
    '10 Downing Street, London SW1A 2AA, GB',
    'Kalverstraat 1, 1012 NX Amsterdam, NL',
    '100 Queen St W, Toronto, M5H 2N2, CA',
    '1 Park Row, Leeds LS1 5HD',
    'Oudegracht 1, postbus 12 Utrecht, NL',
    'Unter den Linden 1, 10117 Berlin, DE',
  ])
  const exported = storeloc('locations', 'export', locator, '--format', 'csv')
  writeFileSync(join(dir, 'export.csv'), exported.stdout)
  const again = storeloc('locations', 'import', locator, '--file', join(dir, 'export.csv'))
  expect(again.stdout).toContain('0 created, 0 updated, 6 unchanged, 0 deleted')
  expect(storeloc('locations', 'import', locator, '--file', stores).stdout).toContain(
    '0 created, 0 updated, 6 unchanged, 0 deleted',
  )
})

test('a Jersey, Guernsey or Isle of Man postcode is written as a UK one, after its town', () => {
  const csv =
    'Store Code,Name,Street,City,Postcode,Country\n' +
    'J1,Jersey,1 King Street,St Helier,je2 3ab,JE\n' +
    'U1,Guernsey,1 High Street,St Peter Port,gy11aa,Guernsey\n' +
    'M1,Man,1 Strand Street,Douglas,im1 1aa,IM\n'
  expect(importCsv(csv).code).toBe(0)
  expect(storedAddresses()).toEqual([
    '1 King Street, St Helier JE2 3AB, Jersey',
    '1 High Street, St Peter Port GY1 1AA, Guernsey',
    '1 Strand Street, Douglas IM1 1AA, Isle of Man',
  ])
})

/** The stores' points, in the order they were made. */
function storedPoints(): { lat: number; lng: number }[] {
  const store = openStore(dbPath)
  try {
    return store.db.query('SELECT lat, lng FROM locations ORDER BY seq').all() as { lat: number; lng: number }[]
  } finally {
    store.close()
  }
}

test('a store joined before postcodes took their form keeps its address and its hand-moved pin', () => {
  const list = (london: string, jersey: string) =>
    'Store Code,Name,Street,City,Region,Postcode,Country\n' +
    `G1,London,10 Downing Street,London,,${london},GB\n` +
    'B1,Berlin,Unter den Linden 1,Berlin,Berlin,10117,DE\n' +
    `J1,Jersey,1 King Street,St Helier,,${jersey},JE\n`
  const locator = locatorFor(list('sw1a2aa', 'je2 3ab'))
  // As an import joined these rows before: the postcode as written, the city-state's region
  // repeated, Jersey's postcode before its town.
  const before = [
    { external_id: 'G1', name: 'London', address: '10 Downing Street, London sw1a2aa, GB' },
    { external_id: 'B1', name: 'Berlin', address: 'Unter den Linden 1, 10117 Berlin, Berlin, DE' },
    { external_id: 'J1', name: 'Jersey', address: '1 King Street, je2 3ab St Helier, JE' },
  ]
  writeFileSync(join(dir, 'before.json'), JSON.stringify(before))
  expect(storeloc('locations', 'import', locator, '--file', join(dir, 'before.json')).code).toBe(0)
  const pins = [
    { lat: 51.5034, lng: -0.1276 },
    { lat: 52.517, lng: 13.3889 },
    { lat: 49.1853, lng: -2.1066 },
  ]
  writeFileSync(
    join(dir, 'pins.csv'),
    'external_id,lat,lng\nG1,51.5034,-0.1276\nB1,52.517,13.3889\nJ1,49.1853,-2.1066\n',
  )
  expect(storeloc('locations', 'import', locator, '--file', join(dir, 'pins.csv')).code).toBe(0)
  const again = storeloc('locations', 'import', locator, '--file', join(dir, 'stores.csv'))
  expect(again.stdout).toContain('0 created, 0 updated, 3 unchanged, 0 deleted')
  expect(storedAddresses()).toEqual(before.map((b) => b.address))
  expect(storedPoints()).toEqual(pins)
  // The postcodes written otherwise in the list, not changed: the stores stay as they are.
  writeFileSync(join(dir, 'respelt.csv'), list('SW1A 2AA', 'JE2 3AB'))
  const respelt = storeloc('locations', 'import', locator, '--file', join(dir, 'respelt.csv'))
  expect(respelt.stdout).toContain('0 created, 0 updated, 3 unchanged, 0 deleted')
  expect(storedPoints()).toEqual(pins)
  // Another postcode is another address, joined as addresses are now.
  writeFileSync(join(dir, 'moved.csv'), list('sw1a2ab', 'je2 3ab'))
  const moved = storeloc('locations', 'import', locator, '--file', join(dir, 'moved.csv'), '--json')
  expect(JSON.parse(moved.stdout)).toMatchObject({ updated: 1, unchanged: 2 })
  expect(storedAddresses()[0]).toBe('10 Downing Street, London SW1A 2AB, GB')
})

test('a store joined before with a Canadian postcode written with a hyphen keeps its address and its pin', () => {
  const list = (postcode: string) =>
    `Store Code,Name,Street,City,Region,Postcode,Country\nC1,Ottawa,80 Wellington Street,Ottawa,ON,${postcode},CA\n`
  const locator = locatorFor(list('k1a-0a2'))
  // As an import joined the row before: the postcode as written, which postcodeForm reads as K1A 0A2.
  const before = [{ external_id: 'C1', name: 'Ottawa', address: '80 Wellington Street, Ottawa, ON k1a-0a2, CA' }]
  writeFileSync(join(dir, 'before.json'), JSON.stringify(before))
  expect(storeloc('locations', 'import', locator, '--file', join(dir, 'before.json')).code).toBe(0)
  writeFileSync(join(dir, 'pins.csv'), 'external_id,lat,lng\nC1,45.4236,-75.7009\n')
  expect(storeloc('locations', 'import', locator, '--file', join(dir, 'pins.csv')).code).toBe(0)
  for (const postcode of ['k1a-0a2', 'K1A 0A2']) {
    writeFileSync(join(dir, 'again.csv'), list(postcode))
    const again = storeloc('locations', 'import', locator, '--file', join(dir, 'again.csv'))
    expect(again.stdout).toContain('0 created, 0 updated, 1 unchanged, 0 deleted')
  }
  expect(storedAddresses()).toEqual([before[0]!.address])
  expect(storedPoints()).toEqual([{ lat: 45.4236, lng: -75.7009 }])
})

test('a long cell of no digit under a column of some days is refused as no hours, row by row', () => {
  // Colons after a word, with no digit: the days' reading of such a cell must not grow with its square.
  const cell = `a${':'.repeat(32000)}`
  const rows = Array.from({ length: 12 }, (_, i) => `S${i},"${i} Princes Street, Edinburgh",55.95,-3.18,"${cell}"`)
  const r = importCsv(`name,address,lat,lng,Mo-Fr\n${rows.join('\n')}\n`, '--dry-run')
  expect(r.code).toBe(1)
  expect(r.stderr).toContain('12 rows (line 2, line 3, line 4 and 9 more): "Mo-Fr closed" gives no day open hours')
})
