// A backup or restore FILE that names no file (empty, blanks, `-`), or a folder this user may not
// write: a usage line or a refusal that says what to name, with its exit code, never a stack
// trace, and nothing written anywhere.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { chmodSync, mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers'
import { asRoot, bunOn, run, runAsUser } from './as-user'
import { shellEnv } from './temp-database'

let dir: string
let dbPath: string
beforeEach(() => {
  dir = tempDir()
  chmodSync(dir, 0o755)
  dbPath = join(dir, 'live.db')
  expect(run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'Shop'], dbPath).code).toBe(0)
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** The CLI typed in the test's folder, as a person types it there. */
const typed = (...argv: string[]) => {
  const p = Bun.spawnSync([...bunOn('storeloc.ts'), ...argv], {
    cwd: dir,
    env: { ...shellEnv(), DATABASE_PATH: dbPath },
  })
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() }
}
const inDir = () => readdirSync(dir).sort()

const usage = {
  backup: 'Usage: storeloc backup FILE [--force] (a checked copy of the whole database, while servers run)',
  restore: 'Usage: storeloc restore FILE [--force] (puts a backup in its place; refused while a process uses it)',
}

test('an empty or blank FILE is a usage error naming what to give, for backup and restore; nothing is written', () => {
  const before = inDir()
  const cases = [
    ['backup', '', 'FILE "" is empty: name the file to write the backup to'],
    ['backup', ' ', 'FILE " " is blanks only: name the file to write the backup to'],
    ['restore', '', 'FILE "" is empty: name the backup file to restore'],
    ['restore', '\t ', 'FILE "\t " is blanks only: name the backup file to restore'],
  ] as const
  for (const [command, file, said] of cases) {
    const r = typed(command, file)
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' })
    expect(r.stderr).toStartWith(
      `storeloc: ${said}, such as /var/backups/storeloc/2027-01-31.db.\n\n${usage[command]}\n`,
    )
    expect(r.stderr).not.toContain('    at ')
  }
  const json = typed('backup', '', '--json')
  expect({ code: json.code, body: JSON.parse(json.stdout) }).toEqual({
    code: 2,
    body: {
      success: false,
      error: 'usage',
      message: 'FILE "" is empty: name the file to write the backup to, such as /var/backups/storeloc/2027-01-31.db.',
    },
  })
  expect(inDir()).toEqual(before)
})

test('FILE - is no standard output or input: a usage error, no file named - written; ./- names one', () => {
  const before = inDir()
  const backup = typed('backup', '-')
  expect({ code: backup.code, stdout: backup.stdout }).toEqual({ code: 2, stdout: '' })
  expect(backup.stderr).toStartWith(
    `storeloc: FILE - does not mean standard output here: a backup is a SQLite file, written in place. Name the file to write the backup to (./- for a file named -).\n\n${usage.backup}\n`,
  )
  const restore = typed('restore', '-')
  expect({ code: restore.code, stdout: restore.stdout }).toEqual({ code: 2, stdout: '' })
  expect(restore.stderr).toStartWith(
    `storeloc: FILE - does not mean standard input here: a restore reads a SQLite file in place. Name the backup file to restore (./- for a file named -).\n\n${usage.restore}\n`,
  )
  expect(inDir()).toEqual(before)
  const named = typed('backup', './-')
  expect({ code: named.code, stderr: named.stderr }).toEqual({ code: 0, stderr: '' })
  expect(inDir()).toEqual([...before, '-'].sort())
})

test.skipIf(!asRoot)(
  'a folder this user may not write: refused with exit 1 naming it, its owner and mode; nothing left in it',
  () => {
    chmodSync(dbPath, 0o644)
    const closed = join(dir, 'closed')
    mkdirSync(closed, { mode: 0o755 }) // root's: others may look in, not write
    const file = join(closed, 'nightly.db')
    const r = runAsUser(65534, dbPath, 'cli/main.ts', ['backup', file])
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 1, stdout: '' })
    expect(r.stderr).toBe(
      `storeloc: ${file} cannot be written: its folder ${realpathSync(closed)} belongs to root (uid 0), mode 0755, which this user (uid 65534) may not write in. Run this as a user who may, or name another place.\n`,
    )
    expect(readdirSync(closed)).toEqual([])
  },
)
