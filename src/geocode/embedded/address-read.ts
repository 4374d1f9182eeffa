// How the resolver reads an address: its parts between commas, the words of each that may name
// a place (not a street's), and what it read there for the steps that place it.
import type { AddressParts } from '../../store/locations'
import { nameKey } from '../../core/text'
import { DASH } from './near'
import { goesOnAfter } from './saint-names'
import { dashSplits, spaceSplits } from './town-splits'
import type { RegionHint } from './resolve-data'

export type Part = { raw: string; tokens: string[] }
/**
 * dashed: the words before a dash in a word ("Köln" of "Köln-Ehrenfeld"); district: the words
 * after a town and a dash or a space ("Ehrenfeld", "St. Pauli" of "Hamburg St. Pauli"), which
 * only ever refine that town: the window `town` keys, at the same part and start.
 */
export type Window = {
  key: string
  part: number
  start: number
  len: number
  whole: boolean
  dashed?: boolean
  district?: boolean
  town?: string
  /** The window begins a run of names: a town's name may be read in it with a joining word put in. */
  opens?: true
  /**
   * A district's tokens wholly after its dash, `from` up to `to`, and how many words its name
   * has: "Paulista" and 2 of "Taboão da Serra-Várzea Paulista".
   */
  after?: { from: number; to: number; words: number }
}

/** What place() read off an address, for the steps that place it. */
export type Parsed = {
  parts: Part[]
  explicit: string | null
  codeAlso: string | null
  street: string | undefined
  streetPart: number
  /**
   * A number first in a one-part address of three words or more: a house number ('house'), or a
   * postcode only where the town after it confirms it ('code'); null when there is none.
   */
  firstNumber: 'house' | 'code' | null
  hints: RegionHint[]
  windows: Window[]
}

// Street words. A suffix word ends a street name ("Main Street"), a prefix word starts one ("Rue de Rivoli").
/** Suffix words of languages that write the street after the town (Hungarian, Czech, Slovak, Polish). */
const ONE_WORD_BACK = new Set(
  'utca ulica ulice trida namesti namestie nabrezi fasor setany út útja körút tér köz nám'.split(' '),
)
const STREET_SUFFIX = new Set([
  ...'street road avenue ave boulevard blvd lane ln drive way court ct terrace parkway pkwy highway hwy square crescent close place pl row strasse str weg allee gasse platz damm ufer straat laan gracht plein kade singel steeg'.split(
    ' ',
  ),
  ...ONE_WORD_BACK,
])
export const STREET_SUFFIX_AT_END = new Set(['st', 'rd', 'dr', 'av'])
const STREET_PREFIX = new Set(
  'rue avenue av boulevard bd chemin allee impasse quai place via viale piazza piazzale corso largo vicolo calle avenida plaza paseo carrer rua travessa praca ulica ul aleja aleje plac ulice trida namesti namestie bulevardul nám'.split(
    ' ',
  ),
)
/**
 * Street words that are a street's only as written, accents and all: unaccented they are other
 * words ("UT" is Utah, "Nam" begins "Nam Dinh"). Hungarian "út", "körút", "tér"; Czech "nám.".
 */
const ACCENTED = new Set(['út', 'útja', 'körút', 'tér', 'köz', 'nám', 'nám.'])
/** A token's key for the street words: nameKey, or the accented word itself (ACCENTED). */
const streetKey = (token: string) => {
  const lower = token.normalize('NFC').toLowerCase()
  return ACCENTED.has(lower) ? lower.replace(/\.$/, '') : nameKey(token)
}
/** A word that ends or begins a street's name ("Street", "Rue"), so never a town's alone. */
export const isStreetWord = (key: string) =>
  STREET_SUFFIX.has(key) || STREET_SUFFIX_AT_END.has(key) || STREET_PREFIX.has(key)
const COMPOUND_STREET = /(strasse|straße|str|gasse|allee|platz|damm|weg|straat|laan|gracht|plein)$/
/**
 * Street words that begin or end towns' names too ("Strada in Chianti", "Calea Mare", "Pagatan",
 * "Hinjilikatu", Norwegian "-vågen"): a store page's street reads them, the geocoder does not,
 * which would find no town in such a name.
 */
const PAGE_PREFIX = new Set(['strada', 'calea'])
/** Tested on the word as written, lower-cased: Swedish "-vägen", not Norwegian "-vågen" (a bay: "Elnesvågen"). */
const PAGE_COMPOUND = /(gatan|gaten|vägen|veien|vegen|gade|vej|katu)$/
/**
 * Norwegian "-gata" ("Storgata", "Rådhusgata"), where the address is known to be in Norway:
 * elsewhere towns end in it (Niigata, Yamagata).
 */
const PAGE_COMPOUND_NO = /gata$/
/**
 * Norwegian and Danish street words written apart ("Karl Johans gate", "Jens Baggesens Vej"), a
 * store page's in those countries alone, where the address's country is known to be that one:
 * elsewhere towns and places end in them ("South Gate", "Golden Gate", "Villasbuenas de Gata").
 */
const PAGE_SUFFIX: Record<string, string> = {
  gate: 'NO',
  gata: 'NO',
  gaten: 'NO',
  vei: 'NO',
  veien: 'NO',
  vegen: 'NO',
  gade: 'DK',
  vej: 'DK',
}
/** Whether a word as written, lower-cased, ends as a store page's street does in an address of `country`. */
const pageCompound = (word: string, country: string | undefined) =>
  PAGE_COMPOUND.test(word) || (country === 'NO' && PAGE_COMPOUND_NO.test(word))
/** A floor's, unit's, suite's, flat's or shop's word before its number ("Level 3", "Flat 2", "Shop 2/100"). */
export const UNIT_BEFORE = /^(?:level|floor|unit|suite|flat|shop|etage|stock)$/i
/** A word that names a street, alone ("Street", "Calle") or as its end ("Hauptstraße"). */
export const isStreetName = (key: string) => isStreetWord(key) || (key.length > 6 && COMPOUND_STREET.test(key))
const DIRECTION = /^(n|s|e|w|ne|nw|se|sw)$/
/** The most words a place's name is read in: "Las Palmas de Gran Canaria", "Neustadt an der Weinstraße". */
export const NAME_WORDS = 6
/**
 * Words that join the words beside them into one name ("State of Ohio", "Bar le Duc"): before a
 * word of a name, none is a place alone ("Of", Turkey; "Der", Győr's other name; "Am" of "Am
 * Mellensee", Hamme's).
 */
const JOINING = new Set(
  'of the and at by on upon am an der die das den dem im in ob auf bei vor zum zur de du des la le les sur en el los las del di da do della il van von aan het op'.split(
    ' ',
  ),
)

/**
 * Words that, opening a part, begin a street's or a spot's name with the word after them and its
 * article: "Am Ende", "Im Winkel", "An der Alster" name no town Ende, Winkel or Alster.
 */
const OPENS_STREET = new Set('am im zum zur beim vom an auf bei vor hinter unter'.split(' '))
const ARTICLE = new Set('der die das den dem des'.split(' '))

/** The dashes and spaces that begin a district's name after its town's in one word. */
const DASHES_FIRST = new RegExp(`^[${DASH}\\s]+`, 'u')

/**
 * Which tokens of a part belong to a street name (and so never name a town); `forPage`: with
 * PAGE_PREFIX, PAGE_COMPOUND and, in its address's country, PAGE_COMPOUND_NO and PAGE_SUFFIX.
 */
export function streetMask(tokens: string[], forPage: false | { country?: string } = false): boolean[] {
  const keys = tokens.map(streetKey)
  const isPrefix = (key: string) => STREET_PREFIX.has(key) || (forPage && PAGE_PREFIX.has(key))
  const isSuffix = (key: string) =>
    STREET_SUFFIX.has(key) ||
    (forPage &&
      forPage.country !== undefined &&
      Object.hasOwn(PAGE_SUFFIX, key) &&
      PAGE_SUFFIX[key] === forPage.country)
  const isCompound = (key: string, k: number) =>
    key.length > 6 &&
    (COMPOUND_STREET.test(key) || (forPage && pageCompound(tokens[k]!.normalize('NFC').toLowerCase(), forPage.country)))
  const mask = keys.map(() => false)
  const isNumber = (i: number) => /\d/.test(tokens[i] ?? '')
  keys.forEach((key, k) => {
    const atEnd = k === keys.length - 1 || isNumber(k + 1) || DIRECTION.test(keys[k + 1] ?? '')
    let start = k
    while (start > 0 && !isNumber(start - 1)) start--
    // Where a street is written after its town with no comma ("1052 Budapest Váci utca"), these
    // words take one word before them, not the town's.
    if (ONE_WORD_BACK.has(key)) start = Math.max(start, k - 1)
    // A suffix word ends a street's name, so one with no word before it and words after it
    // begins a town's ("2066 Lane Cove", "95531 Crescent City"), unless it may begin a street
    // too ("10019 Avenue of the Americas New York").
    const named = start < k || k === keys.length - 1 || isNumber(k + 1) || isPrefix(key)
    if ((isSuffix(key) && named) || (STREET_SUFFIX_AT_END.has(key) && atEnd && k > 0) || isCompound(key, k)) {
      for (let i = start; i <= k; i++) mask[i] = true
      if (DIRECTION.test(keys[k + 1] ?? '')) mask[k + 1] = true
    } else if (isPrefix(key) && k < keys.length - 1) {
      for (let i = k; i < keys.length && !isNumber(i); i++) mask[i] = true
    }
  })
  return mask
}

/**
 * The runs of words of `parts` (but `skipPart`) that may name a place. Each part's first
 * `streetWords[p]` words are a street's that ends there (resolve.ts's shortStreetEnd), so a
 * street word among them masks none after ("350 Fifth Av New York": "Av" begins no street). A
 * region's code in capitals that `hints` name is no word of a town's name: "North Sydney NSW"
 * names North Sydney whole, as "North Sydney, NSW" does. `town`: whether a key is a town's name
 * (one of DISTRICT_TOWN_POPULATION people, as the resolver asks: "Park Avenue", Queensland, is none).
 * `city`: whether a key is a city's own name (CITY_POPULATION people).
 */
export function windowsOf(
  parts: Part[],
  skipPart: number,
  streetWords: number[] = [],
  hints: RegionHint[] = [],
  town: (key: string) => boolean = () => false,
  city: (key: string) => boolean = () => false,
): Window[] {
  const out: Window[] = []
  parts.forEach((part, p) => {
    if (p === skipPart) return
    const own = streetWords[p] ?? 0
    // A part of words that are a town's whole name holds no street: "Neustadt an der Weinstraße".
    const place = own === 0 && !/\d/.test(part.raw) && town(nameKey(part.raw))
    const street = place
      ? part.tokens.map(() => false)
      : own > 0
        ? [...part.tokens.slice(0, own).map(() => true), ...streetMask(part.tokens.slice(own))]
        : streetMask(part.tokens)
    const regionCode = (t: string) =>
      t.length <= 3 && t === t.toUpperCase() && hints.some((h) => h.part === p && h.key === nameKey(t))
    // Words that can name a place: no numbers, no street words, no district letters ("København V").
    const nameTokens = part.tokens.filter(
      (t, i) => !/\d/.test(t) && !street[i] && nameKey(t).length > 1 && !regionCode(t),
    ).length
    // A word of a run of names: no number, no street's word.
    const isName = (i: number) => !/\d/.test(part.tokens[i]!) && !street[i]
    const nameAt = (i: number) => i >= 0 && i < part.tokens.length && isName(i)
    // The words a part's opening word binds to it (OPENS_STREET), the article with them.
    const opening = OPENS_STREET.has(nameKey(part.tokens[0] ?? '')) && nameAt(1)
    const bound = !opening ? 0 : ARTICLE.has(nameKey(part.tokens[1]!)) ? 2 : 1
    // Asked of a joining word only: each answer costs a query of the place names.
    const cityFirst = (key: string) => /^\p{Lu}/u.test(part.tokens[0]!) && city(key)
    const runEnd = (from: number) => {
      let end = from
      while (end < part.tokens.length && isName(end)) end++
      return end
    }
    for (let start = 0; start < part.tokens.length; start++) {
      for (let len = 1; len <= NAME_WORDS && start + len <= part.tokens.length; len++) {
        const slice = part.tokens.slice(start, start + len)
        if (slice.some((t) => /\d/.test(t)) || street[start + len - 1]) break
        const key = nameKey(slice.join(' '))
        // A street's short word alone names no town: "St." of "St. Pölten" is not Sète ("St").
        if (len === 1 && STREET_SUFFIX_AT_END.has(key)) continue
        // A joining word alone names no town, unless, capitalised, it opens the part and is a
        // city's own name: "Van Edremit" is in Van.
        if (len === 1 && JOINING.has(key) && nameAt(start + 1) && !(start === 0 && cityFirst(key))) continue
        if (start > 0 && start <= bound) break // "Ende" of "Am Ende": no Ende, Indonesia
        // Nor do the words before "of" and a name: "Bay" of "Bay of Plenty", "State" of "State of Ohio".
        if (nameKey(part.tokens[start + len] ?? '') === 'of' && nameAt(start + len + 1)) continue
        // Nor do the words after "St.", "Fort" or "Mount" (or "Ft.", "Mt.") in a name, when no
        // street's: "Mt St Helens" is not St Helens.
        if (start > 0 && !street[start - 1] && goesOnAfter(nameKey(part.tokens[start - 1]!))) break
        const opens = start === 0 || !nameAt(start - 1) ? { opens: true as const } : {}
        if (key.length >= 2) out.push({ key, part: p, start, len, whole: len === nameTokens, ...opens })
      }
      // A town before a dash, its district after it ("Köln-Ehrenfeld"): the town, never whole,
      // so a place's own dashed name comes first ("Saint-Jean-Pied-de-Port"). The district is
      // the rest of the word, or of the run of names ("Hamburg-St. Pauli").
      if (!isName(start)) continue
      const token = part.tokens[start]!
      const run = part.tokens.slice(start, runEnd(start)).join(' ')
      for (const { head, rest } of dashSplits(run)) {
        // A town of several words before the dash begins the run ("San Francisco-Oakland"), as
        // it would before a space: not its last word alone (San, Mali).
        const words = head.trim().split(/\s+/).length
        if (words > 1 && start > 0 && isName(start - 1)) continue
        // Nor a word after a joining word, which binds them: "Palmas" of "Las Palmas-Telde" (Brazil).
        if (start > 0 && isName(start - 1) && JOINING.has(nameKey(part.tokens[start - 1]!))) continue
        const town = nameKey(head)
        const inWord = nameKey(token.slice(head.length).replace(DASHES_FIRST, ''))
        if (town.length >= 2) out.push({ key: town, part: p, start, len: words, whole: false, dashed: true })
        // The tokens wholly after the dash's own: a spaced dash is a token of its own.
        const after = {
          from: start + head.split(/\s+/).length,
          to: runEnd(start),
          words: rest.trim().split(/\s+/).length,
        }
        const restKey = nameKey(rest)
        const district = { part: p, start, len: 1, whole: false, district: true, town }
        if (inWord !== restKey && inWord.length >= 2) out.push({ key: inWord, ...district })
        if (restKey.length >= 2) out.push({ key: restKey, ...district, after })
      }
    }
    // A town and its district beside a space, read where the place search reads them
    // (spaceSplits): a run of names at most TOWN_WORDS words into it ("Hamburg St Pauli"). Not
    // a region's name after the town, which narrows it: "Brooklyn New York" is Brooklyn.
    for (let start = 0; start < part.tokens.length; start++) {
      if (!isName(start) || (start > 0 && isName(start - 1))) continue
      for (const { head, rest } of spaceSplits(part.tokens.slice(start, runEnd(start)).join(' '))) {
        const key = nameKey(rest)
        if (hints.some((h) => h.part === p && h.key === key)) continue
        out.push({ key, part: p, start, len: 1, whole: false, district: true, town: nameKey(head) })
      }
    }
  })
  return out
}

/** `parts` without the empty ones. */
export function clean(parts: AddressParts): AddressParts {
  const out: AddressParts = {}
  for (const [k, v] of Object.entries(parts) as [keyof AddressParts, string | undefined][]) if (v) out[k] = v
  return out
}
