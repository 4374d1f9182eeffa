// A backup FILE named as the database's own -wal, -shm or -journal (a completion one tab too far):
// SQLite removes or rewrites that file at the database's next open, so a copy there is lost.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { readdirSync, rmSync, symlinkSync } from 'node:fs'
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

test("a backup FILE that is the database's -wal, -shm or -journal, or a link to one, is refused", () => {
  json('locator', 'create', '--name', 'Kept')
  symlinkSync('live.db-journal', join(dir, 'link.db'))
  for (const [file, suffix] of [
    ['live.db-wal', '-wal'],
    ['live.db-shm', '-shm'],
    ['live.db-journal', '-journal'],
    ['link.db', '-journal'],
  ] as const) {
    const r = storeloc('backup', join(dir, file))
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: `storeloc: ${join(dir, file)} ${file === 'link.db' ? `leads to ${dbPath}${suffix}, ` : 'is '}SQLite's ${suffix} file of the database ${dbPath}, which SQLite removes or writes over: name another file.\n`,
    })
  }
  expect(readdirSync(dir).sort()).toEqual(['link.db', 'live.db'])
  expect(json('locator', 'list').map((l: { name: string }) => l.name)).toEqual(['Kept'])
})
