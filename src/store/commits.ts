// What this connection's commits tell: how many there were, and the last write the storage refused.
import type { Database } from 'bun:sqlite'
import { type StorageFault, storageFault } from './db'

/** A write refused by the storage under the database (storageFault), since `at` (performance.now()). */
export type WriteFault = { fault: StorageFault; error: Error; at: number }

export type CommitTracker = ReturnType<typeof commitTracker>

/**
 * Counts this connection's commits (PRAGMA data_version only moves for other connections') and
 * keeps the last write the storage refused (disk full, read-only, I/O error) until a commit writes
 * something again: /readyz tells of it, the app logs its recovery. A commit that changed no row
 * (total_changes() as it was) proves nothing: a read-only connection commits an empty transaction.
 */
export function commitTracker(db: Database) {
  const totalChanges = db.prepare<{ n: number }, []>('SELECT total_changes() AS n')
  const changedRows = () => totalChanges.get()!.n
  let writes = 0
  let fault: WriteFault | null = null
  return {
    /** Rows changed by this connection so far: taken before a commit, for committed(). */
    changedRows,
    /** Notes `error` when it is a storage fault; returns it. */
    noteFault(error: unknown): unknown {
      const kind = storageFault(error, db.filename === '' ? undefined : db.filename)
      if (kind !== null) fault = { fault: kind, error: error as Error, at: performance.now() }
      return error
    },
    /** Counts a commit; one that changed rows since `before` clears the fault. */
    committed(before: number): void {
      writes++
      if (changedRows() !== before) fault = null
    },
    writes: () => writes,
    fault: () => fault,
  }
}
