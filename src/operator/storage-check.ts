// The doctor's look at what holds the database: whether this user may write the file, its -wal
// and -shm and its folder, and the room left on the disk. A server refuses every write when
// either fails (503, /readyz "degraded"), which the file's own checks do not show.
import { accessSync, constants, existsSync, statfsSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { byteSize } from '../core/byte-size'
import { WAL_KEPT_BYTES } from '../store/db'
import type { Check, Problem } from './doctor'
import { folderNotFile, otherOwner, realDatabase } from './file-owner'

/**
 * Less free than this is a problem: the -wal file alone grows to this much beside a long read (a
 * backup, an export), and an export past 1 MiB waits on this disk while it is sent.
 */
export const LOW_SPACE_BYTES = WAL_KEPT_BYTES

/**
 * The files SQLite writes for `path` (a link's target's) that this user may not: each with why (a
 * read-only file system, or the modes). A folder not there yet is none: opening makes it.
 */
export function unwritable(path: string): string[] {
  // A folder at the path is no file to write: folderNotFile says what is wrong. A database in
  // memory writes nothing beside it.
  if (path === ':memory:' || folderNotFile(path) !== null) return []
  const real = realDatabase(path)
  const folder = dirname(real)
  const files = [real, `${real}-wal`, `${real}-shm`].filter((f) => existsSync(f))
  const refused: string[] = []
  for (const target of [...files, folder]) {
    try {
      accessSync(target, constants.W_OK)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code === 'ENOENT') continue
      const why = code === 'EROFS' ? 'a read-only file system' : code === 'EACCES' ? modeOrOwner(target) : code
      refused.push(`${target === folder ? `its folder ${folder}` : target} (${why})`)
    }
  }
  return refused
}

/** Why the system refused `target` a write: its mode (as `ls -l` counts it, octal) or owner. */
function modeOrOwner(target: string): string {
  const mode = statSync(target, { throwIfNoEntry: false })?.mode
  return mode === undefined
    ? 'its mode or owner'
    : `its mode (${(mode & 0o7777).toString(8).padStart(4, '0')}) or owner`
}

/** A sentence naming what this user may not write for `path`, and why; null when nothing. */
export function unwritableSentence(path: string): string | null {
  const refused = unwritable(path)
  if (refused.length === 0) return null
  const uid = process.getuid?.()
  return `This user${uid === undefined ? '' : ` (uid ${uid})`} may not write ${refused.join(', ')}.`
}

/** The database's storage as this user finds it (run the doctor as the service's user). */
export function storageCheck(path: string): Check {
  const check = { check: 'storage', subject: dirname(realDatabase(path)) }
  const problems: Problem[] = []
  const refused = unwritable(path)
  const uid = process.getuid?.()
  if (refused.length > 0)
    problems.push({
      problem: `This user${uid === undefined ? '' : ` (uid ${uid})`} may not write ${refused.join(', ')}: a server running as this user refuses every write (503), and a start exits 3.`,
      fix: `${otherOwner(path) ?? ''} Make them writable by the service's user (or mount the file system read-write), then restart the service: a file read-only when it was opened stays so for it. Run the doctor as the service's user to check its access.`.trimStart(),
    })
  let free: number | null = null
  try {
    const fs = statfsSync(dirname(realDatabase(path)))
    free = fs.bavail * fs.bsize
  } catch {
    // No statfs here: the room left is not told, and not judged.
  }
  // A read-only file system has no room to judge: nothing is written to it.
  const readOnly = refused.some((r) => r.endsWith('(a read-only file system)'))
  if (free !== null && free < LOW_SPACE_BYTES && !readOnly)
    problems.push({
      problem: `${byteSize(free)} free on the disk that holds the database, less than ${byteSize(LOW_SPACE_BYTES)}: writes are refused (503 "disk is full") once a transaction cannot grow the file or its -wal.`,
      fix: 'Free space on that disk (old backups, logs, an export left there): writes succeed again without a restart.',
    })
  const room = free === null ? 'free space unknown' : `${byteSize(free)} free`
  return { ...check, summary: refused.length > 0 ? room : `writable, ${room}`, problems }
}
