// Which of a name's towns a postcode's town is, for a postcode table that names its towns but
// gives no points (Germany's): the namesake nearest the postcode's other towns, not the most
// populous of the country ("55606 Limbach" is the village near Kirn, not Limbach-Oberfrohna).
import { distanceKm } from './near'

/** A town of the gazetteer, as the build reads it. */
export type Namesake = { lat: number; lng: number; population: number }

/** Namesakes closer than this to each other are one town to anchor on: a name no other town has. */
const SAME_TOWN_KM = 10
/** A postcode's town lies this near its anchor; a namesake farther off is another town. */
const POSTCODE_KM = 30

/** Where a postcode's towns are: a point, or nothing known. */
type Anchor = { lat: number; lng: number } | null

/** The median point of `points` (by each coordinate), or null for none: one far-off namesake moves it little. */
function medianOf(points: { lat: number; lng: number }[]): Anchor {
  if (points.length === 0) return null
  const mid = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!
  return { lat: mid(points.map((p) => p.lat)), lng: mid(points.map((p) => p.lng)) }
}

/**
 * Each postcode's towns placed: `towns` by postcode, `namesakes(name)` the gazetteer's towns of
 * that name. A postcode's anchor is the median of its towns whose name is one town's; else of
 * those of the postcodes that share its first three digits (a town's postal area). Each town is
 * the namesake nearest the anchor. When none is within POSTCODE_KM of the postcode's own anchor,
 * the data lacks the town: it is placed at the anchor, in the region of the postcode's town
 * nearest it (`own` false: the postcode's point, not the town's). With no anchor, the most
 * populous namesake. A town with no namesake is left out.
 */
export function placePostcodeTowns<T extends Namesake>(
  towns: Record<string, string[]>,
  namesakes: (name: string) => T[],
  add: (postcode: string, town: string, at: T, point: { lat: number; lng: number }, own: boolean) => void,
): void {
  const found = new Map<string, T[]>()
  const known = (town: string) => {
    let list = found.get(town)
    if (list === undefined) found.set(town, (list = namesakes(town)))
    return list
  }
  const single = (list: T[]) =>
    list.length > 0 && list.every((t) => distanceKm(t.lat, t.lng, list[0]!.lat, list[0]!.lng) < SAME_TOWN_KM)
  const sure = new Map<string, T[]>()
  const areas = new Map<string, T[]>()
  for (const [code, names] of Object.entries(towns)) {
    const list = names.map(known).flatMap((l) => (single(l) ? [l[0]!] : []))
    sure.set(code, list)
    areas.set(code.slice(0, 3), [...(areas.get(code.slice(0, 3)) ?? []), ...list])
  }
  for (const [code, names] of Object.entries(towns)) {
    const own = medianOf(sure.get(code)!)
    const anchor = own ?? medianOf(areas.get(code.slice(0, 3))!)
    const km = (t: T) => (anchor === null ? 0 : distanceKm(t.lat, t.lng, anchor.lat, anchor.lng))
    const nearest = (list: T[]) => list.reduce((a, b) => (km(b) < km(a) ? b : a))
    for (const name of names) {
      const list = known(name)
      if (list.length === 0) continue
      if (anchor === null) {
        const biggest = list.reduce((a, b) => (b.population > a.population ? b : a))
        add(code, name, biggest, biggest, true)
        continue
      }
      const at = nearest(list)
      // Only the postcode's own towns place it: an area's centre is too coarse a point for it.
      if (own === null || km(at) <= POSTCODE_KM) add(code, name, at, at, true)
      else add(code, name, nearest(sure.get(code)!), own, false)
    }
  }
}
