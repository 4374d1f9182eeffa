// storeloc doctor on a database whose disk is full, or whose file system is read-only: the two
// faults that make a server refuse every write. The doctor names them, exits 1, and ends in no
// stack. Real files on a small tmpfs, in a user and mount namespace of its own (unshare -rm).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { chmodSync, chownSync, copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { MIGRATIONS } from '../../src/store/migrations'
import { tempDir } from '../helpers'
import { asRoot, bunOn, run, runAsUser } from './as-user'

const ROOT = join(import.meta.dir, '..', '..')
let dir: string
let base: string
beforeAll(() => {
  dir = tempDir()
  base = join(dir, 'base.db')
  // in WAL mode, as a service leaves it; made by a process of its own, which closes it whole
  expect(run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'Shop'], base).code).toBe(0)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** `storeloc doctor --json` on a copy of the base database on a 2 MiB tmpfs, after `then` (shell). */
function doctorOnTmpfs(name: string, then: string) {
  const mount = join(dir, name)
  const path = join(mount, 'storeloc.db')
  const script = [
    `mkdir -p '${mount}'`,
    `mount -t tmpfs -o size=2m tmpfs '${mount}'`,
    `cp '${base}' '${path}'`,
    then,
    `exec '${process.execPath}' '${join(ROOT, 'src/cli/main.ts')}' doctor --json`,
  ].join(' && ')
  const p = Bun.spawnSync(['unshare', '-rm', 'sh', '-c', script], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_PATH: path, GEOCODER: 'none' },
  })
  const stderr = p.stderr.toString()
  if (p.stdout.length === 0) throw new Error(`doctor exited ${p.exitCode}: ${stderr}`)
  const report = JSON.parse(p.stdout.toString())
  const storage = report.checks.find((c: { check: string }) => c.check === 'storage')
  return { code: p.exitCode, stderr, report, storage, mount, path }
}

test('a full disk: the doctor says how little is free and what to do, though SQLite cannot open the file', () => {
  const r = doctorOnTmpfs('full', `{ dd if=/dev/zero of='${join(dir, 'full')}/fill' bs=4k 2>/dev/null || true; }`)
  expect([r.code, r.stderr]).toEqual([1, ''])
  expect(r.storage.subject).toBe(r.mount)
  expect(r.storage.problems).toEqual([
    {
      problem: expect.stringMatching(
        /^(0 bytes|\d+ bytes|\d+\.\d KiB) free on the disk that holds the database, less than 64\.0 MiB: writes are refused \(503 "disk is full"\)/,
      ),
      fix: expect.stringMatching(/^Free space on that disk/),
    },
  ])
  // Its -shm cannot be made: the database's own check says so, and names the full disk.
  const database = r.report.checks.find((c: { check: string }) => c.check === 'database')
  expect(database.problems[0].fix).toStartWith(`database disk full: SQLite could not grow ${r.path}`)
})

test('a read-only file system: the doctor names the file and folder it may not write, and reads the file', () => {
  const r = doctorOnTmpfs('ro', `mount -o remount,ro '${join(dir, 'ro')}'`)
  expect([r.code, r.stderr]).toEqual([1, ''])
  expect(r.storage.problems).toHaveLength(1)
  expect(r.storage.problems[0].problem).toStartWith(
    `This user (uid 0) may not write ${r.path} (a read-only file system), its folder ${r.mount} (a read-only file system): a server running as this user refuses every write (503), and a start exits 3.`,
  )
  // A stopped WAL database, which a read-write open cannot read without making its -shm, is read
  // as it stands: the storage problem is the only one.
  expect(r.report.checks.map((c: { check: string; ok: boolean }) => [c.check, c.ok])).toEqual([
    ['database', true],
    ['storage', false],
    ['integrity', true],
    ['geocoder data', true],
    ['locator', true],
  ])
  expect(r.report.checks[0].summary).toBe(`schema version ${MIGRATIONS.length} (current), journal mode wal`)
})

test.skipIf(!asRoot)('a stopped WAL database in a folder its user may not write: only that is a problem', () => {
  chmodSync(dir, 0o755) // for nobody to reach the folder in it
  const folder = join(dir, 'folder')
  mkdirSync(folder)
  const path = join(folder, 'storeloc.db')
  copyFileSync(base, path)
  chownSync(path, 65534, 65534)
  chmodSync(folder, 0o755) // root's: nobody may read it, not write in it
  const r = runAsUser(65534, path, 'cli/main.ts', ['doctor', '--json'])
  expect([r.code, r.stderr]).toEqual([1, ''])
  const report = JSON.parse(r.stdout)
  expect(report.checks.map((c: { check: string; ok: boolean }) => [c.check, c.ok])).toEqual([
    ['database', true],
    ['storage', false],
    ['integrity', true],
    ['geocoder data', true],
    ['locator', true],
  ])
  expect(report.checks[1].problems[0].problem).toStartWith(`This user (uid 65534) may not write its folder ${folder}`)
  expect(readdirSync(folder)).toEqual(['storeloc.db'])
})
