import type { Database } from 'bun:sqlite'
import { changeLog } from './changes'
import { customFieldRepo } from './custom-fields'
import { openDatabase, openNonWaitingConnection } from './db'
import { geocodeCacheRepo } from './geocode-cache'
import { keyRepo } from './keys'
import { locationRepo } from './locations'
import { locatorRepo } from './locators'

/** The source of truth: one SQLite file, its prepared statements, and the write transaction. */
export function openStore(path: string) {
  const db: Database = openDatabase(path)
  const changes = changeLog(db)
  const bookkeeping = openNonWaitingConnection(path, db)
  return {
    db,
    changes,
    locators: locatorRepo(db, changes),
    keys: keyRepo(db, changes, bookkeeping),
    locations: locationRepo(db, changes),
    customFields: customFieldRepo(db, changes),
    geocodeCache: geocodeCacheRepo(db),
    /** Runs fn in a BEGIN IMMEDIATE transaction: all of it commits, or none of it. */
    write<T>(fn: () => T): T {
      return db.transaction(fn).immediate()
    },
    close(): void {
      if (bookkeeping !== db) bookkeeping.close()
      db.close()
    },
  }
}
export type Store = ReturnType<typeof openStore>
