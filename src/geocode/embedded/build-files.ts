// The temporary files a build of the geocoder's data writes beside its path, named by the machine
// (and PID namespace) and the process that write them (its id, and when it started), and their
// removal once that process is gone (or its id is another program's): a start killed midway (a
// deploy, an OOM kill) leaves them, and each is as large as the data.
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
 * ("host-pid4026531836.1234-56789.tmp").
 */
export function buildFile(outPath: string): string {
  const start = startTicks(process.pid)
  return `${outPath}.${host()}.${process.pid}${start === null ? '' : `-${start}`}.tmp`
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
const host = (): string => `${hostname().replace(/[^\w-]/g, '_') || 'host'}${pidSpace()}`

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
 * took since: it started at another time than the name says), or, by another machine's (or one
 * whose name tells no start: an older version's, a system without /proc), untouched for
 * FOREIGN_BUILD_IDLE_MS. A folder that is not there holds none.
 */
export function removeStaleBuilds(outPath: string): void {
  const dir = dirname(outPath)
  const name = basename(outPath)
  if (!existsSync(dir)) return
  for (const entry of readdirSync(dir)) {
    if (!entry.startsWith(`${name}.`)) continue
    const m = /^(?:([\w-]+)\.)?(\d+)(?:-(\d+))?\.tmp(-journal)?$/.exec(entry.slice(name.length + 1))
    if (!m) continue
    const file = join(dir, entry)
    const stale = m[1] === host() ? notWriting(Number(m[2]), m[3], file) : idleSince(file) > FOREIGN_BUILD_IDLE_MS
    if (stale) rmSync(file, { force: true })
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
