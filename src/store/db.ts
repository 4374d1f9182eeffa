import { Database } from 'bun:sqlite'
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, statfsSync, statSync, type BigIntStats } from 'node:fs'
import { dirname } from 'node:path'
import { CODE_KEY_MIGRATION, MIGRATIONS, NAME_KEY_MIGRATION } from './migrations'
import { fillNameKeys } from './name-keys'
import { fillCodeKeys } from './code-keys'
import { cliCommand } from '../core/cli-command'
import { linkTarget } from '../core/link-target'
import { openToRead, realPathIfThere } from './read-open'

export class StoreError extends Error {}

/** The database file was deleted, or another put in its place, after this process opened it (see fileMovedCheck). */
export class FileMovedError extends StoreError {}

/**
 * A check that `path` still names the file this process opened: it returns null while it does,
 * else a FileMovedError saying what happened. A process keeps the file it opened when the path is
 * given another (a backup moved into place) or unlinked: what it writes then goes to a file no
 * other process and no later start sees, and is lost. Costs one stat() a call.
 */
export function fileMovedCheck(path: string): () => FileMovedError | null {
  if (path === ':memory:') return () => null
  const opened = statSync(path, { bigint: true })
  return () => {
    let now: BigIntStats | undefined
    try {
      now = statSync(path, { bigint: true, throwIfNoEntry: false })
    } catch {
      return null // the folder can no longer be read: not known to be moved
    }
    if (now !== undefined && now.dev === opened.dev && now.ino === opened.ino) return null
    // Moved or deleted, the file holds every write so far: a restart without it would make a new, empty one.
    const next =
      now === undefined
        ? `Put the file back at ${path} (a file deleted while open is still readable under /proc/${process.pid}/fd until this process stops), then restart the service; a restart with no file there makes a new, empty database.`
        : `Restart the service to use the file now at ${path}.`
    return new FileMovedError(
      `The database file ${path} was ${now === undefined ? 'moved or deleted' : 'replaced by another file'} after this process opened it. Writes are refused: they would go to the file it opened, which no later start reads. ${next}`,
    )
  }
}

/** How long a connection waits for another's lock (busy_timeout), as the write contract has it. */
export const BUSY_TIMEOUT_MS = 5000

/**
 * The -wal file is cut back to this size when a write starts it over: a long reader (a backup, a
 * slow export) lets it grow meanwhile, and without a limit it keeps that size on disk for good.
 */
export const WAL_KEPT_BYTES = 64 * 1024 * 1024

/** An open database, and the schema version this open upgraded it from (null: it upgraded nothing). */
export type Opened = { db: Database; upgradedFrom: number | null }

/**
 * Opens (creating when absent) the database file, sets the pragmas the write contract relies on,
 * checks they took, and applies pending migrations. `waitForLock` false: a lock another process
 * holds fails the open at once (SQLITE_BUSY), for a caller that waits without holding its event
 * loop (a server's start).
 */
export function openDatabase(path: string, waitForLock = true, upgrade = true): Opened {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true })
    makeOwnersOnly(path)
  }
  if (!waitForLock) return openOnce(path, 0, upgrade)
  // Two processes opening a new file together: SQLite may answer one SQLITE_BUSY at once, without
  // waiting busy_timeout (switching a new file to WAL, reading a WAL index another connection is
  // making). Opening again a moment later finds the file made; tried for up to busy_timeout.
  const deadline = performance.now() + BUSY_TIMEOUT_MS
  for (;;) {
    try {
      return openOnce(path, BUSY_TIMEOUT_MS, upgrade)
    } catch (e) {
      if (!isBusyError(e) || performance.now() > deadline) throw e
      Bun.sleepSync(20)
    }
  }
}

/**
 * Makes `path`, when absent, an empty file only its owner may read and write: the database holds
 * drafts, contacts and key hashes. SQLite gives its -wal and -shm the same mode. An existing file
 * keeps the mode its operator gave it.
 */
export function makeOwnersOnly(path: string, links = 0): void {
  try {
    closeSync(openSync(path, 'wx', 0o600))
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
    // A link to no file yet: 'wx' does not follow it, and SQLite would make the file it names
    // with the umask's mode (0644). A few links deep, not a loop; a target it cannot make (no
    // such folder) is left for SQLite's own error. Its target's `..` is read as the system reads
    // it (linkTarget): the folders on the way may be links.
    if (links >= 8 || existsSync(path) || !lstatSync(path).isSymbolicLink()) return
    try {
      makeOwnersOnly(linkTarget(path), links + 1)
    } catch {}
  }
}

/**
 * Opens the database file for reading alone, for a command that only reads where this user may
 * not write beside the file (a read-only mount, a folder of another user's): SQLite cannot make
 * the -wal and -shm files there, which every other open of a WAL database needs. With a -wal
 * file there, it is read through the -wal and -shm that are there. With none, no process has the
 * file open now, but one that may write there (the service's user, or a read-write mount of the
 * same folder) can open it at any time: opened immutable (openToRead), `changed()` tells whether
 * the file was written or opened since, in which case what was read may be torn or wrong. Its
 * schema must be this program's: nothing is migrated.
 */
export function openDatabaseReadOnly(path: string): Opened & { immutable: boolean; changed: () => boolean } {
  const real = realPathIfThere(path)
  // Taken before the open: a checkpoint into the file after it moves its mtime or size.
  const before = statSync(real, { bigint: true })
  const { db, immutable } = openToRead(real)
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
    refuseForeign(db)
    if (schemaOf(db).version === 0)
      throw new StoreError(
        `${path} is an empty database file, and opened read-only nothing can be made in it: start the service on it once, which makes its tables.`,
      )
    migrate(db, false) // refuses a schema not this program's: it migrates none read-only
    return { db, upgradedFrom: null, immutable, changed: () => immutable && writtenSince(real, before) }
  } catch (e) {
    db.close()
    throw e
  }
}

/**
 * Whether the file at `real` was written, replaced or opened as a WAL database since it was `before`:
 * a -wal beside it means a process has it open (SQLite removes it at the last close), one that
 * may write pages into the file at any checkpoint.
 */
export function writtenSince(real: string, before: BigIntStats): boolean {
  const now = statSync(real, { bigint: true, throwIfNoEntry: false })
  return (
    now === undefined ||
    existsSync(`${real}-wal`) ||
    now.ino !== before.ino ||
    now.dev !== before.dev ||
    now.size !== before.size ||
    now.mtimeNs !== before.mtimeNs ||
    now.ctimeNs !== before.ctimeNs
  )
}

/** Opens and migrates (see migrate), waiting `busyMs` for locks meanwhile; busy_timeout is BUSY_TIMEOUT_MS after. */
function openOnce(path: string, busyMs: number, upgrade: boolean): Opened {
  const db = new Database(path, { create: true, strict: true })
  try {
    db.exec(`PRAGMA busy_timeout = ${busyMs}`)
    refuseForeign(db) // before anything is written into it, WAL mode included
    db.exec('PRAGMA journal_mode = WAL')
    db.exec('PRAGMA synchronous = FULL')
    db.exec(`PRAGMA journal_size_limit = ${WAL_KEPT_BYTES}`)
    db.exec('PRAGMA foreign_keys = ON')
    const mode = db.query<{ journal_mode: string }, []>('PRAGMA journal_mode').get()?.journal_mode
    const fk = db.query<{ foreign_keys: number }, []>('PRAGMA foreign_keys').get()?.foreign_keys
    const synchronous = db.query<{ synchronous: number }, []>('PRAGMA synchronous').get()?.synchronous
    const timeout = db.query<{ timeout: number }, []>('PRAGMA busy_timeout').get()?.timeout
    // synchronous 2 is FULL: a 2xx write is on disk.
    if ((path !== ':memory:' && mode !== 'wal') || fk !== 1 || synchronous !== 2 || timeout !== busyMs) {
      throw new StoreError(
        `SQLite at ${path} refused a setting (journal_mode=${mode}, foreign_keys=${fk}, synchronous=${synchronous}, busy_timeout=${timeout}; wanted wal, 1, 2 (FULL), ${busyMs}).`,
      )
    }
    const upgradedFrom = migrate(db, upgrade)
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
    return { db, upgradedFrom }
  } catch (e) {
    db.close()
    throw e
  }
}

/**
 * Throws when the file is another program's SQLite database: tables, and no schema of ours (no
 * version, or a version of ours without its tables). A DATABASE_PATH mistyped onto such a file
 * must not have our tables and WAL mode written into it. A newer schema of ours is migrate()'s to
 * refuse.
 */
function refuseForeign(db: Database): void {
  const schema = schemaOf(db)
  if (isOurSchema(schema) || (schema.version === 0 && schema.tables.length === 0)) return
  const { tables } = schema
  const named = tables.slice(0, 5).join(', ') + (tables.length > 5 ? ', ...' : '')
  throw new StoreError(
    `The file is another program's SQLite database (tables ${named}), not storeloc's; it was left as it is. Set DATABASE_PATH to a storeloc database or to a new file.`,
  )
}

/**
 * A file's schema version (PRAGMA user_version) and its tables, read in one statement: one
 * snapshot, so another process's migration committed between two reads does not look foreign.
 */
export function schemaOf(db: Database): { version: number; tables: string[] } {
  const row = db
    .query<{ version: number; tables: string | null }, []>(
      "SELECT user_version AS version, (SELECT group_concat(name, char(31)) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%') AS tables FROM pragma_user_version",
    )
    .get()!
  return { version: row.version, tables: row.tables === null ? [] : row.tables.split('\x1f') }
}

/** The schema version of the database file at `path`, read without writing or making anything beside it; null when it cannot be read. */
export function schemaVersionAt(path: string): number | null {
  try {
    const { db } = openToRead(path)
    try {
      return schemaOf(db).version
    } finally {
      db.close()
    }
  } catch {
    return null
  }
}

/** storeloc's schema: a version newer than this program's (migrate refuses it), or one with our first table. */
export const isOurSchema = (schema: { version: number; tables: string[] }): boolean =>
  schema.version > MIGRATIONS.length || (schema.version > 0 && schema.tables.includes('locators'))

/** SQLITE_BUSY or SQLITE_LOCKED (and their extended codes): another connection holds the lock. */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
}

/**
 * A refusal by the storage under the database rather than by the data: 'full' (SQLITE_FULL: no
 * space left on the disk, or the connection's max_page_count reached), 'readonly' (SQLITE_READONLY
 * and its extended codes: the file, its -wal or -shm file or its folder not writable by this user,
 * a read-only file system, or a connection SQLite opened read-only), 'io' (SQLITE_IOERR...: the
 * disk or file system failed a read or write, or refused one: EFBIG past RLIMIT_FSIZE). SQLite
 * undoes the transaction it met it in, so nothing is kept; none is the request's fault, and each
 * may pass without a restart (space freed, permissions mended), 'readonly' of a connection opened
 * so excepted. Null for anything else.
 */
export type StorageFault = 'full' | 'readonly' | 'io'
export function storageFault(error: unknown, path?: string): StorageFault | null {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return null
  if (code.startsWith('SQLITE_FULL')) return 'full'
  if (code.startsWith('SQLITE_READONLY')) return 'readonly'
  // SQLite says "disk I/O error" for a full disk when the -shm or -wal file cannot grow.
  if (code.startsWith('SQLITE_IOERR')) return path !== undefined && diskFull(path) ? 'full' : 'io'
  return null
}

/** Less than this free on a disk is full for SQLite: a transaction's WAL frames and -shm need more. */
const FULL_BELOW_BYTES = 1024 * 1024

/** Whether the disk that holds `path` has (next to) no space left for this user. */
export function diskFull(path: string): boolean {
  if (path === ':memory:') return false
  try {
    const fs = statfsSync(dirname(path))
    return fs.bavail * fs.bsize < FULL_BELOW_BYTES
  } catch {
    return false
  }
}

/**
 * The operator's words for a storage fault met at the database `path`: what is wrong, first and
 * plainly ("database disk full"), then what to do. For the log and the CLI; never a client's.
 */
export function storageFaultText(fault: StorageFault, path: string): string {
  switch (fault) {
    case 'full':
      return `database disk full: SQLite could not grow ${path} or its -wal file. Free space on the disk that holds it: writes then succeed again, no restart needed.`
    case 'readonly':
      return `database is read-only: SQLite may not write ${path}. Make the file, its -wal and -shm files and its folder writable by the service's user (or the file system read-write); a file that was read-only when the process opened it stays so for it until it is restarted.`
    case 'io':
      return `database I/O error: the disk or file system holding ${path} failed a read or write (see the system log; a file size limit, RLIMIT_FSIZE, gives this too).`
  }
}

/**
 * What a failure to open, read or write the database says, for a one-line message instead of a
 * stack trace: 'busy' (another process holds the lock), 'file' (SQLite could not open or read the
 * file, or the file system refused: what DATABASE_PATH names is at fault), 'database' (any other
 * SQLite error, or a StoreError), null (no database error: a bug, to be thrown on).
 */
export function databaseFault(error: unknown): 'busy' | 'file' | 'database' | null {
  if (isBusyError(error)) return 'busy'
  if (error instanceof StoreError) return 'database'
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return null
  // The file system's codes (ENOENT, EACCES, ...), not ERR_... ones, which are bugs.
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_NOTADB' || code === 'SQLITE_PERM' || /^E[A-Z]+$/.test(code))
    return 'file'
  return code.startsWith('SQLITE_') ? 'database' : null
}

/** A second connection to the same file that never waits for a lock: for best-effort bookkeeping. */
export function openNonWaitingConnection(path: string, main: Database): Database {
  if (path === ':memory:') return main
  const db = new Database(path, { strict: true })
  db.exec('PRAGMA busy_timeout = 0')
  db.exec(`PRAGMA journal_size_limit = ${WAL_KEPT_BYTES}`) // it writes too: it may be the one that starts the WAL over
  return db
}

/**
 * Applies the migrations the file lacks, in one write transaction. A file that lacks none is only
 * read: opening it does not wait for another process's write (a long import, another server's
 * migration) beyond what reading the schema version waits. Returns the older version it upgraded,
 * as read under the lock; null when it upgraded none (current already, or a new file made).
 */
function migrate(db: Database, upgrade: boolean): number | null {
  const version = () => {
    const current = db.query<{ user_version: number }, []>('PRAGMA user_version').get()!.user_version
    if (current > MIGRATIONS.length) {
      throw new StoreError(
        `The database schema (version ${current}) is newer than this program (version ${MIGRATIONS.length}). Run the newer storeloc, or restore a backup made before the upgrade (${cliCommand('restore FILE')}).`,
      )
    }
    return current
  }
  const found = version()
  if (found === MIGRATIONS.length) return null
  // An older schema is a start's to upgrade, after the backup the upgrade steps take; a new file is anyone's to make.
  if (!upgrade && found > 0)
    throw new StoreError(
      `The database schema is version ${found}; this program's is ${MIGRATIONS.length}. Only a start of the service upgrades it: back it up (${cliCommand('backup FILE')}), start the service, then run this command again.`,
    )
  const apply = db.transaction(() => {
    // Read again under the lock: another process may have migrated meanwhile.
    const from = version()
    for (let v = from; v < MIGRATIONS.length; v++) {
      db.exec(MIGRATIONS[v]!)
      if (v + 1 === NAME_KEY_MIGRATION) fillNameKeys(db)
      if (v + 1 === CODE_KEY_MIGRATION) fillCodeKeys(db)
      db.exec(`PRAGMA user_version = ${v + 1}`)
    }
    return from === 0 || from === MIGRATIONS.length ? null : from
  })
  return apply.immediate()
}
