// The countries a locator has locations in, as GET /places prefers their places (places.ts).
import type { LocatorIndex } from '../../engine/locator-index'
import type { PlaceSource } from '../../geocode/embedded/place-source'

/** About how many locations are looked at for the countries a locator has locations in. */
const COUNTRY_SAMPLE = 256
/** `byPoint`: the sample's countries by point, looked up again only for a point not in the last sample. */
type Kept = { writes: number; codes: Set<string>; byPoint: Map<string, string | undefined> }
const countriesOfIndex = new WeakMap<LocatorIndex, Kept>()

/**
 * The countries of a sample of the locator's locations (the reverse lookup's), kept until a
 * location is written (one moved abroad changes no count): a country of a few of many may be
 * missed, as it weighs little.
 */
export function storeCountries(index: LocatorIndex, places: PlaceSource): Set<string> {
  const kept = countriesOfIndex.get(index)
  if (kept !== undefined && kept.writes === index.writes) return kept.codes
  const codes = new Set<string>()
  const byPoint = new Map<string, string | undefined>()
  // A location is in the sample by its key's (Fibonacci) hash, not by its place among the live
  // ones: a write adds or drops a point or so, and the next call looks up only those.
  const below = (2 ** 32 * COUNTRY_SAMPLE) / Math.max(1, index.size)
  index.forEach((_, key) => {
    if (Math.imul(key, 0x9e3779b1) >>> 0 >= below) return
    const { lat, lng } = index.pointAt(key)
    const at = `${lat},${lng}`
    const code = kept?.byPoint.has(at) ? kept.byPoint.get(at) : places.reverse().at(lat, lng)?.parts.country
    byPoint.set(at, code)
    if (code) codes.add(code)
  })
  countriesOfIndex.set(index, { writes: index.writes, codes, byPoint })
  return codes
}
