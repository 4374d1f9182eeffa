// storeloc locations import and export with files as Excel reads and writes them: garbled text
// warned of, exports Excel opens with accents intact, other encodings named with --encoding.
import { beforeEach, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { dir, file, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Excel').locator.id
})

/** Latin-1 bytes of German letters as code page 850 writes them: ä ö ü ß Ä Ö Ü. */
const CP850: Record<number, number> = { 228: 0x84, 246: 0x94, 252: 0x81, 223: 0xe1, 196: 0x8e, 214: 0x99, 220: 0x9a }
/** And French letters: é è à ç. */
const CP850_MORE: Record<number, number> = { ...CP850, 233: 0x82, 232: 0x8a, 224: 0x85, 231: 0x87 }

const fixture = (name: string) => readFileSync(join(import.meta.dir, '../fixtures/csv', name))

describe('columns of some days', () => {
  test('the summary names the days each hours column fills: "Mo as monday", "Mo-Fr as monday-friday"', () => {
    const csv =
      'Name;Adresse;Breitengrad;Längengrad;Mo-Fr;Sa;So\r\nA;"Prager Straße 10, 01069 Dresden";51,04;13,73;9-18;10-14;geschlossen\r\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('d.csv', csv), '--dry-run')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Mo-Fr as monday-friday, Sa as saturday, So as sunday')
  })

  test('the summary names the days a range\'s time columns fill: "Mo-Fr von as monday-friday open"', () => {
    const csv =
      'Name;Adresse;Breitengrad;Längengrad;Mo-Fr von;Mo-Fr bis;Sa von;Sa bis\r\nA;"Prager Straße 10, 01069 Dresden";51,04;13,73;09:00;18:00;10:00;14:00\r\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('d.csv', csv), '--dry-run')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(
      'Mo-Fr von as monday-friday open, Mo-Fr bis as monday-friday close, Sa von as saturday open, Sa bis as saturday close',
    )
  })

  test('"Seg", "Ter", "WT" and "PN" beside a week of hours are a segment, a territory, a weight, a part', () => {
    const csv =
      'external_id,name,address,lat,lng,opening_hours,Seg,Ter,WT,PN\n' +
      's1,Shop,"Prager Straße 10, 01069 Dresden",51.04,13.73,Mon-Fri 9-17,Retail,North,12,4711\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('s.csv', csv), '--dry-run')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Columns read: external_id, name, address, lat, lng, opening_hours as hours.')
    expect(r.stdout).toContain(
      'Columns not read (no location field has these names; docs/cli.md lists the columns): Seg, Ter, WT, PN.',
    )
    expect(r.stdout).not.toContain('4711')
  })

  test('"PN" and "Pt" beside "Mo-Fr", "Sa" and "So" name days those name already: no days', () => {
    const csv =
      'Name;Adresse;Breitengrad;Längengrad;Mo-Fr;Sa;So;PN;Pt\r\nA;"Prager Straße 10, 01069 Dresden";51,04;13,73;9-18;10-14;zu;4711;12\r\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('o.csv', csv), '--dry-run')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Mo-Fr as monday-friday, Sa as saturday, So as sunday.')
    expect(r.stdout).toContain('docs/cli.md lists the columns): PN, Pt.')
    expect(r.stdout).not.toContain('4711')
  })

  test('headers of days are read together, as a week is: "Di" beside "Lu-Ve", "Do" by "Lun-Vie" Sunday, "So" by "Pn-Pt" Saturday', () => {
    const sheet = (days: string, hours: string) =>
      file(
        'w.csv',
        `Name;Adresse;Breitengrad;Längengrad;${days}\r\nA;"Prager Straße 10, 01069 Dresden";51,04;13,73;${hours}\r\n`,
      )
    const read = (days: string, hours: string) =>
      storeloc('locations', 'import', locatorId, '--file', sheet(days, hours), '--dry-run').stdout
    expect(read('Lu-Ve;Sa;Di', '9h-18h;9h-13h;fermé')).toContain(
      'Lu-Ve as monday-friday, Sa as saturday, Di as sunday.',
    )
    // Spanish days cut short to three letters say "Do" is domingo, as in a week's cell.
    expect(read('Lun-Vie;Sáb;Do', '9-18;10-14;cerrado')).toContain(
      'Lun-Vie as monday-friday, Sáb as saturday, Do as sunday.',
    )
    expect(read('Pn-Pt;So;Nd', '9-17;9-13;nieczynne')).toContain(
      'Pn-Pt as monday-friday, So as saturday, Nd as sunday.',
    )
    json('locations', 'import', locatorId, '--file', sheet('Pn-Pt;So;Nd', '9-17;9-13;nieczynne'))
    expect(json('locations', 'export', locatorId)[0].hours).toMatchObject({ saturday: '9-13', sunday: 'nieczynne' })
  })

  test('headers of Dutch or German days keep "Ma", "Di", "Do" theirs beside a "Seg" or a stray "Sab"', () => {
    const sheet = (columns: string, cells: string) =>
      file('n.csv', `Name;Adres;Lat;Lng;${columns}\r\nA;"Prager Straße 10, 01069 Dresden";51,04;13,73;${cells}\r\n`)
    const read = (columns: string, cells: string) =>
      storeloc('locations', 'import', locatorId, '--file', sheet(columns, cells), '--dry-run')
    const dutch = read('Ma;Di;Wo;Do;Vr;Za;Zo;Seg', '9-18;9-18;9-18;9-21;9-18;10-17;gesloten;Retail')
    expect(dutch.code).toBe(0)
    expect(dutch.stdout).toContain(
      'Ma as monday, Di as tuesday, Wo as wednesday, Do as thursday, Vr as friday, Za as saturday, Zo as sunday.',
    )
    expect(dutch.stdout).toContain('docs/cli.md lists the columns): Seg.')
    expect(read('Ma-Vr;Za;Zo;Seg', '9-18;10-17;gesloten;Retail').stdout).toContain(
      'Ma-Vr as monday-friday, Za as saturday, Zo as sunday.',
    )
    // German days beside a stray Romance one, as in a cell: "Do" is Thursday, as Sunday would name days twice.
    const mixed = read('Mo-Do;Fr;Sab', '9-18;9-15;10-14')
    expect(mixed.code).toBe(0)
    expect(mixed.stdout).toContain('Mo-Do as monday-thursday, Fr as friday, Sab as saturday.')
  })

  test('a gate "Tor" before "Mo-Fr;Sa;So" is no Thursday, and "Sa;So" beside a week are the weekend', () => {
    const sheet = (columns: string, cells: string) =>
      file(
        't.csv',
        `Name;Adresse;Breitengrad;Längengrad;${columns}\r\nA;"Prager Straße 10, 01069 Dresden";51,04;13,73;${cells}\r\n`,
      )
    const read = (columns: string, cells: string) =>
      storeloc('locations', 'import', locatorId, '--file', sheet(columns, cells), '--dry-run').stdout
    const gate = read('Tor;Mo-Fr;Sa;So', '3;9-18;10-14;zu')
    expect(gate).toContain('Mo-Fr as monday-friday, Sa as saturday, So as sunday.')
    expect(gate).toContain('docs/cli.md lists the columns): Tor.')
    expect(read('Öffnungszeiten;Sa;So', 'Mo-Fr 9-18;10-14;zu')).toContain(
      'Öffnungszeiten as hours, Sa as saturday, So as sunday.',
    )
  })

  test('a column of days and one of a day it names ("So" and "Sonntag") are refused: which holds its hours?', () => {
    for (const [columns, both] of [
      [
        'Mo-Fr;Sa;So;Sonntag',
        '"So" (column G) and "Sonntag" (column H) both fill Sunday\'s hours ("Sonntag" gives "10-12" on line 2)',
      ],
      [
        'Montag;Mo-Fr;Sa;So',
        '"Montag" (column E) and "Mo-Fr" (column F) both fill Monday\'s hours ("Montag" gives "9-18" on line 2)',
      ],
    ]) {
      const csv = `Name;Adresse;Breitengrad;Längengrad;${columns}\r\nA;"Prager Straße 10, 01069 Dresden";51,04;13,73;9-18;10-14;zu;10-12\r\n`
      const path = file('twice.csv', csv)
      const r = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run')
      expect(r.code).toBe(1)
      expect(r.stderr).toBe(
        `storeloc: Nothing was imported: ${path} cannot be read as CSV: line 1: the columns ${both}. Delete or rename one of them.\n`,
      )
    }
  })

  test('a header of days alone is a column of hours beside others naming five days or more', () => {
    const csv =
      'Name;Adresse;Breitengrad;Längengrad;Seg-Sex;Sáb;Dom\r\nA;"Prager Straße 10, 01069 Dresden";51,04;13,73;9-18;10-14;fechado\r\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('p.csv', csv), '--dry-run')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Seg-Sex as monday-friday, Sáb as saturday, Dom as sunday')
  })
  test('a range of days alone with hours under it is their hours: "Sa-So", "Sat-Sun"; codes under it, none', () => {
    const sheet = (column: string, cell: string) =>
      file(
        'r.csv',
        `Filialnummer;Name;Adresse;Breitengrad;Längengrad;${column}\r\nF1;A;"Prager Straße 10, 01069 Dresden";51,04;13,73;${cell}\r\n`,
      )
    for (const [column, days] of [
      ['Sa-So', 'saturday & sunday'],
      ['Sat-Sun', 'saturday & sunday'],
      ['Mo-Fr', 'monday-friday'],
      ['Mon-Fri', 'monday-friday'],
    ] as const) {
      const r = storeloc('locations', 'import', locatorId, '--file', sheet(column, '10:00-14:00'), '--dry-run')
      expect(r.stdout).toContain(`, ${column} as ${days}.`)
    }
    json('locations', 'import', locatorId, '--file', sheet('Sa-So', '10:00-14:00'))
    expect(json('locations', 'export', locatorId)[0].hours).toMatchObject({
      saturday: '10:00-14:00',
      sunday: '10:00-14:00',
    })
    // No hours under it: a range of days is not guessed to be one.
    const codes = storeloc('locations', 'import', locatorId, '--file', sheet('Sa-So', 'B7'), '--dry-run')
    expect(codes.stdout).toContain('docs/cli.md lists the columns): Sa-So.')
  })
  test('a lone weekend column leaves the weekdays unset, with a note of the file saying how to give them', () => {
    for (const column of ['Sat-Sun', 'Sa-So']) {
      const sheet = file(
        'w.csv',
        `Name;Adresse;Breitengrad;Längengrad;${column}\r\nA;"Prager Straße 10, 01069 Dresden";51,04;13,73;10-16\r\n`,
      )
      const r = storeloc('locations', 'import', locatorId, '--file', sheet, '--dry-run')
      expect(r.code).toBe(0)
      expect(r.stdout).toContain(
        `The file's only column of days, "${column}", names the weekend alone: Monday to Friday were left unset (unknown), not closed.`,
      )
      json('locations', 'import', locatorId, '--file', sheet)
    }
    // Unset, a day exports as an empty cell: unknown, where closed would write "closed".
    for (const { hours } of json('locations', 'export', locatorId))
      expect(hours).toEqual({
        ...{ monday: '', tuesday: '', wednesday: '', thursday: '', friday: '' },
        ...{ saturday: '10-16', sunday: '10-16' },
      })
  })
  test('columns of days that give closed days alone are named as the file names them, with what to do', () => {
    const sheet = file(
      'c.csv',
      'Name;Adresse;Breitengrad;Längengrad;Mo-Fr;Sa;So\r\nA;"Prager Straße 10, 01069 Dresden";51,04;13,73;;geschlossen;zu\r\n',
    )
    const r = storeloc('locations', 'import', locatorId, '--file', sheet, '--dry-run')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      'line 2 ("A"): The row\'s hours in the "Sa" and "So" columns ("geschlossen"; "zu") are of closed days alone, so the store would be closed every day. Fill in the hours of the days it opens, or leave those cells empty.',
    )
  })
  test('a warning of hours not read names the column they are in, as the file spells it', () => {
    const csv =
      'Filialnummer;Name;Adresse;Breitengrad;Längengrad;Mo-Fr;Sa;Sonderöffnungszeiten\r\n' +
      'F1;A;"Prager Straße 10, 01069 Dresden";51,04;13,73;nach Absprache;9-13;2026-12-24 auf Zuruf\r\n'
    const report = json('locations', 'import', locatorId, '--file', file('n.csv', csv), '--dry-run')
    expect(report.results[0].warnings).toEqual([
      'Monday to Friday\'s hours "nach Absprache" in the "Mo-Fr" column is read as by appointment, with no hours: it is kept, and counts as unknown (docs/management-api.md, Opening hours).',
      'The hours "auf Zuruf" of 2026-12-24 in the "Sonderöffnungszeiten" column could not be read as opening hours: it is kept, and counts as unknown (docs/management-api.md, Opening hours).',
    ])
  })
})

describe("a German back office's headers", () => {
  test('"Bezeichnung" is the name and "Straße und Hausnr." the street, beside "Filial-Nr.", "PLZ" and "Ort"', () => {
    const csv =
      'Filial-Nr.;Bezeichnung;Straße und Hausnr.;PLZ;Ort;Land\r\n12;Radhaus Köln;Schildergasse 12;50667;Köln;DE\r\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('filialen.csv', csv), '--dry-run')
    expect(r.stderr).toBe('')
    expect(r.stdout).toContain(
      'Columns read: Filial-Nr. as external_id, Bezeichnung as name, Straße und Hausnr. as street, PLZ as postcode, Ort as city, Land as country.',
    )
  })
})

describe('headers and cells written for Excel', () => {
  test('a code or postcode written ="01067", to keep its leading zero in Excel, is read as its text', () => {
    const csv =
      'Store Code;Name;Street;Zip;City;Country;Lat;Lng\r\n="00123";Altmarkt;Altmarkt 1;="01067";Dresden;DE;51,0504;13,7373\r\n'
    const read = json('locations', 'import', locatorId, '--file', file('zeros.csv', csv))
    expect(read.results[0].warnings).toEqual([])
    const [stored] = json('locations', 'export', locatorId)
    expect([stored.external_id, stored.address]).toEqual(['00123', 'Altmarkt 1, 01067 Dresden, DE'])
  })

  test('an import template\'s headers marked required or optional ("Name *", "Lat (optional)") are read', () => {
    const csv =
      'Store Code *,Name (required),Address *,Lat (optional),Lng (optional)\r\nS1,A,"1 Princes Street, Edinburgh",55.9533,-3.1883\r\n'
    const read = json('locations', 'import', locatorId, '--file', file('template.csv', csv))
    expect(read).toMatchObject({ created: 1, unknown_columns: [] })
    const [stored] = json('locations', 'export', locatorId)
    expect([stored.external_id, stored.name, stored.coordinates]).toEqual(['S1', 'A', { lat: 55.9533, lng: -3.1883 }])
  })
})

describe('garbled text', () => {
  test('the summary names each garbled row, its column and text, and the import goes on', () => {
    const r = storeloc('locations', 'import', locatorId, '--file', file('m.csv', fixture('mojibake.csv')))
    expect(r.code).toBe(0)
    const lines = r.stdout.split('\n')
    expect(lines[0]).toBe(
      `Imported ${join(dir, 'm.csv')} into ${locatorId}: 4 created, 0 updated, 0 unchanged, 0 deleted.`,
    )
    expect(lines[1]).toBe('Check 4 locations:')
    expect(lines[2]).toStartWith(
      '  line 2 (external_id "C1"): "CafÃ© MÃ¼ller" in the "Name" column (most likely "Café Müller") and "HauptstraÃŸe 5" in the "Address" column (most likely "Hauptstraße 5") are garbled',
    )
    expect(lines[2]).toContain('save it as "CSV UTF-8 (Comma delimited)"')
  })
})

describe('--encoding', () => {
  test('a Windows-1252 file is read with --encoding windows-1252; without it, refused naming the option', () => {
    const path = file('c.csv', fixture('cp1252.csv'))
    const refused = storeloc('locations', 'import', locatorId, '--file', path)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toStartWith(
      `storeloc: Nothing was imported: ${path} cannot be read as CSV: line 2: this line is not UTF-8 text.`,
    )
    expect(refused.stderr).toContain('give its encoding: --encoding windows-1252.')
    const read = json('locations', 'import', locatorId, '--file', path, '--encoding', 'windows-1252')
    expect(read).toMatchObject({ created: 3 })
    expect(read.results.flatMap((r: { warnings: string[] }) => r.warnings)).toEqual([])
    const names = json('locations', 'export', locatorId).map((l: { name: string }) => l.name)
    expect(names).toEqual(['Café Müller', 'Señor Bici', 'Crème Brûlée Paris'])
  })

  test('a blank --encoding names none, as an empty charset does over HTTP: the file is read as UTF-8', () => {
    const csv = 'external_id,name,address,lat,lng\nC1,Café,"1 Main St, Springfield",39.8,-89.65\n'
    const read = json('locations', 'import', locatorId, '--file', file('u.csv', csv), '--encoding', ' ')
    expect(read).toMatchObject({ created: 1 })
    expect(json('locations', 'export', locatorId).map((l: { name: string }) => l.name)).toEqual(['Café'])
  })

  test('a Mac Roman file is refused naming --encoding macintosh; read as Windows-1252, its rows are warned of', () => {
    const mac = new TextDecoder('macintosh')
    const bytes = new Map(Array.from({ length: 256 }, (_, b) => [mac.decode(Uint8Array.of(b)), b] as const))
    const text =
      'Filialnummer;Name;Adresse;Lat;Lng\r\nF1;Bäckerei Müller;"Königsallee 1, 40212 Düsseldorf";51,22;6,78\r\n'
    const path = file('mac.csv', Uint8Array.from([...text].map((c) => bytes.get(c)!)))
    const refused = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('give its encoding: --encoding macintosh.')
    const misread = storeloc(
      'locations',
      'import',
      locatorId,
      '--file',
      path,
      '--dry-run',
      '--encoding',
      'windows-1252',
    )
    expect(misread.code).toBe(0)
    expect(misread.stdout).toContain(
      '"BŠckerei MŸller" in the "Name" column (most likely "Bäckerei Müller") and "Kšnigsallee 1, 40212 DŸsseldorf" in the "Adresse" column (most likely "Königsallee 1, 40212 Düsseldorf") read as a Mac file\'s text (Mac Roman) read as Windows-1252',
    )
    const read = json('locations', 'import', locatorId, '--file', path, '--encoding', 'macintosh')
    expect(read.results.flatMap((r: { warnings: string[] }) => r.warnings)).toEqual([])
    expect(json('locations', 'export', locatorId).map((l: { name: string }) => l.name)).toEqual(['Bäckerei Müller'])
  })

  test('a Mac Roman address read as Windows-1252 that cannot be placed: its refusal names --encoding macintosh', () => {
    const mac = new TextDecoder('macintosh')
    const bytes = new Map(Array.from({ length: 256 }, (_, b) => [mac.decode(Uint8Array.of(b)), b] as const))
    const text = 'Filialnummer;Name;Adresse\r\nF1;Café Kö;"Zzqx 1, Düsseldorf"\r\n'
    const path = file('mac.csv', Uint8Array.from([...text].map((c) => bytes.get(c)!)))
    const r = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run', '--encoding', 'windows-1252')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('line 2 (external_id "F1"): The address "Zzqx 1, DŸsseldorf" could not be geocoded.')
    expect(r.stderr).toContain(
      '"Zzqx 1, DŸsseldorf" in the "Adresse" column (most likely "Zzqx 1, Düsseldorf") reads as a Mac file\'s text (Mac Roman) read as Windows-1252: import the file again in its encoding, macintosh (the CLI\'s --encoding macintosh; over HTTP, Content-Type: text/csv; charset=macintosh).',
    )
  })

  test('a garbled UTF-8 address that cannot be placed: its refusal gives the text it most likely was', () => {
    const csv = 'external_id,name,address\nG1,Café,"Zzqx 1, DÃ¼sseldorf"\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('g.csv', csv), '--dry-run')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      '"Zzqx 1, DÃ¼sseldorf" in the "address" column (most likely "Zzqx 1, Düsseldorf") is garbled: UTF-8 text read as Windows-1252',
    )
  })

  test('Excel\'s "CSV (MS-DOS)" (code page 850) is refused as such; read as Windows-1252, its rows are warned of', () => {
    const path = file(
      'dos.csv',
      new Uint8Array(
        Buffer.from('name;address;lat;lng\r\nBäckerei Köhler;Große Straße 5, Köln;50,94;6,95\r\n', 'latin1'),
      ).map((b) => CP850[b] ?? b),
    )
    const refused = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(
      'Or, if it is an MS-DOS code page (Excel\'s "CSV (MS-DOS)"), which this service cannot read, save it as "CSV UTF-8 (Comma delimited)". From a script, if it is code page 850: iconv -f CP850 -t UTF-8 FILE > FILE-utf8.csv',
    )
    expect(refused.stderr).not.toContain('--encoding windows-1252')
    const misread = json('locations', 'import', locatorId, '--file', path, '--dry-run', '--encoding', 'windows-1252')
    const lost = file(
      'dos-lost.csv',
      new Uint8Array(Buffer.from('name;address\r\nB;Zzqx 1, Köln\r\n', 'latin1')).map((b) => CP850[b] ?? b),
    )
    const unplaced = storeloc(
      'locations',
      'import',
      locatorId,
      '--file',
      lost,
      '--dry-run',
      '--encoding',
      'windows-1252',
    )
    expect(unplaced.stderr).toContain(
      'Fix the address or fill in the row\'s "lat" and "lng" columns. "Zzqx 1, K”ln" in the "address" column reads as an MS-DOS file\'s text (Excel\'s "CSV (MS-DOS)", code page 850) read as Windows-1252: save the file as "CSV UTF-8 (Comma delimited)" and import that.',
    )
    expect(misread.results[0].warnings).toEqual([
      '"B„ckerei K”hler" in the "name" column and "Groáe Straáe 5, K”ln" in the "address" column read as an MS-DOS file\'s text (Excel\'s "CSV (MS-DOS)", code page 850) read as Windows-1252. Imported as written. Save the file as "CSV UTF-8 (Comma delimited)" and import that.',
    ])
  })

  test('Excel\'s "CSV (MS-DOS)" with no umlaut, only "ß" and "é", is named too, not taken for Windows-1252', () => {
    const text = 'name;address;lat;lng\r\nCafé Rosé;Hauptstraße 5, Berlin;52,52;13,40\r\n'
    const path = file(
      'dos-eszett.csv',
      new Uint8Array(Buffer.from(text, 'latin1')).map((b) => CP850_MORE[b] ?? b),
    )
    const refused = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('From a script, if it is code page 850: iconv -f CP850')
    const misread = json('locations', 'import', locatorId, '--file', path, '--dry-run', '--encoding', 'windows-1252')
    expect(misread.results[0].warnings).toEqual([
      '"Caf‚ Ros‚" in the "name" column and "Hauptstraáe 5, Berlin" in the "address" column read as an MS-DOS file\'s text (Excel\'s "CSV (MS-DOS)", code page 850) read as Windows-1252. Imported as written. Save the file as "CSV UTF-8 (Comma delimited)" and import that.',
    ])
  })

  test("Excel's Unicode Text (UTF-16 with its byte order mark) is read as it is, whatever --encoding says", () => {
    const text = '\uFEFFname\taddress\tlat\tlng\r\nCafé Müller\tHauptstraße 5, Berlin\t52,5\t13,4\r\n'
    const le = file('u.txt', new Uint8Array(Buffer.from(text, 'utf16le')))
    expect(json('locations', 'import', locatorId, '--file', le)).toMatchObject({ created: 1 })
    const be = new Uint8Array(Buffer.from(text.replace('Café', 'Bäckerei'), 'utf16le')).map((_, i, b) => b[i ^ 1]!)
    const path = file('be.txt', be)
    expect(json('locations', 'import', locatorId, '--file', path, '--encoding', 'windows-1252')).toMatchObject({
      created: 1,
    })
    const names = json('locations', 'export', locatorId).map((l: { name: string }) => l.name)
    expect(names).toEqual(['Café Müller', 'Bäckerei Müller'])
  })

  test('UTF-16 of an odd number of bytes is refused as such: a byte added at its end, or lost in a line', () => {
    const text =
      '\uFEFFname\taddress\tlat\tlng\r\nCafé Müller\tHauptstraße 5, Berlin\t52,5\t13,4\r\nB\tX 1, Berlin\t52,5\t13,4\r\n'
    const bytes = new Uint8Array(Buffer.from(text, 'utf16le'))
    const added = file('added.txt', Uint8Array.from([...bytes, 0x0a]))
    const r = storeloc('locations', 'import', locatorId, '--file', added, '--dry-run')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      `${added} cannot be read as CSV: The file is UTF-16 text (its byte order mark says so), but of an odd number of bytes (${bytes.length + 1}): its last byte is half a character. The file was cut short, or a byte was added at its end (as a line added in another encoding is). Save the file again from the spreadsheet.`,
    )
    // The "X" of line 3 loses a byte: from there on each character is read from two halves.
    const at = bytes.length - 2 * 'X 1, Berlin\t52,5\t13,4\r\n'.length
    const lost = file('lost.txt', Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + 1)]))
    const l = storeloc('locations', 'import', locatorId, '--file', lost, '--dry-run')
    expect(l.stderr).toContain(
      `${lost} cannot be read as CSV: line 3: the file is UTF-16 text (its byte order mark says so), but of an odd number of bytes (${bytes.length - 1}): a byte is lost in this line, and every character after it is misread. Save the file again from the spreadsheet.`,
    )
  })

  test('UTF-16 without its byte order mark is named, with the --encoding that reads it', () => {
    const text = 'name\taddress\tlat\tlng\r\nCafé Müller\tHauptstraße 5, Berlin\t52,5\t13,4\r\n'
    const le = file('bare.txt', new Uint8Array(Buffer.from(text, 'utf16le')))
    const r = storeloc('locations', 'import', locatorId, '--file', le)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('The file is UTF-16 text without its byte order mark')
    expect(r.stderr).toContain('give its encoding: --encoding utf-16le.')
    expect(json('locations', 'export', locatorId)).toEqual([])
    expect(json('locations', 'import', locatorId, '--file', le, '--encoding', 'utf-16le')).toMatchObject({ created: 1 })
    const be = file(
      'bare-be.txt',
      new Uint8Array(Buffer.from(text, 'utf16le')).map((_, i, b) => b[i ^ 1]!),
    )
    expect(storeloc('locations', 'import', locatorId, '--file', be).stderr).toContain('--encoding utf-16be.')
  })

  test('an image given as the CSV file is said to be no text, and nothing is written', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52])
    const r = storeloc('locations', 'import', locatorId, '--file', file('stores.csv', png))
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('cannot be read as CSV: The file is not text: it holds NUL bytes')
    expect(json('locations', 'export', locatorId)).toEqual([])
  })

  test('a stray NUL in a cell of a text file is named by its line and column, not taken for a binary file', () => {
    const r = storeloc(
      'locations',
      'import',
      locatorId,
      '--file',
      file('n.csv', 'name,address,lat,lng\nA\u0000B,x,1,2\n'),
    )
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('line 2')
    expect(r.stderr).toContain('control characters')
    expect(r.stderr).not.toContain('not text')
  })

  test('an unknown encoding, or one named for JSON, is refused and nothing is written', () => {
    const path = file('c.csv', fixture('cp1252.csv'))
    const r = storeloc('locations', 'import', locatorId, '--file', path, '--encoding', 'ansi')
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      `storeloc: Nothing was imported: ${path} cannot be read as CSV: The encoding "ansi" is not one this service knows. Name it as the WHATWG Encoding Standard does, such as windows-1252 (Western Europe, also read for iso-8859-1), windows-1250 (Central Europe), iso-8859-2, windows-1251 or macintosh; or leave it out for UTF-8.\n`,
    )
    const j = storeloc('locations', 'import', locatorId, '--file', file('a.json', '[]'), '--encoding', 'latin1')
    expect(j).toMatchObject({ code: 1, stderr: 'storeloc: --encoding is for CSV files: JSON is UTF-8.\n' })
    expect(json('locations', 'export', locatorId)).toEqual([])
  })
})

describe('columns not read', () => {
  test('a misspelt header is named with the column it most likely meant; other unknown ones as written', () => {
    const csv = 'Name,Adress,Postcde,Latitdue,Longitue,Notes,Email 2,Location\nA,Main St 1,10117,52.5,13.4,x,y,Berlin\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('typo.csv', csv))
    expect(r.code).toBe(1) // no address, no coordinates: the misspelt columns are why
    expect(r.stderr.split('\n')).toContain(
      'Columns not read (no location field has these names; docs/cli.md lists the columns): Adress (did you mean address?), Postcde (did you mean postcode?), Latitdue (did you mean latitude?), Longitue (did you mean longitude?), Notes, Email 2, Location.',
    )
  })
})

describe('export for Excel', () => {
  const STORE = 'external_id,name,address,lat,lng\nC1,Café Müller,Hauptstraße 5,52.517,13.3889\n'

  test('a CSV export starts with a UTF-8 BOM unless --no-bom; either re-imports to no change', () => {
    json('locations', 'import', locatorId, '--file', file('s.csv', STORE))
    const excel = storeloc('locations', 'export', locatorId, '--format', 'csv')
    expect(excel.code).toBe(0)
    expect(excel.stdout).toStartWith('\uFEFFid,external_id,name,')
    const plain = storeloc('locations', 'export', locatorId, '--format', 'csv', '--no-bom')
    expect(plain.stdout).toBe(excel.stdout.slice(1))
    for (const text of [excel.stdout, plain.stdout])
      expect(json('locations', 'import', locatorId, '--file', file('back.csv', text))).toMatchObject({
        created: 0,
        updated: 0,
        unchanged: 1,
      })
    expect(storeloc('locations', 'export', locatorId, '--no-bom').stderr).toBe(
      'storeloc: --no-bom is for a CSV export: add --format csv (without it, the export is JSON).\n',
    )
    expect(storeloc('locations', 'export', locatorId, '--format', 'json', '--separator', ';').stderr).toBe(
      'storeloc: --separator is for a CSV export, not --format json.\n',
    )
    expect(storeloc('locations', 'export', locatorId, '--format', 'csv', '--bom', '--no-bom').stderr).toBe(
      'storeloc: Give --bom or --no-bom, not both.\n',
    )
  })
})

describe('store codes Excel changed', () => {
  const header = 'Filialnummer;Name;Adresse;Breitengrad;Längengrad\r\n'
  const row = (code: string) => `${code};Radhaus A;Königsallee 1, 40213 Düsseldorf;51,2254;6,776\r\n`
  test("a new row's code of digits that a stored one has with leading zeros is told: Excel dropped them", () => {
    json('locations', 'import', locatorId, '--file', file('a.csv', header + row('0012')))
    const r = storeloc('locations', 'import', locatorId, '--file', file('b.csv', header + row('12')), '--dry-run')
    expect(r.code).toBe(0)
    const id = json('locations', 'export', locatorId)[0].id
    expect(r.stdout.split('\n').slice(0, 3)).toEqual([
      `Dry run of ${join(dir, 'b.csv')} on ${locatorId}, nothing written: 1 to create, 0 to update, 0 unchanged, 0 to delete.`,
      'Check 1 location:',
      `  line 2 (external_id "12"): Location ${id} has the external_id "0012": if this row is that store, its code lost its leading zeros (Excel reads 0012 as 12), and the row makes a second one. Format the column as text and give the code as "0012".`,
    ])
  })
  test("a new row's code with leading zeros that a stored one has without them is told: an import lost them", () => {
    json('locations', 'import', locatorId, '--file', file('a.csv', header + row('12')))
    const r = storeloc('locations', 'import', locatorId, '--file', file('b.csv', header + row('0012')), '--dry-run')
    expect(r.code).toBe(0)
    const id = json('locations', 'export', locatorId)[0].id
    expect(r.stdout.split('\n').slice(1, 3)).toEqual([
      'Check 1 location:',
      `  line 2 (external_id "0012"): Location ${id} has the external_id "12": if this row is that store, an earlier import lost the code's leading zeros (Excel reads 0012 as 12), and the row makes a second one. Give the row the code "12", or that location the code "0012".`,
    ])
  })
})

describe('columns of other store locators', () => {
  test('a column another spelling of a read field names ("sl_store" beside "name") is said to repeat it, not to name no field', () => {
    const csv = 'name,sl_store,address,lat,lng,Notes\nA,Store 7,1 Main St,52.5,13.4,x\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('slp.csv', csv), '--dry-run')
    expect(r.code).toBe(0)
    expect(r.stdout.split('\n').slice(-4, -2)).toEqual([
      'Columns not read (no location field has these names; docs/cli.md lists the columns): Notes.',
      'Columns not read (another column gives their field, and is read): sl_store (the name: "name" is read).',
    ])
    // Alone, the same column is the name.
    const alone = json(
      'locations',
      'import',
      locatorId,
      '--file',
      file('alone.csv', 'sl_store,address,lat,lng\nStore 7,1 Main St,52.5,13.4\n'),
      '--dry-run',
    )
    expect(alone).toMatchObject({ created: 1, unknown_columns: [] })
  })

  test('an "id" column of no ids of ours beside an external_id column is not read, and said so', () => {
    const csv = 'id,external_id,name,address,lat,lng\n7,S7,A,1 Main St,52.5,13.4\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('ids.csv', csv), '--dry-run')
    expect(r.code).toBe(0)
    expect(r.stdout.split('\n').slice(1)).toEqual([
      'The "id" column is not read: its cells ("7" on line 2) are no ids of this service (loc_...), and rows are matched by the "external_id" column. Delete the "id" column, or name it for what it holds.',
      '',
    ])
  })

  test('an "id" column mixing ids of ours and others beside store codes is read as ids, the others said', () => {
    const csv =
      'id,external_id,name,address,lat,lng\nloc_abc123,S1,A,1 Main St,52.5,13.4\n7,S7,B,2 Main St,52.5,13.4\n8,S8,C,3 Main St,52.5,13.4\n'
    const r = storeloc('locations', 'import', locatorId, '--file', file('mixed.csv', csv), '--dry-run')
    expect(r.code).toBe(0)
    expect(r.stdout.split('\n').slice(1)).toEqual([
      'The "id" column is read as ids of this service (loc_...), but 2 of its cells are none ("7" on line 3, ...): those rows are matched by their store codes in the "external_id" column (a row of them with no store code, or deleting its store, would be refused). Clear the cells that are no ids of this service.',
      '',
    ])
    const ours = 'id,external_id,name,address,lat,lng\nloc_abc123,S1,A,1 Main St,52.5,13.4\n,S7,B,2 Main St,52.5,13.4\n'
    const kept = storeloc('locations', 'import', locatorId, '--file', file('ours.csv', ours), '--dry-run')
    expect(kept.stdout.split('\n').slice(1)).toEqual([''])
  })
})
