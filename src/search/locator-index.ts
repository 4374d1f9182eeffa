// One locator's published locations, in memory: a static KDBush base plus a small delta and dead
// slots for geography, FlexSearch for keywords, tag ids for filters, and each location's public JSON
// pre-serialized. Pure TypeScript: no HTTP, no SQL. Every answer equals a naive scan of the docs
// (test/search/oracle.test.ts proves it).
import FlexSearch from 'flexsearch'
import { distance } from 'geokdbush'
import KDBush from 'kdbush'
import { nameKey } from '../text'

export type IndexDoc = {
  id: string
  lat: number
  lng: number
  /** The public location JSON, pre-serialized, ending in "}" (distance is added per query). */
  json: string
  /** Sort key for sort=name: the folded name. */
  nameSort: string
  /** Priority rank: the index of the first priority rule matched; unmatched: the number of rules. */
  rank: number
  /** Tag values, lowercased (tags match case-insensitively). */
  tags: string[]
  /** Searchable text, folded with nameKey: name, address, description, tags. */
  text: string
}

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

export type IndexHit = { doc: IndexDoc; distanceKm: number | null }
export type IndexResult = { total: number; hits: IndexHit[] }

/** Rebuild the KDBush base when the delta holds more than this many points, or a tenth of the base. */
const DELTA_MIN = 256

/** km per degree of latitude, rounded down so boxes err on the large side. */
const KM_PER_DEGREE = 111

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
  const folded = nameKey(search)
  return folded === '' ? [] : folded.split(' ')
}

/** Does a doc carry the query's tags under the given logic? */
export function tagsMatch(docTags: readonly string[], query: Pick<IndexQuery, 'tags' | 'tagLogic' | 'groupOf'>): boolean {
  const { tags, tagLogic } = query
  if (tags.length === 0) return true
  if (tagLogic === 'any') return tags.some((t) => docTags.includes(t))
  if (tagLogic === 'all') return tags.every((t) => docTags.includes(t))
  // match: OR within a filter group, AND across groups.
  const groups = new Map<string, boolean>()
  for (const t of tags) {
    const g = query.groupOf(t)
    groups.set(g, (groups.get(g) ?? false) || docTags.includes(t))
  }
  for (const ok of groups.values()) if (!ok) return false
  return true
}

/** The order of results; ties broken by id so every answer is deterministic. */
export function compareHits(sort: SortOrder, radius: boolean) {
  const byId = (a: IndexHit, b: IndexHit) => (a.doc.id < b.doc.id ? -1 : a.doc.id > b.doc.id ? 1 : 0)
  const byName = (a: IndexHit, b: IndexHit) => (a.doc.nameSort < b.doc.nameSort ? -1 : a.doc.nameSort > b.doc.nameSort ? 1 : 0)
  const byDistance = (a: IndexHit, b: IndexHit) => a.distanceKm! - b.distanceKm!
  if (sort === 'priority') {
    // Rank, then as the query's own order would: nearest first (radius) or by name (all).
    return radius
      ? (a: IndexHit, b: IndexHit) => a.doc.rank - b.doc.rank || byDistance(a, b) || byName(a, b) || byId(a, b)
      : (a: IndexHit, b: IndexHit) => a.doc.rank - b.doc.rank || byName(a, b) || byId(a, b)
  }
  if (sort === 'name') return (a: IndexHit, b: IndexHit) => byName(a, b) || byId(a, b)
  return (a: IndexHit, b: IndexHit) => byDistance(a, b) || byName(a, b) || byId(a, b)
}

function siftUp(heap: IndexHit[], i: number, compare: (a: IndexHit, b: IndexHit) => number): void {
  while (i > 0) {
    const parent = (i - 1) >> 1
    if (compare(heap[i]!, heap[parent]!) <= 0) return
    ;[heap[i], heap[parent]] = [heap[parent]!, heap[i]!]
    i = parent
  }
}

function siftDown(heap: IndexHit[], i: number, compare: (a: IndexHit, b: IndexHit) => number): void {
  for (;;) {
    const l = 2 * i + 1
    const r = l + 1
    let worst = i
    if (l < heap.length && compare(heap[l]!, heap[worst]!) > 0) worst = l
    if (r < heap.length && compare(heap[r]!, heap[worst]!) > 0) worst = r
    if (worst === i) return
    ;[heap[i], heap[worst]] = [heap[worst]!, heap[i]!]
    i = worst
  }
}

export class LocatorIndex {
  /** Docs by slot; null where deleted or moved (dead). Slots below baseSize are in the KDBush base. */
  private docs: (IndexDoc | null)[] = []
  private slotOf = new Map<string, number>()
  private base: KDBush | null = null
  private baseSize = 0
  private live = 0
  // FlexSearch keys are stable per location (not slots), so compaction never rebuilds the text
  // index: only KDBush (milliseconds) and the slot tables. fastupdate makes update/remove cheap.
  private text = new FlexSearch.Index({ tokenize: 'forward', encoder: FlexSearch.Charset.Exact, fastupdate: true })
  private textKeyOf = new Map<string, number>()
  private slotOfTextKey = new Map<number, number>()
  private nextTextKey = 0

  constructor(docs: Iterable<IndexDoc> = []) {
    for (const doc of docs) this.append(doc)
    this.rebuildBase()
  }

  get size(): number {
    return this.live
  }

  /** Adds or replaces a location (by id). */
  upsert(doc: IndexDoc): void {
    const slot = this.slotOf.get(doc.id)
    if (slot !== undefined) {
      // Replaced: the old slot dies, the doc moves to the delta; its text is updated in place.
      this.docs[slot] = null
      this.live--
      this.place(doc)
      this.text.update(this.textKeyOf.get(doc.id)!, doc.text)
    } else {
      this.append(doc)
    }
    if (this.docs.length - this.baseSize > Math.max(DELTA_MIN, this.baseSize / 10)) this.compact()
  }

  /** Removes a location; unknown ids are ignored. */
  remove(id: string): void {
    const slot = this.slotOf.get(id)
    if (slot === undefined) return
    const key = this.textKeyOf.get(id)!
    this.slotOf.delete(id)
    this.textKeyOf.delete(id)
    this.slotOfTextKey.delete(key)
    this.docs[slot] = null
    this.text.remove(key)
    this.live--
  }

  forEach(fn: (doc: IndexDoc) => void): void {
    for (const doc of this.docs) if (doc) fn(doc)
  }

  get(id: string): IndexDoc | null {
    const slot = this.slotOf.get(id)
    return slot === undefined ? null : this.docs[slot]!
  }

  query(q: IndexQuery): IndexResult {
    const words = searchWords(q.search)
    const textMask = words.length > 0 ? this.textMatches(words) : null
    const accept = (slot: number): boolean => {
      const doc = this.docs[slot]
      return doc !== null && doc !== undefined && (textMask === null || textMask[slot] === 1) && tagsMatch(doc.tags, q)
    }
    const compare = compareHits(q.sort, q.center !== null)
    const keep = q.offset + q.limit
    // The best `keep` hits in a bounded max-heap (worst at the top); the rest are only counted.
    // A hit object is made only for a candidate that enters the heap; the rest are compared through one scratch.
    const heap: IndexHit[] = []
    const scratch: IndexHit = { doc: null as unknown as IndexDoc, distanceKm: null }
    let total = 0
    const offer = (doc: IndexDoc, distanceKm: number | null) => {
      total++
      if (heap.length < keep) {
        heap.push({ doc, distanceKm })
        siftUp(heap, heap.length - 1, compare)
        return
      }
      scratch.doc = doc
      scratch.distanceKm = distanceKm
      if (compare(scratch, heap[0]!) < 0) {
        heap[0] = { doc, distanceKm }
        siftDown(heap, 0, compare)
      }
    }
    if (q.center) {
      const { lat, lng } = q.center
      // Base: KDBush boxes that hold the circle, then the exact great-circle distance (km).
      if (this.base) {
        for (const [minX, minY, maxX, maxY] of boxesAround(lng, lat, q.radiusKm)) {
          for (const slot of this.base.range(minX, minY, maxX, maxY)) {
            const doc = this.docs[slot]
            if (!doc) continue
            const d = distance(lng, lat, doc.lng, doc.lat)
            if (d <= q.radiusKm && accept(slot)) offer(doc, d)
          }
        }
      }
      // Delta: scanned.
      for (let slot = this.baseSize; slot < this.docs.length; slot++) {
        const doc = this.docs[slot]
        if (!doc) continue
        const d = distance(lng, lat, doc.lng, doc.lat)
        if (d <= q.radiusKm && accept(slot)) offer(doc, d)
      }
    } else {
      for (let slot = 0; slot < this.docs.length; slot++) if (accept(slot)) offer(this.docs[slot]!, null)
    }
    heap.sort(compare)
    return { total, hits: heap.slice(q.offset) }
  }

  /** Slots whose text has every word: the last as a prefix, the others whole. */
  private textMatches(words: string[]): Uint8Array {
    const mask = new Uint8Array(this.docs.length)
    // FlexSearch ('forward') finds docs where every word begins some token; whole words are then checked here.
    // With fastupdate, FlexSearch answers undefined (not []) once its last entry was removed.
    const found = (this.text.search(words.join(' '), { limit: Math.max(1, this.live) }) as number[] | undefined) ?? []
    const whole = words.slice(0, -1)
    for (const key of found) {
      const slot = this.slotOfTextKey.get(key)
      if (slot === undefined) continue
      const doc = this.docs[slot]
      if (!doc) continue
      if (whole.length > 0) {
        const tokens = doc.text.split(' ')
        if (!whole.every((w) => tokens.includes(w))) continue
      }
      mask[slot] = 1
    }
    return mask
  }

  /** A new location: a slot and a text key. */
  private append(doc: IndexDoc): void {
    const key = this.nextTextKey++
    this.textKeyOf.set(doc.id, key)
    this.place(doc)
    this.text.add(key, doc.text)
  }

  /** Puts a doc in the next slot (the delta, until the next compaction). */
  private place(doc: IndexDoc): void {
    const slot = this.docs.length
    this.docs.push(doc)
    this.slotOf.set(doc.id, slot)
    this.slotOfTextKey.set(this.textKeyOf.get(doc.id)!, slot)
    this.live++
  }

  private rebuildBase(): void {
    this.baseSize = this.docs.length
    if (this.baseSize === 0) {
      this.base = null
      return
    }
    const kd = new KDBush(this.baseSize)
    for (const doc of this.docs) kd.add(doc ? doc.lng : 0, doc ? doc.lat : 0) // dead slots keep their place; accept() skips them
    kd.finish()
    this.base = kd
  }

  /** Drops dead slots and folds the delta into a new base. The text index is left as it is. */
  private compact(): void {
    const docs = this.docs.filter((d): d is IndexDoc => d !== null)
    this.docs = []
    this.slotOf.clear()
    this.slotOfTextKey.clear()
    this.live = 0
    for (const doc of docs) this.place(doc)
    this.rebuildBase()
  }
}
