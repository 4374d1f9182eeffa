// A town's name written without the small words that join its own to a river's or a region's
// ("Offenbach Main" for Offenbach am Main, "Stratford Avon", "Boulogne Mer"), as addresses and
// visitors shorten it: read whole, not as a town and its district.
import { TOWN_WORDS } from './town-splits'

/**
 * The words that join a town's name to a river's, a sea's or a region's, as name keys (German,
 * English, French, Dutch, Italian, Spanish), longest first where one begins another.
 */
const JOINS = [
  'an der',
  'am',
  'an',
  'in der',
  'im',
  'in',
  'ob der',
  'auf der',
  'bei',
  'vor der',
  'upon',
  'under',
  'on the',
  'on',
  'sur',
  'en',
  'aan den',
  'aan de',
  'aan',
  'op',
  'bij',
  'nell',
  'di',
  'de la',
  'de',
  'del',
]

/** Each word of a join: one typed already ("Frankfurt am") is no join left out. */
const JOIN_WORDS = new Set(JOINS.flatMap((j) => j.split(' ')))

/**
 * Whether the name key `key` is `own` cut short of the word that joins it on: "aix" of "aix en
 * provence", "kingston" of "kingston upon thames".
 */
export const cutShortOf = (own: string, key: string): boolean =>
  own.startsWith(`${key} `) && JOINS.some((j) => own.startsWith(`${j} `, key.length + 1))

/**
 * The name `key` writes with a joining word left out, or with another in its place, where
 * `isName` finds one: "offenbach main" is "offenbach am main", "kingston on thames" "kingston
 * upon thames". The first found, its head (at most TOWN_WORDS words) shortest first; null when
 * none is a name. `begins`: whether some name begins with a key, so that a head no name goes on
 * from ("paris nord": "paris ...") costs one binary search, not one per join.
 */
export function joinedName(
  key: string,
  isName: (key: string) => boolean,
  begins: (key: string) => boolean,
): string | null {
  const words = key.split(' ')
  for (let i = 1; i < words.length && i <= TOWN_WORDS; i++) {
    const [head, rest] = [words.slice(0, i).join(' '), words.slice(i).join(' ')]
    if (JOIN_WORDS.has(words[i - 1]!) || !begins(`${head} `)) continue
    // A join typed: the others in its place ("on" for "upon"), with a name after it. A word of
    // a join that is none alone begins the rest: "la" of "L'Isle la Sorgue" (-sur-la-Sorgue).
    const typed = JOINS.find((j) => rest.startsWith(`${j} `))
    if (JOINS.includes(words[i]!) && typed === undefined) continue
    const after = typed === undefined ? rest : rest.slice(typed.length + 1)
    for (const join of JOINS) {
      const joined = `${head} ${join} ${after}`
      if (join !== typed && isName(joined)) return joined
    }
  }
  return null
}
