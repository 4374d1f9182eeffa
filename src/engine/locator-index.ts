// One locator's published locations, in memory. Pure TypeScript: no HTTP, no SQL. Every answer
// equals a naive scan of the docs (test/search/oracle.test.ts proves it).
//
// Each location has a key, a small integer, and every per-location table is an array indexed by key:
// - geography: coordinates in Float64Arrays; a static KDBush base over the keys as they were at the
//   last compaction, plus a delta of keys added or moved since, in half-degree grid cells (a query
//   reads the cells its boxes touch). Compaction (a new base) is scheduled after the write that
//   crosses the bound, never run on a query or a write.
// - tags: one bitset per key over the index's own tag vocabulary.
// - words: each key's distinct term ids, pooled in one Int32Array, and checked on candidates; a
//   sorted vocabulary turns the last word (a prefix) into the set of terms it begins.
// - FlexSearch ('strict': whole words) holds the postings of the rarer terms, for the plan that
//   starts from a word instead of the map when the word is rarer than the map's candidates. It is
//   built in the background after load and is append-only (an update adds the location under a new
//   FlexSearch id; stale ids are skipped and dropped by a background rebuild). No answer depends on
//   it being ready: without it, words are checked on the map's candidates.
// - each location's public JSON, pre-serialized.
import FlexSearch from 'flexsearch'
import KDBush from 'kdbush'
import { redactSecrets } from '../core/ids'
import { nameKey } from '../core/text'
import { ensure, fit } from './arrays'
import { ChunkedOrder } from './chunked-order'
import { buildKd, buildKdInWorker, type KdTree, startKdWorker } from './kd-build'
import { type LngLatBox, PointGrid } from './point-grid'
import { Vocabulary } from './vocabulary'

/** A published location as the index takes it in (src/public/present.ts makes these). */
export type IndexDoc = {
  id: string
  lat: number
  lng: number
  /**
   * Where the public location JSON is kept, pre-serialized (src/public/registry.ts: a slot in the
   * locator's JsonArena); opaque to the index. null until filled in.
   */
  json: number | null
  /** Sort key for sort=name: the folded name. */
  nameSort: string
  /** Priority rank: the index of the first priority rule matched; unmatched: the number of rules. */
  rank: number
  /** Tag values as sent (they match case-insensitively: the index lowercases them). */
  tags: readonly string[]
  /** Searchable text, as searchKey (src/text.ts) makes it: name, address, description, tags. */
  text: string
}

/** What the index keeps of a location besides its tables: what answers and sorting need. */
export type IndexEntry = { id: string; nameSort: string }

export type TagLogic = 'any' | 'all' | 'match'
export type SortOrder = 'distance' | 'name' | 'priority'

export type IndexQuery = {
  /** null: every location (all=true); otherwise a radius query around this point. */
  center: { lat: number; lng: number } | null
  radiusKm: number
  /** Lowercased tag values; empty: no tag filter. */
  tags: string[]
  tagLogic: TagLogic
  /** For tagLogic=match: the filter group of a (lowercased) tag. */
  groupOf: (tag: string) => string
  /** Keyword search as typed; '' or only punctuation: no search. */
  search: string
  sort: SortOrder
  offset: number
  limit: number
}

/**
 * A location of an answer: its key (its entry is entryAt(key) until the next write), its JSON's
 * place (IndexDoc.json; see LocatorIndex.json) as kept now, its distance. The entry is not read
 * for the hit: an answer made from kept JSON needs none (what reading it cost a typical answer at
 * 100k was within bench/pair.ts's noise, ~1%).
 */
export type IndexHit = { key: number; json: number | null; distanceKm: number | null }
export type IndexResult = { total: number; hits: IndexHit[] }

/** Runs index upkeep (compaction, the FlexSearch build) later, off the current write or query. */
export type Schedule = (task: () => void) => void

export type IndexOptions = {
  /** Default: a timer of 0 ms (the next turn of the event loop), unref'd. Tests run tasks at chosen points. */
  schedule?: Schedule
  /** FlexSearch is rebuilt (in the background) when it holds more than max(this, live) stale entries. Default 4096. */
  textGarbageMin?: number
  /** KDBush's points per leaf. Default 64; tests use small ones to get deep trees from few points. */
  nodeSize?: number
  /** Keys per chunk of the name order (src/search/chunked-order.ts). Default 512; tests use small ones. */
  nameChunk?: number
  /** The most base positions a scheduled compaction fills per task (and 4x as many keys it scans), fewer once the task has run STEP_MS. Default 16,384; tests use small ones. */
  compactionSlice?: number
  /** From this many points, a scheduled compaction sorts its KDBush in a worker thread. Default 20,000 (sorted here: ~8 ms; 100,000: ~75 ms). */
  kdWorkerMin?: number
  /** The smallest delta that schedules a compaction (see DELTA_MIN). Tests use small ones. */
  deltaMin?: number
  /** Above this many base points in a circle's boxes, sort=priority alone finds its page best first (BY_RANK_MIN). Tests use 0. */
  byRankMin?: number
}

/** The delta is compacted into a new base when it holds more than max(DELTA_MIN, min(base/10, DELTA_MAX)) keys. */
const DELTA_MIN = 256
const DELTA_MAX = 16_384

/** Terms in at most max(FS_MIN_DF, live/FS_DF_DIVISOR) locations at load go to FlexSearch (new terms always do). */
const FS_MIN_DF = 256
const FS_DF_DIVISOR = 100
/** Locations added to FlexSearch per background task. */
const FS_CHUNK = 2000
/**
 * A scheduled compaction's task does slices of its work until it has run this long (ms), so a
 * request arriving meanwhile waits about this long at most; SLICE base positions a slice (4x as
 * many keys scanned), fewer when compactionSlice is smaller.
 */
const STEP_MS = 4
const SLICE = 256
/**
 * A prefix that begins more terms than this is not used to pick candidates (its words are still
 * checked). Up to 64 until 2026-11-28: a prefix of a few digits ("83": 681 terms at 100k, house
 * numbers and postcodes, in 1.3% of the locations) then had every location's terms read for
 * all=true (3 ms at 100k, ~30 ms at 1M), where FlexSearch gives its 1,335 locations in ~0.3 ms.
 */
const PREFIX_PLAN_TERMS = 1024
/**
 * A word-first plan's cost per term looked up in FlexSearch, in candidates the other plans read:
 * at 100k, 0.27-0.41 µs a term of a digit prefix, against ~0.03 µs a location tested for a word
 * by the all=true scan.
 */
const TERM_LOOKUP_CANDIDATES = 16
/**
 * walkForPage's costs (ns): a candidate put through a heap of the best `keep` (its entry and name
 * read from memory no cache holds, to compare with the heap's worst), and a word of 32 base
 * positions for marking the candidates and walking the name order to the page or choosing it by
 * name rank (the marks cleared, the walk's budget, pageByRank's read of the marks); by priority,
 * rankStarts and each rank's walk and pageByRank besides. Measured with all=true and a word that
 * leads (2026-11-28, offsets 0 to 400): the heap ~150-300 ns a candidate (by priority ~90 ns at
 * offset 0); the walk ~10 µs at 100k and ~70-110 µs at 1M by name, ~150-200 µs at 1M by
 * priority. The rule before (a key the walk passes ~20 ns, live × keep ÷ candidates of them, against
 * 400 ns a candidate) was made before the walk's budget and pageByRank: at 1M it chose the heap up to
 * ~1,000 candidates at offset 0 and ~3,000 at offset 200, where the walk took 75-140 µs against the
 * heap's 200-690 µs.
 */
const HEAP_CANDIDATE_NS = 200
const WALK_WORD_NS = 3
const PRIORITY_WALK_WORD_NS = 7.5
/**
 * inNameOrder's walk against pageByRank: a key the walk passes (~NAME_STEP_NS), against a word
 * of the matches' bits read (~RANK_WORD_NS) and a match ranked (~RANK_MATCH_NS).
 */
const NAME_STEP_NS = 5
const RANK_WORD_NS = 1
const RANK_MATCH_NS = 1

/** geokdbush's Earth radius (km) and degrees-to-radians factor: our distances are its distances. */
const EARTH_RADIUS_KM = 6371
const RAD = Math.PI / 180

/** km per degree of latitude, rounded down so boxes err on the large side. */
const KM_PER_DEGREE = 111

/** Runs a task on the next turn of the event loop, without keeping the process alive for it. */
export const defaultSchedule: Schedule = (task) => {
  const timer = setTimeout(() => {
    try {
      task()
    } catch (e) {
      // Thrown in a timer, it would end the process (every locator's queries with it): logged
      // instead, as every log line is, with anything shaped like a secret key taken out.
      const error = (e as Error)?.message ?? String(e)
      console.error(JSON.stringify({ level: 'error', message: 'a background task failed', error: redactSecrets(error), stack: redactSecrets((e as Error)?.stack ?? '') }))
    }
  }, 0)
  ;(timer as { unref?: () => void }).unref?.()
}

/**
 * Longitude/latitude boxes that hold every point within `km` of (lng, lat): one box, or two when
 * it crosses the antimeridian; the whole band of longitudes near a pole.
 */
export function boxesAround(lng: number, lat: number, km: number): [number, number, number, number][] {
  const dLat = (km / KM_PER_DEGREE) * 1.01
  const minLat = Math.max(-90, lat - dLat)
  const maxLat = Math.min(90, lat + dLat)
  const edge = Math.max(Math.abs(minLat), Math.abs(maxLat))
  if (edge >= 89.9) return [[-180, minLat, 180, maxLat]]
  const dLng = (km / (KM_PER_DEGREE * Math.cos((edge * Math.PI) / 180))) * 1.01
  if (dLng >= 180) return [[-180, minLat, 180, maxLat]]
  const minLng = lng - dLng
  const maxLng = lng + dLng
  if (minLng < -180) return [[minLng + 360, minLat, 180, maxLat], [-180, minLat, maxLng, maxLat]]
  if (maxLng > 180) return [[minLng, minLat, 180, maxLat], [-180, minLat, maxLng - 360, maxLat]]
  return [[minLng, minLat, maxLng, maxLat]]
}

/** The words of a search, folded; the last is matched as a prefix, the others as whole words. */
export function searchWords(search: string): string[] {
  // No search (most queries): nameKey's regular expressions cost ~0.5 µs on nothing.
  if (search === '') return []
  const folded = nameKey(search)
  return folded === '' ? [] : folded.split(' ')
}

/**
 * sort=priority within a circle, without tags or words: above this many base points in the
 * circle's boxes, byRank finds the page; at or below, every point's distance is taken (the bench
 * locator, route path, old and new code alternating query by query at 100k: above 1024 the
 * typical centres, ~440 points in the circle, were 3-4% slower than with every distance taken;
 * above 2048 within the method's 1-2%, the densest centres 2.3x faster).
 */
const BY_RANK_MIN = 2048

/** Whether (rank a, haversine a) comes strictly before (rank b, haversine b): byRank's queue order. */
function rankedFirst(rankA: number, havA: number, rankB: number, havB: number): boolean {
  return rankA < rankB || (rankA === rankB && havA < havB)
}

/** A `consider` that takes nothing (nearestAndCount only counting). */
const IGNORE_POINT = (_key: number, _km: number): void => {}

/**
 * The order of results over (key, km) pairs: negative when a comes first. Ties are broken by name,
 * then id, so every answer is deterministic.
 */
function orderOf(sort: SortOrder, radius: boolean, entries: (IndexEntry | null)[], rankOf: Int32Array) {
  const byName = (a: number, b: number) => byNameThenId(entries[a]!, entries[b]!)
  if (sort === 'priority') {
    // Rank, then as the query's own order would: nearest first (radius) or by name (all).
    return radius
      ? (a: number, da: number, b: number, db: number) => rankOf[a]! - rankOf[b]! || da - db || byName(a, b)
      : (a: number, _da: number, b: number) => rankOf[a]! - rankOf[b]! || byName(a, b)
  }
  if (sort === 'name' || !radius) return (a: number, _da: number, b: number) => byName(a, b)
  return (a: number, da: number, b: number, db: number) => da - db || byName(a, b)
}

/** An order of (key, km) candidates: negative when a comes first (orderOf). */
type Order = (a: number, da: number, b: number, db: number) => number

/** The matches of a query's tags and words: the base's by position (`pos`), the delta's by key (`bits`), and how many. */
type Matches = { bits: Int32Array; pos: Int32Array; count: number }

/** Whether `key` is among the matches: by its base position's bit, or (not in the base) its key's. */
function isMatch(m: Matches, basePos: Int32Array, key: number): boolean {
  const at = basePos[key]!
  return at === -1 ? (m.bits[key >>> 5]! & (1 << (key & 31))) !== 0 : (m.pos[at >>> 5]! & (1 << (at & 31))) !== 0
}

/**
 * Restores a max-heap of (key, km) pairs in keys/kms[0..size) under `compare` (the worst on top)
 * from position i down. `byKm`: compare is orderOf's distance order, so unequal kms decide
 * without a call.
 */
function siftDown(keys: Int32Array, kms: Float64Array, size: number, i: number, compare: Order, byKm: boolean): void {
  for (;;) {
    const l = 2 * i + 1
    const r = l + 1
    let worst = i
    if (l < size && later(keys, kms, l, worst, compare, byKm)) worst = l
    if (r < size && later(keys, kms, r, worst, compare, byKm)) worst = r
    if (worst === i) return
    swap(keys, kms, i, worst)
    i = worst
  }
}

/** Whether pair i comes after pair j (siftDown's `compare` and `byKm`). */
function later(keys: Int32Array, kms: Float64Array, i: number, j: number, compare: Order, byKm: boolean): boolean {
  const d = kms[i]! - kms[j]!
  return byKm && d !== 0 ? d > 0 : compare(keys[i]!, kms[i]!, keys[j]!, kms[j]!) > 0
}

function swap(keys: Int32Array, kms: Float64Array, i: number, j: number): void {
  const k = keys[i]!
  keys[i] = keys[j]!
  keys[j] = k
  const d = kms[i]!
  kms[i] = kms[j]!
  kms[j] = d
}

/**
 * The positions of column word w (32 positions) within lo..hi that pass column groups (OR within
 * a group, AND across: LocatorIndex.columnGroups), as the word's bits.
 */
function passingBits(cols: Int32Array, groups: Int32Array[], w: number, lo: number, hi: number): number {
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
 * How many positions of lo..hi pass column groups (passingBits' test), in `acc` and `some` (at
 * least as long as the run's words): column by column over the run's words, not group by group
 * per word as passingBits goes: a micro benchmark of 3 columns in 2 groups, ~11 -> ~5 ns a word
 * (a loop over a word's groups and their columns costs more than the loads). Index only, 1M, old
 * and new alternating, 3 passes: 3-tag match at the densest centres 12-14% faster, any 4-8%.
 * `live` (LocatorIndex.baseLive), when given, takes the dead positions out; `acc` is left holding
 * the passing positions' bits (markMatches keeps them).
 */
function countPassing(cols: Int32Array, groups: Int32Array[], lo: number, hi: number, acc: Int32Array, some: Int32Array, live: Int32Array | null = null): number {
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

/** The number of set bits in a 32-bit integer. */
function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24
}

/** Whether the tag bitset at bits[at..at+W) passes a query's tag plan. */
function tagsMatch(bits: Uint32Array, at: number, W: number, plan: TagPlan): boolean {
  if (plan.logic !== 'match') {
    const { mask } = plan
    if (plan.logic === 'any') {
      for (let w = 0; w < W; w++) if ((bits[at + w]! & mask[w]!) !== 0) return true
      return false
    }
    for (let w = 0; w < W; w++) if ((bits[at + w]! & mask[w]!) >>> 0 !== mask[w]) return false
    return true
  }
  for (const mask of plan.groups) {
    let hit = false
    for (let w = 0; w < W && !hit; w++) hit = (bits[at + w]! & mask[w]!) !== 0
    if (!hit) return false
  }
  return true
}

/** `rows` tag bitsets of `from` 32-bit words each, copied into rows of `to` words (the new words 0). */
function widenRows(bits: Uint32Array, rows: number, from: number, to: number): Uint32Array<ArrayBuffer> {
  const out = new Uint32Array(rows * to)
  for (let row = 0; row < rows; row++) for (let w = 0; w < from; w++) out[row * to + w] = bits[row * from + w]!
  return out
}

/**
 * A query's tag plan as a test of one row of W-word bitsets (a key's, or a base position's). With
 * one word per row (at most 32 tags, the usual case) the test is a mask or two, without loops.
 */
function tagTest(plan: TagPlan, W: number): TagTest {
  if (W > 1) return (bits, row) => tagsMatch(bits, row * W, W, plan)
  if (plan.logic !== 'match') {
    const m = plan.mask[0]! | 0
    return plan.logic === 'any' ? (bits, row) => (bits[row]! & m) !== 0 : (bits, row) => (bits[row]! & m) === m
  }
  const masks = plan.groups.map((g) => g[0]! | 0)
  if (masks.length === 2) {
    const [a, b] = masks as [number, number]
    return (bits, row) => (bits[row]! & a) !== 0 && (bits[row]! & b) !== 0
  }
  return (bits, row) => {
    const v = bits[row]!
    for (let g = 0; g < masks.length; g++) if ((v & masks[g]!) === 0) return false
    return true
  }
}

/** km of slack when comparing bounds computed by a different formula from the points' own distance. */
const BOUND_SLACK_KM = 1e-6

/**
 * A lower bound of the haversine of the great-circle distance from (lng, lat) to any point of a
 * lng/lat box (as havBetween's values; kmOfHav makes it km): the smallest latitude gap, the
 * smallest longitude gap (either way round) and the smallest cos(latitude) in the box, each term no
 * larger than for any point inside. Sines and the cosine are taken from below by polynomials
 * (the cosine within 1e-3 near a pole, ~4e-5 at 60°; no trigonometry: index only, 1M, 3 passes
 * of 4000 queries alternating old and new, densest centres 1-5% faster).
 */
function boxLowerBoundHav(lng: number, lat: number, cosLat1: number, minX: number, minY: number, maxX: number, maxY: number): number {
  const dLat = lat < minY ? minY - lat : lat > maxY ? lat - maxY : 0
  let dLng = 0
  if (lng < minX) dLng = Math.min(minX - lng, lng - maxX + 360)
  else if (lng > maxX) dLng = Math.min(minX - lng + 360, lng - maxX)
  const far = Math.max(Math.abs(minY), Math.abs(maxY)) * RAD
  return Math.min(1, sinSquaredBelow(dLat * (RAD / 2)) + cosLat1 * Math.max(0, cosBelow(far)) * sinSquaredBelow(dLng * (RAD / 2)))
}

/**
 * A lower bound of sin²(t) = haverSin(2t) for 0 <= t <= π/2, without a sine: (t - t³/6)². There
 * sin(t) - (t - t³/6) is cos(ξ) t⁵/120 for some ξ in [0, t], not negative, and t - t³/6 >= 0.
 */
function sinSquaredBelow(t: number): number {
  const s = t - (t * t * t) / 6
  return s * s
}

/** A lower bound of cos(a) for 0 <= a <= π/2, without a cosine: Taylor's to a⁶, whose remainder cos(ξ) a⁸/8! is not negative there. */
function cosBelow(a: number): number {
  const a2 = a * a
  return 1 - a2 / 2 + (a2 * a2) / 24 - (a2 * a2 * a2) / 720
}

/**
 * geokdbush's distance(lng1, lat1, lng2, lat2) in km, with the cosines of both latitudes given
 * (hoisted per query, precomputed per point): the same operations in the same order, so the same km.
 */
function kmBetween(lng1: number, lat1: number, cosLat1: number, lng2: number, lat2: number, cosLat2: number): number {
  return kmOfHav(havBetween(lng1, lat1, cosLat1, lng2, lat2, cosLat2))
}

/** kmBetween's haversine of the central angle, before its asin: it grows with the distance, so comparisons need no asin. */
function havBetween(lng1: number, lat1: number, cosLat1: number, lng2: number, lat2: number, cosLat2: number): number {
  return cosLat1 * cosLat2 * haverSin((lng1 - lng2) * RAD) + haverSin((lat1 - lat2) * RAD)
}

/** km from havBetween's value, as kmBetween takes it. */
function kmOfHav(h: number): number {
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h))
}

/**
 * The haversine of a distance of km, for comparisons with havBetween's values. Rounding makes the
 * two sides of km disagree only in the last bits: callers widen it by HAV_MARGIN in the direction
 * that keeps them safe, and decide what falls within the margin with kmOfHav.
 */
function havOfKm(km: number): number {
  return haverSin(km / EARTH_RADIUS_KM)
}
const HAV_MARGIN = 1e-9

/** An exact test of havBetween's value against a radius of r km: what falls within the margin is decided in km. */
function withinKm(r: number): (h: number) => boolean {
  const surelyIn = havOfKm(r) * (1 - HAV_MARGIN)
  const surelyOut = havOfKm(r) * (1 + HAV_MARGIN)
  return (h) => h < surelyIn || (h <= surelyOut && kmOfHav(h) <= r)
}

/** A haversine above which a point is surely farther than km (for skipping points a full heap will not take). */
function havAbove(km: number): number {
  return km === Infinity ? Infinity : havOfKm(km + BOUND_SLACK_KM) * (1 + HAV_MARGIN)
}

/**
 * Chord tests: the squared chord between two points of the unit sphere is 4 × their haversine,
 * so it decides most comparisons without a sine. The base's points are Float32 (x, y, z), each
 * within 3e-8 of the true value, so a chord is within 6e-8 of the truth; CHORD_SLACK more than
 * covers that and havBetween's own rounding. Only points within the slack (about a metre) of a
 * threshold are decided by havBetween, so every decision is the haversine's.
 */
const CHORD_SLACK = 2e-7

/** A squared chord below which a haversine is surely below h (-1: none). */
function chordBelow(h: number): number {
  const c = 2 * Math.sqrt(h * (1 - HAV_MARGIN)) - CHORD_SLACK
  return c > 0 ? c * c : -1
}

/** A squared chord above which a haversine is surely above h. */
function chordAbove(h: number): number {
  if (h === Infinity) return Infinity
  const c = 2 * Math.sqrt(h * (1 + HAV_MARGIN)) + CHORD_SLACK
  return c * c
}

/** Writes 8 numbers at buf[at..at+8), in `buf` or, when it is full, in a copy twice its size; returns the one written. */
function record8(buf: Float64Array<ArrayBuffer>, at: number, a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number): Float64Array<ArrayBuffer> {
  if (at + 8 > buf.length) {
    const grown = new Float64Array(buf.length * 2)
    grown.set(buf)
    buf = grown
  }
  buf[at] = a
  buf[at + 1] = b
  buf[at + 2] = c
  buf[at + 3] = d
  buf[at + 4] = e
  buf[at + 5] = f
  buf[at + 6] = g
  buf[at + 7] = h
  return buf
}

/**
 * A query circle's tests of a lng/lat box (a kd node's): `misses`, the box lies outside the
 * circle's bounding boxes; `holds`, the box lies wholly inside the circle: within a bounding box,
 * and every corner within r. A box whose longitudes are all within 90° of the centre's is no
 * farther anywhere than at a corner (along a parallel the distance grows with the longitude gap;
 * along a meridian less than 90° away it has no maximum inside).
 */
function circleBoxTests(lng: number, lat: number, cosLat1: number, r: number, boxes: LngLatBox[]) {
  // A corner is surely inside below this; a circle smaller than the slack has no box wholly inside.
  const cornerIn = r > BOUND_SLACK_KM ? havOfKm(r - BOUND_SLACK_KM) * (1 - HAV_MARGIN) : -1
  // The boxes share one band of latitudes; a second box is the far side of the antimeridian.
  const [ax0, y0, ax1, y1] = boxes[0]!
  const [bx0, , bx1] = boxes[1] ?? NO_BOX
  const misses = (minX: number, minY: number, maxX: number, maxY: number) => maxY < y0 || minY > y1 || !((maxX >= ax0 && minX <= ax1) || (maxX >= bx0 && minX <= bx1))
  // The boxes are boxesAround's, centred on the query's longitude: less than 180° wide in all,
  // every longitude in them is less than 90° from the centre's.
  const narrow = ax1 - ax0 + (bx1 > bx0 ? bx1 - bx0 : 0) < 180
  // A quick look at the corners first, without a sine: (θ/2)² for haverSin(θ), cos(lat) to first
  // order, longitude gaps the short way round. It only says no (a box it calls not inside is
  // walked into, never wrongly counted), so it needs no bound, only to be close: up to 500 km
  // it is within about 0.5% (more near a pole), and only there is it taken. At the circle's
  // edge most boxes fail it, and the exact test below (~45 ns) is left to boxes likely inside.
  // Index only, 1M, densest centres, 3 passes of 4000 queries, old and new alternating query by
  // query: 3-5% faster, radius and 3-tag match.
  const quick = r <= 500
  const sinLat1 = Math.sin(lat * RAD)
  const nearlyIn = cornerIn * 1.01
  const holds = (minX: number, minY: number, maxX: number, maxY: number) => {
    if (!(minY >= y0 && maxY <= y1 && ((minX >= ax0 && maxX <= ax1) || (minX >= bx0 && maxX <= bx1)))) return false
    if (!narrow && !(maxX - minX < 180 && lngGap(lng, minX) <= 90 && lngGap(lng, maxX) <= 90)) return false
    if (quick) {
      const s = (lat - minY) * (RAD / 2)
      const n = (lat - maxY) * (RAD / 2)
      const w = halfLngGap(lng, minX)
      const e = halfLngGap(lng, maxX)
      const cs = cosLat1 * nearCos(cosLat1, sinLat1, lat, minY)
      const cn = cosLat1 * nearCos(cosLat1, sinLat1, lat, maxY)
      if (cs * w * w + s * s > nearlyIn || cn * w * w + n * n > nearlyIn || cs * e * e + s * s > nearlyIn || cn * e * e + n * n > nearlyIn) return false
    }
    // The corners' havBetween, each sine of a side taken once (4, not 8), in the same operations, so the same values.
    const cosMin = Math.cos(minY * RAD)
    const west = haverSin((lng - minX) * RAD)
    const south = haverSin((lat - minY) * RAD)
    if (!(cosLat1 * cosMin * west + south < cornerIn)) return false
    const cosMax = Math.cos(maxY * RAD)
    const north = haverSin((lat - maxY) * RAD)
    if (!(cosLat1 * cosMax * west + north < cornerIn)) return false
    const east = haverSin((lng - maxX) * RAD)
    return cosLat1 * cosMin * east + south < cornerIn && cosLat1 * cosMax * east + north < cornerIn
  }
  return { misses, holds }
}

/** Half the gap from longitude x to lng, the short way round, in radians. */
function halfLngGap(lng: number, x: number): number {
  const d = lng - x
  return (d > 180 ? d - 360 : d < -180 ? d + 360 : d) * (RAD / 2)
}

/** cos(y) to first order about lat (its cosine and sine given). */
function nearCos(cosLat: number, sinLat: number, lat: number, y: number): number {
  return cosLat + sinLat * (lat - y) * RAD
}

/**
 * The stand-in second box of a query without one: nothing overlaps it or lies in it. ([1, 0, -1]
 * until 2026-11-23: a kd node spanning longitudes -1..1 "overlapped" it, so near Greenwich no
 * node was ruled out by longitude.)
 */
const NO_BOX: LngLatBox = [Infinity, 0, -Infinity, 0]

/**
 * The live points at positions left..right whose squared chord to (qx, qy, qz) is below
 * surelyIn (xyz: unit vectors, 3 per position); -1 if a live point's chord lies between surelyIn
 * and surelyOut, where the chord cannot decide. Without a branch per point: at a circle's edge
 * a point is as likely in as out, and a mispredicted branch per point cost three times the loop.
 * A dead point's xyz are NaN (see baseXyz): its chord compares false both ways, so it is neither
 * counted nor undecided, without a look at baseDead (a micro benchmark: ~10 -> ~8.5 ns a point;
 * 1M densest, index only, 3 passes each in one process: 81-107 -> 73-91 µs, within the noise).
 */
function countSurelyIn(xyz: Float32Array, left: number, right: number, qx: number, qy: number, qz: number, surelyIn: number, surelyOut: number): number {
  // Read through a view of the leaf, indexed from 0 to its length: ~1.5 ns a point less than
  // xyz indexed from 3 × left in a micro benchmark, the view's making included. Index only, 1M,
  // densest centres, 4 passes of 4000 queries alternating old and new: 5-12% faster.
  const v = xyz.subarray(3 * left, 3 * right + 3)
  let count = 0
  let undecided = 0
  for (let o = 0; o < v.length; o += 3) {
    const dx = v[o]! - qx
    const dy = v[o + 1]! - qy
    const dz = v[o + 2]! - qz
    const c2 = dx * dx + dy * dy + dz * dz
    // +(a < b), not a ternary, which compiled to a branch: ~18 -> ~10 ns a point in a micro
    // benchmark (random leaves, every other point in); the densest 1M centres 102-109 -> 81-88 µs.
    count += +(c2 < surelyIn)
    undecided |= +(c2 >= surelyIn) & +(c2 <= surelyOut)
  }
  return undecided === 0 ? count : -1
}
/** A dead base point's xyz: NaN, which every chord comparison finds false (countSurelyIn needs no baseDead). */
function killBaseXyz(xyz: Float32Array, at: number): void {
  xyz.fill(NaN, 3 * at, 3 * at + 3)
}

/** (lng, lat) as a point of the unit sphere, written at out[o..o+3). */
function unitVector(lng: number, cosLat: number, lat: number, out: Float32Array | Float64Array, o: number): void {
  out[o] = cosLat * Math.cos(lng * RAD)
  out[o + 1] = cosLat * Math.sin(lng * RAD)
  out[o + 2] = Math.sin(lat * RAD)
}

/** (name, id) order of two entries: sort=name, and the tie-break of every other order. */
function byNameThenId(x: IndexEntry, y: IndexEntry): number {
  return x.nameSort < y.nameSort ? -1 : x.nameSort > y.nameSort ? 1 : x.id < y.id ? -1 : x.id > y.id ? 1 : 0
}

/** Degrees between two longitudes, the short way round (0..180). */
function lngGap(a: number, b: number): number {
  return Math.abs(((((b - a) % 360) + 540) % 360) - 180)
}

/** geokdbush's haverSin. */
function haverSin(theta: number): number {
  const s = Math.sin(theta / 2)
  return s * s
}

/** A query's tags as masks of the index's 32-bit words per bitset. */
type TagPlan = { logic: 'any' | 'all'; mask: Uint32Array } | { logic: 'match'; groups: Uint32Array[] }
/** Whether row `row` of a table of tag bitsets passes a query's tags. */
type TagTest = (bits: Uint32Array, row: number) => boolean

/** How a query's words test a location's terms; the terms its prefix begins are in prefixBits (once marked: see `marked`) until the next plan. */
type WordPlan = {
  /** Term ids of the whole words, rarest first. */
  whole: number[]
  /** Where a word-first plan would start: FlexSearch terms (and their postings' size), or null. */
  source: { terms: string[]; size: number } | null
  /** Base positions: the term columns (see termColumns) of the whole words that have one, each a match has. */
  wholeCols: number[]
  /** Base positions: the whole words without a column, checked in the pool. */
  baseWhole: number[]
  /** Base positions: the term columns of which a match has one, when they decide the prefix (null: checked in the pool). */
  prefixCols: number[] | null
  /** Base positions, when prefixCols is null: the columns of the prefix's terms that have one; a position with one of them has the prefix, unread. */
  prefixSure: number[]
  /** Signature bits (see sigBit) every base match has: its whole words' without a column. */
  need: number[]
  /** Signature bits of which a match has one: the prefix's terms' (null: too many to be worth it, or decided by prefixCols). */
  some: number[] | null
  /** The last word, where its terms begin in the sorted vocabulary, and whether they are marked in prefixBits (only with a prefix column may they not be: see markPrefix). */
  prefix: string
  from: number
  marked: boolean
}

/**
 * Word signatures: each base position has SIG_BITS bits, one set per term of its text (at
 * sigBit), so a query reads its pool of terms only when the signature has its whole words' bits
 * and one of its prefix's. With ~30 terms a location, a whole word absent from a location is
 * ruled out there 4 times in 5 without reading its terms (scattered in memory, unlike the
 * signatures, kept in kd order). 16 bytes a location, kept by column beside the tags' (see
 * baseCols), so that 32 positions are tested at a time. Measured in process, 2000 queries,
 * 2-word search at the densest centres: 141-147 -> 66-68 µs at 100k, 1.54 ms -> 0.70 ms at 1M.
 * Tried and worse: 256 bits (68-73 µs at 100k), two bits per term (79 µs; 0.83 ms at 1M).
 */
const SIG_BITS = 128
/** Term t's bit (one of SIG_BITS) in a signature. */
function sigBit(t: number): number {
  return Math.imul(t, 0x9e3779b1) >>> 25
}
/** A prefix expanding to more terms than this is not tested by signature (its bits would cover most). */
const SIG_PREFIX_TERMS = 24

/**
 * Term columns: a term in at least 1/TERM_COLUMN_SHARE of the base's locations gets a column of
 * its own beside the signatures, one bit per position, exact. A query's whole word, or a prefix
 * whose terms in the base all have one, is then decided 32 positions at a time, and a location's
 * terms are read from the pool only for the rarer words (at 100k: 247 terms, 91% of the pool's
 * ids, ~31 bytes a location). At most MAX_TERM_COLUMNS, the commonest. Measured in process, the
 * index's query alone, interleaved processes: 2-word search at the densest centres 68-77 -> 34 µs
 * at 100k, 532-601 -> 199-227 µs at 1M; 1-word 124-138 -> 55-61 µs at 1M. A share of 1/32 until
 * 2026-11-28 left the terms in 1/100 to 1/32 of the locations (a mid-sized city's name, a country
 * code: ~40) with neither a column nor FlexSearch's postings (FS_DF_DIVISOR): all=true&search=kr
 * read every location's terms (1.1 ms at 100k; 69 µs with a column).
 */
const TERM_COLUMN_SHARE = 128
const MAX_TERM_COLUMNS = 512
/** No term ids: a plan without words has no whole words to check (shared, not made per query). */
const NO_TERMS: readonly number[] = []
/** Per term id, in a base's termCol: no location of the base has the term. (-1: some may, no column.) */
const NOT_IN_BASE = -2

/**
 * Per term id known at a build's scan: its column (0..), -1 without one, or NOT_IN_BASE when no
 * live location had it (a location written later has left the base). Returns the number of columns.
 */
function termColumns(df: Int32Array, terms: number, live: number, out: Int32Array): number {
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

/**
 * Prefix columns: a prefix of 1 to PREFIX_COLUMN_LENGTH characters that the term columns do not
 * decide (more than SIG_PREFIX_TERMS terms begin it, or one without a column of its own does),
 * and whose terms are in at least 1/TERM_COLUMN_SHARE of the base's locations (counted once per
 * term), gets a column of its own, one bit per position, exact: a position has it when one of its
 * terms begins with the prefix. A search typed as it is typed ("s", "st", "sto", "1") then tests
 * its last word 32 positions at a time, as a common whole word is tested, where every position
 * in the circle (or, for all=true, every location) whose signature or term columns did not decide
 * it had its terms read. At most MAX_PREFIX_COLUMNS, the shortest prefixes first, then the
 * commonest. At 100k (bench data): 35 + 170 + 34 + 9 prefixes of 1 to 4 characters; their
 * columns take ~31 bytes a location, and each term's prefix columns (PREFIX_COLUMN_LENGTH numbers a
 * term) ~10 more.
 */
const PREFIX_COLUMN_LENGTH = 4
const MAX_PREFIX_COLUMNS = 384
/** Sorted terms scanned for prefix columns between two looks at the clock (a compaction's steps; fewer when compactionSlice is smaller). */
const PREFIX_SCAN_SLICE = 4096

/**
 * Finds the prefix columns (see above) over the terms in sorted order (`sorted`, their ids `ids`:
 * copies, as the vocabulary may grow meanwhile), a slice at a time (scan(to)), then numbers them
 * (columns()). One pass: the terms a prefix begins lie side by side, and a term's groups of each
 * length go on from the term before as far as they share a prefix. At 1M (91k terms) the pass
 * took 6-29 ms as one step of a compaction.
 */
class PrefixScan {
  private at = 0
  private prev = ''
  // Running sums over the terms so far (those with a location): terms, their locations, those
  // without a column; and, per length (1..PREFIX_COLUMN_LENGTH), where the group under way began
  // and the sums then.
  private terms = 0
  private locations = 0
  private loose = 0
  private readonly from = new Int32Array(PREFIX_COLUMN_LENGTH + 1)
  private readonly termsAt = new Int32Array(PREFIX_COLUMN_LENGTH + 1)
  private readonly locationsAt = new Float64Array(PREFIX_COLUMN_LENGTH + 1)
  private readonly looseAt = new Int32Array(PREFIX_COLUMN_LENGTH + 1)
  private readonly candidates: { prefix: string; length: number; from: number; to: number; locations: number }[] = []

  constructor(
    private readonly sorted: readonly string[],
    private readonly ids: readonly number[],
    private readonly df: Int32Array,
    /** The term columns (termColumns), for the terms known when the scan began. */
    private readonly termCol: Int32Array,
    private readonly live: number,
  ) {}

  /** How far the scan is, and where it ends: a step for each term, and one more that ends the groups under way. */
  get position(): number {
    return this.at
  }
  get end(): number {
    return this.sorted.length + 1
  }

  /** Scans on up to position `to` (at most end). */
  scan(to: number): void {
    const { sorted, ids, df, termCol, from, termsAt, locationsAt, looseAt } = this
    const L = PREFIX_COLUMN_LENGTH
    const end = Math.min(to, this.end)
    for (; this.at < end; this.at++) {
      const i = this.at
      const prev = this.prev
      const word = i < sorted.length ? sorted[i]! : ''
      let shared = 0
      const most = Math.min(L, word.length, prev.length)
      while (shared < most && word.charCodeAt(shared) === prev.charCodeAt(shared)) shared++
      // The previous term's groups longer than the prefix it shares with this one end here.
      for (let length = shared + 1, last = Math.min(L, prev.length); length <= last; length++) {
        const n = this.terms - termsAt[length]!
        const sum = this.locations - locationsAt[length]!
        // Not half a character (a prefix cut inside a surrogate pair): no search asks for one.
        const half = (prev.charCodeAt(length - 1) & 0xfc00) === 0xd800
        if ((n > SIG_PREFIX_TERMS || this.loose > looseAt[length]!) && sum * TERM_COLUMN_SHARE >= this.live && !half) {
          this.candidates.push({ prefix: prev.slice(0, length), length, from: from[length]!, to: i, locations: sum })
        }
      }
      if (i === sorted.length) continue
      for (let length = shared + 1, last = Math.min(L, word.length); length <= last; length++) {
        from[length] = i
        termsAt[length] = this.terms
        locationsAt[length] = this.locations
        looseAt[length] = this.loose
      }
      const t = ids[i]!
      if (df[t]! > 0) {
        this.terms++
        this.locations += df[t]!
        if (termCol[t]! < 0) this.loose++
      }
      this.prev = word
    }
  }

  /**
   * The prefix columns, numbered from `first` (after the term columns, as termCol numbers them):
   * the prefix of each, and per term id, the columns of its prefixes, shortest first, in `out`
   * (PREFIX_COLUMN_LENGTH a term, then -1 if fewer).
   */
  columns(first: number, out: Int32Array): Map<string, number> {
    const chosen = this.candidates.sort((a, b) => a.length - b.length || b.locations - a.locations).slice(0, MAX_PREFIX_COLUMNS)
    const columns = new Map<string, number>()
    out.fill(-1)
    // Shortest first, so each term's columns are written in order of length, side by side.
    for (const { prefix, from, to } of chosen) {
      const c = first + columns.size
      columns.set(prefix, c)
      for (let i = from; i < to; i++) {
        let k = PREFIX_COLUMN_LENGTH * this.ids[i]!
        while (out[k] !== -1) k++
        out[k] = c
      }
    }
    return columns
  }
}

/** The distinct signature bits of the terms. */
function sigBits(terms: Iterable<number>): number[] {
  return [...new Set(Array.from(terms, sigBit))]
}

/** A compaction under way: the new base, filled from a snapshot of the live keys (see scheduleCompaction). */
type Build = {
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
  /** Whether the tables below were made (tables()). */
  tabled: boolean
  /** Keys upserted or removed since the snapshot. */
  dirty: Set<number>
  /** Positions filled so far (kd order). */
  filled: number
  baseKey: Int32Array<ArrayBuffer>
  baseCos: Float64Array<ArrayBuffer>
  baseXyz: Float32Array<ArrayBuffer>
  /** Tags known when the tables were made: one column each (see LocatorIndex.baseCols). */
  tagCount: number
  /** Per term known when the columns were found (startPrefixScan()): its column (termColumns). */
  termCol: Int32Array<ArrayBuffer>
  /** The prefix columns (null until found: endPrefixScan()) and, per term known then, those of its prefixes (PrefixScan). */
  prefixCol: Map<string, number> | null
  termPrefixCols: Int32Array<ArrayBuffer>
  /** How many term columns; the scan for prefix columns under way (startPrefixScan()). */
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

/** Calls work(end) for end = from + slice, from + 2 slice, ... up to `to`, until STEP_MS have passed since the call. */
function inSlices(from: number, to: number, slice: number, work: (end: number) => void): void {
  const until = performance.now() + STEP_MS
  for (let end = from; end < to && performance.now() < until; ) {
    end = Math.min(to, end + slice)
    work(end)
  }
}

/** `a` at least `n` long, the new elements set to `fill` (a copy only when it must grow). */
function widen(a: Int32Array<ArrayBuffer>, n: number, fill: number): Int32Array<ArrayBuffer> {
  if (a.length >= n) return a
  const b = new Int32Array(n).fill(fill)
  b.set(a)
  return b
}

export class LocatorIndex {
  private readonly schedule: Schedule
  private readonly textGarbageMin: number
  private readonly nodeSize: number
  private readonly nameChunk: number | undefined
  private readonly compactionSlice: number
  private readonly kdWorkerMin: number
  private readonly deltaMin: number
  private readonly byRankMin: number
  // Per key. A key is live while entries[key] is not null; freed keys are reused.
  private entries: (IndexEntry | null)[] = []
  private keyOf = new Map<string, number>()
  private freeKeys: number[] = []
  private live = 0
  private lat = new Float64Array(0)
  private lng = new Float64Array(0)
  /** cos(lat) per key, for distances. */
  private cosLat = new Float64Array(0)
  /** Priority rank per key (IndexDoc.rank: a priority rule's index, a small whole number), read by sort=priority's order. */
  private rankOf = new Int32Array(0)
  /**
   * IndexDoc.json per key, -1 for null. In a typed array, not on the entry: an answer reads its
   * locations' from here (in its hits), where reading each entry object missed the cache.
   */
  private jsonOf = new Int32Array(0)
  /** The key's position in the KDBush base's sorted arrays, or -1 (moved, removed, or newer than the base). */
  private basePos = new Int32Array(0)
  /** Keys added or moved since the base was built, by grid cell of their points. */
  private delta = new PointGrid()
  private base: KDBush | null = null
  // Per position in the base's kd-sorted arrays (its `coords` hold lng, lat), so that the points of
  // one range sit next to each other in memory: the key, cos(lat), and 1 where the point is dead.
  private baseKey = new Int32Array(0)
  private baseCos = new Float64Array(0)
  /** Each base point on the unit sphere (x, y, z), for chord tests (see CHORD_SLACK); NaN for a dead point (killBaseXyz). */
  private baseXyz = new Float32Array(0)
  /** Per kd node of the base, the box its points fill (nodeBoxes, src/search/kd-build.ts): minX, minY, maxX, maxY. */
  private nodeBox = new Float64Array(0)
  /** The kd walks' stack of nodes to visit (pushNode), kept between queries. */
  private walk = new Float64Array(8 * 64)
  private baseDead = new Uint8Array(0)
  /** baseDead as bits, 32 positions a word: 1 for a live position (countPassing's `live`). */
  private baseLive = new Int32Array(0)
  /** baseBuiltAt. */
  private builtAt = performance.now()
  /**
   * The base's tags and words by column, one bit per position (colWords 32-bit words a column):
   * a column per tag known when the base was built, one of zeros for the tags made since, then
   * SIG_BITS signature columns, then the common terms' own (termColumns), then the prefixes'
   * (PrefixScan). A query's tags and words are tested 32 positions at a time. A changed
   * location leaves the base, so these never go stale.
   */
  private baseCols = new Int32Array(0)
  private colTags = 0
  /** Per term id known when the base was built: its column after the signatures', -1, or NOT_IN_BASE (termColumns). */
  private baseTermCol = new Int32Array(0)
  /** The base's prefix columns (PrefixScan), by prefix: numbered as baseTermCol's. */
  private basePrefixCol = new Map<string, number>()
  private colWords = 0
  /** Where each base point's term ids start in the pool (repacked in kd order); one more for the end. */
  private baseTermStart: Int32Array = new Int32Array(1)
  /** Fenwick tree of baseDead (1-based), to count dead points in a kd node. */
  private deadTree = new Int32Array(1)
  /** Dead base points: while none, a node's count needs no look at deadTree. */
  private deadCount = 0
  /** Scratch for the runs of base positions a range finds: (first, last) pairs. */
  private found = new Int32Array(1024)
  /** chordTests' query point, kept between queries. */
  private readonly queryXyz = new Float64Array(3)
  /** answer()'s page: its keys and km, kept between queries. */
  private pageKeys = new Int32Array(64)
  private pageKms = new Float64Array(64)
  /**
   * Per kd node of the base (nodeBox's numbering), the best (lowest) priority rank among its
   * points, dead ones included (a bound, never above the live points' best); made when a
   * sort=priority radius query first needs it, and made again (dropMade) when the base or the
   * ranks change.
   */
  private nodeMinRank: Int32Array | null = null
  /** With nodeMinRank, each base point's rank by its position (rankOf is by key: a cache miss a point, walked in kd order). */
  private baseRank = new Int32Array(0)
  /**
   * Per priority rank, a bit column of the base's live positions of that rank (colWords words a
   * rank), so `all=true&sort=priority` counts each rank's matches 32 positions at a time; made when
   * first needed, its bits cleared as positions die, made again (dropMade) when the base or the
   * ranks change.
   */
  private rankCols: Int32Array | null = null
  /**
   * Per base position, the rank of its key in name order among the base's keys (`ranks`; -1 for a
   * position dead when they were made), and per such rank its position (`positions`): made when
   * an `all=true` page first needs them (nameRanks), and made again (dropMade) after each swap in
   * their arrays of before. A write never changes a base key's entry (put() kills its position and
   * the key moves to the delta), so the order among the base's keys, and these ranks, hold until
   * the next swap.
   */
  private baseNameRanks = { ranks: new Int32Array(0), positions: new Int32Array(0), made: false }
  /**
   * byRank's queue of kd nodes, a binary min-heap by the best rank of a node's points, then the
   * nearest its box can hold (a haversine): per node, that haversine, and its rank, left, right
   * and number. Rank and distance apart: as one number (2 * rank + haversine), the haversine of a
   * point a metre away was lost to rounding beside any rank but 0.
   */
  private rankQueueHav = new Float64Array(64)
  /** eachCandidate's bits by key: all zero between its calls. */
  private seenBits = new Int32Array(0)
  /** pageByRank's heap of name ranks. */
  private rankHeap = new Int32Array(64)
  private rankQueueNode = new Int32Array(4 * 64)
  /** circleRuns' runs, 8 numbers each, kept between queries. */
  private runBuf = new Float64Array(8 * 256)
  /** circleRuns' medians, 2 numbers each (position, 1 if inside the circle), and how many numbers. */
  private medianBuf = new Int32Array(512)
  private medianCount = 0
  /** countPassing's scratch: a run's words (grown when a run has more). */
  private countAcc = new Int32Array(64)
  private countSome = new Int32Array(64)
  /** markMatches' bits, one per key and one per base position, kept between queries. */
  private matchBits = new Int32Array(0)
  private matchPos = new Int32Array(0)
  /** Set by dispose(): the index is no longer used, and its scheduled work is skipped. */
  private disposed = false

  /** A compaction under way (scheduled, in steps), or null. */
  private building: Build | null = null
  /** Compactions whose KDBush the worker thread sorted. */
  private kdSortedInWorker = 0
  /** Live keys by (name, id), for all=true by name; built in the background after load, then kept in step. */
  private nameOrder: ChunkedOrder | null = null
  // Tags: ids from the vocabulary below; `tagWords` 32-bit words per key.
  private tagIdOf = new Map<string, number>()
  private tagNames: string[] = []
  private tagDocs: number[] = []
  /** By tag id: each spelling locations have it in, and how many locations spell it so. */
  private tagSpelt: Map<string, number>[] = []
  /**
   * By key, the spellings of a location that spells a tag otherwise than lowercased (each once);
   * the tags of the others are their lowercased names, so nothing is kept for them. At 100k, the
   * heap beyond the JSON: 833 bytes a location with the bench's lowercase tags, as before; 974
   * against 833 with every tag capitalized (3 builds each).
   */
  private tagsAsSent = new Map<number, readonly string[]>()
  private tagWords = 1
  private tagBits = new Uint32Array(0)
  // Words: term ids per key, pooled; the pool is repacked (in kd order) at every compaction.
  private vocab = new Vocabulary()
  /** Live locations with the term. */
  private df = new Int32Array(0)
  /** Term ids ordered by their text, for prefixes. */
  private sortedTerms: string[] = []
  private sortedIds: number[] = []
  private vocabularySorted = false
  /** Per term: a stamp (linking a doc marks the terms seen). */
  private termMark = new Uint32Array(0)
  private stamp = 0
  /**
   * One bit per term: the terms the last word of the latest word plan begins (of a plan that got
   * as far as its prefix: planWords sets them, or markPrefix once a location's terms are read for
   * a prefix with a column of its own, and planWords clears the previous plan's, listed in
   * markedPrefixTerms). A bit, not a stamp per term: a check reads the marks of a location's
   * terms (33 on average at 100k, of 61k terms) one after another, and 4 bytes a term missed the
   * cache.
   */
  private prefixBits = new Int32Array(0)
  private markedPrefixTerms: number[] = []
  private pool = new Int32Array(0)
  private poolUsed = 0
  private poolGarbage = 0
  private termStart = new Int32Array(0)
  private termCount = new Int32Array(0)
  // FlexSearch over the terms flagged in `termInText`: ids are per (key, version), owner maps them back.
  private text: InstanceType<typeof FlexSearch.Index> | null = null
  private textReady = false
  private textCursor = 0
  private textNextId = 0
  private textGarbage = 0
  private textIdOf = new Int32Array(0)
  private textOwner = new Int32Array(0)
  private termInText = new Uint8Array(0)

  constructor(docs: Iterable<IndexDoc> = [], options: IndexOptions = {}) {
    // Every task this index schedules (compaction steps, the FlexSearch fill, the name order) is
    // skipped once it is disposed.
    const schedule = options.schedule ?? defaultSchedule
    this.schedule = (task) => schedule(() => {
      if (!this.disposed) task()
    })
    this.textGarbageMin = options.textGarbageMin ?? 4096
    this.nodeSize = options.nodeSize ?? 64
    this.nameChunk = options.nameChunk
    this.compactionSlice = options.compactionSlice ?? 16_384
    this.kdWorkerMin = options.kdWorkerMin ?? 20_000
    this.deltaMin = options.deltaMin ?? DELTA_MIN
    this.byRankMin = options.byRankMin ?? BY_RANK_MIN
    for (const doc of docs) this.put(doc)
    this.shrink()
    this.sortVocabulary()
    this.compact()
    // Its compactions will sort in the worker thread: start that now, while the build blocks anyway.
    if (this.live >= this.kdWorkerMin) startKdWorker()
    const cap = Math.max(FS_MIN_DF, this.live / FS_DF_DIVISOR)
    for (let t = 0; t < this.vocab.size; t++) this.termInText[t] = this.df[t]! <= cap ? 1 : 0
    this.startText()
    this.schedule(() => this.buildNameOrder())
  }

  /**
   * Its owner let it go (src/public/registry.ts: idle, or its locator's Query API turned off): the
   * work it left to scheduled tasks is dropped rather than done for nobody (at 1M, a compaction is
   * seconds of steps). Not to be queried or written after.
   */
  dispose(): void {
    this.disposed = true
    this.building = null
  }

  get size(): number {
    return this.live
  }

  /** Adds or replaces a location (by id). */
  upsert(doc: IndexDoc): void {
    const key = this.put(doc)
    if (this.text) this.addText(key)
    if (this.needsCompaction()) this.scheduleCompaction()
  }

  /** Removes a location; unknown ids are ignored. */
  remove(id: string): void {
    const key = this.keyOf.get(id)
    if (key === undefined) return
    this.keyOf.delete(id)
    this.building?.dirty.add(key)
    this.unlink(key)
    this.leaveNameOrder(key)
    this.entries[key] = null
    this.jsonOf[key] = -1
    this.killBasePos(key)
    this.delta.delete(key)
    this.freeKeys.push(key)
    this.live--
  }

  forEach(fn: (entry: IndexEntry) => void): void {
    for (const e of this.entries) if (e) fn(e)
  }

  /**
   * Every live entry, nearby locations together: the base's in kd order, then the delta's. What
   * an answer reads of its locations (their public JSON) is read fastest when stored in this order.
   */
  entriesInSpaceOrder(): IndexEntry[] {
    const out: IndexEntry[] = []
    const { baseKey, baseDead, entries } = this
    for (let at = 0; at < baseKey.length; at++) if (baseDead[at] !== 1) out.push(entries[baseKey[at]!]!)
    for (const key of this.delta.keys) out.push(entries[key]!)
    return out
  }

  /**
   * Ranks every location by the first of `tests` it passes (that test's position; none passed:
   * the number of tests): a tag it has (lowercased), or its id among `ids`. For
   * new priority rules without a rebuild, no point moved: the tags are the index's own bits, so
   * no row is read for them. (A rule is one test: parsePriorityRules admits no rule of two kinds.)
   */
  rankBy(tests: readonly ({ tag: string } | { ids: Iterable<string> })[]): void {
    const W = this.tagWords
    const { entries, tagBits } = this
    // A tag test as (word, bit) in a key's row; a tag no location has: a bit no row sets. An ids
    // test as a mark per key, its ids looked up once each (not every entry's id in a set: at 1M,
    // with a custom field rule's ~37k ids, those lookups took most of the time).
    const plan = tests.map((test) => {
      if ('ids' in test) {
        const marks = new Uint8Array(entries.length)
        for (const id of test.ids) {
          const key = this.keyOf.get(id)
          if (key !== undefined) marks[key] = 1
        }
        return { marks, word: 0, bit: 0 }
      }
      const id = this.tagIdOf.get(test.tag)
      return { marks: null, word: id === undefined ? 0 : id >>> 5, bit: id === undefined ? 0 : 1 << (id & 31) }
    })
    for (let key = 0; key < entries.length; key++) {
      const entry = entries[key]
      if (entry === null || entry === undefined) continue
      let rank = plan.length
      for (let i = 0; i < plan.length; i++) {
        const test = plan[i]!
        if (test.marks === null ? (tagBits[key * W + test.word]! & test.bit) !== 0 : test.marks[key] === 1) {
          rank = i
          break
        }
      }
      this.rankOf[key] = rank
    }
    this.dropMade(false)
  }

  /**
   * Drops what queries made from the base and its ranks (kd nodes' best ranks, rank columns, and
   * for a new base its name ranks), once they no longer hold, and makes those in use again in
   * background tasks, one each, rather than leave them to the first query that needs them: at 1M,
   * after a compaction, a radius query by priority took 8.7 ms (0.7 ms again), all=true by
   * priority 7.7 ms (0.3) and all=true&search=wil 9.7 ms (1.9); each takes 2-12 ms alone. Called
   * once the base and the ranks are as queries will read them (a task may run at once).
   */
  private dropMade(names: boolean): void {
    const nodes = this.nodeMinRank !== null
    const columns = this.rankCols !== null
    const named = names && this.baseNameRanks.made
    this.nodeMinRank = null
    this.rankCols = null
    if (names) this.baseNameRanks.made = false
    // Each for the base and ranks of its own turn (another swap may come first); what a query made meanwhile is kept.
    if (nodes) this.schedule(() => this.base !== null && this.nodeMinRanks())
    if (columns) this.schedule(() => this.rankColumns())
    if (named) this.schedule(() => this.nameOrder !== null && this.nameRanks())
  }

  get(id: string): IndexEntry | null {
    const key = this.keyOf.get(id)
    return key === undefined ? null : this.entries[key]!
  }

  /** The entry's JSON place (IndexDoc.json) as kept now; null if none, or if `doc` was replaced or removed since. */
  json(doc: IndexEntry): number | null {
    const key = this.currentKey(doc)
    return key === -1 || this.jsonOf[key] === -1 ? null : this.jsonOf[key]!
  }

  /** Keeps the entry's JSON place (null: none), as upsert does from IndexDoc.json; false (nothing kept) if `doc` was replaced or removed since. */
  setJson(doc: IndexEntry, json: number | null): boolean {
    const key = this.currentKey(doc)
    if (key === -1) return false
    this.jsonOf[key] = json ?? -1
    return true
  }

  /** Forgets every entry's JSON place (all null), as when every JSON is to be made again. */
  clearJson(): void {
    this.jsonOf.fill(-1)
  }

  /** The key of `doc` while it is the live entry of its id; -1 otherwise. */
  private currentKey(doc: IndexEntry): number {
    const key = this.keyOf.get(doc.id)
    return key !== undefined && this.entries[key] === doc ? key : -1
  }

  /**
   * The tags at least one location carries: each lowercased (as tags match), and as it is spelt
   * most often (of equals, the first in code unit order: every process names the same).
   */
  tagSpellings(): { tag: string; spelt: string }[] {
    const out: { tag: string; spelt: string }[] = []
    for (let t = 0; t < this.tagNames.length; t++) {
      if (this.tagDocs[t]! === 0) continue
      let spelt = ''
      let most = 0
      for (const [spelling, n] of this.tagSpelt[t]!) if (n > most || (n === most && spelling < spelt)) [spelt, most] = [spelling, n]
      out.push({ tag: this.tagNames[t]!, spelt })
    }
    return out
  }

  /**
   * Folds the delta into a new KDBush base and drops the term pool's garbage, now, in one go (a
   * scheduled compaction under way is dropped). Upsert schedules the same work in steps instead.
   */
  compact(): void {
    const build = this.startBuild()
    this.scan(build, build.scanTo)
    build.tree = buildKd(build.coords, this.nodeSize)
    const scan = this.startPrefixScan(build)
    scan.scan(scan.end)
    this.endPrefixScan(build, scan)
    this.tables(build)
    this.fill(build, build.keys.length)
    this.swap(build)
  }

  /**
   * Schedules a compaction, in steps as upsert does past the delta's bound, when the changes since
   * the base was built (locations in the delta, and dead in the base) number at least the bound's
   * minimum (DELTA_MIN) and none is under way; returns whether it did. For a quiet time after
   * writes, or for a base left old by writes that never stop (IndexRegistry.settleDeltas): below
   * its bound (at 100k, 10,000) a delta could stay for good, or grow for hours, and it costs
   * queries: at 100k with 10,000 in it, `all=true` with a tag took 76 µs (10 without), at offset
   * 100 274 µs (33), with a word's prefix 74 µs (8); a typical radius query 27.8 µs (17.4).
   */
  settle(): boolean {
    if (this.building !== null || this.delta.size + this.deadCount < this.deltaMin) return false
    this.scheduleCompaction()
    return true
  }

  /** When the base was built (performance.now()): the index made, then each compaction's swap. */
  get baseBuiltAt(): number {
    return this.builtAt
  }

  /** Whether a scheduled compaction is under way. */
  get compacting(): boolean {
    return this.building !== null
  }

  /** Whether the FlexSearch postings are complete (a word-first plan is possible). */
  get textIndexReady(): boolean {
    return this.textReady
  }

  /**
   * Whether the work the build left to scheduled tasks is done: the FlexSearch postings filled and
   * the name order made. A compaction does not count; a FlexSearch rebuild (after many writes
   * left its postings mostly garbage) makes this false again until it is done.
   */
  get settled(): boolean {
    return this.textReady && this.nameOrder !== null
  }

  /** Sizes, for benchmarks and diagnostics. */
  stats() {
    return {
      live: this.live,
      base: this.baseKey.length,
      delta: this.delta.size,
      compacting: this.compacting,
      kdSortedInWorker: this.kdSortedInWorker,
      deltaBound: this.deltaBound(),
      terms: this.vocab.size,
      termsInText: this.termInText.reduce((n, x) => n + x, 0),
      tags: this.tagNames.length,
      textReady: this.textReady,
      /** Made from the base for queries by priority (kd nodes' best ranks, rank columns) and all=true pages by name rank: until the next compaction. */
      ranksMade: { nodes: this.nodeMinRank !== null, columns: this.rankCols !== null, names: this.baseNameRanks.made },
    }
  }

  /** The delta is past its bound, or the term pool is mostly garbage. */
  private needsCompaction(): boolean {
    return this.delta.size > this.deltaBound() || this.poolGarbage > Math.max(65_536, this.poolUsed / 2)
  }

  private deltaBound(): number {
    return Math.max(this.deltaMin, Math.min(this.baseKey.length / 10, DELTA_MAX))
  }

  query(q: IndexQuery): IndexResult {
    const empty: IndexResult = { total: 0, hits: [] }
    const words = searchWords(q.search)
    const wordPlan = words.length > 0 ? this.planWords(words) : null
    if (wordPlan === undefined) return empty
    const tagPlan = q.tags.length > 0 ? this.planTags(q) : null
    if (tagPlan === undefined) return empty
    const tags = tagPlan === null ? null : tagTest(tagPlan, this.tagWords)

    const entries = this.entries
    const radius = q.center !== null
    // Everything by name: the kept name order, without a heap (made for up to offset + limit
    // entries, ~0.85 µs at offset 490 in a micro benchmark), unless a rare word leads: its few
    // candidates then go to the heap below (walkForPage).
    // Everything by priority: the name order again, rank by rank, without a heap (whose every
    // step compared names: at 100k, 13 ms at offset 0, 203 ms at offset 50,000).
    if (!radius && q.sort !== 'distance' && this.nameOrder !== null) {
      let matches: Matches | null | undefined
      if (!this.wordLeads(wordPlan, this.live)) matches = tagPlan === null && wordPlan === null ? null : this.markMatches(tagPlan, tags, wordPlan)
      else if (this.walkForPage(wordPlan.source.size, q.sort)) matches = this.markCandidates(this.textCandidates(wordPlan.source.terms), tags, wordPlan)
      if (matches !== undefined) return q.sort === 'name' ? this.inNameOrder(q, matches) : this.inRankThenNameOrder(q, matches)
    }
    const byDistance = radius && q.sort === 'distance'
    // The best `keep` candidates in a bounded max-heap of (key, km), worst at the top; the rest are
    // only counted. No more than there are locations: an offset past them all (2^29, say) made a
    // heap too large to allocate.
    // At least one, for `limit: 0` (the total alone): an empty heap has no worst to compare with.
    const keep = Math.min(q.offset + Math.max(1, q.limit), Math.max(1, this.live))
    const heapKey = new Int32Array(keep)
    const heapKm = new Float64Array(keep)
    let size = 0
    let total = 0
    const { rankOf } = this
    const compare = orderOf(q.sort, radius, entries, rankOf)
    const byPriority = q.sort === 'priority'
    const up = (i: number) => {
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (!later(heapKey, heapKm, i, parent, compare, byDistance)) return
        swap(heapKey, heapKm, i, parent)
        i = parent
      }
    }
    const down = (i: number) => siftDown(heapKey, heapKm, size, i, compare, byDistance)
    const offer = (key: number, km: number) => {
      if (tags !== null && !tags(this.tagBits, key)) return
      if (wordPlan !== null && !this.wordsOk(key, wordPlan)) return
      total++
      consider(key, km)
    }
    /** Puts a counted candidate in the heap if it belongs among the best `keep`. */
    const consider = (key: number, km: number) => {
      if (size < keep) {
        heapKey[size] = key
        heapKm[size] = km
        up(size++)
        return
      }
      if (byDistance && km > heapKm[0]!) return // the usual case, decided without the full order
      if (compare(key, km, heapKey[0]!, heapKm[0]!) >= 0) return
      heapKey[0] = key
      heapKm[0] = km
      down(0)
    }
    const { lat: lats, lng: lngs, cosLat } = this
    if (q.center) {
      const { lat, lng } = q.center
      const r = q.radiusKm
      const cosLat1 = Math.cos(lat * RAD)
      // The boxes that hold the circle (lng, lat order), for the base and the delta alike.
      const boxes = boxesAround(lng, lat, r)
      if (byDistance && tagPlan === null && wordPlan === null) {
        // Nothing to check per location: the base counts whole kd nodes inside the circle and
        // visits points only where they may be among the nearest; the delta is scanned.
        if (this.base) total += this.nearestAndCount(lng, lat, r, cosLat1, boxes, consider, () => (size < keep ? Infinity : heapKm[0]!))
        this.scanDelta(lng, lat, r, cosLat1, boxes, offer)
        return this.answer(q, size, heapKey, heapKm, compare, byDistance, total)
      }
      if ((byDistance || (byPriority && (tagPlan !== null || wordPlan !== null))) && (wordPlan === null || (wordPlan.baseWhole.length === 0 && wordPlan.prefixCols !== null))) {
        // Tags, and words their term columns decide: the base's runs nearest first, each wholly
        // inside the circle (circleRuns) or a leaf that may not be, then the medians of the nodes
        // split; an inside node whose box is beyond a full heap's worst is counted from its
        // columns alone, 32 positions at a time, its distances unread. By priority, a point of an
        // inside node is counted without its distance, and a full heap takes nothing of a worse
        // rank than its worst (ranks read by position), nor of its rank beyond it. (Words this way, against the runs of the
        // circle's boxes below, 1M, 2 interleaved pairs: 2-word search at the densest centres
        // 152-208 -> 110-138 µs.)
        if (this.base) {
          const { baseDead, baseCos, baseKey, baseCols } = this
          const coords = this.base.coords
          const within = withinKm(r)
          const groups = this.columnGroups(tagPlan, wordPlan)
          const runs = this.circleRuns(lng, lat, r, cosLat1, boxes)
          const run = this.runBuf
          const deadFree = this.deadCount === 0
          // Points are tested by chord first, as in nearestAndCount. Index only, 1M, 3 passes of
          // 4000 queries, old and new alternating query by query: 3-tag match at the densest
          // centres 6-8% faster, 2-tag any 9-13%; at 100k a sparse one (all) ~0.4 µs slower, the
          // chords' set-up.
          const havAt = (at: number) => havBetween(lng, lat, cosLat1, coords[2 * at]!, coords[2 * at + 1]!, baseCos[at]!)
          const { chordAt, inCircle } = this.chordTests(lng, lat, cosLat1, r, havAt, within)
          let limitChord = Infinity
          let limit = Infinity
          // By priority: ranks by position, and the full heap's worst rank and the limit of its km (as a haversine and a chord).
          const posRank = byPriority ? this.positionRanks() : null
          let worstRank = Infinity
          /** By priority, a counted point whose rank and distance may take it into the heap: offered. */
          const takeRanked = (at: number, c2: number) => {
            const rank = posRank![at]!
            if (rank > worstRank || (rank === worstRank && c2 > limitChord)) return
            const h = havAt(at)
            if (rank === worstRank && h > limit) return
            consider(baseKey[at]!, kmOfHav(h))
            if (size === keep) {
              worstRank = rankOf[heapKey[0]!]!
              limit = havAbove(heapKm[0]!)
              limitChord = chordAbove(limit)
            }
          }
          /** A live point whose columns pass: counted if in the circle (`inside`: known to be), and offered to the heap if it may belong. The medians' (the runs' loop writes it out). */
          const take = (at: number, inside: boolean) => {
            if (posRank !== null) {
              const c2 = chordAt(at)
              if (!inside && !inCircle(at, c2)) return
              total++
              takeRanked(at, c2)
              return
            }
            // The chord decides the circle and the heap's limit for most points; a sine only near either.
            const c2 = chordAt(at)
            if (!inside && !inCircle(at, c2)) return
            total++
            if (c2 > limitChord) return
            const h = havAt(at)
            if (h > limit) return
            consider(baseKey[at]!, kmOfHav(h))
            if (size === keep) {
              limit = havAbove(heapKm[0]!)
              limitChord = chordAbove(limit)
            }
          }
          for (let i = 0; i < runs; i += 8) {
            const lo = run[i]!
            const hi = run[i + 1]!
            const inside = run[i + 2] === 1
            // A full heap's worst beats every point of an inside node whose box is farther: count only.
            const countOnly = posRank === null && inside && size === keep && boxLowerBoundHav(lng, lat, cosLat1, run[i + 3]!, run[i + 4]!, run[i + 5]!, run[i + 6]!) > limit
            if (countOnly) {
              const words = (hi >>> 5) - (lo >>> 5) + 1
              this.countAcc = ensure(this.countAcc, words)
              this.countSome = ensure(this.countSome, words)
              total += countPassing(baseCols, groups, lo, hi, this.countAcc, this.countSome, deadFree ? null : this.baseLive)
              continue
            }
            for (let w = lo >>> 5; w <= hi >>> 5; w++) {
              let bits = passingBits(baseCols, groups, w, lo, hi)
              for (; bits !== 0; bits &= bits - 1) {
                const at = 32 * w + 31 - Math.clz32(bits & -bits)
                if (baseDead[at] === 1) continue
                if (posRank !== null) {
                  // By priority: counted first (an inside node's points without a chord), then offered by rank.
                  if (inside) {
                    total++
                    if (size === keep && posRank[at]! > worstRank) continue
                    takeRanked(at, chordAt(at))
                  } else {
                    const c2 = chordAt(at)
                    if (!inCircle(at, c2)) continue
                    total++
                    takeRanked(at, c2)
                  }
                  continue
                }
                // take(at, inside), written out: called here, 2-tag any was 3-4% slower at 100k.
                const c2 = chordAt(at)
                if (!inside && !inCircle(at, c2)) continue
                total++
                if (c2 > limitChord) continue
                const h = havAt(at)
                if (h > limit) continue
                consider(baseKey[at]!, kmOfHav(h))
                if (size === keep) {
                  limit = havAbove(heapKm[0]!)
                  limitChord = chordAbove(limit)
                }
              }
            }
          }
          // The medians of the nodes split, last: one point each, tested in one pass, not as runs
          // of their own (~170 of ~310 runs at the densest 1M centres). Index only, old and new
          // alternating query by query, 3 passes: 1M 3-tag match densest 11-14% faster, 2-word
          // search densest 9-12%, any 5-8%; 100k match densest 1.5-10%.
          const median = this.medianBuf
          for (let j = 0; j < this.medianCount; j += 2) {
            const at = median[j]!
            if (baseDead[at] === 0 && passingBits(baseCols, groups, at >>> 5, at, at) !== 0) take(at, median[j + 1] === 1)
          }
        }
        this.scanDelta(lng, lat, r, cosLat1, boxes, offer)
        return this.answer(q, size, heapKey, heapKm, compare, byDistance, total)
      }
      // Base candidates: runs of positions in the boxes (with one box, whole leaves: the loop
      // below tests every point's distance), in `found`; delta: scanned.
      let runs = 0
      if (this.base) for (const [x0, y0, x1, y1] of boxes) runs = this.rangeRuns(x0, y0, x1, y1, runs, boxes.length === 1)
      const { found } = this
      let candidates = 0
      for (let i = 0; i < runs; i += 2) candidates += found[i + 1]! - found[i]! + 1
      if (byPriority && tagPlan === null && wordPlan === null && candidates > this.byRankMin) {
        // By priority alone, many points in the boxes: the circle counted as for the nearest
        // (whole nodes by their size; with a worst of 0 km it walks no node for a heap, and the
        // few points within the bound's slack of the centre go to IGNORE_POINT), then the best by
        // rank found best first (byRank), not every point's distance taken as below.
        total += this.nearestAndCount(lng, lat, r, cosLat1, boxes, IGNORE_POINT, () => 0)
        this.byRank(lng, lat, r, cosLat1, boxes, consider, () => (size < keep ? -1 : heapKey[0]!), heapKm)
        this.scanDelta(lng, lat, r, cosLat1, boxes, offer)
        return this.answer(q, size, heapKey, heapKm, compare, byDistance, total)
      }
      if (this.wordLeads(wordPlan, candidates + this.delta.size)) {
        this.eachCandidate(wordPlan.source.terms, (key) => {
          const d = kmBetween(lng, lat, cosLat1, lngs[key]!, lats[key]!, cosLat[key]!)
          if (d <= r) offer(key, d)
        })
      } else {
        const { baseDead, baseCos, baseKey, baseCols, baseTermStart } = this
        const coords = this.base?.coords
        const within = withinKm(r)
        // Tags, term columns and word signatures: a word of 32 positions at a time, OR within a group and AND across.
        const groups = this.columnGroups(tagPlan, wordPlan)
        // What the columns leave undecided, read from the pool.
        const baseWhole = wordPlan?.baseWhole ?? NO_TERMS
        const checkPrefix = wordPlan !== null && wordPlan.prefixCols === null
        const readTerms = baseWhole.length > 0 || checkPrefix
        const sureCols = this.prefixSureCols(wordPlan)
        // By distance, a full heap takes nothing beyond its worst: compared as haversines, km only for what it may take.
        let limit = Infinity
        // By priority, nothing of a worse rank than its worst, nor of the same rank beyond it (as haversines again).
        let rankLimit = Infinity
        for (let i = 0; i < runs; i += 2) {
          const lo = found[i]!
          const hi = found[i + 1]!
          for (let w = lo >>> 5; w <= hi >>> 5; w++) {
            let sure = 0
            for (let j = 0; j < sureCols.length; j++) sure |= baseCols[sureCols[j]! + w]!
            for (let bits = passingBits(baseCols, groups, w, lo, hi); bits !== 0; bits &= bits - 1) {
              const at = 32 * w + 31 - Math.clz32(bits & -bits)
              if (baseDead[at] === 1) continue
              const h = havBetween(lng, lat, cosLat1, coords![2 * at]!, coords![2 * at + 1]!, baseCos[at]!)
              if (!within(h)) continue
              // Words: the base's terms are packed in kd order too, but apart from the rest.
              if (readTerms && !this.wordsIn(baseTermStart[at]!, baseTermStart[at + 1]!, baseWhole, checkPrefix && (sure & (1 << (at & 31))) === 0)) continue
              total++
              if (h > limit) continue
              const key = baseKey[at]!
              // By priority, a full heap takes nothing of a worse rank than its worst, decided without
              // the km, nor of its rank beyond it, without the km either: at 100k, typical centres,
              // most points of the circle share the worst's rank.
              if (byPriority && size === keep) {
                const rank = rankOf[key]!
                const worst = rankOf[heapKey[0]!]!
                if (rank > worst || (rank === worst && h > rankLimit)) continue
              }
              consider(key, kmOfHav(h))
              if (size === keep) {
                if (byDistance) limit = havAbove(heapKm[0]!)
                else if (byPriority) rankLimit = havAbove(heapKm[0]!)
              }
            }
          }
        }
        this.scanDelta(lng, lat, r, cosLat1, boxes, offer)
      }
    } else if (this.wordLeads(wordPlan, this.live)) {
      this.eachCandidate(wordPlan.source.terms, (key) => offer(key, 0))
    } else {
      for (let key = 0; key < entries.length; key++) if (entries[key] !== null) offer(key, 0)
    }
    return this.answer(q, size, heapKey, heapKm, compare, byDistance, total)
  }

  /** Whether a query's words lead: FlexSearch's postings of its rarest word, fewer than half of `candidates`, are read instead of the candidates. */
  private wordLeads(wordPlan: WordPlan | null, candidates: number): wordPlan is WordPlan & { source: NonNullable<WordPlan['source']> } {
    return wordPlan !== null && wordPlan.source !== null && this.textReady && wordPlan.source.size * 2 + wordPlan.source.terms.length * TERM_LOOKUP_CANDIDATES < candidates
  }

  /**
   * Whether a word-led query by name or priority is better answered by marking its candidates and
   * walking the name order to the page (inNameOrder, inRankThenNameOrder) than by a heap of the
   * best `keep`: the walk's work grows with the base (its words of 32 positions), the heap's with
   * the candidates (HEAP_CANDIDATE_NS).
   */
  private walkForPage(candidates: number, sort: SortOrder): boolean {
    return candidates * HEAP_CANDIDATE_NS > this.colWords * (sort === 'priority' ? PRIORITY_WALK_WORD_NS : WALK_WORD_NS)
  }

  /** markMatches for a word-led query: the candidates that pass its tags and words, as Matches. */
  private markCandidates(keys: number[], tags: TagTest | null, wordPlan: WordPlan): Matches {
    const bits = (this.matchBits = ensure(this.matchBits, (this.entries.length + 31) >>> 5))
    const pos = (this.matchPos = ensure(this.matchPos, this.colWords))
    bits.fill(0)
    pos.fill(0)
    return { bits, pos, count: this.markPassing(keys, tags, wordPlan, bits, pos) }
  }

  /** Marks the keys that pass a query's tags and words (by base position, or by key if not in the base); returns how many. A key given twice is marked and counted once. */
  private markPassing(keys: Iterable<number>, tags: TagTest | null, wordPlan: WordPlan | null, bits: Int32Array, pos: Int32Array): number {
    const { basePos } = this
    let count = 0
    for (const key of keys) {
      const at = basePos[key]!
      const marks = at === -1 ? bits : pos
      const i = at === -1 ? key : at
      const bit = 1 << (i & 31)
      if ((marks[i >>> 5]! & bit) !== 0) continue
      if (tags !== null && !tags(this.tagBits, key)) continue
      if (wordPlan !== null && !this.wordsOk(key, wordPlan)) continue
      marks[i >>> 5]! |= bit
      count++
    }
    return count
  }

  /**
   * Everything by name: the kept name order walked; the page is the matches at offset.., the total
   * all of them. A walk that passes more keys than choosing the page by the base's name ranks
   * would cost (pageByRank) stops, and they choose it: matches that begin names late in the order
   * ("wil", "red") left every key before them to pass, 1.8-2.6 ms at 1M.
   */
  private inNameOrder(q: IndexQuery, matches: Matches | null): IndexResult {
    const order = this.nameOrder!
    const keep = q.offset + q.limit
    if (matches === null) {
      return { total: order.length, hits: order.slice(q.offset, keep).map((key) => this.hit(key, null)) }
    }
    // The matches counted already: the walk stops at the page's end. Walked to the end of the
    // order to count them, at 1M, all=true&search=s took 1.3 ms and search=1 4.4 ms after marking.
    const { count } = matches
    const { basePos } = this
    const hits: IndexHit[] = []
    let seen = 0
    if (count > q.offset && q.limit > 0) {
      const budget = (this.colWords * RANK_WORD_NS + count * RANK_MATCH_NS) / NAME_STEP_NS
      let passed = 0
      walk: for (const keys of order.chunks) {
        if (passed > budget) return { total: count, hits: this.pageByRank(matches, q.offset, keep) }
        passed += keys.length
        for (const key of keys) {
          if (!isMatch(matches, basePos, key)) continue
          if (seen >= q.offset) hits.push(this.hit(key, null))
          if (++seen === keep) break walk
        }
      }
    }
    return { total: count, hits }
  }

  /**
   * The matches at offset..keep in name order (of priority rank `priority` only, if not -1),
   * chosen by rank: the base's first `keep` by their name ranks (baseNameRanks), read 32
   * positions at a time from the matches' bits (and the priority rank's column), in a bounded
   * max-heap of ranks; the delta's matches, sorted by name, merged in. In work proportional to
   * the matches, not to where in the name order they begin.
   */
  private pageByRank(matches: Matches, offset: number, keep: number, priority = -1): IndexHit[] {
    const { ranks, positions } = this.nameRanks()
    const { pos } = matches
    const W = this.colWords
    // The priority rank's column (rankColumns), or none (-1: every match; a rank no base position has: none of the base's).
    const rankCols = priority === -1 ? null : this.rankColumns()
    const col = rankCols === null ? -1 : priority < rankCols.ranks ? priority * W : -2
    // No more than there are matches (an offset may be as large as the matches' count).
    const cap = Math.min(keep, matches.count)
    const heap = (this.rankHeap = ensure(this.rankHeap, cap))
    let size = 0
    for (let w = 0; w < W && col !== -2; w++) {
      const passing = col === -1 ? pos[w]! : pos[w]! & rankCols!.cols[col + w]!
      for (let bits = passing | 0; bits !== 0; bits &= bits - 1) {
        const rank = ranks[32 * w + 31 - Math.clz32(bits & -bits)]!
        if (size < cap) {
          // Up: the largest rank on top.
          let i = size++
          while (i > 0 && heap[(i - 1) >> 1]! < rank) {
            heap[i] = heap[(i - 1) >> 1]!
            i = (i - 1) >> 1
          }
          heap[i] = rank
        } else if (rank < heap[0]!) {
          // Down from the top, the new rank in place of the largest.
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
      }
    }
    // Sorted where they are: the heap is scratch.
    const first = heap.subarray(0, size).sort()
    const { baseKey, basePos } = this
    const delta: number[] = []
    for (const key of this.delta.keys) if (isMatch(matches, basePos, key) && (priority === -1 || this.rankOf[key] === priority)) delta.push(key)
    delta.sort((a, b) => this.byName(a, b))
    const hits: IndexHit[] = []
    for (let i = 0, j = 0, at = 0; at < keep && (i < size || j < delta.length); at++) {
      const fromBase = j === delta.length || (i < size && this.byName(baseKey[positions[first[i]!]!]!, delta[j]!) < 0)
      const key = fromBase ? baseKey[positions[first[i++]!]!]! : delta[j++]!
      if (at >= offset) hits.push(this.hit(key, null))
    }
    return hits
  }

  /**
   * baseNameRanks, made from the kept name order if they are not yet: at 1M 3-11 ms (a key's
   * position read for each key in name order, from anywhere in memory), 12-17 ms in new arrays
   * (their pages faulted in), so the arrays of the ranks before a swap are filled again when
   * large enough.
   */
  private nameRanks(): { ranks: Int32Array; positions: Int32Array } {
    const kept = this.baseNameRanks
    if (kept.made) return kept
    const { basePos } = this
    const n = this.baseKey.length
    const ranks = kept.ranks.length >= n ? kept.ranks : new Int32Array(n)
    const positions = kept.positions.length >= n ? kept.positions : new Int32Array(n)
    ranks.fill(-1, 0, n)
    let rank = 0
    for (const keys of this.nameOrder!.chunks) {
      for (const key of keys) {
        const at = basePos[key]!
        if (at === -1) continue
        ranks[at] = rank
        positions[rank++] = at
      }
    }
    this.baseNameRanks = { ranks, positions, made: true }
    return this.baseNameRanks
  }

  /**
   * The live keys that pass a query's tags and words (in matchBits and matchPos, until the next
   * query): the base's positions 32 at a time by its columns, as a radius query tests them, the
   * pool read in kd order only for the words they leave undecided; then the delta's keys one by
   * one. Testing each key in name order instead read its tags and terms wherever they lay: at 1M,
   * `search=a` took 138 ms, 5 common words and a prefix 519 ms. The base's matches are bits by
   * position (Matches.pos), the delta's bits by key: a bit set by key for each of a million
   * matches took ~1 ms.
   */
  private markMatches(tagPlan: TagPlan | null, tags: TagTest | null, wordPlan: WordPlan | null): Matches {
    const marks = (this.matchBits = ensure(this.matchBits, (this.entries.length + 31) >>> 5))
    const pos = (this.matchPos = ensure(this.matchPos, this.colWords))
    let count = 0
    marks.fill(0)
    const { baseDead, baseKey, baseCols, baseTermStart } = this
    const n = baseKey.length
    const groups = this.columnGroups(tagPlan, wordPlan)
    const baseWhole = wordPlan?.baseWhole ?? NO_TERMS
    const checkPrefix = wordPlan !== null && wordPlan.prefixCols === null
    const readTerms = baseWhole.length > 0 || checkPrefix
    const sureCols = this.prefixSureCols(wordPlan)
    if (!readTerms) {
      // The columns decide every position: column by column over all the words (countPassing),
      // the dead taken out by baseLive. Word by word (passingBits, each passing bit's baseDead
      // read once the base had a dead point), at 1M all=true with a tag or a word's prefix took
      // ~95-150 µs, ~50-80 µs this way; with 1% of the base dead 445-680 µs, 60-110 µs.
      this.countSome = ensure(this.countSome, this.colWords)
      count = n === 0 ? 0 : countPassing(baseCols, groups, 0, n - 1, pos, this.countSome, this.deadCount === 0 ? null : this.baseLive)
    } else for (let w = 0; w < this.colWords; w++) {
      let passing = passingBits(baseCols, groups, w, 0, n - 1)
      let sure = 0
      for (let j = 0; j < sureCols.length; j++) sure |= baseCols[sureCols[j]! + w]!
      for (let bits = passing; bits !== 0; bits &= bits - 1) {
        const at = 32 * w + 31 - Math.clz32(bits & -bits)
        if (baseDead[at] === 1 || !this.wordsIn(baseTermStart[at]!, baseTermStart[at + 1]!, baseWhole, checkPrefix && (sure & (1 << (at & 31))) === 0)) {
          passing &= ~(1 << (at & 31))
        }
      }
      pos[w] = passing
      count += popcount(passing)
    }
    // A key in the delta has no live base position (its write killed it; a compaction's swap
    // takes the clean keys out of the delta), so none is counted twice: each is marked by key.
    count += this.markPassing(this.delta.keys, tags, wordPlan, marks, pos)
    return { bits: marks, pos, count }
  }

  /**
   * Everything by priority (rank, then name and id): each rank's matches counted, rank by rank
   * until the page's end, from the base's rank columns (32 positions at a time) and the delta's
   * keys, which places every rank's first match in the answer; then the kept name order walked
   * for the page, each match of a rank the page reaches put at its rank's next place, until the
   * page is full. Linear, with no comparison of names. Counted by a first walk of the whole name
   * order, with every match marked by key, at 1M all=true&sort=priority took 3.5-4.6 ms, 5.6-6.6
   * ms with search=s and 6.2-8.4 ms with a tag; so 0.15-0.5 ms (30 runs, two processes each).
   */
  private inRankThenNameOrder(q: IndexQuery, marked: Matches | null): IndexResult {
    const order = this.nameOrder!
    const { rankOf, basePos } = this
    const keep = q.offset + q.limit
    const total = marked === null ? order.length : marked.count
    // Per rank reached before the page's end, where its next match goes in the whole answer; -1
    // for a rank wholly before the page. Ranks past the page's end are not counted.
    const next = this.rankStarts(marked, q.offset, keep)
    const n = Math.max(0, Math.min(keep, total) - q.offset)
    const hits = new Array<IndexHit>(n)
    if (n === 0) return { total, hits }
    // As inNameOrder: a walk that passes more keys than ranking each priority rank's matches the
    // page reaches would cost stops, and they are chosen by name rank, rank after rank (matches
    // that begin names late in the order: "wil" took 5.8 ms at 1M).
    const starts = next.slice()
    const budget = marked === null ? Infinity : (starts.length * this.colWords * RANK_WORD_NS + marked.count * RANK_MATCH_NS) / NAME_STEP_NS
    let passed = 0
    let placed = 0
    for (const keys of order.chunks) {
      if (passed > budget) {
        // Each rank's part of the page, in rank order: n in all (rankStarts stopped at the page's end).
        const page: IndexHit[] = []
        for (let rank = 0; rank < starts.length; rank++) {
          const start = starts[rank]!
          if (start !== -1) page.push(...this.pageByRank(marked!, Math.max(0, q.offset - start), keep - start, rank))
        }
        return { total, hits: page }
      }
      passed += keys.length
      for (const key of keys) {
        const rank = rankOf[key]!
        if (rank >= next.length || next[rank] === -1 || (marked !== null && !isMatch(marked, basePos, key))) continue
        const at = next[rank]!++
        if (at < q.offset || at >= keep) continue
        hits[at - q.offset] = this.hit(key, null)
        if (++placed === n) return { total, hits }
      }
    }
    return { total, hits }
  }

  /**
   * inRankThenNameOrder's places: per rank from the best, where its first match goes in the
   * whole answer (the matches of the ranks before it), -1 for a rank whose matches all lie before
   * `offset`; it stops at the first rank that starts at or after `keep`. `marked` null: every
   * live location matches.
   */
  private rankStarts(marked: Matches | null, offset: number, keep: number): number[] {
    const { cols, ranks } = this.rankColumns()
    const W = this.colWords
    const { rankOf } = this
    const inDelta: number[] = []
    for (const key of this.delta.keys) {
      if (marked !== null && !isMatch(marked, this.basePos, key)) continue
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

  /** rankCols, made now if they were dropped, and how many ranks they hold. */
  private rankColumns(): { cols: Int32Array; ranks: number } {
    if (this.rankCols === null) {
      const W = this.colWords
      const n = this.baseKey.length
      const rank = this.base !== null ? this.positionRanks() : this.baseRank
      let ranks = 0
      for (let at = 0; at < n; at++) if (rank[at]! >= ranks) ranks = rank[at]! + 1
      const cols = new Int32Array(ranks * W)
      const { baseDead } = this
      for (let at = 0; at < n; at++) if (baseDead[at] === 0) cols[rank[at]! * W + (at >>> 5)]! |= 1 << (at & 31)
      this.rankCols = cols
    }
    return { cols: this.rankCols, ranks: this.colWords === 0 ? 0 : this.rankCols.length / this.colWords }
  }

  /** Offers the delta's points within r km: those in the grid cells the boxes touch, a box test first, then the distance. */
  private scanDelta(lng: number, lat: number, r: number, cosLat1: number, boxes: LngLatBox[], offer: (key: number, km: number) => void): void {
    const { lat: lats, lng: lngs, cosLat } = this
    // The boxes share one band of latitudes; a second box is the far side of the antimeridian.
    const [ax0, y0, ax1, y1] = boxes[0]!
    const [bx0, , bx1] = boxes[1] ?? NO_BOX
    for (const keys of this.delta.near(boxes)) {
      for (const key of keys) {
        const y = lats[key]!
        const x = lngs[key]!
        if (y < y0 || y > y1 || !((x >= ax0 && x <= ax1) || (x >= bx0 && x <= bx1))) continue
        const d = kmBetween(lng, lat, cosLat1, x, y, cosLat[key]!)
        if (d <= r) offer(key, d)
      }
    }
  }

  /**
   * The page: the heap holds the best `size` (at most offset + limit), the worst on top, so the
   * page is its worst size - offset, taken off the top one at a time, last first. At offset 400,
   * 20 steps down a heap of 420 instead of sorting all 420. `byKm`: the query's order is by
   * distance (siftDown's).
   */
  private answer(q: IndexQuery, size: number, heapKey: Int32Array, heapKm: Float64Array, compare: Order, byKm: boolean, total: number): IndexResult {
    const n = Math.max(0, Math.min(q.limit, size - q.offset))
    // The page's keys first, from the heap alone; then their entries and JSON, whose reads miss
    // the cache (keys are in the order locations came, not in space order), in a loop of their
    // own, where the misses overlap. Read between the heap's steps, the route's typical answer at
    // 100k was 3-7% slower (old and new code alternating query by query, both build orders).
    const keys = this.pageKeys.length >= n ? this.pageKeys : (this.pageKeys = new Int32Array(n))
    const kms = this.pageKms.length >= n ? this.pageKms : (this.pageKms = new Float64Array(n))
    for (let i = n - 1; i >= 0; i--) {
      keys[i] = heapKey[0]!
      kms[i] = heapKm[0]!
      size--
      heapKey[0] = heapKey[size]!
      heapKm[0] = heapKm[size]!
      siftDown(heapKey, heapKm, size, 0, compare, byKm)
    }
    const hits: IndexHit[] = new Array(n)
    const radius = q.center !== null
    for (let i = 0; i < n; i++) hits[i] = this.hit(keys[i]!, radius ? kms[i]! : null)
    return { total, hits }
  }

  private hit(key: number, distanceKm: number | null): IndexHit {
    const json = this.jsonOf[key]!
    return { key, json: json === -1 ? null : json, distanceKm }
  }

  /** The entry of a hit's key (IndexHit), as it is until the next write. */
  entryAt(key: number): IndexEntry {
    return this.entries[key]!
  }

  /**
   * Counts the live base points within r km of (lng, lat) and passes to `consider` every one that
   * may be among the nearest (within `worst()` km). Walks the kd tree nearest side first with each
   * node's box: a node wholly inside the circle is counted from its size (less its dead points),
   * then walked on without counting, into the parts whose nearest possible point beats the
   * current worst, so only points near the nearest are read.
   */
  private nearestAndCount(lng: number, lat: number, r: number, cosLat1: number, boxes: [number, number, number, number][], consider: (key: number, km: number) => void, worst: () => number): number {
    const { ids, coords, nodeSize } = this.base!
    const { baseDead, baseCos, baseKey } = this
    // Distances compared as haversines (no asin per point); km only for points the heap may take.
    const havAt = (at: number) => havBetween(lng, lat, cosLat1, coords[2 * at]!, coords[2 * at + 1]!, baseCos[at]!)
    const within = withinKm(r)
    const { chordAt, inCircle, surelyInCount } = this.chordTests(lng, lat, cosLat1, r, havAt, within)
    const { misses, holds } = circleBoxTests(lng, lat, cosLat1, r, boxes)
    /** Above this haversine a point cannot enter the heap: its worst now, widened (the worst only shrinks); a sine only when the worst moved. */
    let worstSeen = Infinity
    let limitSeen = Infinity
    const heapLimit = () => {
      const w = worst()
      if (w !== worstSeen) {
        worstSeen = w
        limitSeen = havAbove(w)
      }
      return limitSeen
    }
    let count = 0
    // Per node, 8 numbers: left, right, its number (nodeBoxes), the box its points fill (minX,
    // minY, maxX, maxY), then 1 if the node lies wholly inside the circle and is counted already
    // (only points that may join the heap are read). A typed array kept by the index: no array
    // grown and emptied per query. Boxes of the points, not of the space a node splits: at the
    // edge of a city they are much smaller, so more nodes are wholly inside or outside the circle.
    let sp = 0
    const push = (left: number, right: number, node: number, counted: number) => {
      sp = this.pushKdNode(sp, left, right, node, counted)
    }
    push(0, ids.length - 1, 0, 0)
    while (sp > 0) {
      sp -= 8
      const stack = this.walk
      const left = stack[sp]!
      const right = stack[sp + 1]!
      const node = stack[sp + 2]!
      const minX = stack[sp + 3]!
      const minY = stack[sp + 4]!
      const maxX = stack[sp + 5]!
      const maxY = stack[sp + 6]!
      const counted = stack[sp + 7]!
      if (left > right) continue
      if (counted === 0) {
        if (misses(minX, minY, maxX, maxY)) continue
        // Wholly inside: counted from its size, then walked again as counted.
        if (holds(minX, minY, maxX, maxY)) {
          count += right - left + 1 - (this.deadCount === 0 ? 0 : this.deadBetween(left, right))
          push(left, right, node, 1)
          continue
        }
      } else {
        // No point of the node can enter the heap: compared as haversines (havAbove widens the
        // worst by BOUND_SLACK_KM and a margin), the same test as in km without an asin per node.
        const limit = heapLimit()
        if (boxLowerBoundHav(lng, lat, cosLat1, minX, minY, maxX, maxY) > limit) continue
        if (right - left <= nodeSize) {
          const limitChord = chordAbove(limit)
          for (let at = left; at <= right; at++) {
            if (baseDead[at] === 1 || chordAt(at) > limitChord) continue
            const h = havAt(at)
            if (h <= limit) consider(baseKey[at]!, kmOfHav(h))
          }
          continue
        }
      }
      if (counted === 0 && right - left <= nodeSize) {
        // A leaf across the circle's edge: where no point of it can join the heap and the chords
        // decide every point, its count is all there is to take (without a branch per point).
        const limit = heapLimit()
        if (limit !== Infinity && boxLowerBoundHav(lng, lat, cosLat1, minX, minY, maxX, maxY) > limit) {
          const sure = surelyInCount(left, right)
          if (sure >= 0) {
            count += sure
            continue
          }
        }
        const limitChord = chordAbove(limit)
        for (let at = left; at <= right; at++) {
          if (baseDead[at] === 1) continue
          const c2 = chordAt(at)
          if (!inCircle(at, c2)) continue
          count++
          if (c2 > limitChord) continue
          const h = havAt(at)
          if (h <= limit) consider(baseKey[at]!, kmOfHav(h))
        }
        continue
      }
      const m = (left + right) >> 1
      // The median: by chord, as the leaves (a sine only near the circle or the heap's limit;
      // index only, 100k, 3 passes alternating old and new: densest centres 1.5-3.5% faster).
      if (baseDead[m] === 0) {
        const c2 = chordAt(m)
        if (counted === 1 || inCircle(m, c2)) {
          if (counted === 0) count++
          const limit = heapLimit()
          if (c2 <= chordAbove(limit)) {
            const h = havAt(m)
            if (h <= limit) consider(baseKey[m]!, kmOfHav(h))
          }
        }
      }
      // Children: kdbush keeps coord <= split on the left, >= on the right; the axis alternates
      // with the depth. The far side is pushed first, so the near side is walked first and fills
      // the heap with near points early.
      const axis = (31 - Math.clz32(node + 1)) & 1
      const split = coords[2 * m + axis]!
      const nearLeft = (axis === 0 ? lng : lat) < split
      if (nearLeft) push(m + 1, right, 2 * node + 2, counted)
      push(left, m - 1, 2 * node + 1, counted)
      if (!nearLeft) push(m + 1, right, 2 * node + 2, counted)
    }
    return count
  }

  /**
   * Passes to `consider` every live base point within r km of (lng, lat) that may be among the
   * best by priority (rank, then distance): kd nodes taken best first by their best rank
   * (nodeMinRanks), then the nearest their box can hold, so the nodes of the best ranks near the
   * centre fill the heap and, once it is full, no node whose rank or distance cannot beat its worst
   * (top()) is opened. Counts nothing: nearestAndCount counts the circle. Walked nearest side
   * first instead, a heap of the nearest points of the commonest rank made every node that holds a
   * better ranked point worth opening: all of them, at 1M a radius of 25 miles at the densest
   * centres tested ~26k points, as many as the circle holds.
   */
  private byRank(lng: number, lat: number, r: number, cosLat1: number, boxes: LngLatBox[], consider: (key: number, km: number) => void, top: () => number, heapKm: Float64Array): void {
    const { ids, coords, nodeSize } = this.base!
    const minRank = this.nodeMinRanks()
    const { baseDead, baseCos, baseKey, baseRank, rankOf, nodeBox } = this
    const havAt = (at: number) => havBetween(lng, lat, cosLat1, coords[2 * at]!, coords[2 * at + 1]!, baseCos[at]!)
    const { chordAt, inCircle } = this.chordTests(lng, lat, cosLat1, r, havAt, withinKm(r))
    const { misses } = circleBoxTests(lng, lat, cosLat1, r, boxes)
    // The heap's worst (key -1: not full yet): its rank, and as a haversine (widened) and chord how far a point of that rank may lie.
    let worstKey = -2
    let worstRank = Infinity
    let limit = Infinity
    let limitChord = Infinity
    const update = () => {
      const key = top()
      if (key === worstKey) return
      worstKey = key
      if (key === -1) return
      worstRank = rankOf[key]!
      limit = havAbove(heapKm[0]!)
      limitChord = chordAbove(limit)
    }
    const take = (at: number) => {
      const rank = baseRank[at]!
      if (rank > worstRank || baseDead[at] === 1) return
      const c2 = chordAt(at)
      if (!inCircle(at, c2) || (rank === worstRank && c2 > limitChord)) return
      const h = havAt(at)
      if (rank === worstRank && h > limit) return
      consider(baseKey[at]!, kmOfHav(h))
      update()
    }
    let n = 0
    const push = (left: number, right: number, node: number) => {
      if (left > right) return
      const o = 4 * node
      const minX = nodeBox[o]!
      const minY = nodeBox[o + 1]!
      const maxX = nodeBox[o + 2]!
      const maxY = nodeBox[o + 3]!
      if (misses(minX, minY, maxX, maxY)) return
      n = this.rankQueuePush(n, minRank[node]!, boxLowerBoundHav(lng, lat, cosLat1, minX, minY, maxX, maxY), left, right, node)
    }
    update()
    push(0, ids.length - 1, 0)
    while (n > 0) {
      const nodes = this.rankQueueNode
      const hav = this.rankQueueHav[0]!
      const rank = nodes[0]!
      const left = nodes[1]!
      const right = nodes[2]!
      const node = nodes[3]!
      n = this.rankQueuePop(n)
      // Every node left is as bad or worse: none can beat a full heap's worst.
      if (rank > worstRank || (rank === worstRank && hav > limit)) return
      if (right - left <= nodeSize) {
        for (let at = left; at <= right; at++) take(at)
        continue
      }
      const m = (left + right) >> 1
      take(m)
      push(left, m - 1, 2 * node + 1)
      push(m + 1, right, 2 * node + 2)
    }
  }

  /**
   * nodeMinRank (and baseRank), made now if they were dropped: per kd node, the best rank of its
   * points (a leaf's, or its median's and its children's). At 1M, ~1.4 ms (10 ms before the JIT
   * has compiled it), once after each compaction or new priority rules, on the first query that needs it.
   */
  private nodeMinRanks(): Int32Array {
    if (this.nodeMinRank !== null) return this.nodeMinRank
    const { ids, nodeSize } = this.base!
    const { baseKey, rankOf } = this
    const rank = new Int32Array(ids.length)
    for (let at = 0; at < rank.length; at++) rank[at] = rankOf[baseKey[at]!]!
    const out = new Int32Array(this.nodeBox.length >> 2)
    const fill = (left: number, right: number, node: number): number => {
      if (left > right) return 0x7fffffff
      let min = 0x7fffffff
      if (right - left <= nodeSize) {
        for (let at = left; at <= right; at++) min = Math.min(min, rank[at]!)
      } else {
        const m = (left + right) >> 1
        min = Math.min(rank[m]!, fill(left, m - 1, 2 * node + 1), fill(m + 1, right, 2 * node + 2))
      }
      out[node] = min
      return min
    }
    fill(0, ids.length - 1, 0)
    this.baseRank = rank
    this.nodeMinRank = out
    return out
  }

  /** baseRank, made now if it was dropped: each live base position's priority rank. */
  private positionRanks(): Int32Array {
    this.nodeMinRanks()
    return this.baseRank
  }

  /** Adds a node to byRank's queue of `n` (rankQueueHav); returns the new size. */
  private rankQueuePush(n: number, rank: number, hav: number, left: number, right: number, node: number): number {
    if (n === this.rankQueueHav.length) {
      const havs = new Float64Array(2 * n)
      havs.set(this.rankQueueHav)
      this.rankQueueHav = havs
      const nodes = new Int32Array(8 * n)
      nodes.set(this.rankQueueNode)
      this.rankQueueNode = nodes
    }
    const havs = this.rankQueueHav
    const nodes = this.rankQueueNode
    let i = n
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!rankedFirst(rank, hav, nodes[4 * parent]!, havs[parent]!)) break
      havs[i] = havs[parent]!
      nodes.copyWithin(4 * i, 4 * parent, 4 * parent + 4)
      i = parent
    }
    havs[i] = hav
    nodes[4 * i] = rank
    nodes[4 * i + 1] = left
    nodes[4 * i + 2] = right
    nodes[4 * i + 3] = node
    return n + 1
  }

  /** Takes the first node off byRank's queue of `n` (read it before); returns the new size. */
  private rankQueuePop(n: number): number {
    const havs = this.rankQueueHav
    const nodes = this.rankQueueNode
    n--
    const rank = nodes[4 * n]!
    const hav = havs[n]!
    let i = 0
    for (;;) {
      let child = 2 * i + 1
      if (child >= n) break
      if (child + 1 < n && rankedFirst(nodes[4 * child + 4]!, havs[child + 1]!, nodes[4 * child]!, havs[child]!)) child++
      if (!rankedFirst(nodes[4 * child]!, havs[child]!, rank, hav)) break
      havs[i] = havs[child]!
      nodes.copyWithin(4 * i, 4 * child, 4 * child + 4)
      i = child
    }
    havs[i] = hav
    nodes.copyWithin(4 * i, 4 * n, 4 * n + 4)
    return n
  }

  /**
   * A query's chord tests of base points: chordAt(at) is the squared chord from (lng, lat) to
   * point `at`; inCircle(at, chord) whether the point lies within r km, decided by the chord
   * where it is sure and by havBetween (havAt, then `within`, withinKm(r)) within CHORD_SLACK
   * of the circle.
   */
  private chordTests(lng: number, lat: number, cosLat1: number, r: number, havAt: (at: number) => number, within: (h: number) => boolean) {
    const { baseXyz } = this
    const q = this.queryXyz
    unitVector(lng, cosLat1, lat, q, 0)
    const [qx, qy, qz] = q as unknown as [number, number, number]
    const surelyIn = chordBelow(havOfKm(r) * (1 - HAV_MARGIN))
    const surelyOut = chordAbove(havOfKm(r) * (1 + HAV_MARGIN))
    const chordAt = (at: number) => {
      const dx = baseXyz[3 * at]! - qx
      const dy = baseXyz[3 * at + 1]! - qy
      const dz = baseXyz[3 * at + 2]! - qz
      return dx * dx + dy * dy + dz * dz
    }
    const inCircle = (at: number, c2: number) => c2 < surelyIn || (c2 <= surelyOut && within(havAt(at)))
    /** The live points of left..right surely within r km; -1 if any lies within the slack of the circle (undecided by chord). */
    const surelyInCount = (left: number, right: number) => countSurelyIn(baseXyz, left, right, qx, qy, qz, surelyIn, surelyOut)
    return { chordAt, inCircle, surelyInCount }
  }

  /** Dead base points at positions left..right (a Fenwick tree over baseDead). */
  private deadBetween(left: number, right: number): number {
    const prefix = (end: number) => {
      let sum = 0
      for (let i = end; i > 0; i -= i & -i) sum += this.deadTree[i]!
      return sum
    }
    return prefix(right + 1) - prefix(left)
  }

  // ------------------------------------------------------------ query plans

  /** undefined: no location can match (a whole word no location has, a prefix no term begins). */
  private planWords(words: string[]): WordPlan | undefined {
    const whole: number[] = []
    for (let i = 0; i < words.length - 1; i++) {
      const t = this.vocab.find(words[i]!)
      if (t === undefined || this.df[t] === 0) return undefined
      if (!whole.includes(t)) whole.push(t)
    }
    whole.sort((a, b) => this.df[a]! - this.df[b]!)
    const prefix = words[words.length - 1]!
    const bits = this.prefixBits
    for (const t of this.markedPrefixTerms) bits[t >>> 5]! &= ~(1 << (t & 31))
    this.markedPrefixTerms.length = 0
    const from = this.firstTermAtOrAfter(prefix)
    // A column of the prefix's own decides it in the base, alone (PrefixScan).
    const own = this.basePrefixCol.get(prefix)
    // With a column of its own, the prefix is no word-first source: its column is read faster.
    let prefixTerms: string[] | null = own === undefined ? [] : null
    let prefixSize = 0
    let any = false
    const some: number[] = []
    const termCol = this.baseTermCol
    /** The base's prefix terms' columns, while every one of them has a column. */
    let prefixCols: number[] | null = []
    const prefixSure: number[] = []
    let marked = true
    for (let i = from; i < this.sortedTerms.length && this.sortedTerms[i]!.startsWith(prefix); i++) {
      // With a column of its own, and no word-first source to find among its terms, the rest
      // (thousands for "1": ~0.1 ms at 100k) is marked only if a location's terms are read for it
      // (markPrefix): the base's never are.
      if (own !== undefined && any && prefixTerms === null) {
        marked = false
        break
      }
      const t = this.sortedIds[i]!
      bits[t >>> 5]! |= 1 << (t & 31)
      this.markedPrefixTerms.push(t)
      // A term no live location has is in no live base position either.
      if (this.df[t] === 0) continue
      const c = t < termCol.length ? termCol[t]! : NOT_IN_BASE
      if (c >= 0) prefixSure.push(c)
      if (prefixCols !== null && c !== NOT_IN_BASE) {
        if (c < 0 || prefixCols.length === SIG_PREFIX_TERMS) prefixCols = null
        else prefixCols.push(c)
      }
      any = true
      if (some.length <= SIG_PREFIX_TERMS) some.push(t)
      if (prefixTerms !== null) {
        if (this.termInText[t] === 0 || prefixTerms.length === PREFIX_PLAN_TERMS) prefixTerms = null
        else {
          prefixTerms.push(this.sortedTerms[i]!)
          prefixSize += this.df[t]!
        }
      }
    }
    if (!any) return undefined
    if (own !== undefined) prefixCols = [own]
    // The word-first source: the rarest whole word FlexSearch holds, or the prefix's few terms.
    let source: WordPlan['source'] = prefixTerms !== null ? { terms: prefixTerms, size: prefixSize } : null
    for (const t of whole) {
      if (this.termInText[t] === 1 && (source === null || this.df[t]! < source.size)) source = { terms: [this.vocab.terms[t]!], size: this.df[t]! }
    }
    const wholeCols: number[] = []
    const baseWhole: number[] = []
    for (const t of whole) {
      const c = t < termCol.length ? termCol[t]! : -1
      if (c >= 0) wholeCols.push(c)
      else baseWhole.push(t)
    }
    const sig = prefixCols === null && some.length <= SIG_PREFIX_TERMS ? sigBits(some) : null
    return { whole, source, wholeCols, baseWhole, prefixCols, prefixSure: prefixCols === null ? prefixSure : [], need: sigBits(baseWhole), some: sig, prefix, from, marked }
  }

  /** Marks the plan's prefix terms in prefixBits, those planWords left unmarked, for reading a location's terms. */
  private markPrefix(plan: WordPlan): void {
    const bits = this.prefixBits
    for (let i = plan.from; i < this.sortedTerms.length && this.sortedTerms[i]!.startsWith(plan.prefix); i++) {
      const t = this.sortedIds[i]!
      bits[t >>> 5]! |= 1 << (t & 31)
      this.markedPrefixTerms.push(t)
    }
    plan.marked = true
  }

  /** undefined: no location can match (under all/match, a tag no location has). */
  private planTags(q: IndexQuery): TagPlan | undefined {
    const { tags, tagLogic } = q
    // Without a Set, a Map or a closure made per query: with them, planning took ~0.35 µs for a
    // 2-tag all, ~0.7 µs for a 3-tag match, now ~0.24 and ~0.33 (100k, a micro benchmark).
    if (tagLogic !== 'match') {
      const mask = new Uint32Array(this.tagWords)
      let known = false
      for (let i = 0; i < tags.length; i++) {
        const id = this.liveTag(tags[i]!)
        if (id !== -1) {
          mask[id >>> 5]! |= 1 << (id & 31)
          known = true
        } else if (tagLogic === 'all') return undefined // a tag no location has: nothing has them all
      }
      return known ? { logic: tagLogic, mask } : undefined
    }
    // match: OR within a filter group, AND across groups (a group none of whose tags any location has: nothing matches).
    const names: string[] = []
    const groups: Uint32Array[] = []
    const known: boolean[] = []
    for (let i = 0; i < tags.length; i++) {
      const tag = tags[i]!
      const name = q.groupOf(tag)
      let g = names.indexOf(name)
      if (g === -1) {
        g = names.push(name) - 1
        groups.push(new Uint32Array(this.tagWords))
        known.push(false)
      }
      const id = this.liveTag(tag)
      if (id === -1) continue
      groups[g]![id >>> 5]! |= 1 << (id & 31)
      known[g] = true
    }
    return known.includes(false) ? undefined : { logic: 'match', groups }
  }

  /** A tag's id if some location has it, else -1. */
  private liveTag(tag: string): number {
    const id = this.tagIdOf.get(tag)
    return id === undefined || this.tagDocs[id] === 0 ? -1 : id
  }

  /**
   * A query's tags and words over the base's columns: groups of column offsets in baseCols, a
   * position passing when it has a column of every group. Tags: any is one group, all one per
   * tag, match one per filter group; a tag made since the base was built has the column of
   * zeros. Words: one group per term column of a whole word (each its own), one of the prefix's
   * term columns when they decide it; then one per signature bit of the other whole words, and
   * one of the prefix's signature bits when its columns do not decide it.
   */
  private columnGroups(tagPlan: TagPlan | null, wordPlan: WordPlan | null): Int32Array[] {
    const { colTags, colWords } = this
    const groups: Int32Array[] = []
    if (tagPlan !== null) {
      // A tag's column offset: a tag made since the base was built has the column of zeros.
      const column = (bits: number, w: number) => Math.min(32 * w + 31 - Math.clz32(bits & -bits), colTags) * colWords
      if (tagPlan.logic === 'all') {
        const { mask } = tagPlan
        for (let w = 0; w < mask.length; w++) for (let bits = mask[w]! | 0; bits !== 0; bits &= bits - 1) groups.push(Int32Array.of(column(bits, w)))
      } else {
        for (const mask of tagPlan.logic === 'match' ? tagPlan.groups : [tagPlan.mask]) {
          let n = 0
          for (let w = 0; w < mask.length; w++) n += popcount(mask[w]!)
          const group = new Int32Array(n)
          n = 0
          for (let w = 0; w < mask.length; w++) for (let bits = mask[w]! | 0; bits !== 0; bits &= bits - 1) group[n++] = column(bits, w)
          groups.push(group)
        }
      }
    }
    if (wordPlan !== null) {
      const sig = (bit: number) => (colTags + 1 + bit) * colWords
      const term = (c: number) => (colTags + 1 + SIG_BITS + c) * colWords
      groups.push(...wordPlan.wholeCols.map((c) => Int32Array.of(term(c))))
      if (wordPlan.prefixCols !== null) groups.push(Int32Array.from(wordPlan.prefixCols, term))
      groups.push(...wordPlan.need.map((bit) => Int32Array.of(sig(bit))))
      if (wordPlan.some !== null) groups.push(Int32Array.from(wordPlan.some, sig))
    }
    return groups
  }

  /**
   * Offsets in baseCols of the columns of a prefix's terms that have one, when the columns do not
   * decide the prefix (WordPlan.prefixSure): a position with one of them is not read for the
   * prefix. A short prefix such as "a" begins hundreds of terms, common and rare: the pool of
   * every position was read until one of them turned up.
   */
  private prefixSureCols(wordPlan: WordPlan | null): number[] {
    if (wordPlan === null || wordPlan.prefixCols !== null) return NO_TERMS as number[]
    const { colTags, colWords } = this
    return wordPlan.prefixSure.map((c) => (colTags + 1 + SIG_BITS + c) * colWords)
  }

  private wordsOk(key: number, plan: WordPlan): boolean {
    if (!plan.marked) this.markPrefix(plan)
    const from = this.termStart[key]!
    return this.wordsIn(from, from + this.termCount[key]!, plan.whole, true)
  }

  /** Whether the term ids pool[from..to) have every term of `whole` and, if `prefix`, one the plan's prefix begins. */
  private wordsIn(from: number, to: number, whole: readonly number[], prefix: boolean): boolean {
    const { pool, prefixBits } = this
    for (const t of whole) {
      let found = false
      for (let i = from; i < to; i++) {
        if (pool[i] === t) {
          found = true
          break
        }
      }
      if (!found) return false
    }
    if (!prefix) return true
    for (let i = from; i < to; i++) {
      const t = pool[i]!
      if ((prefixBits[t >>> 5]! & (1 << (t & 31))) !== 0) return true
    }
    return false
  }

  /**
   * Visits each key of textCandidates(terms) once: a key is in the postings of every term of a
   * prefix it has, and is visited the first time (a bit set by key in seenBits, cleared after).
   * A Set of them made first took about a quarter of a 2- to 3-character prefix's time at 1M.
   */
  private eachCandidate(terms: string[], visit: (key: number) => void): void {
    const keys = this.textCandidates(terms)
    if (terms.length === 1) {
      for (const key of keys) visit(key)
      return
    }
    const seen = (this.seenBits = ensure(this.seenBits, (this.entries.length + 31) >>> 5))
    for (const key of keys) {
      const bit = 1 << (key & 31)
      if ((seen[key >>> 5]! & bit) !== 0) continue
      seen[key >>> 5]! |= bit
      visit(key)
    }
    // All zero again for the next query.
    for (const key of keys) seen[key >>> 5] = 0
  }

  /** Live keys whose current text has one of the terms (FlexSearch postings, stale ids skipped), a key once per term it has. */
  private textCandidates(terms: string[]): number[] {
    const out: number[] = []
    const limit = this.textNextId + 1
    for (const term of terms) {
      // With nothing left in it, FlexSearch answers undefined, not [].
      const ids = (this.text!.search(term, { limit }) as number[] | undefined) ?? []
      for (const id of ids) {
        const key = this.textOwner[id]!
        if (this.textIdOf[key] === id) out.push(key)
      }
    }
    // A key appears once per term of a prefix it has: markPassing marks it once, eachCandidate
    // visits it once (a Set of ~7,000 keys made here took a third of a 3-character prefix's ~0.65
    // ms at 1M).
    return out
  }

  // ------------------------------------------------------------ writes

  /** Stores a doc under its key (a new one if the id is new), in the delta. Returns the key. */
  private put(doc: IndexDoc): number {
    let key = this.keyOf.get(doc.id)
    if (key !== undefined) this.building?.dirty.add(key)
    if (key !== undefined) {
      this.unlink(key)
      this.leaveNameOrder(key)
    } else {
      key = this.freeKeys.pop() ?? this.entries.length
      this.building?.dirty.add(key)
      this.keyOf.set(doc.id, key)
      this.live++
      if (key === this.entries.length) this.grow(key + 1)
    }
    this.entries[key] = { id: doc.id, nameSort: doc.nameSort }
    this.rankOf[key] = doc.rank
    this.jsonOf[key] = doc.json ?? -1
    this.nameOrder?.insert(key)
    this.lat[key] = doc.lat
    this.lng[key] = doc.lng
    this.cosLat[key] = Math.cos(doc.lat * RAD)
    this.killBasePos(key)
    this.delta.set(key, doc.lng, doc.lat)
    this.linkTags(key, doc.tags)
    this.linkTerms(key, doc.text)
    return key
  }

  private buildNameOrder(): void {
    const keys: number[] = []
    for (let key = 0; key < this.entries.length; key++) if (this.entries[key] !== null) keys.push(key)
    this.nameOrder = new ChunkedOrder((a, b) => this.byName(a, b), keys.sort((a, b) => this.byName(a, b)), this.nameChunk)
  }

  /** (name, id) order of two live keys. */
  private byName(a: number, b: number): number {
    return byNameThenId(this.entries[a]!, this.entries[b]!)
  }

  /** Takes a key out of the name order (while its entry is still the one it was placed by). */
  private leaveNameOrder(key: number): void {
    this.nameOrder?.remove(key)
  }

  /** Drops a key's tags and terms from the counts (before a replace or a remove). */
  private unlink(key: number): void {
    const sent = this.tagsAsSent.get(key)
    if (sent !== undefined) {
      for (const spelling of sent) this.spelt(this.tagIdOf.get(spelling.toLowerCase())!, spelling, -1)
      this.tagsAsSent.delete(key)
    }
    const W = this.tagWords
    for (let w = 0; w < W; w++) {
      let bits = this.tagBits[key * W + w]!
      while (bits !== 0) {
        const low = bits & -bits
        const id = w * 32 + 31 - Math.clz32(low)
        this.tagDocs[id]!--
        if (sent === undefined) this.spelt(id, this.tagNames[id]!, -1)
        bits ^= low
      }
      this.tagBits[key * W + w] = 0
    }
    const from = this.termStart[key]!
    const n = this.termCount[key]!
    for (let i = from; i < from + n; i++) this.df[this.pool[i]!]!--
    this.poolGarbage += n
    this.termCount[key] = 0
    if (this.textIdOf[key]! >= 0) {
      this.textIdOf[key] = -1
      this.textGarbage++
    }
  }

  /** Counts a location's spelling of tag `id` in (+1) or out (-1). */
  private spelt(id: number, spelling: string, by: 1 | -1): void {
    const spelt = this.tagSpelt[id]!
    const n = (spelt.get(spelling) ?? 0) + by
    if (n === 0) spelt.delete(spelling)
    else spelt.set(spelling, n)
  }

  private linkTags(key: number, sent: readonly string[]): void {
    const tags = sent.map((t) => t.toLowerCase())
    const asSent = tags.some((t, i) => t !== sent[i])
    for (const tag of tags) {
      let id = this.tagIdOf.get(tag)
      if (id === undefined) {
        id = this.tagNames.length
        this.tagIdOf.set(tag, id)
        this.tagNames.push(tag)
        this.tagDocs.push(0)
        this.tagSpelt.push(new Map())
        if (id >= this.tagWords * 32) this.widenTags(this.tagWords * 2)
      }
      const at = key * this.tagWords + (id >>> 5)
      const bit = 1 << (id & 31)
      if ((this.tagBits[at]! & bit) === 0) {
        this.tagBits[at]! |= bit
        this.tagDocs[id]!++
        if (!asSent) this.spelt(id, tag, 1)
      }
    }
    if (asSent) {
      const spellings = [...new Set(sent)]
      this.tagsAsSent.set(key, spellings)
      for (const spelling of spellings) this.spelt(this.tagIdOf.get(spelling.toLowerCase())!, spelling, 1)
    }
  }

  private widenTags(words: number): void {
    this.tagBits = widenRows(this.tagBits, this.entries.length, this.tagWords, words)
    this.tagWords = words
  }

  private linkTerms(key: number, text: string): void {
    const start = this.poolUsed
    const stamp = this.nextStamp()
    let n = 0
    const before = this.vocab.size
    const words = this.vocab.internWords(text)
    for (let t = before; t < this.vocab.size; t++) this.newTerm(t)
    const { found } = this.vocab
    for (let i = 0; i < words; i++) {
      const t = found[i]!
      if (this.termMark[t] !== stamp) {
        // first time in this doc
        this.termMark[t] = stamp
        if (start + n === this.pool.length) this.pool = ensure(this.pool, start + n + 1)
        this.pool[start + n] = t
        this.df[t]!++
        n++
      }
    }
    this.poolUsed = start + n
    this.termStart[key] = start
    this.termCount[key] = n
  }

  /** Makes room for a new term and places it in the sorted vocabulary. */
  private newTerm(t: number): void {
    this.df = ensure(this.df, t + 1)
    this.termMark = ensure(this.termMark, t + 1)
    this.prefixBits = ensure(this.prefixBits, (t >>> 5) + 1)
    this.termInText = ensure(this.termInText, t + 1)
    this.termInText[t] = 1 // new terms are rare: FlexSearch holds them
    if (this.vocabularySorted) {
      const word = this.vocab.terms[t]!
      const at = this.firstTermAtOrAfter(word)
      this.sortedTerms.splice(at, 0, word)
      this.sortedIds.splice(at, 0, t)
    }
  }

  /** A stamp no mark carries yet. */
  private nextStamp(): number {
    if (this.stamp === 0xffffffff) {
      this.termMark.fill(0)
      this.stamp = 0
    }
    return ++this.stamp
  }

  private sortVocabulary(): void {
    // The native sort without a comparator (UTF-16 code units, as `<` compares), ids found back
    // by hash: at 100k (61k terms), 15-30 ms against 40-120 ms for ids sorted through a comparator.
    this.sortedTerms = this.vocab.terms.slice().sort()
    this.sortedIds = this.sortedTerms.map((word) => this.vocab.find(word)!)
    this.vocabularySorted = true
  }

  /** Binary search: the first place in the sorted vocabulary whose term is >= `word`. */
  private firstTermAtOrAfter(word: string): number {
    let lo = 0
    let hi = this.sortedTerms.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.sortedTerms[mid]! < word) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Room for `n` keys in every per-key table. */
  private grow(n: number): void {
    const before = this.lat.length
    this.lat = ensure(this.lat, n)
    this.lng = ensure(this.lng, n)
    this.cosLat = ensure(this.cosLat, n)
    this.basePos = ensure(this.basePos, n)
    this.termStart = ensure(this.termStart, n)
    this.termCount = ensure(this.termCount, n)
    this.tagBits = ensure(this.tagBits, n * this.tagWords)
    this.textIdOf = ensure(this.textIdOf, n)
    this.rankOf = ensure(this.rankOf, n)
    this.jsonOf = ensure(this.jsonOf, n)
    if (this.lat.length > before) {
      this.basePos.fill(-1, before)
      this.textIdOf.fill(-1, before)
      this.jsonOf.fill(-1, before)
    }
    this.entries.push(null)
  }

  /** Cuts the growth slack after a bulk load. */
  private shrink(): void {
    const n = this.entries.length
    this.lat = fit(this.lat, n)
    this.lng = fit(this.lng, n)
    this.cosLat = fit(this.cosLat, n)
    this.basePos = fit(this.basePos, n)
    this.termStart = fit(this.termStart, n)
    this.termCount = fit(this.termCount, n)
    this.tagBits = fit(this.tagBits, n * this.tagWords)
    this.textIdOf = fit(this.textIdOf, n)
    this.rankOf = fit(this.rankOf, n)
    this.jsonOf = fit(this.jsonOf, n)
    this.pool = fit(this.pool, this.poolUsed)
    const t = this.vocab.size
    this.df = fit(this.df, t)
    this.termMark = fit(this.termMark, t)
    this.prefixBits = fit(this.prefixBits, (t + 31) >>> 5)
    this.termInText = fit(this.termInText, t)
  }

  /**
   * A compaction in steps between requests, so no request waits long behind one: a snapshot of
   * the live keys and their points, some keys per task; their KDBush and its nodes' boxes, in a
   * worker thread when large; the new base's tables; its positions filled, some per task; then
   * the swap. A task runs slices of its work for STEP_MS at most (and compactionSlice positions).
   * Queries use the old base until the swap. A key written after the build began (`dirty`) is
   * dead in the new base and stays in the delta, whatever the build copied of it.
   */
  private scheduleCompaction(): void {
    if (this.building !== null) return
    const build = this.startBuild()
    const slice = Math.min(SLICE, this.compactionSlice)
    const step = () => {
      if (this.building !== build) return // dropped: compact() ran meanwhile
      if (build.scanned < build.scanTo) {
        inSlices(build.scanned, Math.min(build.scanTo, build.scanned + 4 * this.compactionSlice), 4 * slice, (to) => this.scan(build, to))
        this.schedule(step)
      } else if (!build.sorting) {
        build.sorting = true
        if (build.keys.length >= this.kdWorkerMin) {
          buildKdInWorker(build.coords, this.nodeSize, (tree, inWorker) => {
            if (inWorker) this.kdSortedInWorker++
            build.tree = tree
            if (build.tabled) this.schedule(step) // else the tables' step goes on
          })
        } else build.tree = buildKd(build.coords, this.nodeSize)
        this.schedule(step)
      } else if (build.prefixCol === null) {
        // Steps of their own, while the worker sorts (at 1M, 6-29 ms as one).
        const scan = build.prefixScan ?? this.startPrefixScan(build)
        inSlices(scan.position, Math.min(scan.end, scan.position + 4 * this.compactionSlice), Math.min(PREFIX_SCAN_SLICE, this.compactionSlice), (to) => scan.scan(to))
        if (scan.position === scan.end) this.endPrefixScan(build, scan)
        this.schedule(step)
      } else if (!build.tabled) {
        // A step of its own (at 1M, 2-7 ms), while the worker sorts.
        this.tables(build)
        if (build.tree !== null) this.schedule(step) // else the worker's answer goes on
      } else if (build.filled < build.keys.length) {
        inSlices(build.filled, Math.min(build.keys.length, build.filled + this.compactionSlice), slice, (to) => this.fill(build, to))
        this.schedule(step)
      } else this.swap(build)
    }
    this.schedule(step)
  }

  /** A new compaction, from here on told of every write (it replaces any under way). */
  private startBuild(): Build {
    this.building = {
      scanTo: this.entries.length,
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
    return this.building
  }

  /**
   * Takes the live keys among the next entries, up to `to`, into the snapshot, each with its
   * point as it is now. A key scanned and then written, or written and then scanned, is dirty
   * either way; keys made after the build began lie beyond the range, and are dirty too.
   */
  private scan(b: Build, to: number): void {
    const end = Math.min(to, b.scanTo)
    // Room for every key of the range, cut to the live ones at the end (no array grown key by key:
    // at 1M that, and gathering the points after, blocked for 30-70 ms in one task).
    if (b.scanned === 0) {
      b.keys = new Int32Array(b.scanTo)
      b.coords = new Float64Array(2 * b.scanTo)
    }
    const { entries, lng, lat } = this
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

  /** Finds the new base's term columns, and starts the scan for its prefix columns, over the terms known now. */
  private startPrefixScan(b: Build): PrefixScan {
    b.termCol = new Int32Array(this.vocab.size)
    b.termColCount = termColumns(this.df, this.vocab.size, b.keys.length, b.termCol)
    return (b.prefixScan = new PrefixScan(this.sortedTerms.slice(), this.sortedIds.slice(), this.df, b.termCol, b.keys.length))
  }

  /** The scan is done: the prefix columns are numbered (b.prefixCol), and each term's found. */
  private endPrefixScan(b: Build, scan: PrefixScan): void {
    b.termPrefixCols = new Int32Array(PREFIX_COLUMN_LENGTH * b.termCol.length)
    b.prefixCol = scan.columns(b.termColCount, b.termPrefixCols)
    b.prefixScan = null
  }

  /** Makes the new base's tables for the snapshot's keys, empty, to be filled (fill()). */
  private tables(b: Build): void {
    const n = b.keys.length
    b.tagCount = this.tagNames.length
    b.baseKey = new Int32Array(n)
    b.baseCos = new Float64Array(n)
    b.baseXyz = new Float32Array(3 * n)
    b.cols = new Int32Array((b.tagCount + 1 + SIG_BITS + b.termColCount + b.prefixCol!.size) * ((n + 31) >>> 5))
    // Room for the live terms, and for those of keys written during the build (moved in at the
    // swap): growing a pool of tens of millions of ids in one step blocks for tens of milliseconds.
    const live = this.poolUsed - this.poolGarbage
    b.pool = new Int32Array(live + Math.max(65_536, live >> 4))
    b.termStarts = new Int32Array(n + 1)
    b.basePos = new Int32Array(b.scanTo).fill(-1)
    b.termStart = new Int32Array(b.scanTo)
    b.tabled = true
  }

  /**
   * Fills the new base's positions up to `to` (kd order): key, cos(lat), tags and words, copied
   * from the key's current state. A key written later is dirty: what was copied for it is unused.
   */
  private fill(b: Build, to: number): void {
    const { ids } = b.tree!.kd
    const { keys, baseKey, basePos, baseCos, baseXyz, cols, termCol, termPrefixCols, termStarts, termStart, tagCount } = b
    const { cosLat, lng, lat, tagBits, pool: terms } = this
    const end = Math.min(to, keys.length)
    // A tag made after the tables was linked by a write, so a key that has one is dirty: not copied.
    const W = this.tagWords
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
      const from = this.termStart[key]!
      const count = this.termCount[key]!
      pool = ensure(pool, used + count)
      // The terms copied one by one as they are read (not through a view of each: ~0.1 µs a location).
      for (let i = 0; i < count; i++) {
        const t = terms[from + i]!
        pool[used + i] = t
        cols[sig + sigBit(t) * colWords + word]! |= bit
        // A term made after the columns were found is in no column (and its location, written since, is dirty).
        if (t >= termCol.length) continue
        const c = termCol[t]!
        if (c >= 0) cols[termCols + c * colWords + word]! |= bit
        for (let k = PREFIX_COLUMN_LENGTH * t, end = k + PREFIX_COLUMN_LENGTH; k < end; k++) {
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
   * it and keep their points in the delta, their words moved to the new pool; clean keys leave
   * the delta.
   */
  private swap(b: Build): void {
    this.building = null
    const n = b.keys.length
    // Keys made during the build lie beyond the snapshot's tables: widened, they are not in the base.
    const basePos = widen(b.basePos, this.basePos.length, -1)
    const termStart = widen(b.termStart, this.termStart.length, 0)
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
        killBaseXyz(b.baseXyz, at)
        for (let i = at + 1; i <= n; i += i & -i) deadTree[i]!++
        deadCount++
        garbage += b.termStarts[at + 1]! - b.termStarts[at]!
        basePos[key] = -1
      }
      const count = this.termCount[key]!
      if (this.entries[key] === null || count === 0) continue
      const from = this.termStart[key]!
      pool = ensure(pool, used + count)
      pool.set(this.pool.subarray(from, from + count), used)
      termStart[key] = used
      used += count
    }
    // What is left in the base is clean: out of the delta (a copy of its keys, as they leave it).
    for (const key of [...this.delta.keys]) if (basePos[key] !== -1) this.delta.delete(key)
    this.basePos = basePos
    this.termStart = termStart
    this.pool = pool
    this.poolUsed = used
    this.poolGarbage = garbage
    this.base = n === 0 ? null : b.tree!.kd
    this.baseKey = b.baseKey
    this.baseCos = b.baseCos
    this.baseXyz = b.baseXyz
    this.nodeBox = b.tree!.boxes
    this.baseCols = b.cols
    this.colTags = b.tagCount
    this.baseTermCol = b.termCol
    this.basePrefixCol = b.prefixCol!
    this.colWords = (n + 31) >>> 5
    this.baseTermStart = b.termStarts
    this.baseDead = dead
    this.baseLive = live
    this.builtAt = performance.now()
    this.deadTree = deadTree
    this.deadCount = deadCount
    this.dropMade(true)
    // Writes during the build may have passed the bound again.
    if (this.needsCompaction()) this.scheduleCompaction()
  }

  /** Marks a key's point in the base dead (it moved or left). */
  private killBasePos(key: number): void {
    const at = this.basePos[key]!
    if (at === -1) return
    this.baseDead[at] = 1
    this.baseLive[at >>> 5]! &= ~(1 << (at & 31))
    killBaseXyz(this.baseXyz, at)
    if (this.rankCols !== null) this.rankCols[this.baseRank[at]! * this.colWords + (at >>> 5)]! &= ~(1 << (at & 31))
    this.basePos[key] = -1
    for (let i = at + 1; i < this.deadTree.length; i += i & -i) this.deadTree[i]!++
    this.deadCount++
  }

  /**
   * Pushes a kd node on the walk's stack (this.walk, grown when full): left, right, its number
   * (nodeBoxes), its box (minX, minY, maxX, maxY) and a flag. Returns the new stack size.
   * nearestAndCount, circleRuns and rangeRuns share it; none runs inside another.
   */
  private pushNode(sp: number, left: number, right: number, node: number, minX: number, minY: number, maxX: number, maxY: number, flag: number): number {
    this.walk = record8(this.walk, sp, left, right, node, minX, minY, maxX, maxY, flag)
    return sp + 8
  }

  /** pushNode for kd node number `node` of the base, with the box its points fill (nodeBox). */
  private pushKdNode(sp: number, left: number, right: number, node: number, flag: number): number {
    const o = 4 * node
    const box = this.nodeBox
    return this.pushNode(sp, left, right, node, box[o]!, box[o + 1]!, box[o + 2]!, box[o + 3]!, flag)
  }

  /**
   * The base's positions within r km of (lng, lat), as runs in runBuf, 8 numbers each (record8):
   * first, last, 1 if the run lies wholly inside the circle (a kd node of up to 8 leaves, or a
   * part of a larger one; else a leaf that may not: its points' distances must be tested), its
   * box (minX, minY, maxX, maxY), and 0. Nearest side first, as nearestAndCount walks, so a heap
   * filled from the first runs soon rules out whole nodes. The medians of the nodes split go to
   * medianBuf instead (medianCount numbers). Returns the numbers written in runBuf.
   */
  private circleRuns(lng: number, lat: number, r: number, cosLat1: number, boxes: [number, number, number, number][]): number {
    const { ids, coords, nodeSize } = this.base!
    const { misses, holds } = circleBoxTests(lng, lat, cosLat1, r, boxes)
    let n = 0
    const emit = (first: number, last: number, inside: number, minX: number, minY: number, maxX: number, maxY: number) => {
      this.runBuf = record8(this.runBuf, n, first, last, inside, minX, minY, maxX, maxY, 0)
      n += 8
    }
    // A node wholly inside is one run up to 8 leaves; a larger one is split on (its parts pushed
    // as inside, untested), nearest part first: the heap fills from the near parts, and the far
    // ones, beyond its worst, are counted from their columns instead of read point by point.
    const insideRun = 8 * nodeSize
    let medians = 0
    let sp = 0
    const push = (left: number, right: number, node: number, inside: number) => {
      sp = this.pushKdNode(sp, left, right, node, inside)
    }
    push(0, ids.length - 1, 0, 0)
    while (sp > 0) {
      sp -= 8
      const stack = this.walk
      const left = stack[sp]!
      const right = stack[sp + 1]!
      const node = stack[sp + 2]!
      const minX = stack[sp + 3]!
      const minY = stack[sp + 4]!
      const maxX = stack[sp + 5]!
      const maxY = stack[sp + 6]!
      const known = stack[sp + 7]! === 1
      if (left > right || (!known && misses(minX, minY, maxX, maxY))) continue
      const inside = known || holds(minX, minY, maxX, maxY) ? 1 : 0
      if (right - left < (inside === 1 ? insideRun : nodeSize + 1)) {
        emit(left, right, inside, minX, minY, maxX, maxY)
        continue
      }
      const m = (left + right) >> 1
      const axis = (31 - Math.clz32(node + 1)) & 1
      const split = coords[2 * m + axis]!
      const nearLeft = (axis === 0 ? lng : lat) < split
      // The stack is last in, first out: the far child first, then the near child. The median
      // goes to medianBuf (with 1 if its node lies inside the circle), for the caller to test
      // after the runs. (It was a run of its own, and before that pushed and popped.)
      if (nearLeft) push(m + 1, right, 2 * node + 2, inside)
      else push(left, m - 1, 2 * node + 1, inside)
      if (medians + 2 > this.medianBuf.length) this.medianBuf = ensure(this.medianBuf, medians + 2)
      this.medianBuf[medians] = m
      this.medianBuf[medians + 1] = inside
      medians += 2
      if (nearLeft) push(left, m - 1, 2 * node + 1, inside)
      else push(m + 1, right, 2 * node + 2, inside)
    }
    this.medianCount = medians
    return n
  }

  /**
   * KDBush's range(), but collecting runs of positions (not items) into `found` from `start`: pairs
   * of first and last, ascending, so the caller reads each point's coordinates and tables in kd
   * order. A kd node wholly inside the box is one run, its coordinates unread. With
   * `wholeLeaves`, so is every leaf the box touches (the caller tests each point's distance
   * anyway; a run may then hold points outside the box, so not for boxes that share a leaf).
   * Returns the end.
   */
  private rangeRuns(minX: number, minY: number, maxX: number, maxY: number, start: number, wholeLeaves: boolean): number {
    const { ids, coords, nodeSize } = this.base!
    // Per node: left, right, its number (nodeBoxes; -1 for a median point pushed alone) and the
    // box its points fill (x0, y0, x1, y1).
    let sp = 0
    const push = (left: number, right: number, node: number) => {
      sp = this.pushKdNode(sp, left, right, node, 0)
    }
    push(0, ids.length - 1, 0)
    let n = start
    // Room for a whole leaf's runs is made before it is read, so the loops store without checks.
    let found = (this.found = ensure(this.found, n + 2 * nodeSize + 2))
    /** Adds first..last, joined to the run before when it ends just before first. */
    const add = (first: number, last: number) => {
      if (n > start && found[n - 1] === first - 1) found[n - 1] = last
      else {
        found[n++] = first
        found[n++] = last
      }
    }
    while (sp > 0) {
      sp -= 8
      const stack = this.walk
      const left = stack[sp]!
      const right = stack[sp + 1]!
      const node = stack[sp + 2]!
      const x0 = stack[sp + 3]!
      const y0 = stack[sp + 4]!
      const x1 = stack[sp + 5]!
      const y1 = stack[sp + 6]!
      if (left > right || x1 < minX || x0 > maxX || y1 < minY || y0 > maxY) continue
      if (n + 2 * nodeSize + 2 > found.length) found = this.found = ensure(found, n + 2 * nodeSize + 2)
      if (x0 >= minX && x1 <= maxX && y0 >= minY && y1 <= maxY) {
        add(left, right)
        continue
      }
      if (right - left <= nodeSize) {
        if (wholeLeaves) add(left, right)
        else {
          for (let i = left; i <= right; i++) {
            const x = coords[2 * i]!
            const y = coords[2 * i + 1]!
            if (x >= minX && x <= maxX && y >= minY && y <= maxY) add(i, i)
          }
        }
        continue
      }
      // The left child first, then the median, then the right: runs come out ascending. The
      // stack is last in, first out; a node whose box misses the query's is dropped when popped.
      const m = (left + right) >> 1
      const x = coords[2 * m]!
      const y = coords[2 * m + 1]!
      push(m + 1, right, 2 * node + 2)
      if (x >= minX && x <= maxX && y >= minY && y <= maxY) sp = this.pushNode(sp, m, m, -1, x, y, x, y, 0)
      push(left, m - 1, 2 * node + 1)
    }
    return n
  }

  // ------------------------------------------------------------ FlexSearch, in the background

  /** A fresh FlexSearch index, filled FS_CHUNK locations per scheduled task. */
  private startText(): void {
    this.text = new FlexSearch.Index({ tokenize: 'strict', encoder: FlexSearch.Charset.Exact, resolution: 1 })
    this.textReady = false
    this.textCursor = 0
    this.textNextId = 0
    this.textGarbage = 0
    this.textIdOf.fill(-1)
    this.textOwner = new Int32Array(0)
    const text = this.text
    const step = () => {
      if (this.text !== text) return // replaced by a rebuild
      const end = Math.min(this.entries.length, this.textCursor + FS_CHUNK)
      for (let key = this.textCursor; key < end; key++) if (this.entries[key] !== null && this.textIdOf[key] === -1) this.addText(key)
      this.textCursor = end
      if (end < this.entries.length) this.schedule(step)
      else this.textReady = true
    }
    this.schedule(step)
  }

  /** Adds a key's current FlexSearch-held terms under a new FlexSearch id. */
  private addText(key: number): void {
    if (this.textIdOf[key]! >= 0) {
      this.textIdOf[key] = -1
      this.textGarbage++
    }
    const from = this.termStart[key]!
    const n = this.termCount[key]!
    let words = ''
    for (let i = from; i < from + n; i++) {
      const t = this.pool[i]!
      if (this.termInText[t] === 1) words += words === '' ? this.vocab.terms[t]! : ` ${this.vocab.terms[t]!}`
    }
    const id = this.textNextId++
    this.textOwner = ensure(this.textOwner, id + 1)
    this.textOwner[id] = key
    this.textIdOf[key] = id
    if (words !== '') this.text!.add(id, words)
    if (this.textReady && this.textGarbage > Math.max(this.textGarbageMin, this.live)) this.startText()
  }
}
