// A backup killed midway (kill -9, a reboot) leaves its partial copy beside FILE, as big as the
// database: a later backup into that folder removes those of a process that is gone, and says so.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { readdirSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner, tempDir } from '../helpers'

let dir: string
let dbPath: string
beforeEach(() => {
  dir = tempDir()
  dbPath = join(dir, 'live.db')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const root = join(import.meta.dir, '..', '..')
const { storeloc, json } = cliRunner(() => dbPath)
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

/** An id no process has now: a process that ran and ended. */
const goneId = () => Bun.spawnSync(['true']).pid

test("what killed backups left goes once unchanged for minutes, or at once when its id is a later process's", async () => {
  json('locator', 'create', '--name', 'Partials')
  const [gone, recent] = [goneId(), goneId()]
  const sleeper = Bun.spawn(['sleep', '60']) // its id, started after the partials were written
  try {
    await Bun.sleep(50)
    const stale = leave(
      [
        `2026-12-01-0310.db.partial-${gone}`,
        `2026-12-01-0310.db.partial-${gone}-journal`,
        `2026-12-02-0310.db.partial-${gone}-Ab12Cd`,
      ],
      11 * 60,
    )
    const reused = leave([`2026-12-03-0310.db.partial-${sleeper.pid}-Qw34Er`], 60)
    const fresh = leave([`2026-12-04-0310.db.partial-${recent}-Zx56Cv`], 60) // another container's, maybe
    const running = leave([`2026-12-05-0310.db.partial-${process.pid}-Ty78Ui`], 0) // its process runs
    const named = leave(['notes.partial-x'], 3600) // no process id
    const r = storeloc('backup', join(dir, '2026-12-06-0310.db'))
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
    expect(r.stdout).toEndWith(
      `\nRemoved what killed backups left beside it: ${[...stale, ...reused].sort().join(', ')}.\n`,
    )
    expect(partials()).toEqual([...fresh, ...running, ...named].sort())
    expect(json('backup', join(dir, '2026-12-07-0310.db')).removed_partials).toEqual([])
  } finally {
    sleeper.kill()
    await sleeper.exited
  }
})

test('--json names each removed copy by its whole path, where a script finds it', () => {
  json('locator', 'create', '--name', 'Partials')
  const stale = leave([`a.db.partial-${goneId()}-Ab12Cd`, `a.db.partial-${goneId()}`], 11 * 60)
  const r = json('backup', join(dir, 'b.db'))
  const whole = stale.map((name) => join(realpathSync(dir), name)).sort()
  expect(r.removed_partials).toEqual(whole)
  expect(partials()).toEqual([])
})

test('a backup never removes the database it copies, though named as a partial', () => {
  dbPath = join(dir, `live.db.partial-${goneId()}`)
  json('locator', 'create', '--name', 'Named so')
  const then = Date.now() / 1000 - 3600
  utimesSync(dbPath, then, then)
  const r = json('backup', join(dir, 'copy.db'))
  expect(r.removed_partials).toEqual([])
  expect(json('locator', 'list').map((l: { name: string }) => l.name)).toEqual(['Named so'])
})

test('a backup never removes its FILE, though named as a partial: an existing one is refused', () => {
  json('locator', 'create', '--name', 'Kept')
  const [file] = leave([`old.db.partial-${goneId()}`], 3600)
  const r = storeloc('backup', join(dir, file!))
  expect({ code: r.code, stderr: r.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${join(dir, file!)} exists: name a new file, or give --force to replace it.\n`,
  })
  expect(readFileSync(join(dir, file!), 'utf8')).toBe('partial')
  expect(json('backup', join(dir, file!), '--force').removed_partials).toEqual([])
})

// `docker run --rm IMAGE backup FILE`: each run's command is process 1 of its PID namespace.
const unshare = ['unshare', '--pid', '--fork', '--mount-proc']
test.skipIf(Bun.spawnSync([...unshare, 'true']).exitCode !== 0)(
  "a backup that is process 1 leaves the fresh partial copy of another backup that is process 1, as in a container's runs",
  () => {
    json('locator', 'create', '--name', 'Kept')
    const file = join(dir, 'nightly.db')
    const backupAs1 = () => {
      const p = Bun.spawnSync(
        [...unshare, process.execPath, join(root, 'src/cli/main.ts'), 'backup', file, '--force'],
        {
          cwd: root,
          env: { ...process.env, DATABASE_PATH: dbPath },
        },
      )
      expect({ code: p.exitCode, stderr: p.stderr.toString() }).toEqual({ code: 0, stderr: '' })
    }
    // Another container's backup into the same FILE, running: its copy is its own.
    const theirs = leave(['nightly.db.partial-1'], 0)
    backupAs1()
    expect(partials()).toEqual(theirs)
    expect(readFileSync(join(dir, theirs[0]!), 'utf8')).toBe('partial')
  },
)
