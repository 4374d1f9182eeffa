// A -wal file left by a crash with no -shm beside it: a reader opens a WAL database through its
// -shm, which it must make then, so a user who may read the files but not write their folder is
// refused. The message says that, and what takes the -wal in; not whose the file is.
// As root here, the commands run as nobody (setpriv), whom file modes bind.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { chmodSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { createLocator } from '../../src/operator'
import { openStore } from '../../src/store'
import { tempDir } from '../helpers'

const ROOT = join(import.meta.dir, '..', '..')
const asRoot = process.getuid?.() === 0 && Bun.which('setpriv') !== null
let dir: string
let folder: string
let database: string
beforeEach(() => {
  dir = tempDir()
  chmodSync(dir, 0o755)
  folder = join(dir, 'state')
  mkdirSync(folder, { mode: 0o755 }) // root's, open to read: the files' reader may not write it
  database = join(folder, 'storeloc.db')
  const store = openStore(database)
  createLocator(store, 'Shop')
  store.close()
  // A writer killed mid-way: its -wal stays, with a commit the file itself does not hold yet.
  const crash = Bun.spawnSync(
    [
      process.execPath,
      '-e',
      `const { Database } = require('bun:sqlite'); const d = new Database(${JSON.stringify(database)}); d.exec('PRAGMA wal_autocheckpoint=0'); d.exec("UPDATE locators SET name = 'Renamed'"); process.kill(process.pid, 'SIGKILL')`,
    ],
    { stderr: 'pipe' },
  )
  expect(crash.signalCode).toBe('SIGKILL')
  rmSync(`${database}-shm`) // gone as a tmpfs's is at a reboot, or removed by hand
  for (const file of [database, `${database}-wal`]) chmodSync(file, 0o644)
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** The CLI as nobody on the database. */
const cliAsNobody = (...argv: string[]) => {
  const p = Bun.spawnSync(
    [
      'setpriv',
      '--reuid=65534',
      '--regid=65534',
      '--clear-groups',
      process.execPath,
      join(ROOT, 'src/cli/main.ts'),
      ...argv,
    ],
    { cwd: ROOT, env: { ...process.env, DATABASE_PATH: database, GEODATA_PATH: join(dir, 'none.sqlite') } },
  )
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() }
}

test.skipIf(!asRoot)('a read by a user who may not write the folder names the -wal left without its -shm', () => {
  const said = `${database}-wal was left by a process that stopped without closing the database (a crash, a kill -9), with no -shm file beside it: reading through it needs that file made in ${folder}, which this user (uid 65534) may not write. Open the database once as a user who may write there, which makes it: start the service, or run any command as root (sudo -u root ...). Then run this command again.`
  expect(cliAsNobody('locator', 'list')).toEqual({
    code: 1,
    stdout: '',
    stderr: `storeloc: unable to open database file (database ${database}). ${said}\n`,
  })
  const doctor = cliAsNobody('doctor')
  expect(doctor.stdout).toContain(
    `PROBLEM  database ${database}: SQLite cannot open ${database} (unable to open database file).\n         fix: ${said}\n`,
  )
  // As said: a command as the folder's owner, and the read then works, the crashed writer's
  // commit in it.
  const owner = Bun.spawnSync([process.execPath, join(ROOT, 'src/cli/main.ts'), 'doctor'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_PATH: database, GEODATA_PATH: join(dir, 'none.sqlite') },
  })
  expect(owner.stdout.toString()).toContain(`ok       database ${database}`)
  const list = cliAsNobody('locator', 'list')
  expect({ code: list.code, stderr: list.stderr }).toEqual({ code: 0, stderr: '' })
  expect(list.stdout).toContain('Renamed')
})

test.skipIf(!asRoot)('files this user may not read are named as such, though the -wal has no -shm', () => {
  for (const file of [database, `${database}-wal`]) chmodSync(file, 0o600)
  expect(cliAsNobody('locator', 'list').stderr).toBe(
    `storeloc: unable to open database file (database ${database}). ${database} belongs to root (uid 0), mode 0600, and this command runs as uid 65534: run it as root, the service's user (sudo -u root ...).\n`,
  )
})
