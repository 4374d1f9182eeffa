// The language a week's days are read in, for week-hours.ts: two-letter days French, Spanish and
// Italian read otherwise than German and Dutch ("Di", "Do", "Ma"), Polish days beside another
// language's, a day named in another language than the others.
import {
  DAYS_IN_ENGLISH,
  FRENCH_HOURS,
  GERMAN_DUTCH_BITS,
  GERMANIC_ONLY,
  type Grammar,
  IN_FULL,
  languagesOf,
  NAMED,
  namesOfDays,
  notPolish,
  POLISH_OF,
  POLISH_ONLY,
  readsGermanic,
  readsPolish,
  ROMANCE_OF,
  ROMANCE_OF_AT,
  readsRomance,
  ROMANCE_WORDS,
  TWO_WAYS,
} from './day-names'
import { daysOf, folded, otherLanguage, type Spec } from './week-days'
import { polishJoinDoubt, say } from './week-words'

/**
 * The days found as one language reads them: `read`, two-letter days read as French, Spanish and
 * Italian or Polish do (ROMANCE_OF, POLISH_OF); `polish`, whether Polish words join them. Polish
 * days beside another language's are left out ("SB", German banks' self-service). Null, saying
 * why, when which language is meant is in doubt.
 */
export function languageOf(
  text: string,
  t: string,
  at: number[],
  found: Spec[],
  g: Grammar,
  doubts?: string[],
): { specs: Spec[]; read: ReadonlyMap<string, number> | null; polish: boolean } | null {
  let specs = found
  const days = specs.map((spec) => spec[0])
  const theirs = readsRomance(withoutStray(specs, g), g)
  const romance = theirs || (ROMANCE_WORDS.test(t) && !GERMANIC_ONLY.test(t))
  const germanic = GERMANIC_ONLY.test(t) || readsGermanic(days, g)
  // "Ma-Sa 9h-19h": hours as French writes them, days German and Dutch write alike; "Mo-Fr 9-18,
  // Sa a Do 10-14": days of both beside them. Not guessed; each such name is said once.
  const twoWays = specs.flatMap((spec) =>
    [...spec[0].matchAll(ROMANCE_OF_ALL)].map((day) => ({ name: day[0], from: spec.index + day.index })),
  )
  const frenchHours = !romance && FRENCH_HOURS.test(t) && !GERMANIC_ONLY.test(t)
  if (twoWays.length > 0 && (frenchHours || (theirs && germanic))) {
    for (const { name, from } of twoWays.filter((day, i) => twoWays.findIndex((d) => d.name === day.name) === i)) {
      const written = text.slice(at[from], at[from + name.length])
      say(doubts, `its "${written}" could be ${TWO_WAYS[name]}. Write the day's name in full: ${IN_FULL[name]}.`)
    }
    return null
  }
  // "Mo-Fr 9-18, Sa 9-12, SB 24h": a Polish day beside another language's ("SB", German banks'
  // self-service) is no day, but text of the hours before it, unread as before.
  const polishOnly = (spec: Spec) => POLISH_ONLY.test(spec[0])
  if (specs.some(polishOnly) && specs.some((spec) => notPolish(spec[0]))) {
    say(doubts, otherLanguage(text, at, specs, g, null, false) ?? polishJoinDoubt(text, at, specs))
    if (polishOnly(specs[0]!)) return null
    specs = specs.filter((spec) => !polishOnly(spec))
  }
  const polish = readsPolish(specs.map((spec) => spec[0]))
  const read = romance ? ROMANCE_OF : polish ? POLISH_OF : null
  // "Mo-Fr 9-18, Sex 9-12": Portuguese Friday beside German days, 9-18 or 9-12? Not guessed.
  const other = otherLanguage(text, at, specs, g, read, true) ?? pastSunday(text, t, at, specs, g, read)
  if (other !== null) {
    say(doubts, other)
    return null
  }
  return { specs, read, polish }
}

/**
 * The days found as text, less a day of only French, Spanish, Italian or Portuguese named alone
 * beside days all German or Dutch name so, one of them no Romance language's, when read so no day
 * is named twice ("Mo, Di, Do, Fr 9-18, Sab 9-13"): a stray name, the same day in each reading,
 * says nothing of how "Di" and "Do" read. Else as they are.
 */
function withoutStray(specs: Spec[], g: Grammar): string[] {
  const days = specs.map((spec) => spec[0])
  const stray = (spec: string) => {
    const names = namesOfDays([spec], g)
    return names.length === 1 && readsRomance([spec], g) && !ROMANCE_OF_AT.test(spec)
  }
  const rest = days.filter((spec) => !stray(spec))
  if (rest.length === days.length) return days
  // The others all German's or Dutch's as those read them: "Ma-Fr, Sam" (Norwegian's or French?) stays in doubt.
  const shared = namesOfDays(rest, g).reduce((bits, name) => bits & (languagesOf(name, g, g.dayOf.get(name)) || -1), -1)
  if ((shared & GERMAN_DUTCH_BITS) === 0 || !readsGermanic(rest, g)) return days
  // A day named twice read so ("Mo-Fr 9-18, Do 9-20, Sab 9-13"): "Do" may be the week's Sunday.
  const named = days.flatMap((spec) => daysOf(spec, null, g))
  return new Set(named).size < named.length ? days : rest
}

/**
 * The languages (bits of day-names.ts' LANGUAGES) that name every day a text names, as far as
 * its names say ("ma-za": Dutch; "lu-ve": French or Italian); -1 when it names none.
 */
export function languagesNamed(text: string): number {
  const { t } = folded(text)
  const specs = [...t.matchAll(NAMED.daysAt)].map((spec) => spec[0])
  return namesOfDays(specs, NAMED).reduce((bits, name) => bits & (languagesOf(name, NAMED) || -1), -1)
}

/** Every one of ROMANCE_OF's days in days found. */
const ROMANCE_OF_ALL = new RegExp(ROMANCE_OF_AT.source, 'gu')

/** Words only German and Dutch write beside hours ("Sa-Do 10-14 Uhr"): their "Do" is Thursday. */
const GERMAN_WORDS = /(?<![\p{L}\d])(?:uhr|uur|geoffnet|geopend|geschlossen|gesloten|ruhetag)(?![\p{L}\d])/u

/** Whether a span's days, read as German, are named by other days found too ("Mo-Fr 9-18, Sa-Do 10-14"). */
function namedElsewhere(specs: Spec[], own: Spec, span: string, g: Grammar): boolean {
  const days = new Set(daysOf(span, null, g))
  return specs.some((spec) => spec !== own && daysOf(spec[0], null, g).some((day) => days.has(day)))
}

/**
 * Why a span to or from a two-letter day read two ways (ROMANCE_OF's) is in doubt: read as `read`
 * says it runs past Sunday, read the other way it lies within the week. Read as French, Spanish or
 * Italian ("Di a Ve": from dimanche), as a week of theirs seldom starts on Sunday and German "Di-",
 * "Do-" spans are common; read as German ("Sa-Do": to Thursday), when both names of the other
 * reading are of a language that reads them so (Spanish "Sa-Do", sábado to domingo; not "Fr-Di"),
 * unless a word only German and Dutch write says so and no other days found name its days
 * ("Sa-Do 10-14 Uhr"). Else null.
 */
function pastSunday(
  text: string,
  t: string,
  at: number[],
  specs: Spec[],
  g: Grammar,
  read: ReadonlyMap<string, number> | null,
): string | null {
  if (read === POLISH_OF) return null
  const chosen = (name: string) => read?.get(name) ?? g.dayOf.get(name)!
  const other = (name: string) => (read === null ? (ROMANCE_OF.get(name) ?? g.dayOf.get(name)!) : g.dayOf.get(name)!)
  for (const spec of specs)
    for (const m of spec[0].matchAll(g.spanParts)) {
      const [first, last] = [m[1]!, m[2]]
      if (last === undefined || !g.dayOf.has(first) || !g.dayOf.has(last)) continue
      const two = ROMANCE_OF.has(first) ? first : ROMANCE_OF.has(last) ? last : null
      if (two === null || chosen(first) <= chosen(last) || other(first) >= other(last)) continue
      if (read === null && (languagesOf(first, g, other(first)) & languagesOf(last, g, other(last))) === 0) continue
      if (read === null && GERMAN_WORDS.test(t) && !namedElsewhere(specs, spec, m[0], g)) continue
      const from = spec.index + m.index
      const twoAt = from + (two === first ? 0 : m[0].lastIndexOf(last))
      const span = (day: (name: string) => number) => `${DAYS_IN_ENGLISH[day(first)]} to ${DAYS_IN_ENGLISH[day(last)]}`
      return `its "${text.slice(at[from], at[from + m[0].length]).trim()}" could be ${span(chosen)} or ${span(other)}, as "${text.slice(at[twoAt], at[twoAt + two.length])}" could be ${TWO_WAYS[two]}. Write the day's name in full: ${IN_FULL[two]}.`
    }
  return null
}
