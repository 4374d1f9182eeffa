// What a backup or a restore killed midway (`kill -9`, a reboot) leaves beside its file: a killed
// process renames nothing into place and cleans nothing up. A later run of the same command
// removes what a process that is gone left.
import { type Stats, lstatSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { realPathToBe } from '../core/config'
import { randomBase62 } from '../core/ids'
import { running, startTicks } from '../core/processes'
import { typedPath } from '../core/typed-in'

/** Clock ticks a second in /proc (USER_HZ): 100 on Linux. */
const TICKS_A_SECOND = 100
/** A file's time may be up to this much before it was written: a file system's coarse times, a clock set. */
const CLOCK_SLACK_MS = 10_000

/**
 * Leftovers of a copy whose id runs nowhere here, or is this process's, unchanged this long, are
 * no running backup's or restore's (in another container on the same volume): one writes its copy
 * all along, and its longest stretch with no change, the integrity_check read of that copy, takes
 * under a minute a GB.
 */
export const STALE_COPY_MS = 10 * 60_000

/**
 * What a copy's name adds to its file's: `.KIND-PID-XXXXXX`, this process's id and a random part.
 * Two runs of one id (process 1 of two containers on one volume) write two copies, not one.
 */
export const copySuffix = (kind: 'partial' | 'restoring'): string => `.${kind}-${process.pid}-${randomBase62(6)}`

/**
 * Whether the copy named by process id `pid`, whose leftovers last changed at `mtimeMs`, is gone.
 * Its id run by a process started after that change is another's: an id is used again after a
 * reboot. Else, its id not running here or this process's (a copy in another container on the
 * same volume, where each run's command may be process 1), once unchanged for STALE_COPY_MS.
 */
function copyGone(pid: number, mtimeMs: number, now: number): boolean {
  if (pid === process.pid || !running(pid)) return now - mtimeMs >= STALE_COPY_MS
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
 * A copy's name after its file's: `.KIND-PID`, a random part (copySuffix) or none, a rollback
 * journal or none. Names without a random part are copies older versions left, removed alike.
 */
const copyName = (kind: 'partial' | 'restoring') => `\\.${kind}-(\\d+)(?:-[A-Za-z0-9]{6})?(?:-journal)?$`

/**
 * Removes what killed backups left in `folder`, where a backup writes its copy: `NAME.partial-PID`
 * and `NAME.partial-PID-XXXXXX` (copySuffix), each with the rollback journal its copy may leave.
 * Those of a backup gone, as removeStaleRestores. Never the database at `databasePath`, which the
 * backup copies, nor `file`, the backup's FILE. Best effort. Returns the names removed.
 */
export function removeStalePartials(folder: string, databasePath: string, file: string, now = Date.now()): string[] {
  return removeStale(folder, new RegExp(`^.+${copyName('partial')}`), [databasePath, file], now)
}

/**
 * The folder the copy onto `target` (the file a link at `path` leads to) is written in, and what
 * a killed copy leaves: when it is not `path`'s own folder (a link into another), else null.
 */
export function partialsFolderOf(target: string, path: string): string | null {
  return dirname(target) === realPathToBe(dirname(path)) ? null : dirname(target)
}

/**
 * Removes what killed restores left beside the database at `databasePath`, each as big as the
 * backup: the copy `NAME.restoring-PID[-XXXXXX]` (and its rollback journal), and the folder
 * `NAME.restoring-PID-XXXXXX` holding `copy.db` and its -wal. Never `file`, the file restored
 * from, its journal, or a folder holding it. Best effort. Returns the whole paths removed.
 */
export function removeStaleRestores(databasePath: string, file: string, now = Date.now()): string[] {
  const whole = typedPath(process.cwd(), databasePath)
  // Its `..` read as the system reads it, as the copies are named.
  return removeStale(dirname(whole), new RegExp(`^${literal(basename(whole))}${copyName('restoring')}`), [file], now)
}

/**
 * Removes the leftovers in `folder` whose names `left` matches (its first group the id of the
 * process that wrote them), of a copy gone (copyGone), judged by the latest change among all that
 * id left. Never a file of `keep` (one not there keeps nothing), its journal, or a folder holding
 * it; a folder holding anything but `copy.db` and its files is left. Returns the whole paths removed,
in `folder`'s real path (the one a script finds them at).
 */
function removeStale(folder: string, left: RegExp, keep: string[], now: number): string[] {
  let real: string // join would drop a `..` after a link as text
  let names: string[]
  try {
    real = realpathSync.native(folder)
    names = readdirSync(real)
  } catch {
    return []
  }
  const froms: { dev: number; ino: number; path: string }[] = []
  try {
    for (const path of keep) {
      const stat = statSync(path, { throwIfNoEntry: false })
      if (stat !== undefined) froms.push({ ...stat, path: realpathSync.native(path) })
    }
  } catch {
    return [] // a file of `keep` not to be told apart from a leftover: none is removed
  }
  // A file of `keep` itself (or another name of it), its rollback journal, and a folder holding it.
  const kept = (path: string, stat: Stats) =>
    froms.some(
      (from) =>
        (stat.dev === from.dev && stat.ino === from.ino) ||
        path === from.path ||
        path === `${from.path}-journal` ||
        from.path.startsWith(`${path}/`),
    )
  const found: { path: string; pid: number; stat: Stats }[] = []
  const changed = new Map<number, number>()
  for (const name of names) {
    const pid = left.exec(name)?.[1]
    if (pid === undefined) continue
    const path = join(real, name)
    try {
      const stat = lstatSync(path)
      found.push({ path, pid: Number(pid), stat })
      changed.set(Number(pid), Math.max(changed.get(Number(pid)) ?? 0, lastChange(path, stat)))
    } catch {}
  }
  const removed: string[] = []
  for (const { path, pid, stat } of found) {
    try {
      if (kept(path, stat) || !copyGone(pid, changed.get(pid)!, now)) continue
      if (stat.isDirectory()) {
        if (!readdirSync(path).every((f) => f.startsWith('copy.db'))) continue
        rmSync(path, { recursive: true })
      } else if (stat.isFile()) rmSync(path)
      else continue
      removed.push(path)
    } catch {}
  }
  return removed.sort()
}
