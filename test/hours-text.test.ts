// A day's hours as the visitor's language writes them (src/core/hours-text.ts), on the widget's
// cards and the store pages: times as the language in the store's country writes them, and the
// words of a day closed or open round the clock in the language.
import { expect, test } from 'bun:test'
import { hoursText, timeLocale } from '../src/core/hours-text'

/** A time as Intl writes it, its spaces no-break ones: a line never ends inside "9:00 AM". */
const time = (locale: string, h: number, m: number, hourCycle?: 'h24') =>
  new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC', hourCycle })
    .format(Date.UTC(1970, 0, 1, h, m))
    .replace(/ /g, '\u00a0')

test("today's hours: times in the language's format, past midnight and midnight as an end too", () => {
  expect(hoursText('de', '09:30-18:30')).toBe(`${time('de', 9, 30)}–${time('de', 18, 30)}`)
  expect(hoursText('en', '9-13, 14-18')).toBe(
    `${time('en', 9, 0)}–${time('en', 13, 0)}, ${time('en', 14, 0)}–${time('en', 18, 0)}`,
  )
  expect(hoursText('de', '18:00-02:00')).toBe('18:00–2:00')
  expect(hoursText('en', '22:00-02:00')).toBe('10:00\u00a0PM–2:00\u00a0AM')
  // Midnight as an end: 24:00 where the day's hours run 0 to 23, 12:00 AM where they run to 12.
  expect(hoursText('de', '9-24')).toBe(`9:00–${time('de', 0, 0, 'h24')}`)
  expect(hoursText('de', '9-24')).toBe('9:00–24:00')
  expect(hoursText('en', '18:00-00:00')).toBe('6:00\u00a0PM–12:00\u00a0AM')
})

test('a day closed or open round the clock in the words of the language; other text as written', () => {
  for (const [lang, closed, allDay] of [
    ['en', 'Closed', 'Open 24 hours'],
    ['de', 'Geschlossen', '24 Stunden geöffnet'],
    ['fr', 'Fermé', 'Ouvert 24\u00a0h/24'],
    ['es', 'Cerrado', 'Abierto 24 horas'],
    ['it', 'Chiuso', 'Aperto 24 ore su 24'],
    ['nl', 'Gesloten', '24 uur geopend'],
  ] as const) {
    for (const text of ['closed', 'Ruhetag', 'fermé']) expect(hoursText(lang, text)).toBe(closed)
    for (const text of ['24 hours', '24/7', '0:00-24:00', '00:00-00:00']) expect(hoursText(lang, text)).toBe(allDay)
  }
  for (const text of ['by appointment', 'Temporarily closed']) expect(hoursText('de', text)).toBe(text)
})

test("times as the language writes them in the store's country, where Intl knows the pair", () => {
  expect(timeLocale('en', 'GB')).toBe('en-GB')
  expect(timeLocale('en', 'gb')).toBe('en-GB')
  expect(timeLocale('en', undefined)).toBe('en')
  expect(timeLocale('en', 'XYZ')).toBe('en')
  expect(hoursText('en', '9-18', 'GB')).toBe(`${time('en-GB', 9, 0)}–${time('en-GB', 18, 0)}`)
  expect(hoursText('en', '9-18', 'GB')).toBe('9:00–18:00')
  expect(hoursText('en', '9-18', 'US')).toBe('9:00\u00a0AM–6:00\u00a0PM')
  expect(hoursText('fr', '9-18', 'CA')).toBe('9\u00a0h\u00a000–18\u00a0h\u00a000')
  // German in the US: German as Germany writes times, not "6:00 PM".
  expect(hoursText('de', '9-18', 'US')).toBe('9:00–18:00')
})
