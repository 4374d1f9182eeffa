// An address as a visitor may type one into the place search, street and number first: the town
// (or region) the words after the number name ("10 Downing Street London", "Unit 7 Leeds"), and
// the one word after a thing's name and number ("Gate 12 Berlin"), marked for the asker to judge.
import { nameKey } from '../../core/text'
import { isStreetName, isStreetWord, UNIT_BEFORE } from './address-read'
import { CITY_POPULATION, DISTRICT_TOWN_POPULATION } from './near'
import type { PlaceHit } from './place-hit'

/** What the reading asks of the place search. */
export type AddressSource = {
  /** The places a text names, best first (PlaceSearch.find). */
  find: (text: string) => PlaceHit[]
  /** Whether a key is some place's whole name, or one and a word after it, or a region's name. */
  names: (key: string) => boolean
}

/** Whether a text before a comma is a street's or unit's and its number: a digit, and a word of three letters. */
export const isAddressHead = (text: string): boolean => /\d/.test(text) && /\p{L}{3}/u.test(text)

/**
 * A town ending an address written without a comma, after its street and number ("10 Downing
 * Street London", "Hauptstraße 5 Wien", "221B Baker Street London NW1"): the longest run of
 * words after a number that is some place's whole name, or one and what follows it ("Portland
 * OR", "London NW1") or a region's name ("Unit 4 Ohio", as "Unit 4 Texas", which a village in
 * Mexico is named too), not begun by a street's word ("Street" is a town in England); with the
 * postcode before it when a house number precedes that ("Rue X 5 75016 Paris"). A run that
 * finds nothing so ("Rivoli Paris": Rivoli, in no region Paris) gives way to a shorter one.
 * A town of one word without a street before it is marked so ("Terminal 5 Heathrow" is no
 * address: afterThing).
 * Null when none finds a place, or no word of three letters precedes it.
 */
export function townAtEnd(s: AddressSource, text: string): PlaceHit[] | null {
  const words = text.trim().split(/\s+/)
  const digits = words.map((w) => /\d/.test(w))
  const first = digits.indexOf(true)
  if (first < 0) return null
  for (let i = first + 1; i < words.length; i++) {
    if (digits[i] || !/\p{L}{3}/u.test(words.slice(0, i).join(' ')) || isStreetWord(nameKey(words[i]!))) continue
    if (!s.names(nameKey(words.slice(i).join(' ')))) continue
    // One word after a number is a town as an address ends only where a street shows one: a
    // street's word ("Hauptstraße 5 Wien"), a number after a name of words ("Unter den Linden
    // 1 Berlin") or a unit's ("Unit 7 Leeds"). Else it more likely ends a thing's name
    // ("Terminal 5 Heathrow"): afterThing.
    const streetShown = first >= 2 || words.slice(0, i).some((w) => isStreetName(nameKey(w)))
    const unit = !streetShown && UNIT_BEFORE.test(words[0]!)
    if (i === words.length - 1 && !streetShown && !unit) return afterThing(s, words[i]!)
    // The number before the town is its postcode only where read so: "700 New York" finds York.
    const coded = digits[i - 1] && first < i - 1 ? s.find(words.slice(i - 1).join(' ')) : []
    if (coded.some((h) => h.byCode)) return coded
    // The place found first is one the run names whole (exact ones come first): "Windows 10
    // Home" is not Homestead, which "Home" begins.
    const hits = s.find(words.slice(i).join(' '))
    // One word after a unit alone may be a word of the place's, not its town ("Shop 3 Center"):
    // afterUnit.
    if (unit && i === words.length - 1) for (const h of hits) h.afterUnit = true
    if (hits[0]?.exact) return addressPlaces(hits)
  }
  return null
}

/**
 * The places an address's last words name after its street or unit, `hits` being what find()
 * gives them, with a comma before them or none. An address is in a town: the towns they name
 * whole, where one has DISTRICT_TOWN_POPULATION people, not a region so named ("Suite 200
 * Washington" is Washington, DC; "Unit 4 Texas" is still the state). A region or country so
 * named stays unless a city of CITY_POPULATION in its own country bears its name: "Suite 10
 * Florida" and "10 Main Street, Florida" are the state, not Floridablanca, Colombia; "Unit 4
 * Victoria" the Australian state.
 */
export function addressPlaces(hits: PlaceHit[]): PlaceHit[] {
  const towns = hits.filter((h) => h.exact && h.precision === 'city')
  const regions = hits.filter((h) => h.exact && (h.precision === 'region' || h.precision === 'country'))
  // A country's own town of its name that holds an eighth of its people or more (a country
  // weighs a quarter of them) is its capital, of any size a town has: "5 Rue X, Luxembourg" is
  // Luxembourg City, with a comma or without. Not a town of a big country that bears its name:
  // Rivas, Nicaragua; Aqsay, Kazakhstan; Mozambique, Mozambique.
  const capital = (r: PlaceHit, t: PlaceHit) =>
    r.precision === 'country' && t.weight >= DISTRICT_TOWN_POPULATION && t.weight * 2 >= r.weight
  const city = (r: PlaceHit) =>
    towns.some((t) => t.country === r.country && (t.weight >= CITY_POPULATION || capital(r, t)))
  return towns.some((h) => h.weight >= DISTRICT_TOWN_POPULATION) && regions.every(city) ? towns : hits
}

/**
 * The towns `word` names whole after a thing's name and number ("Gate 12 Berlin"), each marked
 * so (PlaceHit.afterThing); null when it names none so.
 */
function afterThing(s: AddressSource, word: string): PlaceHit[] | null {
  const towns = s.find(word).filter((h) => h.exact && h.precision === 'city')
  for (const h of towns) h.afterThing = true
  return towns.length > 0 ? towns : null
}
