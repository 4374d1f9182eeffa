// A SQLite file opened for reading without making anything beside it: the one rule for when it
// is opened immutable, for the store's read-only commands, restore's source file and the
// geocoder's data.
import { Database } from 'bun:sqlite'
import { closeSync, existsSync, openSync, readSync, realpathSync } from 'node:fs'
import { resolve } from 'node:path'

/** SQLITE_OPEN_READONLY | SQLITE_OPEN_URI: Bun opens a plain path without the URI flag. */
const READ_ONLY_URI = 0x01 | 0x40

/**
 * The file a path names, its links followed (SQLite makes the -wal beside it); the path as given
 * when it is not there (realPathToBe in core/config resolves one not made yet).
 */
export function realPathIfThere(path: string): string {
  try {
    return realpathSync.native(path) // Bun's realpathSync drops a `..` after a link as text first
  } catch {
    return path
  }
}

/** The first bytes of the file at `path` (up to its header's journal mode), or null where it cannot be read (a folder, another user's). */
function headOf(path: string): Buffer | null {
  const head = Buffer.alloc(20)
  try {
    const fd = openSync(path, 'r')
    try {
      return head.subarray(0, readSync(fd, head, 0, head.length, 0))
    } finally {
      closeSync(fd)
    }
  } catch {
    return null
  }
}

/** Whether `head` begins as a SQLite file does. */
const sqliteHead = (head: Buffer | null): head is Buffer => head?.toString('latin1', 0, 16) === 'SQLite format 3\u0000'

/** Whether the file at `path` begins as a SQLite file does (false: absent, unreadable, a folder). */
export const isSqliteFile = (path: string): boolean => sqliteHead(headOf(path))

/**
 * The file at `path` (its links followed) opened read-only, making nothing beside it. A WAL
 * database (its header's versions, at 18 and 19, are 2) with no -wal beside it is opened
 * immutable: no process has it open, and a read-only open would make a -wal and -shm that stay.
 * With a -wal there it is read through it and its locks: the file alone may lack the last
 * commits, or be half checkpointed. A rollback-journal file is read with its locks, which make
 * nothing. `immutable`: opened so, its reads taking no lock.
 */
export function openToRead(path: string): { db: Database; immutable: boolean } {
  const real = realPathIfThere(path)
  const head = headOf(real)
  const immutable = sqliteHead(head) && head[18] === 2 && !existsSync(`${real}-wal`)
  return { db: immutable ? openImmutable(real) : new Database(real, { readonly: true }), immutable }
}

/**
 * The database file at `path` opened immutable: read-only, without locks, its -wal unread, and
 * nothing made beside it. What it reads may be torn if a process writes the file meanwhile.
 */
function openImmutable(path: string): Database {
  // A URI's path escapes what would end it or be read as an escape; resolved, it starts with one "/".
  const uri = `file:${resolve(path).replace(/[%?#]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}?immutable=1`
  return new Database(uri, READ_ONLY_URI)
}
