// A locator's index built again from its rows in background tasks, while the index it replaces
// answers as it was: after another process committed a large share of the locator's locations
// at once (a bulk import). Applied change by change, or built in one piece, that many would hold
// the event loop, and every locator's queries, for seconds (PERF-041). Public answers show the
// locator as it was before that write, with that version (ETag), until the new index is swapped
// in; the changes committed meanwhile are applied to it first. A large index let go, or not built
// yet, is built the same way, with no old one: its queries wait for it (PERF-062).
import { type IndexOptions, LocatorIndex, type Schedule, stepEnd } from '../engine/locator-index'
import type { Store } from '../store'
import type { Change } from '../store/changes'
import { isBusyError } from '../store/db'
import type { FilterGroup } from '../store/filters'
import { builtEntry, type Entry, entrySettings, putRow } from './entry'
import { JsonArena } from './json-arena'
import { type PresentContext, searchDoc } from './present'

/**
 * Changes not yet applied to an index make a backlog (its index built again from the rows rather
 * than changed one by one) when they hold at least `backlogMin` of its location changes (the
 * BACKLOG_MIN, bounds.ts) and at least BACKLOG_SHARE of its size (PERF-036).
 */
const BACKLOG_SHARE = 1 / 4
export const isBacklog = (changes: number, size: number, backlogMin: number): boolean =>
  changes >= Math.max(backlogMin, size * BACKLOG_SHARE)

/** Own changes a build read that its old index still shows, at most (BackgroundBuilds.ownToShow). */
const OWN_SHOWN_MAX = 1000

/** Rows a background build reads in one statement; a task reads pages until its turn ends (stepEnd). */
const LOAD_PAGE = 128

/** What the builds need of their registry. */
export type RebuildHost = {
  store: Store
  schedule: Schedule
  indexOptions: IndexOptions
  busyRetryMs: number
  backlogMin: number
  /** The instant answers are made for (ms since the epoch): the new index's open states are found for it before the swap. */
  now(): number
  /** Applies every change committed since the last sync (the registry's sync: it may cancel builds). */
  sync(): void
  /** The last change applied. */
  appliedSeq(): number
  /** Puts the new entry in place of the old one, if any (whether there was), and lets the old one go. */
  install(locatorId: string, entry: Entry): boolean
  /** The build failed on the rows (not a busy database): the old entry, if any, goes; the index is built as a query builds it, and meets the failure itself. */
  fallBack(locatorId: string): void
  /** Told of each index swapped in, with its size, the ms since its build began, and whether it replaced an old one. */
  onBuilt(locatorId: string, locations: number, ms: number, replaced: boolean): void
}

type Build = {
  serial: number
  locatorId: string
  /** The version the old entry's answers carry until the swap. */
  version: string
  /** The version when the build began; `version` adds this process's last write since (ownApplied()). */
  base: string
  /** The changes up to here are in the rows the build reads; those after are applied at the swap. */
  fromSeq: number
  startedAt: number
  index: LocatorIndex
  ctx: PresentContext
  filters: FilterGroup[]
  arena: JsonArena
  /** The last row read (IndexRow.seq). */
  cursor: number
  /** Resolves once the locator has no build under way (swapped in, or given up). */
  done: Promise<void>
  resolve: () => void
}

export class BackgroundBuilds {
  private readonly running = new Map<string, Build>()
  private serial = 0

  constructor(private readonly host: RebuildHost) {}

  /** Whether the locator's index is being built again; its old entry answers meanwhile. */
  has(locatorId: string): boolean {
    return this.running.has(locatorId)
  }

  /** The locators whose indexes are being built again. */
  locators(): string[] {
    return [...this.running.keys()]
  }

  /** Resolves once the locator's build under way is swapped in or given up; undefined when none is. */
  done(locatorId: string): Promise<void> | undefined {
    return this.running.get(locatorId)?.done
  }

  /** The version answers carry while the locator's index is built again, or undefined. */
  version(locatorId: string): string | undefined {
    return this.running.get(locatorId)?.version
  }

  /**
   * Of this process's own location changes to locators being built again, those their old indexes
   * are to show: all made since a build began. Of those it reads (up to its fromSeq), none when
   * more than OWN_SHOWN_MAX for one locator: a bulk write of this process's, which started the
   * build and whose request waits for it (IndexRegistry.builtAfter); one by one they would hold
   * the event loop about as long as the build saves.
   */
  ownToShow(changes: Change[]): Change[] {
    const read = new Map<string, number>()
    for (const c of changes) {
      const build = this.running.get(c.locatorId)
      if (build !== undefined && c.seq <= build.fromSeq) read.set(c.locatorId, (read.get(c.locatorId) ?? 0) + 1)
    }
    return changes.filter((c) => {
      const build = this.running.get(c.locatorId)
      return build !== undefined && (c.seq > build.fromSeq || read.get(c.locatorId)! <= OWN_SHOWN_MAX)
    })
  }

  /**
   * This process wrote to the locator (`version` its change's), and its old entry shows the write:
   * answers carry a version of their own from now to the swap, which no other process gives.
   */
  ownApplied(locatorId: string, version: string): void {
    const build = this.running.get(locatorId)
    if (build !== undefined) build.version = `${build.base}+${version}`
  }

  /**
   * Builds the locator's index again from its rows, every change up to `fromSeq` committed;
   * answers carry `version` meanwhile. A build under way for it starts over (its version kept).
   */
  start(locatorId: string, version: string, fromSeq: number): void {
    const { filters, ctx } = entrySettings(this.host.store, locatorId) // first: it may throw (a busy database)
    const under = this.running.get(locatorId)
    this.running.delete(locatorId)
    let resolve = under?.resolve ?? (() => {})
    const done = under?.done ?? new Promise<void>((r) => (resolve = r))
    const build: Build = {
      serial: ++this.serial,
      locatorId,
      version: under?.version ?? version,
      base: under?.base ?? version,
      fromSeq,
      startedAt: under?.startedAt ?? performance.now(),
      index: LocatorIndex.loading(this.host.indexOptions),
      ctx,
      filters,
      arena: new JsonArena(),
      cursor: 0,
      done,
      resolve,
    }
    under?.index.dispose()
    this.running.set(locatorId, build)
    this.host.schedule(() => this.load(build))
  }

  /** Gives up the locator's build under way, if any (its old entry let go, or its settings changed). */
  cancel(locatorId: string): void {
    const build = this.running.get(locatorId)
    if (build === undefined) return
    this.running.delete(locatorId)
    build.index.dispose()
    build.resolve()
  }

  /** A mark for after(): the builds started so far. */
  mark(): number {
    return this.serial
  }

  /** Resolves once the locator's build, if started (or started over) after `mark`, is swapped in or given up; undefined when none is under way. */
  after(mark: number, locatorId: string): Promise<void> | undefined {
    const build = this.running.get(locatorId)
    return build !== undefined && build.serial > mark ? build.done : undefined
  }

  private current(build: Build): boolean {
    return this.running.get(build.locatorId) === build
  }

  /** Reads pages of rows into the new index until its turn ends, then again in a later task, until all are read. */
  private load(build: Build): void {
    if (!this.current(build)) return
    const until = stepEnd()
    const { locations } = this.host.store
    try {
      for (;;) {
        const rows = locations.indexRowsAfter(build.locatorId, build.ctx.rankReadsCustomFields, build.cursor, LOAD_PAGE)
        for (const row of rows) build.index.load(searchDoc(row, build.ctx))
        if (rows.length < LOAD_PAGE) {
          build.index.finishLoad(() => this.host.schedule(() => this.opening(build)))
          return
        }
        build.cursor = rows[rows.length - 1]!.seq
        if (performance.now() >= until) break
      }
    } catch (e) {
      this.failed(build, e, () => this.load(build))
      return
    }
    this.host.schedule(() => this.load(build))
  }

  /** Finds the new index's open states in steps (~100 ms at 20,000 locations in one piece, PERF-062), then swaps it in. */
  private opening(build: Build): void {
    if (!this.current(build)) return
    const done = build.index.openSteps(this.host.now(), stepEnd())
    this.host.schedule(() => (done ? this.swap(build) : this.opening(build)))
  }

  /**
   * Applies the changes committed since the build began (each changed location read again, in
   * one turn with the sync before it), and swaps the new index in. Starts over when those are a
   * backlog themselves.
   */
  private swap(build: Build): void {
    if (!this.current(build)) return
    const { store } = this.host
    try {
      this.host.sync()
      if (!this.current(build)) return // its settings changed meanwhile (the sync cancelled it)
      const through = this.host.appliedSeq()
      const ids = store.changes.locationIds(build.locatorId, build.fromSeq, through)
      if (isBacklog(ids.length, build.index.size, this.host.backlogMin)) {
        this.start(build.locatorId, build.version, through)
        return
      }
      for (const id of ids) putRow(build, id, store.locations.get(build.locatorId, id))
    } catch (e) {
      this.failed(build, e, () => this.swap(build))
      return
    }
    this.running.delete(build.locatorId)
    const replaced = this.host.install(build.locatorId, builtEntry(build.index, build.ctx, build.filters, build.arena))
    build.resolve()
    this.host.onBuilt(build.locatorId, build.index.size, performance.now() - build.startedAt, replaced)
  }

  /** A step failed: on a busy database, the step again busyRetryMs later; otherwise the build is given up. */
  private failed(build: Build, error: unknown, again: () => void): void {
    if (isBusyError(error)) {
      const timer = setTimeout(() => this.host.schedule(again), this.host.busyRetryMs)
      ;(timer as { unref?: () => void }).unref?.()
      return
    }
    this.cancel(build.locatorId)
    this.host.fallBack(build.locatorId)
  }
}
