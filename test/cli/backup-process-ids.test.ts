// A killed backup's copy is named by its process's id and start: a later backup tells the process
// that writes it from another of that id (a host's process 1 and a container's), and an id no
// process can have, or one of another user, from an id that runs.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import {
  chmodSync,
  chownSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { cliRunner, tempDir } from '../helpers'
import { asRoot, asUser, bunOn, run, runAsUser } from './as-user'

let dir: string
let dbPath: string
beforeEach(() => {
  dir = tempDir()
  dbPath = join(dir, 'live.db')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const { json } = cliRunner(() => dbPath)
const partials = () =>
  readdirSync(dir)
    .filter((f) => f.includes('.partial'))
    .sort()

/** Writes each file in `dir`, last changed `secondsAgo`. */
function leave(names: string[], secondsAgo: number): string[] {
  const then = Date.now() / 1000 - secondsAgo
  for (const name of names) {
    writeFileSync(join(dir, name), 'partial')
    utimesSync(join(dir, name), then, then)
  }
  return names
}

/** `name` in the test's folder, whole, as --json names a removed copy. */
const whole = (name: string) => join(realpathSync(dir), name)

/** When process `pid` started, in clock ticks since the boot: field 22 of /proc/PID/stat. */
const startOf = (pid: number | 'self') => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19])
}

/**
 * `storeloc ARGV` run as if `minutes` later (clock-ahead.ts): a process the test starts just before
 * reads as started that long ago, before the copies it leaves last changed, as on a host a while up.
 */
function later(minutes: number, ...argv: string[]) {
  const root = join(import.meta.dir, '..', '..')
  const p = Bun.spawnSync(
    [process.execPath, '--preload', join(import.meta.dir, 'clock-ahead.ts'), join(root, 'src/cli/main.ts'), ...argv],
    { cwd: root, env: { ...process.env, DATABASE_PATH: dbPath, CLOCK_AHEAD_MS: String(minutes * 60_000) } },
  )
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() }
}

/** Runs `body` with a process of this machine that runs all along (a host's process 1, say). */
async function withRunning(body: (pid: number) => void): Promise<void> {
  const sleeper = Bun.spawn(['sleep', '60'])
  try {
    await Bun.sleep(50)
    body(sleeper.pid)
  } finally {
    sleeper.kill()
    await sleeper.exited
  }
}

test("a container's copy, named by the id of a process running here and a start not its, goes once unchanged for minutes", async () => {
  json('locator', 'create', '--name', 'Kept')
  await withRunning((pid) => {
    // Changed since that process started, 11 minutes before the backup reads its clock.
    const other = startOf(pid) + 4242
    const stale = leave(
      [`nightly.db.partial-${pid}-${other}-Ab12Cd`, `nightly.db.partial-${pid}-${other}-Ab12Cd-journal`],
      0,
    )
    // Another container's backup, running maybe: changed a minute before the backup's clock.
    const fresh = leave([`nightly.db.partial-${pid}-${other + 1}-Qw34Er`], -10 * 60)
    const r = later(11, 'backup', join(dir, 'copy.db'))
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
    expect(r.stdout).toEndWith(`\nRemoved what killed backups left beside it: ${stale.join(', ')}.\n`)
    expect(partials()).toEqual(fresh)
  })
})

test('a copy named without a start, by the id of a process running here: kept, and the output says what and why', async () => {
  json('locator', 'create', '--name', 'Kept')
  await withRunning((pid) => {
    // Changed since that process started, 11 minutes before the backups read their clock.
    const old = leave([`nightly.db.partial-${pid}-Ab12Cd`, `nightly.db.partial-${pid}-Ab12Cd-journal`], 0)
    const r = later(11, 'backup', join(dir, 'copy.db'))
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
    expect(r.stdout).toEndWith(
      `\nKept what backups may be writing beside it, though unchanged for over 10 minutes: ${old.join(', ')}. A process of the id in each name runs here, and this run cannot tell whether it writes it: the name gives no start (an older version's), or /proc does not show that process's start to this user. Remove them by hand once no backup runs.\n`,
    )
    const again = later(11, 'backup', join(dir, 'again.db'), '--json')
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: '' })
    expect(JSON.parse(again.stdout)).toMatchObject({ removed_partials: [], left_partials: old.map(whole) })
    expect(partials()).toEqual(old)
  })
})

test('a copy whose writer runs, named by its id and start, stays however long unchanged (a backup stopped a while)', async () => {
  json('locator', 'create', '--name', 'Kept')
  const writer = Bun.spawn(['sleep', '60'])
  try {
    await Bun.sleep(50)
    const start = startOf(writer.pid)
    const its = leave([`nightly.db.partial-${writer.pid}-${start}-Ab12Cd`], 3600)
    const others = leave([`nightly.db.partial-${writer.pid}-${start + 1}-Qw34Er`], 3600)
    const r = json('backup', join(dir, 'copy.db'))
    expect(r.removed_partials).toEqual(others.map(whole))
    expect(partials()).toEqual(its)
  } finally {
    writer.kill()
    await writer.exited
  }
})

test("a copy named by a killed backup's id and start, its process not yet reaped (a zombie), goes", async () => {
  json('locator', 'create', '--name', 'Kept')
  // sh starts a child, then becomes a sleep that never reaps it: the child, ended, stays a zombie.
  const parent = Bun.spawn(['sh', '-c', `sleep 0.2 & echo $! > ${join(dir, 'zombie')}; exec sleep 60`])
  try {
    await Bun.sleep(700)
    const zombie = Number(readFileSync(join(dir, 'zombie'), 'utf8'))
    expect(readFileSync(`/proc/${zombie}/stat`, 'utf8')).toMatch(/\) Z /)
    const its = leave([`nightly.db.partial-${zombie}-${startOf(zombie)}-Ab12Cd`], 11 * 60)
    const r = json('backup', join(dir, 'copy.db'))
    expect(r.removed_partials).toEqual(its.map(whole))
    expect(partials()).toEqual([])
  } finally {
    parent.kill()
    await parent.exited
  }
})

test('a copy named by id 0, or an id past any process, goes once unchanged for minutes', () => {
  json('locator', 'create', '--name', 'Kept')
  const stale = leave(['a.db.partial-0-Ab12Cd', 'b.db.partial-2147483648', 'c.db.partial-99999999999-Qw34Er'], 11 * 60)
  const fresh = leave(['d.db.partial-4294967296-Zx56Cv'], 60)
  const r = json('backup', join(dir, 'copy.db'))
  expect(r.removed_partials).toEqual(stale.map(whole).sort())
  expect(partials()).toEqual(fresh)
})

// Run as nobody, the backup may not signal root's process (EPERM): that process runs all the same.
test.skipIf(!asRoot)(
  "a copy named by another user's running process and its start stays; by another start, goes",
  async () => {
    chmodSync(dir, 0o1777)
    expect(runAsUser(65534, dbPath, 'cli/main.ts', ['locator', 'create', '--name', 'Kept']).code).toBe(0)
    const writer = Bun.spawn(['sleep', '60']) // root's
    try {
      await Bun.sleep(50)
      const start = startOf(writer.pid)
      const its = leave([`nightly.db.partial-${writer.pid}-${start}-Ab12Cd`], 3600)
      const others = leave([`nightly.db.partial-${writer.pid}-${start + 1}-Qw34Er`], 3600)
      for (const name of [...its, ...others]) chownSync(join(dir, name), 65534, 65534)
      const r = runAsUser(65534, dbPath, 'cli/main.ts', ['backup', join(dir, 'copy.db'), '--json'])
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
      expect(JSON.parse(r.stdout).removed_partials).toEqual(others.map(whole))
      expect(partials()).toEqual(its)
    } finally {
      writer.kill()
      await writer.exited
    }
  },
)

// hidepid=2, as on a hardened host: /proc shows a user only its own processes; kill(2) still
// finds another's (EPERM), whose start then stays unknown.
const hidden = ['unshare', '--mount', 'sh', '-c', 'mount -t proc -o hidepid=2 proc /proc && exec "$@"', 'sh']
test.skipIf(!asRoot || Bun.spawnSync([...hidden, 'true']).exitCode !== 0)(
  "a copy named by another user's running process whose start /proc hides: kept, and the output says why",
  async () => {
    chmodSync(dir, 0o1777)
    expect(runAsUser(65534, dbPath, 'cli/main.ts', ['locator', 'create', '--name', 'Kept']).code).toBe(0)
    const writer = Bun.spawn(['sleep', '60']) // root's
    try {
      await Bun.sleep(50)
      const its = leave([`nightly.db.partial-${writer.pid}-${startOf(writer.pid)}-Ab12Cd`], 3600)
      chownSync(join(dir, its[0]!), 65534, 65534)
      const r = run([...hidden, ...asUser(65534), ...bunOn('cli/main.ts'), 'backup', join(dir, 'copy.db')], dbPath)
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
      expect(r.stdout).toEndWith(
        `\nKept what backups may be writing beside it, though unchanged for over 10 minutes: ${its[0]}. A process of the id in each name runs here, and this run cannot tell whether it writes it: the name gives no start (an older version's), or /proc does not show that process's start to this user. Remove it by hand once no backup runs.\n`,
      )
      expect(partials()).toEqual(its)
    } finally {
      writer.kill()
      await writer.exited
    }
  },
)
