// "St.", "Ste.", "Ft." and "Mt." as addresses and visitors write a word of a town's name, and the
// words the data writes most such names with ("Sankt Wendel", "Saint-Étienne", "Mont-Saint-Aignan",
// "Fort St. John", "Mount Vernon"): the resolver and the place search read them alike.
import { nameKey } from '../../core/text'
import { DASH } from './near'

/** "St." or "Ste." as a word a name goes on after, in a key ("st wendel", "mont st aignan"). */
const SAINT_SHORT = /(?<=^| )(st|ste)(?= )/g
/** The words "st" is written out as, in the order to try; "ste" is always "sainte". */
const SAINT_WORDS = ['sankt', 'saint']
/** "Ft." and "Mt." as a word a name goes on after ("ft st john", "mt vernon"). */
const FORT_MOUNT_SHORT = /(?<=^| )(ft|mt)(?= )/g

/**
 * The keys `key` may mean with its short words written out, in the order to try; none when it
 * holds none. "Ft." and "Mt." are written out first, alone ("ft st john": "fort st john", as the
 * data has Fort St. John), then with "St." too.
 */
export function saintWritten(key: string): string[] {
  const fortMount = fortMountWritten(key) ?? key
  const written = SAINT_WORDS.map((saint) => fortMount.replace(SAINT_SHORT, (w) => (w === 'ste' ? 'sainte' : saint)))
  return [...new Set([fortMount, ...written])].filter((k) => k !== key)
}

/**
 * The hits of `key` with its short words written out, by `search`, and that key: where the name
 * as written names no place and one written out does ("St. Wendel": Sankt Wendel), or where the
 * name as written begins none and one written out begins some ("Mont-St-A": Mont-Saint-Aignan).
 * Null when neither.
 */
export function writtenOut<H extends { exact: boolean }>(
  key: string,
  hits: H[],
  search: (key: string) => H[],
): { key: string; found: H[] } | null {
  for (const written of saintWritten(key)) {
    const found = search(written)
    if (found.some((h) => h.exact) || (hits.length === 0 && found.length > 0)) return { key: written, found }
  }
  return null
}

/**
 * `key` with "Ft." and "Mt." written out, where it holds them; else null. The data writes nearly
 * every such town's name out ("Mount Vernon") and holds one written short only as some town's
 * other name (Mount Vernon, IL's "Mt. Vernon"): no sign that town, of all those so named, is meant.
 */
export function fortMountWritten(key: string): string | null {
  const written = key.replace(FORT_MOUNT_SHORT, (w) => (w === 'ft' ? 'fort' : 'mount'))
  return written === key ? null : written
}

/**
 * A dash or a space, then a short word that ends the text, typed so far: "-St.", " – Mt", " Ste",
 * or a street's " Str." (Straße).
 */
const SHORT_AT_END = new RegExp(`(?:\\s*[${DASH}]\\s*|\\s+)(st|ste|ft|mt|str)\\.?\\s*$`, 'iu')

/**
 * The text before a dash or a space and a short word that ends it, unfinished ("Hamburg-St."
 * typed on to "Hamburg-St. Pauli", "Frankfurt Ste" or "Frankfurt Str" to a street's or
 * district's name); null where the text ends otherwise.
 */
export function beforeShortAtEnd(text: string): string | null {
  const m = SHORT_AT_END.exec(text)
  return m === null || m.index === 0 ? null : text.slice(0, m.index)
}

/**
 * `key` with "St." or "Ste." that ends it written out, in the order to try ("bourg st": "bourg
 * sankt", "bourg saint"); none where it ends otherwise.
 */
export function saintEndWritten(key: string): string[] {
  const m = /^(.+ )(st|ste)$/.exec(key)
  if (m === null) return []
  return m[2] === 'ste' ? [`${m[1]}sainte`] : SAINT_WORDS.map((saint) => `${m[1]}${saint}`)
}

/** "St.", "Ste.", "Ft." or "Mt." as a word's key: a name goes on after it, which no word after it begins alone. */
export const isShortWord = (key: string): boolean => /^(st|ste|ft|mt)$/.test(key)

/** Such a word, or "Fort" or "Mount" written out: "Mount St Helens" is not St Helens. */
export const goesOnAfter = (key: string): boolean => isShortWord(key) || key === 'fort' || key === 'mount'

/** The first word of a text, up to a dash or its end ("St" of "St-Michel", "St" typed so far). */
const DASHED_WORD = new RegExp(`^\\s*([^\\s${DASH}]+)(?:[${DASH}]|\\s*$)`, 'u')

/**
 * Whether a dash joins words of one name rather than a town and its district: a short word or
 * "Saint" ends `before` (the key of the text before it: "Saint-Denis", "Mont-St-Michel"'s last
 * dash), or begins `after` (the text after it, to the end of the address's piece) and is itself
 * followed by a dash or by nothing ("Mont-St-Michel", "Mont-St" as typed so far). Not
 * "Hamburg-St. Pauli": a district's name after a town's dash may begin so.
 */
export function dashInName(before: string, after: string): boolean {
  const joins = (word: string) => isShortWord(word) || /^(saint|sainte|sankt)$/.test(word)
  if (joins(before.slice(before.lastIndexOf(' ') + 1))) return true
  const next = DASHED_WORD.exec(after)
  return next !== null && joins(nameKey(next[1]!))
}
