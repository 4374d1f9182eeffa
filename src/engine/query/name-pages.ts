// Everything by name (all=true&sort=name): the kept name order walked to the page; or, when the
// walk would pass more keys than ranking the matches costs, the page chosen by the base's name
// ranks (pageByRank), in work proportional to the matches, not to where in the order they begin.
import { ensure } from '../arrays'
import type { IndexState } from '../state'
import { NAME_STEP_NS, RANK_MATCH_NS, RANK_WORD_NS } from '../tuning'
import type { IndexHit, IndexQuery, IndexResult } from '../types'
import { isMatch, type Matches } from './matches'

/** pageByRank's heap of name ranks, kept between queries. */
export class RankHeap {
  ranks = new Int32Array(64)
}

/** Everything by name: the page is the matches (null: every live location) at offset.., the total all of them. */
export function inNameOrder(s: IndexState, q: IndexQuery, matches: Matches | null): IndexResult {
  const order = s.nameOrder!
  const { keys } = s
  const keep = q.offset + q.limit
  if (matches === null) {
    return { total: order.length, hits: order.slice(q.offset, keep).map((key) => keys.hit(key, null)) }
  }
  // The matches are counted already: the walk stops at the page's end.
  const { count } = matches
  const basePos = s.base.pos
  const hits: IndexHit[] = []
  let seen = 0
  if (count > q.offset && q.limit > 0) {
    const budget = (s.base.colWords * RANK_WORD_NS + count * RANK_MATCH_NS) / NAME_STEP_NS
    let passed = 0
    walk: for (const chunk of order.chunks) {
      if (passed > budget) return { total: count, hits: pageByRank(s, matches, q.offset, keep) }
      passed += chunk.length
      for (const key of chunk) {
        if (!isMatch(matches, basePos, key)) continue
        if (seen >= q.offset) hits.push(keys.hit(key, null))
        if (++seen === keep) break walk
      }
    }
  }
  return { total: count, hits }
}

/**
 * The matches at offset..keep in name order (of priority rank `priority` only, if not -1),
 * chosen by rank: the base's first `keep` by their name ranks (Base.nameRanks), read 32 positions
 * at a time from the matches' bits (and the priority rank's column), in a bounded max-heap of
 * ranks; the delta's matches, sorted by name, merged in.
 */
export function pageByRank(s: IndexState, matches: Matches, offset: number, keep: number, priority = -1): IndexHit[] {
  const { base, keys } = s
  const { ranks, positions } = base.nameRanksFrom(s.nameOrder!)
  const { pos } = matches
  const W = base.colWords
  // The priority rank's column, or none (-1: every match; a rank no base position has: none of the base's).
  const rankCols = priority === -1 ? null : base.rankColumns(keys.rankOf)
  const col = rankCols === null ? -1 : priority < rankCols.ranks ? priority * W : -2
  // No more than there are matches (an offset may be as large as the matches' count).
  const cap = Math.min(keep, matches.count)
  const heap = (s.rankHeap.ranks = ensure(s.rankHeap.ranks, cap))
  let size = 0
  for (let w = 0; w < W && col !== -2; w++) {
    const passing = col === -1 ? pos[w]! : pos[w]! & rankCols!.cols[col + w]!
    for (let bits = passing | 0; bits !== 0; bits &= bits - 1) {
      const rank = ranks[32 * w + 31 - Math.clz32(bits & -bits)]!
      if (size < cap) size = rankUp(heap, size, rank)
      else if (rank < heap[0]!) rankDown(heap, size, rank)
    }
  }
  // Sorted where they are: the heap is scratch.
  const first = heap.subarray(0, size).sort()
  const { key: baseKey, pos: basePos } = base
  const delta: number[] = []
  for (const key of s.delta.keys)
    if (isMatch(matches, basePos, key) && (priority === -1 || keys.rankOf[key] === priority)) delta.push(key)
  delta.sort((a, b) => keys.byName(a, b))
  const hits: IndexHit[] = []
  for (let i = 0, j = 0, at = 0; at < keep && (i < size || j < delta.length); at++) {
    const fromBase = j === delta.length || (i < size && keys.byName(baseKey[positions[first[i]!]!]!, delta[j]!) < 0)
    const key = fromBase ? baseKey[positions[first[i++]!]!]! : delta[j++]!
    if (at >= offset) hits.push(keys.hit(key, null))
  }
  return hits
}

/** Adds a rank to a max-heap of `size` ranks (the largest on top); returns the new size. */
function rankUp(heap: Int32Array, size: number, rank: number): number {
  let i = size
  while (i > 0 && heap[(i - 1) >> 1]! < rank) {
    heap[i] = heap[(i - 1) >> 1]!
    i = (i - 1) >> 1
  }
  heap[i] = rank
  return size + 1
}

/** Puts a rank in place of the largest of a full max-heap. */
function rankDown(heap: Int32Array, size: number, rank: number): void {
  let i = 0
  for (;;) {
    const l = 2 * i + 1
    if (l >= size) break
    const c = l + 1 < size && heap[l + 1]! > heap[l]! ? l + 1 : l
    if (heap[c]! <= rank) break
    heap[i] = heap[c]!
    i = c
  }
  heap[i] = rank
}
