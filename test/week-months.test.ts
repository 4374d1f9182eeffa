// Week cells that name months, holidays alone, or a day again with a text not read: each read
// into its days' hours, or refused with a message that quotes what it does not read.
import { expect, test } from 'bun:test'
import { splitWeekHours } from '../src/core/week-hours'
import { readLocationsCsv } from '../src/locations/csv'
import { noDayNote, weekInto } from '../src/locations/csv-week'

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
  const span = refusal('Mo-Sa 9-18, Sa im August geschlossen')
  expect(span).toContain('"Mo-Sa 9-18" and "Sa im August geschlossen"')
  const alone = refusal('Sa 9-13, Sa nach Vereinbarung')
  expect(alone).toContain('"Sa 9-13" and "Sa nach Vereinbarung"')
  // A half of the day closed, or a closing alone, still reads beside the span's hours.
  expect(refusal('Mo-Fr 9-12.30 u. 14-18, Mi nachmittag geschlossen')).toBeNull()
  expect(refusal('Mon-Fri 9-5, Thu till 8')).toBeNull()
})

test('holidays alone leave the days unset and say where they go', () => {
  for (const cell of ['Feiertage geschlossen', 'bank holidays closed']) {
    const body: { hours?: Record<string, string> } = {}
    expect(weekInto(body, cell), cell).toEqual([])
    expect(body.hours ?? {}, cell).toEqual({})
    expect(noDayNote(body, cell), cell).toContain('public holidays as special dates (special_hours)')
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
