// "St." and "Ste." as addresses and visitors write a word of a town's name, and the words the data
// writes most such names with ("Sankt Wendel", "Saint-Étienne", "Mont-Saint-Aignan"): the resolver
// and the place search read them alike.

/** "St." or "Ste." as a word a name goes on after, in a key ("st wendel", "mont st aignan"). */
const SAINT_SHORT = /(?<=^| )(st|ste)(?= )/g
/** The words "st" is written out as, in the order to try; "ste" is always "sainte". */
const SAINT_WORDS = ['sankt', 'saint']

/** The keys `key` may mean with its "St." or "Ste." written out, in the order to try; none when it holds neither. */
export function saintWritten(key: string): string[] {
  const written = SAINT_WORDS.map((saint) => key.replace(SAINT_SHORT, (w) => (w === 'ste' ? 'sainte' : saint)))
  return written[0] === key ? [] : [...new Set(written)]
}
