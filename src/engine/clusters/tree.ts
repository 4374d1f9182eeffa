// A built clustering (levels.ts) of the points as they were at its build, as requests read it, by
// key: each key's item at each zoom and its Web Mercator point, while the key is not written since
// (KeyTable.writtenAt). Points written since join the nearest item of the zoom asked, within its
// reach, or stand alone (answer.ts).
import KDBush from 'kdbush'
import type { KeyTable } from '../keys'
import type { ClusterAnswer } from './build'
import { type ClusterLevels, reachAt, SCALE } from './levels'

export class ClusterTree {
  readonly levels: ClusterLevels
  /** By zoom: KDBush over its items' centres. */
  readonly kd: KDBush[]
  /** By zoom, by key: its item (-1: no point of the tree). */
  readonly member: Int32Array[]
  /** By key: its Web Mercator x and y as kept (encode()), side by side. */
  readonly xy: Int32Array
  /** By tree point: its key. */
  readonly keyOfPoint: Int32Array
  /** The ids by input position, and the input position of each tree point: idOf() reads through both. */
  private readonly ids: string[]
  private readonly order: Int32Array
  /** KeyTable.writes when its points were read: a key written after is not as built. */
  readonly builtAt: number

  /** From a build's answer over the points sent (ids: by input position), read at KeyTable.writes builtAt. */
  constructor({ order, levels, xy, keyOfPoint }: ClusterAnswer, ids: string[], builtAt: number) {
    this.levels = levels
    this.builtAt = builtAt
    this.kd = levels.kd.map((data) => KDBush.from(data))
    this.member = levels.member
    this.xy = xy
    this.keyOfPoint = keyOfPoint
    // Not made into an id array by point: 1M ids cost the event loop tens of ms on the answer's arrival.
    this.ids = ids
    this.order = order
  }

  /** A tree point's location id (a cluster's id names its seed's). */
  idOf(point: number): string {
    return this.ids[this.order[point]!]!
  }

  /** The tree point of a location id; -1 when the build had no such location. */
  pointOf(id: string): number {
    const input = this.ids.indexOf(id)
    return input < 0 ? -1 : this.order.indexOf(input)
  }

  /** Whether a live key is as built: read then, not written since. */
  holds(key: number, keys: KeyTable): boolean {
    return keys.writtenAt[key]! <= this.builtAt && key < this.xy.length >> 1
  }

  /** The item of zoom z that a point written since the build joins (x, y as kept): the nearest centre within the zoom's reach (of equals, the first); -1 none. */
  join(z: number, x: number, y: number): number {
    const cx = this.levels.x[z]!
    const cy = this.levels.y[z]!
    let best = -1
    let bestD = Infinity
    for (const i of this.kd[z]!.within(x, y, reachAt(z) * SCALE)) {
      const d = (cx[i]! - x) ** 2 + (cy[i]! - y) ** 2
      if (d < bestD || (d === bestD && i < best)) {
        best = i
        bestD = d
      }
    }
    return best
  }
}
