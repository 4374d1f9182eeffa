// Mexico's states by the letters its addresses write them with ("Guadalajara, JAL", "Monterrey,
// NL", "Coyoacán, CDMX"). The data's regions hold none of Mexico's, so the resolver and the place
// search both read them from here, as regions of GeoNames' admin1 codes.

/**
 * Each state's usual letters, and ISO 3166-2's where no town bears them, keyed as names are, to
 * its admin1 code. Not "Camp", "Chis", "Mich": words, and Michigan's short name.
 */
const MX_STATES: Record<string, string> = {
  ags: '01',
  agu: '01',
  bc: '02',
  bcn: '02',
  bcs: '03',
  chp: '05',
  chih: '06',
  chh: '06',
  coah: '07',
  coa: '07',
  col: '08',
  cdmx: '09',
  cmx: '09',
  dgo: '10',
  gto: '11',
  gro: '12',
  hgo: '13',
  hid: '13',
  jal: '14',
  edomex: '15',
  mic: '16',
  mor: '17',
  nay: '18',
  nl: '19',
  nle: '19',
  oax: '20',
  pue: '21',
  qro: '22',
  qroo: '23',
  roo: '23',
  slp: '24',
  sin: '25',
  son: '26',
  tab: '27',
  tamps: '28',
  tlax: '29',
  ver: '30',
  yuc: '31',
  zac: '32',
}

/** The admin1 code of the Mexican state whose letters the name key `key` is; undefined for none. */
export const mexicanState = (key: string): string | undefined =>
  Object.hasOwn(MX_STATES, key) ? MX_STATES[key] : undefined

/** Each state's letters (name keys) and its admin1 code. */
export const mexicanStates = (): [string, string][] => Object.entries(MX_STATES)

/** Three letters, a dot after them or not, as the last of a text's parts after a comma. */
const LETTERS_AT_END = /(,\s*)(\p{L}{3})(\.?\s*)$/u

/**
 * `text` with a Mexican state's three letters that are a country's too, written not in capitals
 * as its last part, in capitals: "Colima, Col." as "Colima, COL.", read as Colima's state after no
 * town of Colombia ("Bogotá, Col"), and never as a town ("Centro, Col" is no Col, Italy).
 */
export function mexicanLettersInCapitals(text: string, isCountry: (key: string) => boolean): string {
  const m = LETTERS_AT_END.exec(text)
  if (m === null) return text
  const key = m[2]!.toLowerCase()
  if (mexicanState(key) === undefined || !isCountry(key)) return text
  return `${text.slice(0, m.index)}${m[1]}${m[2]!.toUpperCase()}${m[3]}`
}
