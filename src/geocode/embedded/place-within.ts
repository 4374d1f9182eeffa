// What a visitor writes after a town's name ("Portland, OR", "Köln, Germany", "Sydney NSW"): the
// regions and countries it narrows the town to, for the place search (places.ts).
import { nameKey } from '../../core/text'
import { countryCode } from '../countries'

/** What the words after a town's name narrow it to: a region or a country, each piece one of them. */
export type Within = {
  town: (country: string, admin1: string) => boolean
  country: (country: string) => boolean
  /** A piece names a region: regions themselves are then not what the text asks for ("Washington, DC"). */
  regions: boolean
}

/**
 * What `pieces` (the text after a town's name, split at commas) narrow it to: each piece a
 * region's name or code, or a country's; the last may be cut short (from two characters) when
 * `cut`. `regionKeys`: PlaceParts.regionKeys. Null when a piece names neither, or there is
 * none: the town's name is then read alone.
 */
export function withinOf(regionKeys: Map<string, string[]>, pieces: string[], cut: boolean): Within | null {
  // Each piece: the regions it names ("US OR", "DE *": only the country known) and the country.
  const named: { regions: Set<string>; country: string | null; countries: Set<string> }[] = []
  const keys = pieces.map(nameKey).filter((k) => k !== '')
  for (const [i, piece] of keys.entries()) {
    const regions = new Set(regionKeys.get(piece) ?? [])
    const country = countryCode(piece)
    // Cut short only when it names nothing whole: "WA" is Washington, not Wales.
    if (cut && i === keys.length - 1 && piece.length >= 2 && regions.size === 0 && country === null)
      for (const [key, list] of regionKeys) if (key.startsWith(piece)) for (const r of list) regions.add(r)
    const countries = new Set([...regions].map((r) => r.slice(0, 2)))
    if (country !== null) countries.add(country)
    if (countries.size === 0) return null
    named.push({ regions, country, countries })
  }
  if (named.length === 0) return null
  return {
    town: (country, admin1) =>
      named.every(
        (n) => n.country === country || n.regions.has(`${country} ${admin1}`) || n.regions.has(`${country} *`),
      ),
    country: (country) => named.every((n) => n.countries.has(country)),
    regions: named.some((n) => n.regions.size > 0),
  }
}

/** Initials with dots ("D.C.", "U.S.A.") as one word ("DC", "USA"), as regions and countries are keyed. */
export const joinInitials = (text: string): string =>
  text.replace(/(?<!\p{L})\p{L}\.(?:\s?\p{L}\.)+/gu, (m) => m.replace(/[.\s]/g, ''))
