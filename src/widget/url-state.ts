// The visitor's search, kept in the page's URL (sl_... parameters beside the host page's own) so a
// search can be shared and survives a reload.

/** Where the search is centred: a place picked from the suggestions, text for the server to read, or the browser's position. */
export type Origin =
  | { kind: 'place'; label: string; lat: number; lng: number }
  | { kind: 'near'; text: string }
  | { kind: 'geo'; lat: number; lng: number }

export type SearchState = {
  origin: Origin | null
  keyword: string
  radius: number | null
  tags: string[]
  openNow: boolean
  selected: string | null
}

const KEYS = ['sl_place', 'sl_lat', 'sl_lng', 'sl_geo', 'sl_q', 'sl_r', 'sl_tags', 'sl_open', 'sl_store']

const coordinate = (text: string | null, max: number): number | null => {
  if (text === null || text.trim() === '') return null
  const n = Number(text)
  return Number.isFinite(n) && Math.abs(n) <= max ? n : null
}

/** The search the page's URL holds; null when it holds none. */
export function readState(href: string): SearchState | null {
  const params = new URL(href).searchParams
  if (!KEYS.some((k) => params.has(k))) return null
  const lat = coordinate(params.get('sl_lat'), 90)
  const lng = coordinate(params.get('sl_lng'), 180)
  const label = params.get('sl_place') ?? ''
  let origin: Origin | null = null
  if (lat !== null && lng !== null)
    origin = params.has('sl_geo') ? { kind: 'geo', lat, lng } : { kind: 'place', label, lat, lng }
  else if (label.trim() !== '') origin = { kind: 'near', text: label }
  const radius = Number(params.get('sl_r'))
  return {
    origin,
    keyword: params.get('sl_q') ?? '',
    radius: Number.isFinite(radius) && radius > 0 ? radius : null,
    tags: (params.get('sl_tags') ?? '').split(',').filter(Boolean),
    openNow: params.get('sl_open') === '1',
    selected: params.get('sl_store'),
  }
}

/** The page's URL with this search in it, the host page's own parameters kept. */
export function withState(href: string, state: SearchState): string {
  const url = new URL(href)
  for (const k of KEYS) url.searchParams.delete(k)
  const set = (k: string, v: string | number | null | false) => {
    if (v !== null && v !== false && v !== '') url.searchParams.set(k, String(v))
  }
  const o = state.origin
  if (o?.kind === 'place') set('sl_place', o.label)
  if (o?.kind === 'near') set('sl_place', o.text)
  if (o && o.kind !== 'near') {
    set('sl_lat', o.lat)
    set('sl_lng', o.lng)
  }
  if (o?.kind === 'geo') set('sl_geo', 1)
  set('sl_q', state.keyword.trim())
  set('sl_r', state.radius)
  set('sl_tags', state.tags.join(','))
  set('sl_open', state.openNow && 1)
  set('sl_store', state.selected)
  return url.href
}
