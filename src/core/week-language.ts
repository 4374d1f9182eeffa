// The language a week's days are read in, for week-hours.ts: two-letter days French, Spanish and
// Italian read otherwise than German and Dutch ("Di", "Do", "Ma"), Polish days beside another
// language's, a day named in another language than the others.
import {
  DAYS_IN_ENGLISH,
  FRENCH_HOURS,
  GERMANIC_ONLY,
  type Grammar,
  IN_FULL,
  languagesOf,
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
import { otherLanguage, type Spec } from './week-days'
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
  const theirs = readsRomance(days, g)
  const romance = theirs || (ROMANCE_WORDS.test(t) && !GERMANIC_ONLY.test(t))
  const germanic = GERMANIC_ONLY.test(t) || readsGermanic(days, g)
  // "Ma-Sa 9h-19h": hours as French writes them, days German and Dutch write alike; "Mo-Fr 9-18,
  // Sa a Do 10-14": days of both beside them. Not guessed.
  const twoWays = specs.find((spec) => ROMANCE_OF_AT.test(spec[0]))
  const frenchHours = !romance && FRENCH_HOURS.test(t) && !GERMANIC_ONLY.test(t)
  if (twoWays !== undefined && (frenchHours || (theirs && germanic))) {
    const day = twoWays[0].match(ROMANCE_OF_AT)!
    const from = twoWays.index + day.index!
    const written = text.slice(at[from], at[from + day[0].length])
    say(doubts, `its "${written}" could be ${TWO_WAYS[day[0]]}. Write the day's name in full: ${IN_FULL[day[0]]}.`)
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
  const other = otherLanguage(text, at, specs, g, read, true) ?? pastSunday(text, at, specs, g, read)
  if (other !== null) {
    say(doubts, other)
    return null
  }
  return { specs, read, polish }
}

/**
 * Why a span to or from a two-letter day read two ways (ROMANCE_OF's) is in doubt: read as `read`
 * says it runs past Sunday, read the other way it lies within the week. Read as French, Spanish or
 * Italian ("Di a Ve": from dimanche), as a week of theirs seldom starts on Sunday and German "Di-",
 * "Do-" spans are common; read as German ("Sa-Do": to Thursday), when both names of the other
 * reading are of a language that reads them so (Spanish "Sa-Do", sábado to domingo; not "Fr-Di").
 * Else null.
 */
function pastSunday(
  text: string,
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
      const from = spec.index + m.index
      const twoAt = from + (two === first ? 0 : m[0].lastIndexOf(last))
      const span = (day: (name: string) => number) => `${DAYS_IN_ENGLISH[day(first)]} to ${DAYS_IN_ENGLISH[day(last)]}`
      return `its "${text.slice(at[from], at[from + m[0].length]).trim()}" could be ${span(chosen)} or ${span(other)}, as "${text.slice(at[twoAt], at[twoAt + two.length])}" could be ${TWO_WAYS[two]}. Write the day's name in full: ${IN_FULL[two]}.`
    }
  return null
}
