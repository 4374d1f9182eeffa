// The index's public types: what it takes in, what a query asks and what it answers.
import type { Bbox } from './geo/boxes'
import type { OpeningHours } from './open-now'

/** A published location as the index takes it in (src/indexes/present.ts makes these). */
export type IndexDoc = {
  id: string
  lat: number
  lng: number
  /**
   * Where the public location JSON is kept, pre-serialized (src/indexes/registry.ts: a slot in the
   * locator's JsonArena); opaque to the index. null until filled in.
   */
  json: number | null
  /** Sort key for sort=name: the folded name, numbers comparable (nameOrderKey). */
  nameSort: string
  /** The name as written, for answers that show no more of a location (clusters' single ones). Absent: nameSort. */
  name?: string
  /** Priority rank: the index of the first priority rule matched; unmatched: the number of rules. */
  rank: number
  /** Tag values as sent (they match case-insensitively: the index lowercases them). */
  tags: readonly string[]
  /** Searchable text, as searchKey (src/core/text.ts) makes it: name, address, description, tags. */
  text: string
  /** The words of its town's names, folded: a typo reaches a word only these have as a whole word with its first letter right. */
  places?: string
  /** Its opening hours and time zone (null or absent: none, never open nor closed). */
  hours?: OpeningHours | null
}

/** What the index keeps of a location besides its tables: what answers and sorting need. */
export type IndexEntry = { id: string; nameSort: string; name: string }

export type TagLogic = 'any' | 'all' | 'match'
export type SortOrder = 'distance' | 'name' | 'priority'

export type IndexQuery = {
  /** null: every location (all=true); otherwise a radius query around this point, or where a bbox query's distances are measured from. */
  center: { lat: number; lng: number } | null
  radiusKm: number
  /** A bbox query: only the locations in this box (center set; radiusKm unused). null or absent: none. */
  bbox?: Bbox | null
  /** Lowercased tag values; empty: no tag filter. */
  tags: string[]
  tagLogic: TagLogic
  /** For tagLogic=match: the filter group of a (lowercased) tag. */
  groupOf: (tag: string) => string
  /** Keyword search as typed; '' or only punctuation: no search. */
  search: string
  /** An instant (ms): only the locations open then (their hours say so). null or absent: no such filter. */
  openAt?: number | null
  sort: SortOrder
  offset: number
  limit: number
}

/**
 * A location of an answer: its key (its entry is entryAt(key) until the next write), its JSON's
 * place (IndexDoc.json; see LocatorIndex.json) as kept now, its distance. The entry is not read
 * for the hit: an answer made from kept JSON needs none.
 */
export type IndexHit = { key: number; json: number | null; distanceKm: number | null }
export type IndexResult = { total: number; hits: IndexHit[] }

/** Runs index upkeep (compaction, the FlexSearch build) later, off the current write or query. */
export type Schedule = (task: () => void) => void

export type IndexOptions = {
  /** Default: a timer of 0 ms (the next turn of the event loop), unref'd. Tests run tasks at chosen points. */
  schedule?: Schedule
  /** FlexSearch is rebuilt (in the background) when it holds more than max(this, live) stale entries. Default TEXT_GARBAGE_MIN. */
  textGarbageMin?: number
  /** Below this many locations, no FlexSearch postings (TEXT_MIN_KEYS). Tests use 0 for the word-led plans. */
  textMinKeys?: number
  /** KDBush's points per leaf. Default NODE_SIZE; tests use small ones to get deep trees from few points. */
  nodeSize?: number
  /** Keys per chunk of the name order (chunked-order.ts). Default NAME_CHUNK; tests use small ones. */
  nameChunk?: number
  /** Keys one task of the name order's build sorts (name-order-build.ts). Default NAME_SORT_SLICE; tests use small ones. */
  nameSortSlice?: number
  /** The most base positions a scheduled compaction fills per task (and 4x as many keys it scans), fewer once its turn ends (schedule.ts stepEnd). Default COMPACTION_SLICE; tests use small ones. */
  compactionSlice?: number
  /** From this many points, a scheduled compaction sorts its KDBush in a worker thread. Default KD_WORKER_MIN. */
  kdWorkerMin?: number
  /** Below this many points, the first cluster tree is built at once (CLUSTER_NOW_MAX). Tests use 0 for the background build. */
  clusterNowMax?: number
  /** Keys a background cluster build reads a task (CLUSTER_READ_SLICE). Tests use small ones. */
  clusterReadSlice?: number
  /** The smallest delta that schedules a compaction (see DELTA_MIN). Tests use small ones. */
  deltaMin?: number
  /** Above this many base points in a circle's boxes, sort=priority alone finds its page best first (BY_RANK_MIN). Tests use 0. */
  byRankMin?: number
  /** Above this many candidates, a search with typos by name or priority walks the name order (FUZZY_HEAP_MAX). Tests use small ones. */
  fuzzyHeapMax?: number
}
