// A bbox query: the base's positions in the box's lng/lat boxes (exact runs, kd order), tested by
// the columns and the pool as a radius query's are, each hit's distance from the query's point;
// then the delta's keys in the grid cells the boxes touch. A rare word leads as it does there.
import { boxesOf, inBoxes } from '../geo/boxes'
import { kmBetween, RAD } from '../geo/sphere'
import type { IndexState } from '../state'
import type { TagPlan } from '../tags'
import type { IndexQuery } from '../types'
import { offerRuns } from './box-runs'
import { columnGroups, wordLeads, type WordPlan } from './plan'
import { scanDelta } from './radius'
import type { TopK } from './top-k'

const NO_COORDS = new Float64Array(0)

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
  const runs = s.boxRuns
  runs.count = 0
  // Not whole leaves: a run then holds only points in a box, the box's whole test.
  if (base.kd !== null) for (const box of boxes) runs.add(base, box, false, s.stack)
  let candidates = 0
  for (let i = 0; i < runs.count; i += 2) candidates += runs.found[i + 1]! - runs.found[i]! + 1
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
  const circle = s.circle.set(
    lng,
    lat,
    cosLat1,
    Infinity,
    (base.kd?.coords as Float64Array | undefined) ?? NO_COORDS,
    base.cos,
    base.xyz,
  )
  const byDistance = q.sort === 'distance'
  offerRuns(s, circle, columnGroups(base, tagPlan, wordPlan), wordPlan, heap, byDistance, q.sort === 'priority')
  scanDelta(s, lng, lat, Infinity, cosLat1, boxes, heap)
}
