// A day's hours as the visitor's language writes times (src/core/hours-text.ts), on the widget's
// cards and the store pages.
import { expect, test } from 'bun:test'
import { hoursText } from '../src/core/hours-text'

test("today's hours: times in the language's format; text that is no plain hours, and midnight as an end, as written", () => {
  const time = (lang: string, h: number, m: number) =>
    new Intl.DateTimeFormat(lang, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(
      Date.UTC(1970, 0, 1, h, m),
    )
  expect(hoursText('de', '09:30-18:30')).toBe(`${time('de', 9, 30)}–${time('de', 18, 30)}`)
  expect(hoursText('en', '9-13, 14-18')).toBe(
    `${time('en', 9, 0)}–${time('en', 13, 0)}, ${time('en', 14, 0)}–${time('en', 18, 0)}`,
  )
  for (const text of ['closed', '24/7', '9-24', '22:00-02:00', 'by appointment'])
    expect(hoursText('en', text)).toBe(text)
})
