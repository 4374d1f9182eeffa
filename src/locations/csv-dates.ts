// The dates of a locations CSV's special hours cell: ISO dates as the export writes them, and the
// dates a spreadsheet writes in its locale ("12/25/2026", "25.12.2026", "Dec 25"). Which number of
// "03/04" is the month is the file's to say (dateOrder); a date it does not settle is refused.
import { parseDayHours } from '../core/hours'
import { MONTH_NAMES } from '../core/month-names'
import { countryCode } from '../geocode/countries'
import { cellText, DATE_AT, keptText, SPECIAL_LEADING, SPECIAL_TRAILING } from './csv-cells'
import { type Day, HOW_WRITTEN, isoDay, MOST_DAYS, pad, runDays, undatedYear } from './csv-date-days'
import { closedX } from './csv-week'

/** Which number of a date written with slashes comes first: the month (US) or the day (most others). */
export type DateOrder = 'month' | 'day' | null

const MONTH_OF = new Map(MONTH_NAMES.flatMap((names, i) => names.map((name) => [name, i + 1] as const)))
/** A month's name with an optional point; the longest first, so "December" is not "Dec". */
const MONTH = `(?:${[...MONTH_OF.keys()].sort((x, y) => y.length - x.length).join('|')})\\.?`
/** A year after a date: 19xx or 20xx, not the first time of "1000-1400". */
const YEAR = '(?:19|20)\\d{2}(?![\\d.\\-–])'
const DAY = '(\\d{1,2})(?:st|nd|rd|th|er)?'
/** A space within a date: no line break, which ends one date's hours ("10 to 4\nJan 1"). */
const SP = '[^\\S\\r\\n]'

/** A day and its month ("25 Dec", "25. Dezember 2026", "25 de diciembre"), after what may stand before it. */
const DAY_MONTH = `${DAY.replace('(', '(?<nd>')}\\.?${SP}*(?:(?:of|de)${SP}+)?(?<nm>${MONTH})(?:,?${SP}*(?:de${SP}+)?(?<ny>${YEAR}))?(?![\\p{L}\\d])`

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
    `(?<![\\p{L}\\d:.\\-–])${DAY_MONTH}`,
  ].join('|'),
  'giu',
)
/** A day and month right after a number and a dash ("24-26 décembre"): only a run of days' last (RUN_START). */
const RUN_LAST = new RegExp(`(?<=(?<![\\p{L}\\d:.\\-–])\\d{1,2}(?:\\.|er|st|nd|rd|th)?[-–])${DAY_MONTH}`, 'giu')

/** The end of one date's hours before the next date: a ";", ",", "|" or a new line. */
const APART = /[;,|\n]\s*$/
/** All that stands between two dates of a run of days ("24/12 - 26/12", "Dec 30 to Jan 2"). */
const THROUGH = /^\s*(?:[-–—]|to|through|thru|till?|until|bis|au|à|al|a|hasta|tot|t\/m)\s*$/iu

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
  /** The first day of a run written before the date, its month's ("24.-26.12.": 24). */
  first?: number
  /** Written with its day last and no year ("Dec 24", "12/24" when the month is first): "-26" after it may end a run. */
  dayLast?: true
  /** Written as two numbers alone, no year ("1/2", "3.4."): in a cell with an ISO date, maybe words ("1/2 day"). */
  bare?: true
}

/** A day and a word for "to" before a date whose day comes first, a word for "from" before it: a run of days' first ("24.-26.12.", "du 24 au 26 déc"). */
const RUN_START =
  /(?<![\p{L}\d:.\-–])(?:(?:du|del|dal|vom|van|from|fra|från)\s+)?(\d{1,2})(?:\.|er|st|nd|rd|th)?\s*(?:[-–]|to|bis|au|al|à|a|t\/m|tot|till?)\s*$/iu

/**
 * Each date of a cell, as written. A cell with an ISO date is the export's, or written so: another
 * date form there is a date first in the cell, right after a separator ("; Dec 31 closed") or as
 * the last day of a run after such a date ("; Dec 31 - Jan 2 closed"), else words of the hours
 * before it ("closed 1 May", "to Dec 31"), as the export writes them. A bare "1/2" or "3.4." after a
 * separator with words but no hours after it (", 1/2 day") is words too; any other form is a date.
 */
function datesWritten(cell: string): Written[] {
  const found = [...cell.matchAll(DATE_FORMS)]
  const end = (m: RegExpExecArray) => m.index + m[0].length
  const lasts = [...cell.matchAll(RUN_LAST)].filter((r) => !found.some((m) => m.index < end(r) && r.index < end(m)))
  const all = [...found, ...lasts]
    .sort((x, y) => x.index - y.index)
    .flatMap((m) => {
      const written = writtenOf(m)
      if (written.iso || m.groups!.a !== undefined || m.groups!.mn !== undefined) return [written]
      const run = RUN_START.exec(cell.slice(0, m.index))
      if (run === null || Number(run[1]) >= written.day) return lasts.includes(m) ? [] : [written]
      return [{ ...written, first: Number(run[1]), at: run.index, text: run[0] + written.text }]
    })
  if (!all.some((w) => w.iso)) return all
  // Each date with the last day of its run, if another date is one.
  const kept: [Written, Written | undefined][] = []
  for (const w of all) {
    const before = cell.slice(0, w.at)
    const prev = kept.at(-1)
    const runLast = prev !== undefined && prev[1] === undefined && !prev[0].iso
    if (runLast && THROUGH.test(cell.slice(prev[0].at + prev[0].text.length, w.at))) prev[1] = w
    else if (w.iso || before.trim() === '' || APART.test(before)) kept.push([w, undefined])
  }
  // Right to left, so a date's hours run to the next date kept. A bare date with a run's end after
  // it ("20/1 - 17") or nothing after it stays a date: its hours are read or refused as such. So
  // does one whose day is past 12 ("31.12."): no fraction is written so.
  for (let k = kept.length - 1; k > 0; k--) {
    const [w, last] = kept[k]!
    if (!w.bare || last !== undefined || w.first !== undefined || w.day > 12) continue
    const after = cell.slice(w.at + w.text.length, kept[k + 1]?.[0].at ?? cell.length)
    if (!RUN_END.test(after) && wordsOnly(after)) kept.splice(k, 1)
  }
  return kept.flatMap(([w, last]) => (last === undefined ? [w] : [w, last]))
}

/** Whether the text after a date holds words that read as no hours nor a closed word. */
function wordsOnly(after: string): boolean {
  const text = after.replace(COMMA_FIRST, '').replace(SPECIAL_LEADING, '').replace(SPECIAL_TRAILING, '').trim()
  return text !== '' && keptText(text) === null && parseDayHours(closedX(text)).kind === 'unknown'
}

/** A date form's match as written. */
function writtenOf(m: RegExpExecArray): Written {
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
    const bare = g.y === undefined && ({ dayLast: true, bare: true } as const)
    return { text, at, month: a, day: b, year: year(g.y), doubt: [a, b], ...bare }
  }
  if (g.dd !== undefined)
    return {
      text,
      at,
      month: Number(g.dm),
      day: Number(g.dd),
      year: year(g.dy),
      ...(g.dy === undefined && { bare: true }),
    }
  if (g.mn !== undefined)
    return {
      text,
      at,
      month: monthOf(g.mn),
      day: Number(g.md),
      year: year(g.my),
      ...(g.my === undefined && { dayLast: true }),
    }
  return { text, at, month: monthOf(g.nm!), day: Number(g.nd), year: year(g.ny) }
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
/**
 * A dash or "to" and a later day after a date: a run of days ("Dec 27-30", "Dec 24-26, 2026",
 * "12/24-26/2026"), not a time ("Dec 24 - 2pm").
 */
const RUN_END = new RegExp(
  `^\\s*(?:[-–]|to|bis|au|al|through|thru)\\s*(\\d{1,2})(?:st|nd|rd|th)?(?![\\d:.\\-–])(?!\\s*(?:am|pm|a\\.m\\.|p\\.m\\.|h|uhr)(?!\\p{L}))(?:(?:,?${SP}*|\\/)(${YEAR}))?`,
  'iu',
)

const MONTH_WORDS = MONTH_NAMES.map(([m]) => m!.charAt(0).toUpperCase() + m!.slice(1))

/** A written date's day, its month settled (a slash date's by the file's order), or why it is none. */
function dayOf(written: Written, order: DateOrder): Day | { problem: string } {
  const { doubt, text, year } = written
  if (doubt === undefined) return written
  const own = ownOrder(doubt)
  const first = own ?? (doubt[0] === doubt[1] ? 'month' : order)
  const [a, b] = doubt
  if (first === null) {
    const y = year ?? undatedYear(a, b)
    return {
      problem: `"${text}" may be ${MONTH_WORDS[a - 1]} ${b} or ${MONTH_WORDS[b - 1]} ${a}: the file's other dates and countries do not say which number is the month. Write it as YYYY-MM-DD (${y}-${pad(a)}-${pad(b)} or ${y}-${pad(b)}-${pad(a)}).`,
    }
  }
  return first === 'month' ? { month: a, day: b, year } : { month: b, day: a, year }
}

/** A written date's day, or its own text as YYYY-MM-DD; or why it is none. */
function isoDate(written: Written, order: DateOrder): string | { problem: string } {
  if (written.iso) return written.text
  const day = dayOf(written, order)
  return 'problem' in day ? day : isoDay(day, written.text)
}

/**
 * A special hours cell ("2026-12-24 09:00-14:00; 12/25 closed") as its dates' hours by ISO date;
 * {} for none. A run of days ("Dec 24-26 closed") gives each of its days the hours; a date named
 * alone within one is that day's exception. A message saying how to write it when it is not so:
 * text before the first date, a date without hours, a date in doubt (isoDate), a run not read
 * (runDays), a day given two hours. Whether a date may be stored is the location's validation's
 * to say.
 */
export function readSpecialHours(cell: string, order: DateOrder = null): Record<string, string> | string {
  const dates = datesWritten(cell)
  const how = HOW_WRITTEN
  if (dates.length === 0) return cell.trim() === '' ? {} : `${JSON.stringify(cell)} names no date. ${how}`
  if (cell.slice(0, dates[0]!.at).trim() !== '') return `${JSON.stringify(cell)} has text before its first date. ${how}`
  // Each day's hours, a run's days apart from dates named alone: those are its exceptions.
  const byRun = new Map<string, string>()
  const alone = new Map<string, string>()
  // Dates alone written without a year, and the days of runs whose first and last days are so
  // written: such a date of a run's month and day is that day, in the run's year.
  const undated: string[] = []
  const undatedRuns = new Set<string>()
  for (let i = 0; i < dates.length; i++) {
    const written = dates[i]!
    let last = written
    if (i + 1 < dates.length && THROUGH.test(cell.slice(written.at + written.text.length, dates[i + 1]!.at)))
      last = dates[++i]!
    const end = i + 1 < dates.length ? dates[i + 1]!.at : cell.length
    let after = cell.slice(last.at + last.text.length, end)
    const runEnd = last === written && !written.iso ? RUN_END.exec(after) : null
    // A run's last day is a later day of the date's month, by its day as the file's order settles it.
    const settled = runEnd === null ? null : dayOf(written, order)
    const later = settled !== null && !('problem' in settled) && Number(runEnd![1]) > settled.day
    const until = later && Number(runEnd![1]) <= 31 ? runEnd : null
    if (until !== null) after = after.slice(until[0].length)
    const shown = cell.slice(written.at, last.at + last.text.length) + (until?.[0] ?? '')
    const text = (written.iso ? after : after.replace(COMMA_FIRST, ''))
      .replace(SPECIAL_LEADING, '')
      .replace(SPECIAL_TRAILING, '')
      .trim()
    if (text === '') return `${JSON.stringify(cell)} gives ${shown} no hours. ${how}`
    const next = dates[i + 1]
    // A date as a locale writes it may be words of the hours before it ("9 to 5 may close", "1/2 day").
    if (next !== undefined && !next.iso && !APART.test(cell.slice(0, next.at)))
      return `${JSON.stringify(cell)} has "${next.text}" within ${shown}'s hours, with no ";" or "," before it: it may be a date or words of those hours. ${how}`
    const days = runOf(written, last, until, order, shown)
    if ('problem' in days) return days.problem
    const hours = keptText(text) ?? closedX(text)
    const into = days.run ? byRun : alone
    if (!days.run && written.year === null) undated.push(days.dates[0]!)
    if (days.run && yearless(written) && yearless(last) && until?.[2] === undefined)
      for (const date of days.dates) undatedRuns.add(date)
    for (const date of days.dates) {
      const other = into.get(date)
      if (other !== undefined && other !== hours)
        return `${JSON.stringify(cell)} gives ${date} the hours "${other}" and "${hours}": give each date its hours once. ${how}`
      into.set(date, hours)
    }
  }
  for (const date of undated) {
    const inRun = [...undatedRuns].find((d) => d.slice(4) === date.slice(4))
    if (inRun === undefined || alone.has(inRun)) continue
    alone.set(inRun, alone.get(date)!)
    alone.delete(date)
  }
  return Object.fromEntries([...byRun, ...alone])
}

/** Whether a date is written without a year ("Dec 24", "24.12."). */
const yearless = (written: Written): boolean => !written.iso && written.year === null

/**
 * The days a date names: its own, or a run's from it to `last` (another date), to `until`'s day
 * (RUN_END: "Dec 24-26") or from its `first` ("24.-26.12."). `shown`: the date or run as written.
 */
function runOf(
  written: Written,
  last: Written,
  until: RegExpExecArray | null,
  order: DateOrder,
  shown: string,
): { dates: string[]; run: boolean } | { problem: string } {
  if (last === written && until === null && written.first === undefined) {
    const date = isoDate(written, order)
    return typeof date === 'string' ? { dates: [date], run: false } : date
  }
  const end = last.iso ? { ...isoParts(last.text), year: Number(last.text.slice(0, 4)) } : dayOf(last, order)
  if ('problem' in end) return end
  const start = written.iso ? isoParts(written.text) : written === last ? end : dayOf(written, order)
  if ('problem' in start) return start
  if (until !== null) {
    // "Dec 24-26": the run's last day is in the date's month; "24.12. - 26" writes no run.
    if (!written.dayLast || (written.doubt !== undefined && start.month !== written.doubt[0]))
      return {
        problem: `${JSON.stringify(shown)} is no run of days read: write its first and last day as dates ("24.12.-26.12.", "Dec 24 - Dec 26"), up to ${MOST_DAYS} days, or each date with its hours. ${HOW_WRITTEN}`,
      }
    const year = start.year ?? (until[2] === undefined ? null : Number(until[2]))
    const dates = runDays({ ...start, year }, { month: start.month, day: Number(until[1]), year }, shown)
    return 'problem' in dates ? dates : { dates, run: true }
  }
  const first = written.first === undefined ? start : { ...end, day: written.first }
  const dates = runDays(first, end, shown)
  return 'problem' in dates ? dates : { dates, run: true }
}

/** A YYYY-MM-DD date's day, its year kept. */
const isoParts = (iso: string): Day => {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number]
  return { month, day, year }
}
