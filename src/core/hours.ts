// A day's opening hours as people write them ("09:00-17:00", "9am-5pm", "9h-12h, 14h-18h",
// "Geschlossen", "24 hours"), read into intervals of minutes from local midnight. Text it cannot
// read whole is unknown: never taken for closed.
import { isAscii } from './text'

/**
 * closed: not open that day; open: the intervals, sorted, not overlapping, each [start, end) in
 * minutes from the day's local midnight, an end past 1440 running into the next day (18:00-02:00
 * is [1080, 1560]); unknown: no text, or text not read.
 */
export type DayHours = { kind: 'closed' } | { kind: 'open'; intervals: [number, number][] } | { kind: 'unknown' }

const UNKNOWN: DayHours = { kind: 'unknown' }
const DAY = 1440

/**
 * Words for a day closed, in the languages of the demo's countries (and a few more); a dash before
 * them is the one between a day and its hours ("Mo - geschlossen", "Lun - chiuso"), as "- 9-18" is.
 * week-days.ts reads public holidays said closed by its last group's words ("Feiertage zu").
 */
export const CLOSED =
  /^(- ?)?((temporarily|currently) )?(closed|close|shut|geschlossen|geschl|ruhetag|zu|ferme|fermee|fermeture|cerrado|chiuso|fermes|fermees|cerrados|cerradas|chiusi|chiuse|gesloten|dicht|fechado|fechados|encerrado|encerrados|zamkniete|nieczynne|stangt|stangd|lukket|stengt|suljettu|kiinni)$/

/** Open round the clock ("24/7", "Aperto 24 ore su 24", "ouvert 24h/24 7j/7", "abierto las 24 horas", "h24"). */
const ALL_DAY =
  /^(open |geoffnet |ouvert |abierto |aberto |aperto |geopend |oppet |apent |abent )?(h24|(las )?24 ?(h|hr|hrs|hs|hour|hours|uur|ore|horas|heures|stunden|std|timer|t|tuntia)( ?([/-]|su)? ?(24|7))?( 7 ?j ?\/ ?7)?( (open|geoffnet|geopend|ouvert|aperto|abierto))?|24 ?\/ ?7|always open|round the clock|rund um die uhr( geoffnet)?|ganztagig|dag och natt|dognet rundt|dogna?abent|dognapent|(czynne |otwarte )?(cała dobe|całodobowo))$/

/** Words that join two times of one interval (Polish "od 9 do 17"), and words around a time that say nothing ("durchgehend": no break). */
const TO =
  /\s*(?:-|–|—|−|~|\bto\b|\btill?\b|\buntil\b|\bbis\b|\ba\b|\bal\b|\balle\b|\btot\b|\bdo\b|\bjusqu ?a\b|\bate\b|\bas\b|\bhasta\b)\s*/g
const FILLER =
  /\b(from|von|vom|v(?=\.)|van|od|de|des|dalle|dal|das|desde|kl|klo|uhr|uur|h(?=\s|$)|heures?|ore|horas?|hrs?|hs|hours?|open|geoffnet|ouvert|aperto|abierto|aberto|oppet|abent|auki|durchgehend|non-?stop|sans interruption|orario continuato|continuato|[ecmp][sd]t|ak[sd]t|hst|cet|cest|gmt|bst)\b\.?/g
/** Between intervals ("u.": German shops' und). */
const AND = /\s*(?:,|;|\/|&|\+|\band\b|\bund\b|\bu\b\.?|\bet\b|\by\b|\be\b|\ben\b|\boch\b|\bog\b|\bja\b)\s*/
/** Am or pm after a time's last digit, folded: "9 a.m.", "9am", "5 p. m.". */
export const MERIDIEM = /(\d)\s*([ap])\.?\s?m\b\.?/g
/** Colombia's noon, "12 m." (meridiem) or "12m", opening or closing a range ("de 8 a.m. a 12 m.", "12 m. a 2 p.m."), folded. */
export const NOON_M = /(?<=\b12(?::00)?)(?: ?m\.|m\b)/g

/**
 * Lowercased, accents removed, dashes made one: how hours text is compared (week-hours.ts folds so
 * too). Danish and Norwegian "ø", no accent to Unicode, is "o", as Swedish writes "ö" folded.
 */
export const foldHours = (text: string): string =>
  // ASCII has no accent, dash or "ø" to fold.
  isAscii(text)
    ? text.toLowerCase()
    : text
        .normalize('NFKD')
        .replace(/\p{Mn}/gu, '')
        .toLowerCase()
        .replace(/[–—−]/g, '-')
        .replace(/ø/g, 'o')

/**
 * "By appointment" as English, German, French, Spanish, Italian and Dutch write it, folded: no
 * hours to read, so such a day's text is kept as written and counts as unknown.
 */
export const BY_APPOINTMENT =
  /(?<!\p{L})(?:by appointment|by appt\.?|appointment only|(?:up)?on request|by arrangement|nach vereinbarung|nach absprache|termine? nach|auf anfrage|sur rendez-vous|sur rdv|sur demande|con cita previa|con cita|cita previa|previa cita|su appuntamento|previo appuntamento|su richiesta|op afspraak|op aanvraag)(?!\p{L})/gu

/** Whether a day's text says the store opens by appointment ("Sa nach Vereinbarung", "sur rendez-vous"). */
export const byAppointment = (text: string): boolean => foldHours(text).search(BY_APPOINTMENT) !== -1

/** Folded (foldHours), spaces joined, punctuation that says nothing removed, am and pm as "9am". */
export function normalHours(text: string): string {
  return foldHours(text)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(NOON_M, 'pm')
    .replace(/[.!]+$/, '')
    .replace(MERIDIEM, '$1$2m') // "9 a.m." -> "9am": no "a" left to read as "to"
    .replace(/(\d)([ap])\b/g, '$1$2m') // "9a", "5p" (not "9 a 18", Spanish for "to")
    .replace(/(\d)(hs|hrs?)\b/g, '$1 $2') // "18hs" as "18 hs" (Argentina's horas), a word FILLER takes out
}

/** `bare`: an hour alone ("9"); `zeroed`: an hour written as only the 24-hour clock writes it ("02:00", "2h"). */
type Time = { minutes: number; meridiem: 'am' | 'pm' | null; bare: boolean; zeroed: boolean }

/**
 * "9", "09:30", "9.30", "0930", "9h", "9h30", "9u30" (Belgian Dutch), "9am", "9:30pm", "(12) noon",
 * "(12) midnight", "24:00"; with seconds as databases and spreadsheets export times ("09:30:00",
 * "9.30.00"): none, or 59, a `closing`'s minute's end ("23:59:59" is 24:00; an opening's "09:00:59"
 * is 09:00). csv-times.ts' NO_SECONDS reads a cell's as written.
 */
function readTime(token: string, closing = false): Time | null {
  // Noon and midnight are read as "12pm" and "12am".
  const t = token
    .trim()
    .replace(/^(12 ?)?(noon|midday)$/, '12pm')
    .replace(/^(12 ?)?midnight$/, '12am')
  const m = /^(\d{1,2})(?:[:.hu]?(\d{2}))?(?:[:.](00|59))?(?:\s*h|u)?\s*(am|pm)?$/.exec(t)
  if (m === null) return null
  const hour = Number(m[1])
  const minute = m[2] === undefined ? 0 : Number(m[2])
  const late = m[3] === '59'
  if (minute > 59 || hour > 24 || (hour === 24 && (minute > 0 || late))) return null
  const meridiem = m[4] === undefined ? null : m[4].startsWith('a') ? 'am' : 'pm'
  if (meridiem !== null && (hour === 0 || hour > 12)) return null
  let h = hour
  if (meridiem === 'am' && hour === 12) h = 0
  if (meridiem === 'pm' && hour !== 12) h = hour + 12
  // "02:00", "2h", "2u": French and Dutch write 14:00 "14h", so "2h" is 02:00.
  const zeroed = /^0\d|\d[hu]/.test(t)
  return {
    minutes: h * 60 + minute + (late && closing ? 1 : 0),
    meridiem,
    bare: m[2] === undefined && meridiem === null,
    zeroed,
  }
}

/** Whether a text is one time of day as readTime reads it ("09:00", "9", "9:00 AM", "17.30"). */
export const isTimeOfDay = (text: string): boolean => readTime(normalHours(text)) !== null

/**
 * One interval, "9-17", "9am-5pm", "18:00-02:00", or null. `before`: the day's interval written
 * before it, if any; `guess`: hours in doubt (inDoubt) read as the morning's.
 */
function readInterval(text: string, before?: [number, number], guess = false): [number, number] | null {
  const parts = text.split(TO).filter((p) => p !== '')
  if (parts.length !== 2) return null
  const start = readTime(parts[0]!)
  const end = readTime(parts[1]!, true)
  if (start === null || end === null) return null
  let from = start.minutes
  let to = end.minutes
  // "1-5pm": the start takes the end's half of the day, unless that puts it after the end ("9-5pm").
  // A start written "09:00" is the 24-hour clock's: "09:00-10pm" opens at 9 in the morning.
  // Hour 0 ("0-5pm") is only the 24-hour clock's: never noon.
  if (start.meridiem === null && !start.zeroed && end.meridiem === 'pm' && from >= 60 && from < 720 && from + 720 < to)
    from += 720
  const clockless = start.meridiem === null && end.meridiem === null && !start.zeroed && !end.zeroed
  // A closing in hour 0 ("9-0", "06:00-0", "9-0:30") is the 24-hour clock's midnight or after, never
  // noon; after a bare hour before 07:00 ("6-0": 06:00 or 18:00 to midnight?) it is in doubt.
  if (end.minutes < 60 && end.meridiem === null && (end.minutes === 0 ? from > 0 : from >= 60)) {
    const bareZero = start.meridiem === null && !start.zeroed
    return bareZero && from < 420 ? null : [from, DAY + end.minutes]
  }
  // "6-2": 06:00-14:00 or 18:00-02:00? Guessed, as the 24-hour clock writes it (06:00-02:00).
  if (clockless && before === undefined && closesBack(from, to)) return guess ? [from, to + DAY] : null
  // "9-5", "10-2", no half of the day said: the end is in the afternoon (not 5 in the morning).
  // An end written "02:00" is the 24-hour clock's: past midnight ("10:00-02:00").
  if (
    start.meridiem === null &&
    end.meridiem === null &&
    !end.zeroed &&
    from <= 720 &&
    to < from &&
    to + 720 > from &&
    to <= 720
  )
    to += 720
  // "9-12, 1-5", "12-2, 5-9": hours with no half of the day said that would start before the
  // morning hours written first are the afternoon's, as a day's hours are written in order.
  if (clockless && before !== undefined && from < to && to <= 720 && from < before[0] && before[0] <= 720) {
    if (from + 720 >= before[1]) [from, to] = [from + 720, to + 720]
  }
  if (!guess && before === undefined && clockless && inDoubt(from, to)) return null
  // "10-10", "9-9": a morning to the same hour at night, not no time at all (nor round the clock).
  if (start.bare && end.bare && to === from && from > 0 && from < 720) to += 720
  // "noon-6", "8pm-11", "9am-5": an end with no half of the day said, before its start, is 12 hours on.
  if (start.meridiem !== null && end.meridiem === null && !end.zeroed && to < from && to + 720 > from) to += 720
  if (to === from) return from === 0 ? [0, DAY] : null // "00:00-00:00"; "0-24" is [0, DAY] below
  if (to < from) to += DAY // past midnight: "18:00-02:00"
  return [from, to]
}

/**
 * Hours with no half of the day said that would open before 06:00 and close before noon ("5-9",
 * "1-5"), a day's first: no store writes its night so, yet a bakery's morning is no rarity, so
 * neither the morning nor the evening is guessed.
 */
const inDoubt = (from: number, to: number): boolean => from >= 60 && from < 360 && from < to && to < 720

/**
 * Hours with no half of the day said that open by 06:59 and close before they open ("6-2",
 * "5-1"): a diner's morning to afternoon, a bar's evening to night, neither guessed.
 */
const closesBack = (from: number, to: number): boolean => from >= 60 && from < 420 && to < from

/** Sorted, overlapping or touching intervals joined. */
function merged(intervals: [number, number][]): [number, number][] {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0])
  const out: [number, number][] = []
  for (const [s, e] of sorted) {
    const last = out[out.length - 1]
    if (last !== undefined && s <= last[1]) last[1] = Math.max(last[1], e)
    else out.push([s, e])
  }
  return out
}

/**
 * A break within the day's hours, after them ("9-18, Mittagspause 13-14", "9-18 (lunch
 * 12:30-13:30)"): its words, then its interval.
 */
const BREAK =
  /^(.*?)[\s,;]*\(?\s*(?:mittagspause|pause dejeuner|pause midi|pause|lunch break|closed for lunch|lunch|pausa pranzo|pausa|middagpauze|pauze)\s*:?\s*([^()]*?)\s*\)?$/

/** The day's hours from its text; unknown unless every part of it is read. */
export function parseDayHours(text: string | null | undefined): DayHours {
  const t = normalHours(text ?? '')
  if (t === '') return UNKNOWN
  const day = readNormal(t, CLOCK_24.test(t))
  if (day.kind !== 'unknown') return day
  const guessed = readNormal(t, true)
  if (guessed.kind !== 'open') return day
  // Hours in doubt are a day's first written: "5-9, 15-18" or "5-9, 9:30-12" read as the evening's
  // would overlap the hours after them or come after them, so they are the morning's.
  const doubt = guessed.intervals.findIndex(([from, to]) => inDoubt(from, to))
  if (doubt === -1) return day
  const to = guessed.intervals[doubt]![1]
  const clash = guessed.intervals.some(([s], i) => i !== doubt && s < to + 720)
  return clash ? guessed : day
}

/** Intervals as the 24-hour clock writes them, two digits each: "09:00-18:00", "09:00-12:30, 14:00-18:00". */
const CLOCK_HOURS =
  /^(?:[01]\d|2[0-3]):[0-5]\d-(?:[01]\d|2[0-3]):[0-5]\d(?:, (?:[01]\d|2[0-3]):[0-5]\d-(?:[01]\d|2[0-3]):[0-5]\d)*$/

/**
 * Whether a text is only intervals as CLOCK_HOURS has them, each's ends apart: parseDayHours reads
 * every such text as open hours (each single interval checked, and a million runs of 2 to 4). A
 * test far cheaper than the reading, for a text asked of often.
 */
export function isClockHours(text: string): boolean {
  if (!CLOCK_HOURS.test(text)) return false
  for (let i = 0; i < text.length; i += 13) if (text.slice(i, i + 5) === text.slice(i + 6, i + 11)) return false
  return true
}

/**
 * A day's text not read only for hours in doubt ("5-9", "6-2"): its readings, as HH:MM-HH:MM, the
 * 24-hour clock's first ("05:00-09:00", "17:00-21:00"; "06:00-02:00", "06:00-14:00",
 * "18:00-02:00"); else null.
 */
export function eitherHalf(text: string): string[] | null {
  const day = readDay(text, true)
  if (day.kind !== 'open' || parseDayHours(text).kind !== 'unknown') return null
  const doubt = day.intervals.findIndex(([from, to]) => inDoubt(from, to))
  const back = day.intervals.findIndex(([from, to]) => to > DAY && closesBack(from, to - DAY))
  const at = doubt === -1 ? back : doubt
  if (at === -1) return null
  const [from, to] = day.intervals[at]!
  const instead = (interval: [number, number]) =>
    clockText(merged(day.intervals.map((x, i): [number, number] => (i === at ? interval : x))))
  const other =
    doubt === -1 ? [instead([from, to - 720]), instead([from + 720, to])] : [instead([from + 720, to + 720])]
  return [clockText(day.intervals), ...other]
}

/** Readings as a sentence says them: "A or B", "A, B or C". */
export const eitherText = (readings: string[]): string =>
  readings.length < 2 ? readings.join('') : `${readings.slice(0, -1).join(', ')} or ${readings[readings.length - 1]}`

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
/** Intervals as HH:MM-HH:MM, apart by commas: "07:00-08:00, 09:00-12:00". */
export const clockText = (intervals: [number, number][]): string =>
  intervals.map(([from, to]) => `${hhmm(from)}-${hhmm(to)}`).join(', ')

/** Words for the morning and the afternoon, folded, with the words before them ("in the", "le", "'s"). */
const MORNING =
  "(?:in the |le |la |di |por la |'s )?(?:mornings?|vormittags?|vorm\\.|morgens|matin|mattina|manana|ochtend|ochtends|voormiddag)"
const AFTERNOON =
  "(?:in the |l'|il |di |por la |'s )?(?:afternoons?|nachmittags?|nachm\\.|apres-midi|pomeriggio|tarde|middags?|namiddag)"
const HALF = new RegExp(`^(?:(${MORNING})|(${AFTERNOON}))\\s+(.*)$`)
// Made at its first use: a regex built at the top level is bundled into widget.js, which reads no half closed.
let HALF_CLOSED: RegExp | undefined

/**
 * The half of the day a text closes ("Mi nachmittag geschlossen" for Wednesday: "nachmittag
 * geschlossen", "closed in the afternoon", "après-midi fermé"); null for any other text. A dash
 * before it is the one between a day and its hours ("Mi - nachmittags geschlossen"), as CLOSED's.
 */
export function halfClosed(text: string): 'morning' | 'afternoon' | null {
  HALF_CLOSED ??= new RegExp(`^(?:(?:- ?)?(?:(${MORNING})|(${AFTERNOON})) (.+)|(.+?) (?:(${MORNING})|(${AFTERNOON})))$`)
  const m = HALF_CLOSED.exec(normalHours(text))
  if (m === null) return null
  const closed = m[3] ?? m[4]!
  if (!CLOSED.test(closed)) return null
  return m[1] !== undefined || m[5] !== undefined ? 'morning' : 'afternoon'
}

/** The hours of a day's text that names its half ("matin 9h-12h30", "nachmittags 2-6"), when they lie in it. */
function inHalf(afternoon: boolean, text: string): DayHours {
  const day = readDay(text, true)
  if (day.kind !== 'open') return UNKNOWN
  let intervals = day.intervals
  // Bare hours said to be the afternoon's are after noon: "nachmittags 2-6" is 14:00-18:00.
  if (afternoon && intervals.every(([, to]) => to <= 720))
    intervals = intervals.map(([from, to]): [number, number] => [from + 720, to + 720])
  // A morning ends by 15:00: Spain's "mañana 10-14" or "9:30-14:30" is one.
  const fits = afternoon
    ? intervals.every(([from]) => from >= 720 && from < 1080)
    : intervals.every(([from, to]) => from < 720 && to <= 900)
  return fits ? { kind: 'open', intervals } : UNKNOWN
}

/** Hours written as only the 24-hour clock writes them: "5h", "5h30", "5u", "5-9 Uhr", "5 à 11 heures". */
const CLOCK_24 = /\d[hu](?:\d|\b)|\d h\b|\b(?:uhr|uur|heures?|ore|horas?)\b/

function readDay(text: string | null | undefined, guess: boolean): DayHours {
  if (text === null || text === undefined) return UNKNOWN
  const t = normalHours(text)
  if (t === '') return UNKNOWN
  // "5h-9h", "5-9 Uhr": the morning's; no one writes the evening's so.
  return readNormal(t, guess || CLOCK_24.test(t))
}

/** A day's text as normalHours() gives it, read as readDay reads it. */
function readNormal(t: string, guess: boolean): DayHours {
  const half = HALF.exec(t)
  if (half !== null && /\d/.test(half[3]!)) return inHalf(half[2] !== undefined, half[3]!)
  const pause = /pause|lunch|pausa|pauze/.test(t) ? BREAK.exec(t) : null
  if (pause !== null) return withBreak(readDay(pause[1], guess), pause[2]!)
  if (CLOSED.test(t)) return { kind: 'closed' }
  if (ALL_DAY.test(t)) return { kind: 'open', intervals: [[0, DAY]] }
  const parts = t
    .replace(FILLER, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .split(AND)
    .map((p) => p.trim())
    .filter((p) => p !== '')
  if (parts.length === 0) return UNKNOWN
  const intervals: [number, number][] = []
  for (const part of parts) {
    const interval = readInterval(part, intervals[intervals.length - 1], guess)
    if (interval !== null) {
      intervals.push(interval)
      continue
    }
    // "9-12 14-18": intervals apart by a space alone, each whole ("9 - 18" is one, read above).
    const spaced = part.split(' ')
    if (spaced.length < 2) return UNKNOWN
    for (const text of spaced) {
      const before = intervals[intervals.length - 1]
      const one = readInterval(text, before, guess)
      // Hours that overlap the ones before are not one day's ("9-18 10-14": weekdays, Saturday?).
      if (one === null || (before !== undefined && one[0] < before[1])) return UNKNOWN
      intervals.push(one)
    }
  }
  return { kind: 'open', intervals: merged(intervals) }
}

/** `day`'s hours less the break `text` reads as ("13-14"): unknown unless it lies within one of them. */
function withBreak(day: DayHours, text: string): DayHours {
  const gap = readInterval(text.replace(FILLER, ' ').trim())
  if (day.kind !== 'open' || gap === null) return UNKNOWN
  const [from, to] = gap
  const at = day.intervals.findIndex(([start, end]) => start < from && to < end)
  if (at === -1) return UNKNOWN
  const [start, end] = day.intervals[at]!
  const intervals = [...day.intervals]
  intervals.splice(at, 1, [start, from], [to, end])
  return { kind: 'open', intervals }
}
