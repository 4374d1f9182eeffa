// The base: a static KDBush over the keys as they were at the last compaction, and its tables by
// position in the KDBush's sorted arrays, so that the points of one range sit next to each other
// in memory. A key written since leaves the base (its position dies) and lives in the delta.
import type KDBush from 'kdbush'
import { ensure, fit } from './arrays'
import type { ChunkedOrder } from './chunked-order'

export class Base {
  /** The KDBush over the base's points (its `coords` hold lng, lat), or null when it holds none. */
  kd: KDBush | null = null
  /** Per kd node, the box its points fill (geo/kd-build.ts: nodeBoxes): minX, minY, maxX, maxY. */
  nodeBox = new Float64Array(0)
  /** Per key: its position, or -1 (moved, removed, or newer than the base). */
  pos = new Int32Array(0)
  // Per position: the key, cos(lat), the point on the unit sphere (x, y, z; NaN once dead, so
  // every chord comparison finds it false), and 1 where the point is dead.
  key = new Int32Array(0)
  cos = new Float64Array(0)
  xyz = new Float32Array(0)
  dead = new Uint8Array(0)
  /** `dead` as bits, 32 positions a word: 1 for a live position (countPassing's `live`). */
  live = new Int32Array(0)
  /** Fenwick tree of `dead` (1-based), to count dead points in a kd node. */
  deadTree = new Int32Array(1)
  /** Dead positions: while none, a node's count needs no look at deadTree. */
  deadCount = 0
  /** Where each position's term ids start in the pool (repacked in kd order); one more for the end. */
  termStart: Int32Array = new Int32Array(1)
  /** The bit columns (columns.ts), colWords words each, and the tags they have columns for. */
  cols = new Int32Array(0)
  colTags = 0
  colWords = 0
  /** Offset in `cols` of the open column, the last: the positions open at OpenNow.at (open-now.ts keeps it). */
  openCol = 0
  /** Per term id known when the base was built: its term column, -1, or NOT_IN_BASE (columns.ts: termColumns). */
  termCol = new Int32Array(0)
  /** The prefix columns (text/prefix-columns.ts), by prefix, numbered as termCol's. */
  prefixCol = new Map<string, number>()
  /** When the base was built (performance.now()): the index made, then each compaction's swap. */
  builtAt = performance.now()

  // Made from the base when a query first needs them, and dropped when the base or the ranks
  // change (LocatorIndex.dropMade makes those in use again in the background).
  /** Per kd node, the best (lowest) priority rank of its points, dead ones included (query/by-rank.ts). */
  nodeMinRank: Int32Array | null = null
  /** With nodeMinRank: each position's priority rank (rankOf is by key: a cache miss a point in kd order). */
  rank = new Int32Array(0)
  /** Per priority rank, a bit column of the live positions of that rank (query/priority-pages.ts). */
  rankCols: Int32Array | null = null
  /**
   * Per position, its key's rank in name order among the base's keys (-1 for a position dead when
   * made), and per such rank its position (query/name-pages.ts). A write never changes a base key's
   * entry (the key moves to the delta), so these hold until the next swap; their arrays are reused.
   */
  nameRanks = { ranks: new Int32Array(0), positions: new Int32Array(0), made: false }

  /** Positions in the base. */
  get size(): number {
    return this.key.length
  }

  /** Marks a key's point dead (it moved or left). */
  kill(key: number): void {
    const at = this.pos[key]!
    if (at === -1) return
    this.dead[at] = 1
    this.live[at >>> 5]! &= ~(1 << (at & 31))
    this.xyz.fill(NaN, 3 * at, 3 * at + 3)
    if (this.rankCols !== null) this.rankCols[this.rank[at]! * this.colWords + (at >>> 5)]! &= ~(1 << (at & 31))
    this.pos[key] = -1
    for (let i = at + 1; i < this.deadTree.length; i += i & -i) this.deadTree[i]!++
    this.deadCount++
  }

  /** Dead points at positions left..right (a Fenwick tree over `dead`). */
  deadBetween(left: number, right: number): number {
    const prefix = (end: number) => {
      let sum = 0
      for (let i = end; i > 0; i -= i & -i) sum += this.deadTree[i]!
      return sum
    }
    return prefix(right + 1) - prefix(left)
  }

  /** Room for `n` keys. */
  grow(n: number): void {
    const before = this.pos.length
    this.pos = ensure(this.pos, n)
    this.pos.fill(-1, before)
  }

  /** Cuts the growth slack after a bulk load of `n` keys. */
  shrink(n: number): void {
    this.pos = fit(this.pos, n)
  }

  /** The rank columns, made now if they were dropped, and how many ranks they hold. */
  rankColumns(rankOf: Int32Array): { cols: Int32Array; ranks: number } {
    if (this.rankCols === null) {
      const W = this.colWords
      const n = this.size
      const rank = this.kd !== null ? this.positionRanks(rankOf) : this.rank
      let ranks = 0
      for (let at = 0; at < n; at++) if (rank[at]! >= ranks) ranks = rank[at]! + 1
      const cols = new Int32Array(ranks * W)
      const { dead } = this
      for (let at = 0; at < n; at++) if (dead[at] === 0) cols[rank[at]! * W + (at >>> 5)]! |= 1 << (at & 31)
      this.rankCols = cols
    }
    return { cols: this.rankCols, ranks: this.colWords === 0 ? 0 : this.rankCols.length / this.colWords }
  }

  /** Each position's priority rank (`rank`), made now with nodeMinRank if they were dropped. */
  positionRanks(rankOf: Int32Array): Int32Array {
    this.nodeMinRanks(rankOf)
    return this.rank
  }

  /**
   * nodeMinRank (and `rank`), made now if they were dropped: per kd node, the best rank of its
   * points (a leaf's, or its median's and its children's).
   */
  nodeMinRanks(rankOf: Int32Array): Int32Array {
    if (this.nodeMinRank !== null) return this.nodeMinRank
    const { ids, nodeSize } = this.kd!
    const { key } = this
    const rank = new Int32Array(ids.length)
    for (let at = 0; at < rank.length; at++) rank[at] = rankOf[key[at]!]!
    const out = new Int32Array(this.nodeBox.length >> 2)
    const fill = (left: number, right: number, node: number): number => {
      if (left > right) return 0x7fffffff
      let min = 0x7fffffff
      if (right - left <= nodeSize) {
        for (let at = left; at <= right; at++) min = Math.min(min, rank[at]!)
      } else {
        const m = (left + right) >> 1
        min = Math.min(rank[m]!, fill(left, m - 1, 2 * node + 1), fill(m + 1, right, 2 * node + 2))
      }
      out[node] = min
      return min
    }
    fill(0, ids.length - 1, 0)
    this.rank = rank
    this.nodeMinRank = out
    return out
  }

  /**
   * The name ranks, made from the kept name order if they are not yet; the arrays of the ranks
   * before a swap are filled again when large enough, their pages already faulted in (PERF-028).
   */
  nameRanksFrom(nameOrder: ChunkedOrder): { ranks: Int32Array; positions: Int32Array } {
    const kept = this.nameRanks
    if (kept.made) return kept
    const { pos } = this
    const n = this.size
    const ranks = kept.ranks.length >= n ? kept.ranks : new Int32Array(n)
    const positions = kept.positions.length >= n ? kept.positions : new Int32Array(n)
    ranks.fill(-1, 0, n)
    let rank = 0
    for (const keys of nameOrder.chunks) {
      for (const key of keys) {
        const at = pos[key]!
        if (at === -1) continue
        ranks[at] = rank
        positions[rank++] = at
      }
    }
    this.nameRanks = { ranks, positions, made: true }
    return this.nameRanks
  }
}
