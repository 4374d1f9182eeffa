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
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_GEODATA_PATH } from '../../src/geocode/embedded'
import { tempDir } from '../helpers'
import { ROOT, asRoot, bunOn, keyLineOf, run, runAsUser } from './as-user'

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

test('a backup FILE spelt with `..` after a link: its folder, and the partials killed backups left, are the ones the system names', () => {
  const database = join(dir, 'other', 'storeloc.db')
  expect(run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'Shop'], database).code).toBe(0)
  const gone = Bun.spawnSync(['true']).pid // a process that ran and ended
  const hourAgo = Date.now() / 1000 - 3700
  const partial = `b.db.partial-${gone}`
  for (const folder of ['other', 'dir']) {
    writeFileSync(join(dir, folder, partial), 'partial')
    utimesSync(join(dir, folder, partial), hourAgo, hourAgo)
  }
  const r = run([...bunOn('cli/main.ts'), 'backup', spelt('b.db'), '--json'], database)
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  expect(JSON.parse(r.stdout).removed_partials).toEqual([join(realpathSync(dir), 'other', partial)])
  expect([existsSync(join(dir, 'other', partial)), existsSync(join(dir, 'dir', partial))]).toEqual([false, true])
  // A folder there only where the system reads the path.
  mkdirSync(join(dir, 'other', 'saves'))
  const saved = run([...bunOn('cli/main.ts'), 'backup', spelt('saves/c.db')], database)
  expect({ code: saved.code, stderr: saved.stderr }).toEqual({ code: 0, stderr: '' })
  expect(existsSync(join(dir, 'other', 'saves', 'c.db'))).toBe(true)
})

test('a restore into a new database spelt with `..` after a link makes its folder where the system names', () => {
  const source = join(dir, 'source.db')
  expect(run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'Shop'], source).code).toBe(0)
  expect(run([...bunOn('cli/main.ts'), 'backup', join(dir, 'copy.db')], source).code).toBe(0)
  const r = run([...bunOn('cli/main.ts'), 'restore', join(dir, 'copy.db')], spelt('fresh/storeloc.db'))
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  expect([existsSync(join(dir, 'other', 'fresh', 'storeloc.db')), existsSync(join(dir, 'dir', 'fresh'))]).toEqual([
    true,
    false,
  ])
  // What a killed restore left is looked for there too, and only there.
  const gone = Bun.spawnSync(['true']).pid
  const left = `storeloc.db.restoring-${gone}`
  mkdirSync(join(dir, 'dir', 'fresh'))
  const hourAgo = Date.now() / 1000 - 3600 // unchanged long enough to be no running restore's
  for (const folder of ['other', 'dir']) {
    writeFileSync(join(dir, folder, 'fresh', left), 'copy')
    utimesSync(join(dir, folder, 'fresh', left), hourAgo, hourAgo)
  }
  const again = run([...bunOn('cli/main.ts'), 'restore', join(dir, 'copy.db'), '--json'], spelt('fresh/storeloc.db'))
  expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: '' })
  expect(JSON.parse(again.stdout).removed_partials).toEqual([join(realpathSync(dir), 'other', 'fresh', left)])
  expect([existsSync(join(dir, 'other', 'fresh', left)), existsSync(join(dir, 'dir', 'fresh', left))]).toEqual([
    false,
    true,
  ])
})

test.skipIf(!asRoot)(
  'restored by root into a new file spelt with `..` after a link, it is the folder the system names that gives the owner',
  () => {
    const source = join(dir, 'source.db')
    expect(run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'Shop'], source).code).toBe(0)
    expect(run([...bunOn('cli/main.ts'), 'backup', join(dir, 'copy.db')], source).code).toBe(0)
    chownSync(join(dir, 'other'), 65534, 65534) // the service's folder; dir stays root's
    const r = run([...bunOn('cli/main.ts'), 'restore', join(dir, 'copy.db')], spelt('storeloc.db'))
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
    expect(statSync(join(dir, 'other', 'storeloc.db')).uid).toBe(65534)
  },
)

test('a link into no folder, or in a loop, reached by `..` after a link is named as the system reads it', () => {
  const other = realpathSync.native(join(dir, 'other'))
  symlinkSync('../nowhere/storeloc.db', join(dir, 'other', 'gone.db'))
  const gone = run([...bunOn('cli/main.ts'), 'locator', 'list'], spelt('gone.db'))
  expect({ code: gone.code, stderr: gone.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${spelt('gone.db')} leads to ${dir}/nowhere/storeloc.db, whose folder ${dir}/nowhere is not there: mount the disk it is on, or make the folder (mkdir -p ${dir}/nowhere) writable by the service's user, or set DATABASE_PATH to another file.\n`,
  })
  symlinkSync('loop', join(other, 'loop'))
  const loop = run([...bunOn('cli/main.ts'), 'locator', 'list'], spelt('loop'))
  expect({ code: loop.code, stderr: loop.stderr }).toEqual({
    code: 1,
    stderr: expect.stringContaining(
      `: it is a symbolic link that leads back to itself (${spelt('loop')} -> ${other}/loop -> ${other}/loop).`,
    ),
  })
})

test('the key command a first start prints makes the key in the database the system names', async () => {
  const line = (await keyLineOf(null, spelt('storeloc.db'))).line.trim()
  const made = Bun.spawnSync(['sh', '-c', line], { cwd: ROOT })
  expect({ line, code: made.exitCode, stderr: made.stderr.toString() }).toEqual({ line, code: 0, stderr: '' })
  expect(existsSync(join(dir, 'dir', 'storeloc.db'))).toBe(false)
}, 60_000)
