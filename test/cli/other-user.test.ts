// The CLI run by a user who is not the database's owner: an operator who typed a command as
// themselves, not as the service's user, whose files are for their owner only (mode 0600). The
// command says whose the file is and how to run it as them, not SQLite's bare "unable to open".
// As root here, the commands run as nobody (setpriv), whom file modes bind.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { chmodSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { createLocator } from '../../src/operator'
import { openStore } from '../../src/store'
import { tempDir } from '../helpers'

const ROOT = join(import.meta.dir, '..', '..')
const asRoot = process.getuid?.() === 0 && Bun.which('setpriv') !== null
let dir: string
let path: string
let locator: string
beforeEach(() => {
  dir = tempDir()
  chmodSync(dir, 0o755) // the folder open to all, as /var/lib/storeloc is not: the file's own mode decides
  path = join(dir, 'storeloc.db')
  const store = openStore(path) // mode 0600, root's
  locator = createLocator(store, 'Shop').locator.id
  store.close()
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const asNobody = (...argv: string[]) => {
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
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_PATH: path, GEOCODER: 'none', BUN_RUNTIME_TRANSPILER_CACHE_PATH: '0' },
    },
  )
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() }
}

test.skipIf(!asRoot)('a command on a database it may not open names its owner and the user to run it as', () => {
  for (const argv of [
    ['key', 'create', locator],
    ['locator', 'list'],
  ]) {
    const r = asNobody(...argv)
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `storeloc: unable to open database file (database ${path}). ${path} belongs to root (uid 0), mode 0600, and this command runs as uid 65534: run it as root, the service's user (sudo -u root ...).\n`,
    })
  }
  const doctor = asNobody('doctor', '--json')
  expect(doctor.code).toBe(1)
  const storage = JSON.parse(doctor.stdout).checks.find((c: { check: string }) => c.check === 'storage')
  expect(storage.problems[0].fix).toStartWith(`${path} belongs to root (uid 0), mode 0600`)
})
