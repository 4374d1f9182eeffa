// A city's district written by its number, or in Vienna by its name, as addresses and visitors
// write one ("Wien 13", "Wien XIII", "13. Bezirk", "Wien-Hietzing", "Paris 16e", "Paris XVIe"):
// read as the district's postcode and its city ("1130 Wien"), whose point the data has.
import { nameKey } from '../../core/text'
import { VIENNA_DISTRICTS } from './tables'

const two = (n: number) => String(n).padStart(2, '0')

/** Cities whose postcodes number their districts: the names they are written by, how many, the nth's code. */
const CITIES: { names: string[]; city: string; count: number; code: (n: number) => string }[] = [
  { names: ['wien', 'vienna'], city: 'Wien', count: 23, code: (n) => `1${two(n)}0` },
  { names: ['paris'], city: 'Paris', count: 20, code: (n) => `750${two(n)}` },
  { names: ['lyon'], city: 'Lyon', count: 9, code: (n) => `6900${n}` },
  { names: ['marseille'], city: 'Marseille', count: 16, code: (n) => `130${two(n)}` },
]
const VIENNA = CITIES[0]!

const ONES = ['', 'i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix']
/** Roman numerals 1 to 23, folded ("xiii": 13): as many as Vienna's districts. */
const ROMAN = new Map(
  Array.from({ length: 23 }, (_, i) => ['x'.repeat(Math.floor((i + 1) / 10)) + ONES[(i + 1) % 10], i + 1]),
)

const NUMBER = '(\\d{1,2}|[ivx]{1,5})'
/** French ordinals' endings, folded: "16e", "1er", "1re", "16ème", "16ieme", "XVIe". */
export const FRENCH_ORDINAL = '(?:e|er|re|ere|eme|ieme|me)'
/** Folded: "wien 13", "wien xiii", "paris 16e", "paris xvie", "wien 13 bezirk". */
const CITY_NUMBER = new RegExp(`^(\\p{L}+) ${NUMBER}${FRENCH_ORDINAL}?(?: bezirk| arrondissement)?$`, 'u')
/** Folded: "13 bezirk", "xiii bezirk wien": Vienna's, where districts are so called. */
const BEZIRK = new RegExp(`^${NUMBER} bezirk(?: wien| vienna)?$`)
/** Folded: "wien hernals", "1170 wien hernals". */
const CITY_NAME = /^(?:(\d{4}) )?(?:wien|vienna) (.+)$/

/** A district's name as compared: folded, and "oe" as "ö" ("Doebling"). */
const nameOf = (text: string) => nameKey(text).replace(/([aou])e/g, '$1')
const VIENNA_NAMES = new Map(VIENNA_DISTRICTS.map((d, i) => [nameOf(d.name), i + 1]))

const numberOf = (text: string) => (/^\d/.test(text) ? Number(text) : (ROMAN.get(text) ?? 0))

/** `part` (a piece of an address between commas) as its district's postcode and city, when it is wholly a district; else null. */
export function districtPostcode(part: string): string | null {
  const key = nameKey(part)
  const numbered = CITY_NUMBER.exec(key)
  const city = numbered === null ? undefined : CITIES.find((c) => c.names.includes(numbered[1]!))
  const bezirk = BEZIRK.exec(key)
  const [at, n] = city ? [city, numberOf(numbered![2]!)] : bezirk ? [VIENNA, numberOf(bezirk[1]!)] : [VIENNA, 0]
  if (n >= 1 && n <= at.count) return `${at.code(n)} ${at.city}`
  // Vienna's district by its name, after the city's ("Wien-Hernals"); a code before them is the code.
  const named = CITY_NAME.exec(key)
  const district = named === null ? undefined : VIENNA_NAMES.get(nameOf(named[2]!))
  if (district === undefined) return null
  return `${named![1] ?? VIENNA.code(district)} ${VIENNA.city}`
}

/** `text` with each piece between commas that is wholly a district as its postcode and city (districtPostcode). */
export const districtsAsPostcodes = (text: string): string =>
  text
    .split(',')
    .map((piece) => districtPostcode(piece) ?? piece)
    .join(',')
