// Public holidays in a week of hours, for week-hours.ts: removed where a word for except names them
// ("Mo-Fr 9-18 außer Feiertage"), the words joining them to days taken from the days' hours
// ("So. u. Feiertage geschlossen"), days said to have hours on them ("Sunday closed on bank
// holidays"), and Swedish "helger" (the weekend or the holidays).
import { type Grammar, HELG, HOLIDAY_WORDS } from './day-names'
import { parseDayHours } from './hours'
import { daysOf, EXCEPT_ON, EXCEPT_WORDS, folded, isGroup, type Spec } from './week-days'
import { beforeDaysDoubt, say, TRAILING } from './week-words'

/** Public holidays after a word for except ("9-5 (except bank holidays)", "außer an Feiertagen"). */
const EXCEPT_HOLIDAYS = new RegExp(
  `[\\s,;]*\\(?\\s*(?:${EXCEPT_WORDS})\\s+(?:${EXCEPT_ON})?(?:${HOLIDAY_WORDS})(?![\\p{L}\\d])\\s*\\)?`,
  'gu',
)

/** A text less its holidays after a word for except: a rule for them says nothing of the week. */
export function withoutHolidays(text: string): string {
  const { t, at } = folded(text)
  let out = ''
  let from = 0
  for (const m of t.matchAll(EXCEPT_HOLIDAYS)) {
    // A space stands for the words: "Sa außer Feiertage 9-13" is no "Sa9-13".
    out += `${text.slice(from, at[m.index])} `
    from = at[m.index + m[0].length]!
  }
  return out + text.slice(from)
}

/** A word for and ending one day's hours, before holidays ("closed & holidays", "geschlossen und Feiertage"). */
const JOINS_HOLIDAYS = /\s*(?:&|\+|(?<!\p{L})(?:and|und|u\.|en|et|y|e|og|och|i))$/iu
/** A word for and, then for on, before holidays alone ("und an Feiertagen", "and on holidays", "et les jours fériés"). */
const AND_ON = /\s*(?:&|\+|(?<!\p{L})(?:and|und|u\.|en|et|y|e|og|och))\s+(?:an|am|on|les|los|op|i|a)$/iu
/** A word for before between days and holidays alone ("Sa vor Feiertagen", "Sat before bank holidays"). */
const BEFORE_HOLIDAYS = /^(?:vor|before|voor|avant)$/iu
/** Those words before the next days ("Mo-Fr 9-18 und Sa 9-13"); Polish "i" is hoursAfter's. */
const JOINS_DAYS = /\s*(?:&|\+|(?<!\p{L})(?:and|und|u\.|en|et|y|e|og|och))$/iu

/**
 * The specs' hours less a word for and joining the next days, or holidays alone, to them ("Sat-Sun
 * closed & holidays", "Mo-Fr 9-18 und Sa 9-13"): it is no hours', nor kept as the days' text. For
 * each spec, whether it names the days before holidays ("Sa vor Feiertagen"): dates, as they are.
 */
export function holidayWords(
  specs: Spec[],
  hours: string[],
  read: ReadonlyMap<string, number> | null,
  g: Grammar,
): boolean[] {
  const holidaysAlone = (i: number) => i + 1 < specs.length && daysOf(specs[i + 1]![0], read, g).length === 0
  // A day cut short not known ("Sa.- u. Feiertage") keeps its words unread: "-" alone is closed.
  const less = (h: string, words: RegExp) => {
    const out = h.replace(words, '').replace(TRAILING, '')
    return out === '' || /^[-\u2010-\u2015\u2212]+$/.test(out) ? h : out
  }
  for (let i = 0; i + 1 < specs.length; i++) {
    if (holidaysAlone(i)) hours[i] = less(less(hours[i]!, AND_ON), JOINS_HOLIDAYS)
    hours[i] = less(hours[i]!, JOINS_DAYS)
  }
  // "Mon-Fri 9-5 &": a word for and ending the text joins nothing.
  const last = specs.length - 1
  if (last >= 0) hours[last] = less(hours[last]!, JOINS_DAYS)
  return specs.map((_, i) => BEFORE_HOLIDAYS.test(hours[i]!) && holidaysAlone(i))
}

/** Days only German names, or its holidays: "am" before them is German on. */
const GERMAN_NEXT = /^(?:feiertag|sonn-|(?:mon|diens|donners|frei|sams|sonn)tag|mittwoch|sonnabend)/i

/** A word for on before holidays ("Sunday closed on bank holidays", "So 10-12 am Feiertag"). */
const ON_HOLIDAYS = /(?:^|\s)(?:on|an|am|op)\s*$/iu

/**
 * Marks in `said` the specs of days named before whose hours are the holidays' after them, which
 * have none of their own ("Sunday closed on bank holidays"): those hours say nothing of the week.
 * False, saying why, when a day's other hours end in German "am" (on) before German days ("So
 * 10-12 am Feiertag"): no a.m., in doubt as "an" is.
 */
export function onHolidays(
  text: string,
  at: number[],
  specs: Spec[],
  hours: string[],
  read: ReadonlyMap<string, number> | null,
  g: Grammar,
  said: boolean[],
  doubts?: string[],
): boolean {
  for (let i = 0; i + 1 < specs.length; i++) {
    const [spec, next] = [specs[i]!, specs[i + 1]!]
    const between = text.slice(at[spec.index + spec[0].length], at[next.index])
    // One day's text alone: in "Mo-Fr 9-18, geschlossen an Feiertagen" the closed word is the holidays'.
    const own = hours[i]!.replace(ON_HOLIDAYS, '')
    const alone = () => !/[,;|]/.test(own) && parseDayHours(own).kind !== 'unknown'
    // A day given its hours before ("Sun 10-4, Sun closed on bank holidays"): "Sat 10-2 on PH" alone is Saturday's.
    const again = () =>
      daysOf(spec[0], read, g).every((d) => specs.slice(0, i).some((s) => daysOf(s[0], read, g).includes(d)))
    // The costly tests last: `again` reads every spec before, for each spec.
    const before = hours[i + 1] === '' && ON_HOLIDAYS.test(between) && daysOf(next[0], read, g).length === 0
    if (before && alone() && again()) said[i] = true
  }
  const on = hours.findIndex((h, i) => !said[i] && / am$/i.test(h) && GERMAN_NEXT.test(specs[i + 1]?.[0] ?? ''))
  const days = specs[on + 1]
  if (on >= 0 && days)
    say(doubts, beforeDaysDoubt('am', text.slice(at[days.index], at[days.index + days[0].length]).trim()))
  return on < 0
}

/**
 * How "helger" beside Saturday or Sunday named reads: in Swedish the weekend or the holidays
 * (helgdagar). The index of its days to skip as holidays when both weekend days are named apart
 * ("lör 10-16, sön 11-16, helger stängt"); -1, the weekend, when either reading gives one week
 * ("lör 10-15, helger stängt": Sunday closed); null, saying why, when they differ.
 */
export function helgReading(
  specs: Spec[],
  read: ReadonlyMap<string, number> | null,
  g: Grammar,
  hours: string[],
  daysAt: (i: number) => string,
  doubts?: string[],
): number | null {
  const helg = specs.findIndex((spec) => HELG.test(spec[0].replace(/\s*[:=]$/, '').trim()))
  const weekend = (spec: Spec, i: number) =>
    i === helg || isGroup(spec[0]) ? [] : daysOf(spec[0], read, g).filter((d) => d >= 5)
  const apart = new Set(specs.flatMap(weekend))
  if (helg < 0 || apart.size === 0) return -1
  if (apart.size === 2) return helg
  if (parseDayHours(hours[helg]!).kind === 'closed') return -1
  const day = specs.findIndex((spec, i) => weekend(spec, i).length > 0)
  const [word, named] = [daysAt(helg).replace(/\s*[:=]$/, ''), daysAt(day).replace(/\s*[:=]$/, '')]
  say(
    doubts,
    `its "${word}" beside "${named}" could be the weekend or public holidays (helgdagar). Write the weekend's days, such as "lör-sön 10:00-16:00", and leave holidays out.`,
  )
  return null
}
