// A day's hours in two columns, its opening and its closing time, as store-locator templates and
// exports give them ("mon_open"/"mon_close", "Montag von"/"Montag bis", a second pair after a
// lunch break: "Monday Open 2"/"Monday Close 2", a range's: "Mo-Fr von"/"Mo-Fr bis"), the times
// as Excel writes them. Each pair is
// joined into the day's text ("09:00-17:00"), which core/hours reads as a day column's.
import { foldHours, isTimeOfDay, parseDayHours } from '../core/hours'
import { daysNamed, namesDays } from '../core/week-days'
import { splitWeekHours } from '../core/week-hours'
import { DAYS_IN_ENGLISH } from '../core/day-names'
import { KeptAnswers } from '../core/kept-answers'
import { DAYS } from '../store/locations'
import { MARK } from './csv-columns'
import type { Column } from './csv-header'
import { columnLetter } from './csv-records'
import { closedX } from './csv-week'

/** Words after a day naming its opening time, and its closing time, folded, in the six languages. */
const OPEN_WORDS =
  'open|opens|opening|start|from|von|ab|offnung|offnet|beginn|ouverture|ouvre|debut|de|apertura|abre|desde|dalle|apre|da|van|opent'
const CLOSE_WORDS =
  'close|closes|closing|end|to|until|bis|schließung|schliessung|schließt|schliesst|ende|fermeture|ferme|fin|a|cierre|cierra|hasta|alle|chiusura|chiude|tot|sluit|sluiting'
/** Words for a time a header may write after those ("Mon Opening Time", "Monday Close Hour"). */
const TIME_WORDS = 'time|hour|hours|zeit|uhrzeit|heure|hora|ora|orario|tijd'
/** A header's day, its word for opening or closing, and the pair's number ("Monday Open 2"). */
const TIME_HEADER = new RegExp(`^(.+?) (?:(${OPEN_WORDS})|(${CLOSE_WORDS}))(?: (?:${TIME_WORDS}))? ?([1-9])?$`)
/** The same with the word first ("Öffnung Mo", "Closing Monday 2"); the short words ("a", "de") are not read so. */
const WORD_FIRST = (words: string) => words.split('|').filter((w) => w.length > 2)
const TIME_HEADER_WORD_FIRST = new RegExp(
  `^(?:(${WORD_FIRST(OPEN_WORDS).join('|')})|(${WORD_FIRST(CLOSE_WORDS).join('|')}))(?: (?:${TIME_WORDS}))? (.+?) ?([1-9])?$`,
)

/** A weekday's English name and an opening or closing word with no space between them. */
const GLUED_DAY = /^((?:mon|tues|wednes|thurs|fri|satur|sun)day)(open|close)$/

/**
 * The field of a column of some days' opening or closing time, the days joined by "+":
 * "hours.monday open", "hours.monday close 2", "hours.monday+tuesday+wednesday+thursday+friday open".
 */
const TIME_FIELD = /^hours\.([a-z+]+) (open|close)(?: (\d))?$/

type End = 'open' | 'close'
/** What a field of TIME_FIELD names: its days (Monday = 0), in order, which end of the hours, which pair (1 first). */
type Time = { days: readonly number[]; end: End; pair: number }

/** The days a header's text before its time word names, in order, or null ("mo-fr": Monday to Friday). */
function daysOf(text: string): number[] | null {
  if (!namesDays(text)) return null
  const days = [...new Set(daysNamed(text))].sort((a, b) => a - b)
  return days.length === 0 ? null : days
}

/**
 * The days and end a header names for a column of a time ("Mon_Open", "lundi fermeture", "Mo-Fr
 * von"), or null. A dash or slash is first read as joining days ("Mon-Fri Open", "Sat/Sun Open"),
 * then as a separator ("Mon-Open", "Mon/Open").
 */
function timeColumn(header: string): Time | null {
  const folded = foldHours(header.replace(MARK, ''))
  const range = folded.replace(/\s*([-/])\s*/g, '$1').replace(/[\s_.:()]+/g, ' ')
  const texts = [range.trim(), folded.replace(/[\s_.\-:/()]+/g, ' ').trim()]
  // A day's whole name and the word written as one (Brandify's "mondayopen", "sundayclose").
  const glued = GLUED_DAY.exec(folded.trim())
  if (glued !== null) texts.push(`${glued[1]} ${glued[2]}`)
  for (const text of texts) {
    const m = TIME_HEADER.exec(text)
    const days = m === null ? null : daysOf(m[1]!)
    if (m === null || days === null) continue
    return { days, end: m[2] === undefined ? 'close' : 'open', pair: m[4] === undefined ? 1 : Number(m[4]) }
  }
  for (const text of texts) {
    const m = TIME_HEADER_WORD_FIRST.exec(text)
    const days = m === null ? null : daysOf(m[3]!)
    if (m === null || days === null) continue
    return { days, end: m[1] === undefined ? 'close' : 'open', pair: m[4] === undefined ? 1 : Number(m[4]) }
  }
  return null
}

const fieldOf = ({ days, end, pair }: Time) =>
  `hours.${days.map((d) => DAYS[d]).join('+')} ${end}${pair === 1 ? '' : ` ${pair}`}`

/** What a column's field names when it is some days' opening or closing time, or null. */
export function timeField(field: string): Time | null {
  const m = TIME_FIELD.exec(field)
  if (m === null) return null
  const days = m[1]!.split('+').map((name) => DAYS.indexOf(name as (typeof DAYS)[number]))
  return days.some((d) => d < 0) ? null : { days, end: m[2] as End, pair: m[3] === undefined ? 1 : Number(m[3]) }
}

/**
 * Gives the columns no field reads that name some days' opening or closing time their field, each
 * only beside its other end, of the same days: a lone "Sunday Open" may hold yes or no. The
 * refusal of two columns of one day's time ("Mo-Fr von" and "Mittwoch von"); null when none.
 */
export function readTimeColumns(columns: Column[]): string | null {
  const found = columns.map((c) => (c.field === null ? timeColumn(c.header) : null))
  const fields = found.map((t) => (t === null ? null : fieldOf(t)))
  const where = (i: number) => `"${columns[i]!.header}" (column ${columnLetter(i)})`
  for (const [i, t] of found.entries()) {
    if (t === null || !fields.includes(fieldOf({ ...t, end: t.end === 'open' ? 'close' : 'open' }))) continue
    for (const [other, { field }] of columns.entries()) {
      const o = field === null ? null : timeField(field)
      const day =
        o !== null && o.end === t.end && o.pair === t.pair ? t.days.find((d) => o.days.includes(d)) : undefined
      if (day !== undefined)
        return `the columns ${where(other)} and ${where(i)} both fill ${DAYS_IN_ENGLISH[day]}'s ${t.end === 'open' ? 'opening' : 'closing'} time. Delete or rename one of them.`
    }
    columns[i]!.field = fields[i]!
  }
  return null
}

/** The refusal of a day's times beside another column of its hours (`filled`: each column's days), or null. */
export function timesBeside(columns: readonly Column[], filled: ReadonlyMap<number, readonly number[]>): string | null {
  const where = (i: number) => `"${columns[i]!.header}" (column ${columnLetter(i)})`
  for (const [i, { field }] of columns.entries()) {
    const t = field === null ? null : timeField(field)
    if (t === null) continue
    const other = [...filled].find(([, days]) => t.days.some((d) => days.includes(d)))
    if (other === undefined) continue
    const day = t.days.find((d) => other[1].includes(d))!
    const [a, b] = [other[0], i].sort((x, y) => x - y) as [number, number]
    return `the columns ${where(a)} and ${where(b)} both fill ${DAYS_IN_ENGLISH[day]}'s hours. Delete or rename one of them.`
  }
  return null
}

/** Excel's day zero before a time: a time-only cell exported as a date and time ("1899-12-30 09:00:00"). */
const DAY_ZERO = /^(?:1899-12-3[01]|1900-01-0[01])[ T]/
/** A time as Excel stores it, a fraction of a day ("0.375" is 09:00), with a point or a comma. */
const FRACTION = /^0?[.,]\d+$/
/**
 * Seconds of none after a time ("09:00:00", "9.00.00 A.M."), as Excel writes a time cell: in the
 * cell as written, any case, dots too; hours.ts' readTime reads them in normalHours' text.
 */
const NO_SECONDS = /^(\d{1,2}[:.]\d{2})[:.]00(?=\s*(?:[ap]\.?\s?m\.?)?$)/i

const two = (n: number) => String(n).padStart(2, '0')

/** A cell's time as a day's text writes it ("09:00", "9:00 AM", "9"), from Excel's forms too; null for no time. */
export function timeText(cell: string): string | null {
  const text = cell.trim().replace(DAY_ZERO, '')
  if (FRACTION.test(text)) {
    const minutes = Math.round(Number(text.replace(',', '.')) * 1440)
    return `${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`
  }
  const time = text.replace(NO_SECONDS, '$1')
  return isTimeOfDay(time) ? time : null
}

/** Excel's day fractions of a whole day: 0, midnight, and 1, the day's end (24:00). */
const WHOLE = /^([01])(?:[.,]0+)?$/

/**
 * A pair's times as timeText reads them, but 0 is midnight, not an hour alone in doubt, and beside
 * a day fraction ("0.375") a 1 is the day's end as Excel writes it, not one o'clock.
 */
function pairTimes(a: string, b: string): [string | null, string | null] {
  const fractions = FRACTION.test(a.trim()) || FRACTION.test(b.trim())
  const read = (cell: string) => {
    const whole = WHOLE.exec(cell.trim())?.[1]
    if (whole === '0') return '00:00'
    return whole === '1' && fractions ? '24:00' : timeText(cell)
  }
  return [read(a), read(b)]
}

/** One end's cell: the column it is in, and its text. */
type Cell = [column: number, cell: string]

/**
 * A pair's text: the times joined ("09:00-17:00"); a cell's alone when the other is empty and it
 * is a day's whole text ("closed", "x", "24 hours", "9-17", "by appointment"); '' when both are
 * empty. A time alone, or beside a closed word, is refused, naming both cells.
 */
function pairText(open: Cell, close: Cell, columns: readonly Column[]): string | { message: string } {
  const [a, b] = [open[1], close[1]]
  if (a === '' && b === '') return ''
  const cell = ([i]: Cell) => `the "${columns[i]!.header}" cell (column ${columnLetter(i)})`
  if (a !== '' && b !== '') {
    const [from, to] = pairTimes(a, b)
    if (from !== null && to !== null) return `${from}-${to}`
    // "closed" in both: the day's text once.
    if (foldHours(closedX(a)) === foldHours(closedX(b))) return closedX(a)
    // A time beside a closed word says both that the day opens and that it does not.
    const closed = (text: string) => parseDayHours(closedX(text)).kind === 'closed'
    if (!((from !== null && closed(b)) || (to !== null && closed(a)))) return `${a}-${b}`
    const said = `${cell(open).replace(/^the/, 'The')} gives ${JSON.stringify(a)} but ${cell(close)} gives ${JSON.stringify(b)}.`
    return { message: `${said} Write "closed" in both for a day it does not open, or the times it opens and closes.` }
  }
  const [given, empty] = a === '' ? [close, open] : [open, close]
  const text = closedX(given[1])
  if (!/\d/.test(text) || parseDayHours(text).kind !== 'unknown') return text
  const missing = a === '' ? 'opens' : 'closes'
  const said = `${cell(given).replace(/^the/, 'The')} gives ${JSON.stringify(given[1])} but ${cell(empty)} is empty.`
  return { message: `${said} Write the time it ${missing}, or "closed" in both for a day it does not open.` }
}

/**
 * A row's cells of days' opening and closing times (`cells`: column, field, trimmed text) into
 * body.hours: each day's pairs joined ("09:00-12:30, 14:00-18:00"), a range's for each of its days. A day with every cell empty
 * is closed when another day of the row has hours, as templates leave a closed day, unless the
 * row's week (`week`: its text) is there to give it, as it gives an empty day column's; a row with
 * none keeps its hours, as an empty column of days does. The problems of a time alone, by day.
 */
export function timesInto(
  body: Record<string, unknown>,
  cells: readonly [column: number, field: string, cell: string][],
  columns: readonly Column[],
  week = '',
): { field: string; message: string }[] {
  // By the days a pair's columns name: a range's ("Mo-Fr") read once, its problem said once.
  const ranges = new Map<string, { days: readonly number[]; pairs: Map<number, { open: Cell; close: Cell }> }>()
  for (const [column, field, cell] of cells) {
    const { days, end, pair } = timeField(field)!
    const range = ranges.get(days.join()) ?? { days, pairs: new Map() }
    const ends = range.pairs.get(pair) ?? { open: [column, ''], close: [column, ''] }
    ends[end] = [column, cell]
    range.pairs.set(pair, ends)
    ranges.set(days.join(), range)
  }
  const problems: { field: string; message: string }[] = []
  const texts = new Map<number, string>()
  for (const { days, pairs } of ranges.values()) {
    const parts: string[] = []
    for (const [, { open, close }] of [...pairs].sort(([a], [b]) => a - b)) {
      const part = pairText(open, close, columns)
      if (typeof part !== 'string') problems.push({ field: `hours.${DAYS[days[0]!]}`, ...part })
      else if (part !== '') parts.push(part)
    }
    for (const day of days) texts.set(day, parts.join(', '))
  }
  const given = [...texts.values()].filter((text) => text !== '')
  if (problems.length > 0 || given.length === 0) return problems
  const opens = week.trim() === '' && given.some((text) => parseDayHours(text).kind !== 'closed')
  const hours = (body.hours ?? {}) as Record<string, string>
  for (const [day, text] of texts) hours[DAYS[day]!] = text || (opens ? 'closed' : '')
  body.hours = hours
  return []
}

/**
 * The days each header of some days names ("Mo-Fr": 0-4), kept for the rows after the first.
 * Headers are few; a server reading many files keeps no more than 1,000.
 */
const SPAN_DAYS = new KeptAnswers<number[]>(1000, Number.POSITIVE_INFINITY)

const spanDays = (days: string): number[] =>
  SPAN_DAYS.of(days, () => (splitWeekHours(`${days} closed`) ?? []).flatMap((text, day) => (text === '' ? [] : [day])))

/**
 * The header of the column each day's hours of a row came from, by day (Monday first): its day's
 * column, else its opening time's, else a column of some days, else the week's; undefined for a
 * day no cell of the row fills, and null when the file has no hours columns. A warning of a day's
 * hours names that column.
 */
export function hoursColumnsOf(
  columns: readonly Column[],
  cells: readonly string[],
  spans: readonly [header: string, days: string, hours: string][],
): (string | undefined)[] | null {
  const from: (string | undefined)[] = []
  let week: string | undefined
  let any = spans.length > 0
  const fill = (days: readonly number[], header: string) => {
    for (const day of days) from[day] ??= header
  }
  for (const [i, { field, header }] of columns.entries()) {
    if (field === null || !field.startsWith('hours')) continue
    any = true
    if ((cells[i] ?? '').trim() === '') continue
    const time = timeField(field)
    const day = DAYS.indexOf(field.slice('hours.'.length) as (typeof DAYS)[number])
    if (field === 'hours') week = header
    else if (time !== null) fill(time.end === 'open' ? time.days : [], header)
    else if (field.startsWith('hours.') && day >= 0) fill([day], header)
  }
  if (!any) return null
  for (const [header, days] of spans) fill(spanDays(days), header)
  if (week !== undefined) for (let day = 0; day < 7; day++) from[day] ??= week
  return from
}
