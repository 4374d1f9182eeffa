// What a backup or a restore killed midway (`kill -9`, a reboot) leaves beside its file: a killed
// process renames nothing into place and cleans nothing up. A later run of the same command
// removes what a process that is gone left.
import { type Stats, lstatSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { realPathToBe } from '../core/config'
import { randomBase62 } from '../core/ids'
import { processTag, running, startTicks } from '../core/processes'
import { typedPath } from '../core/typed-in'

/** Clock ticks a second in /proc (USER_HZ): 100 on Linux. */
const TICKS_A_SECOND = 100
/** A file's time may be up to this much before it was written: a file system's coarse times, a clock set. */
const CLOCK_SLACK_MS = 10_000

/**
 * Leftovers of a copy whose writer runs nowhere here (copyFate), unchanged this long, are
 * no running backup's or restore's (in another container on the same volume): one writes its copy
 * all along, and its longest stretch with no change, the integrity_check read of that copy, takes
 * under a minute a GB.
 */
export const STALE_COPY_MS = 10 * 60_000

/**
 * What a copy's name adds to its file's: `.KIND-PID-START-XXXXXX`, this process's id and start
 * (processTag), and a random part. Two runs of one id (process 1 of two containers on one volume)
 * write two copies, not one; the start tells the process that writes it from another of its id.
 */
export const copySuffix = (kind: 'partial' | 'restoring'): string => `.${kind}-${processTag()}-${randomBase62(6)}`

/**
 * What becomes of the copy named by process id `pid` and start `start` (null: a name without
 * one), whose leftovers last changed at `mtimeMs`. Its id run here by the process of that start:
 * kept, it writes it. Its id run by a process started after that change: gone, an id is used
 * again after a reboot. Else gone once unchanged for STALE_COPY_MS when its id runs not here, or
 * is this process's, or (its start named) another's, as in another PID namespace (a container on
 * the same volume, where each run's command may be process 1). A process of its id here, started
 * before, whose start the name does not give or that cannot be read: unsure once unchanged so long.
 */
function copyFate(pid: number, start: string | null, mtimeMs: number, now: number): 'gone' | 'kept' | 'unsure' {
  const unchanged = now - mtimeMs >= STALE_COPY_MS
  if (pid === process.pid || !running(pid)) return unchanged ? 'gone' : 'kept'
  const [theirs, mine] = [startTicks(pid), startTicks('self')]
  if (theirs !== null && theirs === start) return 'kept'
  // Their start on this clock, from this process's: ticks count from the boot, for both alike.
  if (theirs !== null && mine !== null) {
    const started = performance.timeOrigin + ((Number(theirs) - Number(mine)) * 1000) / TICKS_A_SECOND
    if (started > mtimeMs + CLOCK_SLACK_MS) return 'gone'
  }
  if (!unchanged) return 'kept'
  return theirs !== null && start !== null ? 'gone' : 'unsure'
}

/**
 * What a run found that killed copies left, by whole path in its folder's real path (where a
 * script finds them): `removed`, and `left`, unchanged for STALE_COPY_MS yet kept, as a process
 * of its id runs here and may be writing it (copyFate's unsure).
 */
export type Leftovers = { removed: string[]; left: string[] }

/** The last change of a leftover: of a folder, the latest of it and what it holds. */
function lastChange(path: string, stat: Stats): number {
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((f) => lstatSync(join(path, f)).mtimeMs))
}

/** Every character of `text` read as itself in a RegExp. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * A copy's name after its file's: `.KIND-PID`, a start and a random part (copySuffix), a random
 * part alone, or none, then a rollback journal or none. Names without a start or a random part
 * are copies older versions left, removed alike. Groups: the id, the start.
 */
const copyName = (kind: 'partial' | 'restoring') =>
  `\\.${kind}-(\\d+)(?:-(\\d+)-[A-Za-z0-9]{6}|-[A-Za-z0-9]{6})?(?:-journal)?$`

/**
 * Removes what killed backups left in `folder`, where a backup writes its copy:
 * `NAME.partial-PID-START-XXXXXX` (copySuffix), and older versions' `NAME.partial-PID[-XXXXXX]`,
 * each with the rollback journal its copy may leave.
 * Those of a backup gone, as removeStaleRestores. Never the database at `databasePath`, which the
 * backup copies, nor `file`, the backup's FILE. Best effort.
 */
export function removeStalePartials(folder: string, databasePath: string, file: string, now = Date.now()): Leftovers {
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
 * backup: the copy `NAME.restoring-PID-START-XXXXXX` (copySuffix; older versions' without START
 * or the random part) and its rollback journal, and the folder named alike holding `copy.db` and
 * its -wal. Never `file`, the file restored from, its journal, or a folder holding it. Best effort.
 */
export function removeStaleRestores(databasePath: string, file: string, now = Date.now()): Leftovers {
  const whole = typedPath(process.cwd(), databasePath)
  // Its `..` read as the system reads it, as the copies are named.
  return removeStale(dirname(whole), new RegExp(`^${literal(basename(whole))}${copyName('restoring')}`), [file], now)
}

/**
 * Removes the leftovers in `folder` whose names `named` matches (its groups the id and the start of
 * the process that wrote them), of a copy gone (copyFate), judged by the latest change among all
 * that process left. Never a file of `keep` (one not there keeps nothing), its journal, or a folder
 * holding it; a folder holding anything but `copy.db` and its files is left.
 */
function removeStale(folder: string, named: RegExp, keep: string[], now: number): Leftovers {
  let real: string // join would drop a `..` after a link as text
  let names: string[]
  try {
    real = realpathSync.native(folder)
    names = readdirSync(real)
  } catch {
    return { removed: [], left: [] }
  }
  const froms: { dev: number; ino: number; path: string }[] = []
  try {
    for (const path of keep) {
      const stat = statSync(path, { throwIfNoEntry: false })
      if (stat !== undefined) froms.push({ ...stat, path: realpathSync.native(path) })
    }
  } catch {
    return { removed: [], left: [] } // a file of `keep` not to be told apart from a leftover: none is removed
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
  const found: { path: string; pid: number; start: string | null; by: string; stat: Stats }[] = []
  const changed = new Map<string, number>() // by the process that wrote them: its id, and its start where named
  for (const name of names) {
    const [, pid, start] = named.exec(name) ?? []
    if (pid === undefined) continue
    const path = join(real, name)
    try {
      const stat = lstatSync(path)
      const by = start === undefined ? pid : `${pid}-${start}`
      found.push({ path, pid: Number(pid), start: start ?? null, by, stat })
      changed.set(by, Math.max(changed.get(by) ?? 0, lastChange(path, stat)))
    } catch {}
  }
  const removed: string[] = []
  const unsure: string[] = []
  for (const { path, pid, start, by, stat } of found) {
    try {
      if (kept(path, stat)) continue
      const fate = copyFate(pid, start, changed.get(by)!, now)
      if (fate === 'unsure') unsure.push(path)
      if (fate !== 'gone') continue
      if (stat.isDirectory()) {
        if (!readdirSync(path).every((f) => f.startsWith('copy.db'))) continue
        rmSync(path, { recursive: true })
      } else if (stat.isFile()) rmSync(path)
      else continue
      removed.push(path)
    } catch {}
  }
  return { removed: removed.sort(), left: unsure.sort() }
}
