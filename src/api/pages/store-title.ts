// What a store's page is called in its <title> and og:title: a name that tells it from the
// locator's other stores, as a chain names every store with its brand ("Boulangerie Dupont").
import { holdsWords } from '../../core/text'
import { type Directory, type DirectoryTown, hasNamesake, townOf } from './directory'
import { type PublicLocation, streetOf } from './json-ld'

/** Past this many characters a search result cuts a title: the locator's name goes first. */
export const TITLE_MAX = 60
/** The most characters of a street a title takes. */
const STREET_MAX = 40

/** Text cut to at most `max` characters (code points), an ellipsis marking the cut. */
export function cut(text: string, max: number): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim())
  if (chars.length <= max) return chars.join('')
  const kept = chars.slice(0, max - 1).join('')
  return `${kept.trimEnd()}…`
}

/**
 * The store's name, then its town unless the name holds it (the region alone when the name holds a
 * town told apart by it: "Acme Portland, ME"), then its street when another store of its town has
 * its name: "Boulangerie Dupont, Lyon, 12 Rue de la République". A store of no known town has no
 * town to tell it by: its street always (the first piece of its address). The town as the
 * directory names it; `dir` null (not readable): as the address writes it, no namesake known.
 */
export function storeName(location: PublicLocation, dir: Directory | null): string {
  const { name, address } = location
  const town: DirectoryTown | undefined = dir === null ? undefined : townOf(dir, address)?.town
  const city = town === undefined ? address.city : (town.city ?? undefined)
  const parts = [name.replace(/\s+/g, ' ').trim()]
  if (city) {
    if (!holdsWords(name, city)) parts.push(town?.name ?? city)
    else if (town?.region) parts.push(town.region)
  }
  const street = city ? streetOf(address) : address.formatted.split(',')[0]!.trim()
  const told = !city || (town !== undefined && hasNamesake(town, name))
  if (told && street && !holdsWords(name, street)) parts.push(cut(street, STREET_MAX))
  return parts.join(', ')
}

/**
 * The page's title: storeName, then " – {locator name}" unless either name holds the other (the
 * title would say the brand twice), or the title would pass TITLE_MAX with it: og:site_name names
 * the locator.
 */
export function storeTitle(named: string, storeName: string, locatorName: string): string {
  const site = locatorName.trim()
  if (site === '' || holdsWords(named, site) || holdsWords(site, named)) return storeName
  const title = `${storeName} – ${site}`
  return Array.from(title).length > TITLE_MAX ? storeName : title
}
