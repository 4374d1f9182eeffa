// `storeloc restore` run in a folder other than the service's: DATABASE_PATH's default, however
// spelt, names no database there, and the restore makes none. A folder given as the database gets
// the file to name in it.
import { expect, test } from 'bun:test'
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { dir, json, shellEnv, useTempDatabase } from './temp-database'

useTempDatabase()

const root = join(import.meta.dir, '..', '..')

test('restore with DATABASE_PATH the default, spelt in any way, and no database here makes none', () => {
  json('locator', 'create', '--name', 'Kept')
  const before = readdirSync(dir).sort()
  for (const spelt of ['data/storeloc.db', './data/storeloc.db', 'data//storeloc.db']) {
    const p = Bun.spawnSync([process.execPath, join(root, 'src/storeloc.ts'), 'restore', 'cli.db'], {
      cwd: dir,
      env: { ...shellEnv(), DATABASE_PATH: spelt },
    })
    expect({ spelt, code: p.exitCode, stderr: p.stderr.toString() }).toEqual({
      spelt,
      code: 1,
      stderr: `storeloc: No database at ${spelt} in ${dir} to replace: set DATABASE_PATH to the service's database file. To restore into a new file here, name it: DATABASE_PATH=${join(dir, 'data/storeloc.db')}.\n`,
    })
  }
  expect(readdirSync(dir).sort()).toEqual(before)
}, 60_000)

test('restore into a folder, or a link to one, names a file in it to give instead; nothing is written there', () => {
  json('locator', 'create', '--name', 'Kept')
  json('backup', join(dir, 'copy.db'))
  const folder = join(dir, 'service')
  mkdirSync(folder)
  symlinkSync('service', join(dir, 'linked'))
  for (const [given, what] of [
    [folder, `${folder} is a folder`],
    [`${folder}/`, `${folder} is a folder`],
    [join(dir, 'linked'), `${join(dir, 'linked')} leads to the folder ${folder}`],
  ] as const) {
    const p = Bun.spawnSync(
      [process.execPath, join(root, 'src/storeloc.ts'), '--database', given, 'restore', 'copy.db'],
      {
        cwd: dir,
        env: shellEnv(),
      },
    )
    const named = join(given, 'storeloc.db')
    expect({ given, code: p.exitCode, stderr: p.stderr.toString() }).toEqual({
      given,
      code: 1,
      stderr: `storeloc: ${what}, not a database file: name the database file to restore into, such as --database ${named} (or set DATABASE_PATH to it). Nothing was changed.\n`,
    })
  }
  expect(readdirSync(folder)).toEqual([])
}, 60_000)
