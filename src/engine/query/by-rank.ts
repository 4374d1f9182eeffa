// sort=priority within a circle, without tags or words, where the circle's boxes hold many base
// points: the page found best first (rank, then distance) over kd nodes ordered by the best rank
// of their points (Base.nodeMinRank), then the nearest their box can hold. The nodes of the best
// ranks near the centre fill the heap, and once it is full no node whose rank or distance cannot
// beat its worst is opened. Counts nothing: NearestCount counts the circle (PERF-025).
import type { Base } from '../base'
import type { Circle } from '../geo/circle'
import { type KdBestFirstVisitor, type KdQueue, walkKdBestFirst } from '../geo/kd-walk'
import { chordAbove, havAbove, kmOfHav } from '../geo/sphere'
import type { TopK } from './top-k'

export class ByRank implements KdBestFirstVisitor {
  private base: Base | null = null
  private circle: Circle | null = null
  private heap: TopK | null = null
  private rankOf: Int32Array = new Int32Array(0)
  // The heap's worst (key -1: not full yet; -2: not read yet): its rank, and as a haversine
  // (widened) and a chord how far a point of that rank may lie.
  private worstKey = -2
  private worstRank = Infinity
  private limit = Infinity
  private limitChord = Infinity

  /** Offers the heap every live base point in the circle (chords and boxes ready) that may be among the best by priority. */
  run(base: Base, circle: Circle, heap: TopK, rankOf: Int32Array, queue: KdQueue): void {
    const minRank = base.nodeMinRanks(rankOf)
    this.base = base
    this.circle = circle
    this.heap = heap
    this.rankOf = rankOf
    this.worstKey = -2
    this.worstRank = Infinity
    this.limit = Infinity
    this.limitChord = Infinity
    this.update()
    walkKdBestFirst(base.kd!, base.nodeBox, minRank, queue, this)
    this.base = this.circle = this.heap = null
  }

  /** Reads the heap's worst again if it changed. */
  private update(): void {
    const heap = this.heap!
    const key = heap.size < heap.keep ? -1 : heap.keys[0]!
    if (key === this.worstKey) return
    this.worstKey = key
    if (key === -1) return
    this.worstRank = this.rankOf[key]!
    this.limit = havAbove(heap.kms[0]!)
    this.limitChord = chordAbove(this.limit)
  }

  reach(minX: number, minY: number, maxX: number, maxY: number): number {
    const circle = this.circle!
    return circle.misses(minX, minY, maxX, maxY) ? -1 : circle.lowerBound(minX, minY, maxX, maxY)
  }

  open(rank: number, reach: number): boolean {
    return !(rank > this.worstRank || (rank === this.worstRank && reach > this.limit))
  }

  point(at: number): void {
    const base = this.base!
    const rank = base.rank[at]!
    if (rank > this.worstRank || base.dead[at] === 1) return
    const circle = this.circle!
    const c2 = circle.chordAt(at)
    if (!circle.inCircle(at, c2) || (rank === this.worstRank && c2 > this.limitChord)) return
    const h = circle.havAt(at)
    if (rank === this.worstRank && h > this.limit) return
    this.heap!.consider(base.key[at]!, kmOfHav(h))
    this.update()
  }
}
