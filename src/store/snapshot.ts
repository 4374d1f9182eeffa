// Reads of the database as it was at one moment, spread over turns of the event loop while
// writers go on: a second, read-only connection in a read transaction, which WAL keeps at the
// moment of its first read whatever commits after it.
import { Database } from 'bun:sqlite'
import { nextTurn } from '../core/slices'
import { customFieldList } from './custom-fields'
import { BUSY_TIMEOUT_MS } from './db'
import { locationSlicer, placedNameSlicer, publishedNameSlicer, type Slice } from './location-slicers'

export type Snapshot = {
  /** A locator's locations a slice at a time (locationSlicer). */
  locations: ReturnType<typeof locationSlicer>
  /** A locator's published locations' names and places a slice at a time (placedNameSlicer). */
  placedNames: ReturnType<typeof placedNameSlicer>
  /** A locator's published locations' names and last changes a slice at a time (publishedNameSlicer). */
  publishedNames: ReturnType<typeof publishedNameSlicer>
  /** The ids of a locator's custom fields, in their order. */
  customFieldIds: (locatorId: string) => string[]
  /**
   * False when the reads go through the main connection (a database in memory, which no other
   * connection sees, a file moved since it was opened, or one opened immutable, with no -shm to
   * share): they show one moment only if made
   * without yielding to other work in between.
   */
  spread: boolean
  /** Ends the read transaction; call it once the reads are done, also after a failure. */
  close: () => void
}

function reads(db: Database): Pick<Snapshot, 'locations' | 'placedNames' | 'publishedNames' | 'customFieldIds'> {
  const fields = customFieldList(db)
  return {
    locations: locationSlicer(db),
    placedNames: placedNameSlicer(db),
    publishedNames: publishedNameSlicer(db),
    customFieldIds: (locatorId) => fields.all(locatorId).map((f) => f.id),
  }
}

/** The main connection's reads, prepared once: they are never finalized while it is open. */
const mainReads = new WeakMap<Database, ReturnType<typeof reads>>()

/** A snapshot of the file at `path` as it is now; `main` is the store's connection, for when none can be opened beside it (`mainOnly`). */
export function openSnapshot(path: string, main: Database, mainOnly: boolean): Snapshot {
  if (path === ':memory:' || mainOnly) {
    let prepared = mainReads.get(main)
    if (prepared === undefined) mainReads.set(main, (prepared = reads(main)))
    return { ...prepared, spread: false, close: () => {} }
  }
  const db = new Database(path, { readonly: true, strict: true })
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
    db.exec('BEGIN')
    // The first read fixes the moment: now, not at the caller's first slice.
    db.query('SELECT count(*) FROM sqlite_schema').get()
    return {
      ...reads(db),
      spread: true,
      close() {
        // close(true) finalizes the statements: the connection, and its read, end now, not at a GC.
        db.close(true)
      },
    }
  } catch (error) {
    db.close(true)
    throw error
  }
}

/**
 * Reads rows a slice of `size` at a time, in row order from after `fromSeq`, until a slice comes
 * back empty: `read(afterSeq, limit)` gives the rows after `afterSeq`, `each` takes every slice. Between
 * slices the event loop takes other work; from a snapshot whose reads are not spread, all rows
 * are read at once (limit -1), the one way they show one moment.
 */
export async function eachSlice<T>(
  snapshot: Snapshot,
  size: number,
  read: (afterSeq: number, limit: number) => Slice<T>,
  each: (rows: T[]) => void,
  fromSeq = 0,
): Promise<void> {
  const limit = snapshot.spread ? size : -1
  for (let afterSeq = fromSeq, first = true; ; first = false) {
    if (!first) await nextTurn()
    const slice = read(afterSeq, limit)
    if (slice.rows.length === 0) return
    each(slice.rows)
    if (limit < 0) return
    afterSeq = slice.lastSeq
  }
}
