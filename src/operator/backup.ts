// `storeloc backup FILE`: a whole copy of the database (locators, keys, settings, filters,
// locations, the change log), taken while servers read and write it, and checked before it is kept.
import { existsSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import {
  type CopyFacts,
  CopyDamagedError,
  databaseFacts,
  openExisting,
  openUnwritable,
  writeVerifiedCopy,
} from '../store/backup-file'
import { storageFault } from '../store/db'
import { fileHiddenByFolder, folderNotWritable, hiddenByFolder, linkLoop, linkToNoFolder } from './file-owner'
import { refuseWhileInUse } from './restore-guard'
import { copySuffix, partialsFolderOf, removeStalePartials } from './stale-copies'
import { unwritable } from './storage-check'
import { OperatorError } from './shared'
import { isCorruptError } from '../store/damage'
import { cliCommand } from '../core/cli-command'
import { fileOnTheWay, isFolder, typedPath } from '../core/typed-in'
import { realPathToBe } from '../core/config'
import { linkThroughFile, throughFileSentence } from '../core/link-target'

/** What to do about a folder this user may not look into or write in. */
const OTHER_USER_OR_PLACE = 'Run this as a user who may, or name another place.'

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
  const hidden = fileHiddenByFolder(path, OTHER_USER_OR_PLACE)
  if (hidden !== null) throw new OperatorError(hidden)
  if (path.endsWith('/') && !isFolder(path))
    throw new OperatorError(
      `No folder ${path}: a FILE ending in / names a folder. Make it (or mount the disk it is on), or name a file.`,
    )
  // The folder the system reads: after a link, a `..` leaves the link's target.
  if (!isFolder(dirname(typedPath(process.cwd(), path))))
    throw new OperatorError(`No folder ${dirname(path)} for ${path}.`)
  if (isFolder(path)) throw new OperatorError(`${path} is a folder.${inFolder}`)
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

/**
 * `removedPartials`, `leftPartials`: the whole paths of the partial copies removed, and of those
 * kept though long unchanged (removeStalePartials's Leftovers), in the folder the copy is written
 * in; `partialsFolder` is that folder when it is not FILE's own (FILE a link into another), else null.
 */
export type BackupFacts = CopyFacts & {
  removedPartials: string[]
  leftPartials: string[]
  partialsFolder: string | null
}

export function backupDatabase(databasePath: string, file: string, force: boolean): BackupFacts {
  requireDatabaseFile(databasePath)
  const unreached = fileOnTheWay(file)
  if (unreached !== null) throw new OperatorError(`${unreached} Name a file by a path through folders only.`)
  const loop = linkLoop(file, 'Make the link lead to a file or a folder, or name another file.')
  if (loop !== null) throw new OperatorError(loop)
  requireDestination(file, ` Name a file in it, such as ${datedIn(file)}.`)
  const through = linkThroughFile(file)
  if (through !== null)
    throw new OperatorError(throughFileSentence(file, through.target, through.file, 'name another file'))
  // The file a link at FILE leads to: the copy is written beside it and renamed over it, so the link stays.
  const target = realPathToBe(file)
  if (sameFile(databasePath, file)) throw new OperatorError(`${file} is the database itself: name another file.`)
  // SQLite removes or rewrites the database's own -wal, -shm and -journal at its next open.
  const sidecar = ['-wal', '-shm', '-journal'].find((suffix) => target === `${realPathToBe(databasePath)}${suffix}`)
  if (sidecar !== undefined)
    throw new OperatorError(
      `${file} ${target === typedPath(process.cwd(), file) ? 'is' : `leads to ${target},`} SQLite's ${sidecar} file of the database ${databasePath}, which SQLite removes or writes over: name another file.`,
    )
  if (!isFolder(dirname(target)))
    throw new OperatorError(
      `${file} leads to ${target}, whose folder ${dirname(target)} is not there: mount the disk it is on, or make the folder, or name another file.`,
    )
  const closed = folderNotWritable(file, dirname(target), OTHER_USER_OR_PLACE)
  if (closed !== null) throw new OperatorError(closed)
  const { removed: removedPartials, left: leftPartials } = removeStalePartials(dirname(target), databasePath, target)
  const partialsFolder = partialsFolderOf(target, file)
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
    const copied = writeVerifiedCopy(
      db,
      target,
      copySuffix('partial'),
      () => {
        if (changed())
          throw new OperatorError(
            `${databasePath} was written by another process while it was copied: opened read-only with no -wal file beside it, the copy takes no lock, and may be torn, so it was not kept. Run the backup again, or as the service's user.`,
          )
      },
      force,
    )
    return { ...copied, removedPartials, leftPartials, partialsFolder }
  } catch (e) {
    // Another process (a backup run at once) made FILE since it was looked at.
    if (!force && (e as { code?: unknown }).code === 'EEXIST')
      throw new OperatorError(
        `${file} exists, made by another process while this backup copied: it was left as it is. Name a new file, or give --force to replace it.`,
      )
    throw copyFailure(e, databasePath, file, replacing ? `${file} was left as it was` : `nothing was left at ${file}`)
  } finally {
    db.close()
  }
}
