// How the resolver reads a dash between spaces within a part of an address (resolve.ts): as a
// space between the words of one name, as a comma between a place and its town, or as the dash
// of a name that joins two towns.
import { nameKey } from '../../core/text'
import { NAME_WORDS, type Part } from './address-read'
import { DISTRICT_TOWN_POPULATION, distanceKm, SPACED_DASH } from './near'
import { isProvinceCode } from './province-codes'
import type { PlaceRow, Queries } from './resolve-data'
import { joinedKey } from './resolve-names'
import { brazilianState } from './state-codes'

/**
 * Drops, in place, a dash between spaces where the words beside it, read without it, are a
 * place's name, with its joining word or without: "Frankfurt - Oder" is Frankfurt (Oder), as
 * "Frankfurt / Oder" reads. Elsewhere it stays, for dashAsComma and dashAsWritten to read.
 */
export function dashAsSpace(q: Queries, parts: Part[]): void {
  for (const part of parts) {
    let { tokens } = part
    // Each dash of the part: "Hotel Post - Frankfurt - Oder" names Frankfurt (Oder) after the first.
    for (let at = 1; at < tokens.length - 1; at++)
      if (SPACED_DASH.test(tokens[at]!) && namedAcross(q, tokens, at)) tokens = tokens.filter((_, i) => i !== at)
    if (tokens !== part.tokens) Object.assign(part, { raw: tokens.join(' '), tokens })
  }
}

/**
 * Whether the words before the token at `at` (back to a number, a dash between spaces or the
 * part's start) and one or more after it, without it and any such dash after it, name a place:
 * not "Mesa Rancho" of "Costa Mesa - Rancho Cucamonga" (Mesa del Rancho), which begins inside a
 * town's name; "Stoke - on - Trent" is Stoke-on-Trent.
 */
function namedAcross(q: Queries, tokens: string[], at: number): boolean {
  const from = tokens.findLastIndex((t, i) => i < at && (/\d/.test(t) || SPACED_DASH.test(t))) + 1
  if (from >= at || at - from >= NAME_WORDS) return false
  for (let to = at + 2; to <= Math.min(tokens.length, at + 2 * NAME_WORDS); to++) {
    const span = [...tokens.slice(from, at), ...tokens.slice(at + 1, to).filter((t) => !SPACED_DASH.test(t))]
    if (span.length > NAME_WORDS || span.some((t) => /\d/.test(t))) break
    if (SPACED_DASH.test(tokens[to - 1]!)) continue
    const key = nameKey(span.join(' '))
    if (q.named(key) || joinedKey(q, key) !== null) return true
  }
  return false
}

/**
 * Splits, in place, a part at a dash between spaces as a comma parts it where the words after
 * it, to the next such dash or the part's end, are a town's whole name (townNamed) and those
 * before it (back to a number or the part's start) name none: "Hotel Post - Frankfurt Oder" is
 * in Frankfurt (Oder), as "Hotel Post, Frankfurt Oder" is, not a town named by "Frankfurt" alone.
 */
export function dashAsComma(q: Queries, parts: Part[]): void {
  for (let p = 0; p < parts.length; p++) {
    const { tokens } = parts[p]!
    const at = tokens.findIndex((t, i) => i > 0 && SPACED_DASH.test(t))
    // The town's words run to the next such dash: "Hotel Post - Frankfurt Oder - Germany".
    const next = tokens.findIndex((t, i) => i > at && SPACED_DASH.test(t))
    const end = next < 0 ? tokens.length : next
    if (at < 0 || end - at - 1 > NAME_WORDS) continue
    const from = tokens.findLastIndex((t, i) => i < at && /\d/.test(t)) + 1
    const [before, after] = [tokens.slice(from, at), tokens.slice(at + 1, end)]
    if (before.length === 0 || after.length === 0 || after.some((t) => /\d/.test(t))) continue
    const [town, other] = [nameKey(after.join(' ')), nameKey(before.join(' '))]
    if (!townNamed(q, town) && !townNamed(q, joinedKey(q, town))) continue
    if (q.named(other) || joinedKey(q, other) !== null) continue
    const asPart = (words: string[]) => ({ raw: words.join(' '), tokens: words })
    parts.splice(p, 1, asPart(tokens.slice(0, at)), asPart(tokens.slice(at + 1)))
  }
}

/** Two towns written as one area lie this close: Dallas and Fort Worth 50 km, La Victoria and Caracas 57 km. */
const PAIR_KM = 100

/**
 * Joins, in place, a dash between spaces to the words beside it where those before it (back to
 * a number, another such dash or the part's start) name a town of DISTRICT_TOWN_POPULATION
 * within PAIR_KM of a place those after it (up to the next) name: "Dallas - Fort Worth" reads as
 * "Dallas-Fort Worth" does, a town and its district or two towns. "Pinheiros - São Paulo" (a
 * town's other name 2,000 km off) and "Miraflores - Lima" (no town's) are read as written.
 */
export function dashAsWritten(q: Queries, parts: Part[]): void {
  // By a place's own name or another of a town's: "Fri" of "Mon - Fri" is only a hamlet's other name.
  const named = (words: string[]): PlaceRow[] => {
    if (words.length === 0 || words.length > NAME_WORDS) return []
    const key = nameKey(words.join(' '))
    const joined = joinedKey(q, key)
    return [...q.qPlaces.all(key), ...(joined === null ? [] : q.qPlaces.all(joined))].filter(
      (r) => r.alt === 0 || r.population >= DISTRICT_TOWN_POPULATION,
    )
  }
  const pair = (before: PlaceRow[], after: PlaceRow[]) =>
    before.some(
      (b) =>
        b.population >= DISTRICT_TOWN_POPULATION &&
        after.some((a) => distanceKm(a.lat, a.lng, b.lat, b.lng) <= PAIR_KM),
    )
  const stop = (t: string) => /\d/.test(t) || SPACED_DASH.test(t)
  for (const part of parts) {
    let { tokens } = part
    for (let at = tokens.length - 2; at > 0; at--) {
      if (!SPACED_DASH.test(tokens[at]!) || lettersLast(tokens, at + 1)) continue
      const from = tokens.findLastIndex((t, i) => i < at && stop(t)) + 1
      const end = tokens.findIndex((t, i) => i > at && stop(t))
      const to = end < 0 ? tokens.length : end
      if (!pair(named(tokens.slice(from, at)), named(tokens.slice(at + 1, to)))) continue
      tokens = [...tokens.slice(0, at - 1), `${tokens[at - 1]}-${tokens[at + 1]}`, ...tokens.slice(at + 2)]
    }
    if (tokens !== part.tokens) Object.assign(part, { raw: tokens.join(' '), tokens })
  }
}

/**
 * Whether the token at `at` ends `tokens` and is a Brazilian state's or an Italian province's
 * letters: the state's (stateAtEnd), not a town's ("Rovigo - RO" is no Rovigo-Ro).
 */
const lettersLast = (tokens: string[], at: number): boolean =>
  at === tokens.length - 1 && (brazilianState(tokens[at]!) !== undefined || isProvinceCode(tokens[at]!))

/**
 * Whether `key` names a town of DISTRICT_TOWN_POPULATION people, as written or with its joining
 * word put in: "Neustadt Weinstraße" and "Neustadt/Weinstraße" are Neustadt an der Weinstraße
 * whole, no street's word.
 */
export const townNamed = (q: Queries, key: string | null): boolean =>
  key !== null && q.qPlaces.all(key).some((r) => r.population >= DISTRICT_TOWN_POPULATION)
