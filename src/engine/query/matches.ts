// The locations that pass a query's tags and words, marked for the pages that walk the name order:
// the base's by position, 32 at a time by its columns; the delta's (and a word-led query's
// candidates) one by one, by key.
import { ensure, popcount } from '../arrays'
import { countPassing, passingBits } from '../columns'
import type { IndexState } from '../state'
import type { TagPlan } from '../tags'
import { wordsIn } from '../text/term-pool'
import { columnGroups, type KeyFilter, NO_TERMS, prefixSureCols, type WordPlan } from './plan'

/** The matches of a query's tags and words: the base's by position (`pos`), the delta's by key (`bits`), and how many. */
export type Matches = { bits: Int32Array; pos: Int32Array; count: number }

/** The bits of the latest Matches, kept between queries. */
export class MatchMarks {
  bits = new Int32Array(0)
  pos = new Int32Array(0)
  /** countPassing's scratch. */
  some = new Int32Array(64)
}

/** Whether `key` is among the matches: by its base position's bit, or (not in the base) its key's. */
export function isMatch(m: Matches, basePos: Int32Array, key: number): boolean {
  const at = basePos[key]!
  return at === -1 ? (m.bits[key >>> 5]! & (1 << (key & 31))) !== 0 : (m.pos[at >>> 5]! & (1 << (at & 31))) !== 0
}

/** The marks, cleared, with room for every key and base position. */
export function cleared(s: IndexState): MatchMarks {
  const marks = s.marks
  marks.bits = ensure(marks.bits, (s.keys.entries.length + 31) >>> 5)
  marks.pos = ensure(marks.pos, s.base.colWords)
  marks.bits.fill(0)
  return marks
}

/** The candidates of a word-led query that pass its tags and words, as Matches. */
export function markCandidates(s: IndexState, keys: number[], filter: KeyFilter): Matches {
  const { bits, pos } = cleared(s)
  pos.fill(0)
  return { bits, pos, count: markPassing(s.base.pos, keys, filter, bits, pos) }
}

/** Marks the keys that pass a filter (by base position, or by key if not in the base); returns how many. A key given twice is marked and counted once. */
function markPassing(
  basePos: Int32Array,
  keys: Iterable<number>,
  filter: KeyFilter,
  bits: Int32Array,
  pos: Int32Array,
): number {
  let count = 0
  for (const key of keys) {
    const at = basePos[key]!
    const marks = at === -1 ? bits : pos
    const i = at === -1 ? key : at
    const bit = 1 << (i & 31)
    if ((marks[i >>> 5]! & bit) !== 0) continue
    if (!filter.passes(key)) continue
    marks[i >>> 5]! |= bit
    count++
  }
  return count
}

/**
 * The live keys that pass a query's tags and words (in MatchMarks, until the next query): the
 * base's positions 32 at a time by its columns, as a radius query tests them, the pool read in kd
 * order only for the words they leave undecided; then the delta's keys one by one.
 */
export function markMatches(
  s: IndexState,
  tagPlan: TagPlan | null,
  wordPlan: WordPlan | null,
  filter: KeyFilter,
): Matches {
  const marks = cleared(s)
  const { bits, pos } = marks
  const { base } = s
  const { dead, cols } = base
  const n = base.size
  const groups = columnGroups(base, tagPlan, wordPlan)
  const baseWhole = wordPlan?.baseWhole ?? NO_TERMS
  const checkPrefix = wordPlan !== null && wordPlan.prefixCols === null
  let count = 0
  if (baseWhole.length === 0 && !checkPrefix) {
    // The columns decide every position: column by column over all the words, the dead taken
    // out by Base.live (PERF-030).
    marks.some = ensure(marks.some, base.colWords)
    count = n === 0 ? 0 : countPassing(cols, groups, 0, n - 1, pos, marks.some, base.deadCount === 0 ? null : base.live)
  } else {
    const sureCols = prefixSureCols(base, wordPlan)
    const { pool } = s.terms
    const prefixBits = s.prefixes.bits
    const termStart = base.termStart
    for (let w = 0; w < base.colWords; w++) {
      let passing = passingBits(cols, groups, w, 0, n - 1)
      let sure = 0
      for (let j = 0; j < sureCols.length; j++) sure |= cols[sureCols[j]! + w]!
      for (let b = passing; b !== 0; b &= b - 1) {
        const at = 32 * w + 31 - Math.clz32(b & -b)
        if (
          dead[at] === 1 ||
          !wordsIn(
            pool,
            prefixBits,
            termStart[at]!,
            termStart[at + 1]!,
            baseWhole,
            checkPrefix && (sure & (1 << (at & 31))) === 0,
          )
        ) {
          passing &= ~(1 << (at & 31))
        }
      }
      pos[w] = passing
      count += popcount(passing)
    }
  }
  // A key in the delta has no live base position (its write killed it; a swap takes the clean
  // keys out of the delta), so none is counted twice: each is marked by key.
  count += markPassing(base.pos, s.delta.keys, filter, bits, pos)
  return { bits, pos, count }
}
