// Everything by priority (all=true&sort=priority: rank, then name and id): each rank's matches
// counted, rank by rank until the page's end, from the base's rank columns (32 positions at a
// time) and the delta's keys, which places every rank's first match in the answer; then the kept
// name order walked for the page, each match of a rank the page reaches put at its rank's next
// place. Linear, with no comparison of names.
import { popcount } from '../arrays'
import type { IndexState } from '../state'
import { NAME_STEP_NS, RANK_MATCH_NS, RANK_WORD_NS } from '../tuning'
import type { IndexHit, IndexQuery, IndexResult } from '../types'
import { isMatch, type Matches } from './matches'
import { pageByRank } from './name-pages'

/** The page by rank, then name; `marked` null: every live location matches. */
export function inRankThenNameOrder(s: IndexState, q: IndexQuery, marked: Matches | null): IndexResult {
  const order = s.nameOrder!
  const { keys, base } = s
  const { rankOf } = keys
  const basePos = base.pos
  const keep = q.offset + q.limit
  const total = marked === null ? order.length : marked.count
  // Per rank reached before the page's end, where its next match goes in the whole answer; -1
  // for a rank wholly before the page. Ranks past the page's end are not counted.
  const next = rankStarts(s, marked, q.offset, keep)
  const n = Math.max(0, Math.min(keep, total) - q.offset)
  const hits = new Array<IndexHit>(n)
  if (n === 0) return { total, hits }
  // As inNameOrder: a walk that passes more keys than ranking each priority rank's matches the
  // page reaches would cost stops, and they are chosen by name rank, rank after rank.
  const starts = next.slice()
  const budget =
    marked === null
      ? Infinity
      : (starts.length * base.colWords * RANK_WORD_NS + marked.count * RANK_MATCH_NS) / NAME_STEP_NS
  let passed = 0
  let placed = 0
  for (const chunk of order.chunks) {
    if (passed > budget) {
      // Each rank's part of the page, in rank order: n in all (rankStarts stopped at the page's end).
      const page: IndexHit[] = []
      for (let rank = 0; rank < starts.length; rank++) {
        const start = starts[rank]!
        if (start !== -1) page.push(...pageByRank(s, marked!, Math.max(0, q.offset - start), keep - start, rank))
      }
      return { total, hits: page }
    }
    passed += chunk.length
    for (const key of chunk) {
      const rank = rankOf[key]!
      if (rank >= next.length || next[rank] === -1 || (marked !== null && !isMatch(marked, basePos, key))) continue
      const at = next[rank]!++
      if (at < q.offset || at >= keep) continue
      hits[at - q.offset] = keys.hit(key, null)
      if (++placed === n) return { total, hits }
    }
  }
  return { total, hits }
}

/**
 * Per rank from the best, where its first match goes in the whole answer (the matches of the
 * ranks before it), -1 for a rank whose matches all lie before `offset`; it stops at the first
 * rank that starts at or after `keep`.
 */
function rankStarts(s: IndexState, marked: Matches | null, offset: number, keep: number): number[] {
  const { base } = s
  const { rankOf } = s.keys
  const { cols, ranks } = base.rankColumns(rankOf)
  const W = base.colWords
  const inDelta: number[] = []
  for (const key of s.delta.keys) {
    if (marked !== null && !isMatch(marked, base.pos, key)) continue
    const rank = rankOf[key]!
    while (inDelta.length <= rank) inDelta.push(0)
    inDelta[rank]!++
  }
  const next: number[] = []
  let start = 0
  for (let rank = 0; rank < Math.max(ranks, inDelta.length) && start < keep; rank++) {
    let count = inDelta[rank] ?? 0
    if (rank < ranks) {
      const o = rank * W
      if (marked === null) for (let w = 0; w < W; w++) count += popcount(cols[o + w]!)
      else {
        const { pos } = marked
        for (let w = 0; w < W; w++) {
          const m = pos[w]!
          if (m !== 0) count += popcount(m & cols[o + w]!)
        }
      }
    }
    next.push(start + count > offset ? start : -1)
    start += count
  }
  return next
}
