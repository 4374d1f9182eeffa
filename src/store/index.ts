import { changeLog } from './changes'
import { customFieldRepo } from './custom-fields'
import { commitTracker, type WriteFault } from './commits'
import { damageWatch } from './damage'
import { BUSY_TIMEOUT_MS, fileMovedCheck, openDatabase, openDatabaseReadOnly, openNonWaitingConnection } from './db'
import { filterRepo } from './filters'
import { geocodeCacheRepo } from './geocode-cache'
import { idempotencyRepo } from './idempotency'
import { keyRepo } from './keys'
import { locationCountRepo } from './location-counts'
import { locationRepo } from './locations'
import { locatorRepo } from './locators'
import { priorityRepo } from './priority'
import { openSnapshot, type Snapshot } from './snapshot'
import { walIndexHeader } from './wal-index'
import { sharedCommits } from './write-queue'

export type { WriteFault } from './commits'

/**
 * The source of truth: one SQLite file, its prepared statements, and the write transaction.
 * `waitForLock` false: a write lock another process holds fails the opening at once
 * (openDatabase); `upgrade` false: an older schema is refused, not migrated (a new file is made).
 * `readOnly`: opened for reading alone (openDatabaseReadOnly), for a command that writes nothing
 * where this user may not write beside the file; a write then fails as SQLite's read-only one.
 */
export function openStore(path: string, waitForLock = true, upgrade = true, readOnly = false) {
  const { db, upgradedFrom, immutable, changed } = readOnly
    ? openDatabaseReadOnly(path)
    : { ...openDatabase(path, waitForLock, upgrade), immutable: false, changed: () => false }
  const fileMoved = fileMovedCheck(path)
  const damage = damageWatch(path)
  /** Why writes are refused now: the file was found damaged, or the path names another file. */
  const refusal = () => damage.damaged() ?? fileMoved()
  const changes = changeLog(db)
  const bookkeeping = readOnly ? db : openNonWaitingConnection(path, db)
  const tracked = commitTracker(db)
  const commits = { ...tracked, noteFault: (error: unknown) => tracked.noteFault(damage.note(error)) }
  const writeSoon = sharedCommits(db, refusal, commits)
  // Opening read the schema's version (a read transaction), so a file database has its WAL index by now.
  const header = walIndexHeader(path)
  let open = true
  return {
    db,
    /** The database file's path, as given (DATABASE_PATH), for messages. */
    path,
    /** The older schema version this open upgraded the file from, read under the write lock; null: none. */
    upgradedFrom,
    changes,
    locators: locatorRepo(db, changes),
    keys: keyRepo(db, changes, bookkeeping, () => refusal() !== null),
    locations: locationRepo(db, changes),
    locationCounts: locationCountRepo(db),
    customFields: customFieldRepo(db, changes),
    filters: filterRepo(db, changes),
    priority: priorityRepo(db, changes),
    geocodeCache: geocodeCacheRepo(db, writeSoon),
    idempotency: idempotencyRepo(db),
    /** Reads of the file as it is now, which may be spread over event-loop turns while others write (snapshot.ts). */
    snapshot(): Snapshot {
      // Immutable, the file has no other connection to read it through: no -shm to share.
      return openSnapshot(path, db, fileMoved() !== null || immutable)
    },
    /**
     * Runs fn's reads in one read transaction (BEGIN DEFERRED): they see the file as it was at the
     * first, whatever other connections commit meanwhile. Inside a write transaction: that one's.
     */
    read<T>(fn: () => T): T {
      return db.inTransaction ? fn() : db.transaction(fn).deferred()
    },
    /** Runs fn in a BEGIN IMMEDIATE transaction: all of it commits, or none of it (nothing once the file moved). */
    write<T>(fn: () => T): T {
      const refused = refusal()
      if (refused !== null) throw refused
      const before = commits.changedRows()
      let result: T
      try {
        result = db.transaction(fn).immediate()
      } catch (error) {
        throw commits.noteFault(error)
      }
      commits.committed(before)
      return result
    },
    /** write(fn), failing at once (SQLITE_BUSY) while another connection holds the write lock: for a caller that waits on a timer. */
    writeNow<T>(fn: () => T): T {
      db.exec('PRAGMA busy_timeout = 0')
      try {
        return this.write(fn)
      } finally {
        db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
      }
    },
    writeSoon,
    /** The last write the storage refused (disk full, read-only, I/O error) when none has written since; else null. */
    writeFault(): WriteFault | null {
      return commits.fault()
    },
    /**
     * Opened immutable (readOnly, no -wal there): whether a process has written or opened the
     * file since, so that what was read may be torn or wrong; read again then. Else false.
     */
    changedSinceOpen: changed,
    /** Null while the path still names the file opened; else why writes are refused (FileMovedError). */
    fileMoved,
    /** Null until a statement met a damaged page (noteDamage); then why writes are refused (DamagedError). */
    damaged: damage.damaged,
    /** Notes `error` when it says the file is damaged (from a read: writes note their own); returns it. */
    noteDamage: damage.note,
    /** How many write transactions this process has committed: with data_version, tells when to re-read the change log. */
    writeCount(): number {
      return commits.writes()
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
