// "St." and "Ste." as addresses and visitors write the first word of a town's name, and the words
// the data writes most such names with ("Sankt Wendel", "Saint-Étienne"): the resolver and the
// place search read them alike.

/** "St." or "Ste." beginning a name, as keys ("st wendel"), and the words written out. */
const SAINT_SHORT = /^(st|ste) (.+)$/
const SAINT_WORDS: Record<string, string[]> = { st: ['sankt', 'saint'], ste: ['sainte'] }

/** The keys `key` may mean with its "St." or "Ste." written out, in the order to try; none when it begins otherwise. */
export function saintWritten(key: string): string[] {
  const m = SAINT_SHORT.exec(key)
  return m === null ? [] : SAINT_WORDS[m[1]!]!.map((word) => `${word} ${m[2]}`)
}
