import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { MIGRATIONS } from './migrations'

export class StoreError extends Error {}

/**
 * Opens (creating when absent) the database file, sets the pragmas the write contract relies on,
 * checks they took, and applies pending migrations.
 */
export function openDatabase(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const db = new Database(path, { create: true, strict: true })
  db.exec('PRAGMA busy_timeout = 5000')
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = FULL')
  db.exec('PRAGMA foreign_keys = ON')
  const mode = db.query<{ journal_mode: string }, []>('PRAGMA journal_mode').get()?.journal_mode
  const fk = db.query<{ foreign_keys: number }, []>('PRAGMA foreign_keys').get()?.foreign_keys
  if ((path !== ':memory:' && mode !== 'wal') || fk !== 1) {
    db.close()
    throw new StoreError(`SQLite at ${path} refused WAL mode or foreign keys (journal_mode=${mode}, foreign_keys=${fk}).`)
  }
  migrate(db)
  return db
}

/** Words of the WAL index header's first copy (sqlite.org/walformat.html, "The WAL-Index Header"). */
const WAL_HEADER_WORDS = 12
/** Its first word, iVersion, in every SQLite since WAL began (3.7.0). */
const WAL_INDEX_VERSION = 3007000

/**
 * The first copy of the WAL index header, read live: the -shm file that SQLite maps into every
 * connection to the database, in this process or another, and rewrites at every commit (its
 * change counter, last frame and checksum move). Reading it needs no system call, where
 * PRAGMA data_version starts and ends a read transaction: three (two fcntl locks and an fstat),
 * 3.5 µs on this machine's VM. Null when there is none to read (an in-memory database, no mmap):
 * callers then ask PRAGMA data_version every time.
 *
 * Safe to map while the database is open: SQLite truncates the file only when a connection opens
 * it and finds no other connection holding its lock, and an open connection holds that lock. So
 * readers must stop reading at close (openStore's commitWatch does).
 */
export function walIndexHeader(path: string): Uint32Array | null {
  if (path === ':memory:') return null
  try {
    const mapped = Bun.mmap(`${path}-shm`, { shared: true, size: WAL_HEADER_WORDS * 4 })
    if (mapped.byteLength < WAL_HEADER_WORDS * 4 || mapped.byteOffset % 4 !== 0) return null
    const header = new Uint32Array(mapped.buffer, mapped.byteOffset, WAL_HEADER_WORDS)
    // A header SQLite has written (isInit is the low byte of word 3 on little-endian machines).
    return header[0] === WAL_INDEX_VERSION && (header[3]! & 0xff) === 1 ? header : null
  } catch {
    return null
  }
}

/** SQLITE_BUSY or SQLITE_LOCKED (and their extended codes): another connection holds the lock. */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
}

/** A second connection to the same file that never waits for a lock: for best-effort bookkeeping. */
export function openNonWaitingConnection(path: string, main: Database): Database {
  if (path === ':memory:') return main
  const db = new Database(path, { strict: true })
  db.exec('PRAGMA busy_timeout = 0')
  return db
}

function migrate(db: Database): void {
  const apply = db.transaction(() => {
    const current = db.query<{ user_version: number }, []>('PRAGMA user_version').get()!.user_version
    if (current > MIGRATIONS.length) {
      throw new StoreError(`The database schema (version ${current}) is newer than this program (version ${MIGRATIONS.length}).`)
    }
    for (let v = current; v < MIGRATIONS.length; v++) {
      db.exec(MIGRATIONS[v]!)
      db.exec(`PRAGMA user_version = ${v + 1}`)
    }
  })
  apply.immediate()
}
