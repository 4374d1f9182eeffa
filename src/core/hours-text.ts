// Times as a language writes them: the date formats (made once each), and a day's hours, which the
// widget's cards and the store pages say alike.
import { parseDayHours } from './hours'

const formats = new Map<string, Intl.DateTimeFormat>()

/** A date format, made once a process or page for each language, zone and style (making one is slow). */
export function dateFormat(lang: string, zone: string, style: 'time' | 'date' | 'weekday'): Intl.DateTimeFormat {
  const key = `${lang} ${zone} ${style}`
  let f = formats.get(key)
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      style === 'time' ? { hour: 'numeric', minute: '2-digit' } : style === 'weekday' ? { weekday: 'long' } : {}
    f = new Intl.DateTimeFormat(lang, { ...options, timeZone: zone })
    formats.set(key, f)
  }
  return f
}

/**
 * A day's hours with its times as the language writes them ("9:30 AM–6:30 PM", "9:30–18:30"), as
 * the widget's "opens at" writes its time; the text as written when it is no plain hours (closed,
 * round the clock, words), or the language is not known here.
 */
export function hoursText(lang: string, text: string): string {
  const day = parseDayHours(text)
  // Midnight as an end ("9-24") reads as 0:00 or 12:00 AM: written as given.
  if (day.kind !== 'open' || day.intervals.some(([, to]) => to >= 1440)) return text
  try {
    const time = dateFormat(lang, 'UTC', 'time')
    const at = (minute: number) => time.format(Date.UTC(1970, 0, 1, 0, minute))
    return day.intervals.map(([from, to]) => `${at(from)}–${at(to)}`).join(', ')
  } catch {
    return text
  }
}
