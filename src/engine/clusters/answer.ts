// A clusters request over a built tree (tree.ts): the locations a query matches in the box grown
// by two spreads, each counted in its item of the zoom asked (the tree's, or for a point written
// since the build the nearest item within reach). An item with a match within one spread of the
// box has all its matches counted; those whose matches' centre lies in the box are the answer:
// clusters of two or more, single locations. A cluster's leaves are its item's matches.
import { type Bbox, boxesOf, inBoxes } from '../geo/boxes'
import type { KeyTable } from '../keys'
import { decode, encode, latOfY, lngOfX, MAX_CLUSTER_ZOOM, mercX, mercY, reachAt } from './levels'
import type { ClusterTree } from './tree'

export type ClusterHit = { id: string; lat: number; lng: number; count: number; expansionZoom: number }
/** Clusters and single locations (keys), each by id, and how many locations they hold in all. */
export type ClustersResult = { clusters: ClusterHit[]; singles: number[]; total: number }
/** Visits the matches in a box. */
export type VisitIn = (bbox: Bbox, visit: (key: number) => void) => void

/**
 * Any two matches of one item lie within SPREAD reaches: a tree point within 2 × (r + r/2 + ...)
 * of its item's centre, less than 4r, and a point joined since within r of it.
 */
const SPREAD = 8

/** Per item of a zoom, kept between requests: matches, their summed x and y, the first held key, the zoom they split at, one key, and whether one is near the box. */
export class ClusterScratch {
  count = new Int32Array(0)
  sx = new Float64Array(0)
  sy = new Float64Array(0)
  first = new Int32Array(0)
  split = new Int32Array(0)
  one = new Int32Array(0)
  near = new Uint8Array(0)
  touched: number[] = []

  /** Room for n items, every count zero. */
  ready(n: number): this {
    if (this.count.length >= n) return this
    this.count = new Int32Array(n)
    this.sx = new Float64Array(n)
    this.sy = new Float64Array(n)
    this.first = new Int32Array(n)
    this.split = new Int32Array(n)
    this.one = new Int32Array(n)
    this.near = new Uint8Array(n)
    return this
  }
}

/** The box grown by `by` (Web Mercator units) on every side; past a pole it reaches the pole, and it wraps at the antimeridian. */
export function grown([w, s, e, n]: Bbox, by: number): Bbox {
  const yNorth = mercY(n) - by
  const ySouth = mercY(s) + by
  const north = yNorth <= 0 ? 90 : latOfY(yNorth)
  const south = ySouth >= 1 ? -90 : latOfY(ySouth)
  const d = by * 360
  const width = w <= e ? e - w : e - w + 360
  if (width + 2 * d >= 360) return [-180, south, 180, north]
  const wrap = (x: number) => (x < -180 ? x + 360 : x > 180 ? x - 360 : x)
  return [wrap(w - d), south, wrap(e + d), north]
}

/** The clusters and single locations in `bbox` at `zoom` of the matches `visitIn` visits. */
export function clustersIn(
  tree: ClusterTree,
  keys: KeyTable,
  zoom: number,
  bbox: Bbox,
  visitIn: VisitIn,
  scratch: ClusterScratch,
): ClustersResult {
  const boxes = boxesOf(bbox)
  const { lat, lng } = keys
  const singles: number[] = []
  const clusters: ClusterHit[] = []
  if (zoom > MAX_CLUSTER_ZOOM) {
    // Deeper than any cluster: every location alone.
    visitIn(bbox, (key) => singles.push(key))
    return byId(clusters, singles, keys, singles.length)
  }
  const { levels } = tree
  const r = reachAt(zoom)
  const nearBoxes = boxesOf(grown(bbox, (SPREAD + 1) * r))
  const member = tree.member[zoom]!
  const { xy, builtAt } = tree
  const { writtenAt } = keys
  const keyCount = xy.length >> 1
  const { count, sx, sy, first, split, one, near, touched } = scratch.ready(levels.count[zoom]!.length)
  visitIn(grown(bbox, (2 * SPREAD + 2) * r), (key) => {
    // tree.holds(key), hoisted: this runs for every match.
    const held = writtenAt[key]! <= builtAt && key < keyCount
    let item: number
    let x: number
    let y: number
    if (held) {
      item = member[key]!
      x = xy[2 * key]!
      y = xy[2 * key + 1]!
    } else {
      x = encode(mercX(lng[key]!))
      y = encode(mercY(lat[key]!))
      item = tree.join(zoom, x, y)
      if (item === -1) {
        if (inBoxes(boxes, lng[key]!, lat[key]!)) singles.push(key)
        return
      }
    }
    if (count[item] === 0) {
      touched.push(item)
      first[item] = held ? key : -1
      split[item] = held ? MAX_CLUSTER_ZOOM + 1 : zoom + 1
    } else if (!held)
      split[item] = zoom + 1 // a point joined since: not in the deeper zooms' items
    else if (first[item]! < 0) first[item] = key
    else {
      // The first zoom at which this match and the first are in different items.
      const f = first[item]!
      for (let z = zoom + 1; z < split[item]!; z++) {
        if (tree.member[z]![key] !== tree.member[z]![f]) {
          split[item] = z
          break
        }
      }
    }
    count[item]!++
    sx[item]! += x
    sy[item]! += y
    one[item] = key
    if (near[item] === 0 && inBoxes(nearBoxes, lng[key]!, lat[key]!)) near[item] = 1
  })
  const seed = levels.seed[zoom]!
  let total = singles.length
  for (const item of touched) {
    const n = count[item]!
    if (near[item] === 1) {
      if (n === 1) {
        const key = one[item]!
        if (inBoxes(boxes, lng[key]!, lat[key]!)) {
          singles.push(key)
          total++
        }
      } else {
        const hit = clusterHit(tree, zoom, seed[item]!, sx[item]! / n, sy[item]! / n, n, split[item]!)
        if (inBoxes(boxes, hit.lng, hit.lat)) {
          clusters.push(hit)
          total += n
        }
      }
    }
    count[item] = 0
    sx[item] = 0
    sy[item] = 0
    near[item] = 0
  }
  touched.length = 0
  return byId(clusters, singles, keys, total)
}

/** A cluster of n points from its seed (a tree point) and its centre (x, y as kept). */
function clusterHit(tree: ClusterTree, zoom: number, seed: number, x: number, y: number, n: number, split: number) {
  const id = `${zoom}-${tree.idOf(seed)}`
  return { id, lat: latOfY(decode(y)), lng: lngOfX(decode(x)), count: n, expansionZoom: split }
}

/** The answer, its clusters and single locations each in the order of their ids: one order whatever the visit's (key order differs between processes). */
function byId(clusters: ClusterHit[], singles: number[], keys: KeyTable, total: number): ClustersResult {
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  clusters.sort((a, b) => order(a.id, b.id))
  singles.sort((a, b) => order(keys.entries[a]!.id, keys.entries[b]!.id))
  return { clusters, singles, total }
}

/**
 * clustersIn's answer with no filter, while no key was written since the tree's build: the zoom's
 * items as built, their counts, centres and expansion zooms stored, those whose centre (or point,
 * alone) lies in the box found by its KDBush, not by visiting every location.
 */
export function levelClusters(tree: ClusterTree, keys: KeyTable, zoom: number, bbox: Bbox): ClustersResult {
  const boxes = boxesOf(bbox)
  const { levels } = tree
  const count = levels.count[zoom]!
  const x = levels.x[zoom]!
  const y = levels.y[zoom]!
  const seed = levels.seed[zoom]!
  const expansion = levels.expansion[zoom]!
  const clusters: ClusterHit[] = []
  const singles: number[] = []
  let total = 0
  /** Items seen: two boxes may share the antimeridian's items. */
  const seen = boxes.length > 1 ? new Set<number>() : null
  for (const [x0, y0, x1, y1] of boxes) {
    // A kept coordinate's unit around each edge: the centres are then tested as clustersIn tests them.
    const found = tree.kd[zoom]!.range(
      encode(mercX(x0)) - 1,
      encode(mercY(y1)) - 1,
      encode(mercX(x1)) + 1,
      encode(mercY(y0)) + 1,
    )
    for (const item of found) {
      if (seen !== null) {
        if (seen.has(item)) continue
        seen.add(item)
      }
      const n = count[item]!
      if (n === 1) {
        const key = tree.keyOfPoint[seed[item]!]!
        if (!inBoxes(boxes, keys.lng[key]!, keys.lat[key]!)) continue
        singles.push(key)
        total++
        continue
      }
      const hit = clusterHit(tree, zoom, seed[item]!, x[item]!, y[item]!, n, expansion[item]!)
      if (!inBoxes(boxes, hit.lng, hit.lat)) continue
      clusters.push(hit)
      total += n
    }
  }
  return byId(clusters, singles, keys, total)
}

/** A cluster id's zoom and seed location id; null if it is not one. */
export function clusterIdParts(id: string): { zoom: number; seed: string } | null {
  const found = /^(\d{1,2})-(.+)$/.exec(id)
  if (found === null || Number(found[1]) > MAX_CLUSTER_ZOOM) return null
  return { zoom: Number(found[1]), seed: found[2]! }
}

/**
 * The item of `zoom` whose seed is location `seed`, or -1. A key keeps its items as built even when
 * written since; a seed deleted since (its key let go, or given to another location) is found by
 * its tree point.
 */
function itemSeededBy(tree: ClusterTree, keys: KeyTable, zoom: number, seed: string): number {
  const seeds = tree.levels.seed[zoom]!
  const key = keys.keyOf.get(seed)
  if (key !== undefined && key < tree.xy.length >> 1) {
    const item = tree.member[zoom]![key]!
    if (item >= 0 && tree.idOf(seeds[item]!) === seed) return item
  }
  const point = tree.pointOf(seed)
  return point < 0 ? -1 : seeds.indexOf(point)
}

/**
 * The keys of a cluster's matches (those `visitIn` visits), in no order; null when the tree has no
 * such cluster: not an id, none of the build's items at that zoom began from that location, or
 * that item is a location alone.
 */
export function leavesOf(tree: ClusterTree, keys: KeyTable, id: string, visitIn: VisitIn): number[] | null {
  const parts = clusterIdParts(id)
  if (parts === null) return null
  const { zoom } = parts
  const item = itemSeededBy(tree, keys, zoom, parts.seed)
  if (item < 0) return null
  // Its tree points lie within 4r of its centre, points joined since within r.
  const cLng = lngOfX(decode(tree.levels.x[zoom]![item]!))
  const cLat = latOfY(decode(tree.levels.y[zoom]![item]!))
  const around: Bbox = [cLng, cLat, cLng, cLat]
  const out: number[] = []
  visitIn(grown(around, (SPREAD / 2 + 1) * reachAt(zoom)), (k) => {
    const of = tree.holds(k, keys)
      ? tree.member[zoom]![k]!
      : tree.join(zoom, encode(mercX(keys.lng[k]!)), encode(mercY(keys.lat[k]!)))
    if (of === item) out.push(k)
  })
  // An item built of one location, with none joined since, is that location: no answer gives it as a cluster.
  return out.length < 2 && tree.levels.count[zoom]![item] === 1 ? null : out
}
