// A -wal file left by a crash with no -shm beside it: a reader opens a WAL database through its
// -shm, which it must make then, so a user who may read the files but not write their folder is
// refused. The message says that, and what takes the -wal in; not whose the file is.
// As root here, the commands run as nobody (setpriv), whom file modes bind.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { chmodSync, chownSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { createLocator } from '../../src/operator'
import { openStore } from '../../src/store'
import { tempDir } from '../helpers'
import { AGAIN, asRoot, ROOT, runAsUser, withSudo } from './as-user'

let dir: string
let folder: string
let database: string
let locatorId: string
beforeEach(() => {
  dir = tempDir()
  chmodSync(dir, 0o755)
  folder = join(dir, 'state')
  mkdirSync(folder, { mode: 0o755 }) // root's, open to read: the files' reader may not write it
  database = join(folder, 'storeloc.db')
  const store = openStore(database)
  locatorId = createLocator(store, 'Shop').locator.id
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

/** The CLI as nobody on the database, with sudo installed. */
const cliAsNobody = (...argv: string[]) =>
  runAsUser(65534, database, 'cli/main.ts', argv, { PATH: withSudo(dir), GEODATA_PATH: join(dir, 'none.sqlite') })

test.skipIf(!asRoot)('a read by a user who may not write the folder names the -wal left without its -shm', () => {
  const said = (command: string) =>
    `${database}-wal was left by a process that stopped without closing the database (a crash, a kill -9), with no -shm file beside it: reading through it needs that file made in ${folder}, which this user (uid 65534) may not write. Open the database once as a user who may write there, which makes it: start the service, or run any command as root (sudo -u root ${AGAIN} ${command} --database ${database}). Then run this command again.`
  expect(cliAsNobody('locator', 'list')).toEqual({
    code: 1,
    stdout: '',
    stderr: `storeloc: unable to open database file (database ${database}). ${said('locator list')}\n`,
  })
  const doctor = cliAsNobody('doctor')
  expect(doctor.stdout).toContain(
    `PROBLEM  database ${database}: SQLite cannot open ${database} (unable to open database file).\n         fix: ${said('doctor')}\n`,
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
    `storeloc: unable to open database file (database ${database}). ${database} belongs to root (uid 0), mode 0600, and this command runs as uid 65534: run it as root, the service's user (sudo -u root ${AGAIN} locator list --database ${database}).\n`,
  )
})

test.skipIf(!asRoot)("a folder of this user's own that it may not write: it is told to give itself leave", () => {
  chownSync(folder, 65534, 65534)
  chmodSync(folder, 0o555)
  expect(cliAsNobody('locator', 'list').stderr).toBe(
    `storeloc: unable to open database file (database ${database}). ${database}-wal was left by a process that stopped without closing the database (a crash, a kill -9), with no -shm file beside it: reading through it needs that file made in ${folder}, which this user (uid 65534) may not write. The folder is this user's own, mode 0555: let it write there (chmod u+w ${folder}), then run this command again.\n`,
  )
})

test.skipIf(!asRoot)('a folder on a read-only file system: no user may write it, so none is named to run as', () => {
  // A copy of the crashed files on a tmpfs remounted read-only, in a mount namespace of its own.
  const mount = join(dir, 'ro')
  const copy = join(mount, 'storeloc.db')
  const script = [
    `mkdir -p '${mount}'`,
    `mount -t tmpfs -o size=2m tmpfs '${mount}'`,
    `cp '${database}' '${database}-wal' '${mount}'`,
    `mount -o remount,ro '${mount}'`,
    `exec '${process.execPath}' '${join(ROOT, 'src/cli/main.ts')}' locator list`,
  ].join(' && ')
  const p = Bun.spawnSync(['unshare', '-rm', 'sh', '-c', script], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_PATH: copy, GEODATA_PATH: join(dir, 'none.sqlite') },
  })
  expect(p.stderr.toString()).toBe(
    `storeloc: unable to open database file (database ${copy}). ${copy}-wal was left by a process that stopped without closing the database (a crash, a kill -9), with no -shm file beside it: reading through it needs that file made in ${mount}, which this user (uid 0) may not write. The folder is on a read-only file system: mount it read-write and open the database once there (start the service, or run any command), or copy the database with its -wal to a folder this user may write and use the copy.\n`,
  )
})

test.skipIf(!asRoot)("a command that writes files of root's is told whose they are, not only of the -wal", () => {
  // After a run as root made the -shm, a write as nobody would still be refused: the files are root's.
  expect(cliAsNobody('locator', 'set', locatorId, '--name', 'Other').stderr).toBe(
    `storeloc: unable to open database file (database ${database}). ${database} belongs to root (uid 0), mode 0644, and this command runs as uid 65534: run it as root, the service's user (sudo -u root ${AGAIN} locator set ${locatorId} --name Other --database ${database}).\n`,
  )
})
