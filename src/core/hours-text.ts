// Times as a language writes them: the date formats (made once each), and a day's hours, which the
// widget's cards and the store pages say alike.
import { parseDayHours } from './hours'
import type { Lang } from './languages'

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

/** A time held together: no line ends inside "1:05 PM" or "9 h 00" (Intl writes plain spaces there). */
export const unbroken = (time: string): string => time.replace(/ /g, '\u00a0')

const locales = new Map<string, string>()

/**
 * The locale a store's times are written in: the language with the store's country as its region
 * where Intl knows that pair ("en-GB" writes 18:00, "fr-CA" 18 h 00), else the language alone
 * ("de-US" is German as Germany writes it). Browsers and the server hold the same CLDR data.
 */
export function timeLocale(lang: string, country: string | null | undefined): string {
  if (typeof country !== 'string' || !/^[A-Za-z]{2}$/.test(country)) return lang
  const tag = `${lang}-${country.toUpperCase()}`
  let locale = locales.get(tag)
  if (locale === undefined) {
    try {
      locale = dateFormat(tag, 'UTC', 'time').resolvedOptions().locale === tag ? tag : lang
    } catch {
      locale = lang
    }
    locales.set(tag, locale)
  }
  return locale
}

/** The words of a day's hours that are no times: a day closed, a day open round the clock. */
const WORDS: Record<Lang, { closed: string; allDay: string }> = {
  en: { closed: 'Closed', allDay: 'Open 24 hours' },
  de: { closed: 'Geschlossen', allDay: '24 Stunden geöffnet' },
  fr: { closed: 'Fermé', allDay: 'Ouvert 24\u00a0h/24' },
  es: { closed: 'Cerrado', allDay: 'Abierto 24 horas' },
  it: { closed: 'Chiuso', allDay: 'Aperto 24 ore su 24' },
  nl: { closed: 'Gesloten', allDay: '24 uur geopend' },
}

const DAY = 1440

/**
 * A day's hours as the language writes them, in the locale timeLocale gives for the store's
 * `country`: times as it writes them ("9:30 AM–6:30 PM", "9:30–18:30"; past midnight "18:00–2:00";
 * midnight as an end "24:00" where the day has 24 hours, else "12:00 AM"), a day closed or open
 * round the clock in its words. Other text (words, "Temporarily closed", which says more than
 * closed) as written.
 */
export function hoursText(lang: Lang, text: string, country?: string | null): string {
  const day = parseDayHours(text)
  const words = WORDS[lang] ?? WORDS.en
  if (day.kind === 'closed') return /^\s*(temporarily|currently)\b/i.test(text) ? text : words.closed
  if (day.kind !== 'open') return text
  const [first] = day.intervals
  if (day.intervals.length === 1 && first![0] === 0 && first![1] === DAY) return words.allDay
  try {
    const locale = timeLocale(lang, country)
    const time = dateFormat(locale, 'UTC', 'time')
    const at = (minute: number, f = time) => unbroken(f.format(Date.UTC(1970, 0, 1, 0, minute % DAY)))
    const end = (minute: number) => (minute === DAY ? at(0, midnightEnd(locale, time)) : at(minute))
    return day.intervals.map(([from, to]) => `${at(from)}–${end(to)}`).join(', ')
  } catch {
    return text
  }
}

const ends = new Map<string, Intl.DateTimeFormat>()

/** The format of midnight as a day's end: 24:00 in a locale of 0-23 hours, else its own (12:00 AM). */
function midnightEnd(locale: string, time: Intl.DateTimeFormat): Intl.DateTimeFormat {
  let f = ends.get(locale)
  if (f === undefined) {
    const h23 = time.resolvedOptions().hour12 === false
    f = h23
      ? new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', hourCycle: 'h24', timeZone: 'UTC' })
      : time
    ends.set(locale, f)
  }
  return f
}
