// The change-log follower: reads what was committed since it last looked, by this process (its
// write counter moved) or by any other (PRAGMA data_version moved), and hands each change to its
// registry in order. Cheap when nothing changed: a look at the WAL index header.
import type { Store } from '../store'
import type { Change } from '../store/changes'
import { isBusyError } from '../store/db'

/** Changes a budgeted sync reads at a time: a batch applies in a few ms (PERF-021, PERF-036). */
const SLICE_CHANGES = 64

/** What the follower's registry does with what it reads. */
export type ChangeHandlers = {
  /** Applies one change; changes come in the order of the log. */
  apply(change: Change): void
  /** The batch of changes about to be applied one by one (apply()), read from the log together. */
  reading(batch: readonly Change[]): void
  /** The log no longer holds the changes applied or to apply (see ChangeFollower.restart): build everything again. */
  restart(cause: 'rewound' | 'pruned', appliedSeq: number, logSeq: number): void
  /** The changes in (from, last] are many (at least backlogMin): let go of the indexes most of them are to. */
  backlog(from: number, last: number): void
  /** Locators whose location and key changes need not be applied (their indexes are being built again: rebuild.ts); none are read. */
  skipped(): readonly string[]
  /** Location changes this process made to skipped locators, in order: their old indexes show them too (a 2xx is visible to the next query). */
  applyOwn(changes: Change[]): void
}

export class ChangeFollower {
  /** The last change applied. */
  private seq: number
  /** The changes up to here were looked at for backlogs (backlog()). */
  private countedThrough: number
  /** When change `seq` was committed: the log holding another change at `seq`, or none, was rewound (restart()). */
  private seqAt: string | null
  private dataVersion: number
  private writes: number
  private readonly dataVersionQuery
  /** False when no commit can have happened since it last said true (the WAL index header, no system call). */
  private readonly committed: () => boolean
  /** True from the moment the watch said something was committed until sync() has applied it (a sync that throws leaves it set). */
  private unsynced = false
  /** The busy error the last sync met, and when (clock()): thrown again at once within busyRetryMs, not waited for. */
  private syncBusy: { error: unknown; at: number } | null = null

  constructor(
    private readonly store: Store,
    private readonly handlers: ChangeHandlers,
    /** A busy database is met again at once within this many ms (bounds.ts: BUSY_RETRY_MS). */
    private readonly busyRetryMs: number,
    /** Changes not yet applied that make a backlog (bounds.ts: BACKLOG_MIN). */
    private readonly backlogMin: number,
    /** What busyRetryMs is counted on (ms); tests step one. */
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.dataVersionQuery = store.db.query<{ data_version: number }, []>('PRAGMA data_version')
    this.committed = store.commitWatch()
    this.committed()
    // data_version before the last seq: a commit between the two is then seen as new at the first sync.
    this.dataVersion = this.dataVersionQuery.get()!.data_version
    this.seq = store.changes.lastSeq()
    this.countedThrough = this.seq
    this.seqAt = store.changes.at(this.seq)
    this.writes = store.writeCount()
  }

  /** The last change applied (a locator's version is read up to it). */
  get appliedSeq(): number {
    return this.seq
  }

  /**
   * Applies every change committed since the last call. With a budget (ms, for the idle sync),
   * stops once it has passed, after at least one batch of SLICE_CHANGES, and says whether
   * everything was applied: the next sync goes on from there (a query's, unbudgeted, applies the
   * rest before it answers).
   */
  sync(budgetMs = Infinity): boolean {
    if (!this.unsynced && !this.committed() && this.store.writeCount() === this.writes) return true
    this.unsynced = true
    // Another process held the database a moment ago (SQLite waited busy_timeout for it): the
    // app's path after the fast path's, and the queries right after, do not wait again.
    const busy = this.syncBusy
    if (busy !== null && this.clock() - busy.at < this.busyRetryMs) throw busy.error
    try {
      const dataVersion = this.dataVersionQuery.get()!.data_version
      const writes = this.store.writeCount()
      if (dataVersion !== this.dataVersion || writes !== this.writes) {
        if (!this.applyAll(budgetMs)) return false // unsynced stays set
        // Only once every change is applied: a sync that failed or stopped part-way is taken up again from this.seq.
        this.dataVersion = dataVersion
        this.writes = writes
      }
    } catch (e) {
      if (isBusyError(e)) this.syncBusy = { error: e, at: this.clock() }
      throw e
    }
    this.syncBusy = null
    this.unsynced = false
    return true
  }

  /** sync()'s reading and applying of the changes after this.seq; false when the budget ran out first. */
  private applyAll(budgetMs: number): boolean {
    const { changes } = this.store
    if (changes.at(this.seq) !== this.seqAt) this.restart(changes.prunedThrough() > this.seq ? 'pruned' : 'rewound')
    this.countBacklog()
    const until = performance.now() + budgetMs
    const limit = budgetMs === Infinity ? undefined : SLICE_CHANGES
    for (;;) {
      // Changes to skip are not read at all: a bulk import's 50,000 take ~40 ms to read (PERF-041).
      const skip = this.handlers.skipped()
      const through = skip.length === 0 ? 0 : changes.lastSeq()
      // Nothing but skipped changes (seqs are dense; their location changes counted in an index): none is read.
      if (
        through > this.seq &&
        skip.reduce((n, id) => n + changes.locationCount(id, this.seq, through), 0) === through - this.seq
      ) {
        if (changes.prunedThrough() > this.seq) {
          this.restart('pruned')
          continue
        }
        this.applyOwn(skip, this.seq, through)
        this.seq = through
        this.seqAt = changes.at(through)
        return true
      }
      const batch =
        skip.length === 0 ? changes.since(this.seq, limit) : changes.sinceSkipping(this.seq, through, skip, limit)
      // Read after the batch: a prune committed before it may have taken changes not applied
      // here, which the batch then lacks (this.seq itself may be a locator's last change, kept).
      if (changes.prunedThrough() > this.seq) {
        this.restart('pruned')
        continue
      }
      const from = this.seq
      // A whole batch of the skipping read: every change up to `through` was read or skipped.
      const whole = batch.length < (limit ?? 10_000)
      const to = skip.length > 0 && whole ? Math.max(through, batch.at(-1)?.seq ?? from) : (batch.at(-1)?.seq ?? from)
      // Before the seq moves: if it fails (a busy database), the next sync does it all again.
      if (skip.length > 0) this.applyOwn(skip, from, to)
      if (batch.length > 0) this.handlers.reading(batch)
      for (const change of batch) {
        this.seq = change.seq
        this.seqAt = change.at
        this.handlers.apply(change)
      }
      if (to > this.seq) {
        this.seq = to
        this.seqAt = changes.at(to)
      }
      if (batch.length === 0 && to === from) return true
      if (performance.now() > until) return false
    }
  }

  /** This process's changes to the skipped locators after `from` up to `to` (the skipping read left them out). */
  private applyOwn(skip: readonly string[], from: number, to: number): void {
    const own = this.store.changes.ownLocationChanges(from, to, skip)
    if (own.length > 0) this.handlers.applyOwn(own)
  }

  /**
   * The change log no longer holds the changes applied or to apply: the file was rewound (a
   * backup restored into it, another file put in its place), and changes after the last applied
   * may reuse its seqs; or it was pruned past the last applied (a process that applied nothing
   * for CHANGES_KEPT_MS, src/server/upkeep.ts), and changes not applied here are gone. The
   * follower goes on from the log's end; its registry builds everything again.
   */
  private restart(cause: 'rewound' | 'pruned'): void {
    const applied = this.seq
    // Past the prune point even in a log rewound behind it (a file put in place with another's
    // pruned count): the sync goes on from there, not around again.
    this.seq = Math.max(this.store.changes.lastSeq(), this.store.changes.prunedThrough())
    this.seqAt = this.store.changes.at(this.seq)
    this.countedThrough = this.seq
    this.handlers.restart(cause, applied, this.seq)
  }

  /**
   * Tells the registry of the changes committed since it last looked, when they are backlogMin or
   * more (a process that keeps up with another's writes never counts them). Looks at each change once.
   */
  private countBacklog(): void {
    const last = this.store.changes.lastSeq()
    const from = Math.max(this.seq, this.countedThrough)
    if (last - from < this.backlogMin) return
    this.countedThrough = last
    this.handlers.backlog(from, last)
  }
}
