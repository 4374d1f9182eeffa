// The temporary files a build of the geocoder's data writes beside its path, named by the machine
// (and PID namespace) and the process that write them (its id, and when it started), and their
// removal once that process is gone (or its id is another program's, or, in another PID namespace
// of this machine, it holds the file's lock no more): a start killed midway (a deploy, an OOM
// kill) leaves them, and each is as large as the data.
import { Database } from 'bun:sqlite'
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs'
import { hostname } from 'node:os'
import { basename, dirname, join } from 'node:path'

/**
 * A file no process of this machine wrote (another container's, whose process ids this one does
 * not see, or another host's on a shared disk) is a killed build's only once untouched this long:
 * a running build writes to its file between steps of seconds, or minutes on a loaded machine.
 */
export const FOREIGN_BUILD_IDLE_MS = 60 * 60 * 1000

/**
 * The file this process builds the data at `outPath` in, renamed to `outPath` once whole: named by
 * its machine and PID namespace, its id and, where /proc tells it, its start
 * ("host-pid4026531836.1234-56789.locked.tmp"). "locked": its builder holds SQLite's exclusive
 * lock on it from its first write until it is whole (lockBuildFile).
 */
export function buildFile(outPath: string): string {
  const start = startTicks(process.pid)
  return `${outPath}.${host()}.${process.pid}${start === null ? '' : `-${start}`}.locked.tmp`
}

/**
 * Makes `db`, a build file just opened, keep its lock from its first write until it is closed: a
 * process of another PID namespace of this machine tells by it a running build from a killed one
 * (the kernel's fcntl locks are the file's, whatever namespace holds them).
 */
export function lockBuildFile(db: Database): void {
  db.exec('PRAGMA locking_mode = EXCLUSIVE')
}

/**
 * Lets go of the lock lockBuildFile keeps, the file whole, before `db` closes: a statement not
 * finalized would keep the connection, and its lock, open past close(), on the data's path then.
 */
export function unlockBuildFile(db: Database): void {
  db.exec('PRAGMA locking_mode = NORMAL')
  db.query('SELECT count(*) FROM sqlite_master').get() // the next read lets go of it
}

/** Removes the files of this process's build of the data at `outPath`, ended midway (its worker stopped). */
export function removeOwnBuild(outPath: string): void {
  const tmp = buildFile(outPath)
  for (const file of [tmp, `${tmp}-journal`]) rmSync(file, { force: true })
}

/**
 * This machine's name as a file name's part, dots too replaced, with the PID namespace it sees
 * processes in (Linux): containers sharing one volume may have one hostname, but each sees only
 * its own processes, so a build file is judged by its process only where it was named alike.
 */
const host = (): string => `${machine()}${pidSpace()}`

const machine = (): string => hostname().replace(/[^\w-]/g, '_') || 'host'

/** Whether `name`, as a build file's name says it, is this machine's in another PID namespace. */
const otherPidSpace = (name: string): boolean => new RegExp(`^${machine()}-pid\\d+$`).test(name) && name !== host()

/** "-pid4026531836": this process's PID namespace, by the inode /proc/self/ns/pid names; "" where there is none. */
function pidSpace(): string {
  try {
    const inode = /^pid:\[(\d+)\]$/.exec(readlinkSync('/proc/self/ns/pid'))?.[1]
    return inode === undefined ? '' : `-pid${inode}`
  } catch {
    return ''
  }
}

/**
 * Removes what builds stopped midway left beside `outPath`: their temporary files and journals,
 * by a process of this machine no longer running (or this one, or one whose id another program
 * took since: it started at another time than the name says), or by one of this machine's other
 * PID namespaces (a container started again) whose file is locked no more, or, by another
 * machine's (or one whose name tells no start, or no lock: an older version's, a system without
 * /proc), untouched for FOREIGN_BUILD_IDLE_MS. A folder that is not there holds none.
 */
export function removeStaleBuilds(outPath: string): void {
  const dir = dirname(outPath)
  const name = basename(outPath)
  if (!existsSync(dir)) return
  for (const entry of readdirSync(dir)) {
    if (!entry.startsWith(`${name}.`)) continue
    const m = /^(?:([\w-]+)\.)?(\d+)(?:-(\d+))?(\.locked)?\.tmp(-journal)?$/.exec(entry.slice(name.length + 1))
    if (!m) continue
    const file = join(dir, entry)
    const stale =
      m[1] === host()
        ? notWriting(Number(m[2]), m[3], file)
        : m[4] !== undefined && m[1] !== undefined && otherPidSpace(m[1])
          ? unlocked(m[5] === undefined ? file : file.slice(0, -'-journal'.length))
          : idleSince(file) > FOREIGN_BUILD_IDLE_MS
    if (stale) rmSync(file, { force: true })
  }
}

/**
 * Whether no process holds the lock of build file `file` (lockBuildFile), so its build was
 * killed: one still running holds it. A file not yet written (its builder between its opening and
 * its first write) and a whole one (between its builder's close and its rename to the data's
 * path) hold none: they are a killed build's once untouched for FOREIGN_BUILD_IDLE_MS. Read only,
 * so nothing is written beside it.
 */
function unlocked(file: string): boolean {
  let size: number
  try {
    size = statSync(file).size
  } catch {
    return true // a journal left without its file
  }
  if (size === 0) return idleSince(file) > FOREIGN_BUILD_IDLE_MS
  try {
    const db = new Database(file, { readonly: true })
    try {
      db.exec('PRAGMA busy_timeout = 0')
      const whole = db.query("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get() !== null
      return !whole || idleSince(file) > FOREIGN_BUILD_IDLE_MS
    } finally {
      db.close()
    }
  } catch (e) {
    // Locked: a build running. Else not SQLite's, or a journal to roll back: a killed build's.
    return (e as { code?: string }).code !== 'SQLITE_BUSY'
  }
}

/**
 * Whether `file`, named by this machine's process `pid` that started at `start` (clock ticks, as
 * startTicks; undefined when the name tells none), is no longer written: that process is this one
 * or not running, or the one running under its id started at another time. Where the start cannot
 * be compared, the file is a killed build's once untouched for FOREIGN_BUILD_IDLE_MS.
 */
function notWriting(pid: number, start: string | undefined, file: string): boolean {
  if (pid === process.pid || !running(pid)) return true
  const now = start === undefined ? null : startTicks(pid)
  return now === null ? idleSince(file) > FOREIGN_BUILD_IDLE_MS : now !== start
}

/** How long ago the file was last written; 0 for one gone meanwhile. */
function idleSince(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs
  } catch {
    return 0
  }
}

/**
 * When process `pid` started, in clock ticks since the boot (Linux: field 22 of /proc/PID/stat),
 * or null when it cannot be told. Compared only with another such start: /proc/uptime, under lxcfs
 * a container's, need not count from the boot these do.
 */
function startTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // After the command's name, which may hold spaces and parentheses, from the state (field 3) on.
    const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
    return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : null
  } catch {
    return null
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM' // someone else's: running
  }
}
