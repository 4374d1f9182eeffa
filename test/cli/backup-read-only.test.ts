// `storeloc backup` of a database where this user may write nothing beside it (a read-only
// snapshot mount, a folder of another user's), the service stopped: a WAL file with no -wal, whose
// read-write open cannot make the -shm it needs there. It is read as the read-only commands read it.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner, tempDir } from '../helpers'

let dir: string
let dbPath: string
beforeEach(() => {
  dir = tempDir()
  dbPath = join(dir, 'live', 'storeloc.db')
  mkdirSync(join(dir, 'backups'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const { json } = cliRunner(() => dbPath)
const root = join(import.meta.dir, '..', '..')

// As root, a bind mount made read-only in a mount namespace of the command's own.
const canMount = process.getuid?.() === 0 && Bun.which('unshare') !== null
test.skipIf(!canMount)('a stopped WAL database on a read-only mount is backed up whole', () => {
  json('locator', 'create', '--name', 'Kept')
  expect(readdirSync(join(dir, 'live'))).toEqual(['storeloc.db']) // WAL mode, no -wal: nothing has it open
  const copy = join(dir, 'backups', 'copy.db')
  const mount = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
  const folder = join(dir, 'live')
  const p = Bun.spawnSync(
    ['unshare', '--mount', 'sh', '-c', mount, 'sh', folder, process.execPath, 'src/cli/main.ts', 'backup', copy],
    { cwd: root, env: { ...process.env, DATABASE_PATH: dbPath } },
  )
  expect({ code: p.exitCode, stderr: p.stderr.toString() }).toEqual({ code: 0, stderr: '' })
  expect(readdirSync(join(dir, 'backups'))).toEqual(['copy.db'])
  dbPath = copy
  expect(json('locator', 'list').map((l: { name: string }) => l.name)).toEqual(['Kept'])
})
