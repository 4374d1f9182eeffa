// The index's locations by key: each location has a key, a small integer, and every per-location
// table is an array indexed by key. A key is live while its entry is not null; freed keys are reused.
import { ensure, fit } from './arrays'
import { RAD } from './geo/sphere'
import type { IndexDoc, IndexEntry, IndexHit } from './types'

export class KeyTable {
  readonly entries: (IndexEntry | null)[] = []
  readonly keyOf = new Map<string, number>()
  readonly freeKeys: number[] = []
  live = 0
  lat = new Float64Array(0)
  lng = new Float64Array(0)
  /** cos(lat) per key, for distances. */
  cosLat = new Float64Array(0)
  /** Priority rank per key (IndexDoc.rank: a priority rule's index, a small whole number), read by sort=priority's order. */
  rankOf = new Int32Array(0)
  /** IndexDoc.json per key, -1 for null: an answer reads its hits' from here, not from each entry object. */
  jsonOf = new Int32Array(0)
  /** Writes so far, and per key the count when it was last set or freed: what was written since a moment (clusters/tree.ts). */
  writes = 0
  writtenAt = new Float64Array(0)

  /** The key of a new id: a freed one, or the next (its tables grown by the caller: `grow`). */
  take(id: string): number {
    const key = this.freeKeys.pop() ?? this.entries.length
    this.keyOf.set(id, key)
    this.live++
    return key
  }

  /** Stores a doc's entry and point under its key. */
  set(key: number, doc: IndexDoc): void {
    this.entries[key] = { id: doc.id, nameSort: doc.nameSort, name: doc.name ?? doc.nameSort }
    this.rankOf[key] = doc.rank
    this.jsonOf[key] = doc.json ?? -1
    this.lat[key] = doc.lat
    this.lng[key] = doc.lng
    this.cosLat[key] = Math.cos(doc.lat * RAD)
    this.writtenAt[key] = ++this.writes
  }

  /** Frees a live key (its id forgotten). */
  free(key: number, id: string): void {
    this.keyOf.delete(id)
    this.entries[key] = null
    this.jsonOf[key] = -1
    this.writtenAt[key] = ++this.writes
    this.freeKeys.push(key)
    this.live--
  }

  /** Room for `n` keys (one more entry). */
  grow(n: number): void {
    const before = this.jsonOf.length
    this.lat = ensure(this.lat, n)
    this.lng = ensure(this.lng, n)
    this.cosLat = ensure(this.cosLat, n)
    this.rankOf = ensure(this.rankOf, n)
    this.jsonOf = ensure(this.jsonOf, n)
    this.jsonOf.fill(-1, before)
    this.writtenAt = ensure(this.writtenAt, n)
    this.entries.push(null)
  }

  /** Cuts the growth slack after a bulk load. */
  shrink(): void {
    const n = this.entries.length
    this.lat = fit(this.lat, n)
    this.lng = fit(this.lng, n)
    this.cosLat = fit(this.cosLat, n)
    this.rankOf = fit(this.rankOf, n)
    this.jsonOf = fit(this.jsonOf, n)
    this.writtenAt = fit(this.writtenAt, n)
  }

  /** The key of `doc` while it is the live entry of its id; -1 otherwise. */
  currentKey(doc: IndexEntry): number {
    const key = this.keyOf.get(doc.id)
    return key !== undefined && this.entries[key] === doc ? key : -1
  }

  /** (name, id) order of two live keys. */
  byName(a: number, b: number): number {
    return byNameThenId(this.entries[a]!, this.entries[b]!)
  }

  /** A hit of an answer: the key, its JSON's place as kept now, its distance. */
  hit(key: number, distanceKm: number | null): IndexHit {
    const json = this.jsonOf[key]!
    return { key, json: json === -1 ? null : json, distanceKm }
  }
}

/** (name, id) order of two entries: sort=name, and the tie-break of every other order. */
export function byNameThenId(x: IndexEntry, y: IndexEntry): number {
  return x.nameSort < y.nameSort ? -1 : x.nameSort > y.nameSort ? 1 : x.id < y.id ? -1 : x.id > y.id ? 1 : 0
}
