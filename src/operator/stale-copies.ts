// What a backup or a restore killed midway (`kill -9`, a reboot) leaves beside its file: a killed
// process renames nothing into place and cleans nothing up. The next run of the same command
// removes what a process that no longer runs here left.
import { lstatSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { typedPath } from '../core/typed-in'

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
 * Removes the partial copies killed backups left in `folder`: those of a process that no longer
 * runs here, unchanged for STALE_PARTIAL_MS, so a backup another machine runs into a shared folder
 * keeps its own. Best effort: a file that cannot be removed is left. Returns the names removed.
 */
export function removeStalePartials(folder: string, now = Date.now()): string[] {
  const removed: string[] = []
  const real = realpathSync.native(folder) // join would drop a `..` after a link as text
  for (const name of readdirSync(real)) {
    const pid = PARTIAL.exec(name)?.[1]
    if (pid === undefined || running(Number(pid))) continue
    const path = join(real, name)
    try {
      const stat = statSync(path)
      if (!stat.isFile() || now - stat.mtimeMs < STALE_PARTIAL_MS) continue
      rmSync(path)
      removed.push(name)
    } catch {}
  }
  return removed.sort()
}

/** Every character of `text` read as itself in a RegExp. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Removes what killed restores left beside the database at `databasePath`, each as big as the
 * backup: the copy `NAME.restoring-PID` (and its rollback journal), and the folder
 * `NAME.restoring-PID-XXXXXX` holding `copy.db` and its -wal. Those of a process that no longer
 * runs here, with no wait (a killed restore is run again at once): the database's folder is this
 * machine's, whose processes a restore asks about. A folder holding anything else is left. Best
 * effort. Returns the names removed.
 */
export function removeStaleRestores(databasePath: string): string[] {
  const whole = typedPath(process.cwd(), databasePath)
  const folder = dirname(whole) // its `..` read as the system reads it, as the copies are named
  const left = new RegExp(`^${literal(basename(whole))}\\.restoring-(\\d+)(-journal|-[A-Za-z0-9]{6})?$`)
  let real: string // join would drop a `..` after a link as text
  let names: string[]
  try {
    real = realpathSync.native(folder)
    names = readdirSync(real)
  } catch {
    return []
  }
  const removed: string[] = []
  for (const name of names) {
    const pid = left.exec(name)?.[1]
    if (pid === undefined || running(Number(pid))) continue
    const path = join(real, name)
    try {
      const stat = lstatSync(path)
      if (stat.isDirectory()) {
        if (!readdirSync(path).every((f) => f.startsWith('copy.db'))) continue
        rmSync(path, { recursive: true })
      } else if (stat.isFile()) rmSync(path)
      else continue
      removed.push(name)
    } catch {}
  }
  return removed.sort()
}
