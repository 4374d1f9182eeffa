// `storeloc restore FILE`: puts a backup in the place of the database at DATABASE_PATH, whole,
// once it is known to be a sound storeloc database, and only while no process uses the target.
import { DEFAULT_DATABASE_PATH, realPathToBe } from '../core/config'
import { fileOnTheWay, spellsPath, typedPath } from '../core/typed-in'
import { removeIfThere } from '../core/remove-file'
import { shellWord } from '../core/shell'
import { chmodSync, chownSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import {
  type CopyFacts,
  checkpointUnused,
  contentCounts,
  databaseFacts,
  integrityProblems,
  openExisting,
  openToRestore,
  writeVerifiedCopy,
} from '../store/backup-file'
import { copyFailure, requireDestination, sameFile } from './backup'
import { folderNotFile, folderNotWritable, linkLoop, linkToNoFolder } from './file-owner'
import { refuseWhileInUse } from './restore-guard'
import { copySuffix, partialsFolderOf, removeStaleRestores } from './stale-copies'
import { OperatorError } from './shared'
import { isCorruptError } from '../store/damage'

/** A refusal of the file to restore: the target was not touched. */
const refuse = (file: string, why: string) =>
  new OperatorError(`${file} was not restored: ${why} The database was left as it was.`)

/** Throws unless `db` (the file to restore) is a storeloc database this program can serve, and sound. */
function requireRestorable(db: ReturnType<typeof openExisting>, file: string): void {
  let facts: ReturnType<typeof databaseFacts>
  try {
    facts = databaseFacts(db)
  } catch (e) {
    if (!isCorruptError(e)) throw e
    throw refuse(file, `SQLite cannot read it (${(e as Error).message}): it is no database, or a damaged one.`)
  }
  if (facts.kind === 'empty') throw refuse(file, 'it is a SQLite file with no tables, not a storeloc backup.')
  if (facts.kind === 'foreign')
    throw refuse(file, `it is another program's SQLite database (tables ${facts.tables.join(', ')}), not storeloc's.`)
  if (facts.version > facts.current) {
    throw refuse(
      file,
      `its schema (version ${facts.version}) is newer than this program's (version ${facts.current}). Restore it with the storeloc version that made it.`,
    )
  }
  const problems = integrityProblems(db)
  if (problems.length > 0) throw refuse(file, `it is damaged: integrity_check says ${problems.slice(0, 3).join('; ')}.`)
}

/** Throws unless `file` is a file this user may read: SQLite's own refusal names neither it nor why. */
function requireReadable(file: string): void {
  const unreached = fileOnTheWay(file)
  if (unreached !== null) throw new OperatorError(`${unreached} Name the backup by a path through folders only.`)
  const loop = linkLoop(file, 'Make the link lead to the backup, or name the backup itself.')
  if (loop !== null) throw new OperatorError(loop)
  const unread = (e: unknown) =>
    refuse(
      file,
      `this user may not read it (${(e as Error).message}): run this as a user who may, or make it readable.`,
    )
  let given: ReturnType<typeof statSync>
  try {
    given = statSync(file, { throwIfNoEntry: false })
  } catch (e) {
    throw unread(e)
  }
  if (given === undefined) throw new OperatorError(`No file ${file}.`)
  if (!given.isFile()) throw new OperatorError(`${file} is not a file.`)
  try {
    closeSync(openSync(file, 'r'))
  } catch (e) {
    throw unread(e)
  }
}

/** What the restore replaced, for its report: its counts (null: not a storeloc file it could read) and last change. */
export type Replaced = { counts: ReturnType<typeof contentCounts> | null; modifiedAt: string }
/**
 * `removedPartials`, `leftPartials`: the whole paths of what killed restores left beside the
 * database file, removed after the copy, and kept though long unchanged (removeStaleRestores's
 * Leftovers); `partialsFolder`: their folder when it is not DATABASE_PATH's own (a link into
 * another), else null.
 */
export type RestoreFacts = CopyFacts & {
  replaced: Replaced | null
  removedPartials: string[]
  leftPartials: string[]
  partialsFolder: string | null
}

/** When the database at `path` was last written: its file's or its -wal's time, the later. */
function lastWritten(path: string): string {
  const times = [path, `${path}-wal`].map((f) => statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? 0)
  return new Date(Math.max(...times)).toISOString()
}

/** The database about to be replaced, read after its -wal was folded in: a damaged one is told as unread. */
function contentsOf(path: string, modifiedAt: string): Replaced {
  try {
    const db = openExisting(path, 'live')
    try {
      return { counts: databaseFacts(db).kind === 'storeloc' ? contentCounts(db) : null, modifiedAt }
    } finally {
      db.close()
    }
  } catch {
    return { counts: null, modifiedAt }
  }
}

/**
 * Replaces the database at `databasePath` with the storeloc database in `file`. `force`: where it
 * cannot be told whether a process has the target open (see refuseWhileInUse), proceed.
 */
export function restoreDatabase(databasePath: string, file: string, force: boolean): RestoreFacts {
  if (databasePath === ':memory:')
    throw new OperatorError('DATABASE_PATH is :memory:, which has no file to restore into.')
  requireReadable(file)
  // A link into a folder not there (a disk not mounted) gets no new database, as at a start.
  const badLink = linkToNoFolder(databasePath) ?? linkLoop(databasePath)
  if (badLink !== null) throw new OperatorError(badLink)
  const inFolder = join(databasePath, basename(DEFAULT_DATABASE_PATH))
  const notFile = folderNotFile(
    databasePath,
    `name the database file to restore into, such as --database ${shellWord(inFolder)} (or set DATABASE_PATH to it). Nothing was changed.`,
  )
  if (notFile !== null) throw new OperatorError(notFile)
  if (sameFile(file, databasePath)) throw new OperatorError(`${file} is the database itself: nothing to restore.`)
  // The default path with no file there: most likely run in another folder than the service's.
  if (spellsPath(databasePath, DEFAULT_DATABASE_PATH) && !existsSync(databasePath))
    throw new OperatorError(
      `No database at ${databasePath} in ${process.cwd()} to replace: set DATABASE_PATH to the service's database file. To restore into a new file here, name it: DATABASE_PATH=${resolve(databasePath)}.`,
    )
  refuseWhileInUse(databasePath, force) // before the copy, which may take a while
  // The folder the system reads: after a link, a `..` leaves the link's target.
  const folder = dirname(typedPath(process.cwd(), databasePath))
  mkdirSync(folder, { recursive: true })
  requireDestination(databasePath)
  const replacing = existsSync(databasePath)
  // The file SQLite opens, a link's target, with its -wal and -shm beside it: the copy is written
  // there (its disk, its room) and renamed over it, so a link to it stays.
  const target = realPathToBe(databasePath)
  // The copy takes the replaced file's owner and mode (else its folder's owner): restored by root,
  // a root-owned file would leave the service's own user unable to write.
  const like = statSync(replacing ? target : dirname(target))
  const kept = replacing ? `the database ${databasePath} was left as it was` : `nothing was left at ${databasePath}`
  const todo = `A restore writes its copy there first: run this as a user who may; ${kept}.`
  const closed = folderNotWritable(databasePath, dirname(target), todo, replacing ? 'replaced' : 'written')
  if (closed !== null) throw new OperatorError(closed)
  let source: ReturnType<typeof openToRestore>
  try {
    source = openToRestore(file, target)
  } catch (e) {
    if (!existsSync(file)) throw new OperatorError(`No file ${file}.`) // removed since it was checked
    // The system's refusal (ENOSPC, EACCES) of the copy beside the database a WAL copy is read from.
    throw /^E[A-Z]+$/.test(String((e as { code?: unknown }).code)) ? copyFailure(e, file, databasePath, kept) : e
  }
  const db = source.db
  let replaced: Replaced | null = null
  let facts: CopyFacts
  try {
    requireRestorable(db, file)
    facts = writeVerifiedCopy(db, target, copySuffix('restoring'), (partial) => {
      if (process.getuid?.() === 0) chownSync(partial, like.uid, like.gid)
      if (replacing) chmodSync(partial, like.mode & 0o777)
      // Again: a server may have started meanwhile. Then the old file's -wal and -shm go first
      // (SQLite would replay a -wal it finds beside the new file into it), its commits folded into
      // it where it can be read, so a rename that fails leaves the old database whole.
      refuseWhileInUse(databasePath, force)
      const written = replacing ? lastWritten(target) : ''
      checkpointUnused(target)
      if (replacing) replaced = contentsOf(target, written)
      removeIfThere(`${target}-wal`)
      removeIfThere(`${target}-shm`)
    })
  } catch (e) {
    throw copyFailure(e, file, databasePath, kept)
  } finally {
    source.close()
  }
  // Once this restore's copy is in place: a restore that fails removes nothing, and FILE may be one.
  const { removed: removedPartials, left: leftPartials } = removeStaleRestores(target, file)
  return { ...facts, replaced, removedPartials, leftPartials, partialsFolder: partialsFolderOf(target, databasePath) }
}
