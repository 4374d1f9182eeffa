// The days a week of hours names, and the language they are read in, for week-hours.ts: a text
// of days alone read as days ("Mo-Fr", "Weekends"), one-letter days read as English or Spanish
// ("M-F", "L-V"), whether its bare hours are the 24-hour clock's, a day named in another language
// than the others. The days' names are day-names.ts'.
import { CLOSED, foldHours, MERIDIEM, NOON_M } from './hours'
import { isAscii } from './text'
import {
  DAYS_IN_ENGLISH,
  ENGLISH,
  ENGLISH_BIT,
  ENGLISH_DAYS,
  ENGLISH_ONLY_LETTER,
  EVERY_DAY,
  type Grammar,
  HOLIDAY_WORDS,
  headersRomance,
  isHoliday,
  languageNames,
  languagesOf,
  NAMED,
  namesOfDays,
  notPolish,
  POLISH_OF,
  POLISH_ONLY,
  readsPolish,
  ROMANCE_OF,
  SHARED_BESIDE_LETTERS,
  SHARED_LETTERS,
  SPANISH,
  SPANISH_BIT,
  spanishNotGerman,
  WEEKDAYS,
  WEEKENDS,
} from './day-names'

/**
 * Whether a week's days are named as only languages of the 24-hour clock name them ("Mo-Sa",
 * "lun-ven", "ma-za", "L-V"): then its bare hours are as written ("5-9" is 05:00-09:00).
 */
export function clock24(specs: Spec[], g: Grammar): boolean {
  if (g === ENGLISH || specs.some((spec) => ENGLISH_DAYS.test(spec[0]))) return false
  const letters = specs.some((spec) => spec[0].search(SHARED_LETTERS) >= 0)
  const unshared = (days: string) => {
    const named = days.replace(SHARED_LETTERS, '')
    return letters ? named.replace(SHARED_BESIDE_LETTERS, '') : named
  }
  return specs.some((spec) => /\p{L}/u.test(unshared(spec[0])))
}

/**
 * The text in lower case, accents removed, dashes made one, as the day names above are written;
 * `at`: for each of its characters (and its end) where it comes from in the text.
 */
export function folded(text: string): { t: string; at: number[] } {
  // ASCII (most text): each character folds to one, its own place.
  if (isAscii(text)) return { t: text.toLowerCase(), at: Array.from({ length: text.length + 1 }, (_, i) => i) }
  let t = ''
  const at: number[] = []
  let i = 0
  for (const ch of text) {
    const f = foldHours(ch)
    for (let k = 0; k < f.length; k++) at.push(i)
    t += f
    i += ch.length
  }
  at.push(text.length)
  return { t, at }
}

/** The days a match of a grammar's daysAt names, Monday = 0; `read`: two-letter days read otherwise (ROMANCE_OF). */
export function daysOf(spec: string, read: ReadonlyMap<string, number> | null, g: Grammar): number[] {
  const text = spec.replace(/\s*[:=]$/, '').trim()
  if (EVERY_DAY.test(text)) return [0, 1, 2, 3, 4, 5, 6]
  if (WEEKDAYS.test(text)) return [0, 1, 2, 3, 4]
  if (WEEKENDS.test(text)) return [5, 6]
  const dayOf = (name: string) => read?.get(name) ?? g.dayOf.get(name)!
  const days: number[] = []
  for (const [, first, last] of text.matchAll(g.spanParts)) {
    if (isHoliday(first!)) continue
    const from = dayOf(first!)
    // A day joined to holidays by a dash is no span: "So-Feiertag" is Sunday, and holidays.
    if (last !== undefined && isHoliday(last)) {
      days.push(from)
      continue
    }
    // English letters' "S-S" ("Sa-S") is Saturday to Sunday, as American signs write it: S is both.
    const to = last === undefined ? from : g === ENGLISH && from === 5 && last === 's' ? 6 : dayOf(last)
    // A span may wrap past Sunday: "Fr-Mo" is Friday to Monday.
    for (let d = from; ; d = (d + 1) % 7) {
      days.push(d)
      if (d === to) break
    }
  }
  return days
}

/**
 * Whether a text names days and nothing else, with their names as above (not one letter each):
 * "Mo-Fr", "Sat & Sun", "Weekdays"; not "Sales" (S a L e S, as Spanish letters would read it).
 */
export function namesDays(text: string): boolean {
  const t = foldHours(text).trim()
  const [spec, more] = [...t.matchAll(NAMED.daysAt)]
  return (
    spec !== undefined &&
    more === undefined &&
    spec.index === 0 &&
    spec[0].length === t.length &&
    daysOf(spec[0], null, NAMED).length > 0
  )
}

/** The days a text naming days alone names (namesDays), Monday = 0, in their order; [] for none. */
export function daysNamed(text: string): number[] {
  const spec = foldHours(text).trim().match(NAMED.daysAt)
  return spec === null ? [] : daysOf(spec[0], null, NAMED)
}

/**
 * The days each of some texts naming days alone names, read together as one week's days are:
 * "Di" beside "Lu-Ve" is dimanche, "So" beside "Pn-Pt" sobota.
 */
export function daysNamedTogether(texts: string[]): number[][] {
  const specs = texts.map((text) => foldHours(text).trim().match(NAMED.daysAt)?.[0] ?? null)
  const named = specs.filter((spec) => spec !== null)
  // As in a week's text, a day only Polish names beside another language's ("PN" beside "Mo-Fr") is none.
  const polish = readsPolish(named)
  const mixed = polish && named.some(notPolish)
  const read = headersRomance(named, NAMED) ? ROMANCE_OF : polish && !mixed ? POLISH_OF : null
  return specs.map((spec) => (spec === null || (mixed && POLISH_ONLY.test(spec)) ? [] : daysOf(spec, read, NAMED)))
}

/**
 * Whether a folded week's days, "do" left out, are Polish and no other language's: there "do"
 * before an hour is until ("od 9 do 17"). Beside German days ("Mo-Fr 9-18, Do 9-20, SB 24h")
 * it is Thursday.
 */
export function polishWeek(t: string): boolean {
  const days = [...t.matchAll(NAMED.daysAt)].map((spec) => spec[0]).filter((spec) => !/^do\b/.test(spec))
  return readsPolish(days) && !days.some(notPolish)
}

/** A folded text with the "su" of Italian "24 ore su 24" (round the clock) masked: no Sunday. */
export const suUnread = (t: string): string => t.replace(/(?<=24 ?ore )su(?= ?24(?!\d))/g, '__')

/** "vier": Spanish viernes, and four in German and Dutch. */
const FOUR = /(?<![\p{L}\d])vier(?![\p{L}\d])/gu

/**
 * A folded text with "vier" masked unless its other days are all Spanish, one of them neither
 * German nor Dutch ("Lun-Vier 9-18"): beside others it is four ("Mo-Fr 9-18, vier Wochen zu").
 */
export function fourUnread(t: string): string {
  if (t.search(FOUR) < 0) return t
  const masked = t.replace(FOUR, '____')
  const names = namesOfDays(
    [...masked.matchAll(NAMED.daysAt)].map((spec) => spec[0]),
    NAMED,
  ).filter((name) => !isHoliday(name))
  const spanish = names.every((name) => languagesOf(name, NAMED) & SPANISH_BIT) && names.some(spanishNotGerman)
  return spanish ? t : masked
}

/** One-letter days only Spanish writes (X for miércoles), and M, Monday or martes; "a.m." and Dutch "t/m" are no M. */
const SPANISH_ONLY_LETTER = /(?<![\p{L}\d])[lxjvd](?![\p{L}\d])/u
const LETTER_M = /(?<![\p{L}\d]|t\/)m(?![\p{L}\d])/u

/**
 * A folded text with each am and pm as normalHours reads them (MERIDIEM) masked, its length kept:
 * no "a" or "m" of "10 a.m.-6 p.m." is a one-letter day, nor Spanish "a" (to).
 */
export const meridiemsMasked = (t: string): string =>
  t
    .replace(MERIDIEM, (m, digit: string) => digit + '_'.repeat(m.length - 1))
    .replace(NOON_M, (m) => '_'.repeat(m.length))

/**
 * How a folded text's one-letter days are read: as English writes them with F, W or R, as
 * Spanish does with L, X, J, V or D; else as its days named in full say ("M-Sa": Monday, Sa
 * English's too; "M-Sáb": martes). Null when an M is read neither way ("M-S 9-5").
 */
export function lettersOf(text: string, t: string, at: number[]): Grammar | null {
  if (ENGLISH_ONLY_LETTER.test(t)) return ENGLISH
  if (SPANISH_ONLY_LETTER.test(t)) return SPANISH
  // A name written with an accent ("Sá", "Sáb") is none of English's, whatever it folds to.
  const bitsOf = (name: string, from: number) => {
    const accented = /[^\p{ASCII}]/u.test(text.slice(at[from], at[from + name.length]))
    return languagesOf(name, NAMED) & (accented ? ~ENGLISH_BIT : -1)
  }
  const bits = [...t.matchAll(NAMED.daysAt)]
    .flatMap((spec) =>
      [...spec[0].matchAll(NAMED.spanParts)].flatMap((m) => {
        const from = spec.index + m.index
        return [bitsOf(m[1]!, from), ...(m[2] ? [bitsOf(m[2], from + m[0].lastIndexOf(m[2]))] : [])]
      }),
    )
    .filter((b) => b !== 0)
  if (bits.length > 0 && bits.every((b) => b & ENGLISH_BIT)) return ENGLISH
  if (bits.length > 0 && bits.every((b) => b & SPANISH_BIT)) return SPANISH
  // Beside no days, or days of neither ("M-Sa 9-5, So geschlossen": So is German's), M is in doubt.
  return LETTER_M.test(meridiemsMasked(t)) ? null : SPANISH
}

/** Words for except before public holidays ("außer Feiertage"), folded as written. */
export const EXCEPT_WORDS =
  'except|excl\\.?|ausser|außer|sauf|excepto|exceto|salvo|menos|tranne|eccetto|behalve|uitgezonderd|oprocz|z wyjatkiem'
/** Words between a word for except and public holidays ("außer an", "exceto nos"), folded. */
export const EXCEPT_ON = '(?:on|an|am|les|los|i|op|os|aos|nos|em)\\s+'
/** Words for closed ("Feiertage zu", "festivi chiusi"): hours.ts' CLOSED's last group, one list; a literal there keeps widget.js small. */
const CLOSED_WORDS = CLOSED.source.slice(CLOSED.source.lastIndexOf('(') + 1, -2)
/** A time after a word for closed ("close 3pm", "zu ab 14 Uhr"): the day closes then, it is not closed. */
const AT_TIME = '(?!\\s*(?:(?:at|by|from|um|ab|a|om|alle|vers|od)\\s+)?\\d)'
/**
 * Public holidays excepted, the word before them or after ("festivi esclusi", "Feiertage
 * ausgenommen"), or said closed ("Feiertage geschlossen", not "holidays close 3pm"), folded.
 */
const HOLIDAYS_EXCEPTED = new RegExp(
  `(?<![\\p{L}\\d])(?:(?:${EXCEPT_WORDS})\\s+(?:${EXCEPT_ON})?(?:${HOLIDAY_WORDS})|(?:${HOLIDAY_WORDS})\\s+(?:esclusi|exclus|excluded|ausgenommen|excluidos|uitgezonderd|(?:${CLOSED_WORDS})${AT_TIME}))(?![\\p{L}\\d])`,
  'gu',
)

/** The public holidays a text excepts from its hours, each as written ("außer Feiertage", "sauf jours fériés"). */
export function holidaysExcepted(text: string): string[] {
  const { t, at } = folded(text)
  return [...t.matchAll(HOLIDAYS_EXCEPTED)].map((m) => text.slice(at[m.index], at[m.index + m[0].length]))
}

/** Days found in a text: as written, and where. */
export type Spec = { 0: string; index: number }

/** Whether days are a word for some days ("Weekends", "täglich"), not days named by their names. */
export function isGroup(spec: string): boolean {
  const days = spec.replace(/\s*[:=]$/, '').trim()
  return EVERY_DAY.test(days) || WEEKDAYS.test(days) || WEEKENDS.test(days)
}

/** Whether a day's name is written in full, no two letters nor cut short: one day in every language ("mittwoch", "sabado"). */
const inFull = (name: string) => name.length >= 5 && !name.endsWith('-')

/**
 * Why a week is not read when a day's name is of none of the languages that name its other days
 * ("Sex", Portuguese Friday, beside "Mo-Fr"); null when one language names them all, names in
 * full aside ("Mon-Fri 9-5, Mittwochmittag geschlossen"), or, `apart`, when the days that name
 * gives are named nowhere else ("Mon-Sat 9-18, zo gesloten", "Mo-Fr 9-18, Sab 9-13, Mi
 * geschlossen"): then it changes no other days' hours.
 */
export function otherLanguage(
  text: string,
  at: number[],
  specs: Spec[],
  g: Grammar,
  read: ReadonlyMap<string, number> | null,
  apart: boolean,
): string | null {
  const names: { name: string; from: number; bits: number; spec: number }[] = []
  // Each name's languages as it is read: "Di" read as Sunday is French alone, not German too.
  const bitsOf = (name: string) => languagesOf(name, g, read?.get(name) ?? g.dayOf.get(name))
  specs.forEach((spec, i) => {
    if (isGroup(spec[0])) return
    for (const m of spec[0].matchAll(g.spanParts)) {
      const from = spec.index + m.index
      names.push({ name: m[1]!, from, bits: bitsOf(m[1]!), spec: i })
      if (m[2] !== undefined)
        names.push({ name: m[2], from: from + m[0].lastIndexOf(m[2]), bits: bitsOf(m[2]), spec: i })
    }
  })
  // A day's name in full ("Mittwoch", "Saturday") is that day in every language that writes it.
  const known = names.filter((n) => n.bits !== 0 && !inFull(n.name))
  const common = (list: typeof known) => list.reduce((bits, n) => bits & n.bits, -1)
  if (common(known) !== 0) return null
  // The name the others share a language without; else the first that leaves none.
  const odd =
    known.find((n) => common(known.filter((o) => o.name !== n.name)) !== 0) ??
    known.find((_, i) => common(known.slice(0, i + 1)) === 0)!
  const days = (i: number) => daysOf(specs[i]![0], read, g)
  const own = days(odd.spec)
  const elsewhere = new Set(specs.flatMap((_, i) => (i === odd.spec ? [] : days(i))))
  // Days named together in no one language ("Di-Do" read as dimanche to domingo) are no day apart.
  const together = common(known.filter((n) => n.spec === odd.spec)) !== 0
  if (apart && together && new Set(own).size === own.length && !own.some((day) => elsewhere.has(day))) return null
  const others = common(known.filter((o) => o.name !== odd.name))
  const rest = others !== 0 ? others : common(known.slice(0, known.indexOf(odd)))
  const shown = text.slice(at[odd.from], at[odd.from + odd.name.length])
  const day = read?.get(odd.name) ?? g.dayOf.get(odd.name)!
  const bits = languagesOf(odd.name, g, day)
  return `its "${shown}" is ${DAYS_IN_ENGLISH[day]} only in ${languageNames(bits)}, and its other days are ${languageNames(rest)}. Write every day in one language.`
}
