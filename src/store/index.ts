import type { Database } from 'bun:sqlite'
import { changeLog } from './changes'
import { customFieldRepo } from './custom-fields'
import { openDatabase, openNonWaitingConnection } from './db'
import { filterRepo } from './filters'
import { geocodeCacheRepo } from './geocode-cache'
import { keyRepo } from './keys'
import { locationRepo } from './locations'
import { locatorRepo } from './locators'
import { priorityRepo } from './priority'

/** The source of truth: one SQLite file, its prepared statements, and the write transaction. */
export function openStore(path: string) {
  const db: Database = openDatabase(path)
  const changes = changeLog(db)
  const bookkeeping = openNonWaitingConnection(path, db)
  // Commits by this connection; PRAGMA data_version only moves for other connections' commits.
  let writes = 0
  return {
    db,
    changes,
    locators: locatorRepo(db, changes),
    keys: keyRepo(db, changes, bookkeeping),
    locations: locationRepo(db, changes),
    customFields: customFieldRepo(db, changes),
    filters: filterRepo(db, changes),
    priority: priorityRepo(db, changes),
    geocodeCache: geocodeCacheRepo(db),
    /** Runs fn in a BEGIN IMMEDIATE transaction: all of it commits, or none of it. */
    write<T>(fn: () => T): T {
      const result = db.transaction(fn).immediate()
      writes++
      return result
    },
    /** How many write transactions this process has committed: with data_version, tells when to re-read the change log. */
    writeCount(): number {
      return writes
    },
    close(): void {
      if (bookkeeping !== db) bookkeeping.close()
      db.close()
    },
  }
}
export type Store = ReturnType<typeof openStore>
