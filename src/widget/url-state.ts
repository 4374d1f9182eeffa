// The visitor's search, kept in the page's URL (sl_... parameters beside the host page's own) so a
// search can be shared and survives a reload. A page's second finder keeps its own as sl2_..., and
// so on: `prefix`.
import type { Place } from './api'
import { radiusIn } from './options'

/** Where the search is centred: a place picked from the suggestions, text for the server to read, or the browser's position. */
export type Origin =
  | { kind: 'place'; label: string; lat: number; lng: number }
  | { kind: 'near'; text: string }
  | { kind: 'geo'; lat: number; lng: number }

/** The origin a picked suggestion searches: a region or country as text, which the service searches whole. */
export const originOf = (p: Place): Origin =>
  p.precision === 'region' || p.precision === 'country'
    ? { kind: 'near', text: p.label }
    : { kind: 'place', label: p.label, lat: p.lat, lng: p.lng }

export type SearchState = {
  origin: Origin | null
  keyword: string
  radius: number | null
  tags: string[]
  openNow: boolean
  selected: string | null
  /**
   * The URL names the visitor's own position (sl_geo), never its point: a link shared is no one
   * else's position. Asked of the browser again, when it gives it without asking.
   */
  locate?: boolean
  /**
   * The unit the finder measures in, its radius among them (sl_unit), kept with the place: a store
   * page's link back keeps it. null until the locator's is known.
   */
  unit: 'km' | 'miles' | null
  /** Whether `unit` is the one the page's language implies (units.ts): the locator's comes over it. */
  guessed?: boolean
}

/** The search a finder starts with when the URL holds none: `place`, its data-place, if any. */
export const firstSearch = (place: string | null, radius: number | null): SearchState => ({
  origin: place ? { kind: 'near', text: place } : null,
  keyword: '',
  radius,
  tags: [],
  openNow: false,
  selected: null,
  unit: null,
})

const NAMES = ['place', 'lat', 'lng', 'geo', 'q', 'r', 'unit', 'tags', 'open', 'store']

/** The prefix of the n-th finder (from 1) of a page that keeps its search in the URL. */
export const urlPrefix = (n: number): string => (n <= 1 ? 'sl_' : `sl${n}_`)

const coordinate = (text: string | null, max: number): number | null => {
  if (text === null || text.trim() === '') return null
  const n = Number(text)
  return Number.isFinite(n) && Math.abs(n) <= max ? n : null
}

/** The search the page's URL holds; null when it holds none. */
export function readState(href: string, prefix: string): SearchState | null {
  const all = new URL(href).searchParams
  if (!NAMES.some((k) => all.has(prefix + k))) return null
  const params = { get: (k: string) => all.get(prefix + k), has: (k: string) => all.has(prefix + k) }
  const lat = coordinate(params.get('lat'), 90)
  const lng = coordinate(params.get('lng'), 180)
  const label = params.get('place') ?? ''
  let origin: Origin | null = null
  // Near the visitor (sl_geo): no point kept, whatever an old link's sl_lat and sl_lng say.
  const locate = params.has('geo')
  if (!locate && lat !== null && lng !== null) origin = { kind: 'place', label, lat, lng }
  else if (!locate && label.trim() !== '') origin = { kind: 'near', text: label }
  const radius = Number(params.get('r'))
  const unit = params.get('unit')
  return {
    origin,
    keyword: params.get('q') ?? '',
    radius: Number.isFinite(radius) && radius > 0 ? radius : null,
    tags: (params.get('tags') ?? '').split(',').filter(Boolean),
    openNow: params.get('open') === '1',
    selected: params.get('store'),
    ...(locate ? { locate } : {}),
    unit: unit === 'km' || unit === 'miles' ? unit : null,
  }
}

/** The search alone, as the parameters of a page's first finder ("sl_place=...&sl_r=25"). */
export const searchQuery = (state: SearchState): string =>
  new URL(withState('http://finder.invalid/', state, urlPrefix(1))).search.slice(1)

/**
 * The page's URL with this search in it, the host page's own parameters kept as written (not
 * encoded again). The search stays in its place: the address is the same string when the search
 * is, whatever another finder wrote since.
 */
export function withState(href: string, state: SearchState, prefix: string): string {
  const own = new URLSearchParams()
  const set = (k: string, v: string | number | null | false) => {
    if (v !== null && v !== false && v !== '') own.set(prefix + k, String(v))
  }
  const o = state.origin
  if (o?.kind === 'place') set('place', o.label)
  if (o?.kind === 'near') set('place', o.text)
  if (o?.kind === 'place') {
    set('lat', o.lat)
    set('lng', o.lng)
  }
  if (o?.kind === 'geo') set('geo', 1)
  set('q', state.keyword.trim())
  // A radius is kept with a place, and its unit: before one, it is the form's default.
  if (o !== null) set('r', state.radius)
  if (o !== null) set('unit', state.unit)
  set('tags', state.tags.join(','))
  set('open', state.openNow && 1)
  set('store', state.selected)
  return placed(href, own, prefix)
}

/** `href` with `own` for the finder's parameters, one block where the first of them was: the others' as written. */
function placed(href: string, own: URLSearchParams, prefix: string): string {
  const url = new URL(href)
  const parts: string[] = []
  let at = -1
  for (const part of url.search ? url.search.slice(1).split('&') : [])
    if (!NAMES.some((k) => prefix + k === part.split('=')[0])) parts.push(part)
    else if (at < 0) at = parts.length
  if (`${own}`) parts.splice(at < 0 ? parts.length : at, 0, `${own}`)
  url.search = parts.join('&')
  return url.href
}

/** The page's URL with the search under `prefix` in `unit`: its radius converted, as offered. */
export function inUnit(href: string, prefix: string, unit: 'km' | 'miles'): string {
  const own = new URLSearchParams([...new URL(href).searchParams].filter(([k]) => NAMES.some((n) => prefix + n === k)))
  const from = own.get(`${prefix}unit`)
  if ((from !== 'km' && from !== 'miles') || from === unit) return href
  own.set(`${prefix}unit`, unit)
  const radius = Number(own.get(`${prefix}r`))
  if (radius > 0) own.set(`${prefix}r`, String(radiusIn(radius, from, unit)))
  return placed(href, own, prefix)
}
