// A radius query: the plan chosen by what it asks (tags, words, order), the base's part by one of
// the kd walks, then the delta's keys in the grid cells the circle's boxes touch.
import { boxesAround, type LngLatBox, NO_BOX } from '../geo/boxes'
import type { Circle } from '../geo/circle'
import { kmBetween, RAD } from '../geo/sphere'
import type { IndexState } from '../state'
import type { TagPlan } from '../tags'
import type { IndexQuery } from '../types'
import { offerRuns } from './box-runs'
import { nearestByColumns, rankedByColumns } from './circle-runs'
import { columnGroups, wordLeads, type WordPlan } from './plan'
import type { TopK } from './top-k'

const NO_COORDS = new Float64Array(0)

/** The state's circle of r km around (lng, lat) (cosLat: its cosine), over the base's points; Infinity km holds them all. */
export const circleOver = (s: IndexState, lng: number, lat: number, cosLat: number, r: number): Circle =>
  s.circle.set(
    lng,
    lat,
    cosLat,
    r,
    (s.base.kd?.coords as Float64Array | undefined) ?? NO_COORDS,
    s.base.cos,
    s.base.xyz,
  )

/** Answers a radius query into the heap (its count in heap.total). */
export function radiusQuery(
  s: IndexState,
  q: IndexQuery,
  tagPlan: TagPlan | null,
  wordPlan: WordPlan | null,
  heap: TopK,
  byRankMin: number,
): void {
  const { base, keys } = s
  const { lat, lng } = q.center!
  const r = q.radiusKm
  const cosLat1 = Math.cos(lat * RAD)
  // The boxes that hold the circle (lng, lat order), for the base and the delta alike.
  const boxes = boxesAround(lng, lat, r)
  const circle = circleOver(s, lng, lat, cosLat1, r)
  const byDistance = q.sort === 'distance'
  const byPriority = q.sort === 'priority'
  const plain = tagPlan === null && wordPlan === null
  if (byDistance && plain) {
    // Nothing to check per location: the base counts whole kd nodes inside the circle and
    // visits points only where they may be among the nearest.
    if (base.kd !== null) heap.total += s.nearest.run(base, circle.chords().boxes(boxes), heap, s.stack)
    scanDelta(s, lng, lat, r, cosLat1, boxes, heap)
    return
  }
  if (
    (byDistance || (byPriority && !plain)) &&
    (wordPlan === null || (wordPlan.baseWhole.length === 0 && wordPlan.prefixCols !== null))
  ) {
    // Tags, and words their columns decide: the base's runs nearest first (circle-runs.ts).
    if (base.kd !== null) {
      const groups = columnGroups(base, tagPlan, wordPlan)
      circle.chords().boxes(boxes)
      if (byPriority) rankedByColumns(base, circle, groups, heap, keys.rankOf, s.runs, s.stack)
      else nearestByColumns(base, circle, groups, heap, s.runs, s.stack)
    }
    scanDelta(s, lng, lat, r, cosLat1, boxes, heap)
    return
  }
  // Base candidates: runs of positions in the boxes (with one box, whole leaves: each point's
  // distance is tested anyway).
  const candidates = s.boxRuns.fill(base, boxes, boxes.length === 1, s.stack)
  if (byPriority && plain && candidates > byRankMin) {
    // By priority alone, many points in the boxes: the circle counted as for the nearest (with a
    // worst of 0 km it walks no node for a heap), then the best by rank found best first.
    circle.chords().boxes(boxes)
    heap.total += s.nearest.run(base, circle, null, s.stack)
    s.byRank.run(base, circle, heap, keys.rankOf, s.queue)
    scanDelta(s, lng, lat, r, cosLat1, boxes, heap)
    return
  }
  if (wordLeads(s.postings.ready, wordPlan, candidates + s.delta.size)) {
    const { lat: lats, lng: lngs, cosLat } = keys
    s.postings.eachCandidate(wordPlan.source.terms, (key) => {
      const d = kmBetween(lng, lat, cosLat1, lngs[key]!, lats[key]!, cosLat[key]!)
      if (d <= r) heap.offer(key, d)
    })
    return
  }
  offerRuns(s, circle, columnGroups(base, tagPlan, wordPlan), wordPlan, heap, byDistance, byPriority)
  scanDelta(s, lng, lat, r, cosLat1, boxes, heap)
}

/** Offers the delta's points within r km: those in the grid cells the boxes touch, a box test first, then the distance. */
export function scanDelta(
  s: IndexState,
  lng: number,
  lat: number,
  r: number,
  cosLat1: number,
  boxes: LngLatBox[],
  heap: TopK,
): void {
  const { lat: lats, lng: lngs, cosLat } = s.keys
  // The boxes share one band of latitudes; a second box is the far side of the antimeridian.
  const [ax0, y0, ax1, y1] = boxes[0]!
  const [bx0, , bx1] = boxes[1] ?? NO_BOX
  for (const keys of s.delta.near(boxes)) {
    for (const key of keys) {
      const y = lats[key]!
      const x = lngs[key]!
      if (y < y0 || y > y1 || !((x >= ax0 && x <= ax1) || (x >= bx0 && x <= bx1))) continue
      const d = kmBetween(lng, lat, cosLat1, x, y, cosLat[key]!)
      if (d <= r) heap.offer(key, d)
    }
  }
}
