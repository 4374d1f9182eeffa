// One locator's published locations, in memory. Pure TypeScript: no HTTP, no SQL. Every answer
// equals a naive scan of the docs (test/engine/oracle-*.test.ts prove it).
//
// LocatorIndex is the facade; the engine lives in modules beside it:
// - keys.ts: each location has a key, a small integer; every per-location table is indexed by key.
// - base.ts: a static KDBush base over the keys as they were at the last compaction, its tables by
//   kd position; geo/point-grid.ts: the delta, the keys added or moved since, by grid cell.
// - build/: compaction (a new base, scheduled after the write that crosses the delta's bound).
// - geo/: sphere maths, boxes, the query circle's tests, the kd walks, the kd build.
// - tags.ts: tag ids and bitsets, tag plans; columns.ts: the base's bit columns of tags and words.
// - text/: the vocabulary, the term pool, prefix lookup and prefix columns, FlexSearch postings.
// - query/: a query's plan, the heap of the best, the radius paths, the name and priority pages.
// - open-now.ts: which locations are open at an instant, from their hours, kept until each changes.
// - tuning.ts: every tuning constant.
import { Compactor } from './build/compaction'
import { type ClustersResult, clustersIn, leavesOf, levelClusters, type VisitIn } from './clusters/answer'
import { MAX_CLUSTER_ZOOM } from './clusters/levels'
import { buildClusterTree, clusterTreeNow } from './clusters/build'
import type { ClusterTree } from './clusters/tree'
import { NameOrderBuild } from './name-order-build'
import { searchWords } from './query/plan'
import { runQuery, visitMatches } from './query/query'
import { defaultSchedule } from './schedule'
import { startWorker } from './worker-jobs'
import type { KeyOpenState, OpeningHours } from './open-now'
import { IndexState } from './state'
import {
  BY_RANK_MIN,
  CLUSTER_NOW_MAX,
  COMPACTION_SLICE,
  DELTA_MIN,
  FUZZY_HEAP_MAX,
  KD_WORKER_MIN,
  NAME_SORT_SLICE,
  NODE_SIZE,
  TEXT_GARBAGE_MIN,
  TEXT_MIN_KEYS,
} from './tuning'
import type { IndexDoc, IndexEntry, IndexOptions, IndexQuery, IndexResult, Schedule } from './types'

export { type Bbox, bboxMiddle, boxesAround } from './geo/boxes'
export type { ClusterHit, ClustersResult } from './clusters/answer'
export { MAX_ZOOM } from './clusters/levels'
export { CLOSED, type HoursTexts, hoursTextOn, type KeyOpenState, OPEN, type OpeningHours, UNKNOWN } from './open-now'
export { searchWords } from './query/plan'
export { defaultSchedule, requestSeen, stepEnd } from './schedule'
export type {
  IndexDoc,
  IndexEntry,
  IndexHit,
  IndexOptions,
  IndexQuery,
  IndexResult,
  Schedule,
  SortOrder,
  TagLogic,
} from './types'

export class LocatorIndex {
  private readonly s: IndexState
  private readonly schedule: Schedule
  private readonly compactor: Compactor
  private readonly nameChunk: number | undefined
  private readonly nameSortSlice: number
  /** The name order's build while it runs (after a build of the index); null otherwise. */
  private nameBuild: NameOrderBuild | null = null
  private readonly byRankMin: number
  private readonly fuzzyHeapMax: number
  /** Set by dispose(): the index is no longer used, and its scheduled work is skipped. */
  private disposed = false
  /** True from LocatorIndex.loading() until finishLoad() is done: not to be queried or written meanwhile. */
  private isLoading = false
  private readonly kdWorkerMin: number
  /** Below this many live keys, no FlexSearch postings are made (TEXT_MIN_KEYS). */
  private readonly textMinKeys: number
  /** Below this many points a cluster tree is built at once, when first asked for. */
  private readonly clusterNowMax: number
  private readonly clusterReadSlice: number | undefined
  /** A cluster tree build under way, and whether another is due when it ends (a compaction swapped in meanwhile). */
  private clusterBuilding = false
  private clusterAgain = false

  /**
   * An empty index to fill with load(), a slice of docs at a time, then finishLoad(): the same
   * index the constructor builds from the same docs, without holding the event loop for it.
   */
  static loading(options: IndexOptions = {}): LocatorIndex {
    return new LocatorIndex([], options, true)
  }

  constructor(docs: Iterable<IndexDoc> = [], options: IndexOptions = {}, loading = false) {
    // Every task this index schedules (compaction steps, the FlexSearch fill, the name order) is
    // skipped once it is disposed.
    const schedule = options.schedule ?? defaultSchedule
    this.schedule = (task) =>
      schedule(() => {
        if (!this.disposed) task()
      })
    const s = (this.s = new IndexState(this.schedule, options.textGarbageMin ?? TEXT_GARBAGE_MIN))
    const kdWorkerMin = (this.kdWorkerMin = options.kdWorkerMin ?? KD_WORKER_MIN)
    this.compactor = new Compactor(
      s,
      this.schedule,
      {
        nodeSize: options.nodeSize ?? NODE_SIZE,
        compactionSlice: options.compactionSlice ?? COMPACTION_SLICE,
        kdWorkerMin,
        deltaMin: options.deltaMin ?? DELTA_MIN,
      },
      () => {
        this.dropMade(true)
        this.clustersDue()
        this.startText()
      },
    )
    this.nameChunk = options.nameChunk
    this.textMinKeys = options.textMinKeys ?? TEXT_MIN_KEYS
    this.clusterNowMax = options.clusterNowMax ?? CLUSTER_NOW_MAX
    this.clusterReadSlice = options.clusterReadSlice
    this.nameSortSlice = options.nameSortSlice ?? NAME_SORT_SLICE
    this.byRankMin = options.byRankMin ?? BY_RANK_MIN
    this.fuzzyHeapMax = options.fuzzyHeapMax ?? FUZZY_HEAP_MAX
    this.isLoading = loading
    if (loading) return
    for (const doc of docs) this.put(doc)
    s.shrink()
    s.prefixes.sort(s.terms.vocab)
    this.compactor.compactNow()
    // Its compactions will sort in the worker thread: start that now, while the build blocks anyway.
    if (s.keys.live >= kdWorkerMin) startWorker()
    this.startTextAndNames()
  }

  /** Whether it is being filled (LocatorIndex.loading()) and finishLoad() is not done. */
  get loading(): boolean {
    return this.isLoading
  }

  /** Adds a doc to an index made by LocatorIndex.loading(), before finishLoad(). */
  load(doc: IndexDoc): void {
    if (!this.isLoading) throw new Error('load() is for an index made by LocatorIndex.loading(), before finishLoad()')
    this.put(doc)
  }

  /**
   * After the last load(): what the constructor does after its docs, in scheduled tasks (the
   * compaction in steps, its KDBush sorted in the worker thread when large); `done` is called
   * once the index answers as a built one, in the task that finished it.
   */
  finishLoad(done: () => void): void {
    const { s } = this
    const sortStep = s.prefixes.sortInSteps(s.terms.vocab, this.nameSortSlice)
    const sorting = () => {
      if (!sortStep()) return this.schedule(sorting)
      if (s.keys.live >= this.kdWorkerMin) startWorker()
      this.compactor.start()
      this.schedule(compacting)
    }
    const compacting = () => {
      if (this.compactor.compacting) return this.schedule(compacting)
      this.isLoading = false
      this.startTextAndNames()
      done()
    }
    const shrinks = s.shrinkSteps()
    const shrinking = () => {
      shrinks.shift()!()
      this.schedule(shrinks.length > 0 ? shrinking : sorting)
    }
    this.schedule(shrinking)
  }

  /** The build's last steps: the terms FlexSearch holds chosen, its fill and the name order started (scheduled tasks). */
  private startTextAndNames(): void {
    this.startText()
    this.buildNameOrder()
  }

  /** The FlexSearch postings chosen and their fill started, unless started already or the index has fewer than textMinKeys live keys. */
  private startText(): void {
    if (this.s.postings.started || this.s.keys.live < this.textMinKeys) return
    this.s.postings.chooseTerms()
    this.s.postings.start()
  }

  /**
   * Its owner let it go (src/indexes/registry.ts: idle, or its locator's Query API turned off): the
   * work it left to scheduled tasks is dropped rather than done for nobody. Not to be queried or
   * written after.
   */
  dispose(): void {
    this.disposed = true
    this.compactor.drop()
  }

  get size(): number {
    return this.s.keys.live
  }

  /**
   * How many times a location was put in or taken out (KeyTable's count): what is derived from the
   * locations (store-countries.ts, entry.ts tagWords) is kept until it changes.
   */
  get writes(): number {
    return this.s.keys.writes
  }

  /** Adds or replaces a location (by id). */
  upsert(doc: IndexDoc): void {
    const key = this.put(doc)
    if (this.s.postings.started) this.s.postings.add(key)
    if (this.compactor.needed()) this.compactor.start()
  }

  /** Removes a location; unknown ids are ignored. */
  remove(id: string): void {
    const { s } = this
    const key = s.keys.keyOf.get(id)
    if (key === undefined) return
    this.compactor.written(key)
    this.unlink(key)
    s.nameOrder?.remove(key)
    this.nameBuild?.touch(key)
    s.keys.free(key, id)
    s.open.remove(key)
    s.base.kill(key)
    s.delta.delete(key)
  }

  forEach(fn: (entry: IndexEntry, key: number) => void): void {
    this.s.keys.entries.forEach((e, key) => e && fn(e, key))
  }

  /**
   * Every live entry, nearby locations together: the base's in kd order, then the delta's. What
   * an answer reads of its locations (their public JSON) is read fastest when stored in this order.
   */
  entriesInSpaceOrder(): IndexEntry[] {
    const out: IndexEntry[] = []
    const { base, keys, delta } = this.s
    const { key, dead } = base
    for (let at = 0; at < key.length; at++) if (dead[at] !== 1) out.push(keys.entries[key[at]!]!)
    for (const k of delta.keys) out.push(keys.entries[k]!)
    return out
  }

  /**
   * Ranks every location by the first of `tests` it passes (that test's position; none passed:
   * the number of tests): a tag it has (lowercased), or its id among `ids`. For new priority
   * rules without a rebuild, no point moved: the tags are the index's own bits, so no row is read
   * for them. (A rule is one test: parsePriorityRules admits no rule of two kinds.)
   */
  rankBy(tests: readonly ({ tag: string } | { ids: Iterable<string> })[]): void {
    const { keys, tags } = this.s
    const W = tags.words
    const { entries, rankOf } = keys
    const tagBits = tags.bits
    // A tag test as (word, bit) in a key's row; a tag no location has: a bit no row sets. An ids
    // test as a mark per key, its ids looked up once each.
    const plan = tests.map((test) => {
      if ('ids' in test) {
        const marks = new Uint8Array(entries.length)
        for (const id of test.ids) {
          const key = keys.keyOf.get(id)
          if (key !== undefined) marks[key] = 1
        }
        return { marks, word: 0, bit: 0 }
      }
      const id = tags.idOf.get(test.tag)
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
      rankOf[key] = rank
    }
    this.dropMade(false)
  }

  /**
   * Drops what queries made from the base and its ranks (kd nodes' best ranks, rank columns, and
   * for a new base its name ranks), once they no longer hold, and makes those in use again in
   * background tasks, one each, rather than leave them to the first query that needs them
   * (PERF-029). Called once the base and the ranks are as queries will read them.
   */
  private dropMade(names: boolean): void {
    const { base, keys } = this.s
    const nodes = base.nodeMinRank !== null
    const columns = base.rankCols !== null
    const named = names && base.nameRanks.made
    base.nodeMinRank = null
    base.rankCols = null
    if (names) base.nameRanks.made = false
    // Each for the base and ranks of its own turn (another swap may come first); what a query made meanwhile is kept.
    if (nodes) this.schedule(() => base.kd !== null && base.nodeMinRanks(keys.rankOf))
    if (columns) this.schedule(() => base.rankColumns(keys.rankOf))
    if (named) this.schedule(() => this.s.nameOrder !== null && base.nameRanksFrom(this.s.nameOrder))
  }

  /** The key of an entry (as hits carry it), or -1 if `doc` was replaced or removed since. */
  keyOf(doc: IndexEntry): number {
    return this.s.keys.currentKey(doc)
  }

  get(id: string): IndexEntry | null {
    const key = this.s.keys.keyOf.get(id)
    return key === undefined ? null : this.s.keys.entries[key]!
  }

  /** The entry's JSON place (IndexDoc.json) as kept now; null if none, or if `doc` was replaced or removed since. */
  json(doc: IndexEntry): number | null {
    const { keys } = this.s
    const key = keys.currentKey(doc)
    return key === -1 || keys.jsonOf[key] === -1 ? null : keys.jsonOf[key]!
  }

  /** Keeps the entry's JSON place (null: none), as upsert does from IndexDoc.json; false (nothing kept) if `doc` was replaced or removed since. */
  setJson(doc: IndexEntry, json: number | null): boolean {
    const { keys } = this.s
    const key = keys.currentKey(doc)
    if (key === -1) return false
    keys.jsonOf[key] = json ?? -1
    return true
  }

  /** Forgets every entry's JSON place (all null), as when every JSON is to be made again. */
  clearJson(): void {
    this.s.keys.jsonOf.fill(-1)
  }

  /**
   * The tags at least one location carries: each lowercased (as tags match), and as it is spelt
   * most often (of equals, the first in code unit order: every process names the same).
   */
  tagSpellings(): { tag: string; spelt: string }[] {
    return this.s.tags.spellings()
  }

  /**
   * Folds the delta into a new KDBush base and drops the term pool's garbage, now, in one go (a
   * scheduled compaction under way is dropped). Upsert schedules the same work in steps instead.
   */
  compact(): void {
    this.compactor.compactNow()
  }

  /**
   * Schedules a compaction, in steps as upsert does past the delta's bound, when the changes since
   * the base was built (locations in the delta, and dead in the base) number at least the bound's
   * minimum (DELTA_MIN) and none is under way; returns whether it did. For a quiet time after
   * writes, or for a base left old by writes that never stop (IndexRegistry.settleDeltas): below
   * its bound a delta could stay for good, and it costs the queries that read all of it (PERF-030).
   */
  settle(): boolean {
    return this.compactor.settle()
  }

  /**
   * Whether the cluster tree answers as a fresh one would: none made yet, or none of its keys
   * written since its build. Otherwise points written since join it (clusters/answer.ts), and
   * another process, whose tree was built at another time, may answer otherwise.
   */
  clustersExact(): boolean {
    const tree = this.s.clusters
    return tree === null || tree.builtAt === this.s.keys.writes
  }

  /** Builds the cluster tree anew when written since its build (a quiet time after writes: IndexRegistry.settleDeltas); returns whether it did. */
  settleClusters(): boolean {
    if (this.clustersExact() || this.clusterBuilding) return false
    this.clustersDue()
    return true
  }

  /** When the base was built (performance.now()): the index made, then each compaction's swap. */
  get baseBuiltAt(): number {
    return this.s.base.builtAt
  }

  /**
   * The clusters and single locations at `zoom` of what a bbox query matches (its box, tags, words,
   * open now; not its sort nor page); null while the first cluster tree of a large index is built
   * in the background (from clusterNowMax points; a smaller one is built now, at once).
   */
  clusters(q: IndexQuery, zoom: number): ClustersResult | null {
    const tree = this.clusterTree()
    if (tree === null) return null
    const { keys } = this.s
    // No filter, nothing written since the build: the zoom's items as built answer (levelClusters).
    const unfiltered = q.tags.length === 0 && q.openAt == null && searchWords(q.search).length === 0
    if (unfiltered && zoom <= MAX_CLUSTER_ZOOM && keys.writes === tree.builtAt)
      return levelClusters(tree, keys, zoom, q.bbox!)
    return clustersIn(tree, keys, zoom, q.bbox!, this.visitIn(q), this.s.clusterScratch)
  }

  /**
   * A cluster's matches (a clusters answer's id; the query's tags, words and open now), by name,
   * the query's page of them; null while the first cluster tree is built; undefined for no such
   * cluster (its first location written, edited, moved or deleted, since the tree was built).
   */
  clusterLeaves(q: IndexQuery, id: string): IndexResult | null | undefined {
    const tree = this.clusterTree()
    if (tree === null) return null
    const { keys } = this.s
    const leaves = leavesOf(tree, keys, id, this.visitIn(q))
    if (leaves === null) return undefined
    leaves.sort((a, b) => keys.byName(a, b))
    const page = leaves.slice(q.offset, q.offset + q.limit)
    return { total: leaves.length, hits: page.map((key) => keys.hit(key, null)) }
  }

  /** A hit's point (IndexHit.key), as it is until the next write. */
  pointAt(key: number): { lat: number; lng: number } {
    return { lat: this.s.keys.lat[key]!, lng: this.s.keys.lng[key]! }
  }

  /** Visits what `q` matches in a box, its open states brought to q.openAt first. */
  private visitIn(q: IndexQuery): VisitIn {
    if (q.openAt != null) this.s.open.advance(q.openAt)
    return (bbox, visit) => visitMatches(this.s, { ...q, bbox }, visit)
  }

  /** The cluster tree, built now when small, else started in the background (null until it is done). */
  private clusterTree(): ClusterTree | null {
    const { s } = this
    if (s.clusters !== null || this.clusterBuilding) return s.clusters
    if (s.keys.live < this.clusterNowMax) return (s.clusters = clusterTreeNow(s.keys))
    this.buildClusters()
    return null
  }

  /** Builds a cluster tree of the points as they are, in the worker thread; once done, another if one became due meanwhile. */
  private buildClusters(): void {
    this.clusterBuilding = true
    const done = (tree: ClusterTree) => {
      this.clusterBuilding = false
      if (this.disposed) return
      this.s.clusters = tree
      if (this.clusterAgain) {
        this.clusterAgain = false
        this.buildClusters()
      }
    }
    buildClusterTree(this.s.keys, this.schedule, done, this.clusterReadSlice)
  }

  /** After a compaction: a tree in use is built anew, at once when small, else in the worker thread (the old one answers meanwhile). */
  private clustersDue(): void {
    const { s } = this
    if (s.clusters === null) return
    if (s.keys.live < this.clusterNowMax) s.clusters = clusterTreeNow(s.keys)
    else if (this.clusterBuilding) this.clusterAgain = true
    else this.buildClusters()
  }

  /** Whether a scheduled compaction is under way. */
  get compacting(): boolean {
    return this.compactor.compacting
  }

  /** Whether the FlexSearch postings are complete (a word-first plan is possible). */
  get textIndexReady(): boolean {
    return this.s.postings.ready
  }

  /**
   * Whether the work the build left to scheduled tasks is done: the FlexSearch postings filled
   * (when it has any) and the name order made. A compaction does not count; a FlexSearch rebuild
   * (after many writes left its postings mostly garbage) makes this false again until it is done.
   */
  get settled(): boolean {
    const { postings } = this.s
    return (postings.ready || !postings.started) && this.s.nameOrder !== null
  }

  /** Sizes, for benchmarks and diagnostics. */
  stats() {
    const { keys, base, delta, terms, tags, postings } = this.s
    return {
      live: keys.live,
      base: base.size,
      delta: delta.size,
      compacting: this.compactor.compacting,
      kdSortedInWorker: this.compactor.kdSortedInWorker,
      deltaBound: this.compactor.deltaBound(),
      terms: terms.vocab.size,
      termsInText: postings.inText.reduce((n, x) => n + x, 0),
      tags: tags.names.length,
      textReady: postings.ready,
      /** Made from the base for queries by priority (kd nodes' best ranks, rank columns) and all=true pages by name rank: until the next compaction. */
      ranksMade: { nodes: base.nodeMinRank !== null, columns: base.rankCols !== null, names: base.nameRanks.made },
    }
  }

  query(q: IndexQuery): IndexResult {
    if (q.openAt != null) this.s.open.advance(q.openAt)
    return runQuery(this.s, q, this.byRankMin, this.fuzzyHeapMax)
  }

  /**
   * Brings every location's open state to instant `t` (ms); returns the earliest instant one of
   * them may change (Infinity: none will). Answers at `t` hold until then.
   */
  openAt(t: number): number {
    return this.s.open.advance(t)
  }

  /** openAt(t) in steps (a build's, src/indexes/rebuild.ts): true once every state due by `t` is found, else stopped at `end` (performance.now()). */
  openSteps(t: number, end: number): boolean {
    return this.s.open.advanceUntil(t, end)
  }

  /** A key's opening hours as its doc gave them (IndexDoc.hours); null when none. */
  openingHours(key: number): OpeningHours | null {
    return this.s.open.hoursOf(key)
  }

  /** A hit's open state at the last instant openAt() or a query was asked for (KeyOpenState). */
  openState(key: number): KeyOpenState {
    return this.s.open.stateOf(key)
  }

  /** What `make` makes of a hit's open state (and hours), kept until that state changes: its text in an answer, say. */
  openMade<T>(key: number, make: (state: KeyOpenState, hours: OpeningHours | null) => T): T {
    return this.s.open.cached(key, make)
  }

  /** The entry of a hit's key (IndexHit), as it is until the next write. */
  entryAt(key: number): IndexEntry {
    return this.s.keys.entries[key]!
  }

  /** Stores a doc under its key (a new one if the id is new), in the delta. Returns the key. */
  private put(doc: IndexDoc): number {
    const { s } = this
    const { keys } = s
    let key = keys.keyOf.get(doc.id)
    if (key !== undefined) {
      this.compactor.written(key)
      this.unlink(key)
      s.nameOrder?.remove(key)
    } else {
      key = keys.take(doc.id)
      this.compactor.written(key)
      if (key === keys.entries.length) s.grow(key + 1)
    }
    keys.set(key, doc)
    s.nameOrder?.insert(key)
    this.nameBuild?.touch(key)
    s.base.kill(key)
    s.delta.set(key, doc.lng, doc.lat)
    s.tags.link(key, doc.tags)
    s.open.put(key, doc.hours ?? null)
    const { vocab } = s.terms
    const before = vocab.size
    s.terms.link(key, doc.text, doc.places ?? '')
    for (let t = before; t < vocab.size; t++) {
      s.prefixes.add(t, vocab.terms[t]!)
      s.postings.addTerm(t)
    }
    return key
  }

  /** Drops a key's tags and terms from the counts (before a replace or a remove). */
  private unlink(key: number): void {
    this.s.tags.unlink(key)
    this.s.terms.unlink(key)
    this.s.postings.drop(key)
  }

  /** Makes the name order in scheduled tasks (name-order-build.ts); queries do without it meanwhile. */
  private buildNameOrder(): void {
    const { keys } = this.s
    const build = new NameOrderBuild(keys, (a, b) => keys.byName(a, b), this.nameSortSlice, this.nameChunk)
    this.nameBuild = build
    const step = () => {
      const order = build.step()
      if (order === null) return this.schedule(step)
      this.s.nameOrder = order
      this.nameBuild = null
    }
    this.schedule(step)
  }
}
