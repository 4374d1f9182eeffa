// The dates of a locations CSV's special hours cell: ISO dates as the export writes them, and the
// dates a spreadsheet writes in its locale ("12/25/2026", "25.12.2026", "Dec 25"). Which number of
// "03/04" is the month is the file's to say (dateOrder); a date it does not settle is refused.
import { countryCode } from '../geocode/countries'
import { cellText, DATE_AT, keptText, SPECIAL_LEADING, SPECIAL_TRAILING } from './csv-cells'
import { closedX } from './csv-week'

/** Which number of a date written with slashes comes first: the month (US) or the day (most others). */
export type DateOrder = 'month' | 'day' | null

/**
 * Each month's names, whole and short, in English, German, French, Spanish, Italian, Dutch,
 * Swedish, Danish and Norwegian, lower case: a date's month word as a spreadsheet there writes it.
 */
const MONTH_NAMES = [
  'january|jan|januar|jänner|janvier|janv|enero|ene|gennaio|gen|januari',
  'february|feb|februar|février|fevrier|févr|fevr|fév|febrero|febbraio|februari',
  'march|mar|märz|marz|mär|mrz|mars|marzo|maart|mrt|marts',
  'april|apr|avril|avr|abril|abr|aprile',
  'may|mai|mayo|maggio|mag|mei|maj',
  'june|jun|juni|juin|junio|giugno|giu',
  'july|jul|juli|juillet|juil|julio|luglio|lug',
  'august|aug|août|aout|agosto|ago|augustus|augusti',
  'september|sep|sept|septembre|septiembre|setiembre|settembre|set',
  'october|oct|oktober|okt|octobre|octubre|ottobre|ott',
  'november|nov|novembre|noviembre',
  'december|dec|dezember|dez|décembre|decembre|déc|diciembre|dic|dicembre|desember|des',
].map((names) => names.split('|'))
const MONTH_OF = new Map(MONTH_NAMES.flatMap((names, i) => names.map((name) => [name, i + 1] as const)))
/** A month's name with an optional point; the longest first, so "December" is not "Dec". */
const MONTH = `(?:${[...MONTH_OF.keys()].sort((x, y) => y.length - x.length).join('|')})\\.?`
/** A year after a date: 19xx or 20xx, not the first time of "1000-1400". */
const YEAR = '(?:19|20)\\d{2}(?![\\d.\\-–])'
const DAY = '(\\d{1,2})(?:st|nd|rd|th|er)?'
/** A space within a date: no line break, which ends one date's hours ("10 to 4\nJan 1"). */
const SP = '[^\\S\\r\\n]'

/**
 * A date a special hours cell may hold, each form in its own groups: ISO; numbers apart by "/"
 * ("12/25", "12/25/2026"; not "24/7") or by "." with a year or a closing point ("25.12.2026",
 * "25.12."); "Dec 25", "December 25, 2026"; "25 Dec", "25. Dezember 2026", "25 de diciembre".
 * No date within a longer run of digits or after a time's colon, nor a word before a day and its
 * month: French "mar. 31 déc." is Tuesday, 31 December, not March 31.
 */
const DATE_FORMS = new RegExp(
  [
    `(?<iso>${DATE_AT.source})`,
    `(?<![\\d:./])(?!24/7(?![\\d/]))(?<a>\\d{1,2})/(?<b>\\d{1,2})(?:/(?<y>\\d{4}|\\d{2}))?(?![\\d/])`,
    `(?<![\\d:./])(?<dd>\\d{1,2})\\.(?<dm>\\d{1,2})\\.(?<dy>\\d{4}|\\d{2})?(?![\\d])`,
    `(?<![\\p{L}\\d])(?<mn>${MONTH})${SP}*${DAY.replace('(', '(?<md>')}(?:,?${SP}*(?<my>${YEAR}))?(?![\\p{L}\\d])(?!${SP}*${MONTH}(?!\\p{L}))`,
    `(?<![\\p{L}\\d:.\\-–])${DAY.replace('(', '(?<nd>')}\\.?${SP}*(?:(?:of|de)${SP}+)?(?<nm>${MONTH})(?:,?${SP}*(?:de${SP}+)?(?<ny>${YEAR}))?(?![\\p{L}\\d])`,
  ].join('|'),
  'giu',
)

/** The end of one date's hours before the next date: a ";", ",", "|" or a new line. */
const APART = /[;,|\n]\s*$/

const monthOf = (name: string): number => MONTH_OF.get(name.toLowerCase().replace(/\.$/, '')) ?? 0

/** A date's text as the cell writes it, and its numbers: null for a year it does not give. */
type Written = {
  text: string
  at: number
  month: number
  day: number
  year: number | null
  /** A slash date's numbers, in the order written, when the file's order says which is the month. */
  doubt?: [number, number]
  /** Written as YYYY-MM-DD: kept as written, for the location's validation to judge. */
  iso?: true
}

/**
 * Each date of a cell, as written. A cell with an ISO date is the export's, or written so: another
 * date form there is a date right after a separator ("; Dec 31 closed"), else words of the hours
 * before it ("closed 1 May"), as the export writes them.
 */
function datesWritten(cell: string): Written[] {
  const all = [...cell.matchAll(DATE_FORMS)]
  const iso = all.some((m) => m.groups!.iso !== undefined)
  const dates = iso ? all.filter((m) => m.groups!.iso !== undefined || APART.test(cell.slice(0, m.index))) : all
  return dates.map((m) => {
    const g = m.groups!
    const at = m.index
    const text = m[0]
    if (g.iso !== undefined) {
      const [year, month, day] = g.iso.split('-').map(Number) as [number, number, number]
      return { text, at, month, day, year, iso: true }
    }
    const year = (y: string | undefined) => (y === undefined ? null : y.length === 2 ? 2000 + Number(y) : Number(y))
    if (g.a !== undefined) {
      const [a, b] = [Number(g.a), Number(g.b)]
      return { text, at, month: a, day: b, year: year(g.y), doubt: [a, b] }
    }
    if (g.dd !== undefined) return { text, at, month: Number(g.dm), day: Number(g.dd), year: year(g.dy) }
    if (g.mn !== undefined) return { text, at, month: monthOf(g.mn), day: Number(g.md), year: year(g.my) }
    return { text, at, month: monthOf(g.nm!), day: Number(g.nd), year: year(g.ny) }
  })
}

/** Which number a slash date's own numbers put first: one above 12 is the day. */
function ownOrder([a, b]: [number, number]): DateOrder {
  if (a > 12 && b <= 12) return 'day'
  if (b > 12 && a <= 12) return 'month'
  return null
}

/** Countries whose sheets write the month first ("12/25/2026"): the United States, its territories, the Philippines. */
const MONTH_FIRST = new Set(['US', 'PR', 'GU', 'VI', 'AS', 'MP', 'UM', 'FM', 'MH', 'PW', 'PH'])
/** Countries whose sheets write either order: a country there says neither. */
const EITHER_ORDER = new Set(['CA'])

/**
 * Which number of the file's slash dates is the month: the one its dates settle (12/25: the month),
 * else the one its rows' countries write first, in any language the country names are read in
 * (the United States the month, any other the day); null when they say both or nothing, or a
 * row's country is not known.
 */
export function dateOrder(cells: readonly string[], countries: readonly string[]): DateOrder {
  const said = new Set<DateOrder>()
  for (const cell of cells)
    for (const { doubt } of datesWritten(cellText(cell))) if (doubt !== undefined) said.add(ownOrder(doubt))
  said.delete(null)
  if (said.size === 1) return [...said][0]!
  if (said.size === 2) return null
  const codes = countries
    .map((c) => c.trim())
    .filter((c) => c !== '')
    .map(countryCode)
  if (codes.length === 0 || codes.some((c) => c === null || EITHER_ORDER.has(c))) return null
  const us = codes.filter((c) => MONTH_FIRST.has(c!)).length
  return us === codes.length ? 'month' : us === 0 ? 'day' : null
}

/** A comma a locale writes between a date and its hours ("Dec 24, 9-2"). */
const COMMA_FIRST = /^\s*,/
/** A dash or "to" and a later day after a date: a range of days ("Dec 27-30"), not a time ("Dec 24 - 2pm"). */
const RANGE_END =
  /^\s*(?:[-–]|to|bis|au|al|through|thru)\s*(\d{1,2})(?:st|nd|rd|th)?(?![\d:.\-–])(?!\s*(?:am|pm|a\.m\.|p\.m\.|h|uhr)(?!\p{L}))/iu

const pad = (n: number) => String(n).padStart(2, '0')

const leapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)

/** The next such day on or after today (UTC): a holiday sheet lists the days ahead; February 29 the next there is. */
function yearAhead(month: number, day: number): number {
  // Date.now: the clock a run reads, which a test sets later (test/cli/clock-ahead.ts).
  const now = new Date(Date.now())
  const year = now.getUTCFullYear()
  const today = `${year}-${pad(now.getUTCMonth() + 1)}-${pad(now.getUTCDate())}`
  let ahead = `${year}-${pad(month)}-${pad(day)}` < today ? year + 1 : year
  while (month === 2 && day === 29 && !leapYear(ahead)) ahead++
  return ahead
}

const DAYS_IN = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const MONTH_WORDS = MONTH_NAMES.map(([m]) => m!.charAt(0).toUpperCase() + m!.slice(1))

/** A written date as YYYY-MM-DD, or why it is none: no such day, or a slash date of either order. */
function isoDate(written: Written, order: DateOrder): string | { problem: string } {
  if (written.iso) return written.text
  let { month, day } = written
  const { doubt, text } = written
  if (doubt !== undefined) {
    const own = ownOrder(doubt)
    const first = own ?? (doubt[0] === doubt[1] ? 'month' : order)
    if (first === null) {
      const [a, b] = doubt
      const y = written.year ?? yearAhead(a, b)
      return {
        problem: `"${text}" may be ${MONTH_WORDS[a - 1]} ${b} or ${MONTH_WORDS[b - 1]} ${a}: the file's other dates and countries do not say which number is the month. Write it as YYYY-MM-DD (${y}-${pad(a)}-${pad(b)} or ${y}-${pad(b)}-${pad(a)}).`,
      }
    }
    ;[month, day] = first === 'month' ? doubt : [doubt[1], doubt[0]]
  }
  if (month < 1 || month > 12 || day < 1 || day > DAYS_IN[month - 1]!)
    return { problem: `"${text}" is no date. Write each date as YYYY-MM-DD, such as 2026-12-25.` }
  const year = written.year ?? yearAhead(month, day)
  if (month === 2 && day === 29 && !leapYear(year))
    return {
      problem: `"${text}" is no date: ${year} has no February 29. Write each date as YYYY-MM-DD, such as 2028-02-29.`,
    }
  return `${year}-${pad(month)}-${pad(day)}`
}

/**
 * A special hours cell ("2026-12-24 09:00-14:00; 12/25 closed") as its dates' hours by ISO date;
 * {} for none. A message saying how to write it when it is not so: text before the first date, a
 * date without hours, a date in doubt (isoDate). Whether a date may be stored is the location's
 * validation's to say.
 */
export function readSpecialHours(cell: string, order: DateOrder = null): Record<string, string> | string {
  const dates = datesWritten(cell)
  const how =
    'Write each date as YYYY-MM-DD followed by its hours, the dates apart: "2026-12-24 09:00-14:00; 2026-12-25 closed".'
  if (dates.length === 0) return cell.trim() === '' ? {} : `${JSON.stringify(cell)} names no date. ${how}`
  if (cell.slice(0, dates[0]!.at).trim() !== '') return `${JSON.stringify(cell)} has text before its first date. ${how}`
  const out: Record<string, string> = {}
  for (let i = 0; i < dates.length; i++) {
    const written = dates[i]!
    const end = i + 1 < dates.length ? dates[i + 1]!.at : cell.length
    const after = cell.slice(written.at + written.text.length, end)
    const text = (written.iso ? after : after.replace(COMMA_FIRST, ''))
      .replace(SPECIAL_LEADING, '')
      .replace(SPECIAL_TRAILING, '')
      .trim()
    if (text === '') return `${JSON.stringify(cell)} gives ${written.text} no hours. ${how}`
    const next = dates[i + 1]
    // A date as a locale writes it may be words of the hours before it ("9 to 5 may close", "1/2 day").
    if (next !== undefined && !next.iso && !APART.test(cell.slice(0, next.at)))
      return `${JSON.stringify(cell)} has "${next.text}" within ${written.text}'s hours, with no ";" or "," before it: it may be a date or words of those hours. ${how}`
    const date = isoDate(written, order)
    if (typeof date !== 'string') return date.problem
    const range = written.iso ? null : RANGE_END.exec(after)
    if (range !== null && Number(range[1]) > Number(date.slice(8)) && Number(range[1]) <= 31)
      return `${JSON.stringify(cell)} gives the days "${written.text}${range[0]}" one text of hours: write each date with its hours. ${how}`
    out[date] = keptText(text) ?? closedX(text)
  }
  return out
}
