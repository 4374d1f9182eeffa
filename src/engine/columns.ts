// The base's bit columns, one bit per base position (kd order), `colWords` 32-bit words a column,
// so a query's tags and words are tested 32 positions at a time. In order: a column per tag known
// when the base was built, one of zeros for the tags made since, SIG_BITS signature columns, then
// the common terms' own (termColumns), then the prefixes' (text/prefix-columns.ts). A changed
// location leaves the base, so the columns never go stale.
//
// A query's tags and words over the columns are groups of column offsets: a position passes when
// it has a column of every group (OR within a group, AND across).
import { popcount } from './arrays'
import { MAX_TERM_COLUMNS, SIG_BITS, TERM_COLUMN_SHARE } from './tuning'

/** Per term id, in a base's termCol: no location of the base has the term (-1: some may, no column). */
export const NOT_IN_BASE = -2

/** Offset in the columns of tag `id`'s column; a tag made since the base was built has the column of zeros. */
export function tagColumn(colTags: number, colWords: number, id: number): number {
  return Math.min(id, colTags) * colWords
}

/** Offset of signature bit `bit`'s column. */
export function sigColumn(colTags: number, colWords: number, bit: number): number {
  return (colTags + 1 + bit) * colWords
}

/** Offset of term (or prefix) column `c` (termColumns', then the prefixes'). */
export function termColumn(colTags: number, colWords: number, c: number): number {
  return (colTags + 1 + SIG_BITS + c) * colWords
}

/**
 * Word signatures: a base position has SIG_BITS bits, one set per term of its text (at sigBit),
 * so a query reads a location's terms only when its signature has the query's whole words' bits
 * and one of its prefix's (PERF-003).
 */
export function sigBit(t: number): number {
  return Math.imul(t, 0x9e3779b1) >>> 25
}

/** The distinct signature bits of the terms. */
export function sigBits(terms: Iterable<number>): number[] {
  return [...new Set(Array.from(terms, sigBit))]
}

/**
 * Term columns: a term in at least 1/TERM_COLUMN_SHARE of the base's locations gets a column of
 * its own, exact; at most MAX_TERM_COLUMNS, the commonest. Writes per term id known at a build's
 * scan its column (0..), -1 without one, or NOT_IN_BASE when no live location had it (a location
 * written later has left the base). Returns the number of columns.
 */
export function termColumns(df: Int32Array, terms: number, live: number, out: Int32Array): number {
  const common: number[] = []
  for (let t = 0; t < terms; t++) {
    out[t] = df[t] === 0 ? NOT_IN_BASE : -1
    if (df[t]! > 0 && df[t]! * TERM_COLUMN_SHARE >= live) common.push(t)
  }
  if (common.length > MAX_TERM_COLUMNS) common.sort((a, b) => df[b]! - df[a]! || a - b).length = MAX_TERM_COLUMNS
  common.forEach((t, c) => {
    out[t] = c
  })
  return common.length
}

/** The positions of column word w (32 positions) within lo..hi that pass column groups, as the word's bits. */
export function passingBits(cols: Int32Array, groups: Int32Array[], w: number, lo: number, hi: number): number {
  let bits = -1
  for (let g = 0; g < groups.length; g++) {
    const offsets = groups[g]!
    let some = 0
    for (let j = 0; j < offsets.length; j++) some |= cols[offsets[j]! + w]!
    bits &= some
    if (bits === 0) return 0
  }
  if (w === lo >>> 5) bits &= -1 << (lo & 31)
  if (w === hi >>> 5) bits &= -1 >>> (31 - (hi & 31))
  return bits
}

/**
 * How many positions of lo..hi pass column groups, in `acc` and `some` (at least as long as the
 * run's words): column by column over the run's words, not group by group per word as
 * passingBits goes, which costs more than the loads (PERF-006). `live` (Base.live), when given,
 * takes the dead positions out; `acc` is left holding the passing positions' bits.
 */
export function countPassing(
  cols: Int32Array,
  groups: Int32Array[],
  lo: number,
  hi: number,
  acc: Int32Array,
  some: Int32Array,
  live: Int32Array | null = null,
): number {
  const w0 = lo >>> 5
  const n = (hi >>> 5) - w0 + 1
  if (groups.length === 0) acc.fill(-1, 0, n)
  for (let g = 0; g < groups.length; g++) {
    const offsets = groups[g]!
    const a = offsets[0]! + w0
    if (offsets.length === 1) {
      if (g === 0) for (let k = 0; k < n; k++) acc[k] = cols[a + k]!
      else for (let k = 0; k < n; k++) acc[k]! &= cols[a + k]!
      continue
    }
    const b = offsets[1]! + w0
    for (let k = 0; k < n; k++) some[k] = cols[a + k]! | cols[b + k]!
    for (let j = 2; j < offsets.length; j++) {
      const c = offsets[j]! + w0
      for (let k = 0; k < n; k++) some[k]! |= cols[c + k]!
    }
    if (g === 0) for (let k = 0; k < n; k++) acc[k] = some[k]!
    else for (let k = 0; k < n; k++) acc[k]! &= some[k]!
  }
  acc[0]! &= -1 << (lo & 31)
  acc[n - 1]! &= -1 >>> (31 - (hi & 31))
  let count = 0
  if (live === null) for (let k = 0; k < n; k++) count += popcount(acc[k]!)
  else for (let k = 0; k < n; k++) count += popcount((acc[k]! &= live[w0 + k]!))
  return count
}
