// `storeloc restore` run in a folder other than the service's: DATABASE_PATH's default, however
// spelt, names no database there, and the restore makes none.
import { expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
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
