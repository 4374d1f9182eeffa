// The processes the HTTP bench starts, all tracked so that an interrupted run stops them; their
// CPU time and page faults as /proc counts them; and the temporary folder the run works in.
import { closeSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export type Child = { proc: Bun.Subprocess; group: boolean; fds: number[] }
export const children = new Set<Child>()
let tmp = ''

/** Makes the run's temporary folder: the database, logs, scripts and bodies; cleanup() removes it. */
export function makeWorkDir(prefix = 'storeloc-http-bench-'): string {
  tmp = mkdtempSync(join(tmpdir(), prefix))
  return tmp
}

/** The file system a folder is on (tmpfs: fsync costs nothing there, and write figures flatter). */
export function fsType(dir: string): string {
  const p = Bun.spawnSync(['findmnt', '-no', 'FSTYPE', '-T', dir])
  return p.exitCode === 0 ? p.stdout.toString().trim() : 'unknown'
}

/** The run's temporary folder (makeWorkDir). */
export function workDir(): string {
  return tmp
}

/** Every process in /proc: parent, process group, CPU ticks (utime + stime) and minor page faults. */
export function procTable(): Map<number, { ppid: number; pgrp: number; ticks: number; minflt: number }> {
  const out = new Map<number, { ppid: number; pgrp: number; ticks: number; minflt: number }>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      out.set(Number(name), {
        ppid: Number(f[1]),
        pgrp: Number(f[2]),
        ticks: Number(f[11]) + Number(f[12]),
        minflt: Number(f[7]),
      })
    } catch {
      // exited meanwhile
    }
  }
  return out
}

/** pid, its descendants and its process group's members. */
export function tree(pid: number, table = procTable()): number[] {
  const found = new Set([pid])
  let grew = true
  while (grew) {
    grew = false
    for (const [p, s] of table) {
      if (!found.has(p) && (found.has(s.ppid) || s.pgrp === pid)) {
        found.add(p)
        grew = true
      }
    }
  }
  return [...found].filter((p) => table.has(p))
}

export const CLK_TCK = Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim()) || 100

/** Per-core jiffies from /proc/stat: busy (everything but idle and iowait) and total. */
export function coreTimes(): Map<string, { busy: number; total: number }> {
  const out = new Map<string, { busy: number; total: number }>()
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    const m = /^cpu(\d+) (.*)$/.exec(line)
    if (!m) continue
    const f = m[2]!.trim().split(/\s+/).map(Number)
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0)
    out.set(m[1]!, { busy: total - f[3]! - f[4]!, total })
  }
  return out
}

export function coreBusy(
  before: Map<string, { busy: number; total: number }>,
  after: Map<string, { busy: number; total: number }>,
  core: string,
): number {
  const a = before.get(core)
  const b = after.get(core)
  return a && b && b.total > a.total ? (b.busy - a.busy) / (b.total - a.total) : Number.NaN
}

function signalChild(c: Child, signal: NodeJS.Signals): void {
  const pids = c.group ? tree(c.proc.pid) : [c.proc.pid]
  if (c.group) {
    try {
      process.kill(-c.proc.pid, signal)
    } catch {
      // group gone
    }
  }
  for (const p of pids) {
    try {
      process.kill(p, signal)
    } catch {
      // gone
    }
  }
}

export async function stopChild(c: Child, graceMs = 5000): Promise<void> {
  if (!children.has(c)) return
  if (c.proc.exitCode === null && c.proc.signalCode === null) {
    signalChild(c, 'SIGTERM')
    const done = await Promise.race([c.proc.exited.then(() => true), Bun.sleep(graceMs).then(() => false)])
    if (!done) {
      signalChild(c, 'SIGKILL')
      await c.proc.exited
    }
  }
  // Workers the server started may outlive it by a moment.
  if (c.group) signalChild(c, 'SIGKILL')
  for (const fd of c.fds) closeSync(fd)
  children.delete(c)
}

let cleaned = false
export async function cleanup(): Promise<void> {
  if (cleaned) return
  cleaned = true
  await Promise.all([...children].map((c) => stopChild(c, 3000)))
  if (tmp) rmSync(tmp, { recursive: true, force: true })
}

/**
 * Runs a bench's `main`: its children stopped and its temporary folder removed at the end, and on
 * SIGINT or SIGTERM; a failure's message printed, with exit code 1.
 */
export async function runCleanly(main: () => Promise<void>, log: (msg: string) => void): Promise<void> {
  let interrupted = false
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.on(signal, () => {
      interrupted = true
      if (signal === 'SIGINT') log('interrupted: stopping servers, removing temporary files')
      void cleanup().finally(() => process.exit(code))
    })
  }
  try {
    await main()
  } catch (e) {
    if (!interrupted) console.error(e instanceof Error ? e.message : e)
    process.exitCode = 1
  } finally {
    await cleanup()
  }
}
