// The public query string as a peer reads it, and what a peer answers: the page's rows and the total
// of every match (the Query API's pagination.total).
import { FILTER_GROUPS } from '../synthetic'

const KM_PER_MILE = 1.609344
export const EARTH_RADIUS_KM = 6371 // as geokdbush (ours)

export type PeerQuery = {
  /** null: all=true. */
  center: { lat: number; lng: number } | null
  radiusKm: number
  limit: number
  offset: number
  /** Lowercased. */
  tags: string[]
  tagLogic: 'any' | 'all' | 'match'
  /** Search words, lowercased; the last is a prefix. */
  words: string[]
  sort: 'distance' | 'priority' | 'name'
}

export type PeerRow = {
  id: string
  name: string
  address: string
  lat: number
  lng: number
  distanceKm: number | null
  json: string
}
/** A page of rows and the total of every match (the Query API's pagination.total). */
export type PeerAnswer = { rows: PeerRow[]; total: number }
/** A row as the peers' SQL gives it: the total in every row (a window count, or a count subquery). */
export type CountedRow = PeerRow & { total: number }

/**
 * The page and its total from the rows a peer's SQL gave (limit + 1 at most: the extra row only
 * says there is a next page). null for an empty page past the first, whose total no row carries:
 * the peer asks again for one row from the start (firstRow).
 */
export function pageOf(rows: CountedRow[], q: PeerQuery): PeerAnswer | null {
  if (rows.length === 0) return q.offset === 0 ? { rows, total: 0 } : null
  const total = Number(rows[0]!.total)
  if (rows.length > q.limit) rows.length = q.limit
  return { rows, total }
}

/** The query asking for its first row only (LIMIT 1 OFFSET 0), for the total. */
export const firstRow = (q: PeerQuery): PeerQuery => ({ ...q, offset: 0, limit: 0 })

/** The public query string, parsed as a simple implementation would (the scenario's strings are valid). */
export function parseQuery(qs: string): PeerQuery {
  const p = new URLSearchParams(qs)
  const all = p.get('all') === 'true'
  const unit = p.get('unit') === 'km' ? 'km' : 'miles'
  const radius = Number(p.get('radius') ?? 25)
  const tagLogic = (p.get('tagLogic') ?? 'any') as PeerQuery['tagLogic']
  return {
    center: all ? null : { lat: Number(p.get('lat')), lng: Number(p.get('lng')) },
    radiusKm: unit === 'km' ? radius : radius * KM_PER_MILE,
    limit: Number(p.get('limit') ?? 20),
    offset: Number(p.get('offset') ?? 0),
    tags: p
      .getAll('tags[]')
      .map((t) => t.trim().toLowerCase())
      .filter((t) => t !== ''),
    tagLogic,
    words: (p.get('search') ?? '')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== ''),
    sort: (p.get('sort') ?? (all ? 'name' : 'distance')) as PeerQuery['sort'],
  }
}

/** The locator's filter groups (a tag in none is in the default group, as ours: groupOf in src/api/public/answer.ts). */
const GROUP_OF = new Map<string, string>(
  Object.entries(FILTER_GROUPS).flatMap(([g, tags]) => tags.map((t) => [t.toLowerCase(), g] as [string, string])),
)

/** For tagLogic=match: the query's tags, one list per filter group (OR within, AND across). */
export function tagGroups(tags: string[]): string[][] {
  const groups = new Map<string, string[]>()
  for (const t of tags) {
    const g = GROUP_OF.get(t) ?? '_default'
    let list = groups.get(g)
    if (!list) groups.set(g, (list = []))
    list.push(t)
  }
  return [...groups.values()]
}

/** Boxes a simple implementation would put around the circle: one, or null (no longitude bound) across the antimeridian or near a pole. */
export function latLngBox(
  lat: number,
  lng: number,
  km: number,
):
  | { minLat: number; maxLat: number; minLng: number; maxLng: number }
  | { minLat: number; maxLat: number; minLng: null; maxLng: null } {
  const dLat = (km / 111) * 1.01
  const minLat = Math.max(-90, lat - dLat)
  const maxLat = Math.min(90, lat + dLat)
  const edge = Math.max(Math.abs(minLat), Math.abs(maxLat))
  if (edge >= 89.9) return { minLat, maxLat, minLng: null, maxLng: null }
  const dLng = (km / (111 * Math.cos((edge * Math.PI) / 180))) * 1.01
  if (lng - dLng < -180 || lng + dLng > 180) return { minLat, maxLat, minLng: null, maxLng: null }
  return { minLat, maxLat, minLng: lng - dLng, maxLng: lng + dLng }
}
