// The best `keep` candidates of a query, in a bounded max-heap of (key, km) pairs under the
// query's order, the worst on top; the rest are only counted. The page is taken off the top.
import { byNameThenId, type KeyTable } from '../keys'
import type { IndexEntry, IndexHit, SortOrder } from '../types'

/** An order of (key, km) candidates: negative when a comes first. */
export type Order = (a: number, da: number, b: number, db: number) => number

/**
 * The order of results over (key, km) pairs. Ties are broken by name, then id, so every answer
 * is deterministic.
 */
export function orderOf(sort: SortOrder, radius: boolean, entries: (IndexEntry | null)[], rankOf: Int32Array): Order {
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

/** Whether a key passes a query's tags and words (query/plan.ts: KeyFilter). */
export interface Filter {
  passes(key: number): boolean
}

export class TopK {
  /** The heap: keys and km, the first `size`. */
  readonly keys: Int32Array
  readonly kms: Float64Array
  size = 0
  /** Candidates counted (that pass the query), in the heap or not. */
  total = 0

  /**
   * `keep`: at least one (an empty heap has no worst to compare with). `byKm`: the order is by
   * distance (orderOf's), so unequal kms decide without a call.
   */
  constructor(
    readonly keep: number,
    readonly compare: Order,
    readonly byKm: boolean,
    private readonly filter: Filter,
  ) {
    this.keys = new Int32Array(keep)
    this.kms = new Float64Array(keep)
  }

  /** Counts a candidate that passes the query's filter, and considers it. */
  offer(key: number, km: number): void {
    if (!this.filter.passes(key)) return
    this.total++
    this.consider(key, km)
  }

  /** Puts a counted candidate in the heap if it belongs among the best `keep`. */
  consider(key: number, km: number): void {
    const { keys, kms } = this
    if (this.size < this.keep) {
      keys[this.size] = key
      kms[this.size] = km
      this.up(this.size++)
      return
    }
    if (this.byKm && km > kms[0]!) return // the usual case, decided without the full order
    if (this.compare(key, km, keys[0]!, kms[0]!) >= 0) return
    keys[0] = key
    kms[0] = km
    siftDown(keys, kms, this.size, 0, this.compare, this.byKm)
  }

  /** The worst km a full heap holds; Infinity until it is full. */
  worstKm(): number {
    return this.size < this.keep ? Infinity : this.kms[0]!
  }

  private up(i: number): void {
    const { keys, kms, compare, byKm } = this
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!later(keys, kms, i, parent, compare, byKm)) return
      swap(keys, kms, i, parent)
      i = parent
    }
  }
}

/** A query's page, kept between queries: its keys and km. */
export class PageBuffer {
  keys = new Int32Array(64)
  kms = new Float64Array(64)
}

/**
 * The page: the heap holds the best `size` (at most offset + limit), the worst on top, so the page
 * is its worst size - offset, taken off the top one at a time, last first, not sorted whole.
 */
export function takePage(
  heap: TopK,
  offset: number,
  limit: number,
  radius: boolean,
  keys: KeyTable,
  buf: PageBuffer,
): IndexHit[] {
  let size = heap.size
  const { keys: heapKey, kms: heapKm, compare, byKm } = heap
  const n = Math.max(0, Math.min(limit, size - offset))
  // The page's keys first, from the heap alone; then their hits' JSON, whose reads miss the
  // cache, in a loop of their own, where the misses overlap (PERF-019).
  const pageKeys = buf.keys.length >= n ? buf.keys : (buf.keys = new Int32Array(n))
  const pageKms = buf.kms.length >= n ? buf.kms : (buf.kms = new Float64Array(n))
  for (let i = n - 1; i >= 0; i--) {
    pageKeys[i] = heapKey[0]!
    pageKms[i] = heapKm[0]!
    size--
    heapKey[0] = heapKey[size]!
    heapKm[0] = heapKm[size]!
    siftDown(heapKey, heapKm, size, 0, compare, byKm)
  }
  heap.size = size
  const hits: IndexHit[] = new Array(n)
  for (let i = 0; i < n; i++) hits[i] = keys.hit(pageKeys[i]!, radius ? pageKms[i]! : null)
  return hits
}

/** Restores a max-heap of (key, km) pairs in keys/kms[0..size) under `compare` (the worst on top) from position i down. */
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

/** Whether pair i comes after pair j. */
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
