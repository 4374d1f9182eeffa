// A path with a `..` after a file (file.db/../y.db): the system goes through no file (ENOTDIR), so
// the database, the geocoder's data, or a backup there is refused naming that file, not with the
// system's code.
import { expect, test } from 'bun:test'
import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { dir, shellEnv, useTempDatabase } from './temp-database'

useTempDatabase()

const root = join(import.meta.dir, '..', '..')
/** The CLI typed in the test's folder, with `env` added. */
const storeloc = (env: Record<string, string>, ...argv: string[]) => {
  const p = Bun.spawnSync([process.execPath, join(root, 'src/storeloc.ts'), ...argv], {
    cwd: dir,
    env: { ...shellEnv(), ...env },
  })
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() }
}
const inDir = () => readdirSync(dir).sort()
/** The sentence that names the file on the way to `typed`. */
const unreached = (typed: string) =>
  `${typed} cannot be reached: ${dir}/file.db is a file, not a folder, so nothing is under it.`

test('a database path through a file is refused naming the file, by --database and by DATABASE_PATH', () => {
  writeFileSync(join(dir, 'file.db'), 'not a folder')
  const database = 'to the database file by a path through folders only.\n'
  const byOption = storeloc({}, '--database', 'file.db/../y.db', 'locator', 'list')
  expect({ code: byOption.code, stderr: byOption.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${unreached(`${dir}/file.db/../y.db`)} Set DATABASE_PATH ${database}`,
  })
  const made = storeloc({ DATABASE_PATH: 'file.db/../y.db' }, 'locator', 'create', '--name', 'Shop')
  expect({ code: made.code, stderr: made.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${unreached('file.db/../y.db')} Set DATABASE_PATH ${database}`,
  })
  const served = storeloc({ PORT: '0', DEMO: '0' }, 'serve', '--database', 'file.db/../y.db')
  expect({ code: served.code, stderr: served.stderr }).toEqual({
    code: 3,
    stderr: `Cannot use the database: ${unreached('file.db/../y.db')} Set DATABASE_PATH ${database}`,
  })
  expect(inDir()).toEqual(['file.db'])
}, 60_000)

test('DATABASE_PATH unset or the default, and `data` a file where the default database is: the message says so', () => {
  writeFileSync(join(dir, 'data'), 'a file, not the folder')
  const said = `data/storeloc.db cannot be reached: ${dir}/data is a file, not a folder, so nothing is under it. That is DATABASE_PATH's default, under the folder this runs in (${dir}): run this in the service's folder, or set DATABASE_PATH (or --database) to the database file.`
  const listed = storeloc({}, 'locator', 'list')
  expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 1, stderr: `storeloc: ${said}\n` })
  const set = storeloc({ DATABASE_PATH: 'data/storeloc.db' }, 'locator', 'list')
  expect({ code: set.code, stderr: set.stderr }).toEqual({ code: 1, stderr: `storeloc: ${said}\n` })
  const dotted = storeloc({ DATABASE_PATH: './data//storeloc.db' }, 'locator', 'list')
  expect({ code: dotted.code, stderr: dotted.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${said.replace('data/storeloc.db', './data//storeloc.db')}\n`,
  })
  const served = storeloc({ PORT: '0', DEMO: '0' }, 'serve')
  expect({ code: served.code, stderr: served.stderr }).toEqual({
    code: 3,
    stderr: `Cannot use the database: ${said}\n`,
  })
  expect(inDir()).toEqual(['data'])
}, 60_000)

test('a GEODATA_PATH through a file is refused naming the file, unless no geocoder reads it', () => {
  writeFileSync(join(dir, 'file.db'), 'not a folder')
  expect(storeloc({}, '--database', 'y.db', 'locator', 'create', '--name', 'Shop').code).toBe(0)
  const geodata = { GEOCODER: 'embedded', GEODATA_PATH: 'file.db/../g.sqlite' }
  const r = storeloc(geodata, '--database', 'y.db', 'geocode', 'Milano')
  expect({ code: r.code, stderr: r.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: Could not build the offline geocoder data at file.db/../g.sqlite: ${unreached('file.db/../g.sqlite')} GEODATA_PATH says where it goes: point it at a file by a path through folders only (or set GEOCODER=none to run without it).\n`,
  })
  const doctor = storeloc(geodata, '--database', 'y.db', 'doctor', '--json')
  const check = JSON.parse(doctor.stdout).checks.find((c: { check: string }) => c.check === 'geocoder data')
  expect({ code: doctor.code, problems: check.problems }).toEqual({
    code: 1,
    problems: [
      {
        problem: `${unreached('file.db/../g.sqlite')} The service does not start with it (exit 3): it cannot build the geocoder's data there.`,
        fix: 'Set GEODATA_PATH to a file by a path through folders only (the start builds it there), or set GEOCODER=none to run without it.',
      },
    ],
  })
  const none = storeloc({ ...geodata, GEOCODER: 'none' }, '--database', 'y.db', 'locator', 'list')
  expect({ code: none.code, stderr: none.stderr }).toEqual({ code: 0, stderr: '' })
})

test('GEODATA_PATH unset or the default and `data` a file where the default data goes: the message says so, not that GEODATA_PATH is wrong', () => {
  writeFileSync(join(dir, 'data'), 'a file, not the folder')
  expect(storeloc({}, '--database', 'y.db', 'locator', 'create', '--name', 'Shop').code).toBe(0)
  const embedded = { GEOCODER: 'embedded' }
  const reached = `data/geocoder.sqlite cannot be reached: ${dir}/data is a file, not a folder, so nothing is under it.`
  const said = `Could not build the offline geocoder data at data/geocoder.sqlite, GEODATA_PATH's default, under the folder this runs in (${dir}): ${reached} Move that file away, run this in the service's folder, or set GEODATA_PATH to a file elsewhere (or set GEOCODER=none to run without it).`
  const r = storeloc(embedded, '--database', 'y.db', 'geocode', 'Milano')
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: `storeloc: ${said}\n` })
  const set = storeloc({ ...embedded, GEODATA_PATH: 'data/geocoder.sqlite' }, '--database', 'y.db', 'geocode', 'Milano')
  expect({ code: set.code, stderr: set.stderr }).toEqual({ code: 1, stderr: `storeloc: ${said}\n` })
  const dotted = storeloc(
    { ...embedded, GEODATA_PATH: './data/geocoder.sqlite' },
    '--database',
    'y.db',
    'geocode',
    'Milano',
  )
  expect({ code: dotted.code, stderr: dotted.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${said.replaceAll('data/geocoder.sqlite', './data/geocoder.sqlite')}\n`,
  })
  const served = storeloc({ ...embedded, PORT: '0', DEMO: '0' }, 'serve', '--database', 'y.db')
  expect({ code: served.code, stderr: served.stderr.split('\n').at(-2) }).toEqual({ code: 3, stderr: said })
  const doctor = storeloc(embedded, '--database', 'y.db', 'doctor', '--json')
  const check = JSON.parse(doctor.stdout).checks.find((c: { check: string }) => c.check === 'geocoder data')
  expect({ code: doctor.code, problems: check.problems }).toEqual({
    code: 1,
    problems: [
      {
        problem: `${reached} That is where the geocoder's data goes when GEODATA_PATH is not set (under the folder this runs in, ${dir}): a service run here does not start (exit 3), as it cannot build the data there.`,
        fix: "Move that file away, or run this in the service's folder, or set GEODATA_PATH as the service's is; or set GEOCODER=none to run without the data.",
      },
    ],
  })
  expect(inDir()).toEqual(['data', 'y.db'])
}, 60_000)

test('a backup or restore FILE through a file is refused naming the file', () => {
  writeFileSync(join(dir, 'file.db'), 'not a folder')
  expect(storeloc({}, '--database', 'y.db', 'locator', 'create', '--name', 'Shop').code).toBe(0)
  const backup = storeloc({}, '--database', 'y.db', 'backup', 'file.db/../b.db')
  expect({ code: backup.code, stderr: backup.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${unreached(`${dir}/file.db/../b.db`)} Name a file by a path through folders only.\n`,
  })
  const restore = storeloc({}, '--database', 'y.db', 'restore', 'file.db/../b.db')
  expect({ code: restore.code, stderr: restore.stderr }).toEqual({
    code: 1,
    stderr: `storeloc: ${unreached(`${dir}/file.db/../b.db`)} Name the backup by a path through folders only.\n`,
  })
  expect(inDir()).toEqual(['file.db', 'y.db'])
})
