// Whole-database copies and what a database file holds, for `storeloc backup`, `restore` and
// `doctor`. A copy is made with VACUUM INTO (one read transaction: a consistent snapshot while
// other connections write), checked with integrity_check, synced, then renamed into place: the
// destination path holds the old file or the whole new one, never part of one.
import { Database } from 'bun:sqlite'
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { removeIfThere } from '../core/remove-file'
import { typedPath } from '../core/typed-in'
import { processTag } from '../core/processes'
import { MIGRATIONS } from './migrations'
import { isCorruptError } from './damage'
import { BUSY_TIMEOUT_MS, isOurSchema, makeOwnersOnly, schemaOf, writtenSince } from './db'
import { openToRead, realPathIfThere } from './read-open'

/** integrity_check's lines past this many are not read: the file is damaged either way. */
const MAX_DAMAGE_LINES = 10

/** What a database file holds, read from its schema. */
export type DatabaseFacts = {
  /** storeloc: our schema (of any version); empty: no tables; foreign: another program's tables. */
  kind: 'storeloc' | 'empty' | 'foreign'
  /** PRAGMA user_version: how many of the migrations it has. */
  version: number
  /** This program's schema version. */
  current: number
  /** Up to five of its tables, for a message. */
  tables: string[]
  journalMode: string
}

/** What a whole copy holds. */
export type CopyFacts = DatabaseFacts & { bytes: number; locators: number; locations: number; keys: number }

/**
 * The database at `path`, opened without creating it. 'live' (the service's database): read-write,
 * so its last connection's close cleans up the -wal and -shm files as every connection of ours
 * does; only reads and VACUUM INTO are run on it. 'file' (a copy to restore): read-only
 * (openToRead), so the file is not changed and, a WAL copy without its -wal, nothing is made beside it.
 */
export function openExisting(path: string, mode: 'live' | 'file'): Database {
  const db =
    mode === 'live' ? new Database(path, { readwrite: true, create: false, strict: true }) : openToRead(path).db
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
  return db
}

/**
 * The database at `path` to copy where this user may write nothing beside it (a read-only mount, a
 * folder of another user's): read-only (openToRead), as a read-write open of a WAL file with no
 * -wal cannot make the -shm it needs there. Opened immutable so (the service stopped), its reads
 * take no lock: `changed()` tells whether a process wrote or opened it since, which may have
 * torn what was read. `immutable`: a WAL file opened so, whose journal_mode then reads "delete".
 */
export function openUnwritable(path: string): { db: Database; immutable: boolean; changed: () => boolean } {
  const real = realPathIfThere(path)
  const before = statSync(real, { bigint: true }) // before the open: a write after it moves it
  const { db, immutable } = openToRead(real)
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
  return { db, immutable, changed: () => immutable && writtenSince(real, before) }
}

/**
 * The file to restore into `databasePath`, opened to be read (openExisting's 'file'), and its
 * close. A WAL copy with its -wal and no -shm (copied as it is: no process has it open) is read
 * from a copy of both in a folder of this user's beside `databasePath`, removed at the close:
 * read where it is, a read-only open makes a -shm beside it and leaves it, or fails where none
 * can be made (a read-only mount). Throws the system's error when that copy cannot be made.
 */
export function openToRestore(file: string, databasePath: string): { db: Database; close: () => void } {
  const real = realPathIfThere(file)
  if (!existsSync(`${real}-wal`) || existsSync(`${real}-shm`)) {
    const db = openExisting(file, 'file')
    return { db, close: () => db.close() }
  }
  let folder: string | null = null
  const remove = () => {
    if (folder !== null) rmSync(folder, { recursive: true, force: true })
  }
  try {
    folder = mkdtempSync(`${typedPath(process.cwd(), databasePath)}.restoring-${processTag()}-`) // mode 0700
    const copy = join(folder, 'copy.db')
    copyFileSync(real, copy)
    copyFileSync(`${real}-wal`, `${copy}-wal`)
    const db = openExisting(copy, 'file')
    return {
      db,
      close: () => {
        db.close()
        remove()
      },
    }
  } catch (e) {
    remove()
    throw e
  }
}

/** The schema's facts, read in one statement (one snapshot). Throws SQLite's error on a file it cannot read. */
export function databaseFacts(db: Database): DatabaseFacts {
  const schema = schemaOf(db)
  const mode = db.query<{ journal_mode: string }, []>('PRAGMA journal_mode').get()!.journal_mode
  return {
    kind: isOurSchema(schema) ? 'storeloc' : schema.tables.length === 0 ? 'empty' : 'foreign',
    version: schema.version,
    current: MIGRATIONS.length,
    tables: schema.tables.slice(0, 5),
    journalMode: mode,
  }
}

/** What integrity_check finds wrong, at most 10 lines; none when the file is sound. */
export function integrityProblems(db: Database): string[] {
  try {
    const rows = db
      .query<{ integrity_check: string }, []>(`PRAGMA integrity_check(${MAX_DAMAGE_LINES})`)
      .all()
      .map((r) => r.integrity_check)
    return rows.length === 1 && rows[0] === 'ok' ? [] : rows
  } catch (e) {
    if (isCorruptError(e)) return [(e as Error).message]
    throw e
  }
}

/** Rows of the tables whose foreign keys name no row (none in a sound storeloc database). */
export function foreignKeyViolations(db: Database): number {
  return db.query<{ n: number }, []>('SELECT count(*) AS n FROM pragma_foreign_key_check').get()!.n
}

/** fsync of a file or a folder: the rename into place is durable only once the folder is. */
function sync(path: string): void {
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** The whole copy at `path` failed integrity_check: `problems` are its lines. */
export class CopyDamagedError extends Error {
  constructor(readonly problems: string[]) {
    super(`The copy failed integrity_check: ${problems.join('; ')}`)
  }
}

/** What a storeloc database holds, as a backup or a restore tells it. */
export function contentCounts(db: Database): { locators: number; locations: number; keys: number } {
  return db
    .query<{ locators: number; locations: number; keys: number }, []>(
      'SELECT (SELECT count(*) FROM locators) AS locators, (SELECT count(*) FROM locations) AS locations, (SELECT count(*) FROM api_keys) AS keys',
    )
    .get()!
}

/**
 * Copies the database `source` has open into `dest`, whole: VACUUM INTO a file beside `dest`
 * (named `dest` and `suffix`), integrity_check on it, fsync, then `beforeRename` (the caller's last
 * check, which may throw, given the copy's path), and a rename over `dest`. On any failure the partial file is removed
 * and `dest` is left as it was. The copy is a single file in rollback-journal mode: no -wal beside it.
 * `replace` false: put only where no file is (placeNew), else throw the system's EEXIST.
 */
export function writeVerifiedCopy(
  source: Database,
  dest: string,
  suffix: string,
  beforeRename: (partial: string) => void = () => {},
  replace = true,
): CopyFacts {
  // Beside `dest` as the system reads it: resolve drops a `..` after a link as text, which names
  // another folder, maybe on another disk, where the rename fails.
  const whole = typedPath(process.cwd(), dest)
  const partial = `${whole}${suffix}`
  removeIfThere(partial) // VACUUM INTO writes only into a file that is absent or empty
  try {
    makeOwnersOnly(partial) // the copy holds what the database does
    source.query('VACUUM INTO ?').run(partial)
    const copy = openExisting(partial, 'file')
    let facts: CopyFacts
    try {
      const problems = integrityProblems(copy)
      if (problems.length > 0) throw new CopyDamagedError(problems)
      facts = { ...databaseFacts(copy), ...contentCounts(copy), bytes: statSync(partial).size }
    } finally {
      copy.close()
    }
    sync(partial)
    beforeRename(partial)
    if (replace) renameSync(partial, dest)
    else placeNew(partial, dest)
    sync(dirname(whole))
    return facts
  } catch (e) {
    // With the rollback journal VACUUM INTO may leave beside it (a disk that filled). Best effort:
    // the failure told is the copy's.
    for (const left of ['', '-journal', '-wal', '-shm'])
      try {
        removeIfThere(`${partial}${left}`)
      } catch {}
    throw e
  }
}

/**
 * Puts the file `partial` at `dest` only while no file is there: a hard link, which the system
 * refuses (EEXIST) for a file made there meanwhile, where a rename would replace it. On a file
 * system with no hard links (FAT), a rename once no file is seen there.
 */
function placeNew(partial: string, dest: string): void {
  try {
    linkSync(partial, dest)
  } catch (e) {
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].includes(String((e as NodeJS.ErrnoException).code))) throw e
    if (existsSync(dest)) throw Object.assign(new Error(`EEXIST: file already exists, ${dest}`), { code: 'EEXIST' })
    renameSync(partial, dest)
    return
  }
  rmSync(partial)
}

/**
 * Folds the -wal of the database at `path` into its file, as the last connection's close does
 * (SQLite then removes the -wal and -shm). Best effort, for a file no process uses: false when
 * it could not (a damaged or unreadable file).
 */
export function checkpointUnused(path: string): boolean {
  if (!existsSync(`${path}-wal`)) return true
  try {
    const db = openExisting(path, 'live')
    try {
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    } finally {
      db.close()
    }
    return true
  } catch {
    return false
  }
}
