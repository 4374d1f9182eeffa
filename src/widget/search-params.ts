// A search's request parameters, as GET /locations and GET /clusters take them.
import type { Options } from './options'
import type { SearchState } from './url-state'

/** The filters' parameters, as GET /locations and GET /clusters take them: tags (of one group or, across groups, all) and open now. */
export function filterParams({ tags, openNow }: SearchState): [string, string][] {
  const p = tags.map((tag): [string, string] => ['tags[]', tag])
  if (tags.length > 1) p.push(['tagLogic', 'match'])
  if (openNow) p.push(['open_now', 'true'])
  return p
}

/**
 * GET /locations' parameters for the search as it stands, from `offset`; null when there is nothing
 * to search for. `placeLang` names the country of the centre's label in the widget's language, and
 * lifts the visitor's.
 */
export function searchParams(
  state: SearchState,
  options: Options,
  placeLang: string,
  offset: number,
): [string, string][] | null {
  const o = state.origin
  const words = state.keyword.trim()
  const p: [string, string][] = []
  if (o?.kind === 'near') p.push(['near', o.text], ['lang', placeLang])
  else if (o) p.push(['lat', String(o.lat)], ['lng', String(o.lng)])
  else if (words) p.push(['all', 'true'])
  else return null
  const r = state.radius ?? options.radius
  if (o && r) p.push(['radius', String(r)])
  if (state.unit) p.push(['unit', state.unit])
  p.push(...filterParams(state))
  if (words) p.push(['search', words])
  p.push(['limit', String(options.limit)])
  if (offset > 0) p.push(['offset', String(offset)])
  return p
}
