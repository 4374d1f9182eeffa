// A bbox query: the base's positions in the box's lng/lat boxes (exact runs, kd order), tested by
// the columns and the pool as a radius query's are, each hit's distance from the query's point;
// then the delta's keys in the grid cells the boxes touch. A rare word leads as it does there.
// The same matches visited one by one, for clusters.
import { passingBits } from '../columns'
import { boxesOf, inBoxes, type LngLatBox, NO_BOX } from '../geo/boxes'
import { kmBetween, RAD } from '../geo/sphere'
import type { IndexState } from '../state'
import type { TagPlan } from '../tags'
import { wordsIn } from '../text/term-pool'
import type { IndexQuery } from '../types'
import { offerRuns } from './box-runs'
import { columnGroups, NO_TERMS, prefixSureCols, wordLeads, type WordPlan } from './plan'
import { circleOver, scanDelta } from './radius'
import type { Filter, TopK } from './top-k'

/** Answers a bbox query into the heap (its count in heap.total). */
export function boxQuery(
  s: IndexState,
  q: IndexQuery,
  tagPlan: TagPlan | null,
  wordPlan: WordPlan | null,
  heap: TopK,
): void {
  const { base } = s
  const { lat, lng } = q.center!
  const cosLat1 = Math.cos(lat * RAD)
  const boxes = boxesOf(q.bbox!)
  const candidates = s.boxRuns.fill(s.base, boxes, false, s.stack)
  if (wordLeads(s.postings.ready, wordPlan, candidates + s.delta.size)) {
    const { lat: lats, lng: lngs, cosLat } = s.keys
    s.postings.eachCandidate(wordPlan.source.terms, (key) => {
      const x = lngs[key]!
      const y = lats[key]!
      if (inBoxes(boxes, x, y)) heap.offer(key, kmBetween(lng, lat, cosLat1, x, y, cosLat[key]!))
    })
    return
  }
  // A circle of Infinity km holds every point: it only measures the distances.
  const circle = circleOver(s, lng, lat, cosLat1, Infinity)
  const byDistance = q.sort === 'distance'
  offerRuns(s, circle, columnGroups(base, tagPlan, wordPlan), wordPlan, heap, byDistance, q.sort === 'priority')
  scanDelta(s, lng, lat, Infinity, cosLat1, boxes, heap)
}

/**
 * Visits the live keys in the boxes that pass the tags and words as typed (as boxQuery finds
 * them, without distances or a heap). What clusters count (clusters/answer.ts).
 */
export function visitBoxMatches(
  s: IndexState,
  boxes: LngLatBox[],
  tagPlan: TagPlan | null,
  wordPlan: WordPlan | null,
  filter: Filter,
  visit: (key: number) => void,
): void {
  const { base } = s
  const candidates = s.boxRuns.fill(s.base, boxes, false, s.stack)
  const { lat, lng } = s.keys
  if (wordLeads(s.postings.ready, wordPlan, candidates + s.delta.size)) {
    s.postings.eachCandidate(wordPlan.source.terms, (key) => {
      if (inBoxes(boxes, lng[key]!, lat[key]!) && filter.passes(key)) visit(key)
    })
    return
  }
  if (candidates > s.keys.live * KEY_ORDER_SHARE) {
    visitKeys(s, boxes, tagPlan === null && wordPlan === null ? null : filter, visit)
    return
  }
  const groups = columnGroups(base, tagPlan, wordPlan)
  const { live, key, cols, termStart } = base
  const { found, count } = s.boxRuns
  const { pool } = s.terms
  const prefixBits = s.prefixes.bits
  const baseWhole = wordPlan?.baseWhole ?? NO_TERMS
  const checkPrefix = wordPlan !== null && wordPlan.prefixCols === null
  const readTerms = baseWhole.length > 0 || checkPrefix
  const sureCols = prefixSureCols(base, wordPlan)
  for (let i = 0; i < count; i += 2) {
    const lo = found[i]!
    const hi = found[i + 1]!
    for (let w = lo >>> 5; w <= hi >>> 5; w++) {
      let sure = 0
      for (let j = 0; j < sureCols.length; j++) sure |= cols[sureCols[j]! + w]!
      for (let bits = passingBits(cols, groups, w, lo, hi) & live[w]!; bits !== 0; bits &= bits - 1) {
        const at = 32 * w + 31 - Math.clz32(bits & -bits)
        const unsure = checkPrefix && (sure & (1 << (at & 31))) === 0
        if (readTerms && !wordsIn(pool, prefixBits, termStart[at]!, termStart[at + 1]!, baseWhole, unsure)) continue
        visit(key[at]!)
      }
    }
  }
  visitDelta(s, boxes, filter, visit)
}

/** Visits the live keys in the boxes that pass `filter` (a search with typos), the base's by runs. */
export function visitBoxPassing(s: IndexState, boxes: LngLatBox[], filter: Filter, visit: (key: number) => void): void {
  const { base } = s
  const candidates = s.boxRuns.fill(base, boxes, false, s.stack)
  if (candidates > s.keys.live * KEY_ORDER_SHARE) {
    visitKeys(s, boxes, filter, visit)
    return
  }
  const { found, count } = s.boxRuns
  for (let i = 0; i < count; i += 2) {
    for (let at = found[i]!; at <= found[i + 1]!; at++) {
      if (base.dead[at] !== 1 && filter.passes(base.key[at]!)) visit(base.key[at]!)
    }
  }
  visitDelta(s, boxes, filter, visit)
}

/**
 * Above this share of the locations in a box's runs, its matches are visited in key order: the
 * visitor's tables by key (clusters/tree.ts) are then read in order, not at random in kd order.
 */
const KEY_ORDER_SHARE = 0.25

/** Visits every live key in the boxes that passes `filter` (null: every one), in key order. */
function visitKeys(s: IndexState, boxes: LngLatBox[], filter: Filter | null, visit: (key: number) => void): void {
  const { entries, lat, lng } = s.keys
  // The boxes share one band of latitudes; a second box is the far side of the antimeridian.
  const [ax0, y0, ax1, y1] = boxes[0]!
  const [bx0, , bx1] = boxes[1] ?? NO_BOX
  for (let key = 0; key < entries.length; key++) {
    const x = lng[key]!
    const y = lat[key]!
    if (y < y0 || y > y1 || !((x >= ax0 && x <= ax1) || (x >= bx0 && x <= bx1)) || entries[key] === null) continue
    if (filter === null || filter.passes(key)) visit(key)
  }
}

/** Visits the delta's keys in the boxes that pass `filter`. */
function visitDelta(s: IndexState, boxes: LngLatBox[], filter: Filter, visit: (key: number) => void): void {
  const { lat, lng } = s.keys
  for (const keys of s.delta.near(boxes)) {
    for (const key of keys) if (inBoxes(boxes, lng[key]!, lat[key]!) && filter.passes(key)) visit(key)
  }
}
