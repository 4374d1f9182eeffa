// Address -> coordinates from the compiled tables: country, then postcode confirmed by its town,
// then the place names (most specific part wins, narrowed by region, most populous on ties).
// Refuses (null) rather than guess when nothing in the address matches.
import type { Database } from 'bun:sqlite'
import { normalizeAddress, type GeocodeResult } from '../geocoder'
import { nameKey } from '../../core/text'
import {
  isStreetWord,
  NAME_WORDS,
  type Parsed,
  type Part,
  STREET_SUFFIX_AT_END,
  streetMask,
  UNIT_BEFORE,
  windowsOf,
} from './address-read'
import { districtPostcode } from './district-codes'
import { mexicanLettersInCapitals } from './mexico-states'
import { CITY_POPULATION } from './near'
import { postcodePrefix } from './postcode-forms'
import { lettersOnly, provinceAtEnd } from './province-codes'
import { queriesOf, type Queries, type RegionHint } from './resolve-data'
import { byPlaceName, joinedKey } from './resolve-names'
import { dashAsComma, dashAsSpace, dashAsWritten, townNamed } from './resolve-dashes'
import { byPostcode } from './resolve-postcode'
import { townAtEnd } from './resolve-tail'
import {
  namedAbroad,
  namedAsWritten,
  slashAsDash,
  type StateAtEnd,
  stateAtEnd,
  stateBeforeCep,
  stateInCapitals,
  townOfOneCountry,
} from './state-codes'
import { AU_STATES, CA_PROVINCES, COUNTRY_ALIASES } from './tables'

/** The aliases ("USA", "UK"): names of countries though as short as a code. */
const ALIASES = new Set(Object.keys(COUNTRY_ALIASES).map(nameKey))

/**
 * A town at least this populous whose own name is a country's in some language is the town when
 * named alone ("Salvador", Brazil, 2.7M: El Salvador in Spanish; "Granada", Spain: Grenada;
 * "Franca", Brazil: France in Portuguese), not the country.
 */
const TOWN_OVER_COUNTRY = 100_000

const US_STATE =
  /^(A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY])$/

/**
 * Bump when the resolver places an address differently on the same data: cached answers are keyed
 * by it and the data's version, so old answers are not served after a fix.
 */
export const RESOLVER_VERSION = '87'

export function resolver(db: Database) {
  const q = queriesOf(db)
  return { lookup: (address: string) => lookup(q, address) }
}

/**
 * The country a whole address names by one of its names or its own code in capitals (not other
 * codes, which are words and towns' names too: "Bo", "Man", "Bra"; the aliases are names),
 * unless a big town's own name it is too (TOWN_OVER_COUNTRY: "BO" is Bo); null otherwise.
 */
function countryAlone(q: Queries, key: string, raw: string): string | null {
  const code = q.countryOf(key)
  // A country's own code in capitals names it too: "US" is no Us, France, a village.
  if (key.length <= 3 && !ALIASES.has(key) && code !== raw) return null
  if (code === null) return null
  return q.qPlaces.all(key).some((p) => p.alt === 0 && p.population >= TOWN_OVER_COUNTRY) ? null : code
}

/**
 * Strips a trailing country name or code and returns its ISO code. A capitalised 2-letter code that
 * is also a state or province ("CA", "DE", "NL", "SK") is left in place and returned as codeAlso:
 * read as a region first, as a country when no town of that region matches. A name that is a
 * region's too ("Georgia") is taken, and alsoRegion says so: the caller reads it as the region
 * when no town of the country matches ("Atlanta, Georgia"). With keepRegionNames, such a name is
 * left in place.
 */
function takeCountry(
  q: Queries,
  parts: Part[],
  keepRegionNames: boolean,
): { country: string | null; codeAlso: string | null; alsoRegion: boolean } {
  const last = parts[parts.length - 1]!
  const oneTail = (n: number) => nameKey(last.tokens.slice(-n).join(' '))
  for (let n = Math.min(4, last.tokens.length); n >= 1; n--) {
    const tail = last.tokens.slice(-n)
    if (n === last.tokens.length && parts.length === 1) continue // never the whole address
    const key = nameKey(tail.join(' '))
    const code = q.countryOf(key)
    if (!code) continue
    // Not the end of a longer name ("Santa Fe, New Mexico", "Jersey City New Jersey").
    let longer = false
    for (let m = n + 1; m <= Math.min(n + 3, last.tokens.length); m++)
      if (q.countryOf(oneTail(m)) !== null || q.qRegions.get(oneTail(m)) !== null) longer = true
    if (longer) continue
    // Nor after "of", which joins it to the words before: "Port of Spain" is in Trinidad.
    if (nameKey(last.tokens.at(-n - 1) ?? '') === 'of') continue
    // A region's too where read as one: short letters only in capitals (regionHints), so "Centro,
    // Col" (Colombia's, Colima's "COL") is no Col, Italy, read as a town on a second reading.
    const alsoRegion =
      q.qRegions.get(key) !== null && (key.length > 3 || tail.join(' ') === tail.join(' ').toUpperCase())
    if (alsoRegion && keepRegionNames) continue
    // Without a comma before it, only a plain country name is taken: not a code ("Bergamo BG"),
    // not a region's name too ("Atlanta Georgia").
    if (parts.length === 1 && (key.length === 2 || alsoRegion)) continue
    const raw = tail.join(' ')
    if (key.length === 2 && raw !== raw.toUpperCase()) continue // "de", "in": words, not codes
    if (key.length === 2 && (US_STATE.test(raw) || key in CA_PROVINCES || key in AU_STATES))
      return { country: null, codeAlso: raw, alsoRegion: false }
    last.tokens.splice(-n, n)
    if (last.tokens.length === 0) parts.pop()
    return { country: code, codeAlso: null, alsoRegion }
  }
  return { country: null, codeAlso: null, alsoRegion: false }
}

function regionHints(q: Queries, parts: Part[], lastPart: number): RegionHint[] {
  const hints: (RegionHint & { start: number; len: number })[] = []
  parts.forEach((part, p) => {
    for (let start = 0; start < part.tokens.length; start++) {
      for (let len = 1; len <= 3 && start + len <= part.tokens.length; len++) {
        const raw = part.tokens.slice(start, start + len).join(' ')
        const key = nameKey(raw)
        if (key === '' || /\d/.test(key)) continue
        if (key.length <= 3 && raw !== raw.toUpperCase()) continue // abbreviations only in capitals
        for (const r of q.qRegions.all(key)) {
          hints.push({
            country: r.country,
            admin1: r.admin1,
            key,
            part: p,
            start,
            len,
            whole: p === lastPart && nameKey(part.tokens.filter((t) => !/\d/.test(t)).join(' ')) === key,
          })
        }
      }
    }
  })
  // A region's name inside a longer one's is not named: "Wales" in "New South Wales". Nor is
  // one standing anywhere in a place's name (of up to NAME_WORDS words) that goes on after it:
  // "Limburg" of "Limburg an der Lahn", a town of Germany; but "DC" ends "Washington DC", which
  // it narrows.
  const within = (h: { part: number; start: number; len: number }, o: { part: number; start: number; len: number }) =>
    o.part === h.part && o.len > h.len && o.start <= h.start && h.start + h.len <= o.start + o.len
  return hints
    .filter((h) => !hints.some((o) => within(h, o)) && !inPlaceName(q, parts[h.part]!.tokens, h))
    .map(({ start: _, len: __, ...h }) => h)
}

/**
 * Whether the words `start` to `start + len` of `tokens`, with any before them and at least one
 * after, name a place of up to NAME_WORDS words.
 */
function inPlaceName(q: Queries, tokens: string[], { start, len }: { start: number; len: number }): boolean {
  for (let from = Math.max(0, start + len - NAME_WORDS); from <= start; from++)
    for (let to = start + len + 1; to <= Math.min(tokens.length, from + NAME_WORDS); to++) {
      const span = tokens.slice(from, to)
      if (!span.some((t) => /\d/.test(t)) && q.named(nameKey(span.join(' ')))) return true
    }
  return false
}

function lookup(q: Queries, address: string): GeocodeResult | null {
  // The cache's key, so that addresses sharing one get one answer (the street as written, too),
  // with a Brazilian state's letters written small after a town of Brazil's name, or of none, in
  // capitals, and a CEP after such letters left out (stateBeforeCep); so too a Mexican state's
  // letters that are a country's (mexicanLettersInCapitals).
  const brazils = (key: string) => q.qPlacesIn.all(key, 'BR').length > 0 || !q.named(key)
  const mexicans = mexicanLettersInCapitals(normalizeAddress(address), (key) => q.countryOf(key) !== null)
  const text = stateBeforeCep(stateInCapitals(mexicans, brazils))
  const result = lookupWritten(q, text)
  if (result !== null && result.precision !== 'city') return result
  // Without commas, street words may swallow the town ("12 Rue de la Paix Paris") or leave a
  // word of the street for it ("Laan van Meerdervoort 10 Den Haag": Van, Turkey): the last
  // words, as the town, are read when nothing else is, or when they follow a house number.
  const tail = townAtEnd(q, text, result !== null)
  if (tail === null || (result !== null && nameKey(result.parts.city ?? '') === tail.key)) return result
  const written = lookupWritten(q, tail.address)
  // The same place read either way keeps the first reading (its postcode is no street's),
  // unless it read neither a postcode nor a street: the words before the town are the street.
  const same = result !== null && written !== null && written.lat === result.lat && written.lng === result.lng
  if (written === null || (same && (result.parts.postcode !== undefined || result.parts.street !== undefined)))
    return result
  return written
}

/** An address read as written: with its commas, or as one part without. */
function lookupWritten(q: Queries, text: string, keepNear = true): GeocodeResult | null {
  const first = resolve(q, text, false, keepNear)
  const result = first.result === null && first.alsoRegion ? resolve(q, text, true, keepNear).result : first.result
  // A town near one that names no place alone is the town: "Rödental b. Coburg" (Coburg is in
  // Australia too), as a town the data lacks near a city is that city.
  return result === null && keepNear && first.near ? lookupWritten(q, text, false) : result
}

function resolve(
  q: Queries,
  address: string,
  keepRegionNames: boolean,
  keepNear: boolean,
): { result: GeocodeResult | null; alsoRegion: boolean; near: boolean } {
  const parts: Part[] = address
    .split(/[,;\n|]+/)
    // A slash between spaces joins as the slash does between words: "Frankfurt / Oder" is
    // "Frankfurt Oder", as "Frankfurt/Oder" reads, not a word of its own. Before a Brazilian
    // state's letters it is a spaced dash: "Belo Horizonte/MG" (slashAsDash).
    .map((raw) =>
      slashAsDash(raw)
        .replace(/(^|\s)\/+(?=\s|$)/g, ' ')
        .trim(),
    )
    .filter((raw) => raw !== '')
    .map((raw) => ({ raw, tokens: raw.split(/\s+/) }))
  dashAsSpace(q, parts)
  dashAsComma(q, parts)
  dashAsWritten(q, parts)
  const near = besideNear(q, parts, keepNear)
  withoutUnit(parts)
  if (parts.length === 0) return { result: null, alsoRegion: false, near }
  const prefixed = readPrefixed(parts)
  // An address that is a country's name and nothing else is a town only in that country: a
  // city-state ("Singapore", "Monaco"), not a namesake abroad ("USA": Usa River, Tanzania;
  // "Brazil": Brazil, Indiana). Otherwise it names no place precisely enough (null).
  const whole = parts.length === 1 ? countryAlone(q, nameKey(parts[0]!.raw), parts[0]!.raw) : null
  if (whole !== null) return { result: place(q, parts, whole, null), alsoRegion: false, near }
  // Two capitals alone are a region's or a province's letters, a town only by its own name:
  // "RN" is Rimini's province, not Rennes (whose other name it is).
  if (
    parts.length === 1 &&
    lettersOnly(parts[0]!.raw) &&
    !q.qPlaces.all(nameKey(parts[0]!.raw)).some((r) => r.alt === 0)
  )
    return { result: null, alsoRegion: false, near }
  // A Brazilian state's or an Italian province's letters name the state (the province's region)
  // where a town of it is named, before the country they name too; after a US state's or a
  // Canadian province's of the same letters ("PA", "PE", "MI").
  const brState = prefixed === null ? stateAtEnd(q.countryOf, parts) : null
  const province = prefixed === null || prefixed === 'IT' ? provinceAtEnd(q.countryOf, parts) : null
  const state = brState ?? province
  const regionFirst = state !== null && (US_STATE.test(state.code) || state.code.toLowerCase() in CA_PROVINCES)
  // A town of the state's country or none: "Bari - BA" is no Barry, Wales, in Bahia. After a
  // dash, letters that name no town of their Brazilian state may name an Italian province's:
  // "Riccione - RN" is in Emilia-Romagna, not Rio Grande do Norte.
  const within = (s: StateAtEnd | null) => {
    const r = s === null ? null : place(q, s.parts, null, null, s.hint)
    return r?.parts.country === s?.hint.country ? r : null
  }
  const inProvince = () => (state === brState ? within(province) : null)
  const first = regionFirst ? null : (within(state) ?? inProvince())
  if (first !== null) return { result: first, alsoRegion: false, near }
  const read = (parts: Part[]) => {
    const { country, codeAlso, alsoRegion } = takeCountry(q, parts, keepRegionNames)
    // Letters that named no town of their state or province name no town either: "Riccione, RN"
    // is no Rennes (also "RN"). A US state's or a country's stay to be read as such.
    if (state !== null && !regionFirst && parts.length > 1 && nameKey(parts.at(-1)!.raw) === state.hint.key) parts.pop()
    // The words before the letters: a US state's or province's stay as their own last part.
    const lettersLeft = parts.length > 1 && nameKey(parts.at(-1)!.raw) === state?.hint.key
    const words = parts.at(lettersLeft ? -2 : -1)?.tokens ?? []
    const found = parts.length === 0 ? null : place(q, parts, country ?? prefixed, codeAlso)
    // A Brazilian state's letters read as a country's name a town of it as written, by a name of
    // its own or one it alone bears there: "Belo Horizonet - MG" is no Belo, Madagascar.
    // Not where they begin a name of a town of the state: "Belo, MG" is Belo Horizonte cut short,
    // no Belo, Madagascar.
    const asCountry = brState !== null && !regionFirst && country === brState.code.toUpperCase()
    const begun = asCountry && q.wordsBegin(nameKey(words.join(' ')), 'BR', brState.hint.admin1)
    const named = asCountry && found !== null && (begun || !namedAsWritten(q, parts, found)) ? null : found
    // None there, the words are read as if the letters were not, where they name towns of one
    // country only: "Sevilla - SE" (none in Sweden) is Spain's; "Mérida - BA" no Mexico's.
    const alone = asCountry && named === null && !begun ? place(q, parts, null, null) : null
    const result = alone !== null && townOfOneCountry(q, words, alone) ? alone : named
    // A Brazilian town is no answer outside the state its letters name: "Bom Jesus - DF" is not
    // Bom Jesus, Piauí. Letters of no country name a town abroad only as namedAbroad allows:
    // "Praia do Forte - SP" is no Praia, Cape Verde.
    if (brState !== null && !regionFirst) {
      const notAbroad = !asCountry && result !== null && !namedAbroad(q, parts, words, result)
      if (result?.parts.country === 'BR' || notAbroad) return { result: null, alsoRegion, near }
    }
    // A US state's letters naming no town of it name their Brazilian state's town, then their
    // Italian province's: "Alessandria - AL" is in Piedmont, not Egypt. Not a Brazilian town of
    // another state: "Boa Viagem - PE" (Recife's) is no Boa Viagem, Ceará.
    // Nor a town abroad its words name only in part: "Porto de Galinhas - PE" is no Porto, Portugal;
    // nor, but in the letters' country, one they may name a Brazilian town for: "Aveiro - PA".
    if (regionFirst && result?.parts.region !== state.code) {
      const home = result?.parts.country === brState?.code.toUpperCase()
      const abroad = () =>
        result !== null &&
        result.parts.country !== 'BR' &&
        (home ? namedAsWritten(q, parts, result, true) : namedAbroad(q, parts, words, result))
      const elsewhere = brState !== null && !abroad() ? null : result
      return { result: within(state) ?? inProvince() ?? elsewhere, alsoRegion, near }
    }
    return { result, alsoRegion, near }
  }
  // Letters after a dash are then read as after a comma: a US state's ("Bethlehem - PA"), a
  // country's code ("Mérida - BA": Bosnia has no Mérida) or nothing. A province's letters alone
  // that so find no town read as written: "Culiacán - SI" (Sinaloa's) finds none in Slovenia.
  const dashed = state?.dashed ? read(state.dashed.map((p) => ({ raw: p.raw, tokens: [...p.tokens] }))) : null
  if (dashed !== null && (dashed.result !== null || state === brState || regionFirst)) return dashed
  return read(parts)
}

/**
 * German "bei" (near), or its short "b." or "b" (in small letters: a capital alone is a
 * building's or block's letter), between a town and the town it is near.
 */
const nearWord = (token: string) => token === 'b' || /^(?:bei|b\.)$/i.test(token)
/** "bei" cut short, with or without its dot, as a place's whole name is written ("Neustadt b Coburg"). */
const NEAR_SHORT = /^b\.?$/i
/** A postcode before its town, kept with it when a street's number comes first. */
const POSTCODE = /^\d{4,5}$/

/**
 * Splits, in place, a part of names that writes a town near another ("Norderstedt bei Hamburg",
 * "Norderstedt b Hamburg") into the town and the one it is near, as a comma parts them: the town
 * first named is the place when near the other, which else stands for it; without `keepNear`,
 * the town alone. Not a part that is a place's whole name, with "bei" however written ("Neustadt
 * b. Coburg" is Neustadt bei Coburg). The words up to a number are a street's, parted from the
 * town as by a comma ("Rathausallee 5 Norderstedt bei Hamburg"); a postcode stays with its town.
 * Whether it split a part.
 */
function besideNear(q: Queries, parts: Part[], keepNear: boolean): boolean {
  let split = false
  for (let p = 0; p < parts.length; p++) {
    const all = parts[p]!.tokens
    const lastNumber = all.findLastIndex((t) => /\d/.test(t))
    const code = lastNumber >= 0 && POSTCODE.test(all[lastNumber]!) ? [all[lastNumber]!] : []
    const street = all.slice(0, lastNumber + 1 - code.length)
    const tokens = all.slice(lastNumber + 1)
    const inner = (i: number) => i > 0 && i < tokens.length - 1
    const asPart = (words: string[]) => ({ raw: words.join(' '), tokens: words })
    // The name with "bei" spelt out comes first: "Neustadt b.Coburg" is also a lesser alternate name.
    const spelt = tokens.map((t, i) => (inner(i) && NEAR_SHORT.test(t) ? 'bei' : t))
    if (spelt.some((t, i) => t !== tokens[i]) && q.named(nameKey(spelt.join(' ')))) {
      parts[p] = asPart([...street, ...code, ...spelt])
      continue
    }
    const at = tokens.findIndex((t, i) => inner(i) && nearWord(t))
    if (at < 0 || q.named(nameKey(tokens.join(' ')))) continue
    const [town, near] = [[...code, ...tokens.slice(0, at)], tokens.slice(at + 1)]
    const named = [...(street.length > 0 ? [street] : []), town, ...(keepNear ? [near] : [])]
    parts.splice(p, 1, ...named.map(asPart))
    split = true
  }
  return split
}

/**
 * The country a part's vehicle code names before its postcode ("D-80331 München": DE), kept in
 * place: "D-60311 Frankfurt am Main" is no house number and street. Rewrites, in place, each part
 * that is wholly a district by its number or name as its postcode and city ("Wien 13": "1130 Wien").
 */
function readPrefixed(parts: Part[]): string | null {
  let country: string | null = null
  for (const part of parts) {
    const prefixed = postcodePrefix(part.raw)
    if (prefixed?.postcode) country ??= prefixed.country
    const head = prefixed?.postcode ? part.raw.slice(0, part.raw.length - prefixed.rest.length) : ''
    const district = districtPostcode(part.raw.slice(head.length))
    if (district !== null) Object.assign(part, { raw: head + district, tokens: (head + district).split(/\s+/) })
  }
  return country
}

/** A house number, or a range or a flat's number and the house's ("12a", "12-14", "5/120"). */
const HOUSE_NUMBER = /^\d+[a-z]?([-/]\d+[a-z]?)?$/i

/** A floor's word after its number ("3. OG", "2. Stock", "3rd Floor"). */
const UNIT_AFTER = /^(?:og|stock|etage|floor)$/i
const UNIT_NUMBER = /^\d+[a-z]?$/i
const ORDINAL = /^\d+(?:\.|st|nd|rd|th)?$/i

/**
 * How many first words of `tokens` are a floor's, unit's, suite's or shop's number, before the
 * house's: "Level 3", "3. OG", "Shop" of "Shop 2/100" (the shop's number and the house's). 0 for none.
 */
function unitWords(tokens: string[]): number {
  const [a = '', b = ''] = tokens
  if (UNIT_BEFORE.test(a) && UNIT_NUMBER.test(b)) return 2
  if (UNIT_BEFORE.test(a) && HOUSE_NUMBER.test(b) && b.includes('/')) return 1
  if (ORDINAL.test(a) && UNIT_AFTER.test(b)) return 2
  return 0
}

/**
 * Drops, in place, a floor's, unit's, suite's or shop's number before the house's: a first part
 * that is only that ("Level 3, 2000 George St Sydney"), or the first words of the first part
 * when a house number follows ("Unit 5 120 Oxford St ..."). The house number then leads, as
 * without it: "2000" is read as the house's, not as Sydney's postcode.
 */
function withoutUnit(parts: Part[]): void {
  const first = parts[0]
  if (first === undefined) return
  const n = unitWords(first.tokens)
  if (n === 0) return
  if (n === first.tokens.length && parts.length > 1) parts.shift()
  else if (n < first.tokens.length && HOUSE_NUMBER.test(first.tokens[n]!.replace(/^\d+[a-z]?\//i, '')))
    Object.assign(first, { raw: first.tokens.slice(n).join(' '), tokens: first.tokens.slice(n) })
}

/**
 * Where a street's short last word ("St", "Rd") ends the words after a leading number, or the
 * first words when none leads, with a name before it (no street word: "Av St Charles" is
 * Saint-Charles) and a word after it, and no place's name holds it: "2000 George St Sydney" (a
 * house number, though Sydney's code too) and "Oxford St Bondi Junction", not "34952 Port St
 * Lucie" or "Port St Lucie FL". -1 when none does.
 */
function shortStreetEnd(q: Queries, tokens: string[]): number {
  const first = HOUSE_NUMBER.test(tokens[0] ?? '') ? 1 : 0
  const letters = (t: string | undefined) => t !== undefined && !/\d/.test(t)
  for (let k = first + 1; k < tokens.length - 1; k++) {
    if (!STREET_SUFFIX_AT_END.has(nameKey(tokens[k]!)) || !letters(tokens[k - 1]) || !letters(tokens[k + 1])) continue
    if (isStreetWord(nameKey(tokens[k - 1]!))) continue
    // With no number leading, every word before it is the street's name: none with a digit.
    if (first === 0 && tokens.slice(0, k).some((t) => !letters(t))) continue
    let named = false
    for (let from = first; from < k && !named; from++)
      for (let to = k + 2; to <= tokens.length && !named; to++)
        named = q.named(nameKey(tokens.slice(from, to).join(' ')))
    // Nor, with no number leading, when the short word begins a place's name: "Downtown St
    // Louis", "Marktgasse St. Gallen" are in St. Louis and St. Gallen.
    for (let to = k + 2; first === 0 && to <= tokens.length && !named; to++)
      named = q.named(nameKey(tokens.slice(k, to).join(' ')))
    if (!named) return k
  }
  return -1
}

/** `state`: a region the address's last part names, in place of the hints its words give (stateAtEnd). */
function place(
  q: Queries,
  parts: Part[],
  explicit: string | null,
  codeAlso: string | null,
  state: RegionHint | null = null,
): GeocodeResult | null {
  // The first of several parts is the street when it holds a house number or a street word
  // ("200 Main Street"), but not when it is a postcode and its town ("79098 Freiburg").
  const first = parts[0]!
  // A number and a street are no postcode and town, though the number is the town's code too
  // ("2000 George Street, Sydney").
  const postcodeTown =
    /^\s*(\d{4,5}|\d{5}-\d{3}|[A-Z]\d[A-Z] ?\d[A-Z]\d|\d{4} ?[A-Z]{2})\s+\D+$/.test(first.raw) &&
    !streetMask(first.tokens).some(Boolean)
  // A town's whole name holds no street word ("Neustadt an der Weinstraße, DE").
  const townWhole = (key: string) => townNamed(q, key) || townNamed(q, joinedKey(q, key))
  const streetWords = streetMask(first.tokens).some(Boolean) && !townWhole(nameKey(first.raw))
  const streetPart = parts.length > 1 && !postcodeTown && (/\d/.test(first.raw) || streetWords) ? 0 : -1
  const street = streetPart === 0 ? parts[0]!.raw : undefined
  // A number before two words or more, without a comma: a house number before a street word
  // ("10001 Main Street New York"), else maybe a postcode before its town ("10001 New York").
  const numbered = parts.length === 1 && HOUSE_NUMBER.test(parts[0]!.tokens[0] ?? '') && parts[0]!.tokens.length > 2
  // The words of a street its short word ends name no town, as a street's do: "120 Oxford St
  // Bondi Junction" is not in Oxford, nor is "Unit 5, 120 Oxford St Bondi Junction".
  const shortEnds = parts.map((part) => shortStreetEnd(q, part.tokens))
  const firstNumber = !numbered
    ? null
    : streetMask(parts[0]!.tokens).some(Boolean) || shortEnds[0]! >= 0
      ? 'house'
      : 'code'

  const read = regionHints(q, parts, parts.length - 1)
  const hints = state === null ? read : [...read.filter((h) => h.part !== state.part), state]
  const windows = windowsOf(
    parts,
    streetPart,
    shortEnds.map((k) => k + 1),
    hints,
    townWhole,
    (key) => q.qPlaces.all(key).some((r) => r.alt === 0 && r.population >= CITY_POPULATION),
  )
  const parsed: Parsed = { parts, explicit, codeAlso, street, streetPart, firstNumber, hints, windows }
  const { result, formatCountry } = byPostcode(q, parsed)
  return result ?? byPlaceName(q, parsed, explicit ?? formatCountry)
}
