// writeSoon's shared commits: writes arriving together commit in one transaction, each in a
// savepoint of its own, and wait for another connection's write lock from a timer.
import type { Database } from 'bun:sqlite'
import type { CommitTracker } from './commits'
import { isBusyError, type StoreError } from './db'

/** A write waiting for writeSoon's shared commit, since `at` (performance.now()). */
type QueuedWrite = {
  fn: () => unknown
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
  at: number
}

/** The most writes one shared commit takes; the rest wait for the next. */
const MAX_GROUPED_WRITES = 256

/**
 * Once the writes of a shared commit have taken this much CPU (ms), the rest wait for the next
 * commit, a turn later: the event loop answers others between two bulk writes (PERF-066).
 */
const GROUP_BUDGET_MS = 8

/** This thread's CPU time (ms): the writes' own work, not the time the machine gave others meanwhile. */
function cpuMs(): number {
  const { user, system } = process.threadCpuUsage()
  return (user + system) / 1000
}

/** The store's writeSoon over `db`. */
export function sharedCommits(
  db: Database,
  /** Why writes are refused (the file moved or damaged), or null. */
  refusal: () => StoreError | null,
  commits: CommitTracker,
): <T>(fn: () => T) => Promise<T> {
  const queued: QueuedWrite[] = []
  /** Tries in a row that found the write lock taken (the next waits longer, up to 50 ms). */
  let lockedTries = 0

  /**
   * Commits the writes queued by writeSoon in one transaction, each in a savepoint of its own (none
   * once the path names another file than the one opened: fileMovedCheck): one
   * that throws is undone alone and rejected with its error; if the transaction cannot begin or
   * commit (disk full, store closed), or SQLite ended it during a write (it may, on a full disk,
   * an I/O error or busy: the writes before are then undone, and the writes after would each run
   * and commit alone), every write in it is rejected with that error, none after it is run, and
   * none is kept. While another connection holds the write lock, the writes wait for it from a
   * timer, the process serving meanwhile; one that waited busy_timeout is rejected busy.
   */
  function commitQueued(): void {
    if (queued.length === 0) return
    const moved = refusal()
    if (moved !== null) {
      for (const job of queued.splice(0)) job.reject(moved)
      return
    }
    // How long a write may wait for the lock: the connection's busy_timeout, as SQLite would wait.
    let patience = 0
    try {
      patience = db.query<{ timeout: number }, []>('PRAGMA busy_timeout').get()!.timeout
      // BEGIN IMMEDIATE without SQLite's wait for the lock, which would stop the process.
      db.exec('PRAGMA busy_timeout = 0')
      try {
        db.exec('BEGIN IMMEDIATE')
      } finally {
        db.exec(`PRAGMA busy_timeout = ${patience}`)
      }
    } catch (error) {
      const now = performance.now()
      // Not busy (the store closed...), or waited long enough: refused. The queue is in order of arrival.
      let refused = 0
      while (refused < queued.length && (!isBusyError(error) || now - queued[refused]!.at >= patience)) refused++
      commits.noteFault(error)
      for (const job of queued.splice(0, refused)) job.reject(error)
      if (queued.length > 0) setTimeout(commitQueued, Math.min(50, 2 ** lockedTries++))
      return
    }
    lockedTries = 0
    const jobs = queued.splice(0, MAX_GROUPED_WRITES)
    if (queued.length > 0) setImmediate(commitQueued)
    const outcomes: { ok: boolean; value: unknown }[] = []
    const before = commits.changedRows()
    const until = cpuMs() + GROUP_BUDGET_MS
    try {
      for (const job of jobs) {
        if (outcomes.length > 0 && cpuMs() >= until) break
        try {
          outcomes.push({ ok: true, value: db.transaction(job.fn)() }) // in a transaction: a savepoint
        } catch (error) {
          if (!db.inTransaction) throw error // the whole transaction is gone, not just this write
          outcomes.push({ ok: false, value: commits.noteFault(error) }) // a read-only connection refuses each statement, and commits the rest
        }
      }
      const later = jobs.splice(outcomes.length)
      if (later.length > 0) {
        queued.unshift(...later) // first in the next commit, as they came
        setImmediate(commitQueued)
      }
      db.exec('COMMIT')
      commits.committed(before)
    } catch (error) {
      commits.noteFault(error)
      try {
        if (db.inTransaction) db.exec('ROLLBACK')
      } catch {} // the store may be closed: nothing was kept either way
      for (const job of jobs) job.reject(error)
      return
    }
    jobs.forEach((job, i) => (outcomes[i]!.ok ? job.resolve(outcomes[i]!.value) : job.reject(outcomes[i]!.value)))
  }
  /**
   * write(fn), shared: fn runs at the next turn of the event loop in one transaction with the
   * other writes queued by then (each in a savepoint: it commits or is undone alone), and the
   * promise settles once that transaction is committed (with synchronous=FULL, on disk). So
   * writes arriving together pay for one commit between them: the Management API's, whose
   * requests come in concurrently. Nothing is kept when the promise rejects.
   */
  function writeSoon<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (queued.length === 0) setImmediate(commitQueued)
      queued.push({ fn, resolve: resolve as (value: unknown) => void, reject, at: performance.now() })
    })
  }

  return writeSoon
}
