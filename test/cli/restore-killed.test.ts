// A restore killed midway (kill -9) leaves its copies beside the database, each as big as the
// backup: a later restore removes those of a process that no longer runs, and says so.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { cliRunner, tempDir } from '../helpers'

let dir: string
let dbPath: string
let copies: string
beforeEach(() => {
  dir = tempDir()
  dbPath = join(dir, 'live', 'live.db')
  copies = join(dir, 'copies')
  mkdirSync(copies)
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const root = join(import.meta.dir, '..', '..')
const { storeloc, json } = cliRunner(() => dbPath)
const names = () => json('locator', 'list').map((l: { name: string }) => l.name)
/** What restores made beside the database. */
const left = () =>
  readdirSync(join(dir, 'live'))
    .filter((f) => f.includes('.restoring-'))
    .sort()

/** `names` beside the database, whole: as --json names them. */
const inLive = (names: string[]) => names.map((name) => join(realpathSync(dir), 'live', name))

/** Sets the last change of `names` beside the database, and of what their folders hold, to `secondsAgo`. */
function age(names: string[], secondsAgo: number): void {
  const then = Date.now() / 1000 - secondsAgo
  for (const name of names) {
    const path = join(dir, 'live', name)
    if (statSync(path).isDirectory()) for (const f of readdirSync(path)) utimesSync(join(path, f), then, then)
    utimesSync(path, then, then)
  }
}

/**
 * A WAL copy of the database with 48 MB in its -wal, as `cp` of both takes it: a restore reads it
 * from a copy of both in a folder beside the database, then writes its own copy there.
 */
function bigWalCopy(copy: string): void {
  const writer = new Database(dbPath)
  writer.exec('PRAGMA wal_autocheckpoint = 0')
  writer.exec('CREATE TABLE ballast (b BLOB)')
  const add = writer.prepare('INSERT INTO ballast VALUES (randomblob(65536))')
  writer.transaction(() => {
    for (let i = 0; i < 768; i++) add.run()
  })()
  copyFileSync(dbPath, copy)
  copyFileSync(`${dbPath}-wal`, `${copy}-wal`)
  add.finalize()
  writer.close()
}

test('what a killed restore left goes at a restore once unchanged for minutes; a running one keeps its own', async () => {
  json('locator', 'create', '--name', 'Kept')
  const small = join(copies, 'small.db')
  json('backup', small)
  const big = join(copies, 'big.db')
  bigWalCopy(big)

  const killed = Bun.spawn([process.execPath, join(root, 'src/cli/main.ts'), 'restore', big], {
    cwd: root,
    env: { ...process.env, DATABASE_PATH: dbPath },
    stdout: 'ignore',
    stderr: 'pipe',
  })
  // Killed while it writes its copy, with the copy of the WAL file it reads from beside it.
  while (left().length < 2) {
    if (killed.exitCode !== null)
      throw new Error(
        `the restore ended (${killed.exitCode}) before it was killed: ${await new Response(killed.stderr).text()}`,
      )
    await Bun.sleep(2)
  }
  // Its start, as its copies' names give it: field 22 of /proc/PID/stat.
  const stat = readFileSync(`/proc/${killed.pid}/stat`, 'utf8')
  const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  killed.kill('SIGKILL')
  await killed.exited
  const pid = killed.pid
  const dead = left()
  // The folder it read from, its copy, and the rollback journal VACUUM INTO may keep beside that.
  const folder = dead.find((f) => statSync(join(dir, 'live', f)).isDirectory())
  expect(folder).toMatch(new RegExp(`^live\\.db\\.restoring-${pid}-${start}-[A-Za-z0-9]{6}$`))
  expect(readdirSync(join(dir, 'live', folder!))).toContain('copy.db')
  const copy = dead.find((f) => f !== folder && !f.endsWith('-journal'))!
  expect(copy).toMatch(new RegExp(`^live\\.db\\.restoring-${pid}-${start}-[A-Za-z0-9]{6}$`))
  expect(dead.filter((f) => f !== folder)).toEqual([copy, `${copy}-journal`].slice(0, dead.length - 1))

  // A restore whose process still runs keeps its own.
  const sleeper = Bun.spawn(['sleep', '60'])
  try {
    const running = [`live.db.restoring-${sleeper.pid}`, `live.db.restoring-${sleeper.pid}-Ab12Cd`]
    writeFileSync(join(dir, 'live', running[0]!), 'copy')
    mkdirSync(join(dir, 'live', running[1]!))
    writeFileSync(join(dir, 'live', running[1]!, 'copy.db'), 'copy')

    // Its process id runs nowhere here, but may in another container on the same volume.
    const fresh = storeloc('restore', small)
    expect({ code: fresh.code, stderr: fresh.stderr }).toEqual({ code: 0, stderr: '' })
    expect(fresh.stdout).not.toContain('Removed')
    expect(left()).toEqual([...dead, ...running].sort())

    age(dead, 11 * 60)
    const r = storeloc('restore', small)
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
    expect(r.stdout).toEndWith(`\nRemoved what killed restores left beside it: ${dead.join(', ')}.\n`)
    expect(left()).toEqual(running.sort())
    expect(names()).toEqual(['Kept'])

    const again = JSON.parse(storeloc('restore', small, '--json').stdout)
    expect(again.removed_partials).toEqual([])
    expect(left()).toEqual(running.sort())
  } finally {
    sleeper.kill()
    await sleeper.exited
  }
  expect(existsSync(big)).toBe(true)
}, 60_000)

/** What a restore killed as process `pid` left beside the database, last changed `secondsAgo`. */
function leftBy(pid: number, secondsAgo: number): string[] {
  const live = join(dir, 'live')
  const names = [`live.db.restoring-${pid}`, `live.db.restoring-${pid}-journal`, `live.db.restoring-${pid}-Xy12Zw`]
  writeFileSync(join(live, names[0]!), 'copy')
  writeFileSync(join(live, names[1]!), 'journal')
  mkdirSync(join(live, names[2]!))
  writeFileSync(join(live, names[2]!, 'copy.db'), 'copy')
  age(names, secondsAgo)
  return names.sort()
}

test('what a killed restore left goes though its process id runs again, in a process started since', async () => {
  json('locator', 'create', '--name', 'Kept')
  const small = join(copies, 'small.db')
  json('backup', small)
  const sleeper = Bun.spawn(['sleep', '60']) // the id after a reboot, of another program
  try {
    const dead = leftBy(sleeper.pid, 60)
    const r = JSON.parse(storeloc('restore', small, '--json').stdout)
    expect(r.removed_partials).toEqual(inLive(dead))
    expect(left()).toEqual([])
  } finally {
    sleeper.kill()
    await sleeper.exited
  }
})

// `docker run --rm IMAGE restore FILE`: each run's command is process 1 of its PID namespace.
const unshare = ['unshare', '--pid', '--fork', '--mount-proc']
test.skipIf(Bun.spawnSync([...unshare, 'true']).exitCode !== 0)(
  "what a restore killed as process 1 left goes at a restore that is process 1 once unchanged for minutes, as in a container's runs",
  () => {
    json('locator', 'create', '--name', 'Kept')
    const small = join(copies, 'small.db')
    json('backup', small)
    const restoreAs1 = () => {
      const p = Bun.spawnSync(
        [...unshare, process.execPath, join(root, 'src/cli/main.ts'), 'restore', small, '--json'],
        { cwd: root, env: { ...process.env, DATABASE_PATH: dbPath } },
      )
      expect({ code: p.exitCode, stderr: p.stderr.toString() }).toEqual({ code: 0, stderr: '' })
      return JSON.parse(p.stdout.toString()).removed_partials
    }
    // Fresh, they may be those of a restore running as process 1 in another container: they
    // stay, its copy too, which this one's, named apart, does not replace.
    const rest = leftBy(1, 60)
    expect(restoreAs1()).toEqual([])
    expect(left()).toEqual(rest)
    expect(readFileSync(join(dir, 'live', 'live.db.restoring-1'), 'utf8')).toBe('copy')

    age(rest, 11 * 60)
    expect(restoreAs1()).toEqual(inLive(rest))
    expect(left()).toEqual([])
  },
)

test('a restore from what a killed restore left keeps it, and removes the rest', () => {
  json('locator', 'create', '--name', 'Kept')
  const live = join(dir, 'live')
  const [gone, gone2] = [Bun.spawnSync(['true']).pid, Bun.spawnSync(['true']).pid] // ids no process has now
  // A restore killed once its copy was written; the operator restores from that copy.
  const copy = `live.db.restoring-${gone}`
  const journal = `live.db.restoring-${gone}-journal`
  const within = `live.db.restoring-${gone2}-Qw34Er`
  const leave = (): void => {
    if (!existsSync(join(live, copy))) json('backup', join(live, copy))
    writeFileSync(join(live, journal), '')
    mkdirSync(join(live, within), { recursive: true })
    if (!existsSync(join(live, within, 'copy.db'))) json('backup', join(live, within, 'copy.db'))
    age([copy, journal, within], 3600)
    json('locator', 'create', '--name', 'Later')
  }

  leave()
  const r = storeloc('restore', join(live, copy), '--json')
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  expect(JSON.parse(r.stdout).removed_partials).toEqual(inLive([within]))
  expect(names()).toEqual(['Kept'])
  expect(left()).toEqual([copy, journal].sort())

  leave()
  const inFolder = storeloc('restore', join(live, within, 'copy.db'))
  expect({ code: inFolder.code, stderr: inFolder.stderr }).toEqual({ code: 0, stderr: '' })
  expect(inFolder.stdout).toEndWith(
    `\nRemoved what killed restores left beside it: ${[copy, journal].sort().join(', ')}.\n`,
  )
  expect(names()).toEqual(['Kept'])
  expect(left()).toEqual([within])
})
