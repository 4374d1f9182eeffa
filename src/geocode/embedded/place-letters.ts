// A state's or province's two letters in capitals ending what a visitor types, as the resolver
// reads them (resolve.ts): a Brazilian state's after a comma or a spaced dash ("Belo Horizonte,
// MG"), an Italian province's after a space, a spaced dash or in brackets ("Fiesole (FI)",
// "20121 Milano MI"), and the places the place search (places.ts) finds before them.
import { nameKey } from '../../core/text'
import type { PlaceHit } from './place-hit'
import { type Within, withinOf } from './place-within'
import { DASH } from './near'
import { bracketsPair, provinceRegion } from './province-codes'
import { brazilianState, namedAlone, oneCountry } from './state-codes'

/**
 * The text before the letters, the letters, and the regions they may name, in the order read;
 * `brazilian`: a Brazilian state's is among them.
 */
export type LettersAtEnd = { head: string; code: string; regions: Within[]; brazilian: boolean }

/** The letters after a comma, a spaced dash, a space, or in brackets (left open or spaced too), and the mark before. */
const AT_END = new RegExp(
  `^(?<head>.*?\\S)(?:\\s*(?<comma>,)\\s*|\\s+(?<dash>[${DASH}]+)\\s+|\\s+|\\s*(?<open>[([])\\s*)(?<code>\\p{Lu}{2})(?:\\s*(?<close>[)\\]]))?$`,
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

/**
 * What byLetters asks the place search: its regions' keys, the places a key names (typos too), a
 * text's, the towns a key names whole, and whether a town in `within` bears a name whose first
 * words are `key`'s.
 */
export type LettersSource = {
  regionKeys: Map<string, string[]>
  named: (key: string, within: Within | null) => PlaceHit[]
  find: (text: string, bySpace: boolean) => PlaceHit[]
  /** The towns whose name, their own or another, is `key` whole. */
  whole: (key: string) => PlaceHit[]
  /** Whether some place's whole name is `key`. */
  isWholeName: (key: string) => boolean
  wordsBegin: (key: string, within: Within) => boolean
}

/**
 * The places the words before a state's or province's letters ending `text` name whole in a
 * region the letters name (lettersAtEnd), the words after a last comma only ("Via Roma 1, 20121
 * Milano MI"): first in a US state or Canadian province of those letters ("Milan MI" is in
 * Michigan), last in a country of that code ("Paris FR"). A Brazilian state's letters naming
 * none name no Brazilian town elsewhere, nor another town but where the words name towns of one
 * country only or the letters no country, as the resolver reads them ("Bom Jesus - RS": none;
 * "Sevilla - SE": Spain's). Null when read as typed.
 */
export function byLetters(source: LettersSource, text: string, bySpace: boolean): PlaceHit[] | null {
  const letters = lettersAtEnd(text)
  if (letters === null) return null
  const region = withinOf(source.regionKeys, [letters.code], false)
  const key = nameKey(letters.head.slice(letters.head.lastIndexOf(',') + 1))
  const [first, last] = region?.regions ? [[region], []] : [[], region === null ? [] : [region]]
  for (const within of [...first, ...letters.regions, ...last]) {
    const found = source.named(key, within)
    const hits = found.some((h) => h.exact) ? found : townAfterDistrict(source, key, within)
    // A Brazilian state's letters read as a country's code take a town named as written, by
    // its own name or one no other town there bears: "Santa Maria - ES" is no Oleiros, Spain.
    // Not where they begin a name of a town of the state: "Belo, MG" is no Belo, Madagascar.
    const exact = hits.filter((h) => h.exact)
    const asCountry = letters.brazilian && within === region && !region.regions
    if (asCountry && source.wordsBegin(key, letters.regions[0]!)) return []
    if (asCountry ? exact.length === 1 || exact.some((h) => h.main) : exact.length > 0)
      return asCountry ? exact.filter((h) => h.main || exact.length === 1) : hits
  }
  if (!letters.brazilian) return null
  // The words as typed, not a typo of them ("Méier - RJ" is no Mier, Mexico), naming the town
  // whole, not some of them ("Praia do Forte - SP" is no Praia, Cape Verde).
  const hits = source.find(letters.head, bySpace)
  // A Brazilian town first: none, but where the letters are also a US state's or a province's.
  if (hits[0]?.country === 'BR' && (region === null || !region.regions)) return []
  const towns = source.whole(key)
  const at = new Set(towns.map((h) => `${h.lat} ${h.lng}`))
  const typed = hits.filter((h) => h.exact && h.country !== 'BR' && at.has(`${h.lat} ${h.lng}`))
  // None where they may name a Brazilian town the data lacks, as the resolver's mayBeBrazils
  // reads them: a Brazilian town comes first ("Campo Grande - RJ"), or one they name whole is
  // Brazilian ("Palma - MG") or Portuguese ("Lagos - MG").
  const brazilian = hits[0]?.country === 'BR' || towns.some((h) => h.country === 'BR' || h.country === 'PT')
  if (region === null) return brazilian ? [] : typed
  // Letters of a country alone: the towns the words name whole as if the letters were not
  // (namedAlone), where the first town found is one.
  if (!region.regions) {
    const named = namedAlone(towns.map((h) => ({ country: h.country, people: h.people ?? 0, own: h.main, h })))
    const alone = new Set(named.map(({ h }) => `${h.lat} ${h.lng}`))
    const isNamed = (h: PlaceHit) => alone.has(`${h.lat} ${h.lng}`)
    const first = typed.find((h) => h.precision === 'city')
    return first !== undefined && isNamed(first) && !brazilian ? typed.filter(isNamed) : []
  }
  // Letters of a US state's or a Canadian province's too: typed towns of one country (oneCountry),
  // the letters' own country's whatever the words may name ("Lima - PE").
  const country = oneCountry(typed.map((h) => ({ country: h.country, people: h.people ?? 0, own: h.main })))
  return country !== null && (!brazilian || country === letters.code) ? typed.filter((h) => h.country === country) : []
}

/**
 * The towns that the last words of `key` name whole in `within` after a district's words beside
 * a space, as the resolver reads them: "Centro Madrid, ES" is Madrid. None where the words with
 * one more before them are a place's name ("Praia do Forte - SP" is no Forte), or hold a digit.
 */
export function townAfterDistrict(source: LettersSource, key: string, within: Within): PlaceHit[] {
  const words = key.split(' ')
  if (/\d/.test(key)) return []
  for (let from = 1; from < words.length; from++) {
    if (source.isWholeName(words.slice(from - 1).join(' '))) return []
    const towns = source.named(words.slice(from).join(' '), within)
    if (towns.some((h) => h.exact && h.precision === 'city')) return towns.filter((h) => h.exact)
  }
  return []
}
