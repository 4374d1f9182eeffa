// Two backups run at once into one new FILE, without --force (two cron lines, a cron line and an
// operator): one writes it, the other is refused as for an existing FILE, though it was not there
// when it looked. Neither replaces the other's copy, nor leaves its own beside it.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { cliRunner, tempDir } from '../helpers'

let dir: string
let dbPath: string
beforeEach(() => {
  dir = tempDir()
  dbPath = join(dir, 'live.db')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const { json } = cliRunner(() => dbPath)
const root = join(import.meta.dir, '..', '..')

test('of two backups at once into one new FILE without --force, one writes it and the other is refused', async () => {
  json('locator', 'create', '--name', 'Raced')
  // Some MB of cached answers: each copy takes long enough for the two to overlap.
  const db = new Database(dbPath)
  const add = db.prepare('INSERT INTO geocode_cache VALUES (?, ?, NULL, 1, 9e12)')
  db.transaction(() => {
    for (let i = 0; i < 60_000; i++) add.run('test', `${i} ${'x'.repeat(300)}`)
  })()
  db.close()
  const file = join(dir, 'nightly.db')
  const backup = () =>
    Bun.spawn([process.execPath, join(root, 'src/cli/main.ts'), 'backup', file], {
      cwd: root,
      env: { ...process.env, DATABASE_PATH: dbPath },
      stdout: 'pipe',
      stderr: 'pipe',
    })
  const runs = await Promise.all(
    [backup(), backup()].map(async (p) => ({ code: await p.exited, stderr: await new Response(p.stderr).text() })),
  )
  expect(runs.map((r) => r.code).sort()).toEqual([0, 1])
  expect(runs.find((r) => r.code === 1)!.stderr).toStartWith(`storeloc: ${file} exists`)
  // The database's -wal and -shm may stay: each backup's close leaves them while the other reads.
  expect(
    readdirSync(dir)
      .filter((f) => !f.startsWith('live.db-'))
      .sort(),
  ).toEqual(['live.db', 'nightly.db'])
  dbPath = file
  expect(json('locator', 'list').map((l: { name: string }) => l.name)).toEqual(['Raced'])
})
