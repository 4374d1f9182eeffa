// A backup FILE typed with a trailing slash names a folder (a backups disk's mount point): where
// no folder is there (the disk not mounted, a typo), no file is written under the folder's name.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner, tempDir } from '../helpers'

let dir: string
let dbPath: string
beforeEach(() => {
  dir = tempDir()
  dbPath = join(dir, 'live.db')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const { storeloc, json } = cliRunner(() => dbPath)

test('a backup FILE ending in / with no folder there is refused, and no file is written', () => {
  json('locator', 'create', '--name', 'Kept')
  writeFileSync(join(dir, 'notes.txt'), 'a file')
  for (const typed of [`${dir}/backups/`, `${dir}/notes.txt/`]) {
    const r = storeloc('backup', typed)
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: `storeloc: No folder ${typed}: a FILE ending in / names a folder. Make it (or mount the disk it is on), or name a file.\n`,
    })
  }
  expect(readdirSync(dir).sort()).toEqual(['live.db', 'notes.txt'])
})
