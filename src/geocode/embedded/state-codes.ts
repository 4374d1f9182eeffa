// Brazil's states by the two letters its addresses end in ("Centro, Belo Horizonte - MG"): read
// as the state before a country the letters name too (MG is Madagascar, PR Puerto Rico).
import { nameKey } from '../../core/text'
import type { GeocodeResult } from '../geocoder'
import { NAME_WORDS, type Part } from './address-read'
import { CITY_POPULATION, SPACED_DASH } from './near'
import { atDash, isProvinceCode } from './province-codes'
import type { Queries, RegionHint } from './resolve-data'

/** Each state's letters and its GeoNames admin1 code. */
const BR_STATES: Record<string, string> = {
  AC: '01',
  AL: '02',
  AP: '03',
  AM: '04',
  BA: '05',
  CE: '06',
  DF: '07',
  ES: '08',
  MS: '11',
  MA: '13',
  MT: '14',
  MG: '15',
  PA: '16',
  PB: '17',
  PR: '18',
  PI: '20',
  RJ: '21',
  RN: '22',
  RS: '23',
  RO: '24',
  RR: '25',
  SC: '26',
  SP: '27',
  SE: '28',
  GO: '29',
  PE: '30',
  TO: '31',
}

/** The GeoNames admin1 code of the Brazilian state whose letters `code` is; undefined for none. */
export const brazilianState = (code: string): string | undefined =>
  Object.hasOwn(BR_STATES, code) ? BR_STATES[code] : undefined

/** A slash between a word and two capitals ("Belo Horizonte/MG"), and the capitals. */
const SLASH_CODE = /(?<=\p{L})\s*\/\s*(\p{Lu}{2})(?=\s|$)/gu

/**
 * The part with a slash between a town and a Brazilian state's letters written as a spaced dash,
 * as the state is read after one (stateAtEnd, then an Italian province's of the same letters):
 * "Belo Horizonte/MG" as "Belo Horizonte - MG", "Riccione/RN" as "Riccione - RN". Before an
 * Italian province's letters otherwise it is brackets: "Fiesole/FI" as "Fiesole (FI)".
 */
export function slashAsDash(raw: string): string {
  return raw.replace(SLASH_CODE, (slash, code: string) => {
    if (BR_STATES[code] !== undefined) return ` - ${code}`
    return isProvinceCode(code) ? ` (${code})` : slash
  })
}

/** Two small letters after a spaced dash, a comma or a slash, ending a text ("Recife - pe"). */
const SMALL_LETTERS_AT_END = /^(.*?\S)(\s+[-–]\s+|\s*,\s*|\s*\/\s*)([a-z]{2})$/u

/**
 * Two small letters after a spaced dash, a comma, a slash or a space, before a CEP (its dash left
 * out or not) ending a text.
 */
const SMALL_LETTERS_BEFORE_CEP = /^(.*?\S)(\s+[-–]\s+|\s*,\s*|\s*\/\s*|\s+)([a-z]{2})((?:\s*,\s*|\s+)\d{5}-?\d{3})$/u

/**
 * `text` with a Brazilian state's letters written small after a spaced dash, a comma or a slash
 * in capitals, where the words before them (after a last comma) name a place of Brazil or no
 * place whole (`mayBeBrazils`): "recife - pe" reads as "recife - PE", "praia do forte - pe" (which
 * the data lacks) as no Praia, Cape Verde. So too before a CEP, after a space as well ("recife pe
 * 50000-000"), for stateBeforeCep to read. Else as written: small letters are words too
 * ("Frankfurt - am").
 */
export function stateInCapitals(text: string, mayBeBrazils: (key: string) => boolean): string {
  const m = SMALL_LETTERS_AT_END.exec(text) ?? SMALL_LETTERS_BEFORE_CEP.exec(text)
  if (m === null || BR_STATES[m[3]!.toUpperCase()] === undefined) return text
  const head = m[1]!
  if (!mayBeBrazils(nameKey(head.slice(head.lastIndexOf(',') + 1)))) return text
  return `${head}${m[2]}${m[3]!.toUpperCase()}${m[4] ?? ''}`
}

/**
 * A town, a space, spaced dash, slash or comma, two capitals, and a CEP (its dash left out or
 * not), with a comma before it or not. The town's words end at a letter, a digit, a dot or a
 * bracket: "Recife, PE" is no "Recife," and "PE".
 */
const STATE_BEFORE_CEP =
  /^(.*?[\p{L}\p{N}.)])(?:\s+[-–]\s+|\s*\/\s*|\s*,\s*|\s+)(\p{Lu}{2})(?:\s*,\s*|\s+)\d{5}-?\d{3}$/u

/**
 * A text of a town, a Brazilian state's letters and a CEP as the town and the letters after a
 * spaced dash, read so by the resolver and the place search alike: "Recife PE 50000-000" is
 * Recife of Pernambuco (the data has no CEPs), "Bom Jesus RS 95290-000" no Bom Jesus of Piauí,
 * and "Recife - PE, 50000-000" no 50000 Saint-Lô; after a street, "Rua da Aurora 100 Recife - PE"
 * (townAtEnd reads the town before the dash). Other texts as they are.
 */
export function stateBeforeCep(text: string): string {
  const m = STATE_BEFORE_CEP.exec(text.trim())
  return m !== null && BR_STATES[m[2]!] !== undefined ? `${m[1]} - ${m[2]}` : text
}

/**
 * An address whose state's letters end it, as their own last part, and the hint they give.
 * `dashed`: the address as written with the letters parted from the town at a spaced dash as a
 * comma parts them, a country's name after them kept; null when they were not after a dash.
 */
export type StateAtEnd = { parts: Part[]; code: string; hint: RegionHint; dashed: Part[] | null }

/**
 * The address with a Brazilian state's letters in capitals at its end, after a comma or a spaced
 * dash ("Belo Horizonte, MG", "Centro, Belo Horizonte - MG"; a slash is read as such a dash by
 * slashAsDash), and Brazil's name after them or not, rewritten with the letters as their own last part; null when it ends otherwise. Without
 * the dash or comma, the letters are no state's: "Torino TO" names an Italian province.
 */
export function stateAtEnd(countryOf: (key: string) => string | null, written: Part[]): StateAtEnd | null {
  const parts = written.map((p) => ({ raw: p.raw, tokens: [...p.tokens] }))
  if (parts.length > 1 && countryOf(nameKey(parts.at(-1)!.raw)) === 'BR') parts.pop()
  const tokens = parts.at(-1)!.tokens
  const code = tokens.at(-1)!
  if (BR_STATES[code] === undefined) return null
  const ownPart = tokens.length === 1 && parts.length > 1
  if (!ownPart && !(tokens.length >= 3 && SPACED_DASH.test(tokens.at(-2)!))) return null
  const dashed = ownPart ? null : atDash(written, parts.length - 1)
  if (!ownPart) parts.splice(-1, 1, ...atDash(parts, parts.length - 1).slice(-2))
  const hint = { country: 'BR', admin1: BR_STATES[code], key: nameKey(code), part: parts.length - 1, whole: true }
  return { parts, code, hint, dashed }
}

/** A town the words before a Brazilian state's letters name whole: its country, its people, whether by its own name. */
export type Namesake = { country: string; people: number; own: boolean }

/**
 * Of `named`, the towns the words before a Brazilian state's letters name whole, those they name
 * read as if the letters were not: of the one country whose towns they name (its towns of
 * CITY_POPULATION where it has some, else all: "Sevilla" is Spain's, though Colombia has a small
 * one; "Mérida" Mexico's and Venezuela's), by their own name or one no other town there bears:
 * "Nova Londres" is New London, CT, and New London, OH, so a Brazilian town's name as likely.
 */
export function namedAlone<T extends Namesake>(named: T[]): T[] {
  const country = oneCountry(named)
  const there = named.filter((t) => t.country === country)
  return there.length === 1 ? there : there.filter((t) => t.own)
}

/** The one country of `towns`' of CITY_POPULATION where any, else of all; null for none or more. */
export function oneCountry(towns: Namesake[]): string | null {
  const big = towns.filter((t) => t.people >= CITY_POPULATION)
  const countries = new Set((big.length > 0 ? big : towns).map((t) => t.country))
  return countries.size === 1 ? [...countries][0]! : null
}

/**
 * Whether `town`, found by the words `tokens` with no letters after them, is a town they name
 * read so (namedAlone), and not one they may name a Brazilian town for (mayBeBrazils).
 */
export function townOfOneCountry(q: Queries, tokens: string[], town: GeocodeResult): boolean {
  // A town once, though the words be two names of it.
  const towns = new Map<number, Namesake & { lat: number; lng: number }>()
  for (const r of q.qPlaces.all(nameKey(tokens.join(' ')))) {
    const own = r.alt === 0 || towns.get(r.id)?.own === true
    towns.set(r.id, { country: r.country, people: r.population, own, lat: r.lat, lng: r.lng })
  }
  const named = namedAlone([...towns.values()])
  return named.some((t) => t.lat === town.lat && t.lng === town.lng) && !mayBeBrazils(q, tokens, town)
}

/**
 * Whether the words `tokens`, before a Brazilian state's letters, may name a Brazilian town the
 * data lacks rather than `town` abroad: `town` is in Portugal, whose towns' names Brazil's bear
 * ("Coimbra - MG"), or they name a place of Brazil ("Palma": Coreaú, Ceará) or Portugal
 * ("Lagos - MG" is no Lagos, Nigeria). GET /places asks the same (place-letters.ts).
 */
export function mayBeBrazils(q: Queries, tokens: string[], town: GeocodeResult): boolean {
  const key = nameKey(tokens.join(' '))
  return town.parts.country === 'PT' || q.qPlacesIn.all(key, 'BR').length > 0 || q.qPlacesIn.all(key, 'PT').length > 0
}

/**
 * Whether the words of `tokens` from `from` on are a name of up to NAME_WORDS words, whole: no
 * digit among them, and not the end of a longer place's name ("São Bernardo do Campo" names no
 * Campo). A district before the town stays its own words ("Centro Madrid", "Miraflores Lima").
 */
function wholeFrom(q: Queries, tokens: string[], from: number): boolean {
  if (tokens.length - from > NAME_WORDS || tokens.slice(from).some((t) => /\d/.test(t))) return false
  for (let f = from - 1; f >= 0 && tokens.length - f <= NAME_WORDS && !/\d/.test(tokens[f]!); f--)
    if (q.named(nameKey(tokens.slice(f).join(' ')))) return false
  return true
}

/**
 * Whether the words ending a part of the address, whole (wholeFrom), name the place found, in
 * its country: by its own name, or by another name no other place there bears; by any of its
 * names, `shared`.
 */
export function namedAsWritten(q: Queries, parts: Part[], found: GeocodeResult, shared = false): boolean {
  if (found.parts.postcode !== undefined) return true
  const country = found.parts.country ?? ''
  for (const { tokens } of parts)
    for (let from = 0; from < tokens.length; from++)
      if (wholeFrom(q, tokens, from)) {
        const rows = q.qPlacesIn.all(nameKey(tokens.slice(from).join(' ')), country)
        const row = rows.find((r) => r.lat === found.lat && r.lng === found.lng)
        if (row !== undefined && (shared || row.alt === 0 || rows.length === 1)) return true
      }
  return false
}

/**
 * Whether `town`, found abroad for the words `words` before a Brazilian state's letters that
 * name no country, is the answer: the address names it whole (namedAsWritten, by any of its
 * names) and the words may name no Brazilian town the data lacks (mayBeBrazils).
 */
export const namedAbroad = (q: Queries, parts: Part[], words: string[], town: GeocodeResult): boolean =>
  namedAsWritten(q, parts, town, true) && !mayBeBrazils(q, words, town)
