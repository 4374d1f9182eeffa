import type { Database } from 'bun:sqlite'
import { changeLog } from './changes'
import { customFieldRepo } from './custom-fields'
import { fileMovedCheck, isBusyError, openDatabase, openNonWaitingConnection, storageFault, type StorageFault } from './db'
import { filterRepo } from './filters'
import { geocodeCacheRepo } from './geocode-cache'
import { keyRepo } from './keys'
import { locationRepo } from './locations'
import { locatorRepo } from './locators'
import { priorityRepo } from './priority'
import { walIndexHeader } from './wal-index'

/** A write waiting for writeSoon's shared commit, since `at` (performance.now()). */
type QueuedWrite = { fn: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void; at: number }

/** A write refused by the storage under the database (storageFault), since `at` (performance.now()). */
export type WriteFault = { fault: StorageFault; error: Error; at: number }

/** The most writes one shared commit takes; the rest wait for the next. */
const MAX_GROUPED_WRITES = 256

/** The source of truth: one SQLite file, its prepared statements, and the write transaction. */
export function openStore(path: string) {
  const db: Database = openDatabase(path)
  const fileMoved = fileMovedCheck(path)
  const changes = changeLog(db)
  const bookkeeping = openNonWaitingConnection(path, db)
  // Commits by this connection; PRAGMA data_version only moves for other connections' commits.
  let writes = 0
  const queued: QueuedWrite[] = []
  /** Tries in a row that found the write lock taken (the next waits longer, up to 50 ms). */
  let lockedTries = 0
  /**
   * The last write the storage refused (disk full, read-only, I/O error), until a commit writes
   * something again: /readyz tells of it, the app logs its recovery. A commit that changed no row
   * (total_changes() as it was) proves nothing: a read-only connection commits an empty transaction.
   */
  let fault: WriteFault | null = null
  const totalChanges = db.prepare<{ n: number }, []>('SELECT total_changes() AS n')
  const changedRows = () => totalChanges.get()!.n
  /** Notes `error` when it is a storage fault; returns it. */
  const noteFault = (error: unknown): unknown => {
    const kind = storageFault(error)
    if (kind !== null) fault = { fault: kind, error: error as Error, at: performance.now() }
    return error
  }

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
    const moved = fileMoved()
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
      noteFault(error)
      for (const job of queued.splice(0, refused)) job.reject(error)
      if (queued.length > 0) setTimeout(commitQueued, Math.min(50, 2 ** lockedTries++))
      return
    }
    lockedTries = 0
    const jobs = queued.splice(0, MAX_GROUPED_WRITES)
    if (queued.length > 0) setImmediate(commitQueued)
    const outcomes: { ok: boolean; value: unknown }[] = []
    const before = changedRows()
    try {
      for (const job of jobs) {
        try {
          outcomes.push({ ok: true, value: db.transaction(job.fn)() }) // in a transaction: a savepoint
        } catch (error) {
          if (!db.inTransaction) throw error // the whole transaction is gone, not just this write
          outcomes.push({ ok: false, value: noteFault(error) }) // a read-only connection refuses each statement, and commits the rest
        }
      }
      db.exec('COMMIT')
      writes++
      if (changedRows() !== before) fault = null
    } catch (error) {
      noteFault(error)
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
  // Opening read the schema's version (a read transaction), so a file database has its WAL index by now.
  const header = walIndexHeader(path)
  let open = true
  return {
    db,
    /** The database file's path, as given (DATABASE_PATH), for messages. */
    path,
    changes,
    locators: locatorRepo(db, changes),
    keys: keyRepo(db, changes, bookkeeping),
    locations: locationRepo(db, changes),
    customFields: customFieldRepo(db, changes),
    filters: filterRepo(db, changes),
    priority: priorityRepo(db, changes),
    geocodeCache: geocodeCacheRepo(db, writeSoon),
    /** Runs fn in a BEGIN IMMEDIATE transaction: all of it commits, or none of it (nothing once the file moved). */
    write<T>(fn: () => T): T {
      const moved = fileMoved()
      if (moved !== null) throw moved
      const before = changedRows()
      let result: T
      try {
        result = db.transaction(fn).immediate()
      } catch (error) {
        throw noteFault(error)
      }
      writes++
      if (changedRows() !== before) fault = null
      return result
    },
    writeSoon,
    /** The last write the storage refused (disk full, read-only, I/O error) when none has written since; else null. */
    writeFault(): WriteFault | null {
      return fault
    },
    /** Null while the path still names the file opened; else why writes are refused (FileMovedError). */
    fileMoved,
    /** How many write transactions this process has committed: with data_version, tells when to re-read the change log. */
    writeCount(): number {
      return writes
    },
    /**
     * A new watch on commits by any connection, in any process: each call of the function it
     * returns says false only when the WAL index header is as it was at the previous call, so
     * nothing can have been committed since; true otherwise, and at the first call. Always true
     * where there is no header to read, and once the store is closed (the file may then go).
     * A caller that gets true then asks PRAGMA data_version; the header is copied before that
     * answer, so a commit in between is seen at the next call.
     */
    commitWatch(): () => boolean {
      const seen = new Uint32Array(header?.length ?? 0)
      return () => {
        if (header === null || !open) return true
        let moved = false
        for (let i = 0; i < seen.length; i++) {
          const word = header[i]!
          if (word !== seen[i]) {
            seen[i] = word
            moved = true
          }
        }
        return moved
      }
    },
    close(): void {
      open = false
      if (bookkeeping !== db) bookkeeping.close()
      db.close()
    },
  }
}
export type Store = ReturnType<typeof openStore>
