// storeloc locations import with CSV files: where rows are placed, the address geocoded with the
// row's parts, and what is told when the row's country, postcode, town and coordinates disagree.
// Run as a real subprocess against a real database file.
import { beforeEach, describe, expect, test } from 'bun:test'
import { openStore } from '../../src/store'
import { dbPath, dryRunLines, file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Importer').locator.id
})

/** The stored locations, in the order they were created. */
function stored(): Record<string, unknown>[] {
  const store = openStore(dbPath)
  try {
    return store.db.query('SELECT * FROM locations ORDER BY seq').all() as Record<string, unknown>[]
  } finally {
    store.close()
  }
}

describe('locations import from CSV: placing rows', () => {
  test('coordinates 0,0 are a placeholder: the address is placed instead, and the summary says so', () => {
    const zero = file(
      'zero.csv',
      'external_id,name,address,lat,lng\nZ1,Zero,"Alexanderplatz 1, 10178 Berlin, Germany",0,0\n',
    )
    const r = storeloc('locations', 'import', locatorId, '--file', zero)
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('line 2 (external_id "Z1"): The coordinates 0,0 were read as none')
    const [placed] = stored()
    expect(Math.round(placed!.lat as number)).toBe(53)
    // Again, for the store now placed: its point stays.
    expect(json('locations', 'import', locatorId, '--file', zero)).toMatchObject({ unchanged: 1 })
  })

  test('the geocoding summary counts precisions and lists what to check', () => {
    // With an address column, the country column is not part of the address: only checked against it.
    const text =
      'external_id,name,address,country\n' +
      'P1,Paris,"1 Rue de Rivoli, 75001 Paris",France\n' +
      'X1,Far,"Hauptstraße 5, 10115 Berlin",France\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('geo.csv', text))
    expect(r.code).toBe(0)
    const lines = r.stdout.split('\n')
    expect(lines[1]).toMatch(/^Geocoded 2 addresses: /)
    // The built-in geocoder places no address at its street: the line says how to get closer.
    expect(lines[1]).toEndWith(
      'No address was placed at its street: for points at the door, fill in the coordinate columns, or use an HTTP geocoder that knows streets (docs/geocoding.md).',
    )
    // 75001 is placed at the 1st arrondissement's own point: a postcode's precision, nothing to check.
    expect(lines[1]).toStartWith('Geocoded 2 addresses: 1 postcode, 1 city.')
    expect(lines[2]).toBe('Check 1 location:')
    expect(r.stdout).not.toContain('external_id "P1"')
    expect(r.stdout).toContain(
      'line 3 (external_id "X1"): The address was placed in DE, but the row\'s country is France.',
    )
  })

  test('a town its postcode does not confirm, far from it, is told', () => {
    const text =
      'external_id,name,address\n' +
      'C1,Loop,"1 Main St, Chicago, IL 62701"\n' +
      'S1,Capitol,"200 Main Street, Springfield, IL 62701"\n' +
      'H1,Hafen,"Hauptstraße 5, 79098 Hamburg, Germany"\n'
    const lines = dryRunLines(locatorId, 'towns.csv', text)
    // German postcodes are placed at their town's point, so H1 is at city level too.
    expect(lines.slice(2, -1)).toEqual([
      'Check 2 locations:',
      '  line 2 (external_id "C1"): The address was placed at postcode 62701, 283 km from Chicago, the town it names: check which is right.',
      '  line 4 (external_id "H1"): The address was placed only at city level (postcode 79098): check it, or send coordinates.',
      '  line 4 (external_id "H1"): The address was placed at postcode 79098, 636 km from Hamburg, the town it names: check which is right.',
    ])
  })

  test('the town-level placing that many rows share is told once, after what is particular to a row', () => {
    const text =
      'Filialnummer;Name;Straße;PLZ;Ort;Land\r\n' +
      'B1;Mitte;Hauptstraße 1;10115;Berlin;Deutschland\r\n' +
      'K1;Dom;Domkloster 4;50667;Köln;Deutschland\r\n' +
      'D1;Altstadt;Prager Straße 10;1069;Dresden;Deutschland\r\n' +
      'H1;Hafen;Hafenstraße 2;20095;Hamburg;Deutschland\r\n'
    const lines = dryRunLines(locatorId, 'filialen.csv', text)
    expect(lines.slice(2, -2)).toEqual([
      'Check 4 locations:',
      '  line 4 (external_id "D1"): The postcode 1069 was read as 01069: Excel drops leading zeros; format the "PLZ" column as text.',
      '  4 rows (line 2: Berlin, line 3: Köln, line 4: Dresden and 1 more; --json lists them all): The address was placed only at city level: check them, or send coordinates.',
    ])
  })

  test("coordinates sent are checked against the row's country: swapped lat and lng are told", () => {
    const text =
      'external_id,name,address,country,lat,lng\n' +
      'P1,Porto,"Rua A 1, Porto",Portugal,-8.61,41.15\n' +
      'P2,Lisboa,"Rua B 2, Lisboa",Portugal,38.72,-9.14\n' +
      'P3,Sea,"Rua C 3, Faro",Portugal,39,-20\n' +
      'P4,Vigo,"Rua D 4, Vigo",Portugal,42.24,-8.72\n'
    const lines = dryRunLines(locatorId, 'swap.csv', text)
    expect(lines.slice(1, -1)).toEqual([
      'Check 3 locations:',
      '  line 2 (external_id "P1"): The coordinates -8.61, 41.15 are near no town, but the row\'s country is Portugal. Are lat and lng swapped?',
      '  line 4 (external_id "P3"): The coordinates 39, -20 are near no town, but the row\'s country is Portugal.',
      '  line 5 (external_id "P4"): The coordinates 42.24, -8.72 are in ES, but the row\'s country is Portugal.',
    ])
  })

  test('coordinates far from where their one-column address is are told: swapped, a sign lost, another town', () => {
    const text =
      'Store Code,Name,Address,Latitude,Longitude\n' +
      'A1,Swapped,"Hauptstraße 5, 10117 Berlin",13.3889,52.517\n' +
      'A2,Sign lost,"Calle Mayor 10, 28013 Madrid",40.4155,3.7074\n' +
      'A3,Munich point,"Torstraße 1, 10119 Berlin",48.1372,11.5756\n' +
      // Right points: the town the address names, or one whose reach holds the point (Jersey City).
      'A4,Paris,"10 Rue de Rivoli, 75001 Paris",48.8566,2.3522\n' +
      'A5,Grove,"7 Grove Street, Jersey City, NJ 07302",40.7196,-74.0431\n' +
      'A6,Mitte,"Hauptstraße 5, 10117 Berlin",52.517,13.3889\n'
    const cached = () => {
      const store = openStore(dbPath)
      try {
        return store.db.query('SELECT COUNT(*) AS n FROM geocode_cache').get()
      } finally {
        store.close()
      }
    }
    const before = cached()
    const lines = dryRunLines(locatorId, 'points.csv', text)
    // The checks ask the data itself: they leave no cache rows.
    expect(cached()).toEqual(before)
    expect(lines.slice(1, -1)).toEqual([
      'Check 3 locations:',
      expect.stringMatching(
        /^ {2}line 2 \(external_id "A1"\): The coordinates 13.3889, 52.517 are \d+ km from 10117 Berlin DE, where the address is: check which is right. Are lat and lng swapped\?$/,
      ),
      expect.stringMatching(
        /^ {2}line 3 \(external_id "A2"\): The coordinates 40.4155, 3.7074 are \d+ km from 28013 Madrid ES, .* Is a minus sign missing, or one too many\?$/,
      ),
      expect.stringMatching(
        /^ {2}line 4 \(external_id "A3"\): The coordinates 48.1372, 11.5756 are 5\d\d km from 10119 Berlin DE, where the address is: check which is right.$/,
      ),
      'Columns read: Store Code as external_id, Name, Address, Latitude as lat, Longitude as lng.',
    ])
  })

  test("a country name the service does not know, and coordinates far from the row's postcode, are told", () => {
    // A German export: ";" separators, German headers, two typos and a store's point pasted from another.
    const text =
      'Filialnummer;Name;Straße;PLZ;Ort;Land;Breitengrad;Längengrad\n' +
      'D1;Hannover;Georgstraße 1;30159;Hannover;Deutchland;52,3744;9,7386\n' +
      'D2;Mitte;Torstraße 1;10119;Berlin;Deutschland;48,1372;11,5756\n' +
      'D3;Nowhere;Main 1;12345;Atlantis;Atlantika;52,52;13,40\n' +
      'D4;Köln;Hohe Straße 1;50667;Köln;Deutschland;50,9375;6,9603\n' +
      // Towns whose official names a geocoder reads in part (Homburg, Baden-Baden): their points are right.
      'D5;Homburg;Louisenstraße 1;61348;Bad Homburg vor der Höhe;Deutschland;50,2268;8,6182\n' +
      'D6;Laufenburg;Hauptstraße 1;79725;Laufenburg (Baden);Deutschland;47,5651;8,0647\n'
    const lines = dryRunLines(locatorId, 'typos.csv', text)
    expect(lines.slice(1, -1)).toEqual([
      'Check 3 locations:',
      '  line 2 (external_id "D1"): The country "Deutchland" is no country name the service knows: did you mean Germany? It is kept in the address as written.',
      '  line 3 (external_id "D2"): The coordinates 48.1372, 11.5756 are 505 km from the place of postcode 10119: check which is right.',
      '  line 4 (external_id "D3"): The country "Atlantika" is no country name the service knows: check its spelling. It is kept in the address as written.',
      'Columns read: Filialnummer as external_id, Name, Straße as street, PLZ as postcode, Ort as city, Land as country, Breitengrad as lat, Längengrad as lng.',
    ])
  })

  test("coordinates far from the row's postcode say when lat and lng look swapped or a minus sign lost", () => {
    // A French export: the street alone in its column, the postcode and town in theirs.
    const text =
      'Code magasin;Nom;Adresse;Code postal;Ville;Pays;Latitude;Longitude\n' +
      "F1;Bordeaux;10 cours de l'Intendance;33000;Bordeaux;France;44,841;0,575\n" +
      'F2;Lyon;5 rue de la République;69002;Lyon;France;48,8566;2,3522\n'
    const lines = dryRunLines(locatorId, 'fr.csv', text)
    expect(lines.slice(1, 4)).toEqual([
      'Check 2 locations:',
      '  line 2 (external_id "F1"): The coordinates 44.841, 0.575 are 91 km from the place of postcode 33000: check which is right. Is a minus sign missing, or one too many?',
      '  line 3 (external_id "F2"): The coordinates 48.8566, 2.3522 are 392 km from the place of postcode 69002: check which is right.',
    ])
  })

  test('a country code column beside the country column is said to be read as the country', () => {
    const lines = dryRunLines(
      locatorId,
      'iso.csv',
      'name,city,country,country_iso\nA,Boston,United States,US\nB,Edinburgh,,GB\n',
    )
    expect(lines).toContain('Columns read: name, city, country, country_iso as country.')
  })

  test('a street-only address cell beside city, state and zip columns is geocoded with them', () => {
    // The layout of store locator plugins' exports: each row was "could not be geocoded" before.
    const text =
      'Name,Address,Address 2,City,State,Zip,Country\n' +
      'Downtown,200 Main Street,Suite 4,Springfield,IL,62701,US\n' +
      'Loop,233 S Wacker Dr,,Chicago,IL,60606,US\n'
    const dry = json('locations', 'import', locatorId, '--file', file('plugin.csv', text), '--dry-run')
    expect(dry.results.map((r: any) => r.geocoding.precision)).toEqual(['postcode', 'postcode'])
    json('locations', 'import', locatorId, '--file', file('plugin.csv', text))
    expect(stored().map((l) => l.address)).toEqual([
      '200 Main Street, Suite 4, Springfield, IL 62701, US',
      '233 S Wacker Dr, Chicago, IL 60606, US',
    ])
  })

  test('an address cell naming a town with namesakes is placed by the state and ZIP code of its row', () => {
    // Alone, "Springfield" is Springfield, Missouri, and "Portland" Portland, Oregon.
    const text =
      'Name,Address,City,State,Zip\n' +
      'Capitol,"200 Main Street, Springfield",Springfield,IL,62701\n' +
      'Harbor,"10 Elm St, Portland",Portland,ME,04101\n'
    json('locations', 'import', locatorId, '--file', file('namesakes.csv', text))
    const placed = stored().map((l) => [l.address, Math.round(l.lat as number), Math.round(l.lng as number)])
    expect(placed).toEqual([
      ['200 Main Street, Springfield, IL 62701', 40, -90],
      ['10 Elm St, Portland, ME 04101', 44, -70],
    ])
  })
})
