// The countries a locator has locations in, as GET /places prefers their places (places.ts).
import type { LocatorIndex } from '../../engine/locator-index'
import type { PlaceSource } from '../../geocode/embedded/place-source'

/** Locations looked at, spread over the index, for the countries a locator has locations in. */
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
  const step = Math.max(1, Math.floor(index.size / COUNTRY_SAMPLE))
  let i = 0
  index.forEach((entry) => {
    if (i++ % step !== 0) return
    const key = index.keyOf(entry)
    if (key < 0) return
    const { lat, lng } = index.pointAt(key)
    const at = `${lat},${lng}`
    const code = kept?.byPoint.has(at) ? kept.byPoint.get(at) : places.reverse().at(lat, lng)?.parts.country
    byPoint.set(at, code)
    if (code) codes.add(code)
  })
  countriesOfIndex.set(index, { writes: index.writes, codes, byPoint })
  return codes
}
