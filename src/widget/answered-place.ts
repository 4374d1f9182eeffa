// The place a search's answer names, kept in the search: text the service read as a place becomes
// that place, and a region or country, which the service widened the radius to reach, is searched
// at that radius until another place is, when the radius chosen before comes back.
import type { Origin, SearchState } from './url-state'
import { offeredRadius } from './options'

/** A region or country searched: the radius widened to reach it, and the one chosen before. */
export type Area = { origin: Origin; radius: number; before: number | null }

/** `state` about to be searched: off `area`'s place, the radius chosen before it (unless changed since) and null. */
export function leaveArea(state: SearchState, area: Area | null): Area | null {
  if (area === null || state.origin === area.origin) return area
  if (state.radius === area.radius) state.radius = area.before
  return null
}

/** The service's reading of a search, from its answer's meta.query. */
export type Answered = { radius?: number; center?: { lat: number; lng: number; label?: string } }

/**
 * `state` as `q` answered it, `sent` the radius sent, `asked` the one searched (the locator's default
 * when none was sent): its place, its radius; the area searched when the service widened it, else
 * `area` as it was. The centre's label when the text became a place, else null.
 */
export function takeAnswer(
  state: SearchState,
  q: Answered,
  sent: number | null,
  asked: number | null,
  area: Area | null,
): { area: Area | null; label: string | null } {
  // The locator's default, converted by the service when the widget's unit is not the locator's.
  if (q.radius && !state.radius) state.radius = offeredRadius(q.radius)
  // Text the service read as a place becomes that place: later searches (and the URL) keep its point.
  const c = q.center
  if (state.origin?.kind !== 'near' || !c?.label) return { area, label: null }
  state.origin = { kind: 'place', label: c.label, lat: c.lat, lng: c.lng }
  // A region or country: the service searched farther than asked, to reach it. Its point is
  // searched so from now on (more stores, filters), until another place is.
  const widened = q.radius ? offeredRadius(q.radius) : 0
  if (asked && widened > asked) {
    state.radius = widened
    return { area: { origin: state.origin, radius: widened, before: sent }, label: c.label }
  }
  return { area, label: c.label }
}
