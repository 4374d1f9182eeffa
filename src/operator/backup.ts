// `storeloc backup FILE`: a whole copy of the database (locators, keys, settings, filters,
// locations, the change log), taken while servers read and write it, and checked before it is kept.
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import {
  type CopyFacts,
  CopyDamagedError,
  databaseFacts,
  openExisting,
  openUnwritable,
  writeVerifiedCopy,
} from '../store/backup-file'
import { storageFault } from '../store/db'
import { hiddenByFolder, linkLoop, linkToNoFolder } from './file-owner'
import { refuseWhileInUse } from './restore-guard'
import { unwritable } from './storage-check'
import { OperatorError } from './shared'
import { isCorruptError } from '../store/damage'
import { cliCommand } from '../core/cli-command'

/** The database at `path` must be there: opening a missing one would make an empty one. */
export function requireDatabaseFile(path: string): void {
  if (path === ':memory:') throw new OperatorError('DATABASE_PATH is :memory:, which no other process can read.')
  if (!existsSync(path)) {
    throw new OperatorError(
      hiddenByFolder(path) ??
        linkToNoFolder(path) ??
        linkLoop(path) ??
        `No database at ${path}: set DATABASE_PATH to the service's database file (${cliCommand('locator create')} makes a new one).`,
    )
  }
}

/** Whether the two paths name one file (a hard link or another spelling included). */
export function sameFile(a: string, b: string): boolean {
  const sa = statSync(a, { throwIfNoEntry: false })
  const sb = statSync(b, { throwIfNoEntry: false })
  return sa !== undefined && sb !== undefined && sa.dev === sb.dev && sa.ino === sb.ino
}

/**
 * A destination the copy can be renamed onto: in a folder that is there, not a folder itself.
 * `inFolder`: what to say when `path` is a folder (a backup names its file there, by its date).
 */
export function requireDestination(path: string, inFolder = ''): void {
  const folder = statSync(dirname(resolve(path)), { throwIfNoEntry: false })
  if (folder === undefined || !folder.isDirectory()) throw new OperatorError(`No folder ${dirname(path)} for ${path}.`)
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory())
    throw new OperatorError(`${path} is a folder.${inFolder}`)
}

/** A backup's file name in `folder` by the time it is taken (UTC), as docs/operations.md's cron line names them. */
const datedIn = (folder: string, now = new Date()) =>
  join(folder, `${now.toISOString().slice(0, 16).replace('T', '-').replace(':', '')}.db`)

/**
 * Why a copy into `dest` failed, in words: the storage refused (a full disk, a folder that may not
 * be written), or SQLite found the source damaged. Anything else is not known here: returned as it is.
 */
export function copyFailure(e: unknown, source: string, dest: string, kept: string): unknown {
  if (e instanceof CopyDamagedError) {
    return new OperatorError(
      `The copy of ${source} failed integrity_check (${e.problems.slice(0, 3).join('; ')}); ${kept}.`,
    )
  }
  if (isCorruptError(e)) {
    return new OperatorError(`${source} could not be read whole (${(e as Error).message}): it is damaged; ${kept}.`)
  }
  const code = (e as { code?: unknown } | null)?.code
  if (storageFault(e) !== null || code === 'SQLITE_CANTOPEN' || (typeof code === 'string' && /^E[A-Z]+$/.test(code))) {
    return new OperatorError(`Could not write ${dest} (${(e as Error).message}); ${kept}. ${writeAdvice(code)}`)
  }
  return e
}

/** What to do about a copy that could not be written, by the system's reason `code`. */
function writeAdvice(code: unknown): string {
  if (code === 'EPERM')
    return "That file is another user's, in a folder with the sticky bit: remove it as its owner or as root, or name another place."
  if (code === 'EACCES' || code === 'EROFS')
    return 'This user may not write there: run this as a user who may, or name a writable place.'
  return 'Free space, or name a writable place.'
}

/** A killed backup's partial copy, and the rollback journal its copy may leave: `NAME.partial-PID[-journal]`. */
const PARTIAL = /^.+\.partial-(\d+)(-journal)?$/

/** A partial copy left unchanged this long is no running backup's: a copy writes, then reads, its file all along. */
export const STALE_PARTIAL_MS = 60 * 60_000

/** Whether a process of that id runs on this machine (another user's too). */
function running(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as { code?: unknown }).code !== 'ESRCH'
  }
}

/**
 * Removes the partial copies killed backups left in `folder` (a killed process renames nothing
 * into place, and cleans nothing up): those of a process that no longer runs here, unchanged for
 * STALE_PARTIAL_MS, so a backup another machine runs into a shared folder keeps its own. Best
 * effort: a file that cannot be removed is left. Returns the names removed.
 */
export function removeStalePartials(folder: string, now = Date.now()): string[] {
  const removed: string[] = []
  for (const name of readdirSync(folder)) {
    const pid = PARTIAL.exec(name)?.[1]
    if (pid === undefined || running(Number(pid))) continue
    const path = join(folder, name)
    try {
      const stat = statSync(path)
      if (!stat.isFile() || now - stat.mtimeMs < STALE_PARTIAL_MS) continue
      rmSync(path)
      removed.push(name)
    } catch {}
  }
  return removed.sort()
}

/** `removedPartials`: the names of the stale partial copies removed beside FILE (removeStalePartials). */
export type BackupFacts = CopyFacts & { removedPartials: string[] }

export function backupDatabase(databasePath: string, file: string, force: boolean): BackupFacts {
  requireDatabaseFile(databasePath)
  requireDestination(file, ` Name a file in it, such as ${datedIn(file)}.`)
  if (sameFile(databasePath, file)) throw new OperatorError(`${file} is the database itself: name another file.`)
  const removedPartials = removeStalePartials(dirname(resolve(file)))
  const replacing = existsSync(file)
  if (replacing) {
    if (!force) throw new OperatorError(`${file} exists: name a new file, or give --force to replace it.`)
    refuseWhileInUse(file, false)
  }
  const { db, changed } =
    unwritable(databasePath).length > 0
      ? openUnwritable(databasePath)
      : { db: openExisting(databasePath, 'live'), changed: () => false }
  try {
    const facts = databaseFacts(db)
    if (facts.kind !== 'storeloc') {
      throw new OperatorError(
        `${databasePath} is not a storeloc database (${facts.kind === 'empty' ? 'it has no tables' : `tables ${facts.tables.join(', ')}`}): nothing was copied.`,
      )
    }
    const copied = writeVerifiedCopy(db, file, `.partial-${process.pid}`, () => {
      if (changed())
        throw new OperatorError(
          `${databasePath} was written by another process while it was copied: opened read-only with no -wal file beside it, the copy takes no lock, and may be torn, so it was not kept. Run the backup again, or as the service's user.`,
        )
    })
    return { ...copied, removedPartials }
  } catch (e) {
    throw copyFailure(e, databasePath, file, replacing ? `${file} was left as it was` : `nothing was left at ${file}`)
  } finally {
    db.close()
  }
}
