// A path spelt with `..` after a link (dir/lnk/../storeloc.db): the system reads the `..` from
// the link's target, as SQLite does, not from the link's folder. A file at the path read as text
// is another file, and no command reads it or takes it for the one named.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_GEODATA_PATH } from '../../src/geocode/embedded'
import { tempDir } from '../helpers'
import { asRoot, bunOn, run, runAsUser } from './as-user'

let dir: string
/** `file` in dir/other, spelt through the link (join would drop the `..` as text). */
const spelt = (file: string) => `${join(dir, 'dir', 'lnk')}/../${file}`
beforeEach(() => {
  dir = tempDir()
  mkdirSync(join(dir, 'dir'))
  mkdirSync(join(dir, 'other', 'sub'), { recursive: true })
  symlinkSync('../other/sub', join(dir, 'dir', 'lnk'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

test('GEODATA_PATH spelt with `..` after a link names the database file: refused, nothing made', () => {
  const database = join(dir, 'other', 'storeloc.db')
  const r = run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'Shop'], database, {
    GEODATA_PATH: spelt('storeloc.db'),
  })
  expect(r.code).toBe(1)
  expect(r.stderr).toContain(`GEODATA_PATH and DATABASE_PATH name one file (${database}).`)
  expect(existsSync(database)).toBe(false)
})

test.skipIf(!asRoot)('a command that only reads, where it may not write, reads the file the system names', () => {
  chmodSync(dir, 0o755) // root's folders: nobody reads there, and may not write
  for (const [folder, name] of [
    ['other', 'Right'],
    ['dir', 'Wrong'],
  ]) {
    const database = join(dir, folder!, 'storeloc.db')
    expect(run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', name!], database).code).toBe(0)
    chownSync(database, 65534, 65534)
  }
  const r = runAsUser(65534, spelt('storeloc.db'), 'cli/main.ts', ['locator', 'list', '--json'])
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  expect(JSON.parse(r.stdout).map((l: { name: string }) => l.name)).toEqual(['Right'])
})

test('--database spelt with `..` after a link opens the file the system names, as DATABASE_PATH does', () => {
  for (const [folder, name] of [
    ['other', 'Right'],
    ['dir', 'Wrong'],
  ]) {
    const database = join(dir, folder!, 'storeloc.db')
    expect(run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', name!], database).code).toBe(0)
  }
  for (const argv of [
    ['--database', spelt('storeloc.db')],
    ['--database', 'lnk/../storeloc.db'], // typed in dir: read from there
  ]) {
    const p = Bun.spawnSync([...bunOn('cli/main.ts'), 'locator', 'list', '--json', ...argv], {
      cwd: join(dir, 'dir'),
      env: { ...process.env, GEOCODER: 'none', DEMO: '0' },
    })
    expect({ argv, stderr: p.stderr.toString() }).toEqual({ argv, stderr: '' })
    expect(JSON.parse(p.stdout.toString()).map((l: { name: string }) => l.name)).toEqual(['Right'])
  }
})

test('the command a message gives to run again names the database the system reads', () => {
  const database = join(dir, 'other', 'storeloc.db')
  expect(run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'Right'], database).code).toBe(0)
  const r = run([...bunOn('cli/main.ts'), 'doctor'], spelt('storeloc.db'), {
    GEOCODER: 'embedded',
    GEODATA_PATH: join(dir, 'none', 'geocoder.sqlite'),
  })
  const given = /doctor --database (\S+) again/.exec(r.stdout)?.[1]
  expect({ given, stderr: r.stderr }).toEqual({ given: expect.any(String), stderr: '' })
  expect(realpathSync.native(given!)).toBe(realpathSync.native(database))
})

test('GEODATA_PATH left out: the data beside the database the system names is read', () => {
  const database = join(dir, 'other', 'storeloc.db')
  expect(run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'Shop'], database).code).toBe(0)
  const beside = join(dir, 'other', 'geocoder.sqlite')
  symlinkSync(join(import.meta.dir, '..', '..', DEFAULT_GEODATA_PATH), beside)
  const env: Record<string, string | undefined> = { ...process.env, DATABASE_PATH: spelt('storeloc.db') }
  delete env.GEODATA_PATH
  const p = Bun.spawnSync([...bunOn('cli/main.ts'), 'geocode', 'Berlin, Germany', '--json'], {
    cwd: join(dir, 'dir'),
    env,
  })
  expect({ code: p.exitCode, stderr: p.stderr.toString() }).toEqual({
    code: 0,
    stderr: expect.stringContaining(`reading the database's folder's, ${beside}.`),
  })
  expect(JSON.parse(p.stdout.toString())).toMatchObject({ source: 'embedded', parts: { city: 'Berlin' } })
})

/** A folder on another file system than the test's (tmpfs at /dev/shm), where there is one. */
const otherDevice = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tmpdir()).dev ? '/dev/shm' : null

test.skipIf(otherDevice === null)('backup and restore through a link to another file system', () => {
  const far = mkdtempSync(join(otherDevice!, 'storeloc-test-'))
  try {
    mkdirSync(join(far, 'sub'))
    rmSync(join(dir, 'dir', 'lnk'))
    symlinkSync(join(far, 'sub'), join(dir, 'dir', 'lnk'))
    const database = spelt('storeloc.db')
    expect(run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'Shop'], database).code).toBe(0)
    const backup = run([...bunOn('cli/main.ts'), 'backup', spelt('copy.db')], database)
    expect({ code: backup.code, stderr: backup.stderr }).toEqual({ code: 0, stderr: '' })
    expect(existsSync(join(far, 'copy.db'))).toBe(true)
    const restore = run([...bunOn('cli/main.ts'), 'restore', spelt('copy.db'), '--force'], database)
    expect({ code: restore.code, stderr: restore.stderr }).toEqual({ code: 0, stderr: '' })
  } finally {
    rmSync(far, { recursive: true, force: true })
  }
})
