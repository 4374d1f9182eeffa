// The per-locator indexes of this process, loaded at start (preload), when a locator is made or
// turned public (a background task), or else on a locator's first public query, let go when its
// Query API is turned off or when nobody has queried it for a while (evictIdle(): memory follows
// the locators in use; the next query builds it again), and kept in step with SQLite through the
// change log (follower.ts): before each query, after each Management API write and once a second,
// sync() applies every change committed since the last one, by any process. So a write is
// visible to the very next query, from any process.
import {
  defaultSchedule,
  LocatorIndex,
  type IndexEntry,
  type IndexOptions,
  type Schedule,
} from '../engine/locator-index'
import type { Store } from '../store'
import type { Change } from '../store/changes'
import type { FilterGroup } from '../store/filters'
import type { Locator } from '../store/locators'
import { BuildAttempts, type BuildFailure } from './build-attempts'
import { CATCH_UP_MIN, CatchUps } from './catch-up'
import { changedMeanwhile } from './errors'
import { builtEntry, type Entry, entrySettings, labelsChanged, publicFilters, putRow, refreshedEntry } from './entry'
import { ChangeFollower } from './follower'
import { idleLocators, settleDeltas } from './idle'
import { fillJson, type JsonFill, keepJson, REORDER_MIN_BYTES, reorderLater } from './json-fill'
import { preload, servesQueries } from './preload'
import { searchDoc, type PresentContext } from './present'
import { BackgroundBuilds, isBacklog } from './rebuild'
import { Versions, versionOf } from './versions'
import { BACKGROUND_BUILD_MIN, BACKLOG_MIN, BUILD_RETRY_MS, BUSY_RETRY_MS, COLD_BUILD_MIN } from './bounds'

export class IndexRegistry {
  private entries = new Map<string, Entry>()
  private tokens = new Map<string, Locator>()
  /** What version each locator's answers carry (versions.ts). */
  private readonly versions: Versions
  /** The instant answers are made for (ms since the epoch): their open states and how long they hold. Tests set one. */
  readonly now: () => number
  /** Locators whose index evictIdle() let go: a change to their settings does not build it again (their next query does). */
  private evicted = new Set<string>()
  /** The builds that failed or met a busy database, and when each is tried again (build-attempts.ts). */
  private readonly attempts: BuildAttempts
  /** Reads the change log and hands each change to apply() (follower.ts). */
  private readonly follower: ChangeFollower
  private answer = Buffer.allocUnsafeSlow(64 * 1024)
  /** What the JSON fill needs of this registry. */
  private readonly fill: JsonFill
  /** Indexes built again in background tasks while the old ones answer (rebuild.ts). */
  private readonly builds: BackgroundBuilds
  /** A bulk write's location changes, applied in slices while its locator's queries wait (catch-up.ts). */
  private readonly catchUps: CatchUps
  /** See BACKGROUND_BUILD_MIN and COLD_BUILD_MIN; tests use small ones. */
  private readonly backgroundBuildMin: number
  private readonly coldBuildMin: number
  private readonly indexOptions: IndexOptions
  /** See BACKLOG_MIN; tests use small ones. */
  private readonly backlogMin: number
  /** See BUILD_RETRY_MS; tests use 0. */
  readonly buildRetryMs: number
  /** See BUSY_RETRY_MS; tests use small ones. */
  private readonly busyRetryMs: number
  /** What the retries (BUILD_RETRY_MS, BUSY_RETRY_MS) and CATCH_UP_MAX_MS are counted on (ms, performance.now()); tests step one. */
  private readonly clock: () => number

  /** Told of each index built again after evictIdle() let it go, by its query or in background tasks (src/server/app.ts logs it). */
  private readonly onRebuilt: (locatorId: string, locations: number, ms: number, inBackground: boolean) => void
  /** Told of each index let go to be built again from its rows rather than changed `changes` times (dropBacklogged(); src/server/app.ts logs it). */
  private readonly onBacklog: (locatorId: string, changes: number) => void
  /** Told when the change log no longer holds the changes applied, or to apply (restart(); src/server/app.ts logs it). */
  private readonly onRewound: (appliedSeq: number, logSeq: number, cause: 'rewound' | 'pruned') => void

  constructor(
    private readonly store: Store,
    /** When index upkeep and the JSON fill run; tests may run them at chosen points. */
    private readonly schedule: Schedule = defaultSchedule,
    options: {
      reorderMinBytes?: number
      /** The indexes' own options (src/engine/locator-index.ts); tests use small bounds to reach compactions. */
      index?: Omit<IndexOptions, 'schedule'>
      onRebuilt?: (locatorId: string, locations: number, ms: number, inBackground: boolean) => void
      onBacklog?: (locatorId: string, changes: number) => void
      onBuildFailed?: (locatorId: string, error: unknown) => void
      onRewound?: (appliedSeq: number, logSeq: number, cause: 'rewound' | 'pruned') => void
      backlogMin?: number
      catchUpMin?: number
      backgroundBuildMin?: number
      coldBuildMin?: number
      /** Told of each index built again in the background and swapped in (rebuild.ts). */
      onBuiltInBackground?: (locatorId: string, locations: number, ms: number) => void
      buildRetryMs?: number
      busyRetryMs?: number
      now?: () => number
      clock?: () => number
    } = {},
  ) {
    this.now = options.now ?? Date.now
    this.clock = options.clock ?? (() => performance.now())
    this.versions = new Versions(store, () => this.follower.appliedSeq, this.now)
    this.indexOptions = { ...options.index, schedule }
    this.backlogMin = options.backlogMin ?? BACKLOG_MIN
    this.backgroundBuildMin = options.backgroundBuildMin ?? BACKGROUND_BUILD_MIN
    this.coldBuildMin = options.coldBuildMin ?? COLD_BUILD_MIN
    this.buildRetryMs = options.buildRetryMs ?? BUILD_RETRY_MS
    this.busyRetryMs = options.busyRetryMs ?? BUSY_RETRY_MS
    this.attempts = new BuildAttempts(this.buildRetryMs, this.busyRetryMs, options.onBuildFailed ?? (() => {}))
    this.fill = {
      store,
      schedule,
      busyRetryMs: this.busyRetryMs,
      reorderMinBytes: options.reorderMinBytes ?? REORDER_MIN_BYTES,
      current: (locatorId) => this.entries.get(locatorId),
    }
    this.onRebuilt = options.onRebuilt ?? (() => {})
    this.onBacklog = options.onBacklog ?? (() => {})
    this.onRewound = options.onRewound ?? (() => {})
    this.builds = new BackgroundBuilds({
      store,
      schedule,
      indexOptions: this.indexOptions,
      busyRetryMs: this.busyRetryMs,
      backlogMin: this.backlogMin,
      now: () => this.now(),
      sync: () => this.sync(),
      appliedSeq: () => this.follower.appliedSeq,
      install: (locatorId, entry) => this.install(locatorId, entry),
      fallBack: (locatorId) => {
        this.drop(locatorId)
        this.buildLater(locatorId, true) // meets the failure itself, before a waiting query asks again
      },
      onBuilt: (locatorId, locations, ms, replaced) => {
        if (replaced) options.onBuiltInBackground?.(locatorId, locations, ms)
        else if (this.evicted.delete(locatorId)) this.onRebuilt(locatorId, locations, ms, true)
      },
    })
    this.catchUps = new CatchUps(options.catchUpMin ?? CATCH_UP_MIN, {
      schedule,
      apply: (change) => {
        this.versions.applied(change)
        this.putLocation(this.entries.get(change.locatorId)!, change) // built: drop() discards its catch-up
      },
      failed: (locatorId) => {
        this.drop(locatorId)
        this.buildLater(locatorId)
      },
      clock: this.clock,
    })
    this.follower = new ChangeFollower(
      store,
      {
        apply: (change) => this.apply(change),
        reading: (batch) => {
          const built = (id: string) => this.entries.has(id) && !this.builds.has(id)
          for (const id of this.catchUps.reading(batch, built)) this.versions.current(id) // before these pass
        },
        restart: (cause, applied, now) => this.restart(cause, applied, now),
        backlog: (from, last) => this.dropBacklogged(from, last),
        skipped: () => this.builds.locators(),
        applyOwn: (changes) => {
          // Its old index answers until the swap: this process's writes show there at once (a
          // version of their own), and reach the new index with the rest at its swap.
          for (const change of this.builds.ownToShow(changes)) {
            const entry = this.entries.get(change.locatorId)
            if (entry === undefined || !this.builds.has(change.locatorId)) continue
            this.putLocation(entry, change)
            this.builds.ownApplied(change.locatorId, versionOf(change))
          }
        },
      },
      this.busyRetryMs,
      this.backlogMin,
      this.clock,
    )
  }

  /**
   * Applies every change committed since the last call (ChangeFollower.sync). With a budget (ms,
   * for the idle sync), says whether everything was applied.
   */
  sync(budgetMs = Infinity): boolean {
    return this.follower.sync(budgetMs)
  }

  /**
   * The change log no longer holds the changes applied or to apply: the file was rewound (a
   * backup restored into it, another file put in its place), and changes after the last applied
   * may reuse its seqs; or it was pruned past the last applied (a process that applied nothing
   * for CHANGES_KEPT_MS, src/server/upkeep.ts), and changes not applied here are gone. Every
   * index is let go and built again from the rows (in the background, or by its next query), and
   * every cached token and version is forgotten (versions name their change's `at` too, so none
   * given before is given again for other rows).
   */
  private restart(cause: 'rewound' | 'pruned', applied: number, now: number): void {
    this.versions.forgetAll()
    this.tokens.clear()
    this.attempts.clear()
    this.evicted.clear()
    const built = [...new Set([...this.entries.keys(), ...this.builds.locators()])]
    for (const locatorId of built) this.drop(locatorId)
    for (const locatorId of built) this.buildLater(locatorId)
    this.onRewound(applied, now, cause)
  }

  /**
   * Builds again from their rows the indexes that many of the changes not yet applied are to (see
   * BACKLOG_MIN): a large one in background tasks while it answers as it was (rebuild.ts); any
   * other let go and built in a background task, or by its next query, whichever comes first. Their
   * changes are then applied as to a locator without an index (its version only). The follower
   * asks with the changes in (from, last], once they are BACKLOG_MIN or more.
   */
  private dropBacklogged(from: number, last: number): void {
    for (const [locatorId, entry] of [...this.entries]) {
      this.catchUps.flush(locatorId) // the changes taken before these
      const changes = this.store.changes.locationCount(locatorId, from, last)
      if (!isBacklog(changes, entry.index.size, this.backlogMin)) continue
      this.onBacklog(locatorId, changes)
      // An old index answers meanwhile only once all its JSON is made: it reads no row, which may have changed since.
      const large = entry.index.size + changes >= this.backgroundBuildMin
      if (this.builds.has(locatorId) || (large && entry.jsonReady && entry.stale === null)) {
        try {
          this.builds.start(locatorId, this.versions.current(locatorId), last)
          continue
        } catch {
          // Its settings could not be read (a busy database): let go, as a smaller one is.
        }
      }
      this.drop(locatorId)
      this.buildLater(locatorId)
    }
  }

  /** Puts an index built in the background in place of the old one, if any (rebuild.ts), and fills its JSON. */
  private install(locatorId: string, entry: Entry): boolean {
    // Its changes were skipped (not read): its version is read from the log again.
    this.versions.forget(locatorId)
    const old = this.entries.get(locatorId)
    old?.index.dispose()
    entry.used = old?.used ?? false
    entry.usedAt = old?.usedAt ?? entry.usedAt
    this.entries.set(locatorId, entry)
    entry.index.openAt(this.now()) // every open state found here, not by the next answer
    if (!entry.jsonReady) fillJson(this.fill, locatorId, entry, entry.index.entriesInSpaceOrder(), 0)
    return old !== undefined
  }

  private apply(change: Change): void {
    if (change.entity !== 'location' || !this.entries.has(change.locatorId)) this.catchUps.flush(change.locatorId)
    else if (this.catchUps.took(change)) return
    this.versions.applied(change)
    if (this.relabelled(change)) return
    if (this.builds.has(change.locatorId)) {
      // Its old index answers as it was: location changes are applied to the new one at its swap.
      if (change.entity === 'location' || change.entity === 'key') return
      // Settings changed: the build, made with the old ones, and the old index go.
      this.drop(change.locatorId)
      if (change.entity !== 'locator') this.buildLater(change.locatorId)
    }
    if (change.entity === 'locator') {
      this.tokens.clear() // settings or token changed: look them up again
      // A locator made or turned public since the start (preload) is built by a background task,
      // not by its first query; from then on every write reaches its index as it is applied. One
      // whose Query API was turned off lets its index go (memory): nobody can query it, and
      // turning the API on again builds it anew. One let go for being idle is built by its next
      // query, not by a change to its settings.
      const locator = this.store.locators.get(change.locatorId)
      if (locator === null || !servesQueries(locator)) {
        this.drop(change.locatorId)
        this.evicted.delete(change.locatorId)
        this.attempts.forget(change.locatorId) // nobody can query it: nothing to report
      } else if (!this.entries.has(change.locatorId) && !this.evicted.has(change.locatorId))
        this.buildLater(change.locatorId)
      else {
        // Whether answers show external ids is in every location's JSON: made again when it changes.
        const entry = this.entries.get(change.locatorId)
        if (entry && entry.ctx.showExternalId !== locator.publicExternalId)
          (entry.stale ??= { ranks: false, json: false }).json = true
      }
      return
    }
    const entry = this.entries.get(change.locatorId)
    if (!entry) return
    if (change.entity === 'location') this.putLocation(entry, change)
    else if (change.entity !== 'key') {
      // Priority rules change ranks; filters and custom fields every location's JSON. Brought up
      // to date on next use, once for a batch of such changes (refresh()).
      const stale = (entry.stale ??= { ranks: false, json: false })
      if (change.entity === 'priority') stale.ranks = true
      else stale.json = true
    }
  }

  /**
   * Whether new filters give a large loaded index's tags other labels, searched words: then it is
   * built again in background tasks while it answers as before the change, with that version
   * (rebuild.ts), as after a bulk write. Built by a query, it would hold every locator's queries.
   */
  private relabelled(change: Change): boolean {
    const entry = this.entries.get(change.locatorId)
    if (change.entity !== 'filters' || entry === undefined || this.builds.has(change.locatorId)) return false
    if (entry.index.size < this.backgroundBuildMin) return false
    try {
      if (!labelsChanged(this.store, change.locatorId, entry)) return false
      // An old index answers meanwhile only once all its JSON is made (dropBacklogged); else it
      // goes, and its next query waits for a build in background tasks (whenBuilt).
      // The version before this change, from the log: the follower counts it applied already.
      const before = this.store.changes.lastFor(change.locatorId, change.seq - 1)
      if (entry.jsonReady && entry.stale === null)
        this.builds.start(change.locatorId, before === null ? '0' : versionOf(before), change.seq)
      else this.drop(change.locatorId)
      return true
    } catch {
      return false // its settings could not be read (a busy database): made again at its next query
    }
  }

  private putLocation(entry: Entry, change: Change): void {
    const row = change.op === 'delete' ? null : this.store.locations.get(change.locatorId, change.entityId!)
    putRow(entry, change.entityId!, row)
    entry.writtenAt = performance.now()
    reorderLater(this.fill, change.locatorId, entry)
  }

  /** Builds the index of a locator whose Query API is on in background tasks (`atOnce`: here, as a query of a small one does), unless built by then. */
  private buildLater(locatorId: string, atOnce = false): void {
    const build = () => {
      if (this.entries.has(locatorId) || this.builds.has(locatorId)) return
      try {
        const locator = this.store.locators.get(locatorId)
        if (!locator || !servesQueries(locator)) return
        this.sync() // as a query does before it asks for an entry
        if (atOnce || this.whenBuilt(locatorId) === null) this.entry(locatorId)
      } catch {
        // The store was closed meanwhile, or a read failed: the first query builds it, and meets
        // any such failure in its own steps.
      }
    }
    if (atOnce) build()
    else this.schedule(build)
  }

  /** Lets go of a locator's index, and of the work it left to background tasks (a build under way too). */
  private drop(locatorId: string): void {
    // Its location changes skipped (not read) while it was built again, or taken and not applied
    // (catchUps): its version is read from the log again.
    if (this.catchUps.discard(locatorId) || this.builds.has(locatorId)) this.versions.forget(locatorId)
    this.builds.cancel(locatorId)
    this.entries.get(locatorId)?.index.dispose()
    this.entries.delete(locatorId)
    this.versions.dropOpen(locatorId)
  }

  /**
   * Tries again, in background tasks, the builds that failed at least buildRetryMs ago: the idle
   * sync asks (src/server/upkeep.ts), so a repaired row is served, and /readyz says so, without waiting
   * for a query (a load balancer that took the servers out of rotation sends none).
   */
  retryFailedBuilds(now = this.clock()): void {
    for (const locatorId of this.attempts.due(now)) this.buildLater(locatorId)
  }

  /** The locators whose index could not be built the last time it was tried (cleared when a build succeeds, or when nobody can query the locator). */
  buildFailures(): BuildFailure[] {
    return this.attempts.list()
  }

  /** A mark for builtAfter(): the background builds started so far. */
  buildMark(): number {
    return this.builds.mark()
  }

  /**
   * Resolves once the locator's index built again in the background since `mark` is swapped in, or
   * its bulk changes are applied (catch-up.ts; never both at once): a write to it answers then, the
   * next query showing it whole. Other locators' work is not waited for. null: none is under way.
   */
  builtAfter(mark: number, locatorId: string): Promise<void> | null {
    return this.builds.after(mark, locatorId) ?? this.catchUps.done(locatorId) ?? null
  }

  /** For metrics: the last change applied here, and each built index's locations and public JSON buffers' bytes. */
  readings() {
    const indexes = []
    for (const [locatorId, { index, arena }] of this.entries)
      indexes.push({ locatorId, locations: index.size, jsonBytes: arena.bytes.allocated })
    return { appliedSeq: this.follower.appliedSeq, indexes }
  }

  /** Whether the locator's index is built (preload, a background build, or a query). */
  has(locatorId: string): boolean {
    return this.entries.has(locatorId)
  }

  /**
   * The locator behind a public token (active or not), or null. Only hits are cached: random
   * tokens must not grow memory. `cachedOnly`: null rather than read the database (it is busy).
   */
  locatorByToken(token: string, cachedOnly = false): Locator | null {
    const cached = this.tokens.get(token)
    if (cached || cachedOnly) return cached ?? null
    const locator = this.store.locators.byToken(token)
    if (locator) this.tokens.set(token, locator)
    return locator
  }

  /**
   * Resolves once the locator's index is built when it is not and has coldBuildMin published
   * locations or more: built in background tasks (rebuild.ts), its first query waits without
   * holding every other locator's (PERF-062); or while a bulk write's are applied (catch-up.ts).
   * null when built, or entry()'s to build at once.
   */
  whenBuilt(locatorId: string): Promise<void> | null {
    if (this.catchUps.waiting(locatorId)) return this.catchUps.done(locatorId)!
    if (this.entries.has(locatorId)) return null
    const under = this.builds.done(locatorId)
    if (under !== undefined) return under
    // Its last try failed or met a busy database: entry() says so, or tries again at once.
    if (this.attempts.hasFailed(locatorId) || this.attempts.metBusy(locatorId)) return null
    if (this.store.locations.count(locatorId, 'published') < this.coldBuildMin) return null
    this.builds.start(locatorId, this.versions.current(locatorId), this.follower.appliedSeq)
    return this.builds.done(locatorId)!
  }

  /**
   * The locator's index, built from its published rows on first use. To be queryable soon, it is
   * built from the columns search needs; each location's public JSON is filled in afterwards by
   * background tasks (and on demand, by json(), for a location an answer needs before that).
   */
  entry(locatorId: string): Entry {
    this.catchUps.flush(locatorId) // read outside a query's wait (whenBuilt), it shows every change taken
    for (let attempt = 1; ; attempt++) {
      const found = this.entries.get(locatorId)
      if (found !== undefined && found.stale === null) return found
      const entry = this.made(locatorId, found)
      // Its rows or settings were read as committed now, maybe past the changes applied: those
      // are applied too, so that version() (up to what is applied) counts every change its
      // answers show. One of them may be its locator's settings again: then it is made again.
      this.sync()
      if (this.entries.get(locatorId) === entry && entry.stale === null) return entry
      // Deleted meanwhile (storeloc locator delete): nothing is built again for it; asked again,
      // its token names nothing.
      if (attempt === 3 || this.store.locators.get(locatorId) === null) throw changedMeanwhile()
    }
  }

  /** entry()'s work when its locator has none, or a stale one: built, or brought up to date. */
  private made(locatorId: string, entry: Entry | undefined): Entry {
    if (entry?.stale) entry = this.refresh(locatorId, entry)
    if (!entry) {
      if (this.builds.has(locatorId)) this.drop(locatorId) // a background build (whenBuilt) gives way to this one
      const t0 = performance.now()
      const at = this.clock()
      this.attempts.refuseTooSoon(locatorId, at)
      let index: LocatorIndex, ctx: PresentContext, filters: FilterGroup[]
      try {
        ;({ filters, ctx } = entrySettings(this.store, locatorId))
        const docs = this.store.locations.indexRows(locatorId, ctx.rankReadsCustomFields).map((r) => searchDoc(r, ctx))
        index = new LocatorIndex(docs, this.indexOptions)
      } catch (e) {
        throw this.attempts.failed(locatorId, at, e)
      }
      this.attempts.forget(locatorId)
      entry = builtEntry(index, ctx, filters)
      this.entries.set(locatorId, entry)
      if (this.evicted.delete(locatorId)) this.onRebuilt(locatorId, index.size, entry.usedAt - t0, false)
      if (!entry.jsonReady) fillJson(this.fill, locatorId, entry, entry.index.entriesInSpaceOrder(), 0)
    }
    return entry
  }

  /** The entry brought up to date after its locator's settings changed (refreshedEntry); undefined: let go, to be built again. */
  private refresh(locatorId: string, old: Entry): Entry | undefined {
    const { entry, order } = refreshedEntry(this.store, locatorId, old)
    if (entry === null) {
      this.drop(locatorId)
      return undefined
    }
    if (entry === old) return old
    this.entries.set(locatorId, entry)
    if (!entry.jsonReady) fillJson(this.fill, locatorId, entry, order!, 0)
    return entry
  }

  /** Builds the index of every locator whose Query API is on, and waits out its background work (preload.ts). */
  preload(): Promise<{ locators: number; locations: number; failed: BuildFailure[] }> {
    return preload({
      store: this.store,
      now: () => this.now(),
      sync: () => this.sync(),
      entry: (locatorId) => this.entry(locatorId),
      built: (locatorId) => this.entries.get(locatorId),
      failedOnRows: (locatorId) => this.attempts.hasFailed(locatorId) && !this.attempts.metBusy(locatorId),
      failures: () => this.buildFailures(),
    })
  }

  /**
   * The slot in entry.arena of a location's public JSON, made now if the background fill has not
   * reached it yet. null when another process unpublished or deleted the row since the last sync:
   * sync and ask again.
   */
  json(locatorId: string, entry: Entry, doc: IndexEntry, kept: number | null = entry.index.json(doc)): number | null {
    if (kept !== null) return kept
    const row = this.store.locations.get(locatorId, doc.id)
    if (row?.status !== 'published') return null
    // The row may be newer than the index (a change not yet synced): the next sync, before any
    // later query reads the index, replaces the entry with one made from that same row.
    // `doc` replaced meanwhile (not within a query's turn): as for a row gone, sync and ask again.
    return keepJson(entry, doc, row)
  }

  /**
   * Lets go of the indexes of locators no public request has asked for in `idleMs` or more
   * (idle.ts; the idle sync calls it every second). Their next query builds them again from the
   * rows, as after a start. Returns the locators let go, with their sizes.
   */
  evictIdle(idleMs: number, now = performance.now()): { locatorId: string; locations: number }[] {
    return idleLocators(this.entries, idleMs, now).map(([locatorId, entry]) => {
      this.drop(locatorId)
      this.evicted.add(locatorId)
      return { locatorId, locations: entry.index.size }
    })
  }

  /** Starts a compaction of each index whose delta is quiet or whose base is old (idle.ts; the idle sync calls it every second). */
  settleDeltas(quietMs: number, staleMs: number, now = performance.now()): string[] {
    return settleDeltas(this.entries, quietMs, staleMs, now)
  }

  /**
   * A buffer of at least `size` bytes to write an answer in: the same one each time (grown when
   * too small), so what was written in it before is gone. A buffer new each time would be fresh
   * memory, faulted in page by page (PERF-036), and the Response made from one copies it anyway.
   */
  answerBuffer(size: number): Buffer {
    if (this.answer.length < size) this.answer = Buffer.allocUnsafeSlow(Math.max(size, this.answer.length * 2))
    return this.answer
  }

  /**
   * Changes with every write to the locator (locations, settings, filters...), and when one of
   * its locations opens or closes: the ETag's base, the same in every process on the database
   * (versions.ts). Every public request for the locator asks it, answered from the index or from the answer cache, so it also marks the
   * locator's index as in use (evictIdle()).
   */
  version(locatorId: string): string {
    const written = this.builds.version(locatorId) ?? this.versions.current(locatorId)
    const entry = this.entries.get(locatorId)
    if (entry === undefined) return written
    entry.used = true
    return this.versions.withOpen(locatorId, written, entry.index)
  }

  /** version() but for openings and closings: the base of answers none of them changes (store pages, the sitemap). */
  writtenVersion(locatorId: string): string {
    this.catchUps.flush(locatorId)
    const entry = this.entries.get(locatorId)
    if (entry !== undefined) entry.used = true
    return this.builds.version(locatorId) ?? this.versions.current(locatorId)
  }

  /** Whether the locator's clusters answer as every process's do (LocatorIndex.clustersExact). */
  clustersExact(locatorId: string): boolean {
    return this.entries.get(locatorId)?.index.clustersExact() ?? true
  }

  /** Seconds from now that answers made at the last version() hold, at most `max` (their open states). */
  maxAge(locatorId: string, max: number): number {
    return this.versions.maxAge(locatorId, max)
  }

  /** The filter groups as GET /filters shows them: the configured ones, then tags in no group. */
  filters(locatorId: string): FilterGroup[] {
    return publicFilters(this.entry(locatorId))
  }
}
