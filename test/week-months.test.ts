// Week cells that name months, holidays alone, or a day again with a text not read: each read
// into its days' hours, or refused with a message that quotes what it does not read.
import { describe, expect, test } from 'bun:test'
import { splitWeekHours } from '../src/core/week-hours'
import { readLocationsCsv } from '../src/locations/csv'
import { noDayNote, weekInto, weekRead } from '../src/locations/csv-week'
import { testCells } from './week-cells-table'

/** The message a week cell is refused with, or null when it is read. */
function refusal(cell: string): string | null {
  const problems = weekInto({}, cell)
  return problems.length === 0 ? null : problems[0]!.message
}

test('a month range is no day: the cell is in doubt, the season said', () => {
  for (const cell of [
    'Mo-Fr 9-18 (Apr-Sep)',
    'Mon-Fri 9-5, Jan-Mar closed',
    'Mo-Fr 9-18 (Jan-Mär)',
    'Lun-Vie 9-14 (ene-mar)',
    'lun-ven 9h-19h, fermé de janvier à mars',
    'ma-vr 9-18 (okt t/m mrt)',
    'mån-fre 10-18, jun-aug 10-16',
  ]) {
    const message = refusal(cell)
    expect(message, cell).toContain('is a season, not read')
    expect(message, cell).toContain('special_hours')
    expect(message, cell).not.toContain('Tuesday')
  }
})

test('a day of the month is no day of the week', () => {
  expect(refusal('Mon-Fri 9-18, 15 Mar closed')).toContain('its "15 Mar" is a date')
  // Spanish "mar" beside Spanish days, after hours or not, is still Tuesday.
  expect(splitWeekHours('Lun-Sáb 9-14, Mar 10-13')).toEqual(['9-14', '10-13', '9-14', '9-14', '9-14', '9-14', ''])
  expect(splitWeekHours('Lun-Vie 9-18 mar 10-13')).toEqual(['9-18', '10-13', '9-18', '9-18', '9-18', '', ''])
})

test('a day given its hours, then a text of it not read, is in doubt', () => {
  const span = refusal('Mo-Sa 9-18, Sa bei Heimspielen geschlossen')
  expect(span).toContain('"Mo-Sa 9-18" and "Sa bei Heimspielen geschlossen"')
  const alone = refusal('Sa 9-13, Sa nach Vereinbarung')
  expect(alone).toContain('"Sa 9-13" and "Sa nach Vereinbarung"')
  // A half of the day closed, or a closing alone, still reads beside the span's hours.
  expect(refusal('Mo-Fr 9-12.30 u. 14-18, Mi nachmittag geschlossen')).toBeNull()
  expect(refusal('Mon-Fri 9-5, Thu till 8')).toBeNull()
})

test('holidays alone leave the days unset and say where they go', () => {
  for (const cell of ['Feiertage geschlossen', 'bank holidays closed']) {
    const body: { hours?: Record<string, string> } = {}
    const read = weekRead(body, cell)
    expect(read, cell).toEqual({ problems: [], holidaysAlone: true })
    expect(body.hours ?? {}, cell).toEqual({})
    expect(noDayNote(body, cell, read.holidaysAlone), cell).toContain(
      'public holidays as special dates (special_hours)',
    )
  }
})

test('"an Feiertagen", "on holidays" after a day\'s hours are the holidays\' clause', () => {
  const week = ['9-18', '9-18', '9-18', '9-18', '9-18', '9-13', '']
  expect(splitWeekHours('Mo-Fr 9-18, Sa 9-13 und an Feiertagen geschlossen')).toEqual(week)
  expect(splitWeekHours('Mon-Fri 9-18, Sat 9-13 and on holidays closed')).toEqual(week)
  expect(splitWeekHours('lun-ven 9-18, sam 9-13 et les jours fériés fermé')).toEqual(week)
  expect(splitWeekHours('ma-vr 9-18, za 9-13 en op feestdagen gesloten')).toEqual(week)
})

test("a word for and ending the cell is no day's text", () => {
  const week = ['9-5', '9-5', '9-5', '9-5', '9-5', '', '']
  expect(splitWeekHours('Mon-Fri 9-5 &')).toEqual(week)
  expect(splitWeekHours('Mon-Fri 9-5 and')).toEqual(week)
  expect(splitWeekHours('Mo-Fr 9-5 und')).toEqual(week)
})

test('an import of a week cell of holidays alone keeps its day columns and warns', () => {
  const { rows } = readLocationsCsv(
    'name,address,hours,monday\nA,"Hauptstr. 1, 10115 Berlin, DE",Feiertage geschlossen,9-18\n',
  )
  expect(rows[0]!.body.hours).toEqual({ monday: '9-18' })
  expect(rows[0]!.notes.join(' ')).toContain('public holidays as special dates (special_hours)')
})

test('a bare "Mar" beside English days, or "Mär", "Mrz", is March: the cell is in doubt', () => {
  for (const cell of [
    'Mon-Fri 9-5, Mar closed',
    'Mon-Fri 9-5; Mar: closed',
    'Mon-Fri 9-5, Mär closed',
    'Mo-Fr 9-18, Mrz geschlossen',
  ]) {
    const message = refusal(cell)
    expect(message, cell).toContain('is a season, not read')
    expect(message, cell).not.toContain('Tuesday')
  }
  // Beside French or Spanish days, "mar" alone is still Tuesday.
  expect(splitWeekHours('lun-sam 9-19, mar fermé')).toEqual(['9-19', 'fermé', '9-19', '9-19', '9-19', '9-19', ''])
  expect(splitWeekHours('Lun-Sáb 9-14, Mar 10-13')).toEqual(['9-14', '10-13', '9-14', '9-14', '9-14', '9-14', ''])
})

test('German "am" before holidays is no a.m.: the holidays\' clause is in doubt as "an"', () => {
  expect(refusal('Mo-Fr 9-18, So 10-12 am Feiertag')).toContain('its "am" before "Feiertag" is not read')
  expect(refusal('So 10-12 am Feiertag geschlossen')).toContain('its "am" before "Feiertag" is not read')
  expect(splitWeekHours('Mo-Fr 9-18, So 10-12 am Feiertag')).toBeNull()
  // A day given its hours before, "am Feiertag" after them is the holidays' alone; "10-12 am" alone is a.m.
  expect(splitWeekHours('So 10-16, So 10-12 am Feiertag')).toEqual(['', '', '', '', '', '', '10-16'])
  expect(splitWeekHours('Sun 10-12 am')).toEqual(['', '', '', '', '', '', '10-12 am'])
})

test('a month named alone, in the languages read, is a season: the cell is in doubt', () => {
  for (const [cell, month] of [
    ['Mon-Fri 9-5, March closed', 'March'],
    ['Mon-Fri 9-5 (August)', 'August'],
    ['Mo-Sa 9-18, Sa im August geschlossen', 'August'],
    ['Mon-Sat 9-5, Sun 12-5, Sun closed in January', 'January'],
    ['Mo-Fr 9-18, Januar geschlossen', 'Januar'],
    ['lun-ven 9h-19h, fermé en août', 'août'],
    ['Lun-Vie 9-14, agosto cerrado', 'agosto'],
    ['lun-ven 9-18, agosto chiuso', 'agosto'],
    ['ma-vr 9-18, juli gesloten', 'juli'],
    ['mån-fre 10-18, juli stängt', 'juli'],
    ['man-fre 10-18, juli lukket', 'juli'],
    ['seg-sex 9-18, agosto fechado', 'agosto'],
    ['pn-pt 9-17, sierpień nieczynne', 'sierpień'],
    ['Mon-Fri 9-5, Aug closed', 'Aug'],
    ['Mon-Fri 9-5. Closed in August', 'August'],
    ['lun-sab 9-19 (chiuso per ferie ad agosto)', 'agosto'],
    ['lun-ven 9h-19h, fermé en mai', 'mai'],
  ]) {
    const message = refusal(cell!)
    expect(message, cell).toContain(`its "${month}" is a season, not read`)
    expect(message, cell).toContain('special_hours')
  }
  // "may" is no month alone: "hours may vary" is no season.
  expect(refusal('Mon-Fri 9-5 (hours may vary)')).toBeNull()
})

test('a day of a month named in full is a date', () => {
  expect(refusal('Mon-Fri 9-5, 24 December closed')).toContain('its "24 December" is a date')
  expect(refusal('Mo-Fr 9-18, 24. Dezember geschlossen')).toContain('its "24. Dezember" is a date')
  expect(refusal('Mon-Fri 9-5, closed December 25')).toContain('its "December 25" is a date')
  // Hours before a month are no day of it.
  expect(refusal('Mon-Fri 9-5 August')).toContain('its "August" is a season')
})

test('a season named, in the languages read, is refused as a range of months is', () => {
  for (const [cell, season] of [
    ['Mo-Fr 9-18 (Sommer)', 'Sommer'],
    ['Mon-Fri 9-5 (summer)', 'summer'],
    ['Mon-Fri 9-5, winter closed', 'winter'],
    ['lun-ven 9h-19h (été)', 'été'],
    ['lun-sam 9h-19h, fermé en hiver', 'hiver'],
    ['Lun-Vie 9-14 (verano)', 'verano'],
    ['lun-ven 9-18 (estate)', 'estate'],
    ['lun-ven 9-18, inverno chiuso', 'inverno'],
    ['ma-vr 9-18 (zomer)', 'zomer'],
    ['mån-fre 10-18 (sommar)', 'sommar'],
    ['man-fre 10-18, vinter lukket', 'vinter'],
    ['seg-sex 9-18 (verão)', 'verão'],
    ['pn-pt 9-17 (zimą)', 'zimą'],
    ['pn-pt 9-17 (lato)', 'lato'],
    ['pn-pt 9-17, latem nieczynne', 'latem'],
    ['Mon-Sat 9-5 (Sunday: closed in summer)', 'summer'],
    ['Mon-Fri 9-5, closed for the summer', 'summer'],
  ]) {
    const message = refusal(cell!)
    expect(message, cell).toContain(`its "${season}" is a season, not read`)
    expect(message, cell).toContain('status draft')
  }
})

// A season's hours are that season's: the message gives the cell less its season, to write as the hours now.
test("a season's refusal gives its hours less the season, to write as the hours it opens now", () => {
  for (const [cell, such] of [
    ['Mon-Fri 9-5 (Winter)', '"Mon-Fri 9-5"'],
    ['Mon-Fri 9-5 (Jan)', '"Mon-Fri 9-5"'],
    ['Mon-Fri 9-5 (Winter), Sat 10-2', '"Mon-Fri 9-5, Sat 10-2"'],
    ['Mo-Fr 9-18 (im Winter geschlossen)', '"Mo-Fr 9-18"'],
    ['Mon-Fri 9-5, Jan-Mar closed', '"Mon-Fri 9-5"'],
    ['Summer: Mon-Sun 9-9; Winter: Mon-Sun 9-6', '"Mon-Sun 9-9" or "Mon-Sun 9-6"'],
    // A clause of no season is every season's: it stays in each ("Sun 10-4" is Sunday's all year).
    ['Summer: Mon-Sat 9-7; Winter: Mon-Sat 9-5; Sun 10-4', '"Mon-Sat 9-7; Sun 10-4" or "Mon-Sat 9-5; Sun 10-4"'],
    [
      'Sommer: Mo-Sa 9-20 | Winter: Mo-Sa 9-18 | So geschlossen',
      '"Mo-Sa 9-20; So geschlossen" or "Mo-Sa 9-18; So geschlossen"',
    ],
    // Seasons apart by commas, each leading its days: each season's parts, those before the first every season's.
    ['Summer: Mon-Fri 9-18, Winter: Mon-Fri 10-17', '"Mon-Fri 9-18" or "Mon-Fri 10-17"'],
    [
      'Summer: Mon-Fri 9-18, Sat 10-14, Winter: Mon-Fri 10-17, Sat closed',
      '"Mon-Fri 9-18, Sat 10-14" or "Mon-Fri 10-17, Sat closed"',
    ],
    [
      'Sun closed, Summer: Mon-Sat 9-18, Winter: Mon-Sat 10-17',
      '"Sun closed, Mon-Sat 9-18" or "Sun closed, Mon-Sat 10-17"',
    ],
    [
      'Sommer: Mo-Fr 9-18, Winter: Mo-Fr 10-17; So geschlossen',
      '"Mo-Fr 9-18; So geschlossen" or "Mo-Fr 10-17; So geschlossen"',
    ],
    ['Verano: Lun a Vie 9-20, Invierno: Lun a Vie 9-18', '"Lun a Vie 9-20" or "Lun a Vie 9-18"'],
    // A part after the last season naming days no other season does may be every season's: not guessed.
    // The form alone names its days as the cell does.
    ['Summer: Sat 10-14, Winter: Sat closed, Mon-Fri 9-18', '"Mon-Fri 09:00-18:00"'],
    ['Sommer: Sa 9-16, Winter: Sa 9-13, Mo-Fr 8-18', '"Mo-Fr 09:00-18:00"'],
    // A season's hours without days, or two seasons' in one clause, are not taken apart: the form alone.
    ['mån-fre 10-18, jun-aug 10-16', '"Mån-Fre 09:00-18:00"'],
    ['Mon-Sat 9-6 (Summer), Mon-Sat 9-5 (Winter)', '"Mon-Fri 09:00-18:00"'],
    ['(im Winter geschlossen)', '"Mon-Fri 09:00-18:00"'],
  ]) {
    const message = refusal(cell!)
    expect(message, cell).toContain(
      `Write the hours it opens now, such as ${such}, and change them when the season changes`,
    )
  }
})

test('an import of a week cell naming a season writes no hours for its line', () => {
  const { rows } = readLocationsCsv('name,address,hours\nA,"Hauptstr. 1, 10115 Berlin, DE",Mo-Fr 9-18 (Sommer)\n')
  expect(rows[0]!.body.hours).toBeUndefined()
  expect(rows[0]!.problems.map((p) => p.message).join(' ')).toContain('its "Sommer" is a season, not read')
})

// A month or season beside words of no part of the year is a name, a street, a word of another
// language: the cell reads as it would without it, its note kept on its days ("?").
describe('a month or season in a name, a street or another language is no season', () => {
  testCells([
    ['Mon-Fri 9-5, Sat 10-2 (ask for August)', '1-5 09:00-17:00; 6 ?'],
    ['Mo-Fr 9-18, Sa 9-13 (Ansprechpartner: Jan Müller)', '1-5 09:00-18:00; 6 ?'],
    ['Mon-Sat 9-5:30, Sun 10-4 (Summer Street entrance)', '1-6 09:00-17:30; 7 ?'],
    ['Mon-Fri 9-5 (Winter Garden level 2)', '1-5 ?'],
    ['Mon-Fri 9-5, Sat 10-2 - Estate Road', '1-5 09:00-17:00; 6 ?'],
    ['Mon-Fri 9-5 (Estate office)', '1-5 ?'],
    ['Mo-Fr 9-18 (August-Bebel-Str. 5)', '1-5 ?'],
    ['Mo-Fr 9-18, Sa 9-13 (Mai-Center)', '1-5 09:00-18:00; 6 ?'],
    ['lun-ven 9-18 (ingresso lato strada)', '1-5 ?'], // Italian side
    ['Lun-Vie 9-14, Sáb 10-14 (tienda oficial de la marca)', '1-5 09:00-14:00; 6 ?'], // Spanish brand
    ['lun-sab 9-19, mai chiuso', '1-6 ?'], // Italian never
    ['lun-ven 9-18 (piazza 25 Aprile)', '1-5 ?'],
    ['lun-ven 9h-19h (rue du 8 Mai)', '1-5 ?'],
    ['pn-pt 9-17, sob 9-13 (ul. Lipca 3)', '1-5 09:00-17:00; 6 ?'],
    ['pn-pt 9-17 (al. 29 Listopada)', '1-5 ?'],
  ])
})
