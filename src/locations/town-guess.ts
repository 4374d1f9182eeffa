// The town a misspelt address may mean ("Edinbrugh" for Edinburgh), or the countries a bare
// town's name is in ("Cambridge"), for the message of an address that could not be placed: the
// place search allows typos and names namesakes, the address geocoder does neither.
import { codePoints, nameKey, withinEdits } from '../core/text'
import { asTyped, type PlaceHit } from '../geocode/embedded/place-hit'
import type { PlaceSource } from '../geocode/embedded/place-source'
import { withoutPostcodes } from '../geocode/embedded/postcode-forms'

/**
 * What `address` may mean, as a sentence: "Did you mean Edinburgh, United Kingdom?", or the
 * countries a town it names alone is in; null when nothing is guessed.
 */
export type TownGuess = (address: string) => Promise<string | null>

/** Words of fewer letters are not guessed at: too many towns are two edits from them. */
const GUESS_FROM = 5
/** No town's name is longer: a longer part is no misspelt town, and not searched. */
const GUESS_UP_TO = 60
/** Parts of the address looked at, from the last: a town stands near its end. */
const PARTS_LOOKED_AT = 4
/** A namesake abroad at least this share of the biggest town's people is named: the geocoder's own ratio. */
const NAMESAKE_SHARE = 0.5
/** Namesakes named in the message, the biggest first. */
const NAMESAKES_SHOWN = 3

/**
 * '"Cambridge" names towns in several countries (...): ...' when `hits` of `words` hold towns of
 * that very name in several countries, each nearly as big as the biggest; else null.
 */
function namesakes(words: string, hits: PlaceHit[]): string | null {
  const towns = hits.filter((h) => h.exact && h.precision === 'city')
  const biggest = towns[0]
  if (biggest === undefined) return null
  const shown: PlaceHit[] = []
  for (const t of towns)
    if (t.weight >= biggest.weight * NAMESAKE_SHARE && !shown.some((s) => s.country === t.country)) shown.push(t)
  if (shown.length < 2) return null
  const labels = shown.slice(0, NAMESAKES_SHOWN).map((t) => t.label)
  return `${JSON.stringify(words)} names towns in several countries (${labels.join('; ')}): add the country, a region or a postcode after it.`
}

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
      // A town alone at the end, with nothing to tell its country, may be refused as a namesake's.
      const alike = rest === '' ? namesakes(words, hits) : null
      if (alike !== null) return alike
      if (hits.some((h) => h.exact)) continue // a place as written: not the part misspelt
      const town = hits.find((h) => h.precision === 'city')
      if (town && withinEdits(key, nameKey(town.label.split(',')[0]!), 2)) return `Did you mean ${town.label}?`
    }
    return null
  }
