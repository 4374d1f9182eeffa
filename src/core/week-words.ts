// What a week of hours says beside its days and their hours, for week-hours.ts: days written as
// English letters run together ("MWF") or Portuguese ordinals ("2ª a 6ª"), a word for the other
// days ("sonst 11-22"), bare hours whose half of the day the week's other hours put in doubt, and
// words a week's days are read beside: a word for some days ("Weekends"), words before days.
import {
  DAYS_IN_ENGLISH,
  daysAsIn,
  languageNames,
  languagesOf,
  NAMED,
  POLISH_DAYS,
  POLISH_OF,
  ROMANCE_OF,
  ROMANCE_ONLY,
} from './day-names'
import { byAppointment, clockText, eitherHalf, eitherText, foldHours, halfClosed, parseDayHours } from './hours'
import type { Spec } from './week-days'

/** Separators left between one day's hours and the next days ("Mon-Fri 9-18 · Sat 10-14"). */
export const TRAILING = /[\s,;|/·•]+$/

/** English one-letter days run together, capitals in the week's order ("MWF"); "MF" could be M-F. */
const LETTERS_RUN = /(?<![\p{L}\d])[MTWRFSU]{3,7}(?![\p{L}\d])/gu
const LETTER_ORDER = 'mtwrfsu'
/** Portuguese days as ordinals: "2ª" (segunda-feira) to "6ª" (sexta-feira), "feira" after them or not. */
const ORDINAL = /(?<![\p{L}\d])([2-6])\.?ª(?:[\s-]*feiras?)?(?![\p{L}\d])/gu
const ORDINAL_DAYS = ['', '', 'seg', 'ter', 'qua', 'qui', 'sex']

/** A day and its half in one word, Dutch and German ("woensdagmiddag", "Mittwochnachmittag", "Mittwochmittag"). */
const DAY_HALF =
  /(?<![\p{L}\d])((?:maan|dins|woens|donder|vrij|zater|zon)dag|(?:mon|diens|donners|frei|sams|sonn)tag|mittwoch)((?:na|voor)?middag|ochtend|(?:nach|vor)?mittags?)(?![\p{L}\d])/giu

/** German "ab mittag(s)", from noon on: the afternoon, as "nachmittags" says it ("Mi ab mittags geschlossen"). */
const FROM_NOON = /(?<![\p{L}\d])ab\s+mittags?(?![\p{L}\d])/giu

/**
 * Days apart by spaces alone before their hours or a colon ("Mo Di Do Fr 8-12"), at the start
 * or after a separator: names in the week's order (spacedDays), none a word that joins days
 * ("Mon to Fri", Norwegian "to") nor Polish "do" (until) after a Polish day ("czw do 20").
 */
const SPACED_DAYS = /(?<=^|[,;/|]\s*)\p{L}+\.?(?:\s+\p{L}+\.?)+(?=\s*:?\s*\d)/gu
const NOT_SPACED = new Set(['to', 'til', 'till', 'tot', 'bis', 'a', 'al', 'au', 'e', 'y', 'et', 'en', 'og', 'och', 'i'])

/** The days a name of a day may be, each with the languages (bits of LANGUAGES) that read it so: "ma" Monday in Dutch, Tuesday in French. */
function readingsOf(name: string): [number, number][] {
  const days = [NAMED.dayOf.get(name), ROMANCE_OF.get(name), POLISH_OF.get(name)].filter((d) => d !== undefined)
  return [...new Set(days)].map((d) => [d, languagesOf(name, NAMED, d)])
}

/**
 * Each name's day as the same names apart by commas read without another sign: "ma", "di", "do"
 * as German and Dutch write them, unless a day only French, Spanish and Italian name so is there.
 */
function commaReading(names: string[]): number[] {
  const romance = names.some((name) => ROMANCE_ONLY.test(name))
  return names.map((name) => ((romance ? ROMANCE_OF.get(name) : undefined) ?? NAMED.dayOf.get(name))!)
}

/**
 * The days of a run of SPACED_DAYS as a language that names them all reads them in the week's
 * order: the one such list, or of several the one commas would give ("Ma Do": maandag and
 * donderdag, not martes and domingo); null for none, for several none of them so, or for Polish
 * "do" (until) after a Polish day ("czw do 20").
 */
function spacedReading(run: string): number[] | null {
  const names = run.split(/\s+/).map((w) => foldHours(w).replace(/\.$/, ''))
  const [before, last] = names.slice(-2)
  if (last === 'do' && before!.replace(POLISH_DAYS, '') === '') return null
  if (names.some((name) => NOT_SPACED.has(name))) return null
  const each = names.map(readingsOf)
  const lists = new Set<string>()
  for (let language = 0; language < 31; language++) {
    const days = each.map((readings) => readings.find(([, bits]) => bits & (1 << language))?.[0])
    if (days.every((d, i) => d !== undefined && (i === 0 || d > days[i - 1]!))) lists.add(days.join(','))
  }
  const commas = commaReading(names).join(',')
  const list = lists.has(commas) ? commas : lists.size === 1 ? [...lists][0]! : null
  return list === null ? null : list.split(',').map(Number)
}

/** Two days apart by a space and a gap ("Mo Fr"): the two, or a span whose dash is lost? */
const inDoubt = (days: number[] | null): days is [number, number] => days?.length === 2 && days[1]! - days[0]! > 1

/**
 * A run of SPACED_DAYS with commas between its days, when spacedReading reads them as one list of
 * three or more days, or two next to each other ("Sa So"); else as written.
 */
function spacedDays(run: string): string {
  const words = run.split(/\s+/)
  const read = spacedReading(run)
  const list = inDoubt(read) ? null : read
  // Only a list commas read alike is written with commas ("Ma Mi": Spanish martes, but "Ma, Mi" maandag).
  const commas = commaReading(words.map((w) => foldHours(w).replace(/\.$/, '')))
  return list?.every((d, i) => commas[i] === d) ? words.join(', ') : run
}

/** Why a week is not read whose two days apart by a space are not next to each other ("Mo Fr 9-18"), or ''. */
export function spacedDoubt(text: string): string {
  for (const [run] of text.matchAll(SPACED_DAYS)) {
    const days = spacedReading(run)
    if (!inDoubt(days)) continue
    const [first, last] = run.split(/\s+/) as [string, string]
    const [from, to] = days.map((d) => DAYS_IN_ENGLISH[d]!)
    return `its "${run}" could be ${from} and ${to}, or ${from} to ${to}. Write "${first}, ${last}" for the two days or "${first}-${last}" for the days from one to the other.`
  }
  return ''
}

/**
 * A week's text with days written so as the days week-hours.ts reads: "MWF 9-5" as "M, W, F 9-5"
 * (only with W, F or R, which Spanish lacks, in order, and no day's name: "FR" is Friday), "2ª a
 * 6ª" as "seg a sex", a day and its half in one word ("woensdagmiddag") as two, German "ab
 * mittags" as "nachmittags", days apart by spaces ("Mo Di Do Fr 8-12") apart by commas.
 */
export function daysSpelled(text: string): string {
  return text
    .replace(LETTERS_RUN, (run) => {
      const t = run.toLowerCase()
      const order = [...t].map((c) => LETTER_ORDER.indexOf(c))
      const rising = order.every((o, i) => i === 0 || o > order[i - 1]!)
      return rising && /[wfr]/.test(t) && !NAMED.dayOf.has(t) ? [...run].join(', ') : run
    })
    .replace(ORDINAL, (_, n: string) => ORDINAL_DAYS[Number(n)]!)
    .replace(DAY_HALF, '$1 $2')
    .replace(FROM_NOON, 'nachmittags')
    .replace(SPACED_DAYS, spacedDays)
}

/**
 * daysSpelled's text, and asWritten: a text quoting it with each day and its half in one word as
 * the text has them ("Mittwochmittag", which daysSpelled writes "Mittwoch mittag"). A quote the
 * text has as it is stays so: "Mittwoch mittag" may be written apart beside "Mittwochmittag".
 */
export function daysSpelledAt(text: string): { text: string; asWritten: (quoting: string) => string } {
  const split = [...text.matchAll(DAY_HALF)].map((m) => [`${m[1]} ${m[2]}`, m[0]] as const)
  const joined = (quote: string) => split.reduce((out, [as, written]) => out.replaceAll(as, written), quote)
  const asWritten = (quoting: string) =>
    split.length === 0
      ? quoting
      : quoting.replace(/"([^"]*)"/g, (q, quote: string) => (text.includes(quote) ? q : `"${joined(quote)}"`))
  return { text: daysSpelled(text), asWritten }
}

/** Whether a word is one for closed, a colon after it or not ("Closed:"). */
export const isClosed = (text: string) => parseDayHours(text.trim().replace(/:$/, '')).kind === 'closed'

/** A bracket opened right before days, or before a word for closed and days ("9-5 (Sat 10-2)", "(closed Sun)"). */
const OPENS = /\(\s*(\p{L}+)?\s*$/u

/**
 * Days' hours less the brackets around days named after other days' hours ("Mon-Fri 9-5 (Sat
 * 10-2)", "Tue-Sat 11-7 (closed Sun/Mon)"). A bracket of other words ("(Dezember Sa 9-18)") stays.
 */
export function unbracketed(hours: string[]): string[] {
  let open = false
  return hours.map((h) => {
    let out = h
    if (open && out.endsWith(')')) {
      out = out.slice(0, -1).trim()
      open = false
    }
    const opens = OPENS.exec(out)
    if (opens !== null && (opens[1] === undefined || isClosed(opens[1]))) {
      open = true
      if (opens[1] === undefined) out = out.slice(0, opens.index).trim()
    }
    return out
  })
}

/**
 * "jusqu'à", "hasta las", "fino alle" between hours ("de 9h jusqu'à 18h", "de 9 hasta las 14",
 * "dalle ore 9 fino alle ore 18"), where "à" reads alike, as parseDayHours reads it.
 */
const UNTIL_BETWEEN =
  /(?<=\d\s*h?(?:\d\d)?)\s+(?:jusqu ?['’]? ?[aà]|hasta\s+las|fino\s+alle(?:\s+ore)?)\s+(?=\d|midi|minuit)/giu
/** French noon and midnight as a closing ("de 9h à midi", "10h-minuit"), in the words parseDayHours reads. */
const FRENCH_NOON = /(?<=\d\s*h?(?:\d\d)?(?:\s+à\s+|\s*[-–—]\s*))(midi|minuit)(?!\p{L})/giu
const noonInEnglish = (hours: string): string =>
  hours.replace(FRENCH_NOON, (word) => (word.toLowerCase() === 'midi' ? 'noon' : 'midnight'))

/**
 * A day's hours with those words between hours written "à", "midi", "minuit" closing them as
 * noon, midnight, and in a Polish week "i" (and) between hours as a comma ("8-12 i 13-17"), when
 * they then read; else as written.
 */
export function untilBetween(hours: string, polish = false): string {
  const joined = polish ? hours.replace(/(?<=\d)\s+i\s+(?=\d)/giu, ', ') : hours
  const as = noonInEnglish(joined.replace(UNTIL_BETWEEN, ' à '))
  return as !== hours && parseDayHours(as).kind === 'open' ? as : hours
}

/**
 * Words for the other days, as written, in the languages read ("the rest of the week", "el
 * resto", "altri giorni", "os restantes dias", "les autres jours", "an allen anderen Tagen", "overige
 * dagen", "övriga dagar", "pozostałe dni").
 */
const OTHER_DAYS = [
  'sonst|ansonsten|andernfalls|otherwise|else|sinon|anders|ellers|annars',
  '(?:the\\s+)?rest\\s+of\\s+(?:the\\s+)?week|(?:all\\s+)?other\\s+days',
  '(?:el\\s+|il\\s+|o\\s+)?resto(?:\\s+de\\s+la\\s+semana|\\s+della\\s+settimana|\\s+da\\s+semana|\\s+de\\s+(?:los\\s+)?d[ií]as)?',
  '(?:los\\s+)?(?:dem[aá]s|otros)\\s+d[ií]as|(?:gli\\s+)?altri\\s+giorni|(?:os\\s+)?(?:restantes|demais|outros)\\s+dias',
  '(?:les\\s+)?autres\\s+jours|le\\s+reste\\s+de\\s+la\\s+semaine',
  '(?:die\\s+|an\\s+den\\s+|(?:an\\s+)?allen\\s+|alle\\s+)?(?:übrigen|restlichen|anderen)\\s+tage(?:n)?|(?:übrige|restliche|andere)\\s+tage',
  '(?:de\\s+)?(?:overige|andere)\\s+dagen|övriga\\s+dagar|øvrige\\s+dage(?:r)?|(?:w\\s+)?pozosta[lł]e\\s+dni',
].join('|')

/**
 * A word for the other days, and the hours after it, ending a week ("Mi Ruhetag, sonst 11-22",
 * "Sun closed, otherwise 9-5", "Lunes cerrado, resto 10-20"): [the days before it, the word, the
 * other days' hours].
 */
const OTHERWISE = new RegExp(`^(.*?\\S)[\\s,;.]+(${OTHER_DAYS})(?!\\p{L})\\s*:?\\s*(.*)$`, 'isu')

export function otherwise(text: string): [days: string, word: string, hours: string] | null {
  const m = OTHERWISE.exec(text)
  if (m === null) return null
  const [days, word, hours] = [m[1]!, m[2]!, m[3]!.trim()]
  // "Lun-Sam 9h-19h, Resto 12h-14h": French "resto" is a restaurant, whose hours are no other day's.
  if (/^resto$/i.test(word) && !isClosed(hours) && !SPANISH_ITALIAN.test(foldHours(days))) return null
  // "Mon-Fri 9-5, closed (on) all other days": a word for closed right before the word is theirs.
  const closed = hours === '' ? /^(.*?\S)[\s,;]+(\p{L}+)(?:\s+on)?$/u.exec(days) : null
  return closed !== null && isClosed(closed[2]!) ? [closed[1]!, word, closed[2]!] : [days, word, hours]
}

/**
 * Days or words only Spanish, Italian or Portuguese write, folded: beside them a bare "resto" is the
 * rest of the week ("Lunes cerrado, resto 10-20"), not French's restaurant.
 */
const SPANISH_ITALIAN =
  /(?<![\p{L}\d])(?:lunes|martes|miercoles|jueves|viernes|sabados?|domingos?|lunedi|martedi|mercoledi|giovedi|venerdi|sabato|domenica|mie|jue|vie|gio|cerrad[oa]s?|chius[oa]|abiert[oa]s?|apert[oa]|fechad[oa]s?|segunda|terca|quarta|quinta|sexta)(?![\p{L}\d])/u

/**
 * Bare hours closing by 3 after opening from 7 to 11 ("11-1", "11 bis 1", "11 à 1", folded), read as
 * the afternoon's ("10-2" is 10:00-14:00).
 */
const BACK =
  /(?<![\d:.,])(\d{1,2})(\s*-\s*|\s+(?:bis|tot|a|al|alle|to|till?|until|do|ate|as|hasta)\s+)(\d)(?![\d:.]|\s*[ap]\.?m|\s*h\b|u)/

/**
 * A day's bare hours closing by 3 after opening from 7 to 11 (BACK), read as the afternoon's and as
 * a night past midnight ("11-1": 11:00-13:00, 11:00-01:00); null for other hours.
 */
function backReadings(day: string): [afternoon: [number, number][], night: [number, number][], closing: string] | null {
  const f = foldHours(day)
  const m = BACK.exec(f)
  if (m === null) return null
  const [from, to] = [Number(m[1]), Number(m[3])]
  // A closing at 0 is midnight (hours.ts), not the afternoon's.
  if (from < 7 || from > 11 || to > 3 || to === 0) return null
  const night = parseDayHours(`${f.slice(0, m.index)}${m[1]}${m[2]}0${m[3]}${f.slice(m.index + m[0].length)}`)
  const afternoon = parseDayHours(day)
  return night.kind === 'open' && afternoon.kind === 'open' ? [afternoon.intervals, night.intervals, m[3]!] : null
}

/**
 * Why a week is not read when a day's bare hours read as the afternoon's ("Fri-Sat 11-1":
 * 11:00-13:00) beside another day's open to 22:00 or later ("Mon-Thu 11-11"): a bar's night past
 * midnight as likely, so neither is guessed. Null when no day is so.
 */
export function lateDoubt(week: string[]): string | null {
  const ends = week.map((day) => {
    const read = parseDayHours(day)
    return read.kind === 'open' ? Math.max(...read.intervals.map(([, to]) => to)) : 0
  })
  for (const day of new Set(week)) {
    const late = week.find((other, i) => other !== day && ends[i]! >= 1320)
    const readings = late === undefined ? null : backReadings(day)
    if (readings === null) continue
    const [afternoon, night] = readings
    return `its "${day}" beside "${late}" could be ${eitherText([clockText(afternoon), clockText(night)])}. Write it with the 24-hour clock or am and pm.`
  }
  return null
}

/** What clockBackDoubt says of the days: a week refused so is read in no other grammar. */
export const CLOCK_DAYS = "its days are named as the 24-hour clock's languages name them"

/**
 * Why some days' bare hours closing by 3 after opening from 7 to 11 ("Mo-Sa 11-2") are not read
 * when the days are named as only languages of the 24-hour clock name them (clock24): on that
 * clock "2" is 02:00, a bar's night, as likely as the afternoon the reader takes it for
 * elsewhere ("Sat 10-2"), so neither is guessed. `shown`: the days and hours as the cell has them.
 * A cell whose other days show the 12-hour clock (twelveHourShown) is read on it instead (giveDays).
 */
export function clockBackDoubt(shown: string, day: string): string | null {
  const readings = backDoubt(day)
  if (readings === null) return null
  const days = shown.slice(0, shown.length - day.length).trim()
  const [afternoon, night] = [clockText(readings[0]), clockText(readings[1])]
  return `its "${shown}" could be ${afternoon} or ${night}: ${CLOCK_DAYS}, where "${readings[2]}" is 0${readings[2]}:00. Write "${days} ${afternoon}" or "${days} ${night}".`
}

/** An hour with am or pm after it, dotted or not ("9a", "6 p.m."). */
const AM_PM = /\d\s*[ap]\.?\s*m(?![\p{L}])/u

/**
 * Whether a day's hours show the 12-hour clock: am or pm, or bare hours to 12 at most, none in
 * doubt as clockBackDoubt's, that read open past noon ("9-6", "10-2 y 5-8"; "9-18" is 24-hour).
 */
export function twelveHourShown(day: string): boolean {
  const f = foldHours(day)
  if (AM_PM.test(f)) return true
  if (backDoubt(day) !== null || /\d\s*h|\d\s*u(?![\p{L}])|(?<!\d)0\d/u.test(f)) return false
  const hours = f.replace(/[:.]\d{2}(?!\d)/g, '').match(/\d+/g) ?? []
  const read = parseDayHours(day)
  if (hours.length === 0 || hours.some((h) => Number(h) > 12) || read.kind !== 'open') return false
  return read.intervals.some(([, to]) => to > 720 && to <= 1440)
}

/** Whether a day's hours show the 24-hour clock: an hour from 13 written, with no am or pm ("9-18", "11-23"). */
export function twentyFourShown(day: string): boolean {
  const f = foldHours(day)
  return !AM_PM.test(f) && /(?<![\d:.])(?:1[3-9]|2[0-4])(?!\d)/.test(f)
}

/** A day's readings (backReadings) clockBackDoubt refuses: one interval, opening from 10:00. */
function backDoubt(day: string): ReturnType<typeof backReadings> {
  const readings = backReadings(day)
  // A day in two parts ("9-1, 2-5.30") or open by 09:00 ("Mo-Fr 7-3": a bakery's) is no night.
  if (readings === null || readings[0].length > 1 || readings[1].length > 1 || readings[0][0]![0] < 600) return null
  return readings
}

/** A day's text kept unread as a week's may be: by appointment, hours in doubt, a half of the day closed. */
export const kept = (day: string) => byAppointment(day) || eitherHalf(day) !== null || halfClosed(day) !== null

/** A doubt told once, however many readings of a week meet it. */
export function say(doubts: string[] | undefined, doubt: string): void {
  if (doubt !== '' && !doubts?.includes(doubt)) doubts?.push(doubt)
}

/**
 * The days a word for some days ("Weekends closed") gives its hours after days named before it
 * (named): those not named. Days it gives the hours they have (`same`) lose none ("Mo-Fr 9-17,
 * täglich 9-17"). Null, saying why, when it gives no day hours, or a day of a span others
 * (`spanDoubt` names both readings).
 */
export function groupDays(
  all: number[],
  named: ReadonlyMap<number, 'alone' | 'span'>,
  same: (d: number) => boolean,
  spanDoubt: (d: number) => string,
  shown: () => string,
  cellDays: () => [days: string, words: string],
  doubts?: string[],
): number[] | null {
  const spanned = all.find((d) => named.get(d) === 'span' && !same(d))
  const days = all.filter((d) => !named.has(d))
  if (spanned === undefined && (days.length > 0 || all.some(same))) return days
  if (spanned !== undefined) {
    say(doubts, spanDoubt(spanned))
    return null
  }
  const [cell, words] = cellDays()
  say(
    doubts,
    `its "${shown()}" names only days given their own hours before it. Write each day's hours once, such as "${daysAsIn(cell, 'Mon-Fri 09:00-17:00, Sat 10:00-14:00, Sun closed', words)}".`,
  )
  return null
}

/** Why a day's words before the next days (`days`, whose language the example's day is in) are not read. */
export const beforeDaysDoubt = (tail: string, days: string) =>
  `its "${tail}" before "${days}" is not read. Write those days' hours alone, such as "${daysAsIn(days, 'Sat 10:00-14:00')}", or leave them out.`

/**
 * Whether a day's hours end in words of none before the next days ("Mon-Fri 9-5, every other Sat
 * 10-2"): kept unread, they would leave the next days read as every week's. Says which.
 */
export function wordsBeforeDays(hours: string[], daysAt: (i: number) => string, doubts?: string[]): boolean {
  for (let i = 0; i + 1 < hours.length; i++) {
    const day = hours[i]!
    if (parseDayHours(day).kind !== 'unknown' || kept(day)) continue
    const words = day.split(/(?<=[\s,;])(?=\S)/)
    for (let k = words.length - 1; k > 0; k--) {
      if (
        parseDayHours(
          words
            .slice(0, k)
            .join('')
            .replace(/[\s,;]+$/, ''),
        ).kind !== 'open'
      )
        continue
      const tail = words
        .slice(k)
        .join('')
        .replace(/^[\s(]+/, '')
        .trim()
      say(doubts, beforeDaysDoubt(tail, daysAt(i + 1)))
      return true
    }
  }
  return false
}

/**
 * Why a day given open hours and closed, each named alone ("zo 12-17, zon- en feestdagen
 * gesloten"), is not read: which is meant is not guessed. `open`: the open hours; `holidays`: either
 * text names them too.
 */
export function clashDoubt(first: string, next: string, day: number, open: string, holidays: boolean): string {
  const name = DAYS_IN_ENGLISH[day]!
  const read = parseDayHours(open)
  const hours = read.kind === 'open' ? clockText(read.intervals) : open
  const apart = holidays ? ', and public holidays as special dates (special_hours)' : ''
  const short = daysAsIn(`${first} ${next}`, name.slice(0, 3))
  return `its "${first}" and "${next}" give ${name} both open hours and closed. Write ${name}'s hours once, such as "${short} ${hours}" or "${short} closed"${apart}.`
}

/**
 * Why a day given its hours (`hours`), then by a span after them (`next`) other hours
 * (`other`), is not read: either could be meant ("Mon-Fri 9-5, Mon-Sun 10-20").
 */
export function coverDoubt(first: string, next: string, day: number, hours: string, other: string): string {
  const name = DAYS_IN_ENGLISH[day]!
  const shown = (text: string) => {
    const read = parseDayHours(text)
    return read.kind === 'open' ? clockText(read.intervals) : 'closed'
  }
  const short = daysAsIn(`${first} ${next}`, name.slice(0, 3))
  return `its "${first}" and "${next}" after it give ${name} other hours, and the later would replace the earlier. Write ${name}'s hours once, such as "${short} ${shown(hours)}" or "${short} ${shown(other)}".`
}

/**
 * Why a day given its hours, then named again alone with a text not read ("Sun 12-5, Sun closed in
 * January"), is not read: the hours would be lost to it. `hours`: the day's first, as read.
 */
export function lostDoubt(first: string, next: string, day: number, hours: string): string {
  const name = DAYS_IN_ENGLISH[day]!
  const read = parseDayHours(hours)
  const shown = read.kind === 'open' ? clockText(read.intervals) : 'closed'
  const short = daysAsIn(`${first} ${next}`, name.slice(0, 3))
  return `its "${first}" and "${next}" give ${name} its hours and a text not read as hours. Write ${name}'s hours once, such as "${short} ${shown}", and the dates they differ on as special dates (special_hours).`
}

/**
 * A dash after days, then a word: a span to a day of a language not read ("Pon-Pet", "Ma-Pe",
 * "So-Ne"). Not a word for and after a day cut short ("Sa.- u. Feiertage").
 */
const SPAN_TO_WORD = /^[-\u2010-\u2015\u2212]\s*(?!(?:u|und|and|et|y|e|en|og|och|i)(?![\p{L}]))(\p{L}+\.?)/u

/**
 * "a", as Spanish, Portuguese and Italian write a span ("Lun a Vie"), then a word cut short as days
 * are, then hours, after a colon or not ("Pon a Pet 8-20", "Pon a Pet: 8-20"): a span to a day not
 * read. Not a word of the hours after "a" ("Sáb a las 10-14", "Sab a ore 9"), nor words of no hours
 * ("Sáb a convenir", "Sa a. A.").
 */
const A_SPAN_TO_WORD =
  /^a\s+(?!(?:la|las|lo|los|le|les|el|il|gli|ore|un|una|um|uma|as|os)(?![\p{L}]))(\p{L}{2,4}\.?)(?![\p{L}\d])\s*:?\s*(.*)$/isu

/**
 * The word a spec's hours start with as a span's end that is no day read, or null. A word for closed
 * after the dash is the day's ("Sat - closed for lunch 12-13"), as "Sat - closed" is, and so is a
 * half of the day closed ("Mi - nachmittags geschlossen").
 */
function spanEnd(hours: string): string | null {
  const dash = SPAN_TO_WORD.exec(hours)
  if (dash !== null && (parseDayHours(dash[1]!).kind === 'closed' || halfClosed(hours) !== null)) return null
  if (dash !== null) return parseDayHours(hours.replace(/^\S\s*/, '')).kind === 'unknown' ? dash[1]! : null
  const a = A_SPAN_TO_WORD.exec(hours)
  return a !== null && (/^\(?\d/.test(a[2]!) || parseDayHours(a[2]).kind !== 'unknown') ? a[1]! : null
}

/** A day's text of German midday and a word after it, the dash after the day or not ("Mi - mittags geschlossen"). */
export const MIDDAY = /^(?:[-\u2010-\u2015\u2212]\s*)?(?:über\s+)?mittags?\s+(\p{L}+)$/iu

/**
 * Whether a spec's hours close at midday in German ("Mi - mittags geschlossen"): over lunch, or from
 * noon on? Not guessed, and no span to a day "mittags" either. Says why.
 */
export function middayDoubt(hours: string[], daysAt: (i: number) => string, doubts?: string[]): boolean {
  const i = hours.findIndex((h) => isClosed(MIDDAY.exec(h)?.[1] ?? ''))
  if (i < 0) return false
  const days = daysAt(i).replace(/\s*[:=]$/, '')
  say(
    doubts,
    `its "${days} ${hours[i]}" does not say when it closes at midday: over lunch, or from noon on? Write its hours, such as "${days} 09:00-12:00, 14:00-18:00", or "${days} nachmittags geschlossen".`,
  )
  return true
}

/**
 * Whether a spec's hours start with a span's end that is no day read ("Pon-Pet 8-20": Croatian
 * Monday to Friday, of which only "Pon", Polish, is read; "Pon a Pet 8-20"): its one day would
 * keep that text unread and the days of the span be closed, so the week is refused. Says why.
 */
export function spanToNoDay(hours: string[], daysAt: (i: number) => string, doubts?: string[]): boolean {
  const i = hours.findIndex((h) => spanEnd(h) !== null)
  if (i < 0) return false
  const word = spanEnd(hours[i]!)!
  const names = languageNames(-1).split(' or ')
  say(
    doubts,
    `its days from "${daysAt(i)}" to "${word}" are not read: "${word}" is no day's name read. Write the days as ${names.slice(0, -1).join(', ')} or ${names.at(-1)} name them, such as "Mon-Fri 09:00-18:00".`,
  )
  return true
}

/**
 * Why Polish days joined by another language's word are not read ("Pn a Pt": Polish "a" is and,
 * no span; "Pn bis Pt"), or '' when their days name no such word. `specs` as found in the folded text.
 */
export function polishJoinDoubt(text: string, at: number[], specs: Spec[]): string {
  for (const spec of specs) {
    const left = spec[0].replace(POLISH_DAYS, (day) => ' '.repeat(day.length))
    const word = [...left.matchAll(/\p{L}+/gu)].find((m) => m[0] !== 'i' && m[0] !== 'swieta')
    if (word === undefined) continue
    const from = spec.index + word.index
    const shown = text.slice(at[from], at[from + word[0].length])
    const days = text.slice(at[spec.index], at[spec.index + spec[0].length]).replace(/\s*[:=]?\s*$/, '')
    return `its "${shown}" in "${days}" joins Polish days as Polish does not. Write a span with a dash and days apart with "i", such as "Pn-Pt" or "Sob i Nd".`
  }
  return ''
}
