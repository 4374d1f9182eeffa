// Opening hours as people write them, and whether a location is open at an instant: injected
// instants around the DST changes of Europe and the US, midnight crossings, dated exceptions and
// unreadable text; and a property test against a minute-by-minute scan of the wall clock.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { type DayHours, eitherHalf, isClockHours, parseDayHours } from '../src/core/hours'
import { isoWithOffset, openState, type Schedule } from '../src/core/opening'
import { openStateOn, ZoneClock } from '../src/core/zone-clock'

const open = (...intervals: [number, number][]): DayHours => ({ kind: 'open', intervals })
const h = (hour: number, minute = 0) => hour * 60 + minute
const CLOSED: DayHours = { kind: 'closed' }
const UNKNOWN: DayHours = { kind: 'unknown' }

describe('parseDayHours', () => {
  const cases: [string, DayHours][] = [
    ['09:00-17:00', open([h(9), h(17)])],
    ['9am-5pm', open([h(9), h(17)])],
    ['9 a.m. – 5 p.m.', open([h(9), h(17)])],
    ['9:00 – 17:30', open([h(9), h(17, 30)])],
    ['09:00-12:00, 13:00-18:00', open([h(9), h(12)], [h(13), h(18)])],
    ['13:00-18:00; 09:00-12:00', open([h(9), h(12)], [h(13), h(18)])],
    ['09:00-13:00, 12:00-18:00', open([h(9), h(18)])],
    ['18:00-02:00', open([h(18), h(26)])],
    ['22:00 - 06:00', open([h(22), h(30)])],
    ['9-5', open([h(9), h(17)])],
    ['10-2', open([h(10), h(14)])],
    // An end with a leading zero is the 24-hour clock's: past midnight, not the afternoon.
    ['10:00-02:00', open([h(10), h(26)])],
    ['09:00-01:30', open([h(9), h(25, 30)])],
    ['10:00-2:00', open([h(10), h(14)])],
    ['1-5pm', open([h(13), h(17)])],
    // Hours with no half of the day said, written before the day's first: its afternoon.
    ['9-12, 1-5', open([h(9), h(12)], [h(13), h(17)])],
    ['8-12 1:30-5', open([h(8), h(12)], [h(13, 30), h(17)])],
    ['12-2, 5-9', open([h(12), h(14)], [h(17), h(21)])],
    ['10-2, 3-6', open([h(10), h(14)], [h(15), h(18)])],
    ['13-18, 9-12', open([h(9), h(12)], [h(13), h(18)])],
    ['18-2, 3-5', open([h(3), h(5)], [h(18), h(26)])],
    ['22:00-02:00, 03:00-05:00', open([h(3), h(5)], [h(22), h(26)])],
    // Apart by a space alone, hours that overlap are no one day's two ("9-18 10-14": weekdays and Saturday?).
    ['9-18 10-14', UNKNOWN],
    ['9-5pm', open([h(9), h(17)])],
    ['11am-2:30pm & 5pm-10pm', open([h(11), h(14, 30)], [h(17), h(22)])],
    ['noon - midnight', open([h(12), h(24)])],
    ['12 noon-6', open([h(12), h(18)])],
    ['12 noon - 12 midnight', open([h(12), h(24)])],
    // An end with no half of the day said, after a start that says it, before that start: 12 hours on.
    ['noon-6', open([h(12), h(18)])],
    // A bare 0 closing is the 24-hour clock's midnight, not noon; after a bare hour before 07:00, in doubt.
    ['9-0', open([h(9), h(24)])],
    ['06:00-0', open([h(6), h(24)])],
    ['6-0', UNKNOWN],
    ['9pm-0', open([h(21), h(24)])],
    ['09:00-10pm', open([h(9), h(22)])], // a start of the 24-hour clock is not moved to the evening
    // Hour 0 is only the 24-hour clock's: "0:30" after 9 is past midnight, "0" before 5pm is midnight.
    ['9-0:30', open([h(9), h(24, 30)])],
    ['22-0.30', open([h(22), h(24, 30)])],
    ['6-0:30', UNKNOWN],
    ['0-5pm', open([h(0), h(17)])],
    ['0:30-5pm', open([h(0, 30), h(17)])],
    ['8pm-11', open([h(20), h(23)])],
    ['9am-5', open([h(9), h(17)])],
    ['6pm-2', open([h(18), h(26)])],
    ['12pm-12am', open([h(12), h(24)])],
    // Colombia's noon, "12 m.", closing a range after a time.
    ['de 8 a.m. a 12 m.', open([h(8), h(12)])],
    ['8:00 a.m. - 12:00 m. y 2 p.m. - 6 p.m.', open([h(8), h(12)], [h(14), h(18)])],
    ['de 8 a.m. hasta 12 m.', open([h(8), h(12)])],
    // And opening one.
    ['12 m. a 2 p.m.', open([h(12), h(14)])],
    ['de 12 m. a 6 p.m.', open([h(12), h(18)])],
    // And undotted, glued to its 12.
    ['8-12m', open([h(8), h(12)])],
    ['12m-6pm', open([h(12), h(18)])],
    // Seconds as databases and spreadsheets export them, dotted too; 23:59:59 ends the day.
    ['00:00:00-23:59:59', open([0, h(24)])],
    ['9.00.00-18.00.00', open([h(9), h(18)])],
    ['08:30:00 - 12:29:59', open([h(8, 30), h(12, 30)])],
    // 59 seconds end a closing's minute only: an opening is its minute.
    ['9:00:59-17:00', open([h(9), h(17)])],
    ['23:59:59-06:00', open([h(23, 59), h(30)])],
    ['0900-1730', open([h(9), h(17, 30)])],
    ['10:00 to 18:00', open([h(10), h(18)])],
    ['closed', CLOSED],
    ['Closed.', CLOSED],
    ['24 hours', open([0, h(24)])],
    ['Open 24h', open([0, h(24)])],
    ['24/7', open([0, h(24)])],
    ['00:00-24:00', open([0, h(24)])],
    ['00:00-00:00', open([0, h(24)])],
    // A US mall's "10-10": morning to night, not no time at all.
    ['10-10', open([h(10), h(22)])],
    ['9-9', open([h(9), h(21)])],
    ['9am-5pm EST', open([h(9), h(17)])],
    ['10:00-18:00 CET', open([h(10), h(18)])],
    // German, French, Dutch, Italian, Spanish, Portuguese, Scandinavian and Finnish forms.
    ['9–18 Uhr', open([h(9), h(18)])],
    ['von 9 bis 18 Uhr', open([h(9), h(18)])],
    ['v. 9 - 18 Uhr', open([h(9), h(18)])],
    ['9.00 - 12.30 und 14.00 - 18.00 Uhr', open([h(9), h(12, 30)], [h(14), h(18)])],
    ['Geschlossen', CLOSED],
    ['Ruhetag', CLOSED],
    ['24 Stunden', open([0, h(24)])],
    ['24 Stunden geöffnet', open([0, h(24)])],
    ['24h ouvert', open([0, h(24)])],
    ['Temporarily closed', CLOSED],
    ['9h-12h, 14h-18h30', open([h(9), h(12)], [h(14), h(18, 30)])],
    ['de 9h à 19h', open([h(9), h(19)])],
    ['9h00 - 19h00', open([h(9), h(19)])],
    ['Fermé', CLOSED],
    // A dash between a day and its word for closed ("Mo - geschlossen"), as before hours ("- 9-18").
    ['- geschlossen', CLOSED],
    ['– chiuso', CLOSED],
    ['— Closed', CLOSED],
    ['van 9 tot 18 uur', open([h(9), h(18)])],
    // Belgian Dutch writes "u" as French writes "h": the 24-hour clock's, so "5u-9u" is the morning.
    ['9u-12u30, 13u30-18u', open([h(9), h(12, 30)], [h(13, 30), h(18)])],
    ['van 9u tot 18u', open([h(9), h(18)])],
    ['5u-9u', open([h(5), h(9)])],
    ['9.00 - 17.30', open([h(9), h(17, 30)])],
    ['Gesloten', CLOSED],
    ['zamknięte', CLOSED],
    ['nieczynne', CLOSED],
    ['stängd', CLOSED],
    ['dalle 9 alle 13 e dalle 15 alle 19', open([h(9), h(13)], [h(15), h(19)])],
    ['Chiuso', CLOSED],
    ['de 10:00 a 14:00 y de 17:00 a 21:00', open([h(10), h(14)], [h(17), h(21)])],
    ['Cerrado', CLOSED],
    ['das 9h às 19h', open([h(9), h(19)])],
    ['Fechado', CLOSED],
    ['kl. 10-18', open([h(10), h(18)])],
    ['od 9 do 17', open([h(9), h(17)])],
    ['od 8:00 do 16:30', open([h(8), h(16) + 30])],
    ['Stängt', CLOSED],
    ['Lukket', CLOSED],
    ['Stengt', CLOSED],
    // Danish and Norwegian "ø", which no accent is: read as the words written with "o".
    ['Døgnet rundt', open([0, h(24)])],
    ['døgnåbent', open([0, h(24)])],
    ['Suljettu', CLOSED],
    ['klo 10-18', open([h(10), h(18)])],
    ['geschl.', CLOSED],
    // A break after the day's hours is taken out of them.
    ['9-18, Mittagspause 13-14', open([h(9), h(13)], [h(14), h(18)])],
    ['09:00-18:00 (Mittagspause 13:00-14:00)', open([h(9), h(13)], [h(14), h(18)])],
    ['9am-6pm, lunch 12:30-1:30pm', open([h(9), h(12, 30)], [h(13, 30), h(18)])],
    ['9h-19h, pause déjeuner 12h-14h', open([h(9), h(12)], [h(14), h(19)])],
    ['9-19 pausa pranzo 13-15', open([h(9), h(13)], [h(15), h(19)])],
    // Bare hours that would open before 06:00 and close before noon: morning or evening? Not guessed.
    ['5-9', UNKNOWN],
    ['1-5', UNKNOWN],
    ['4:30-8', UNKNOWN],
    ['5-9pm', open([h(17), h(21)])],
    ['05:00-09:00', open([h(5), h(9)])],
    ['5-12', open([h(5), h(12)])],
    ['6-10', open([h(6), h(10)])],
    ['0-6', open([h(0), h(6)])],
    // Hours as the 24-hour clock writes them ("5h", "Uhr", "heures"): the morning's.
    ['5h-9h', open([h(5), h(9)])],
    ['5h30-11h30', open([h(5, 30), h(11, 30)])],
    ['5-9 Uhr', open([h(5), h(9)])],
    ['de 5 à 11 heures', open([h(5), h(11)])],
    ['5-9 hrs', UNKNOWN],
    // "hs", "hrs" joined to the hour read as apart ("9 a 18hs", as Argentina writes horas).
    ['9 a 18hs', open([h(9), h(18)])],
    // "24hs", as Spanish and Portuguese write 24 horas: open all day, as "24h" is.
    ['24hs', open([0, h(24)])],
    ['24 hs', open([0, h(24)])],
    ['Abierto 24hs', open([0, h(24)])],
    // The widget's Italian for round the clock, and French, Spanish and Italian forms of it.
    ['Aperto 24 ore su 24', open([0, h(24)])],
    ['ouvert 24h/24 7j/7', open([0, h(24)])],
    ['abierto las 24 horas', open([0, h(24)])],
    ['H24', open([0, h(24)])],
    ['9-18hrs', open([h(9), h(18)])],
    ['5-9hrs', UNKNOWN],
    // Read as the evening's, they would overlap the hours written after them, or follow them: the morning's.
    ['5-9, 15-18', open([h(5), h(9)], [h(15), h(18)])],
    ['5-9 und 16-20', open([h(5), h(9)], [h(16), h(20)])],
    ['5-9, 9:30-12', open([h(5), h(9)], [h(9, 30), h(12)])],
    ['5-9, 22-24', UNKNOWN],
    // A half of the day named beside its hours: the morning's read as they are, the afternoon's bare ones after noon.
    ['matin 9h-12h30', open([h(9), h(12, 30)])],
    ['vormittags 9-12', open([h(9), h(12)])],
    ['morning 7-11', open([h(7), h(11)])],
    ['nachmittags 2-6', open([h(14), h(18)])],
    ['afternoon 1-5', open([h(13), h(17)])],
    ['pomeriggio 15-19', open([h(15), h(19)])],
    ['por la mañana 10-14', open([h(10), h(14)])], // Spain's morning runs to 14:00 and past
    ['mañana 9:30-14:30', open([h(9, 30), h(14, 30)])],
    ['morning 9-5', UNKNOWN], // the afternoon's too: which is it?
    ['nachmittags 9-12', UNKNOWN],
    // Not read whole: unknown, never closed.
    ['', UNKNOWN],
    ['   ', UNKNOWN],
    ['by appointment', UNKNOWN],
    ['Mon-Fri 9-5', UNKNOWN],
    ['9:00-9:00', UNKNOWN],
    ['12-12', UNKNOWN],
    ['25:00-26:00', UNKNOWN],
    ['9:75-17:00', UNKNOWN],
    ['18:00-24:00:59', UNKNOWN], // no minute after 24:00
    ['9-17 except holidays', UNKNOWN],
    ['13pm-5pm', UNKNOWN],
    ['9-18, Mittagspause 19-20', UNKNOWN], // a break outside the hours
    ['Mittagspause 13-14', UNKNOWN], // a break alone
    ['9-18, Mittagspause', UNKNOWN],
  ]
  for (const [text, hours] of cases) test(JSON.stringify(text), () => expect(parseDayHours(text)).toEqual(hours))
  test('bare hours opening by 06:59 and closing before they open: 6 to 2 in the afternoon, or at night?', () => {
    // A diner's 6 am-2 pm, a bar's 6 pm-2 am, or 06:00-02:00 as the 24-hour clock writes it: not guessed.
    for (const text of ['6-2', '5-1', '6:30-2:30', '1-0:30'])
      expect({ text, day: parseDayHours(text) }).toEqual({ text, day: UNKNOWN })
    expect(eitherHalf('6-2')).toEqual(['06:00-02:00', '06:00-14:00', '18:00-02:00'])
    expect(eitherHalf('5-9')).toEqual(['05:00-09:00', '17:00-21:00'])
    // Said with the clock or am and pm, or opening from 07:00 ("9-5", "10-2"), they are read.
    expect(parseDayHours('6-2 Uhr')).toEqual(open([h(6), h(26)]))
    expect(parseDayHours('6am-2pm')).toEqual(open([h(6), h(14)]))
    expect(parseDayHours('6pm-2am')).toEqual(open([h(18), h(26)]))
    expect(parseDayHours('06:00-02:00')).toEqual(open([h(6), h(26)]))
    expect(parseDayHours('7-3')).toEqual(open([h(7), h(15)]))
  })

  test('null and undefined are unknown', () => {
    expect(parseDayHours(null)).toEqual(UNKNOWN)
    expect(parseDayHours(undefined)).toEqual(UNKNOWN)
  })
})

const week = (days: DayHours[], special: [string, DayHours][] = []): Schedule => ({
  week: days,
  special: new Map(special),
})
const every = (hours: DayHours) => week(Array.from({ length: 7 }, () => hours))
const at = (iso: string) => Date.parse(iso)
/** openState's open and next (until has properties of its own below). */
const openNext = (...args: Parameters<typeof openState>) => {
  const { open, next } = openState(...args)
  return { open, next }
}

describe('openState', () => {
  const nineToSix = week([...Array.from({ length: 6 }, () => open([h(9), h(18)])), CLOSED])

  test('open on a weekday, closing at its end; closed on Sunday, opening on Monday', () => {
    expect(openNext(nineToSix, 'Europe/Berlin', at('2026-06-15T08:00:00Z'))).toEqual({
      open: true,
      next: at('2026-06-15T16:00:00Z'),
    })
    expect(openNext(nineToSix, 'Europe/Berlin', at('2026-06-14T10:00:00Z'))).toEqual({
      open: false,
      next: at('2026-06-15T07:00:00Z'),
    })
    // At its closing minute it is closed.
    expect(openNext(nineToSix, 'Europe/Berlin', at('2026-06-15T16:00:00Z')).open).toBe(false)
  })

  test('an interval past midnight: open into the next day, closing then', () => {
    const late = week([CLOSED, CLOSED, CLOSED, CLOSED, open([h(18), h(26)]), CLOSED, CLOSED])
    // Saturday 2026-06-20 01:00 in London (BST) is 00:00Z.
    expect(openNext(late, 'Europe/London', at('2026-06-20T00:00:00Z'))).toEqual({
      open: true,
      next: at('2026-06-20T01:00:00Z'),
    })
    expect(openNext(late, 'Europe/London', at('2026-06-20T02:00:00Z'))).toEqual({
      open: false,
      next: at('2026-06-26T17:00:00Z'),
    })
  })

  test('a dated exception overrides its weekday, in the local date', () => {
    // Monday 2026-06-15 closed for a holiday; 2026-06-16 open late.
    const holiday = week(nineToSix.week as DayHours[], [
      ['2026-06-15', CLOSED],
      ['2026-06-16', open([h(12), h(22)])],
    ])
    expect(openNext(holiday, 'Europe/Berlin', at('2026-06-15T08:00:00Z'))).toEqual({
      open: false,
      next: at('2026-06-16T10:00:00Z'),
    })
    // 23:30 on the 14th in New York is the 15th in UTC: the 14th (a Sunday) it is, closed, and the 15th is not New York's holiday.
    const ny = week(nineToSix.week as DayHours[], [['2026-06-15', CLOSED]])
    expect(openNext(ny, 'America/New_York', at('2026-06-15T03:30:00Z'))).toEqual({
      open: false,
      next: at('2026-06-16T13:00:00Z'),
    })
  })

  test('text not read is unknown: no answer now, and no next change past it', () => {
    const unread = week([open([h(9), h(17)]), UNKNOWN, CLOSED, CLOSED, CLOSED, CLOSED, CLOSED])
    expect(openNext(unread, 'Europe/Paris', at('2026-06-16T10:00:00Z'))).toEqual({ open: null, next: null })
    // Monday, open: it closes at 17:00, a known change.
    expect(openNext(unread, 'Europe/Paris', at('2026-06-15T10:00:00Z'))).toEqual({
      open: true,
      next: at('2026-06-15T15:00:00Z'),
    })
    // Monday evening, closed: it next opens on a day whose text was not read, so when is not known.
    expect(openNext(unread, 'Europe/Paris', at('2026-06-15T20:00:00Z'))).toEqual({ open: false, next: null })
    expect(openNext(every(UNKNOWN), 'Europe/Paris', at('2026-06-15T20:00:00Z'))).toEqual({ open: null, next: null })
  })

  test('open round the clock, every day: open, with no change in sight', () => {
    expect(openNext(every(open([0, h(24)])), 'Asia/Tokyo', at('2026-06-15T20:00:00Z'))).toEqual({
      open: true,
      next: null,
    })
  })

  test('Europe, spring forward (Berlin, Sunday 2026-03-29, 02:00 -> 03:00)', () => {
    // Open Saturday 20:00 to Sunday 03:30: from 01:30 CET (00:30Z) it is one hour, not two, to 03:30 CEST (01:30Z).
    const saturdayNight = week([CLOSED, CLOSED, CLOSED, CLOSED, CLOSED, open([h(20), h(27, 30)]), CLOSED])
    expect(openNext(saturdayNight, 'Europe/Berlin', at('2026-03-29T00:30:00Z'))).toEqual({
      open: true,
      next: at('2026-03-29T01:30:00Z'),
    })
    // Opening at 02:30, a time the clocks skip: open from the jump, 03:00 CEST (01:00Z).
    const skipped = week([CLOSED, CLOSED, CLOSED, CLOSED, CLOSED, CLOSED, open([h(2, 30), h(12)])])
    expect(openNext(skipped, 'Europe/Berlin', at('2026-03-29T00:30:00Z'))).toEqual({
      open: false,
      next: at('2026-03-29T01:00:00Z'),
    })
    // A Sunday 09:00-18:00 is 07:00Z-16:00Z after the change, 08:00Z-17:00Z the Sunday before.
    const sunday = week([CLOSED, CLOSED, CLOSED, CLOSED, CLOSED, CLOSED, open([h(9), h(18)])])
    expect(openNext(sunday, 'Europe/Berlin', at('2026-03-28T12:00:00Z')).next).toBe(at('2026-03-29T07:00:00Z'))
    expect(openNext(sunday, 'Europe/Berlin', at('2026-03-22T12:00:00Z')).next).toBe(at('2026-03-22T17:00:00Z'))
  })

  test('Europe, fall back (Berlin, Sunday 2026-10-25, 03:00 -> 02:00)', () => {
    const saturdayNight = week([CLOSED, CLOSED, CLOSED, CLOSED, CLOSED, open([h(22), h(26, 30)]), CLOSED])
    // 01:00 CEST (23:00Z Saturday): it closes at the first 02:30, CEST (00:30Z).
    expect(openNext(saturdayNight, 'Europe/Berlin', at('2026-10-24T23:00:00Z'))).toEqual({
      open: true,
      next: at('2026-10-25T00:30:00Z'),
    })
    // 02:10 the second time, CET (01:10Z): the wall clock reads before 02:30 again.
    expect(openNext(saturdayNight, 'Europe/Berlin', at('2026-10-25T01:10:00Z'))).toEqual({
      open: true,
      next: at('2026-10-25T01:30:00Z'),
    })
  })

  test('the US, spring forward and fall back (New York, 2026-03-08 and 2026-11-01)', () => {
    const daily = every(open([h(9), h(17)]))
    // Saturday 20:00 EST (01:00Z): it opens Sunday 09:00 EDT, 13:00Z, not 14:00Z.
    expect(openNext(daily, 'America/New_York', at('2026-03-08T01:00:00Z'))).toEqual({
      open: false,
      next: at('2026-03-08T13:00:00Z'),
    })
    // Sunday 10:00 EDT (14:00Z): it closes at 17:00 EDT, 21:00Z.
    expect(openNext(daily, 'America/New_York', at('2026-03-08T14:00:00Z'))).toEqual({
      open: true,
      next: at('2026-03-08T21:00:00Z'),
    })
    // Saturday 2026-10-31 20:00 EDT (Sunday 00:00Z): it opens Sunday 09:00 EST, 14:00Z.
    expect(openNext(daily, 'America/New_York', at('2026-11-01T00:00:00Z'))).toEqual({
      open: false,
      next: at('2026-11-01T14:00:00Z'),
    })
    // A bar open until 01:30 meets 01:30 twice that night: it closes at the first.
    const bar = every(open([h(18), h(25, 30)]))
    expect(openNext(bar, 'America/New_York', at('2026-11-01T04:00:00Z'))).toEqual({
      open: true,
      next: at('2026-11-01T05:30:00Z'),
    })
  })

  test('until: the instant it next changes, or turns known, or the end of the days looked at', () => {
    expect(openState(nineToSix, 'Europe/Berlin', at('2026-06-15T08:00:00Z')).until).toBe(at('2026-06-15T16:00:00Z'))
    // Unknown on Tuesday: known again from Wednesday's local midnight.
    const unread = week([open([h(9), h(17)]), UNKNOWN, CLOSED, CLOSED, CLOSED, CLOSED, CLOSED])
    expect(openState(unread, 'Europe/Paris', at('2026-06-16T10:00:00Z')).until).toBe(at('2026-06-16T22:00:00Z'))
    // Closed every day: no change; it is looked at again after the days looked at (today and 8 more).
    expect(openState(every(CLOSED), 'UTC', at('2026-06-15T10:00:00Z')).until).toBe(at('2026-06-24T00:00:00Z'))
  })

  test('isoWithOffset writes the local time and its offset', () => {
    expect(isoWithOffset(at('2026-12-24T17:00:00Z'), 60)).toBe('2026-12-24T18:00:00+01:00')
    expect(isoWithOffset(at('2026-06-15T03:30:00Z'), -240)).toBe('2026-06-14T23:30:00-04:00')
    expect(isoWithOffset(at('2026-06-15T03:30:00Z'), 345)).toBe('2026-06-15T09:15:00+05:45')
    expect(isoWithOffset(at('2026-06-15T03:30:00Z'), 0)).toBe('2026-06-15T03:30:00+00:00')
  })

  test('a zone Intl does not know throws a RangeError', () => {
    expect(() => openState(nineToSix, 'Mars/Olympus', at('2026-06-15T08:00:00Z'))).toThrow(RangeError)
  })
})

// The oracle: the wall clock read minute by minute with a formatter of its own.
const ORACLE_DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']
const oracleFormats = new Map<string, Intl.DateTimeFormat>()
function wallClock(zone: string, t: number) {
  let f = oracleFormats.get(zone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    oracleFormats.set(zone, f)
  }
  const p = Object.fromEntries(f.formatToParts(t).map((x) => [x.type, x.value]))
  const date = `${p.year}-${p.month}-${p.day}`
  const yesterday = new Date(Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day) - 1))
    .toISOString()
    .slice(0, 10)
  const day = ORACLE_DAYS.indexOf(p.weekday!)
  return { date, yesterday, day, minute: Number(p.hour) * 60 + Number(p.minute) }
}
function oracleState(s: Schedule, zone: string, t: number): boolean | null {
  const c = wallClock(zone, t)
  const today = s.special?.get(c.date) ?? s.week[c.day]!
  const before = s.special?.get(c.yesterday) ?? s.week[(c.day + 6) % 7]!
  if (today.kind === 'open' && today.intervals.some(([a, b]) => a <= c.minute && c.minute < b)) return true
  if (before.kind === 'open' && before.intervals.some(([a, b]) => a <= c.minute + 1440 && c.minute + 1440 < b))
    return true
  return today.kind === 'unknown' ? null : false
}

const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Australia/Sydney',
  'Asia/Kolkata',
  'America/St_Johns',
  'Pacific/Chatham',
  'UTC',
]
/** Instants of 2026; two in three within two days of a DST change of Europe, the US or Australia, half of those within three hours. */
const CHANGES = [
  '2026-03-08T07:00Z',
  '2026-03-29T01:00Z',
  '2026-04-05T16:00Z',
  '2026-10-04T16:00Z',
  '2026-10-25T01:00Z',
  '2026-11-01T06:00Z',
]
const instant = fc.oneof(
  fc.integer({ min: Date.parse('2026-01-01T00:00Z'), max: Date.parse('2026-12-31T00:00Z') }),
  fc
    .tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -2 * 86_400_000, max: 2 * 86_400_000 }))
    .map(([c, d]) => Date.parse(c) + d),
  // Within three hours of a change: the hour skipped or passed twice, and what is just before it.
  fc
    .tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -3 * 3_600_000, max: 3 * 3_600_000 }))
    .map(([c, d]) => Date.parse(c) + d),
)
/** Any minute, or one of the small hours, when the clocks change. */
const minuteOfDay = fc.oneof(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 60, max: 210 }))
const dayHours: fc.Arbitrary<DayHours> = fc.oneof(
  fc.constant(CLOSED),
  fc.constant(UNKNOWN),
  fc.constant(open([0, 1440])),
  fc
    .array(fc.tuple(minuteOfDay, fc.integer({ min: 1, max: 1439 })), { minLength: 1, maxLength: 3 })
    .map((spans) => parseDayHours(spans.map(([s, len]) => `${clock(s)}-${clock((s + len) % 1440)}`).join(', '))),
)
const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`

test('openState equals the wall clock read minute by minute, for a week ahead', () => {
  fc.assert(
    fc.property(
      fc.array(dayHours, { minLength: 7, maxLength: 7 }),
      fc.array(fc.tuple(fc.integer({ min: -2, max: 9 }), dayHours), { maxLength: 3 }),
      fc.constantFrom(...ZONES),
      instant,
      (days, exceptions, zone, t) => {
        const base = wallClock(zone, t).date
        const special = new Map(
          exceptions.map(([offset, hours]) => [
            new Date(Date.parse(`${base}T00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10),
            hours,
          ]),
        )
        const schedule: Schedule = { week: days, special }
        const got = openState(schedule, zone, t)
        const now = oracleState(schedule, zone, t)
        expect(got.open).toBe(now)
        expect(got.until).toBeGreaterThan(t)
        // Minute by minute for a week: the first change of the wall clock's state is next (or,
        // into unknown, next is null), and until comes no later than it.
        const limit = t + 7 * 86_400_000
        for (let m = Math.floor(t / 60_000) * 60_000 + 60_000; m <= limit; m += 60_000) {
          const then = oracleState(schedule, zone, m)
          if (then === now) continue
          expect(got.next).toBe(now === null || then === null ? null : m)
          expect(got.until).toBe(m)
          return
        }
        // No change in a week: none known, or one past it; until no earlier than the week's end.
        if (got.next !== null) expect(got.next).toBeGreaterThan(limit)
        expect(got.until).toBeGreaterThan(limit)
      },
    ),
    { numRuns: 600 },
  )
}, 60_000)

test('openStateOn, a zone clock kept across instants, equals openState', () => {
  fc.assert(
    fc.property(
      fc.array(dayHours, { minLength: 7, maxLength: 7 }),
      fc.array(fc.tuple(fc.integer({ min: -2, max: 9 }), dayHours), { maxLength: 3 }),
      fc.constantFrom(...ZONES),
      fc.array(instant, { minLength: 1, maxLength: 8 }),
      (days, exceptions, zone, instants) => {
        const base = wallClock(zone, instants[0]!).date
        const special = new Map(
          exceptions.map(([offset, hours]) => [
            new Date(Date.parse(`${base}T00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10),
            hours,
          ]),
        )
        const schedule: Schedule = { week: days, special }
        const clock = new ZoneClock(zone)
        for (const t of instants) expect(openStateOn(schedule, clock, t)).toEqual(openState(schedule, zone, t))
      },
    ),
    { numRuns: 1000 },
  )
}, 60_000)

test('a zone clock read eleven days before a change of offset still sees it from an instant whose week reaches it', () => {
  // Sydney's clocks go forward on Sunday 4 October 2026. Read on 21 September, the clock saw no
  // change in its look-ahead; on Saturday 3 October, 02:55, the next opening (Monday 00:00) is
  // past the change, at 13:00 UTC, not 14:00.
  const open = { kind: 'open', intervals: [[0, 1440]] } as DayHours
  const closed = { kind: 'closed' } as DayHours
  const schedule: Schedule = { week: [open, closed, closed, closed, closed, closed, closed], special: new Map() }
  const clock = new ZoneClock('Australia/Sydney')
  const first = Date.parse('2026-09-21T16:55:00Z')
  const later = Date.parse('2026-10-02T16:54:59.999Z')
  expect(openStateOn(schedule, clock, first)).toEqual(openState(schedule, 'Australia/Sydney', first))
  const got = openStateOn(schedule, clock, later)
  expect(got).toEqual(openState(schedule, 'Australia/Sydney', later))
  expect(new Date(got.next!).toISOString()).toBe('2026-10-04T13:00:00.000Z')
})

describe('isClockHours', () => {
  const hm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
  const interval = fc.tuple(fc.nat(1439), fc.nat(1439)).map(([a, b]) => `${hm(a)}-${hm(b)}`)

  test('a text it accepts is read as open hours, as the export takes it without reading', () => {
    fc.assert(
      fc.property(fc.array(interval, { minLength: 1, maxLength: 4 }), (parts) => {
        const text = parts.join(', ')
        const apart = parts.every((p) => p.slice(0, 5) !== p.slice(6))
        expect(isClockHours(text)).toBe(apart)
        if (apart) expect(parseDayHours(text).kind).toBe('open')
      }),
      { numRuns: 2000 },
    )
  })

  test('hours of any other shape, and an interval of no length, are not its', () => {
    for (const text of [
      '9:00-18:00',
      '09:00-18:00,14:00-18:00',
      '09:00-18:00 Uhr',
      '09:00-09:00',
      '24:00-09:00',
      '09:00-18:00, ',
    ])
      expect(isClockHours(text)).toBe(false)
  })
})
