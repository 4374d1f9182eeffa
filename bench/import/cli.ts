// `storeloc locations import` as an operator runs it, timed from spawn to exit; the fresh locator
// each run imports into; and the other processes' CPU over a window, to tell a disturbed run.
import { join } from 'node:path'
import { createLocator, setLocatorSettings } from '../../src/operator'
import { openStore } from '../../src/store'
import { ROOT } from '../http/options'
import { children, CLK_TCK, type Child, procTable, tree } from '../http/processes'

export type Locator = { locatorId: string; secret: string; token: string }

/** A new locator in `db` (made when absent), Query API on, its rate limit out of the way, and a secret key. */
export function freshLocator(db: string, name: string): Locator {
  const store = openStore(db)
  try {
    const { locator, secret } = createLocator(store, name)
    setLocatorSettings(store, locator.id, { queryApi: 'on', rateLimit: '1000000' })
    return { locatorId: locator.id, secret, token: store.locators.get(locator.id)!.publicToken }
  } finally {
    store.close()
  }
}

/** A locator's locations in the file, published or not. */
export function countRows(db: string, locatorId: string): number {
  const store = openStore(db)
  try {
    return store.locations.count(locatorId, null)
  } finally {
    store.close()
  }
}

/**
 * When the locator's last write was committed, on this process's performance.now() clock: the
 * change log's time of its last change (written in the transaction, just before its commit).
 */
export function commitTime(db: string, locatorId: string): number {
  const store = openStore(db)
  try {
    const at = store.changes.lastFor(locatorId, store.changes.lastSeq())!.at
    return performance.now() - (Date.now() - Date.parse(at))
  } finally {
    store.close()
  }
}

/** Rows of the geocode cache: one a distinct address looked up, answered or not. */
export function cacheRows(db: string): number {
  const store = openStore(db)
  try {
    return store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM geocode_cache').get()!.n
  } finally {
    store.close()
  }
}

/** CPU ticks of every process now, and when: the start of a window otherCpu() measures. */
export type CpuMark = { table: ReturnType<typeof procTable>; at: number }
export const cpuMark = (): CpuMark => ({ table: procTable(), at: performance.now() })

/**
 * CPU the machine's other processes used since `from`, in cores: every process but this one and
 * `ours` (pids, with their descendants). Processes that ended meanwhile are not counted.
 */
export function otherCpu(from: CpuMark, ours: number[]): number {
  const now = cpuMark()
  const mine = new Set([process.pid, ...ours.flatMap((p) => tree(p, now.table))])
  let ticks = 0
  for (const [pid, after] of now.table) {
    if (mine.has(pid)) continue
    ticks += after.ticks - (from.table.get(pid)?.ticks ?? 0)
  }
  return ticks / CLK_TCK / ((now.at - from.at) / 1000)
}

export type CliRun = {
  /** From spawn to exit: what the operator waits. */
  wallMs: number
  userS: number
  sysS: number
  maxRssMB: number
  exitCode: number
  /** The CLI's last lines of standard error (its progress, or why it failed). */
  stderrTail: string
  /** What it said it did: its output's lines "Imported ..." and "Geocoded ...". */
  said: string[]
  /** Other processes' CPU meanwhile, in cores. */
  otherCpu: number
  /** When it exited (performance.now()). */
  exitedAt: number
}

/**
 * Runs `storeloc locations import LOCATOR --file FILE` on `db` (the default GEOCODER, embedded,
 * whatever this process's environment says) from the repository's root, and waits for its exit.
 */
export async function cliImport(db: string, locatorId: string, file: string): Promise<CliRun> {
  const env: Record<string, string | undefined> = { ...process.env, DATABASE_PATH: db }
  delete env.GEOCODER
  const from = cpuMark()
  const t0 = performance.now()
  const cmd = [process.execPath, join(ROOT, 'src/cli/main.ts'), 'locations', 'import', locatorId, '--file', file]
  const proc = Bun.spawn(cmd, { cwd: ROOT, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' })
  const child: Child = { proc, group: false, fds: [] }
  children.add(child)
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  const exitCode = await proc.exited
  const exitedAt = performance.now()
  children.delete(child)
  const usage = proc.resourceUsage()
  return {
    wallMs: exitedAt - t0,
    userS: usage ? Number(usage.cpuTime.user) / 1e6 : Number.NaN,
    sysS: usage ? Number(usage.cpuTime.system) / 1e6 : Number.NaN,
    maxRssMB: usage ? usage.maxRSS / 2 ** 20 : Number.NaN,
    exitCode,
    stderrTail: err.trimEnd().split('\n').slice(-5).join('\n'),
    said: out.split('\n').filter((l) => /^(Imported|Geocoded) /.test(l)),
    otherCpu: otherCpu(from, []),
    exitedAt,
  }
}

/** A CLI run that did not import every row is a failed bench, said with the CLI's own words. */
export function checkImported(run: CliRun, db: string, locatorId: string, expected: number): void {
  const rows = countRows(db, locatorId)
  if (run.exitCode !== 0 || rows !== expected)
    throw new Error(
      `storeloc locations import exited ${run.exitCode} with ${rows} of ${expected} rows in the locator:\n${run.stderrTail}`,
    )
}
