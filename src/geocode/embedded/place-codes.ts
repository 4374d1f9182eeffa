// A postcode written beside its town, as a visitor types one: "10115 Berlin", "Paris 75001",
// "1012 AB Amsterdam", or a postal district ("London W1"). The place search finds the postcode's
// place, or the town (postcodes the data does not have: "1010 Wien"; districts).

/** Whether a folded word holds a digit: a postcode's word. */
const hasDigit = (word: string) => /\d/.test(word)
/** The letters of a Dutch postcode ("1012 AB"), a word of their own after its digits. */
const codeLetters = (word: string | undefined) => word !== undefined && /^[a-z]{1,2}$/.test(word)

/**
 * The ways to read a folded text as a postcode and a town: the words with a digit at its start or
 * end are the postcode (with one or two letters after them, as the Dutch write theirs), the rest
 * the town. Empty when the text has no such words, or nothing else.
 */
export function codeAndTown(key: string): { code: string; town: string }[] {
  const words = key.split(' ')
  const splits: { code: string; town: string }[] = []
  const split = (from: number, to: number) => {
    const town = [...words.slice(0, from), ...words.slice(to)].join(' ')
    if (town !== '') splits.push({ code: words.slice(from, to).join(' '), town })
  }
  let lead = 0
  while (lead < words.length && hasDigit(words[lead]!)) lead++
  if (lead > 0) {
    if (codeLetters(words[lead])) split(0, lead + 1)
    split(0, lead)
  }
  const trail = codeStart(words, lead)
  if (trail < words.length && trail > lead) split(trail, words.length)
  return splits
}

/**
 * Where the postcode ending `words` begins (its words with a digit, and a Dutch code's letters),
 * from `from` on; words.length when they end in none.
 */
export function codeStart(words: string[], from: number): number {
  let start = words.length
  if (codeLetters(words[start - 1]) && hasDigit(words[start - 2] ?? '')) start--
  while (start > from && hasDigit(words[start - 1]!)) start--
  return start
}

/**
 * Postal districts written after a town, which say only which part of it: London's "W1" and
 * "SW1A", Dublin's "2" and "D02", Paris's "11e" or "11". Their town is the answer, in their country only.
 */
const DISTRICT_FORMS: { re: RegExp; country: string }[] = [
  { re: /^[a-z]{1,2}\d[a-z\d]?$/, country: 'GB' },
  { re: /^d?\d{1,2}w?$/, country: 'IE' },
  { re: /^\d{1,2}(?:e|er|eme)?$/, country: 'FR' },
]

/** The countries whose postal districts look like `code` (folded): "d02" is Dublin's and could be London's. */
export const districtCountries = (code: string): string[] =>
  DISTRICT_FORMS.filter((f) => f.re.test(code)).map((f) => f.country)

/**
 * A Canadian postcode past its first three characters ("m5v3l9", "m5v3"): the data has those
 * (the forward sortation area), which the rest only narrows to a street.
 */
export const CANADIAN_FULL = /^([a-z]\d[a-z])\d(?:[a-z]\d?)?$/
/** A US ZIP+4 ("94103-1234", also while typed): the data has the ZIP code, which the four digits only narrow. */
export const ZIP_PLUS_FOUR = /(?<![\d-])(\d{5})-\d{0,4}(?![\d-])/g
