// Italy's provinces by the two letters its addresses write after the town ("20121 Milano MI",
// "Fiesole (FI)"): read as the province's region where a town of it is named.
import { nameKey } from '../../core/text'
import type { Part } from './address-read'
import { SPACED_DASH } from './near'
import type { StateAtEnd } from './state-codes'

/**
 * Each province's letters and its region's GeoNames admin1 code (the data keeps no province).
 * Sardinia's former provinces' letters (CI, OG, OT, VS) are still written.
 */
const IT_PROVINCES: Record<string, string> = {
  AG: '15',
  AL: '12',
  AN: '10',
  AO: '19',
  AP: '10',
  AQ: '01',
  AR: '16',
  AT: '12',
  AV: '04',
  BA: '13',
  BG: '09',
  BI: '12',
  BL: '20',
  BN: '04',
  BO: '05',
  BR: '13',
  BS: '09',
  BT: '13',
  BZ: '17',
  CA: '14',
  CB: '11',
  CE: '04',
  CH: '01',
  CI: '14',
  CL: '15',
  CN: '12',
  CO: '09',
  CR: '09',
  CS: '03',
  CT: '15',
  CZ: '03',
  EN: '15',
  FC: '05',
  FE: '05',
  FG: '13',
  FI: '16',
  FM: '10',
  FR: '07',
  GE: '08',
  GO: '06',
  GR: '16',
  IM: '08',
  IS: '11',
  KR: '03',
  LC: '09',
  LE: '13',
  LI: '16',
  LO: '09',
  LT: '07',
  LU: '16',
  MB: '09',
  MC: '10',
  ME: '15',
  MI: '09',
  MN: '09',
  MO: '05',
  MS: '16',
  MT: '02',
  NA: '04',
  NO: '12',
  NU: '14',
  OG: '14',
  OR: '14',
  OT: '14',
  PA: '15',
  PC: '05',
  PD: '20',
  PE: '01',
  PG: '18',
  PI: '16',
  PN: '06',
  PO: '16',
  PR: '05',
  PT: '16',
  PU: '10',
  PV: '09',
  PZ: '02',
  RA: '05',
  RC: '03',
  RE: '05',
  RG: '15',
  RI: '07',
  RM: '07',
  RN: '05',
  RO: '20',
  SA: '04',
  SI: '16',
  SO: '09',
  SP: '08',
  SR: '15',
  SS: '14',
  SU: '14',
  SV: '08',
  TA: '13',
  TE: '01',
  TN: '17',
  TO: '12',
  TP: '15',
  TR: '18',
  TS: '06',
  TV: '20',
  UD: '06',
  VA: '09',
  VB: '12',
  VC: '12',
  VE: '20',
  VI: '20',
  VR: '20',
  VS: '14',
  VT: '07',
  VV: '03',
}

/** Whether the two capitals are an Italian province's letters. */
export const isProvinceCode = (code: string): boolean => Object.hasOwn(IT_PROVINCES, code)

/** The GeoNames admin1 code of the region of the Italian province whose letters `code` is; undefined for none. */
export const provinceRegion = (code: string): string | undefined =>
  isProvinceCode(code) ? IT_PROVINCES[code] : undefined

/** The letters in capitals, alone after the town or in brackets, round or square: "MI", "(MI)", "[MI]". */
const LETTERS = /^([([])?([A-Z]{2})([)\]])?$/

/** Two capitals and nothing else ("RN", "SP"): a region's or a province's letters, as often as a name. */
export const lettersOnly = (text: string): boolean => /^\p{Lu}{2}$/u.test(text.trim())

/** Whether a bracket opened (or none) is closed by its own kind, or left open as a field cut short ("(RN"). */
export const bracketsPair = (open: string | undefined, close: string | undefined): boolean =>
  close === undefined || (open === '(' ? ')' : open === '[' ? ']' : undefined) === close

/** The tokens with brackets spaced from the letters between them set close: "( RN )" as "(RN)". */
const closeBrackets = (tokens: string[]): string[] => {
  const text = tokens.join(' ')
  const closed = text.replace(/([([])\s+(\p{Lu}{2})\s*([)\]])?$|(\p{Lu}{2})\s+([)\]])$/u, '$1$2$3$4$5')
  return closed === text ? tokens : closed.split(' ')
}

/**
 * The address with an Italian province's letters at its end, after the town in the same part
 * ("Pavia PV"), after a spaced dash ("Riccione - RN") or in brackets ("Fiesole (FI)", "Fiesole,
 * (FI)", "Riccione [RN]", left open or spaced: "Riccione (RN", "( RN )"), and Italy's name after
 * them or not, rewritten with the letters as their own last part; null when it ends otherwise.
 * After a comma without brackets they are no province's: "Belo Horizonte, MG" names a Brazilian
 * state.
 */
export function provinceAtEnd(countryOf: (key: string) => string | null, written: Part[]): StateAtEnd | null {
  const parts = written.map((p) => ({ raw: p.raw, tokens: [...p.tokens] }))
  if (parts.length > 1 && countryOf(nameKey(parts.at(-1)!.raw)) === 'IT') parts.pop()
  const tokens = closeBrackets(parts.at(-1)!.tokens)
  parts.at(-1)!.tokens = tokens
  const [, open, code = '', close] = LETTERS.exec(tokens.at(-1)!) ?? []
  if (IT_PROVINCES[code] === undefined || !bracketsPair(open, close)) return null
  const ownPart = tokens.length === 1 && parts.length > 1
  if (!(ownPart && open !== undefined) && tokens.length < 2) return null
  const dash = open === undefined && tokens.length >= 3 && SPACED_DASH.test(tokens.at(-2)!)
  const dashed = dash ? atDash(written, parts.length - 1) : null
  if (!ownPart) {
    const town = tokens.slice(0, dash ? -2 : -1)
    parts.splice(-1, 1, { raw: town.join(' '), tokens: town })
  } else parts.pop()
  parts.push({ raw: code, tokens: [code] })
  const hint = { country: 'IT', admin1: IT_PROVINCES[code], key: nameKey(code), part: parts.length - 1, whole: true }
  return { parts, code, hint, dashed }
}

/** `parts` with the part at `at` parted before its last word at the spaced dash before that word. */
export function atDash(parts: Part[], at: number): Part[] {
  const { tokens } = parts[at]!
  const town = tokens.slice(0, -2)
  const code = tokens.slice(-1)
  const parted = [
    { raw: town.join(' '), tokens: town },
    { raw: code.join(' '), tokens: code },
  ]
  return [...parts.slice(0, at), ...parted, ...parts.slice(at + 1)]
}
