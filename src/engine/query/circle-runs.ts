// The base's part of a radius query whose tags and words the columns decide (by distance, or by
// priority with tags or words): the base's runs of positions nearest first, each a kd node wholly
// inside the circle (up to INSIDE_RUN_LEAVES leaves) or a leaf that may not be, then the medians of
// the nodes split, each tested 32 positions at a time by the columns. By distance, an inside run
// whose box is beyond a full heap's worst is counted from its columns alone, its distances unread
// (PERF-001, PERF-003).
import { ensure } from '../arrays'
import type { Base } from '../base'
import { countPassing, passingBits } from '../columns'
import type { Circle } from '../geo/circle'
import { type KdStack, type KdVisitor, SKIP, walkKd } from '../geo/kd-walk'
import { chordAbove, havAbove, kmOfHav } from '../geo/sphere'
import { INSIDE_RUN_LEAVES } from '../tuning'
import type { TopK } from './top-k'

/** The runs of a circle (8 numbers each) and the medians of the nodes split (2 numbers each), kept between queries. */
export class CircleRuns implements KdVisitor {
  /** Per run: first, last, 1 if wholly inside the circle, its box (minX, minY, maxX, maxY), 0. */
  runs = new Float64Array(8 * 256)
  /** Numbers written in `runs`. */
  runCount = 0
  /** Per median: its position, 1 if its node lies inside the circle. */
  medians = new Int32Array(512)
  medianCount = 0
  /** countPassing's scratch: a run's words. */
  acc = new Int32Array(64)
  some = new Int32Array(64)
  private circle: Circle | null = null
  private nodeSize = 0

  /** The base's runs within the circle (its boxes ready), nearest side first, and the medians. */
  find(base: Base, circle: Circle, stack: KdStack): void {
    this.circle = circle
    this.nodeSize = base.kd!.nodeSize
    this.runCount = 0
    this.medianCount = 0
    walkKd(base.kd!, base.nodeBox, stack, this, false, circle.lng, circle.lat)
    this.circle = null
  }

  // Flag: 1 if the node lies inside the circle (its parts are pushed as inside, untested).
  node(
    left: number,
    right: number,
    _node: number,
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
    known: number,
  ): number {
    const circle = this.circle!
    if (known === 0 && circle.misses(minX, minY, maxX, maxY)) return SKIP
    const inside = known === 1 || circle.holds(minX, minY, maxX, maxY) ? 1 : 0
    // A node wholly inside is one run up to INSIDE_RUN_LEAVES leaves; a larger one is split on,
    // nearest part first: the heap fills from the near parts, and the far ones are counted.
    if (right - left < (inside === 1 ? INSIDE_RUN_LEAVES * this.nodeSize : this.nodeSize + 1)) {
      const n = this.runCount
      if (n + 8 > this.runs.length) this.runs = ensure(this.runs, n + 8)
      const runs = this.runs
      runs[n] = left
      runs[n + 1] = right
      runs[n + 2] = inside
      runs[n + 3] = minX
      runs[n + 4] = minY
      runs[n + 5] = maxX
      runs[n + 6] = maxY
      runs[n + 7] = 0
      this.runCount = n + 8
      return SKIP
    }
    return inside
  }

  /** A median goes aside, for the caller to test after the runs. */
  median(m: number, inside: number): void {
    const n = this.medianCount
    if (n + 2 > this.medians.length) this.medians = ensure(this.medians, n + 2)
    this.medians[n] = m
    this.medians[n + 1] = inside
    this.medianCount = n + 2
  }
}

/**
 * By distance: counts the base's points in the circle (chords and boxes ready) that pass the
 * column groups, and offers those that may be among the nearest to the heap. Points are tested
 * by chord first: a sine only near the circle or the heap's limit (PERF-004).
 */
export function nearestByColumns(
  base: Base,
  circle: Circle,
  groups: Int32Array[],
  heap: TopK,
  runs: CircleRuns,
  stack: KdStack,
): void {
  runs.find(base, circle, stack)
  const { dead, key, cols } = base
  const live = base.deadCount === 0 ? null : base.live
  const run = runs.runs
  let total = 0
  let limitChord = Infinity
  let limit = Infinity
  for (let i = 0; i < runs.runCount; i += 8) {
    const lo = run[i]!
    const hi = run[i + 1]!
    const inside = run[i + 2] === 1
    // A full heap's worst beats every point of an inside run whose box is farther: count only.
    if (
      inside &&
      heap.size === heap.keep &&
      circle.lowerBound(run[i + 3]!, run[i + 4]!, run[i + 5]!, run[i + 6]!) > limit
    ) {
      const words = (hi >>> 5) - (lo >>> 5) + 1
      runs.acc = ensure(runs.acc, words)
      runs.some = ensure(runs.some, words)
      total += countPassing(cols, groups, lo, hi, runs.acc, runs.some, live)
      continue
    }
    for (let w = lo >>> 5; w <= hi >>> 5; w++) {
      for (let bits = passingBits(cols, groups, w, lo, hi); bits !== 0; bits &= bits - 1) {
        const at = 32 * w + 31 - Math.clz32(bits & -bits)
        if (dead[at] === 1) continue
        const c2 = circle.chordAt(at)
        if (!inside && !circle.inCircle(at, c2)) continue
        total++
        if (c2 > limitChord) continue
        const h = circle.havAt(at)
        if (h > limit) continue
        heap.consider(key[at]!, kmOfHav(h))
        if (heap.size === heap.keep) {
          limit = havAbove(heap.kms[0]!)
          limitChord = chordAbove(limit)
        }
      }
    }
  }
  // The medians last: one point each, tested in one pass, not as runs of their own (PERF-004).
  const median = runs.medians
  for (let j = 0; j < runs.medianCount; j += 2) {
    const at = median[j]!
    if (dead[at] !== 0 || passingBits(cols, groups, at >>> 5, at, at) === 0) continue
    const c2 = circle.chordAt(at)
    if (median[j + 1] !== 1 && !circle.inCircle(at, c2)) continue
    total++
    if (c2 > limitChord) continue
    const h = circle.havAt(at)
    if (h > limit) continue
    heap.consider(key[at]!, kmOfHav(h))
    if (heap.size === heap.keep) {
      limit = havAbove(heap.kms[0]!)
      limitChord = chordAbove(limit)
    }
  }
  heap.total += total
}

/**
 * By priority: as nearestByColumns, but a point of an inside run is counted without its
 * distance, and a full heap takes nothing of a worse rank than its worst (ranks read by
 * position), nor of its rank beyond it.
 */
export function rankedByColumns(
  base: Base,
  circle: Circle,
  groups: Int32Array[],
  heap: TopK,
  rankOf: Int32Array,
  runs: CircleRuns,
  stack: KdStack,
): void {
  runs.find(base, circle, stack)
  const { dead, key, cols } = base
  const posRank = base.positionRanks(rankOf)
  const run = runs.runs
  let total = 0
  // The full heap's worst rank, and the limit of its km as a haversine and a chord.
  let worstRank = Infinity
  let limit = Infinity
  let limitChord = Infinity
  /** A counted point whose rank and distance may take it into the heap: offered. */
  const take = (at: number, c2: number) => {
    const rank = posRank[at]!
    if (rank > worstRank || (rank === worstRank && c2 > limitChord)) return
    const h = circle.havAt(at)
    if (rank === worstRank && h > limit) return
    heap.consider(key[at]!, kmOfHav(h))
    if (heap.size === heap.keep) {
      worstRank = rankOf[heap.keys[0]!]!
      limit = havAbove(heap.kms[0]!)
      limitChord = chordAbove(limit)
    }
  }
  for (let i = 0; i < runs.runCount; i += 8) {
    const lo = run[i]!
    const hi = run[i + 1]!
    const inside = run[i + 2] === 1
    for (let w = lo >>> 5; w <= hi >>> 5; w++) {
      for (let bits = passingBits(cols, groups, w, lo, hi); bits !== 0; bits &= bits - 1) {
        const at = 32 * w + 31 - Math.clz32(bits & -bits)
        if (dead[at] === 1) continue
        if (inside) {
          total++
          if (heap.size === heap.keep && posRank[at]! > worstRank) continue
          take(at, circle.chordAt(at))
        } else {
          const c2 = circle.chordAt(at)
          if (!circle.inCircle(at, c2)) continue
          total++
          take(at, c2)
        }
      }
    }
  }
  const median = runs.medians
  for (let j = 0; j < runs.medianCount; j += 2) {
    const at = median[j]!
    if (dead[at] !== 0 || passingBits(cols, groups, at >>> 5, at, at) === 0) continue
    const c2 = circle.chordAt(at)
    if (median[j + 1] !== 1 && !circle.inCircle(at, c2)) continue
    total++
    take(at, c2)
  }
  heap.total += total
}
