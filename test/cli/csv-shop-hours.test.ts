// storeloc locations import of a week of hours as shop owners in Germany, France and Spain write
// it in their spreadsheets: each day read, or its text kept and warned of, never a day made up.
import { beforeEach, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { dir, json, storeloc, useTempDatabase } from './temp-database'

let locatorId: string

useTempDatabase()
beforeEach(() => {
  locatorId = json('locator', 'create', '--name', 'Radhaus').locator.id
})

type Imported = { hours: Record<string, string>; hours_unread: string[]; external_id: string }

/** A sheet as Excel saves a German one, a row per hours text (store S0 named `name` 0, ...); its path. */
function sheetOf(texts: string[], name = 'Radhaus'): string {
  const rows = texts.map((t, i) => `S${i};${name} ${i};Königsallee ${i + 1}, 40213 Düsseldorf;51,2254;6,7763;"${t}"`)
  const path = join(dir, 'filialen.csv')
  writeFileSync(path, `Filialnummer;Name;Adresse;Breitengrad;Längengrad;Öffnungszeiten\r\n${rows.join('\r\n')}\r\n`)
  return path
}

/** Imports one row per hours text (sheetOf); each store's hours and warnings. */
function imported(texts: string[]): { hours: Imported[]; warnings: string[][] } {
  const path = sheetOf(texts)
  const report = json('locations', 'import', locatorId, '--file', path)
  const byCode = new Map<string, Imported>(
    json('locations', 'export', locatorId).map((l: Imported) => [l.external_id, l] as const),
  )
  return {
    hours: texts.map((_, i) => byCode.get(`S${i}`)!),
    warnings: report.results.map((r: { warnings: string[] }) => r.warnings),
  }
}

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
const week = (days: string[]): Record<string, string> => Object.fromEntries(DAYS.map((d, i) => [d, days[i]!]))

describe('a week of hours in one cell', () => {
  test('German "u." joins two intervals of a day, and a day with public holidays', () => {
    const { hours, warnings } = imported([
      'Mo-Fr 9-12.30 u. 14-18, Sa 9-13',
      'Mo-Fr 9-18, Sa 10-14, So. u. Feiertage geschlossen',
    ])
    // The holidays said closed change no day: noted, as excepted ones are.
    expect(warnings).toEqual([
      [],
      [
        `The hours "Mo-Fr 9-18, Sa 10-14, So. u. Feiertage geschlossen" leave out public holidays ("Feiertage geschlossen"): no day of the week is one, so each keeps its hours on them. Write public holidays' hours as special dates (special_hours).`,
      ],
    ])
    const split = '9-12.30 u. 14-18'
    expect(hours[0]!.hours).toEqual(week([split, split, split, split, split, '9-13', 'closed']))
    expect(hours[1]!.hours.sunday).toBe('geschlossen')
    expect(hours.map((h) => h.hours_unread)).toEqual([[], []])
  })

  test('Spanish: "De L a V" is Monday to Friday, not Sunday too; "Domingos y festivos" is Sunday', () => {
    const { hours, warnings } = imported([
      'De L a V 9:30-14 y 17-20:30, S 10-14',
      'Lunes a Sábado: 10:00-22:00 | Domingos y festivos: cerrado',
      'Lunes a viernes 10:00-14:00 y 17:00-20:30. Sábados 10:00-14:00',
    ])
    expect(warnings).toEqual([[], [], []])
    const split = '9:30-14 y 17-20:30'
    expect(hours[0]!.hours).toEqual(week([split, split, split, split, split, '10-14', 'closed']))
    expect(hours[1]!.hours).toEqual(week([...Array(6).fill('10:00-22:00'), 'cerrado']))
    const day = '10:00-14:00 y 17:00-20:30.'
    expect(hours[2]!.hours).toEqual(week([day, day, day, day, day, '10:00-14:00', 'closed']))
  })

  test('midday closed, days apart by spaces and a Belgian cell in two languages are read', () => {
    const { hours, warnings } = imported([
      'Mo-Fr 8-12 14-18, Mittwochmittag geschlossen',
      'Mo-Fr 8-12 14-18, mittags geschlossen',
      'Mo-Fr 8-12 14-18, Mi ab mittags geschlossen',
      'Mo Di Do Fr 8-12',
      'ma-vr 9-18 / lu-ve 9-18',
    ])
    expect(warnings).toEqual([[], [], [], [], []])
    const [split, wed] = ['8-12 14-18', '08:00-12:00']
    expect(hours[0]!.hours).toEqual(week([split, split, wed, split, split, 'closed', 'closed']))
    expect(hours[1]!.hours).toEqual(week([split, split, split, split, split, 'closed', 'closed']))
    expect(hours[2]!.hours).toEqual(hours[0]!.hours)
    expect(hours[3]!.hours).toEqual(week(['8-12', '8-12', 'closed', '8-12', '8-12', 'closed', 'closed']))
    expect(hours[4]!.hours).toEqual(week([...Array(5).fill('9-18'), 'closed', 'closed']))
    expect(hours.map((h) => h.hours_unread)).toEqual([[], [], [], [], []])
  })

  test('a day closed at midday after hours through noon closes at noon, its name in German or not', () => {
    const { hours, warnings } = imported([
      'Mo-Fr 8-18, Mittwochmittag geschlossen',
      'Mon-Fri 9-5, Mittwochmittag geschlossen',
      'Mo-Fr 8-18, Mittwochnachmittag geschlossen',
      'Mo-Fr 8-18, Mittwochvormittag geschlossen',
    ])
    expect(warnings).toEqual([[], [], [], []])
    expect(hours[0]!.hours).toEqual(week(['8-18', '8-18', '08:00-12:00', '8-18', '8-18', 'closed', 'closed']))
    expect(hours[1]!.hours).toEqual(week(['9-5', '9-5', '09:00-12:00', '9-5', '9-5', 'closed', 'closed']))
    // Its afternoon closed says the same; its morning closed opens at noon.
    expect(hours[2]!.hours).toEqual(hours[0]!.hours)
    expect(hours[3]!.hours).toEqual(week(['8-18', '8-18', '12:00-18:00', '8-18', '8-18', 'closed', 'closed']))
    expect(hours.map((h) => h.hours_unread)).toEqual([[], [], [], []])
  })

  test('days apart by spaces that commas read otherwise, or two days apart, refuse the cell', () => {
    // "Ma Mi": martes and miércoles, but "Ma, Mi" is maandag. "Ma Do" (maandag and donderdag, as
    // commas read it), "Mo Fr": the two days, or the span from one to the other?
    const texts = ['Ma Do 9-18', 'Ma Mi 9-18', 'Mo Fr 8-12', 'Mon Fri 9-5']
    const r = storeloc('locations', 'import', locatorId, '--file', sheetOf(texts), '--dry-run')
    expect(r.code).not.toBe(0)
    for (const t of texts) expect(r.stderr).toContain(`"${t}" could not be read as a week of opening hours`)
  })

  test('a Belgian cell whose Dutch and French halves name different days quotes both', () => {
    const r = storeloc('locations', 'import', locatorId, '--file', sheetOf(['ma-za 9-18 / lu-ve 9-18']), '--dry-run')
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain(
      '"ma-za 9-18 / lu-ve 9-18" could not be read as a week of opening hours: its two halves, "ma-za 9-18" and "lu-ve 9-18", are the week in two languages but disagree on its days: only the first names Saturday. Write the week once, with the days it opens, such as "ma-za 9-18".',
    )
  })

  test('two intervals of a day apart by a space alone are read', () => {
    const { hours, warnings } = imported(['Mo-Fr 9-12 14-18, Sa 9-13', 'lundi-vendredi 9h-12h30 14h-19h'])
    expect(warnings).toEqual([[], []])
    expect(hours.map((h) => h.hours.monday)).toEqual(['9-12 14-18', '9h-12h30 14h-19h'])
    expect(hours.map((h) => h.hours_unread)).toEqual([[], []])
  })

  test('"7j/7" is every day; "durchgehend" and "non-stop" (no break at noon) say nothing more', () => {
    const { hours, warnings } = imported([
      'Ouvert 7j/7 de 8h à 20h',
      'Mo-Fr 9-18 Uhr durchgehend geöffnet, Sa 9-14',
      'Lun-Sam 9h-19h non-stop',
    ])
    expect(warnings).toEqual([[], [], []])
    expect(hours[0]!.hours).toEqual(week(Array(7).fill('de 8h à 20h')))
    expect(hours[1]!.hours.friday).toBe('9-18 Uhr durchgehend geöffnet')
    expect(hours.map((h) => h.hours_unread)).toEqual([[], [], []])
  })

  test("hours that name no day are every day's, Sunday too, and the line says so; so does closed all week", () => {
    const { hours, warnings } = imported(['9h-12h / 14h-19h', 'Lun-Sam 9h-12h / 14h-19h', '24/7', 'geschlossen'])
    expect(hours[0]!.hours).toEqual(week(Array(7).fill('9h-12h / 14h-19h')))
    expect(warnings).toEqual([
      [
        'The hours "9h-12h / 14h-19h" name no day, so they are read as every day\'s, Sunday too. If the store closes on some days, name the days it opens, such as "Mon-Sat 9h-12h / 14h-19h".',
      ],
      [],
      [],
      [
        'The hours "geschlossen" close the store every day: it is still listed, as closed. To leave it out of the finder, give it the status draft (a "status" column).',
      ],
    ])
  })

  test('closed days first, then the open ones in one list: "Fermé le lundi, mardi-samedi 10h-19h"', () => {
    const { hours, warnings } = imported([
      'Fermé le lundi, mardi-samedi 10h-19h',
      'Closed on Mondays, Tue-Sat 10-18',
      'Closed Sun & Mon, Tue-Sat 10-18',
    ])
    expect(warnings).toEqual([[], [], []])
    expect(hours.map((h) => h.hours)).toEqual([
      week(['Fermé', ...Array(5).fill('10h-19h'), 'closed']),
      week(['Closed', ...Array(5).fill('10-18'), 'closed']),
      week(['Closed', ...Array(5).fill('10-18'), 'Closed']),
    ])
  })

  test('closed days first in a list of more than two parts is refused: which of them are closed?', () => {
    const texts = ['Closed Sun, Mon, Tue-Sat 10-18', 'Fermé lundi, mardi, mercredi-samedi 10h-19h']
    const path = sheetOf(texts)
    const r = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect(r.code).not.toBe(0)
    for (const t of texts) expect(r.stderr).toContain(`"${t}" could not be read as a week of opening hours`)
  })

  test('"i" between German days joins none: Saturday is kept as "Sa i So", for a person to fix', () => {
    const { hours, warnings } = imported(['Mo-Fr 9-18, Sa i So geschlossen'])
    expect(hours[0]!.hours).toEqual(week([...Array(5).fill('9-18'), 'Sa i So', 'geschlossen']))
    expect(warnings[0]!.join('\n')).toContain(
      `Saturday's hours "Sa i So" in the "Öffnungszeiten" column could not be read as opening hours`,
    )
  })

  test('a day named after a word for except is refused, not opened: "Daily except Sunday 9-5"', () => {
    const texts = [
      'Daily except Sunday 9-5',
      'Ouvert 7j/7 sauf le dimanche 9h-19h',
      'täglich außer So 9-19 Uhr',
      'Todos los días excepto domingo 9-21',
      'Tutti i giorni tranne domenica 9-19',
      'Dagelijks behalve zondag 9-18',
    ]
    const path = sheetOf(texts)
    const r = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect(r.code).not.toBe(0)
    for (const t of texts) expect(r.stderr).toContain(`"${t}" could not be read as a week of opening hours`)
  })

  test('a week naming closed days alone is refused: "Domingo: cerrado" does not close the whole week', () => {
    const texts = ['Domingo: cerrado', 'dimanche et jours fériés fermé', 'Sa, So geschlossen']
    const path = sheetOf(texts)
    const r = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect(r.code).not.toBe(0)
    for (const t of texts)
      expect(r.stderr).toContain(`"${t}" names closed days alone, so it closes the store every day`)
    expect(imported(['Mo-Sa 9-18, So geschlossen']).warnings).toEqual([[]])
  })

  test('a closing alone after hours in am and pm, dotted or not, is in the evening', () => {
    const { hours, warnings } = imported([
      'Lun-Vie 10 a. m.-6 p. m., Mié hasta las 9',
      'Mo-Fr 1 p.m.-6 p.m., Mi bis 11',
      'Mo-Fr 1 P.M.-6 P.M., Mi bis 11',
    ])
    expect(warnings).toEqual([[], [], []])
    const day = '10 a. m.-6 p. m.'
    expect(hours[0]!.hours).toEqual(week([day, day, '10:00-21:00', day, day, 'closed', 'closed']))
    expect(hours.slice(1).map((h) => [h.hours.tuesday, h.hours.wednesday, h.hours_unread])).toEqual([
      ['1 p.m.-6 p.m.', '13:00-23:00', []],
      ['1 P.M.-6 P.M.', '13:00-23:00', []],
    ])
  })

  test('"bis 12" after hours in am and pm could be noon or midnight: refused, unless it says which', () => {
    const r = storeloc('locations', 'import', locatorId, '--file', sheetOf(['Mo-Fr 1pm-6pm, Mi bis 12']), '--dry-run')
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain(
      '"Mo-Fr 1pm-6pm, Mi bis 12" could not be read as a week of opening hours: its "Mi bis 12" closes at 12:00, not after the last opening of that day\'s hours before it ("1pm-6pm"). Write the day\'s hours whole, such as "Mi 13:00-HH:MM", HH:MM the hour it closes.',
    )
    const { hours, warnings } = imported(['Mo-Fr 1pm-6pm, Mi bis 12 a.m.', 'Mo-Fr 1 p.m.-6 p.m., Mi bis 12am'])
    expect(warnings).toEqual([[], []])
    expect(hours.map((h) => h.hours.wednesday)).toEqual(['13:00-00:00', '13:00-00:00'])
  })

  test('bare hours that could be morning or evening are kept as unknown, and the warning gives both', () => {
    const { hours, warnings } = imported(['Mon-Fri 9-5, Sun 5-9', 'Mon-Sat 5-12, Sun 1-5'])
    expect(hours.map((h) => [h.hours.sunday, h.hours_unread])).toEqual([
      ['5-9', ['sunday']],
      ['1-5', ['sunday']],
    ])
    expect(warnings).toEqual([
      [
        'Sunday\'s hours "5-9" in the "Öffnungszeiten" column could be 05:00-09:00 or 17:00-21:00: it is kept, and counts as unknown until it is written as one of them.',
      ],
      [
        'Sunday\'s hours "1-5" in the "Öffnungszeiten" column could be 01:00-05:00 or 13:00-17:00: it is kept, and counts as unknown until it is written as one of them.',
      ],
    ])
  })

  test('bare hours beside days German, French or Dutch name are read as the 24-hour clock, as written', () => {
    const texts = ['Mo-Sa 5-11:30', 'lun-ven 5-9', 'ma-za 5:30-9:30, zo 7-10', 'Mon-Sat 5-11:30']
    const path = sheetOf(texts, 'Bäckerei')
    const r = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect(r.code).toBe(0)
    // English days alone keep the doubt: a restaurant's "5-11:30" may be 17:00-23:30.
    expect(r.stdout.split('\n').filter((line) => line.includes('could be'))).toEqual([
      '  line 5 (external_id "S3"): Monday to Saturday\'s hours "5-11:30" in the "Öffnungszeiten" column could be 05:00-11:30 or 17:00-23:30: it is kept, and counts as unknown until it is written as one of them.',
    ])
    const { hours, warnings } = imported(texts.slice(0, 3))
    expect(warnings).toEqual([[], [], []])
    expect(hours.map((h) => [h.hours.monday, h.hours.sunday, h.hours_unread])).toEqual([
      ['05:00-11:30', 'closed', []],
      ['05:00-09:00', 'closed', []],
      ['05:30-09:30', '7-10', []],
    ])
  })

  test('bare hours that close before they open, from 06:59 or earlier: English days keep both readings', () => {
    const { hours, warnings } = imported(['Mon-Fri 6-2', 'Mo-Fr 6-2'])
    expect(hours.map((h) => [h.hours.monday, h.hours_unread])).toEqual([
      ['6-2', ['monday', 'tuesday', 'wednesday', 'thursday', 'friday']],
      ['06:00-02:00', []],
    ])
    // The five days of one text in one column are one warning, naming the column.
    const said = `Monday to Friday's hours "6-2" in the "Öffnungszeiten" column could be 06:00-02:00, 06:00-14:00 or 18:00-02:00: it is kept, and counts as unknown until it is written as one of them.`
    expect(warnings).toEqual([[said], []])
  })

  test('bare hours in columns of days German names ("Mo-Fr", "Sa") are read as written too', () => {
    const sheet = (days: string, hours: string) => {
      const path = join(dir, 'filialen.csv')
      writeFileSync(
        path,
        `Filialnummer;Name;Adresse;Breitengrad;Längengrad;${days}\r\nS0;Bäckerei;Königsallee 1, 40213 Düsseldorf;51,2254;6,7763;${hours}\r\n`,
      )
      return path
    }
    const de = storeloc(
      'locations',
      'import',
      locatorId,
      '--file',
      sheet('Mo-Fr;Sa;So', '5-11:30;5-12;zu'),
      '--dry-run',
    )
    expect(de.stdout).toContain('Längengrad as lng, Mo-Fr as monday-friday, Sa as saturday, So as sunday.')
    expect(de.stdout).not.toContain('could be')
    json('locations', 'import', locatorId, '--file', sheet('Mo-Fr;Sa;So', '5-11:30;5-12;zu'))
    expect(json('locations', 'export', locatorId)[0].hours).toEqual(
      week([...Array(5).fill('05:00-11:30'), '5-12', 'zu']),
    )
    const us = storeloc(
      'locations',
      'import',
      locatorId,
      '--file',
      sheet('Mon-Fri;Sat;Sun', '5-11:30;5-12;closed'),
      '--dry-run',
    )
    expect(us.stdout).toContain(
      'Monday to Friday\'s hours "5-11:30" in the "Mon-Fri" column could be 05:00-11:30 or 17:00-23:30',
    )
  })

  test('bare hours in a column of one day German or French names ("Montag", "mercredi") are read as written too', () => {
    const sheet = (days: string, hours: string) => {
      const path = join(dir, 'filialen.csv')
      writeFileSync(
        path,
        `Filialnummer;Name;Adresse;Breitengrad;Längengrad;${days}\r\nS0;Bäckerei;Königsallee 1, 40213 Düsseldorf;51,2254;6,7763;${hours}\r\n`,
      )
      return path
    }
    const de = sheet('Montag;Dienstag;mercredi;Sonntag', '5-11:30;5-12;5-9;zu')
    expect(storeloc('locations', 'import', locatorId, '--file', de, '--dry-run').stdout).not.toContain('could be')
    json('locations', 'import', locatorId, '--file', de)
    const { hours, hours_unread } = json('locations', 'export', locatorId)[0]
    expect([hours.monday, hours.tuesday, hours.wednesday, hours.sunday, hours_unread]).toEqual([
      '05:00-11:30',
      '5-12',
      '05:00-09:00',
      'zu',
      [],
    ])
    const us = sheet('Monday;Tuesday', '5-11:30;5-12')
    expect(storeloc('locations', 'import', locatorId, '--file', us, '--dry-run').stdout).toContain(
      'Monday\'s hours "5-11:30" in the "Monday" column could be 05:00-11:30 or 17:00-23:30',
    )
  })

  test('Portuguese, Polish and Swedish days, and Belgian "9u-18u", are read', () => {
    const texts = [
      'Seg-Sex 9-18, Sáb 9-13',
      'Pn-Pt 9-17, So 9-13, Nd nieczynne',
      'Pn-Pt 9-17, zamknięte Sb-Nd',
      'Mån-Fre 10-18, Lör 10-15, Sön stängd',
      'ma-vr 9u-18u, za 9u-12u',
    ]
    const path = sheetOf(texts, 'Laden')
    const r = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect([r.code, r.stderr, r.stdout.split('\n')[1]]).toEqual([
      0,
      '',
      'Columns read: Filialnummer as external_id, Name, Adresse as address, Breitengrad as lat, Längengrad as lng, Öffnungszeiten as hours.',
    ])
    const { hours, warnings } = imported(texts)
    expect(warnings).toEqual([[], [], [], [], []])
    expect(hours.map((h) => [h.hours.friday, h.hours.saturday, h.hours.sunday])).toEqual([
      ['9-18', '9-13', 'closed'],
      ['9-17', '9-13', 'nieczynne'],
      ['9-17', 'zamknięte', 'zamknięte'],
      ['10-18', '10-15', 'stängd'],
      ['9u-18u', '9u-12u', 'closed'],
    ])
  })

  test('a day named again with hours that read otherwise beside its first ones is refused, both readings said', () => {
    const texts = ['Mo-Fr 9-12, Mo 7-8', 'Mon-Fri 9-5, Mon 6-8', 'Mo-Fr 8-12, Mo/Di 2-5']
    const path = sheetOf(texts)
    const r = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain(
      '"Mo-Fr 9-12, Mo 7-8" could not be read as a week of opening hours: "Mo 7-8" beside "9-12" could be 07:00-08:00 or 19:00-20:00. Write it with the 24-hour clock or am and pm.',
    )
    expect(r.stderr).toContain('"Mon 6-8" beside "9-5" could be 06:00-08:00 or 18:00-20:00.')
    expect(r.stderr).toContain('"Mo/Di 2-5" beside "8-12" could be 02:00-05:00 or 14:00-17:00.')
    // Written with the clock, it is read: Monday opens early too.
    const { hours, warnings } = imported(['Mo-Fr 9-12, Mo 07:00-08:00', 'Mon-Fri 9-5, Mon 6-8pm'])
    expect(warnings).toEqual([[], []])
    expect(hours.map((h) => h.hours.monday)).toEqual(['07:00-08:00, 9-12', '9-5, 6-8pm'])
  })

  test('closed days, a half day or a season closed alone are refused, saying what to write', () => {
    const texts = [
      'Closed Mondays',
      'Mi nachmittag geschlossen',
      'Mo-Fr 9-18 (im Winter geschlossen)',
      '(im Winter geschlossen)',
      'M-F 9-12 u 1-5',
      'Ma-Sa 9h-19h',
    ]
    const path = sheetOf(texts)
    const r = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain(
      '"Closed Mondays" could not be read as a week of opening hours: it names closed days alone, and no hours for the others. Name the days it opens with their hours too, such as "Closed Mondays, Tue-Sun 09:00-18:00".',
    )
    // A season beside a week's hours is refused as one alone: the hours are not every week's.
    for (const cell of ['(im Winter geschlossen)', 'Mo-Fr 9-18 (im Winter geschlossen)'])
      expect(r.stderr).toContain(
        `"${cell}" could not be read as a week of opening hours: its "Winter" is a season, not read: a week's hours are every week's. Write the hours it opens now, such as ${cell.startsWith('(') ? '"Mon-Fri 09:00-18:00"' : '"Mo-Fr 9-18"'}, and change them when the season changes, or write the dates they differ on as special dates (special_hours); give it the status draft while it is closed.`,
      )
    expect(r.stderr).toContain(
      '"M-F 9-12 u 1-5" could not be read as a week of opening hours: its "u" between hours could be German "und" or Sunday. Write "u." or "and" between hours, or "Sun" for Sunday.',
    )
    expect(r.stderr).toContain(
      '"Ma-Sa 9h-19h" could not be read as a week of opening hours: its "Ma" could be Monday (maandag) or Tuesday (mardi, martes, martedì). Write the day\'s name in full: "maandag", "mardi" or "martes".',
    )
    expect(r.stderr).toContain(
      '"Mi nachmittag geschlossen" gives no day open hours, so every day would be closed or unknown. Name the days it opens with their hours first, such as "Mo-Fr 09:00-12:30, 14:00-18:00, Mi afternoon closed".',
    )
  })

  test("a day named only in another language than the cell's other days refuses the cell, saying which", () => {
    const texts = [
      'Mo-Fr 9-18, Sa 9-13, Sex 9-12',
      'Mon-Fri 9-5, Sat 10-2, man 24/7',
      'SB 24h, Mo-Fr 9-18',
      'Di, Do 9-18, Sabato 9-12',
    ]
    const r = storeloc('locations', 'import', locatorId, '--file', sheetOf(texts), '--dry-run')
    expect(r.code).not.toBe(0)
    const refused = (text: string, why: string) =>
      `${JSON.stringify(text)} could not be read as a week of opening hours: ${why} Write every day in one language.`
    expect(r.stderr).toContain(
      refused(texts[0]!, 'its "Sex" is Friday only in Portuguese, and its other days are English or German.'),
    )
    expect(r.stderr).toContain(
      refused(texts[1]!, 'its "man" is Monday only in Swedish or Danish or Norwegian, and its other days are English.'),
    )
    expect(r.stderr).toContain(
      refused(texts[2]!, 'its "SB" is Saturday only in Polish, and its other days are English or German.'),
    )
    // Beside a name in full, "Di" read as Sunday is French alone ("Sabato" reads "Do" as domenica).
    expect(r.stderr).toContain(
      refused(texts[3]!, 'its "Di" is Sunday only in French, and its other days are Spanish or Italian.'),
    )
  })

  test('a day named again adds hours apart from its first ones, and replaces hours that overlap them', () => {
    const { hours, warnings } = imported(['Mo-Fr 8-12 Uhr, Mo/Di/Do 14-17 Uhr', 'Mo-Sa 9-18, Sa 9-13'])
    expect(warnings).toEqual([[], []])
    const both = '8-12 Uhr, 14-17 Uhr'
    expect(hours[0]!.hours).toEqual(week([both, both, '8-12 Uhr', both, '8-12 Uhr', 'closed', 'closed']))
    expect(hours[1]!.hours).toEqual(week([...Array(5).fill('9-18'), '9-13', 'closed']))
  })

  test('"Weekday 9-5" is Monday to Friday, as "Weekdays 9-5" is', () => {
    const { hours, warnings } = imported(['Weekday 9-5, Sat 10-2', 'Weekdays 9-5, Sat 10-2'])
    expect(warnings).toEqual([[], []])
    for (const h of hours) expect(h.hours).toEqual(week([...Array(5).fill('9-5'), '10-2', 'closed']))
  })
})

describe('a day of only a dash', () => {
  /** A sheet of the day columns `days` (";" apart), a row per line of `rows`; its path. */
  function columns(days: string, rows: string[]): string {
    const lines = rows.map((r, i) => `S${i};Radhaus ${i};Königsallee ${i + 1}, 40213 Düsseldorf;51,2254;6,7763;${r}`)
    const path = join(dir, 'filialen.csv')
    writeFileSync(path, `Filialnummer;Name;Adresse;Breitengrad;Längengrad;${days}\r\n${lines.join('\r\n')}\r\n`)
    return path
  }
  const exported = () =>
    new Map<string, Imported>(json('locations', 'export', locatorId).map((l: Imported) => [l.external_id, l] as const))

  test('is closed beside a day of open hours, as back-office exports write a day closed', () => {
    const { hours, warnings } = imported(['Mo-Fr 9-18, Sa 9-13, So -', 'Mon-Fri 9-5, Sat –, Sun —'])
    expect(warnings).toEqual([[], []])
    expect(hours[0]!.hours).toEqual(week([...Array(5).fill('9-18'), '9-13', 'closed']))
    expect(hours[1]!.hours).toEqual(week([...Array(5).fill('9-5'), 'closed', 'closed']))
    expect(hours.map((h) => h.hours_unread)).toEqual([[], []])
    const days = 'Montag;Dienstag;Mittwoch;Donnerstag;Freitag;Samstag;Sonntag'
    json('locations', 'import', locatorId, '--file', columns(days, ['9-18;9-18;-;9-18;9-18;9-13;—']))
    expect(exported().get('S0')!.hours).toEqual(week(['9-18', '9-18', 'closed', '9-18', '9-18', '9-13', 'closed']))
    json('locations', 'import', locatorId, '--file', columns('Mo-Fr;Sa;So', ['9-18;-;–']))
    expect(exported().get('S0')!.hours).toEqual(week([...Array(5).fill('9-18'), 'closed', 'closed']))
  })

  test('is kept unread beside no open hours: the row says nothing of them', () => {
    const days = 'Montag;Dienstag;Mittwoch;Donnerstag;Freitag;Samstag;Sonntag'
    json('locations', 'import', locatorId, '--file', columns(days, ['-;-;-;-;-;-;-']))
    expect(exported().get('S0')!.hours_unread).toEqual(DAYS)
    const { hours } = imported(['So -'])
    expect(hours[0]!.hours.sunday).toBe('-')
    expect(hours[0]!.hours_unread).toEqual(['sunday'])
  })
})

describe('a week cell that gives no hours', () => {
  test('"-", "n/a" and "k.A." are read as an empty cell: every day unknown, said, the row imported', () => {
    const { hours, warnings } = imported(['-', 'n/a', 'k.A.', '—'])
    expect(hours.map((h) => h.hours)).toEqual(Array(4).fill(week(Array(7).fill(''))))
    for (const [i, text] of ['-', 'n/a', 'k.A.', '—'].entries())
      expect(warnings[i]).toEqual([
        `The hours ${JSON.stringify(text)} give none, so every day's hours are unknown (as an empty cell's). Write the days it opens with their hours, such as "Mon-Fri 09:00-18:00", or "closed" for a store closed every day.`,
      ])
  })
})

describe('"sonst", "otherwise": the days a week names no hours for', () => {
  test('take the hours after the word; the days named keep theirs', () => {
    const { hours, warnings } = imported([
      'Mi Ruhetag, sonst 11-22',
      'Sun closed, otherwise 9-5',
      'Mo 14-18 Uhr, sonst 9-18 Uhr',
    ])
    expect(warnings).toEqual([[], [], []])
    expect(hours[0]!.hours).toEqual(week(['11-22', '11-22', 'Ruhetag', '11-22', '11-22', '11-22', '11-22']))
    expect(hours[1]!.hours).toEqual(week([...Array(6).fill('9-5'), 'closed']))
    expect(hours[2]!.hours).toEqual(week(['14-18 Uhr', ...Array(6).fill('9-18 Uhr')]))
  })

  test('hours after it that are not read refuse the row, closing no day', () => {
    const path = sheetOf(['Mi Ruhetag, sonst nach Absprache'])
    const r = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect(r.stdout + r.stderr).toContain('"sonst"')
    expect(json('locations', 'export', locatorId)).toEqual([])
  })
})

describe('the summary', () => {
  test("a row's days of one unread text are one line; a warning many rows share is one line", () => {
    const texts = ['Mo-Fr auf Zuruf, Sa 10-14', 'Mo-Fr auf Zuruf, Sa 10-14', 'Mo-Fr auf Zuruf, Sa 10-14']
    const rows = [...texts, 'Mo-Mi 9-18, Do-Fr ab 14, Sa 10-14'].map(
      (t, i) => `S${i};Radhaus ${i};Königsallee ${i + 1}, 40213 Düsseldorf;51,2254;6,7763;${t}`,
    )
    const path = join(dir, 'filialen.csv')
    writeFileSync(path, `Filialnummer;Name;Adresse;Breitengrad;Längengrad;Öffnungszeiten\r\n${rows.join('\r\n')}\r\n`)
    const r = storeloc('locations', 'import', locatorId, '--file', path, '--dry-run')
    expect(r.code).toBe(0)
    const said =
      'could not be read as opening hours: it is kept, and counts as unknown (docs/management-api.md, Opening hours).'
    expect(r.stdout.split('\n').slice(1, 4)).toEqual([
      'Check 4 locations:',
      `  3 rows (line 2, line 3, line 4): Monday to Friday's hours "auf Zuruf" in the "Öffnungszeiten" column ${said}`,
      `  line 5 (external_id "S3"): Thursday and Friday's hours "ab 14" in the "Öffnungszeiten" column ${said}`,
    ])
  })
})
