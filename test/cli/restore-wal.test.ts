// `storeloc restore` from a copy in WAL mode (a database file copied as it is, not made by
// `storeloc backup`): it is read whole, through its -wal when one is beside it, and nothing is
// made beside the copy or left beside the restored database.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner, tempDir } from '../helpers'

let dir: string
let dbPath: string
let copies: string
beforeEach(() => {
  dir = tempDir()
  dbPath = join(dir, 'live', 'storeloc.db')
  copies = join(dir, 'copies')
  mkdirSync(copies)
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const { storeloc, json } = cliRunner(() => dbPath)
const names = () => json('locator', 'list').map((l: { name: string }) => l.name)

test('a WAL copy without a -wal is restored whole, and nothing is made beside it', () => {
  json('locator', 'create', '--name', 'Kept')
  const copy = join(copies, 'copy.db')
  copyFileSync(dbPath, copy) // closed by the command: its commits are all in the file
  expect(readFileSync(copy)[18]).toBe(2) // the header says WAL
  const bytes = readFileSync(copy).toString('base64')
  json('locator', 'create', '--name', 'Dropped')

  const r = storeloc('restore', copy, '--force')
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  expect(readdirSync(copies)).toEqual(['copy.db'])
  expect(readFileSync(copy).toString('base64')).toBe(bytes)
  expect(readdirSync(join(dir, 'live'))).toEqual(['storeloc.db'])
  expect(names()).toEqual(['Kept'])
})

test("a WAL copy with its -wal is restored with the -wal's commits, the copy's files kept", () => {
  json('locator', 'create', '--name', 'Before')
  const copy = join(copies, 'copy.db')
  copyWithWal(copy)
  const wal = readFileSync(`${copy}-wal`).toString('base64')

  const r = storeloc('restore', copy, '--force')
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  expect(readFileSync(`${copy}-wal`).toString('base64')).toBe(wal)
  expect(readdirSync(copies).sort()).toEqual(['copy.db', 'copy.db-wal']) // no -shm made beside it
  expect(readdirSync(join(dir, 'live'))).toEqual(['storeloc.db'])
  expect(names()).toEqual(['In the wal'])
})

/** A WAL copy of the database with its -wal, as `cp` of both takes it while a writer has commits in the -wal alone. */
function copyWithWal(copy: string): void {
  const writer = new Database(dbPath)
  writer.exec('PRAGMA wal_autocheckpoint = 0')
  writer.exec("UPDATE locators SET name = 'In the wal'")
  copyFileSync(dbPath, copy)
  copyFileSync(`${dbPath}-wal`, `${copy}-wal`)
  writer.close()
}

// A backup disk mounted read-only: a read-only open of the copy cannot make the -shm it needs there.
const canMount = process.getuid?.() === 0 && Bun.which('unshare') !== null
test.skipIf(!canMount)('a WAL copy with its -wal on a read-only mount is restored with its commits', () => {
  json('locator', 'create', '--name', 'Before')
  const copy = join(copies, 'copy.db')
  copyWithWal(copy)
  const mount = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
  const p = Bun.spawnSync(
    ['unshare', '--mount', 'sh', '-c', mount, 'sh', copies, process.execPath, 'src/cli/main.ts', 'restore', copy],
    { cwd: join(import.meta.dir, '..', '..'), env: { ...process.env, DATABASE_PATH: dbPath } },
  )
  expect({ code: p.exitCode, stderr: p.stderr.toString() }).toEqual({ code: 0, stderr: '' })
  expect(readdirSync(copies).sort()).toEqual(['copy.db', 'copy.db-wal'])
  expect(readdirSync(join(dir, 'live'))).toEqual(['storeloc.db'])
  expect(names()).toEqual(['In the wal'])
})
