// What a week of hours says beside its days and their hours, for week-hours.ts: days written as
// English letters run together ("MWF") or Portuguese ordinals ("2ª a 6ª"), a word for the other
// days ("sonst 11-22"), and bare hours whose half of the day the week's other hours put in doubt.
import { clockText, eitherText, foldHours, parseDayHours } from './hours'
import { NAMED } from './day-names'

/** English one-letter days run together, capitals in the week's order ("MWF"); "MF" could be M-F. */
const LETTERS_RUN = /(?<![\p{L}\d])[MTWRFSU]{3,7}(?![\p{L}\d])/gu
const LETTER_ORDER = 'mtwrfsu'
/** Portuguese days as ordinals: "2ª" (segunda-feira) to "6ª" (sexta-feira), "feira" after them or not. */
const ORDINAL = /(?<![\p{L}\d])([2-6])\.?ª(?:[\s-]*feiras?)?(?![\p{L}\d])/gu
const ORDINAL_DAYS = ['', '', 'seg', 'ter', 'qua', 'qui', 'sex']

/**
 * A week's text with days written so as the days week-hours.ts reads: "MWF 9-5" as "M, W, F 9-5"
 * (only with W, F or R, which Spanish lacks, in order, and no day's name: "FR" is Friday), "2ª a
 * 6ª" as "seg a sex".
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
}

/**
 * A word for the other days, and the hours after it, ending a week ("Mi Ruhetag, sonst 11-22",
 * "Sun closed, otherwise 9-5"): [the days before it, the word, the other days' hours].
 */
const OTHERWISE =
  /^(.*?\S)[\s,;.]+(sonst|ansonsten|andernfalls|otherwise|else|sinon|anders|ellers|annars)(?!\p{L})\s*:?\s*(.*)$/isu

export function otherwise(text: string): [days: string, word: string, hours: string] | null {
  const m = OTHERWISE.exec(text)
  return m === null ? null : [m[1]!, m[2]!, m[3]!.trim()]
}

/** Bare hours closing by 3 after opening from 7 to 11 ("11-1"), read as the afternoon's ("10-2" is 10:00-14:00). */
const BACK = /(?<![\d:.,])(\d{1,2})(\s*-\s*)(\d)(?![\d:.]|\s*[ap]\.?m|\s*h\b|u)/

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
    const f = foldHours(day)
    const m = BACK.exec(f)
    if (m === null) continue
    const [from, to] = [Number(m[1]), Number(m[3])]
    if (from < 7 || from > 11 || to > 3) continue
    const late = week.find((other, i) => other !== day && ends[i]! >= 1320)
    if (late === undefined) continue
    const night = parseDayHours(`${f.slice(0, m.index)}${m[1]}${m[2]}0${m[3]}${f.slice(m.index + m[0].length)}`)
    const afternoon = parseDayHours(day)
    if (night.kind !== 'open' || afternoon.kind !== 'open') continue
    const readings = eitherText([clockText(afternoon.intervals), clockText(night.intervals)])
    return `its "${day}" beside "${late}" could be ${readings}. Write it with the 24-hour clock or am and pm.`
  }
  return null
}
