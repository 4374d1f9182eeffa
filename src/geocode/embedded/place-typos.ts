// Names a visitor typed with a typo: the sorted name keys walked as a trie (each node a range of
// keys sharing a prefix), keeping the edit distances of the typed text to each prefix, as the
// Levenshtein automaton does, and cutting a branch once no prefix below it can come close enough.
import type { SortedKeys } from './place-keys'

/** A range of name keys [from, to) that begin with a prefix of `depth` bytes, `edits` edits from the text. */
export type TypoRange = { from: number; to: number; depth: number; edits: number }

/** Trie nodes looked at for one text, at most (a few ms): past it, what was found so far. */
const NODES_MAX = 20_000

/** A distance beyond any `most`: the cells outside a row's band. */
const FAR = 1 << 20

/** What typoRanges finds: ranges of keys by a prefix, and (when asked) of whole keys. */
export type TypoFinds = { prefix: TypoRange[]; whole: TypoRange[] }

/**
 * prefix: the ranges of keys that begin with a prefix at most `most` edits from `p` (a byte
 * added, dropped or changed, or two neighbours swapped: the optimal string alignment distance),
 * each with its fewest edits. A range is not split further unless a longer prefix is closer.
 * whole, when `whole` is asked (else empty): the keys themselves within `most` edits, each range
 * one key's copies. Both come from one walk of the trie.
 * `anchored`: only names whose first byte is the text's (a first letter is seldom mistyped).
 */
export function typoRanges(keys: SortedKeys, p: Uint8Array, most: number, anchored = false, whole = false): TypoFinds {
  const found: TypoFinds = { prefix: [], whole: [] }
  const n = p.length
  // rows[d]: the distances of the text's prefixes (0..n) to the trie node's prefix of d bytes.
  // Only the band |d - j| <= most is made: a cell outside it is more than `most` (a prefix of j
  // bytes is at least |d - j| edits from one of d), and so is never on a path worth keeping. The
  // band of a depth is the same for every node, so the cells outside it stay as first set: FAR,
  // or the anchored first row's true distances, more than `most` too. A row costs 2 * most + 1
  // cells, not n + 1 (PERF-053).
  const rows: Int32Array[] = []
  const rowAt = (d: number) => (rows[d] ??= new Int32Array(n + 1).fill(FAR))
  for (let j = 0; j <= n; j++) rowAt(0)[j] = j
  let nodes = 0
  /**
   * Keeps the node [from, to) of `depth` bytes, `edits` from the text, as a prefix range when the
   * walk for prefixes reaches it (`byPrefix`); returns whether that walk goes below it.
   */
  const keep = (from: number, to: number, depth: number, edits: number, least: number, byPrefix: boolean) => {
    if (edits <= most) {
      if (byPrefix) found.prefix.push({ from, to, depth, edits })
      if (whole) {
        let end = from
        while (end < to && keys.length(end) === depth) end++ // the keys that are the prefix itself come first
        if (end > from) found.whole.push({ from, to: end, depth, edits })
      }
    }
    // Deeper, the whole text is no closer than `least`; a kept range goes deeper only to do better.
    return byPrefix && least <= most && (edits > most || least < edits)
  }
  /** Walks the children of the node [from, to) at `depth`; `last` is the byte before (-1 at the root). */
  const walk = (from: number, to: number, depth: number, last: number, byPrefix: boolean) => {
    const row = rows[depth]!
    const up = depth > 0 ? rows[depth - 1]! : null
    const next = rowAt(depth + 1)
    let i = from
    while (i < to && keys.length(i) === depth) i++ // names that end here have no child
    while (i < to && nodes < NODES_MAX) {
      nodes++
      const b = keys.byteAt(i, depth)
      const end = runEnd(keys, i, to, depth, b)
      next[0] = depth + 1
      let least = next[0]!
      for (let j = Math.max(1, depth + 1 - most), hi = Math.min(n, depth + 1 + most); j <= hi; j++) {
        let d = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (p[j - 1] === b ? 0 : 1))
        if (up !== null && j > 1 && p[j - 1] === last && p[j - 2] === b) d = Math.min(d, up[j - 2]! + 1)
        next[j] = d
        if (d < least) least = d
      }
      const below = keep(i, end, depth + 1, next[n]!, least, byPrefix)
      if (below || (whole && least <= most)) walk(i, end, depth + 1, b, below)
      i = end
    }
  }
  if (!anchored) walk(0, keys.size, 0, -1, true)
  else if (n > 0) {
    // The first byte as typed: the node of that byte alone, its row made as walk() makes a child's.
    const first = rowAt(1)
    first[0] = 1
    for (let j = 1; j <= n; j++) first[j] = Math.min(j + 1, first[j - 1]! + 1, j - 1 + (p[j - 1] === p[0] ? 0 : 1))
    const [from, to] = keys.range(p.subarray(0, 1))
    const least = Math.min(...first)
    if (to > from) {
      const below = keep(from, to, 1, first[n]!, least, true)
      if (below || (whole && least <= most)) walk(from, to, 1, p[0]!, below)
    }
  }
  return found
}

/** The end of the run of keys from `i` (below `to`) whose byte at `depth` is `b`: they share the bytes before it. */
function runEnd(keys: SortedKeys, i: number, to: number, depth: number, b: number): number {
  let lo = i + 1
  let hi = to
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (keys.byteAt(mid, depth) <= b) lo = mid + 1
    else hi = mid
  }
  return lo
}
