// What a backup or a restore killed midway (`kill -9`, a reboot) leaves beside its file: a killed
// process renames nothing into place and cleans nothing up. A later run of the same command
// removes what a process that is gone left.
import { type Stats, lstatSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { running, startTicks } from '../core/processes'
import { typedPath } from '../core/typed-in'

/** A killed backup's partial copy, and the rollback journal its copy may leave: `NAME.partial-PID[-journal]`. */
const PARTIAL = /^.+\.partial-(\d+)(-journal)?$/

/** A partial copy left unchanged this long is no running backup's: a copy writes, then reads, its file all along. */
export const STALE_PARTIAL_MS = 60 * 60_000

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

/** Clock ticks a second in /proc (USER_HZ): 100 on Linux. */
const TICKS_A_SECOND = 100
/** A file's time may be up to this much before it was written: a file system's coarse times, a clock set. */
const CLOCK_SLACK_MS = 10_000

/**
 * Leftovers of a restore whose id runs nowhere here, or is this process's, unchanged this long,
 * are no running restore's (in another container on the same volume): one writes its copy all along, and its longest stretch with no change, the
 * integrity_check read of that copy, takes under a minute a GB.
 */
export const STALE_RESTORE_MS = 10 * 60_000

/**
 * Whether the restore named by process id `pid`, whose leftovers last changed at `mtimeMs`, is
 * gone. Its id run by a process started after that change is another's: an id is used again after
 * a reboot. Else, its id not running here or this process's (a restore in another container on
 * the same volume, where each run's command may be process 1), once unchanged for STALE_RESTORE_MS.
 */
function restoreGone(pid: number, mtimeMs: number, now: number): boolean {
  if (pid === process.pid || !running(pid)) return now - mtimeMs >= STALE_RESTORE_MS
  const [theirs, mine] = [startTicks(pid), startTicks('self')]
  if (theirs === null || mine === null) return false
  // Their start on this clock, from this process's: ticks count from the boot, for both alike.
  const started = performance.timeOrigin + ((Number(theirs) - Number(mine)) * 1000) / TICKS_A_SECOND
  return started > mtimeMs + CLOCK_SLACK_MS
}

/** The last change of a leftover: of a folder, the latest of it and what it holds. */
function lastChange(path: string, stat: Stats): number {
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((f) => lstatSync(join(path, f)).mtimeMs))
}

/** Every character of `text` read as itself in a RegExp. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Removes what killed restores left beside the database at `databasePath`, each as big as the
 * backup: the copy `NAME.restoring-PID` (and its rollback journal), and the folder
 * `NAME.restoring-PID-XXXXXX` holding `copy.db` and its -wal. Those of a restore gone
 * (restoreGone), judged by the latest change among all it left. Never `file`, the file restored
 * from, its journal, or a folder holding it. A folder holding anything else is left. Best effort.
 * Returns the names removed.
 */
export function removeStaleRestores(databasePath: string, file: string, now = Date.now()): string[] {
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
  let from: { dev: number; ino: number; path: string }
  try {
    from = { ...statSync(file), path: realpathSync.native(file) }
  } catch {
    return [] // FILE not to be told apart from a leftover: none is removed
  }
  // FILE itself (or another name of it), its rollback journal, and a folder holding it.
  const kept = (path: string, stat: Stats) =>
    (stat.dev === from.dev && stat.ino === from.ino) ||
    path === from.path ||
    path === `${from.path}-journal` ||
    from.path.startsWith(`${path}/`)
  const found: { name: string; path: string; pid: number; stat: Stats }[] = []
  const changed = new Map<number, number>()
  for (const name of names) {
    const pid = left.exec(name)?.[1]
    if (pid === undefined) continue
    const path = join(real, name)
    try {
      const stat = lstatSync(path)
      found.push({ name, path, pid: Number(pid), stat })
      changed.set(Number(pid), Math.max(changed.get(Number(pid)) ?? 0, lastChange(path, stat)))
    } catch {}
  }
  const removed: string[] = []
  for (const { name, path, pid, stat } of found) {
    try {
      if (kept(path, stat) || !restoreGone(pid, changed.get(pid)!, now)) continue
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
