// The clusters of a set of points at every zoom from 0 to MAX_CLUSTER_ZOOM, by supercluster's
// method: from the deepest zoom up, each item not yet taken takes every free item within the
// zoom's radius (CLUSTER_RADIUS_PX of a TILE_PX tile, in Web Mercator) into one cluster at their
// weighted centre. Pure, on plain arrays, so a worker thread can build it (build.ts).
import KDBush from 'kdbush'

export { MAX_ZOOM } from '../../core/limits'

/** A cluster's reach in pixels of a tile TILE_PX wide (supercluster's defaults), and the deepest zoom that clusters. */
export const CLUSTER_RADIUS_PX = 40
export const TILE_PX = 512
export const MAX_CLUSTER_ZOOM = 16
/** Points per KDBush leaf of a level's centres. */
const LEVEL_NODE_SIZE = 64

/** Web Mercator coordinates are kept as whole numbers, (c - 0.5) × SCALE cut to an integer, as supercluster keeps them: its sums are then exact in any order, and its clusters ours. */
export const SCALE = 2 ** 30

/** A cluster's reach at zoom z, in Web Mercator units (the world is 1 wide). */
export const reachAt = (z: number): number => CLUSTER_RADIUS_PX / (TILE_PX * 2 ** z)

/** Web Mercator x (0..1, west to east) of a longitude. */
export const mercX = (lng: number): number => lng / 360 + 0.5

/** Web Mercator y (0..1, north to south) of a latitude; the poles at the edges. Written as supercluster writes it, for the same bits. */
export function mercY(lat: number): number {
  const sin = Math.sin((lat * Math.PI) / 180)
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI
  return Math.min(Math.max(y, 0), 1)
}

export const lngOfX = (x: number): number => (x - 0.5) * 360

export function latOfY(y: number): number {
  return (360 * Math.atan(Math.exp(((180 - y * 360) * Math.PI) / 180))) / Math.PI - 90
}

/** A Web Mercator coordinate as kept (SCALE), and back. */
export const encode = (c: number): number => Math.trunc((c - 0.5) * SCALE)
export const decode = (v: number): number => v / SCALE + 0.5

/**
 * Every zoom's items (clusters, and points no cluster took), by zoom 0..MAX_CLUSTER_ZOOM: centres
 * (as kept), counts, the point each began from (its seed: the first in the points' order), the
 * zoom at which its points are first in more than one item (MAX_CLUSTER_ZOOM + 1: never), KDBush
 * data over the centres; and each point's item (build.ts turns these by key).
 */
export type ClusterLevels = {
  x: Int32Array[]
  y: Int32Array[]
  count: Int32Array[]
  seed: Int32Array[]
  expansion: Uint8Array[]
  kd: ArrayBuffer[]
  member: Int32Array[]
}

/** The clusters of the points (px, py: Web Mercator as kept, encode()), in their order; the same points in the same order make the same levels. */
export function buildLevels(px: Int32Array, py: Int32Array): ClusterLevels {
  const n = px.length
  const levels: ClusterLevels = { x: [], y: [], count: [], seed: [], expansion: [], kd: [], member: [] }
  let x = px
  let y = py
  let count = new Int32Array(n).fill(1)
  let seed = Int32Array.from({ length: n }, (_, i) => i)
  /** Each point's item at the zoom below (the points themselves at first). */
  let below = Int32Array.from({ length: n }, (_, i) => i)
  let kd = centresKd(x, y)
  for (let z = MAX_CLUSTER_ZOOM; z >= 0; z--) {
    const r = reachAt(z) * SCALE
    const m = x.length
    const parent = new Int32Array(m).fill(-1)
    const nx = new Int32Array(m)
    const ny = new Int32Array(m)
    const nc = new Int32Array(m)
    const ns = new Int32Array(m)
    const near = new Uint32Array(m)
    let items = 0
    for (let i = 0; i < m; i++) {
      if (parent[i] !== -1) continue
      parent[i] = items
      let total = count[i]!
      let wx = x[i]! * total
      let wy = y[i]! * total
      const found = kd.withinInto(x[i]!, y[i]!, r, near)
      for (let f = 0; f < found; f++) {
        const j = near[f]!
        if (parent[j] !== -1) continue
        parent[j] = items
        const c = count[j]!
        total += c
        wx += x[j]! * c
        wy += y[j]! * c
      }
      // Cut to whole numbers, as supercluster's Int32Array cuts them.
      nx[items] = Math.trunc(wx / total)
      ny[items] = Math.trunc(wy / total)
      nc[items] = total
      ns[items] = seed[i]!
      items++
    }
    x = nx.slice(0, items)
    y = ny.slice(0, items)
    count = nc.slice(0, items)
    seed = ns.slice(0, items)
    // An item splits at the next zoom when it has two children there; else where its one child does.
    const children = new Int32Array(items)
    const only = new Int32Array(items)
    for (let j = 0; j < m; j++) {
      children[parent[j]!]!++
      only[parent[j]!] = j
    }
    const deeper = levels.expansion[z + 1]
    const expansion = new Uint8Array(items)
    for (let c = 0; c < items; c++) expansion[c] = children[c]! >= 2 || deeper === undefined ? z + 1 : deeper[only[c]!]!
    levels.expansion[z] = expansion
    const member = new Int32Array(n)
    for (let p = 0; p < n; p++) member[p] = parent[below[p]!]!
    below = member
    kd = centresKd(x, y)
    levels.x[z] = x
    levels.y[z] = y
    levels.count[z] = count
    levels.seed[z] = seed
    levels.kd[z] = kd.data as ArrayBuffer
    levels.member[z] = member
  }
  return levels
}

/** KDBush over centres. */
function centresKd(x: Int32Array, y: Int32Array): KDBush {
  const kd = new KDBush(x.length, LEVEL_NODE_SIZE, Int32Array)
  for (let i = 0; i < x.length; i++) kd.add(x[i]!, y[i]!)
  return kd.finish()
}

/** The buffers of levels, to hand to another thread. */
export function levelBuffers(levels: ClusterLevels): ArrayBuffer[] {
  const arrays = [levels.x, levels.y, levels.count, levels.seed, levels.expansion, levels.member].flat()
  return [...arrays.map((a) => a.buffer as ArrayBuffer), ...levels.kd]
}
