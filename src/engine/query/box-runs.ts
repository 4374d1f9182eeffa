// The base's part of a radius query the columns do not wholly decide (words read from the pool,
// sort=name, or by priority with few points): runs of positions in the circle's boxes, in kd order,
// their points tested by the columns 32 at a time, then by distance, then (for the words the
// columns leave undecided) by their terms in the pool, packed in kd order too.
import { ensure } from '../arrays'
import type { Base } from '../base'
import { passingBits } from '../columns'
import type { Circle } from '../geo/circle'
import { type KdStack, type KdVisitor, SKIP, walkKd } from '../geo/kd-walk'
import { havAbove, kmOfHav } from '../geo/sphere'
import type { IndexState } from '../state'
import { wordsIn } from '../text/term-pool'
import type { TopK } from './top-k'
import { NO_TERMS, prefixSureCols, type WordPlan } from './plan'

/**
 * KDBush's range(), collecting runs of positions (not items): pairs of first and last, ascending,
 * so the caller reads each point's coordinates and tables in kd order. A kd node wholly inside
 * the box is one run, its coordinates unread. With `wholeLeaves`, so is every leaf the box
 * touches (the caller tests each point's distance anyway; a run may then hold points outside the
 * box, so not for boxes that share a leaf). Kept between queries.
 */
export class BoxRuns implements KdVisitor {
  /** The runs: first, last, ... */
  found = new Int32Array(1024)
  /** Numbers written in `found`. */
  count = 0
  private start = 0
  private coords: Float64Array = new Float64Array(0)
  private nodeSize = 0
  private wholeLeaves = false
  private minX = 0
  private minY = 0
  private maxX = 0
  private maxY = 0

  /** The runs of the boxes, in place of those found before; returns how many positions they hold. */
  fill(base: Base, boxes: readonly (readonly number[])[], wholeLeaves: boolean, stack: KdStack): number {
    this.count = 0
    if (base.kd === null) return 0
    for (const box of boxes) this.add(base, box, wholeLeaves, stack)
    let positions = 0
    for (let i = 0; i < this.count; i += 2) positions += this.found[i + 1]! - this.found[i]! + 1
    return positions
  }

  /** Adds the runs of one box after those found so far (clear: none). */
  add(base: Base, box: readonly number[], wholeLeaves: boolean, stack: KdStack): void {
    const kd = base.kd!
    // The index's KDBush keeps its coordinates in a Float64Array (KDBush's default).
    this.coords = kd.coords as Float64Array
    this.nodeSize = kd.nodeSize
    this.wholeLeaves = wholeLeaves
    this.minX = box[0]!
    this.minY = box[1]!
    this.maxX = box[2]!
    this.maxY = box[3]!
    this.start = this.count
    walkKd(kd, base.nodeBox, stack, this, true, 0, 0)
  }

  /** Room for a whole leaf's runs, made before it is read, so the loops store without checks. */
  private room(): Int32Array {
    const need = this.count + 2 * this.nodeSize + 2
    if (need > this.found.length) this.found = ensure(this.found, need)
    return this.found
  }

  /** Adds first..last, joined to the run before when it ends just before first. */
  private run(found: Int32Array, first: number, last: number): void {
    const n = this.count
    if (n > this.start && found[n - 1] === first - 1) found[n - 1] = last
    else {
      found[n] = first
      found[n + 1] = last
      this.count = n + 2
    }
  }

  node(left: number, right: number, _node: number, x0: number, y0: number, x1: number, y1: number): number {
    const { minX, minY, maxX, maxY } = this
    if (x1 < minX || x0 > maxX || y1 < minY || y0 > maxY) return SKIP
    const found = this.room()
    if (x0 >= minX && x1 <= maxX && y0 >= minY && y1 <= maxY) {
      this.run(found, left, right)
      return SKIP
    }
    if (right - left > this.nodeSize) return 0
    if (this.wholeLeaves) this.run(found, left, right)
    else {
      const { coords } = this
      for (let i = left; i <= right; i++) {
        const x = coords[2 * i]!
        const y = coords[2 * i + 1]!
        if (x >= minX && x <= maxX && y >= minY && y <= maxY) this.run(found, i, i)
      }
    }
    return SKIP
  }

  median(m: number): void {
    const x = this.coords[2 * m]!
    const y = this.coords[2 * m + 1]!
    if (x >= this.minX && x <= this.maxX && y >= this.minY && y <= this.maxY) this.run(this.room(), m, m)
  }
}

/**
 * Offers the base's points of the runs (BoxRuns) within the circle that pass the column groups and
 * the words the columns leave undecided. A full heap takes nothing beyond its worst by distance;
 * by priority, nothing of a worse rank than its worst, nor of its rank beyond it (as haversines,
 * without the km: most points of a circle share the worst's rank).
 */
export function offerRuns(
  s: IndexState,
  circle: Circle,
  groups: Int32Array[],
  wordPlan: WordPlan | null,
  heap: TopK,
  byDistance: boolean,
  byPriority: boolean,
): void {
  const { base } = s
  const { dead, key, cols, termStart } = base
  const { found, count: runs } = s.boxRuns
  const { pool } = s.terms
  const prefixBits = s.prefixes.bits
  const { rankOf } = s.keys
  const baseWhole = wordPlan?.baseWhole ?? NO_TERMS
  const checkPrefix = wordPlan !== null && wordPlan.prefixCols === null
  const readTerms = baseWhole.length > 0 || checkPrefix
  const sureCols = prefixSureCols(base, wordPlan)
  let total = 0
  let limit = Infinity
  let rankLimit = Infinity
  for (let i = 0; i < runs; i += 2) {
    const lo = found[i]!
    const hi = found[i + 1]!
    for (let w = lo >>> 5; w <= hi >>> 5; w++) {
      let sure = 0
      for (let j = 0; j < sureCols.length; j++) sure |= cols[sureCols[j]! + w]!
      for (let bits = passingBits(cols, groups, w, lo, hi); bits !== 0; bits &= bits - 1) {
        const at = 32 * w + 31 - Math.clz32(bits & -bits)
        if (dead[at] === 1) continue
        const h = circle.havAt(at)
        if (!circle.within(h)) continue
        if (
          readTerms &&
          !wordsIn(
            pool,
            prefixBits,
            termStart[at]!,
            termStart[at + 1]!,
            baseWhole,
            checkPrefix && (sure & (1 << (at & 31))) === 0,
          )
        )
          continue
        total++
        if (h > limit) continue
        const k = key[at]!
        if (byPriority && heap.size === heap.keep) {
          const rank = rankOf[k]!
          const worst = rankOf[heap.keys[0]!]!
          if (rank > worst || (rank === worst && h > rankLimit)) continue
        }
        heap.consider(k, kmOfHav(h))
        if (heap.size === heap.keep) {
          if (byDistance) limit = havAbove(heap.kms[0]!)
          else if (byPriority) rankLimit = havAbove(heap.kms[0]!)
        }
      }
    }
  }
  heap.total += total
}
