// Places a visitor cannot tell apart: the place search (places.ts) gives each once.
import { nameKey } from '../../core/text'
import { FRENCH_ORDINAL } from './district-codes'
import type { PlaceHit } from './place-hit'
import { SHARED_NAME_POPULATION } from './near'

/** Words names write either way: "Saint Louis" is St. Louis's own name, not another town's. */
const SHORT_WORDS: Record<string, string> = { saint: 'st', sainte: 'ste', fort: 'ft', mount: 'mt' }
export const shortWords = (key: string) => key.replace(/\b(?:saint|sainte|fort|mount)\b/g, (w) => SHORT_WORDS[w]!)
/** A French ordinal as its number: "paris 16e arrondissement" is "paris 16", as La Poste writes it. */
const ORDINAL_NUMBER = new RegExp(`\\b(\\d+)${FRENCH_ORDINAL}\\b`, 'g')
const ordinals = (key: string) => key.replace(ORDINAL_NUMBER, '$1')
/** A label's first piece ("75001 Paris" of "75001 Paris, France") as a name key. */
export const townKey = (label: string) => nameKey(label.slice(0, label.indexOf(',')))

/**
 * Whether postcodes `a` and `b` are one place by two names: of one country and point, the words
 * of one's code and town beginning with all of the other's ("75001 Paris 1er Arrondissement" and
 * "75001 Paris", the commune and La Poste's name of one row of France's data; "Paris 16" and
 * "Paris 16e Arrondissement", its ordinal as a number;
 * "St-Germain-De-Joux" and "Saint-Germain-de-Joux"). Towns of one postcode that the data places
 * alike but names apart ("Kellenbach" and "Königsau", 55606; "Okondo" and "Okondogoiena", 01409)
 * stay two.
 */
function samePostcode(a: PlaceHit, b: PlaceHit): boolean {
  if (!a.byCode || !b.byCode || a.precision === 'region' || b.precision === 'region') return false
  if (a.country !== b.country || a.lat !== b.lat || a.lng !== b.lng) return false
  const [ka, kb] = [ordinals(shortWords(townKey(a.label))), ordinals(shortWords(townKey(b.label)))]
  return ka.length < kb.length ? begins(kb, ka) : begins(ka, kb)
}

/** Whether `key`'s words begin with all of `start`'s: "paris 1er arrondissement" with "paris", not "okondogoiena" with "okondo". */
const begins = (key: string, start: string) =>
  key.startsWith(start) && (key.length === start.length || key[start.length] === ' ')

/**
 * `hits`, best first, without those shown alike to a better one, at most `count`: a label shown
 * already ("Münster, Germany": the city and villages of its name), or a postcode by another name
 * (samePostcode). A visitor cannot tell them apart, and either gives the same point.
 */
export function shownOnce(hits: PlaceHit[], count: number): PlaceHit[] {
  const shown = new Set<string>()
  const kept: PlaceHit[] = []
  for (const h of hits) {
    if (kept.length === count) break
    if (shown.has(h.label) || (h.byCode && kept.some((k) => samePostcode(k, h)))) continue
    shown.add(h.label)
    kept.push(h)
  }
  return kept
}

/**
 * Whether `named` is another name than the label's, or the same one spelt otherwise; not when one
 * holds the other's words, or writes them short: "Londres", "Hessen" (Hesse) and "Aragón" are;
 * "Washington DC", "Frankfurt" (am Main), "Saint Louis" (St. Louis; Port-Saint-Louis-du-Rhône) are not.
 */
export const otherName = (named: string | undefined, label: string): named is string => {
  if (named === undefined || named === '') return false
  const [key, own] = [nameKey(named.split('|')[0]!), townKey(`${label},`)]
  if (key === own) return true
  const [a, b] = [` ${shortWords(key)} `, ` ${shortWords(own)} `]
  return !a.includes(b) && !b.includes(a)
}

/**
 * How many towns of note and of other names bear the text whole as another name: from two, an old
 * name they shared ("Newtown": Tallahassee, Hartford, Macon...). Not two towns of one name
 * ("Datun": Datong, the city and the county), nor one whose own name it is (`own`) written or cut
 * short ("St. Charles" of Saint Charles, MO; "Santa Cruz" of Santa Cruz de la Sierra), though other
 * towns once bore it (Kasongo, Agadir).
 */
export function oldNameSharers(hits: PlaceHit[], own: (h: PlaceHit) => boolean): number {
  const bearers = hits.filter(
    (h) => h.exact && !h.main && h.precision === 'city' && h.weight >= SHARED_NAME_POPULATION && !own(h),
  )
  return new Set(bearers.map((h) => townKey(h.label))).size
}
