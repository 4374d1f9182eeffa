// The hours cells of a locations CSV that hold more than a day: a week in one cell, its parts in
// columns of some days each, and the special hours cell of dates. Each day's text is core/hours'.
import { DAYS_IN_ENGLISH, daysAsIn, NAMED } from '../core/day-names'
import { eitherHalf, foldHours, halfClosed, isClockHours, parseDayHours } from '../core/hours'
import { daysNamed, holidaysExcepted } from '../core/week-days'
import { isTill, till } from '../core/week-again'
import { overWeekLength, splitWeekHours, WEEK_TEXT_MAX } from '../core/week-hours'
import { daysSpelled } from '../core/week-words'
import { KeptAnswers } from '../core/kept-answers'
import { DAYS } from '../store/locations'
import { keptDayText } from './csv-cells'

/** What a note of some days' own in a cell gives each day (`others`, '' for none), and the hours before it (`first`). */
export type DayNote = { others: readonly string[]; first: string }

/** Google Business Profile's sheet writes a day closed as "x", in its day columns and special hours. */
export const closedX = (text: string) => (/^x$/i.test(text) ? 'closed' : text)

/**
 * Whether a day column's cell reads back as written, with no note (dayCell), under its day's
 * header: asked of every distinct text an export writes. Hours read as they are, with
 * no day named after a separator, are so without the whole reading: the one it would give.
 * Intervals of the 24-hour clock alone ("09:00-18:00") are such hours, known without reading them.
 */
export function dayCellSame(header: string, text: string, day: number): boolean {
  if (isClockHours(text)) return true
  const plain =
    keptDayText(text) === null && !/^x$/i.test(text) && parseDayHours(text).kind !== 'unknown' && !noteAfter(text)
  if (plain) return true
  const read = dayCell(header, text, text, day)
  return read.text === text && read.note === null
}

/** Hours then a separator ("9-18, Sa 10-13"), as a note of some days' own starts: the cell's hours and what follows. */
const NOTE_AFTER = /^([^,;]*\d[^,;]*)[,;]\s*(.+)$/

/** A cell's hours and, after a separator, a note of some days' own: what follows, when a day's name starts it. */
function noteAfter(text: string): [hours: string, rest: string] | null {
  const m = NOTE_AFTER.exec(text)
  // Days first after the hours: else they are more hours ("9-12, 14-18").
  return m !== null && daysNamed(m[2]!.split(/[\s,;:.\-–]+/)[0]!).length > 0 ? [m[1]!, m[2]!] : null
}

/**
 * A day column's cell (closedX), its bare hours in doubt ("5-11:30") read as written under a
 * header naming its day as a language of the 24-hour clock does ("Montag", "mercredi"), as a
 * column of some days' are (spansWeek); kept as written under "Monday". `written`: the cell before
 * its formula guard was taken off; a text the export marked to keep ("'x": keptDayText) is kept.
 * `note`: what the note of some days' own it holds (weekNoteDays) gives each day, for notedDays;
 * null for none.
 */
export function dayCell(
  header: string,
  cell: string,
  written: string,
  day: number,
): { text: string; note: DayNote | null } {
  const kept = keptDayText(written)
  if (kept !== null) return { text: kept, note: null }
  const text = closedX(cell)
  const readings = eitherHalf(text)
  if (readings !== null && splitWeekHours(`${header} ${text}`) !== null) return { text: readings[0]!, note: null }
  const noted = day >= 0 ? weekNoteDays(header, text, [day]) : null
  return noted === null ? { text, note: null } : { text: noted.texts[0]!, note: noted.note }
}

/**
 * A cell of a column of some `days` (a day column's: one) that gives hours and then some days'
 * own ("9-18 Uhr, Do bis 20", copied into each day's column; "9-18, Sa 10-13" under "Mo-Fr"):
 * `texts`, each of the column's days' text as the week reads it beside its `header`, the first
 * hours its own unless the days after give it theirs, or a closing alone ("bis 20") read against
 * the first; `note`, what the note gives each day and its first hours. Null when the cell is not
 * so read. Read before parseDayHours, which takes "Do" for "to" ("9-18 Uhr, Do 9-20 Uhr": 09:00-20:00).
 */
function weekNoteDays(
  header: string,
  text: string,
  days: readonly number[],
): { texts: string[]; note: DayNote } | null {
  const note = noteAfter(text)
  if (note === null || parseDayHours(note[0]).kind === 'unknown') return null
  const [hours, rest] = [note[0].trim(), note[1]]
  const read = noteRead(header, days, rest)
  if (read === null) return null
  const { others, given } = read
  const own = given.every(Boolean) ? [] : (splitWeekHours(`${header} ${hours}, ${rest}`) ?? [])
  const texts = days.map((d, k) => (given[k] ? others[d] || hours : own[d]))
  if (texts.some((t) => t === undefined || parseDayHours(t).kind === 'unknown')) return null
  return { texts: texts as string[], note: { others, first: hours } }
}

/**
 * A note's days (`others`) as the week reads `rest`, and whether each of the column's `days` is
 * given hours or none by it (`given`); null when the note is not read so beside `header`. Asked
 * of every cell with a note: kept by header, days and note, as a file's or an export's rows
 * repeat a few notes ("Sa 10-13") after many hours.
 */
function noteRead(
  header: string,
  days: readonly number[],
  rest: string,
): { others: readonly string[]; given: readonly boolean[] } | null {
  // The header's length first: no two headers and notes give one key, whatever they hold.
  const key = `${days.join()} ${header.length} ${header}${rest}`
  const read = () => {
    const others = splitWeekHours(rest, true)
    const given = days.map((d) => others?.[d] === '' || parseDayHours(others?.[d]).kind !== 'unknown')
    // The days read so beside the header too: "Do" under "Domingo" is Sunday, not Thursday.
    const beside = others !== null && (!given.some(Boolean) || readBeside(header, days, others, rest))
    return beside ? { others, given } : null
  }
  return NOTES_READ.of(key, read, [header, rest])
}

/**
 * noteRead's answers: a file's notes, not every one of a stream of files. A text longer than a
 * week is read (splitWeekHours) is read again at once; kept, it would hold memory.
 */
const NOTES_READ = new KeptAnswers<{ others: readonly string[]; given: readonly boolean[] } | null>(4096, WEEK_TEXT_MAX)

/** Whether a note's days (`others`, of `rest`) are read as they are beside the column's header and its `days`. */
function readBeside(header: string, days: readonly number[], others: readonly string[], rest: string): boolean {
  const names = days.length === 1 ? headerNames(header, days[0]!) : [header]
  const given = days.length === 1 ? others[days[0]!] || 'closed' : 'closed'
  return names.every((name) => {
    const beside = splitWeekHours(`${name} ${given}, ${rest}`, true)
    return beside?.every((h, i) => days.includes(i) || h === others[i])
  })
}

/**
 * The header as its day's names it may be short for, when alone it names not its column's day
 * ("Ma", maandag alone, of Tuesday's column beside "Lu" and "Mi": "martes", "mardi", "martedi"),
 * for a note's days to be read beside each; else the header itself.
 */
const headerNames = (header: string, day: number): string[] =>
  NAMES_OF.of(`${day} ${header}`, () => headerNamesRead(header, day), [header])

/**
 * headerNames' answers by day and header: a file's or an export's few headers, each read once. A
 * header longer than a week is read is no day's name to keep: read again, it is quick.
 */
const NAMES_OF = new KeptAnswers<string[]>(256, WEEK_TEXT_MAX)

function headerNamesRead(header: string, day: number): string[] {
  const alone = splitWeekHours(`${header} closed`)
  if (alone?.every((h, i) => (h !== '') === (i === day))) return [header]
  const short = foldHours(header).replace(/[.:\s]+$/, '')
  const names = [...NAMED.dayOf].filter(([name, d]) => d === day && name.length > 3 && name.startsWith(short))
  return names.length === 0 ? [header] : names.map(([name]) => name)
}

/** Each column of some days with text: its header, the days it names, its hours. */
type Spans = readonly (readonly [header: string, days: string, hours: string])[]

/**
 * A column of some days' cell (`spans[k]`) as the week reads it when read as hours ("Mo-Fr 9-18");
 * else the days it names, read beside the other columns' (`together`, asked for only here: most
 * rows have no such cell), and the note of some days' own it holds (weekNoteDays), null for none.
 */
function readSpan(
  spans: Spans,
  k: number,
  together: () => number[][] | null,
): string | { named: number[]; noted: ReturnType<typeof weekNoteDays>; text: string; asWritten: boolean } {
  const [, days, hours] = spans[k]!
  // A cell after a "'" is kept as written (keptDayText), as a day column's is.
  const asWritten = keptDayText(hours)
  if (asWritten === null && parseDayHours(hours).kind !== 'unknown') return `${days} ${hours}`
  // Hours in doubt ("5-9") are read as written under days named as the 24-hour clock's ("Mo-Fr").
  const half = eitherHalf(hours)
  if (asWritten === null && half !== null && splitWeekHours(`${days} ${hours}`) !== null) return `${days} ${half[0]}`
  const alone = columnsDays([days])?.[0] ?? []
  const named = together()?.[k] ?? alone
  // A column of some days ("Mo-Fr", "Do", "Ma" beside "Lu": martes) holding a note of some days'
  // own hours, as a day column does: weekNoteDays reads the note's days beside the header's.
  const same = asWritten === null && named.length > 0 && alone.length === named.length
  const own = asWritten === null ? ownDaysWeek(hours, named) : null
  return {
    named,
    noted: own ?? (same ? weekNoteDays(days, hours, named) : null),
    text: asWritten ?? hours,
    asWritten: asWritten !== null,
  }
}

/**
 * A column of some days' cell that names those days first ("Mo-Fr 9-18, Do bis 20" under "Mo-Fr"),
 * read as a week cell of them: each of `named`'s text; null when it starts otherwise, is not so
 * read, names them again, or gives hours to a day the column does not name ("Sat 10-2, Daily 9-5"
 * under "Sa").
 */
function ownDaysWeek(cell: string, named: readonly number[]): { texts: string[]; note: DayNote } | null {
  // A cell longer than a week is read is no week (splitWeekHours), and the days' match below
  // takes time that grows with the square of its length.
  if (overWeekLength(cell)) return null
  const m = /^(\D+?)[\s:]*\d/s.exec(cell)
  if (m === null || named.length === 0 || /^['=+@-]/.test(cell)) return null
  const [said] = columnsDays([m[1]!.trim()]) ?? []
  // Its days named again ("So 10-16, So 10-12 am Feiertag") say more than a week cell keeps.
  const again = foldHours(cell).indexOf(foldHours(m[1]!.trim()), m[1]!.length) >= 0
  if (said?.join() !== named.join() || again) return null
  const week = splitWeekHours(cell)
  if (week === null || week.some((text, i) => text !== '' && !named.includes(i))) return null
  const texts = named.map((i) => week[i]!)
  return texts.includes('') ? null : { texts, note: { others: [], first: texts[0]! } }
}

/** The days of each column of some days, read beside each other (columnsDays) once, when first asked. */
function spansTogether(spans: Spans): () => number[][] | null {
  let together: number[][] | null | undefined
  return () => {
    together ??= columnsDays(spans.map(([, days]) => days))
    return together
  }
}

/**
 * The parts of a week in columns of some days each ("Mo-Fr", "Sa", "So"), as parts of one week. A
 * cell not read ("nach Vereinbarung") is kept as written for its column's days, as a week cell's
 * day is: put in `kept` by day; the week reads "closed" in its place, so no word of it is taken
 * for a day. `marked`: the days of a cell marked with a "'" to keep its text ("'-": a text "-").
 */
export function spansWeek(spans: Spans, kept: (string | undefined)[], marked: number[] = []): string[] {
  const together = spansTogether(spans)
  return spans.map(([, days], k) => {
    const read = readSpan(spans, k, together)
    if (typeof read === 'string') return read
    const { named, noted } = read
    if (noted !== null) {
      const { texts } = noted
      // Days given other hours than the first's keep them as the week reads them: "Mo-Fr 9-18, Do bis 20".
      if (texts.some((t) => t !== texts[0])) named.forEach((i, j) => (kept[i] = texts[j]))
      return `${days} ${texts[0]}`
    }
    for (const i of named) kept[i] = read.text
    if (read.asWritten) marked.push(...named)
    return `${days} closed`
  })
}

/** What the notes of some days' own in columns of some days (spansWeek) give each day, for notedDays. */
export function spansNotes(spans: Spans): DayNote[] {
  const together = spansTogether(spans)
  return spans.flatMap((_, k) => {
    const read = readSpan(spans, k, together)
    return typeof read === 'string' || read.noted === null ? [] : [read.noted.note]
  })
}

/**
 * By day, the hours notes of some days' own (dayCell, spansNotes) give a day no cell of the
 * row's day columns (`filled`) or columns of some days names ("9-18, Sa 10-13" beside an empty
 * "Sa", "Samstag" or none), when every note naming it gives the same: else the week would close
 * or clear it, against the notes. A closing alone ("bis 20") is given to a day the row `sets` (its
 * column empty, or closed by the columns of some days), read against the notes' first hours
 * (againstFirst), else as written, unknown: a day the file says nothing of keeps its hours. `said`: that, and why a day notes give different hours is not given
 * them, `left` saying what it is instead ("and its own column is empty, so it is closed").
 */
export function notedDays(
  spans: readonly [string, string, string][],
  notes: readonly DayNote[],
  {
    filled,
    sets,
    left,
  }: { filled: (day: number) => boolean; sets: (day: number) => boolean; left: (day: number) => string },
): { noted: (string | undefined)[]; said: string[] } {
  const noted: (string | undefined)[] = []
  const said: string[] = []
  if (notes.length === 0) return { noted, said }
  const covered = new Set(spans.length === 0 ? [] : (columnsDays(spans.map(([, days]) => days)) ?? []).flat())
  for (let i = 0; i < 7; i++) {
    const given = [...new Set(notes.map(({ others }) => others[i]).filter((h) => h !== undefined && h !== ''))]
    if (covered.has(i) || filled(i) || given.length === 0) continue
    if (given.length === 1 && parseDayHours(given[0]!).kind !== 'unknown') noted[i] = given[0]
    else if (given.length === 1 && isTill(given[0]!) && sets(i) && againstFirst(notes, i) !== null)
      noted[i] = againstFirst(notes, i)!
    else if (given.length === 1 && isTill(given[0]!) && sets(i)) {
      // A closing alone ("Do bis 20") says the day opens, but not when: kept as written, unknown.
      noted[i] = given[0]
      said.push(
        `The notes in the day columns give ${DAYS_IN_ENGLISH[i]} ${JSON.stringify(given[0])}, a closing time without its opening: ${DAYS_IN_ENGLISH[i]} keeps that text, and its hours count as unknown. Write ${DAYS_IN_ENGLISH[i]}'s hours in its column.`,
      )
    } else
      said.push(
        `The notes in the day columns give ${DAYS_IN_ENGLISH[i]} ${given.map((h) => JSON.stringify(h)).join(' and ')}, ${left(i)}. Write ${DAYS_IN_ENGLISH[i]}'s hours in its column.`,
      )
  }
  return { noted, said }
}

/**
 * A day's closing alone ("Do bis 20") read against the first hours of each note naming it ("9-18
 * Uhr": 09:00-20:00), as the note reads under the day's own column; null when the notes do not all
 * read so, and the same.
 */
function againstFirst(notes: readonly DayNote[], day: number): string | null {
  const read = new Set(notes.filter(({ others }) => others[day]).map(({ others, first }) => till(first, others[day]!)))
  const [only] = read
  return read.size === 1 && only !== undefined && only !== null ? only : null
}

/**
 * The days of each column of some days, its header read beside the others' as the week reads
 * them ("Ma" beside "Lu" is martes, alone maandag); null when they are not read together.
 */
function columnsDays(headers: readonly string[]): number[][] | null {
  const mark = (k: number) => `10:${String(k).padStart(2, '0')}-20:00`
  const week = headers.length < 60 ? splitWeekHours(headers.map((days, k) => `${days} ${mark(k)}`).join(', ')) : null
  if (week === null) return null
  return headers.map((_, k) => week.flatMap((h, i) => (h === mark(k) ? [i] : [])))
}

/** A week cell's problems, and whether it names public holidays alone ("Feiertage geschlossen"). */
type WeekRead = { problems: { field: string; message: string }[]; holidaysAlone: boolean }

/**
 * A week of hours in one cell, split into body.hours: each day a day column leaves empty takes
 * the week's text for it ("closed" for a day a week of named days leaves out; '' for every day of
 * an empty cell, as an empty day cell clears it). A day's text not read ("Sa nach Vereinbarung")
 * is kept, as a day column's is: it counts as unknown, and the import warns of it. `spans`: the
 * columns of some days the week was joined from (spansSaid), to name them as the file does.
 */
export const weekInto = (...args: Parameters<typeof weekRead>): WeekRead['problems'] => weekRead(...args).problems

/** weekInto's reading, the cell read once: its problems, and whether it names public holidays alone. */
export function weekRead(
  body: Record<string, unknown>,
  week: string,
  kept: (string | undefined)[] = [],
  spans?: string,
  unsaid: readonly number[] = [],
): WeekRead {
  const doubts: string[] = []
  const read = week === '' || NO_HOURS.test(week) ? DAYS.map(() => '') : splitWeekHours(week, true, doubts)
  const refused = (message: string): WeekRead => ({ problems: [{ field: 'hours', message }], holidaysAlone: false })
  const days = read?.map((hours, i) => kept[i] ?? hours) ?? null
  const hours = (body.hours ?? {}) as Record<string, string>
  // A week that names some days is closed on the others ("Mon-Fri 9-18": closed at the weekend),
  // unless it names closed days alone ("Domingo: cerrado"): that would close the store all week.
  // `unsaid`: days the file has no column for (weekendAlone), left unset: it says nothing of them.
  const named = days?.some((d) => d !== '') ?? false
  const left = (i: number) => (named && !unsaid.includes(i) ? 'closed' : '')
  const shut = (i: number) => parseDayHours(hours[DAYS[i]!] || days![i] || left(i)).kind === 'closed'
  // The example names days as `text` does: a cell not read at all (an address, "75001 Paris, FR")
  // names none but by chance, so its example is English.
  const how = (text: string) =>
    `Write it as "${daysAsIn(text, 'Mon-Fri 09:00-18:00, Sat 10:00-16:00, Sun closed')}", or use one column per day (monday ... sunday).`
  if (days === null) {
    // Every doubt is said: a person mends the cell once. The ones after the first start a sentence.
    const said = doubts.map((doubt, i) => (i === 0 ? doubt : doubt[0]!.toUpperCase() + doubt.slice(1)))
    const why = doubts.length > 0 ? `: ${said.join(' ')}` : `. ${how('')}`
    return refused(`${JSON.stringify(week)} could not be read as a week of opening hours${why}`)
  }
  const closedOnly =
    spans === undefined
      ? `${JSON.stringify(week)} names closed days alone, so it closes the store every day. ${how(week)}`
      : `${spans} are of closed days alone, so the store would be closed every day. Fill in the hours of the days it opens, or leave those cells empty.`
  if (named && days.includes('') && DAYS.every((_, i) => shut(i))) return refused(closedOnly)
  // "Mi nachmittag geschlossen" alone: no day open, the days it leaves out closed, its own unknown.
  const open = (i: number) => parseDayHours(hours[DAYS[i]!] || days[i] || left(i)).kind === 'open'
  const unread = days.some((d) => halfClosed(d) !== null && parseDayHours(d).kind === 'unknown')
  const noneOpen = `${JSON.stringify(week)} gives no day open hours, so every day would be closed or unknown. Name the days it opens with their hours first, such as "${daysAsIn(daysSpelled(week), 'Mon-Fri 09:00-12:30, 14:00-18:00, Wed afternoon closed')}".`
  if (named && days.includes('') && unread && !DAYS.some((_, i) => open(i))) return refused(noneOpen)
  // "Sat: Sun: closed", as "Sat:, Sun: closed": Saturday left empty, no day open, the days not named closed.
  const empty = days.find((d) => /[:=]$/.test(d.trim()) && parseDayHours(d).kind === 'unknown')
  if (named && days.includes('') && empty !== undefined && !DAYS.some((_, i) => open(i)))
    return refused(
      `${JSON.stringify(week)} gives no day open hours, only days closed or left empty ("${empty.trim()}"), so every day would be closed or unknown. Name the days it opens with their hours, such as "${daysAsIn(week, 'Mon-Fri 09:00-18:00, Sat 10:00-14:00, Sun closed')}".`,
    )
  // Public holidays alone ("Feiertage geschlossen") say nothing of the week: its days stay as they are.
  if (week.trim() !== '' && !NO_HOURS.test(week) && read?.every((day) => day === ''))
    return { problems: [], holidaysAlone: true }
  DAYS.forEach((day, i) => {
    if (!hours[day] && (days[i] || !unsaid.includes(i))) hours[day] = days[i] || left(i)
  })
  body.hours = hours
  return { problems: [], holidaysAlone: false }
}

/**
 * What is said of a file whose only columns of hours (`hours`: each header, and the days it
 * names, null for a column of no days) are of some days and name the weekend alone ("Sat-Sun"):
 * its rows leave Monday to Friday unset, not closed, as it says nothing of them. Else null.
 */
export function weekendAlone(hours: readonly (readonly [header: string, days: string | null])[]): string | null {
  if (hours.length === 0 || hours.some(([, days]) => days === null)) return null
  const week = splitWeekHours(hours.map(([, days]) => `${days} closed`).join(', '))
  if (week === null || week.slice(0, 5).some((day) => day !== '')) return null
  const named = hours.map(([header]) => `"${header}"`)
  const which =
    named.length === 1
      ? `only column of days, ${named[0]}, names`
      : `columns of days, ${named.slice(0, -1).join(', ')} and ${named.at(-1)}, name`
  return `The file's ${which} the weekend alone: Monday to Friday were left unset (unknown), not closed. To give them, add a column for them with their hours or "closed", such as "Mon-Fri".`
}

/** A row's cells of columns of some days as the file names them: `The row's hours in the "Sa" and "So" columns ("x"; "zu")`. */
export function spansSaid(spans: readonly (readonly [header: string, days: string, hours: string])[]): string {
  const headers = spans.map(([header]) => `"${header}"`)
  const named =
    headers.length === 1
      ? `the ${headers[0]} column`
      : `the ${headers.slice(0, -1).join(', ')} and ${headers.at(-1)} columns`
  return `The row's hours in ${named} (${spans.map(([, , hours]) => JSON.stringify(hours)).join('; ')})`
}

/** A day's text of only a dash ("-", "–", "—"), as back-office exports write a day without hours. */
const DASH = /^\s*[-\u2010-\u2015\u2212]+\s*$/

/**
 * A row's days of only a dash, closed when another of its days has open hours: exports write a
 * day closed so. Beside none ("-" every day) the row says nothing of them: kept, unread. So are
 * the days of `kept`, whose cells said to keep their text ("'-", as the export writes a text "-").
 */
export function dashesClosed(body: Record<string, unknown>, kept: ReadonlySet<string> = new Set()): void {
  const hours = body.hours as Record<string, string> | undefined
  if (hours === undefined || !DAYS.some((d) => parseDayHours(hours[d]).kind === 'open')) return
  for (const d of DAYS) if (!kept.has(d) && DASH.test(hours[d] ?? '')) hours[d] = 'closed'
}

/** A week cell that gives no hours ("-", "n/a", "k.A."): read as an empty one, every day's hours unknown. */
const NO_HOURS = /^\s*(?:[-\u2010-\u2015\u2212]+|n\s*\/\s*a|n\.\s*a\.?|k\.\s*a\.?)\s*$/i

/**
 * What is said of a week cell read with public holidays excepted ("Mo-Fr 9-18 außer Feiertage",
 * "festivi esclusi"): the week leaves them out, so each day keeps its hours on them. Null for none.
 */
export function holidaysNote(week: string): string | null {
  const words = holidaysExcepted(week).map((word) => JSON.stringify(word))
  if (words.length === 0) return null
  return `The hours ${JSON.stringify(week)} leave out public holidays (${words.join(', ')}): no day of the week is one, so each keeps its hours on them. Write public holidays' hours as special dates (special_hours).`
}

/**
 * What a week cell naming no day made of every day: open hours ("9h-12h / 14h-19h") or closed;
 * null for "Daily 8-22", "24/7". `holidaysAlone`: the cell names public holidays alone (weekRead).
 */
export function noDayNote(body: Record<string, unknown>, week: string, holidaysAlone: boolean): string | null {
  const hours = (body.hours ?? {}) as Record<string, string>
  if (holidaysAlone)
    return `The hours ${JSON.stringify(week)} name public holidays alone, so no day's hours are set. Write the week's hours, such as "${daysAsIn(week, 'Mon-Fri 09:00-18:00')}", and public holidays as special dates (special_hours).`
  if (NO_HOURS.test(week))
    return `The hours ${JSON.stringify(week)} give none, so every day's hours are unknown (as an empty cell's). Write the days it opens with their hours, such as "${daysAsIn(week, 'Mon-Fri 09:00-18:00')}", or "closed" for a store closed every day.`
  const day = DAYS.every((d) => hours[d] === week) ? parseDayHours(week) : null
  if (day?.kind === 'closed')
    return `The hours ${JSON.stringify(week)} close the store every day: it is still listed, as closed. To leave it out of the finder, give it the status draft (a "status" column).`
  if (day?.kind !== 'open' || (day.intervals[0]![0] === 0 && day.intervals[0]![1] >= 1440)) return null
  return `The hours ${JSON.stringify(week)} name no day, so they are read as every day's, Sunday too. If the store closes on some days, name the days it opens, such as "Mon-Sat ${week}".`
}
