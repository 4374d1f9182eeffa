// This machine's processes as /proc and kill(2) tell them: whether one runs, and when it started,
// so a file named by a process id is told from one a later process of the same id writes.
import { readFileSync } from 'node:fs'

/** The largest process id kill(2) takes (pid_t); Linux gives out at most 2^22. */
const MAX_PID = 2 ** 31 - 1

/**
 * Whether a process of that id runs on this machine (another user's too). Not for 0 (kill(0)
 * signals this process's group) nor an id past MAX_PID, which no process has; any refusal but
 * EPERM (there, not ours) says none runs, so a copy named by it is not kept for ever. Nor one
 * ended that its parent has not reaped (a zombie), which kill(2) still finds.
 */
export function running(pid: number): boolean {
  if (!Number.isInteger(pid) || pid < 1 || pid > MAX_PID) return false
  try {
    process.kill(pid, 0)
  } catch (e) {
    if ((e as { code?: unknown }).code !== 'EPERM') return false
  }
  return !ended(pid)
}

/** Whether /proc says process `pid` has ended (its state Z or X, field 3 of /proc/PID/stat). */
function ended(pid: number): boolean {
  return /^[ZX]/.test(statFields(pid)?.[0] ?? '')
}

/**
 * The fields of /proc/PID/stat after the command's name, which may hold spaces and parentheses:
 * from the state (field 3) on. Null when it cannot be read.
 */
function statFields(pid: number | 'self'): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return null
  }
}

/**
 * When process `pid` started, in clock ticks since the boot (Linux: field 22 of /proc/PID/stat),
 * as written, or null when it cannot be told. Compared only with another such start: /proc/uptime,
 * under lxcfs a container's, need not count from the boot these do.
 */
export function startTicks(pid: number | 'self'): string | null {
  const ticks = statFields(pid)?.[19]
  return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : null
}

/**
 * This process as the names of the files it writes tell it: `PID-START`, its id and startTicks,
 * or `PID` where its start cannot be read. Another process of that id (a later one, or one of
 * another PID namespace, such as a container's) has another start. `byId`: the start read where
 * another process of this one's PID namespace reads it, /proc/PID, not /proc/self; they differ
 * only where /proc is another PID namespace's.
 */
export function processTag({ byId = false } = {}): string {
  const start = startTicks(byId ? process.pid : 'self')
  return start === null ? `${process.pid}` : `${process.pid}-${start}`
}
