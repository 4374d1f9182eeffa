// Where another process waits, read from Linux's /proc: what a test waits for in place of a delay
// that a loaded machine outlasts.
import { readdirSync, readFileSync } from 'node:fs'

/** The system call process `pid`'s main thread is in (or was in when it was stopped); NaN when running. */
const callOf = (pid: number) => Number(readFileSync(`/proc/${pid}/syscall`, 'utf8').split(' ')[0])

/** (clock_)nanosleep's numbers, where SQLite's busy handler sleeps between its tries for a lock. */
const SLEEPS = process.arch === 'arm64' ? [101, 115] : [35, 230]

/** Whether process `pid`'s main thread is asleep in a system call that SQLite's busy handler makes. */
export const waitingForLock = (pid: number): boolean => SLEEPS.includes(callOf(pid))

/** epoll_wait's, epoll_pwait's and epoll_pwait2's numbers. */
const EPOLL_WAITS = process.arch === 'arm64' ? [22, 441] : [232, 281, 441]

/** Whether process `pid`'s main thread is asleep waiting for its event loop's next event. */
export const waitingForEvents = (pid: number): boolean => EPOLL_WAITS.includes(callOf(pid))

/** Whether signal `n` is pending for process `pid` (SigPnd or ShdPnd in /proc/pid/status). */
export function signalPending(pid: number, n: number): boolean {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return [...status.matchAll(/^(?:SigPnd|ShdPnd):\s*([0-9a-f]+)$/gm)].some(
    ([, mask]) => (BigInt(`0x${mask}`) >> BigInt(n - 1)) % 2n === 1n,
  )
}

/**
 * Process `pid`'s command line, its arguments joined by spaces. Bun.spawn returns before the child's
 * exec: until then this is the parent's.
 */
export const commandLineOf = (pid: number): string => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')

/**
 * How long waitFor (and workers-procs' until) waits while the process writes nothing and does no work (it and the processes
 * under it): a start that a loaded machine slows, silent for longer (the launcher's Node, then Bun,
 * then its workers), is not cut short; one stalled, or a server idle without the line, fails with
 * what it wrote; one that ends without the line fails at once.
 */
export const QUIET_MS = 15_000

/**
 * The CPU time (clock ticks of 10 ms) that counts as work in a quiet time: 2 % of it. An idle
 * server's timers use under 0.5 % (with 2 workers, or the geocoder loaded); a start slowed by a
 * loaded machine gets its share of a core, 25 to 40 % with two CPU burners on 2 cores.
 */
export const workingTicks = (quietMs: number) => (quietMs * 0.02) / 10

/**
 * CPU time (clock ticks, 100 a second) process `pid` and every process under it have used, those
 * ended and waited for included; 0 once it is gone. A start that a loaded machine slows still uses
 * its share of a core.
 */
export function treeCpuTicks(pid: number): number {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return 0 // gone, or no /proc
  }
  // After the name: state is the 1st field, utime, stime, cutime and cstime the 12th to 15th.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  let ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])
  let tasks: string[] = []
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {}
  for (const task of tasks) {
    let children: string[] = []
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ')
    } catch {} // a thread that ended meanwhile: the others' children still count
    for (const child of children) if (child !== '') ticks += treeCpuTicks(Number(child))
  }
  return ticks
}
