// An address written without commas whose street words swallow its town ("12 Rue de la Paix
// Paris", "Largo FL"): its last words, read as the town, give the address with commas back.
import { nameKey } from '../../core/text'
import { isStreetWord, streetMask } from './address-read'
import { SPACED_DASH } from './near'
import type { Queries } from './resolve-data'

/** The most words a town's name at the end is read from ("Santa Cruz de Tenerife" is 4: not tried). */
const TAIL_WORDS = 3
/** Words that join a street's name and are none ("Piazza del Duomo": Duomo is the name). */
const PARTICLES = new Set(
  'de del della dei degli di da do dos das du des la le les l el los the of van von der den het'.split(' '),
)

/**
 * The address rewritten with commas around the town its last one to TAIL_WORDS words name (a
 * country's name or a region's or country's code after them is kept after a comma of its own):
 * "12 Rue de la Paix, Paris", "33770 Largo, FL". null when the address has commas already, or
 * no words at its end name a place in the data. afterNumber: only a town right after a number is
 * wanted ("Laan van Meerdervoort 10 Den Haag": a street and its house number, then the town).
 */
export function townAtEnd(q: Queries, address: string, afterNumber: boolean): { address: string; key: string } | null {
  if (/[,;|\n]/.test(address)) return null
  const tokens = address.split(' ')
  // Capitals after a spaced dash are the town's state's or province's ("Rua Chile 10 Salvador -
  // SP"): they stay after the town, the dash before them.
  const coded = tokens.length > 3 && SPACED_DASH.test(tokens.at(-2)!) && /^\p{Lu}{2,3}$/u.test(tokens.at(-1)!)
  const tail = coded ? tokens.slice(-2) : trailing(q, tokens)
  const words = tokens.slice(0, tokens.length - tail.length)
  for (let n = Math.min(TAIL_WORDS, words.length); n >= 1; n--) {
    const town = words.slice(-n)
    const head = words.slice(0, -n)
    if (town.some((t) => /\d/.test(t) || SPACED_DASH.test(t))) continue
    // Before the town, a street: a number or a street's words ("Rue de la Paix"); or nothing but a code after it.
    if (head.length === 0 ? tail.length === 0 : !head.some((t) => /\d/.test(t)) && !streetMask(head).some(Boolean))
      continue
    if (afterNumber && !(head.length > 1 && /\d/.test(head[head.length - 1]!))) continue
    // Never a street's word ("200 Main Street": Street, Somerset), unless it begins the town
    // with at most a postcode before it ("33770 Largo FL").
    const keys = town.map((t) => nameKey(t))
    if (keys.some((k) => isStreetWord(k) && !(k === keys[0] && head.every((t) => /\d/.test(t))))) continue
    // A street that begins with its word keeps a name of its own ("5 Via Roma": Roma is the street's).
    const lastWord = head.findLastIndex((t) => isStreetWord(nameKey(t)))
    if (lastWord >= 0 && head.slice(lastWord + 1).every((t) => PARTICLES.has(nameKey(t)))) continue
    const key = nameKey(town.join(' '))
    if (key.length < 2 || !q.named(key)) continue
    if (head.length === 0 && q.qRegions.get(key) !== null) continue // "Florida US": a state
    // A lone number before the town is its postcode ("33770 Largo"), not a house number.
    const lead = head.length === 1 && /^\d+$/.test(head[0]!) ? head : []
    const parts = [lead.length > 0 ? '' : head.join(' '), [...lead, ...town].join(' '), coded ? '' : tail.join(' ')]
    const written = parts.filter((p) => p !== '').join(', ')
    return { address: coded ? `${written} ${tail.join(' ')}` : written, key }
  }
  return null
}

/** The words at the end that name a country, or a region's or country's code in capitals ("FL", "FR"). */
function trailing(q: Queries, tokens: string[]): string[] {
  const last = tokens[tokens.length - 1] ?? ''
  if (/^[A-Z]{2,3}$/.test(last) && (q.qRegions.get(nameKey(last)) !== null || q.countryOf(nameKey(last)) !== null))
    return [last]
  for (let n = Math.min(3, tokens.length - 1); n >= 1; n--) {
    // Not "- Norfolk" of "Newport News - Norfolk" as Norfolk Island: the dash parts the words.
    if (tokens.slice(-n).some((t) => SPACED_DASH.test(t))) continue
    const key = nameKey(tokens.slice(-n).join(' '))
    if (key.length > 3 && q.countryOf(key) !== null) return tokens.slice(-n)
  }
  return []
}
