// A week of opening hours in one text, as store lists and OpenStreetMap write them ("Mon-Fri
// 9-18, Sat 10-14, Sun closed", "Mo-Fr 09:00-18:00; Sa 10:00-14:00", "Lun-Ven 9h-19h"), split
// into each day's text, which parseDayHours then reads. Which days the text names is
// week-days.ts', in which language week-language.ts', what its public holidays say
// week-holidays.ts'; the days' names, in English, German, French, Spanish, Italian, Dutch,
// Portuguese, Polish, Swedish, Danish and Norwegian, are day-names.ts'.
import { BY_APPOINTMENT, eitherHalf, halfClosed, parseDayHours } from './hours'
import { DAYS_IN_ENGLISH, daysAsIn, ENGLISH, type Grammar, NAMED, NORDIC, nordic } from './day-names'
import {
  clock24,
  daysOf,
  folded,
  fourUnread,
  lettersOf,
  meridiemsMasked,
  namesDays,
  polishWeek,
  type Spec,
  suUnread,
} from './week-days'
import { giveDays } from './week-give'
import { helgReading, holidayWords, onHolidays, withoutHolidays } from './week-holidays'
import { languageOf, languagesNamed } from './week-language'
import { monthDoubt } from './week-months'
import { codePoints } from './text'
import { closingAtEnd, closingNoDay, lateAfterDays, lateAside, middayRead } from './week-again'
import {
  CLOCK_DAYS,
  daysSpelledAt,
  isClosed,
  kept,
  lateDoubt,
  middayDoubt,
  otherwise,
  say,
  spacedDoubt,
  spanToNoDay,
  unbracketed,
  untilBetween,
  TRAILING,
  wordsBeforeDays,
} from './week-words'

/** Words before a day or span ("from Monday", "du lundi", "los jueves", "von Montag", "på torsdagar", Polish "w czwartki"). */
const BEFORE_DAYS = 'from|on|von|vom|du|de|del|dal|le|les|el|los|il|van|op|på|pa|w'
/** Words for open and for opening hours, folded, in the languages read ("Öffnungszeiten:", "Öppet"). */
const HOURS_WORDS =
  'hours|geoffnet|offnungszeiten|ouvert|horaires?|abierto|horarios?|aperto|orari|orario|geopend|openingstijden|openingsuren|oppet|oppettider|apent|apningstider|abent|abningstider|aberto|otwarte|godziny\\s+otwarcia'
/** Words a week may start with before its first day ("Open: Mon-Fri 9-5", "Du lundi au samedi"). */
const LEAD = new RegExp(
  `^\\s*(?:(?:open(?:ing)?(?:\\s+(?:hours|times))?|${HOURS_WORDS})\\s*:?)?\\s*(?:(?:${BEFORE_DAYS})\\s+)?$`,
)
/**
 * Those words ending one day's hours belong to the next days ("9h-19h, le samedi ..."); Polish "w"
 * only beside Polish days: beside others it is a one-letter Wednesday ("Mon-Fri 9-5 W").
 */
const BEFORE_NEXT = new RegExp(`(?:^|[\\s,;|/]+)(?:${BEFORE_DAYS.replace(/\|w$/, '')})$`, 'i')
const BEFORE_NEXT_POLISH = new RegExp(`(?:^|[\\s,;|/]+)(?:${BEFORE_DAYS})$`, 'i')

/**
 * Each day's hours text, Monday first ('' for a day the text does not name), or null when the
 * text is not a week of hours this reads: text before the first day, a day without hours, or
 * hours that parseDayHours cannot read. A day named twice takes its last hours, but named alone
 * before a word for days ("Sat 10-2, Weekends closed") it keeps its own (after a span, "Mon-Sat
 * 9-5, Weekends closed", the week is refused). Hours alone ("24/7", "9-18") are every day's;
 * hours before one set of days ("9-5 M-F") are theirs. `keepUnread`: a week read no other way
 * keeps a day's hours it cannot read as written ("Sa nach Vereinbarung"), for them to count as
 * unknown. `doubts` is told why some texts are not read, quoting them as the cell has them: a
 * day named again in doubt ("Mo-Fr 9-12, Mo 7-8": morning or evening?), closed days alone.
 */
export function splitWeekHours(cell: string, keepUnread = false, doubts?: string[]): string[] | null {
  if (overWeekLength(cell)) {
    const such = '"Mon-Fri 09:00-18:00, Sat 10:00-14:00"'
    say(
      doubts,
      `it is ${codePoints(cell)} characters long, and a week is read up to ${WEEK_TEXT_MAX}. Write its hours alone, such as ${such}.`,
    )
    return null
  }
  const said: string[] = []
  const week = splitOne(cell, keepUnread, doubts && said)
  const both = sameTwice(cell, keepUnread, week !== null)
  if (typeof both === 'string') doubts?.push(both)
  else if (both === null) for (const doubt of said) say(doubts, doubt)
  return typeof both === 'string' ? null : (week ?? both)
}

/**
 * The longest text read as a week: one spelled out day by day, two intervals each ("Montag: 09:00 -
 * 12:30 Uhr und 14:00 - 18:30 Uhr, ..."), is about 350 characters. Reading takes time that grows
 * with a text's length and its days, a few milliseconds at this bound: a longer one is no week.
 */
export const WEEK_TEXT_MAX = 500

/** Whether a cell is longer than a week is read (WEEK_TEXT_MAX characters, not UTF-16 units). */
export const overWeekLength = (cell: string) => cell.length > WEEK_TEXT_MAX && codePoints(cell) > WEEK_TEXT_MAX

/** Two halves of a cell apart by a slash or a bar, each a week ("ma-vr 9-18 / lu-ve 9-18", Belgium's Dutch and French). */
const HALVES = /\s+[/|]\s+/

/**
 * A cell of two halves that say the same week in two languages, the first's reading: "ma" is
 * maandag beside "vr", mardi beside "ve", and in doubt no more when both give one week. Why,
 * when each half reads as a week of its own but the two differ in hours, or in days named in
 * two languages; else null. `whole`: the cell reads as one week, as days named in full do
 * ("maandag-vrijdag 9-18 / lundi-samedi 9-18"): its halves are the week twice only when they
 * name a day both, in no one language.
 */
function sameTwice(cell: string, keepUnread: boolean, whole: boolean): string[] | string | null {
  const halves = cell.split(HALVES)
  if (halves.length !== 2) return null
  const [a, b] = halves.map((half) => splitOne(half, keepUnread))
  if (!a?.some((day) => day !== '') || !b?.some((day) => day !== '')) return null
  const [first, second] = halves.map((half) => half.trim()) as [string, string]
  const twice = a.some((day, i) => day !== '' && b[i] !== '') && (languagesNamed(first) & languagesNamed(second)) === 0
  if (whole && !twice) return null
  const only = (x: string[], y: string[]) => DAYS_IN_ENGLISH.filter((_, i) => x[i] !== '' && y[i] === '')
  const [onlyA, onlyB] = [only(a, b), only(b, a)]
  // Halves naming different days are two parts of one week ("Mo-Fr 9-18 / Mo 7-8"), unless no one
  // language names both ("ma-za 9-18 / lu-ve 9-18": Dutch, then French).
  if (onlyA.length + onlyB.length > 0) {
    if ((languagesNamed(first) & languagesNamed(second)) !== 0) return null
    const list = (days: string[]) => (days.length < 2 ? days[0] : `${days.slice(0, -1).join(', ')} and ${days.at(-1)}`)
    const named = [onlyA, onlyB].flatMap((days, i) =>
      days.length === 0 ? [] : [`only the ${i === 0 ? 'first' : 'second'} names ${list(days)}`],
    )
    return `its two halves, "${first}" and "${second}", are the week in two languages but disagree on its days: ${named.join(', ')}. Write the week once, with the days it opens, such as "${first}".`
  }
  const same = (x: string, y: string) => JSON.stringify(parseDayHours(x)) === JSON.stringify(parseDayHours(y))
  if (a.every((day, i) => same(day, b[i]!))) return a
  return `its two halves, "${first}" and "${second}", each read as a week, give different hours. Write the week once, such as "${first}".`
}

function splitOne(cell: string, keepUnread: boolean, doubts?: string[]): string[] | null {
  const months = monthDoubt(cell, readsWhole)
  if (months !== null) {
    say(doubts, months)
    return null
  }
  const spelled = daysSpelledAt(cell)
  const late = lateAfterDays(spelled.text, namesDays)
  // A doubt quotes the late words, and a day and its half in one word, where the cell has them
  // ("open late Thursday till 8", "Mittwochmittag").
  const said: string[] = []
  const week = splitMoved(withoutHolidays(lateAside(late.text)), keepUnread, doubts && said)
  for (const doubt of said) doubts?.push(spelled.asWritten(late.asWritten(doubt)))
  if (week === null && said.length === 0) say(doubts, spacedDoubt(cell))
  return week
}

/** Whether a week's text reads with every day it names known: a season's hours, as monthDoubt's example. */
const readsWhole = (text: string): boolean =>
  splitWeekHours(text)?.every((day) => day === '' || parseDayHours(day).kind !== 'unknown') ?? false

/** splitWeekHours of a text whose words for a late opening follow their days (lateAfterDays). */
function splitMoved(text: string, keepUnread: boolean, doubts?: string[]): string[] | null {
  const rest = otherwise(text)
  if (rest !== null) return otherDays(rest, keepUnread, doubts)
  const week = splitWeek(text, keepUnread, doubts)
  const late = week === null ? null : lateDoubt(week)
  if (late !== null) doubts?.push(late)
  return late === null ? week : null
}

/**
 * A week ending in a word for the other days ("Mi Ruhetag, sonst 11-22"): the days it names as
 * read, the others the hours after the word. Null, saying why, when those hours are not read
 * (then no day is closed for want of them), or the days before the word are not.
 */
function otherDays([days, word, hours]: [string, string, string], keepUnread: boolean, doubts?: string[]) {
  const said: string[] = []
  // "Closed Mondays, otherwise 9-5": closed days first, alone, are read as "Mondays closed".
  const first = CLOSED_FIRST.exec(days)
  const closed = first !== null && isClosed(first[1]!) && namesDays(first[2]!)
  const week = splitWeekHours(closed ? `${first[2]} ${first[1]}` : days, keepUnread, said)
  if (week === null) for (const doubt of said) say(doubts, doubt)
  if (week === null) return null
  // "Mo Oxford, sonst 9-18": words of no day's hours before the word, kept, would leave a day unknown.
  const stray = week.findIndex((day) => day !== '' && parseDayHours(day).kind === 'unknown' && !kept(day))
  if (stray >= 0) {
    doubts?.push(
      `its "${week[stray]}" (${DAYS_IN_ENGLISH[stray]}) before "${word}" is not read as hours. Write that day's hours, such as "${daysAsIn(days, DAYS_IN_ENGLISH[stray]!.slice(0, 3))} 09:00-18:00", or "closed", before "${word}".`,
    )
    return null
  }
  if (parseDayHours(hours).kind === 'unknown' || eitherHalf(hours) !== null) {
    doubts?.push(
      `its hours after "${word}" (the other days), "${hours}", are not read. Write them as hours, such as "${word} 09:00-18:00", or name each day.`,
    )
    return null
  }
  return week.map((day) => (day === '' ? hours : day))
}

/** A word for closed before days alone, a word before them or not ("Closed on Mondays"). */
const CLOSED_FIRST = /^\s*(\p{L}+)(?:\s+(?:on|am|le|el|il|op))?\s+(.+?)\s*$/u

function splitWeek(text: string, keepUnread: boolean, doubts?: string[]): string[] | null {
  const { t: written, at } = folded(text)
  const t = fourUnread(polishUntil(suUnread(written)))
  if (t.trim() === '' || exceptsDays(t)) return null
  // "ma-on 9-17, to 9-19": "on" and "to" are days beside Norwegian days, words beside others.
  const named = nordic(t) ? NORDIC : NAMED
  const said: string[] = []
  const week = splitWith(text, t, at, named, false, said)
  for (const doubt of said) say(doubts, doubt)
  if (week !== null) return week
  // "Mo-Sa 11-2" in doubt as its days name the 24-hour clock: no grammar of letters reads it.
  if (said.some((doubt) => doubt.includes(CLOCK_DAYS))) return null
  const letters = lettersOf(text, t, at)
  if (letters === null) {
    say(
      doubts,
      'its "M" could be Monday, as English writes one letter, or Tuesday (martes), as Spanish does. Write the days\' names, such as "Mon-Sat" or "Mar-Sáb".',
    )
    return null
  }
  // "M-F 9-12 u 1-5": German's und, or the one-letter Sunday? Not guessed.
  if (letters === ENGLISH && LONE_U.test(t)) {
    doubts?.push(
      'its "u" between hours could be German "und" or Sunday. Write "u." or "and" between hours, or "Sun" for Sunday.',
    )
    return null
  }
  // German "u." (und) joins hours: it is no one-letter Sunday ("M-F 9-12 u. 1-5"); nor is "m" of "p.m.".
  const joined = meridiemsMasked(t.replace(GERMAN_AND, '_.'))
  const read = splitWith(text, joined, at, letters, false, doubts) ?? hoursFirst(text)
  if (read !== null || !keepUnread) return read
  // No day is found within "by appointment" words ("Sab su appuntamento": su is no Sunday).
  const mask = (folded: string) => folded.replace(BY_APPOINTMENT, (words) => words.replace(/\p{L}/gu, '_'))
  return splitWith(text, mask(t), at, named, true, doubts) ?? splitWith(text, mask(joined), at, letters, true, doubts)
}

/** Polish "do" (until) before an hour ("czw do 20", "od 9 do 17"): no German or Dutch Thursday. */
const POLISH_UNTIL = /(?<![\p{L}\d])do(?=\s+\d)/gu

/** A folded text with Polish "do" before an hour hidden from the days, when its days read as Polish. */
const polishUntil = (t: string): string => (polishWeek(t) ? t.replace(POLISH_UNTIL, '__') : t)

/** "u." as German shops write und, apart from the words around it; "u" alone between hours. */
const GERMAN_AND = /(?<![\p{L}\d])u\./gu
const LONE_U = /\d\s+u\s+\d/

/** Words for except, and a word before days after them ("sauf le dimanche", "außer am Sonntag"). */
const EXCEPT =
  /(?<![\p{L}\d])(?:except|excl\.?|ausser|außer|sauf|excepto|salvo|menos|tranne|eccetto|behalve)\s+(?:(?:on|am|le|el|il|la|los|op)\s+)?/gu

/**
 * Whether a folded text names days after a word for except ("Daily except Sunday 9-5"): not
 * read, so that the day left out takes no hours and the others none it cannot read.
 */
function exceptsDays(t: string): boolean {
  const starts = new Set([...t.matchAll(NAMED.daysAt)].map((spec) => spec.index))
  return [...t.matchAll(EXCEPT)].some((word) => starts.has(word.index + word[0].length))
}

/** Days as one letter each, first and last ("M-F", "L-V"). */
const LETTER_SPAN = /^\p{L}\.?\s*-\s*\p{L}\.?$/u

/**
 * A week written hours first ("9-5 M-F", "9am-5pm, Monday-Friday", "9-18 Uhr Mo-Fr"), read as
 * days first: open hours for one set of days only, so no day takes another's hours, and "Closed
 * Mondays" closes no week.
 */
function hoursFirst(text: string): string[] | null {
  const whole = text.trim()
  const words = whole.split(/(?<=[\s,:])(?=\S)/)
  // Each word's start, last first: the text from it is the days, before it the hours.
  let at = whole.length
  for (let i = words.length - 1; i > 0; i--) {
    at -= words[i]!.length
    const days = whole.slice(at).trim()
    // Days are words, but for every day's ("7 days a week", "7j/7").
    if (/\d/.test(days) && !namesDays(days)) return null
    // The days first: reading the hours before each of a long text's words is quadratic.
    if (!namesDays(days) && !LETTER_SPAN.test(days)) continue
    const hours = whole.slice(0, at).replace(/[\s,:]+$/, '')
    // Hours in doubt ("5-9 Mo-Fr") are read as their days' language reads them.
    if (parseDayHours(hours).kind === 'open' || eitherHalf(hours) !== null) return splitWeekHours(`${days} ${hours}`)
  }
  return null
}

/**
 * The last word of one day's hours. A word for closed there is the next days', when they have
 * none ("Tue-Sat 10-18, closed Sun & Mon"): parseDayHours knows those words.
 */
const LAST_WORD = /(?:^|[\s,;|/(])(\p{L}+)\s*:?$/u

/** A word before days that ends a word for closed ("Closed on Mondays", "Fermé le lundi"). */
const LEAD_BEFORE = new RegExp(`\\s+(?:${BEFORE_DAYS})\\s*$`)

/**
 * Each spec's hours as written in the text (its case and accents kept), less the words before the
 * next days; a word before days ending the text ("Sat 10-14 on") stays, read as a stray one.
 */
function hoursAfter(text: string, t: string, at: number[], specs: Spec[], polish: boolean): string[] {
  return unbracketed(
    specs.map((spec, i) => {
      const next = i + 1 < specs.length
      const h = text
        .slice(at[spec.index + spec[0].length], at[next ? specs[i + 1]!.index : t.length])
        .replace(TRAILING, '')
        .replace(polish ? BEFORE_NEXT_POLISH : BEFORE_NEXT, '')
        .replace(TRAILING, '')
        .trim()
      // Beside other days "i" joins none ("Sa i So geschlossen"): the day keeps the words around it, unread.
      if (next && /^i$/i.test(h))
        return text.slice(at[spec.index], at[specs[i + 1]!.index + specs[i + 1]![0].length]).trim()
      // The dash between a day and its half closed is no part of it ("Mi - nachmittags geschlossen").
      if (halfClosed(h) !== null) return h.replace(/^[-–—−]\s*/u, '')
      // Polish "i" (and) after a day's hours joins the next days ("pn-pt 9-17 i sob 9-13").
      return untilBetween(next && polish ? h.replace(/(?<=\S)\s+i$/iu, '') : h, polish)
    }),
  )
}

function splitWith(
  text: string,
  t: string,
  at: number[],
  g: Grammar,
  keepUnread = false,
  doubts?: string[],
): string[] | null {
  const found: Spec[] = [...t.matchAll(g.daysAt)].map((m) => ({ 0: m[0], index: m.index }))
  if (found.length === 0) {
    if (parseDayHours(text).kind === 'unknown') return null
    return ['', '', '', '', '', '', ''].fill(text.trim())
  }
  const lead = leadOf(t, found, doubts)
  const language = lead === null ? null : languageOf(text, t, at, lead.specs, g, doubts)
  if (lead === null || language === null) return null
  const { read, polish } = language
  let specs = language.specs
  let hours = hoursAfter(text, t, at, specs, polish)
  const parted = closingFirst(text, t, at, specs, hours, doubts)
  if (parted === null) return null
  if (parted !== specs) [specs, hours] = [parted, hoursAfter(text, t, at, parted, polish)]
  const clock = clock24(specs, g)
  const beforeHolidays = holidayWords(specs, hours, read, g)
  if (lead.closedLead && hours[0] !== '') return null // "Closed Mon 9-17": which is it?
  closedToNext(text, at, hours, lead)
  // "sat=", "Sat:": empty, a day is unknown (an export's blank: closed, or not filled in?).
  if (!onHolidays(text, at, specs, hours, read, g, beforeHolidays, doubts)) return null
  const blank = hours.map((h, i) => h === '' && /[:=]$/.test(specs[i]![0]))
  if (blank.every(Boolean) || (!keepUnread && blank.some(Boolean))) return null
  const daysAt = (i: number) => text.slice(at[specs[i]!.index], at[specs[i]!.index + specs[i]![0].length]).trim()
  const written = [...hours]
  middayRead(
    hours,
    specs.map((spec) => daysOf(spec[0], read, g)),
  )
  const derived = hours.map((h, i) => h !== written[i])
  if (middayDoubt(hours, daysAt, doubts) || spanToNoDay(hours, daysAt, doubts) || closingNoDay(hours, daysAt, doubts))
    return null
  const holidays = helgReading(specs, read, g, hours, daysAt, doubts)
  if ((keepUnread && wordsBeforeDays(hours, daysAt, doubts)) || holidays === null) return null
  const skip = (i: number) => i === holidays || beforeHolidays[i]!
  return giveDays({ specs, read, g, hours, daysAt, derived }, skip, blank, clock, keepUnread, doubts)
}

/** A closing alone's hour and a word before days, right before a list of days ("till 8 on Thu, Sun 10-4"). */
const CLOSING_LIST = new RegExp(`\\d\\p{L}*(?:\\s+(?:uhr|uur|horas))?\\s+(?:(?:${BEFORE_DAYS})\\s+)?$`, 'u')

/**
 * The specs with a list of days after a closing alone parted at its one comma, when the list has
 * hours of its own ("Mon-Sat 9-6, till 8 on Thu, Sun 10-4": Thursday closes at 8, Sunday opens
 * 10-4), as leadOf parts closed days; else `specs` itself. A comma before the days ("pn-pt 9-17,
 * do 20, sob 9-13") ends the closing: it names no day. Null, saying why, for a list of more
 * ("till 8 on Thu, Fri, Sat 10-4"): which of its days close then is not guessed.
 */
function closingFirst(text: string, t: string, at: number[], specs: Spec[], hours: string[], doubts?: string[]) {
  const i = specs.findIndex(
    (spec, i) =>
      i > 0 &&
      hours[i] !== '' &&
      spec[0].includes(',') &&
      closingAtEnd(hours[i - 1]!) !== null &&
      CLOSING_LIST.test(t.slice(specs[i - 1]!.index, spec.index)),
  )
  if (i < 0) return specs
  const { 0: days, index } = specs[i]!
  const comma = days.indexOf(',')
  if (comma !== days.lastIndexOf(',')) {
    const [closing] = closingAtEnd(hours[i - 1]!)!.slice(1)
    const named = text.slice(at[index], at[index + days.length]).trim()
    const first = text.slice(at[index], at[index + comma]).trim()
    const rest = text.slice(at[index + comma + 1], at[index + days.length]).trim()
    say(
      doubts,
      `its "${closing}" before "${named} ${hours[i]}" names no day apart: which of those days close then is not said. Write them apart, such as "${first} ${closing}, ${rest} ${hours[i]}".`,
    )
    return null
  }
  const parts = [
    { 0: days.slice(0, comma), index },
    { 0: days.slice(comma + 1), index: index + comma + 1 },
  ]
  return [...specs.slice(0, i), ...parts, ...specs.slice(i + 1)]
}

/** An example of closed days before the open ones, its days named as the cell's (`t`, folded) are. */
function closedAlone(t: string): string {
  const named = daysAsIn(t, 'Mon closed, Tue-Sun 09:00-18:00')
  return named.startsWith('Mon ') ? 'Closed Mondays, Tue-Sun 09:00-18:00' : named
}

/** The days found less a word for closed before them: its word, and whether it leads days it closes. */
type Lead = { specs: Spec[]; closedWord: string; closedLead: boolean }

/**
 * The days found after the words before the first ("Open:", "Closed Mondays, ..."), or null when
 * those are no words a week starts with. Says why alone, closed days name no others' hours.
 */
function leadOf(t: string, found: Spec[], doubts?: string[]): Lead | null {
  let specs = found
  const lead = t.slice(0, specs[0]!.index)
  const closedWord = lead.replace(LEAD_BEFORE, '')
  // "Closed Mondays, Tue-Sat 10-18": the closed days and the open ones were read as one list of
  // days; its one comma parts them ("Closed Sun, Mon, Tue-Sat": which are closed? not read).
  const comma = specs[0]![0].indexOf(',')
  if (specs.length === 1 && comma > 0 && comma === specs[0]![0].lastIndexOf(',') && isClosed(closedWord)) {
    const { 0: days, index } = specs[0]!
    specs = [
      { 0: days.slice(0, comma), index },
      { 0: days.slice(comma + 1), index: index + comma + 1 },
    ]
  }
  // Alone, "Closed Mondays" would close the whole week: the days it does not name are closed.
  const closedLead = specs.length > 1 && isClosed(closedWord)
  if (specs.length === 1 && isClosed(closedWord) && t.slice(specs[0]!.index + specs[0]![0].length).trim() === '')
    say(
      doubts,
      `it names closed days alone, and no hours for the others. Name the days it opens with their hours too, such as "${closedAlone(t)}".`,
    )
  if (!LEAD.test(lead) && !closedLead) return null
  return { specs, closedWord, closedLead }
}

/**
 * Moves a word for closed ending a spec's hours to the next spec when it has none ("Tue-Sat
 * 10-18, closed Sun & Mon"), and a closing alone so ("Mon-Fri 9-5, till 8 on Thursdays"), and
 * a word for closed leading the days (Lead) to the first's.
 */
function closedToNext(text: string, at: number[], hours: string[], { closedWord, closedLead }: Lead): void {
  for (let i = 0; i < hours.length; i++) {
    if (hours[i] !== '') continue
    if (i === 0 && closedLead)
      hours[0] = text
        .slice(0, at[closedWord.length])
        .replace(/\s*:?\s*$/, '')
        .trim()
    const last = i > 0 ? LAST_WORD.exec(hours[i - 1]!) : null
    const closed = last !== null && isClosed(last[1]!) ? last : null
    const before = closed === null ? '' : hours[i - 1]!.slice(0, closed.index).replace(TRAILING, '').trim()
    if (closed !== null && before !== '') {
      hours[i - 1] = before
      hours[i] = closed[1]!
    }
    // "Mon-Fri 9-5, till 8 on Thursdays": a closing alone before days without hours is theirs.
    const closing = i > 0 && hours[i] === '' ? closingAtEnd(hours[i - 1]!) : null
    if (closing !== null) [hours[i - 1], hours[i]] = closing
  }
}
