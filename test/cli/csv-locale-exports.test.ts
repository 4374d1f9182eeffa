// storeloc locations import of files as a locale's spreadsheet or a listing tool writes them: a
// US tool's holiday dates ("12/25/2026: closed"), Excel's "CSV UTF-8" and "CSV (Macintosh)" saved
// in French and German. Each imports, or is refused naming the line and what to write.
import { beforeEach, describe, expect, test } from 'bun:test'
import { file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Locales').locator.id
})

/** A text's bytes in Mac Roman, as Excel for Mac's "CSV (Macintosh)" saves it. */
function macRoman(text: string): Uint8Array {
  const mac = new TextDecoder('macintosh')
  const bytes = new Map(Array.from({ length: 256 }, (_, b) => [mac.decode(Uint8Array.of(b)), b] as const))
  return Uint8Array.from([...text].map((c) => bytes.get(c)!))
}

type Stored = { external_id: string; special_hours: Record<string, string> }
const specialHours = () =>
  Object.fromEntries(json('locations', 'export', locatorId).map((l: Stored) => [l.external_id, l.special_hours]))

describe('holiday dates as a locale writes them', () => {
  test("a US listing tool's Holiday Hours (12/24/2026, Dec 31, 2026) import and export again to no change", () => {
    const csv =
      'Entity ID,Name,Address > Line 1,Address > City,Address > Region,Address > Postal Code,Address > Country Code,Display Coordinate > Latitude,Display Coordinate > Longitude,Holiday Hours\n' +
      'ch-sea-01,Cycle Hub Seattle,1520 4th Ave,Seattle,WA,98101,US,47.6114,-122.3371,"12/24/2026: 9:00am-2:00pm, 12/25/2026: closed"\n' +
      'ch-pdx-01,Cycle Hub Portland,700 SW Broadway,Portland,OR,97205,US,45.5189,-122.6793,"Dec 31, 2026: 9am-3pm; 07/04/2027: closed"\n'
    expect(json('locations', 'import', locatorId, '--file', file('yext.csv', csv)).created).toBe(2)
    expect(specialHours()).toEqual({
      'ch-sea-01': { '2026-12-24': '9:00am-2:00pm', '2026-12-25': 'closed' },
      'ch-pdx-01': { '2026-12-31': '9am-3pm', '2027-07-04': 'closed' },
    })
    const exported = storeloc('locations', 'export', locatorId, '--format', 'csv').stdout
    const again = json('locations', 'import', locatorId, '--file', file('export.csv', exported))
    expect([again.created, again.updated, again.unchanged]).toEqual([0, 0, 2])
  })

  test('a date whose month the file does not say is refused naming its line, store and both readings', () => {
    const csv =
      'external_id,name,lat,lng,special hours\n' +
      'S1,A,47.6114,-122.3371,"03/04/2027 closed"\n' +
      'S2,B,45.5,-122.6,\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('doubt.csv', csv))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      'line 2 (external_id "S1"): "03/04/2027" may be March 4 or April 3: the file\'s other dates and countries do not say which number is the month. Write it as YYYY-MM-DD (2027-03-04 or 2027-04-03).',
    )
    expect(json('locations', 'export', locatorId)).toEqual([])
  })
})

describe('Excel saved in a French or German locale', () => {
  const french =
    'Code magasin;Nom;Adresse;Code postal;Ville;Pays;Latitude;Longitude;Téléphone;Lundi;Samedi;Dimanche;Horaires exceptionnels\r\n' +
    'P01;Vélo Café Bastille;12 rue de la Roquette;75011;Paris;France;48,8534;2,3712;01 43 55 00 00;9h-19h;10h-18h;fermé;"25/12/2026 fermé, 01/05/2027 fermé"\r\n' +
    'P02;Vélo Café Lyon;3 quai Saint-Antoine;69002;Lyon;France;45,7640;4,8311;04 78 00 00 00;9h-19h;10h-18h;fermé;"24/12/2026 9h-16h"\r\n'

  test('"CSV UTF-8": a BOM, ";", decimal commas, French headers and day-first dates', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(french)])
    const read = json('locations', 'import', locatorId, '--file', file('fr.csv', bytes))
    expect(read.created).toBe(2)
    expect(specialHours()).toEqual({
      P01: { '2026-12-25': 'fermé', '2027-05-01': 'fermé' },
      P02: { '2026-12-24': '9h-16h' },
    })
  })

  test('"CSV (Macintosh)": Mac Roman, lines ending in CR; read with --encoding macintosh', () => {
    const german =
      'Filialnummer;Name;Straße;PLZ;Ort;Land;Breitengrad;Längengrad;Sonderöffnungszeiten\r' +
      'D1;Radhaus Dresden;Prager Straße 10;01069;Dresden;Deutschland;51,0447;13,7365;"24.12.2026 10-14, 31.12.2026 geschlossen"\r'
    const path = file('de-mac.csv', macRoman(german))
    expect(json('locations', 'import', locatorId, '--file', path, '--encoding', 'macintosh').created).toBe(1)
    expect(specialHours()).toEqual({ D1: { '2026-12-24': '10-14', '2026-12-31': 'geschlossen' } })
    const fr = json(
      'locations',
      'import',
      locatorId,
      '--file',
      file('fr-mac.csv', macRoman(french)),
      '--encoding',
      'macintosh',
    )
    expect(fr.created).toBe(2)
    expect(specialHours().P01).toEqual({ '2026-12-25': 'fermé', '2027-05-01': 'fermé' })
  })
})
