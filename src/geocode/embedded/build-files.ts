// The temporary files a build of the geocoder's data writes beside its path, named by the machine
// and the process that write them, and their removal once that process is gone (or its id is
// another program's): a start killed midway (a deploy, an OOM kill) leaves them, and each is as
// large as the data.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { hostname } from 'node:os'
import { basename, dirname, join } from 'node:path'

/**
 * A file no process of this machine wrote (another container's, whose process ids this one does
 * not see, or another host's on a shared disk) is a killed build's only once untouched this long:
 * a running build writes to its file between steps of seconds, or minutes on a loaded machine.
 */
export const FOREIGN_BUILD_IDLE_MS = 60 * 60 * 1000

/** The file this process builds the data at `outPath` in, renamed to `outPath` once whole. */
export const buildFile = (outPath: string): string => `${outPath}.${host()}.${process.pid}.tmp`

/** This machine's name as a file name's part, dots too replaced: containers sharing one volume differ in it. */
const host = (): string => hostname().replace(/[^\w-]/g, '_') || 'host'

/**
 * Removes what builds stopped midway left beside `outPath`: their temporary files and journals,
 * by a process of this machine no longer running (or this one, or whose id another program took
 * since: writing), or, by another machine's (or an older version's, named by its process id
 * alone), untouched for FOREIGN_BUILD_IDLE_MS. A folder that is not there holds none.
 */
export function removeStaleBuilds(outPath: string): void {
  const dir = dirname(outPath)
  const name = basename(outPath)
  if (!existsSync(dir)) return
  for (const entry of readdirSync(dir)) {
    if (!entry.startsWith(`${name}.`)) continue
    const m = /^(?:([\w-]+)\.)?(\d+)\.tmp(-journal)?$/.exec(entry.slice(name.length + 1))
    if (!m) continue
    const file = join(dir, entry)
    const pid = Number(m[2])
    const stale = m[1] === host() ? pid === process.pid || !writing(pid, file) : idleSince(file) > FOREIGN_BUILD_IDLE_MS
    if (stale) rmSync(file, { force: true })
  }
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
 * Whether process `pid` of this machine may be writing `file`: running, and, where /proc tells
 * when it started, started before the file was last written. A process id taken since by
 * another program (the build killed long ago) started after that.
 */
function writing(pid: number, file: string): boolean {
  if (!running(pid)) return false
  const started = startedAt(pid)
  if (started === null) return true
  try {
    return started <= statSync(file).mtimeMs + START_SLACK_MS
  } catch {
    return true // gone meanwhile: nothing to remove
  }
}

/** Clock ticks a second in /proc's times (USER_HZ: 100 on every Linux architecture Bun runs on). */
const CLOCK_TICKS = 100
/** Room for the clocks a process's start is read from (boot time, ticks): a writer is never taken for another program. */
const START_SLACK_MS = 5_000

/** When process `pid` started, ms since the epoch (Linux: /proc/PID/stat), or null when it cannot be told. */
function startedAt(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // After the command's name, from the state (field 3) on: its start, in ticks after boot, is field 22.
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19])
    const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0])
    if (!Number.isFinite(ticks) || !Number.isFinite(uptime)) return null
    return Date.now() - (uptime - ticks / CLOCK_TICKS) * 1000
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
