// The base's part of a radius query by distance without tags or words: counts the live points
// within r km and passes to the heap every one that may be among the nearest. Walks the kd tree
// nearest side first with each node's box: a node wholly inside the circle is counted from its
// size (less its dead points), then walked on as counted, into the parts whose nearest possible
// point beats the heap's worst, so only points near the nearest are read.
import type { Base } from '../base'
import type { Circle } from '../geo/circle'
import { type KdStack, type KdVisitor, SKIP, walkKd } from '../geo/kd-walk'
import { chordAbove, havAbove, kmOfHav } from '../geo/sphere'
import type { TopK } from './top-k'

export class NearestCount implements KdVisitor {
  private base: Base | null = null
  private circle: Circle | null = null
  /** null: count only (a worst of 0 km: points within the bound's slack of the centre are read, and dropped). */
  private heap: TopK | null = null
  private nodeSize = 0
  private count = 0
  /** havAbove of the heap's worst, taken again only when the worst moved. */
  private worstSeen = Infinity
  private limitSeen = Infinity

  /** Counts the live base points within the circle (its chords and boxes ready), offering the nearest to `heap`. */
  run(base: Base, circle: Circle, heap: TopK | null, stack: KdStack): number {
    this.base = base
    this.circle = circle
    this.heap = heap
    this.nodeSize = base.kd!.nodeSize
    this.count = 0
    this.worstSeen = Infinity
    this.limitSeen = Infinity
    walkKd(base.kd!, base.nodeBox, stack, this, false, circle.lng, circle.lat)
    this.base = this.circle = this.heap = null
    return this.count
  }

  /** Above this haversine a point cannot enter the heap: its worst now, widened (the worst only shrinks). */
  private heapLimit(): number {
    const w = this.heap === null ? 0 : this.heap.worstKm()
    if (w !== this.worstSeen) {
      this.worstSeen = w
      this.limitSeen = havAbove(w)
    }
    return this.limitSeen
  }

  /** Offers the point at `at`, at haversine h, to the heap. */
  private take(at: number, h: number): void {
    if (this.heap !== null) this.heap.consider(this.base!.key[at]!, kmOfHav(h))
  }

  // Flag: 1 if the node lies wholly inside the circle and is counted already.
  node(
    left: number,
    right: number,
    _node: number,
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
    counted: number,
  ): number {
    const circle = this.circle!
    const base = this.base!
    const leaf = right - left <= this.nodeSize
    if (counted === 0) {
      if (circle.misses(minX, minY, maxX, maxY)) return SKIP
      // Wholly inside: counted from its size, then walked on as counted.
      if (circle.holds(minX, minY, maxX, maxY)) {
        this.count += right - left + 1 - (base.deadCount === 0 ? 0 : base.deadBetween(left, right))
        counted = 1
      }
    }
    if (counted === 1) {
      // No point of the node can enter the heap: compared as haversines, without an asin per node.
      const limit = this.heapLimit()
      if (circle.lowerBound(minX, minY, maxX, maxY) > limit) return SKIP
      if (!leaf) return 1
      const { dead } = base
      const limitChord = chordAbove(limit)
      for (let at = left; at <= right; at++) {
        if (dead[at] === 1 || circle.chordAt(at) > limitChord) continue
        const h = circle.havAt(at)
        if (h <= limit) this.take(at, h)
      }
      return SKIP
    }
    if (!leaf) return 0
    this.edgeLeaf(left, right, minX, minY, maxX, maxY)
    return SKIP
  }

  /**
   * A leaf across the circle's edge: where no point of it can join the heap and the chords decide
   * every point, its count is all there is to take, without a branch per point (PERF-002).
   */
  private edgeLeaf(left: number, right: number, minX: number, minY: number, maxX: number, maxY: number): void {
    const circle = this.circle!
    const limit = this.heapLimit()
    if (limit !== Infinity && circle.lowerBound(minX, minY, maxX, maxY) > limit) {
      const sure = circle.surelyInCount(left, right)
      if (sure >= 0) {
        this.count += sure
        return
      }
    }
    const { dead } = this.base!
    const limitChord = chordAbove(limit)
    let count = 0
    for (let at = left; at <= right; at++) {
      if (dead[at] === 1) continue
      const c2 = circle.chordAt(at)
      if (!circle.inCircle(at, c2)) continue
      count++
      if (c2 > limitChord) continue
      const h = circle.havAt(at)
      if (h <= limit) this.take(at, h)
    }
    this.count += count
  }

  /** The median, by chord as the leaves: a sine only near the circle or the heap's limit. */
  median(m: number, counted: number): void {
    if (this.base!.dead[m] !== 0) return
    const circle = this.circle!
    const c2 = circle.chordAt(m)
    if (counted === 0 && !circle.inCircle(m, c2)) return
    if (counted === 0) this.count++
    const limit = this.heapLimit()
    if (c2 <= chordAbove(limit)) {
      const h = circle.havAt(m)
      if (h <= limit) this.take(m, h)
    }
  }
}
