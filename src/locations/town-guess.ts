// The town a misspelt address may mean ("Edinbrugh" for Edinburgh), for the message of an
// address that could not be placed: the place search allows typos, the address geocoder does not.
import { codePoints, nameKey, withinEdits } from '../core/text'
import type { PlaceSource } from '../geocode/embedded/places'

/** The town `address` may mean, as the place search labels it ("Edinburgh, United Kingdom"); null when none. */
export type TownGuess = (address: string) => Promise<string | null>

/** Words of fewer letters are not guessed at: too many towns are two edits from them. */
const GUESS_FROM = 5

/**
 * The guess of a place source (read from its data file on first use). Each part of the address
 * between commas, from the last, without its words holding digits (postcodes, house numbers): the
 * first that names no place as written, but a town within two edits of its whole name.
 */
export const guessFrom =
  (places: PlaceSource | null): TownGuess =>
  async (address) => {
    if (places === null) return null
    let search: ReturnType<PlaceSource>
    try {
      search = places()
    } catch {
      return null // the data being read, or damaged: no guess, the refusal stands as it is
    }
    for (const part of address.split(',').reverse()) {
      const words = part
        .split(/\s+/)
        .filter((w) => w !== '' && !/\d/.test(w))
        .join(' ')
      const key = nameKey(words)
      if (codePoints(key) < GUESS_FROM) continue
      const hits = search.find(words)
      if (hits.some((h) => h.exact)) continue // a place as written: not the part misspelt
      const town = hits.find((h) => h.precision === 'city')
      if (town && withinEdits(key, nameKey(town.label.split(',')[0]!), 2)) return town.label
    }
    return null
  }
