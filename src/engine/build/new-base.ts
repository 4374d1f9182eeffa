// A new base under construction (a compaction's Build): a snapshot of the live keys and their
// points, their KDBush, the new tables filled position by position in kd order, then swapped in.
// A key written after the build began (`dirty`) is dead in the new base and stays in the delta,
// whatever the build copied of it.
import { ensure, fit, widen } from '../arrays'
import { sigBit } from '../columns'
import type { KdTree } from '../geo/kd-build'
import { unitVector } from '../geo/sphere'
import type { IndexState } from '../state'
import type { PrefixScan } from '../text/prefix-columns'
import { POOL_SLACK_MIN, PREFIX_COLUMN_LENGTH, SIG_BITS } from '../tuning'

export type Build = {
  /** The keys that existed when the build began (0..scanTo-1); how far the scan is; the live keys found so far. */
  scanTo: number
  scanned: number
  found: number
  /** The live keys of the snapshot and their points (the first `found`; cut to size once scanned); the KDBush's items are indexes here. */
  keys: Int32Array<ArrayBuffer>
  coords: Float64Array<ArrayBuffer>
  /** Whether the KDBush was asked for; the KDBush and its nodes' boxes, once sorted. */
  sorting: boolean
  tree: KdTree | null
  /** Whether the tables below were made (makeTables). */
  tabled: boolean
  /** Keys upserted or removed since the snapshot. */
  dirty: Set<number>
  /** Positions filled so far (kd order). */
  filled: number
  baseKey: Int32Array<ArrayBuffer>
  baseCos: Float64Array<ArrayBuffer>
  baseXyz: Float32Array<ArrayBuffer>
  /** Tags known when the tables were made: one column each (columns.ts). */
  tagCount: number
  /** Per term known when the columns were found: its term column (columns.ts: termColumns). */
  termCol: Int32Array<ArrayBuffer>
  /** The prefix columns (null until found) and, per term known then, those of its prefixes (PrefixScan). */
  prefixCol: Map<string, number> | null
  termPrefixCols: Int32Array<ArrayBuffer>
  /** How many term columns; the scan for prefix columns under way. */
  termColCount: number
  prefixScan: PrefixScan | null
  cols: Int32Array<ArrayBuffer>
  /** The new term pool, in kd order, and where each position's terms start (one more for the end). */
  pool: Int32Array<ArrayBuffer>
  poolUsed: number
  termStarts: Int32Array<ArrayBuffer>
  /** Per key of the snapshot, as the swap will make them: its position in the new base (or -1), its terms' start in the new pool. */
  basePos: Int32Array<ArrayBuffer>
  termStart: Int32Array<ArrayBuffer>
}

/** A new build over the keys that exist now. */
export function newBuild(scanTo: number): Build {
  return {
    scanTo,
    scanned: 0,
    found: 0,
    keys: new Int32Array(0),
    coords: new Float64Array(0),
    sorting: false,
    tree: null,
    tabled: false,
    dirty: new Set(),
    filled: 0,
    baseKey: new Int32Array(0),
    baseCos: new Float64Array(0),
    baseXyz: new Float32Array(0),
    tagCount: 0,
    termCol: new Int32Array(0),
    prefixCol: null,
    termPrefixCols: new Int32Array(0),
    termColCount: 0,
    prefixScan: null,
    cols: new Int32Array(0),
    pool: new Int32Array(0),
    poolUsed: 0,
    termStarts: new Int32Array(0),
    basePos: new Int32Array(0),
    termStart: new Int32Array(0),
  }
}

/**
 * Takes the live keys among the next entries, up to `to`, into the snapshot, each with its point
 * as it is now. A key scanned and then written, or written and then scanned, is dirty either way;
 * keys made after the build began lie beyond the range, and are dirty too.
 */
export function scanKeys(s: IndexState, b: Build, to: number): void {
  const end = Math.min(to, b.scanTo)
  // Room for every key of the range, cut to the live ones at the end: no array grown key by key.
  if (b.scanned === 0) {
    b.keys = new Int32Array(b.scanTo)
    b.coords = new Float64Array(2 * b.scanTo)
  }
  const { entries, lng, lat } = s.keys
  const { keys, coords } = b
  let n = b.found
  for (let key = b.scanned; key < end; key++) {
    if (entries[key] === null) continue
    keys[n] = key
    coords[2 * n] = lng[key]!
    coords[2 * n + 1] = lat[key]!
    n++
  }
  b.found = n
  b.scanned = end
  if (end < b.scanTo) return
  b.keys = fit(keys, n)
  b.coords = fit(coords, 2 * n)
}

/** Makes the new base's tables for the snapshot's keys, empty, to be filled (fillPositions). */
export function makeTables(s: IndexState, b: Build): void {
  const n = b.keys.length
  b.tagCount = s.tags.names.length
  b.baseKey = new Int32Array(n)
  b.baseCos = new Float64Array(n)
  b.baseXyz = new Float32Array(3 * n)
  // The last column is the open column, filled at the swap (OpenNow.fillColumn).
  b.cols = new Int32Array((b.tagCount + 1 + SIG_BITS + b.termColCount + b.prefixCol!.size + 1) * ((n + 31) >>> 5))
  // Room for the live terms, and for those of keys written during the build (moved in at the
  // swap): growing a large pool in one step blocks.
  const live = s.terms.used - s.terms.garbage
  b.pool = new Int32Array(live + Math.max(POOL_SLACK_MIN, live >> 4))
  b.termStarts = new Int32Array(n + 1)
  b.basePos = new Int32Array(b.scanTo).fill(-1)
  b.termStart = new Int32Array(b.scanTo)
  b.tabled = true
}

/**
 * Fills the new base's positions up to `to` (kd order): key, cos(lat), tags and words, copied
 * from the key's current state. A key written later is dirty: what was copied for it is unused.
 */
export function fillPositions(s: IndexState, b: Build, to: number): void {
  const { ids } = b.tree!.kd
  const { keys, baseKey, basePos, baseCos, baseXyz, cols, termCol, termPrefixCols, termStarts, termStart, tagCount } = b
  const { cosLat, lng, lat } = s.keys
  const { bits: tagBits, words: W } = s.tags
  const { pool: terms, start: keyStart, count: keyCount } = s.terms
  const end = Math.min(to, keys.length)
  // A tag made after the tables was linked by a write, so a key that has one is dirty: not copied.
  const colWords = (keys.length + 31) >>> 5
  const sig = (tagCount + 1) * colWords
  const termCols = (tagCount + 1 + SIG_BITS) * colWords
  let pool = b.pool
  let used = b.poolUsed
  for (let at = b.filled; at < end; at++) {
    const key = keys[ids[at]!]!
    const word = at >>> 5
    const bit = 1 << (at & 31)
    baseKey[at] = key
    basePos[key] = at
    baseCos[at] = cosLat[key]!
    unitVector(lng[key]!, cosLat[key]!, lat[key]!, baseXyz, 3 * at)
    for (let w = 0; w < W; w++) {
      for (let bits = tagBits[key * W + w]! | 0; bits !== 0; bits &= bits - 1) {
        const tag = 32 * w + 31 - Math.clz32(bits & -bits)
        if (tag < tagCount) cols[tag * colWords + word]! |= bit
      }
    }
    const from = keyStart[key]!
    const count = keyCount[key]!
    pool = ensure(pool, used + count)
    // The terms copied one by one as they are read, not through a view of each.
    for (let i = 0; i < count; i++) {
      const t = terms[from + i]!
      pool[used + i] = t
      cols[sig + sigBit(t) * colWords + word]! |= bit
      // A term made after the columns were found is in no column (and its location, written since, is dirty).
      if (t >= termCol.length) continue
      const c = termCol[t]!
      if (c >= 0) cols[termCols + c * colWords + word]! |= bit
      for (let k = PREFIX_COLUMN_LENGTH * t, last = k + PREFIX_COLUMN_LENGTH; k < last; k++) {
        const p = termPrefixCols[k]!
        if (p < 0) break
        cols[termCols + p * colWords + word]! |= bit
      }
    }
    termStarts[at] = used
    termStart[key] = used
    used += count
  }
  b.pool = pool
  b.poolUsed = used
  b.filled = end
  if (end === keys.length) termStarts[end] = used
}

/**
 * The new base replaces the old, in work proportional to the keys written during the build and
 * the delta (the per-key tables were made as the positions were filled): dirty keys are dead in
 * it and keep their points in the delta, their words moved to the new pool; clean keys leave the
 * delta.
 */
export function swapIn(s: IndexState, b: Build): void {
  const { base, terms } = s
  const n = b.keys.length
  // Keys made during the build lie beyond the snapshot's tables: widened, they are not in the base.
  const basePos = widen(b.basePos, base.pos.length, -1)
  const termStart = widen(b.termStart, terms.start.length, 0)
  const dead = new Uint8Array(n)
  // Bits past the last position are never read: countPassing keeps to lo..hi.
  const live = new Int32Array((n + 31) >>> 5).fill(-1)
  const deadTree = new Int32Array(n + 1)
  let deadCount = 0
  let garbage = 0
  let pool = b.pool
  let used = b.poolUsed
  for (const key of b.dirty) {
    const at = basePos[key]!
    if (at !== -1) {
      dead[at] = 1
      live[at >>> 5]! &= ~(1 << (at & 31))
      b.baseXyz.fill(NaN, 3 * at, 3 * at + 3)
      for (let i = at + 1; i <= n; i += i & -i) deadTree[i]!++
      deadCount++
      garbage += b.termStarts[at + 1]! - b.termStarts[at]!
      basePos[key] = -1
    }
    const count = terms.count[key]!
    if (s.keys.entries[key] === null || count === 0) continue
    const from = terms.start[key]!
    pool = ensure(pool, used + count)
    pool.set(terms.pool.subarray(from, from + count), used)
    termStart[key] = used
    used += count
  }
  // What is left in the base is clean: out of the delta. The delta keeps its dirty keys only: when
  // those are few (a build of a whole index, in the background), it is cleared and they are put back.
  if (s.delta.size > 2 * b.dirty.size) {
    const kept = [...b.dirty].filter((key) => s.delta.has(key))
    s.delta.clear()
    for (const key of kept) s.delta.set(key, s.keys.lng[key]!, s.keys.lat[key]!)
  } else for (const key of [...s.delta.keys]) if (basePos[key] !== -1) s.delta.delete(key)
  terms.start = termStart
  terms.pool = pool
  terms.used = used
  terms.garbage = garbage
  base.pos = basePos
  base.kd = n === 0 ? null : b.tree!.kd
  base.key = b.baseKey
  base.cos = b.baseCos
  base.xyz = b.baseXyz
  base.nodeBox = b.tree!.boxes
  base.cols = b.cols
  base.colTags = b.tagCount
  base.termCol = b.termCol
  base.prefixCol = b.prefixCol!
  base.colWords = (n + 31) >>> 5
  base.openCol = b.cols.length - base.colWords
  base.termStart = b.termStarts
  base.dead = dead
  base.live = live
  base.builtAt = performance.now()
  base.deadTree = deadTree
  base.deadCount = deadCount
  s.open.fillColumn()
}
