// A state's or province's two letters in capitals ending what a visitor types, as the resolver
// reads them (resolve.ts): a Brazilian state's after a comma or a spaced dash ("Belo Horizonte,
// MG"), an Italian province's after a space, a spaced dash or in brackets ("Fiesole (FI)",
// "20121 Milano MI"), for the place search (places.ts) to narrow the town before them to.
import { DASH } from './near'
import { bracketsPair, provinceRegion } from './province-codes'
import { brazilianState } from './state-codes'
import type { Within } from './place-within'

/**
 * The text before the letters, the letters, and the regions they may name, in the order read;
 * `brazilian`: a Brazilian state's is among them.
 */
export type LettersAtEnd = { head: string; code: string; regions: Within[]; brazilian: boolean }

/** The letters after a comma, a spaced dash, a space, or in brackets, and the mark before them. */
const AT_END = new RegExp(
  `^(?<head>.*?\\S)(?:\\s*(?<comma>,)\\s*|\\s+(?<dash>[${DASH}]+)\\s+|\\s+|\\s*(?<open>[([]))(?<code>\\p{Lu}{2})(?<close>[)\\]])?$`,
  'u',
)

/** A region of one country, by its admin1 code. */
const regionOf = (country: string, admin1: string): Within => ({
  town: (c, a) => c === country && a === admin1,
  country: (c) => c === country,
  regions: true,
})

/**
 * The letters ending `text` and the regions they may name: a Brazilian state's (not after a
 * space alone or in brackets), then an Italian province's region (not after a comma alone).
 * Null when it ends otherwise or the letters name neither.
 */
export function lettersAtEnd(text: string): LettersAtEnd | null {
  const m = AT_END.exec(text.trim())
  if (m === null) return null
  const { head = '', comma, dash, open, code = '', close } = m.groups!
  if (!bracketsPair(open, close)) return null
  const state = comma !== undefined || dash !== undefined ? brazilianState(code) : undefined
  const province = comma === undefined ? provinceRegion(code) : undefined
  const regions = [
    ...(state === undefined ? [] : [regionOf('BR', state)]),
    ...(province === undefined ? [] : [regionOf('IT', province)]),
  ]
  return regions.length === 0 ? null : { head, code, regions, brazilian: state !== undefined }
}
