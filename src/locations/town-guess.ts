// The town a misspelt address may mean ("Edinbrugh" for Edinburgh), for the message of an
// address that could not be placed: the place search allows typos, the address geocoder does not.
import { codePoints, nameKey, withinEdits } from '../core/text'
import { asTyped } from '../geocode/embedded/place-hit'
import type { PlaceSource } from '../geocode/embedded/place-source'
import { withoutPostcodes } from '../geocode/embedded/postcode-forms'

/** The town `address` may mean, as the place search labels it ("Edinburgh, United Kingdom"); null when none. */
export type TownGuess = (address: string) => Promise<string | null>

/** Words of fewer letters are not guessed at: too many towns are two edits from them. */
const GUESS_FROM = 5
/** No town's name is longer: a longer part is no misspelt town, and not searched. */
const GUESS_UP_TO = 60
/** Parts of the address looked at, from the last: a town stands near its end. */
const PARTS_LOOKED_AT = 4

/**
 * The guess of a place source (read from its data file on first use). Each part of the address
 * between commas, from the last, but the first of several (the street's), without its postcodes
 * ("1094 HK") and words that hold digits (house numbers): the first that names no place as written, but a town
 * within two edits of its whole name, searched with the parts after it, which must name a place
 * as written, so that a region or country there narrows it ("Springfeld, IL": Springfield, IL).
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
    const parts = address.split(',')
    const first = parts.length > 1 ? 1 : 0
    for (let i = parts.length - 1; i >= Math.max(first, parts.length - PARTS_LOOKED_AT); i--) {
      const words = withoutPostcodes(parts[i]!)
        .split(/\s+/)
        .filter((w) => w !== '' && !/\d/.test(w))
        .join(' ')
      const key = nameKey(words)
      if (codePoints(key) < GUESS_FROM || codePoints(key) > GUESS_UP_TO) continue
      // The parts after it must name a place as written (or begin one: "IL"), to narrow by
      // ("Calle Mayor, Xqzvillage" is no street in Cal y Mayor).
      const rest = parts.slice(i + 1).join(',')
      if (rest !== '' && !search.find(rest).some(asTyped)) continue
      const hits = search.find(rest === '' ? words : `${words},${rest}`)
      if (hits.some((h) => h.exact)) continue // a place as written: not the part misspelt
      const town = hits.find((h) => h.precision === 'city')
      if (town && withinEdits(key, nameKey(town.label.split(',')[0]!), 2)) return town.label
    }
    return null
  }
