// Every tuning constant of the index, one line each. The figures behind them are in
// docs/performance-log.md, cited by entry.

// ---- Compaction (build/compaction.ts)

/** The delta is compacted when it holds more than max(DELTA_MIN, min(base / 10, DELTA_MAX)) keys. */
export const DELTA_MIN = 256
export const DELTA_MAX = 16_384
/** A turn of the background schedule runs tasks until this long (ms) has passed, then lets requests in: a request waits at most about this (PERF-010, PERF-041). */
export const TURN_MS = 2
/** Between two turns the background schedule rests this long (ms) while requests come: threads sharing the core (the GC's, the kd worker) run then, not during a request (PERF-041). */
export const REST_MS = 3
/** Requests come: one was taken in the last this many ms. */
export const REST_WHILE_SERVING_MS = 1000
/** A task that works in slices stops at the end of its turn (schedule.ts stepEnd), or after this long (ms) when run by another schedule. */
export const STEP_MS = 4
/** Base positions filled per slice of a compaction task (4x as many keys scanned). */
export const SLICE = 256
/** The most base positions a compaction task fills (and 4x as many keys it scans): IndexOptions.compactionSlice. */
export const COMPACTION_SLICE = 16_384
/** Sorted terms scanned for prefix columns per slice of a compaction task. */
export const PREFIX_SCAN_SLICE = 4096
/** From this many points a scheduled compaction sorts its KDBush in the worker thread (PERF-010). */
export const KD_WORKER_MIN = 20_000
/** Below this many points, a locator's first cluster tree is built when first asked for, at once (a few ms); from it, in the worker thread, the request answered 503 meanwhile. */
export const CLUSTER_NOW_MAX = 5_000
/** The term pool is compacted once its garbage passes max(this, half the pool). */
export const POOL_GARBAGE_MIN = 65_536
/** A new pool's room for the terms of keys written during a compaction: max(this, live / 16) ids (small: every index has one, PERF-060). */
export const POOL_SLACK_MIN = 1024

// ---- Geometry

/** KDBush's points per leaf (IndexOptions.nodeSize). */
export const NODE_SIZE = 64
/** A kd node wholly inside a circle is read as one run of up to this many leaves (PERF-002). */
export const INSIDE_RUN_LEAVES = 8
/** Up to this radius (km) a box's corners are first looked at without a sine (PERF-004). */
export const QUICK_CORNERS_KM = 500
/** The delta's grid cells, in degrees. */
export const CELL_DEG = 0.5
/** A grid cell lookup costs about as much as reading this many keys from a list. */
export const KEYS_PER_LOOKUP = 8

// ---- Words (text/, columns.ts)

/** Word signatures: bits per base position, one set per term (PERF-003). */
export const SIG_BITS = 128
/** A prefix that begins more terms than this is not tested by signature. */
export const SIG_PREFIX_TERMS = 24
/** A term (or prefix) in at least 1 / TERM_COLUMN_SHARE of the base's locations gets a bit column (PERF-026). */
export const TERM_COLUMN_SHARE = 128
/** The most term columns, the commonest terms first. */
export const MAX_TERM_COLUMNS = 512
/** Prefixes of 1 to this many characters may get a column of their own (PERF-026). */
export const PREFIX_COLUMN_LENGTH = 4
/** The most prefix columns, the shortest prefixes first, then the commonest. */
export const MAX_PREFIX_COLUMNS = 384
/** A prefix that begins more terms than this is no word-first source (PERF-026). */
export const PREFIX_PLAN_TERMS = 1024

// ---- FlexSearch postings (text/postings.ts)

/** Terms in at most max(FS_MIN_DF, live / FS_DF_DIVISOR) locations at load go to FlexSearch. */
export const FS_MIN_DF = 256
export const FS_DF_DIVISOR = 100
/** Locations added to FlexSearch per slice of a background task (a task runs slices until its turn ends). */
export const FS_CHUNK = 64
/**
 * Below this many locations, an index makes no FlexSearch postings: the map's candidates are
 * few enough to check each word on, and postings would cost most of a small index's memory and
 * build time (PERF-060). One that grows past it gets them at its next compaction.
 */
export const TEXT_MIN_KEYS = 1024
/** FlexSearch is rebuilt when it holds more than max(this, live) stale entries (IndexOptions.textGarbageMin). */
export const TEXT_GARBAGE_MIN = 4096

// ---- Query plans (query/)

/** A word-first plan's cost per term looked up in FlexSearch, in candidates the other plans read. */
export const TERM_LOOKUP_CANDIDATES = 16
/** A word-led page: a candidate in the heap (ns) against a 32-position word walked by name, by priority (PERF-029). */
export const HEAP_CANDIDATE_NS = 200
export const WALK_WORD_NS = 3
export const PRIORITY_WALK_WORD_NS = 7.5
/** The name walk against pageByRank: a key passed, against a word of match bits read and a match ranked (ns; PERF-028). */
export const NAME_STEP_NS = 5
export const RANK_WORD_NS = 1
export const RANK_MATCH_NS = 1
/** sort=priority in a circle: above this many base points in its boxes, byRank finds the page (PERF-025). */
export const BY_RANK_MIN = 2048
/** Keys per chunk of the name order (IndexOptions.nameChunk). */
export const NAME_CHUNK = 512
/** Keys one task of a built index's name order sorts (IndexOptions.nameSortSlice; PERF-040). */
export const NAME_SORT_SLICE = 2048

// ---- Typos (query/fuzzy.ts)

/** Above this many candidates, a search with typos by name or priority marks its matches and walks the name order, rather than a heap. */
export const FUZZY_HEAP_MAX = 2000

/** Keys a background cluster build reads a task: about a millisecond of the event loop. */
export const CLUSTER_READ_SLICE = 4096
