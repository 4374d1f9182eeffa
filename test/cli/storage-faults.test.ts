// storeloc when the disk refuses its write, for real: the command runs under a file size limit
// (RLIMIT_FSIZE, `ulimit -f`, with SIGXFSZ ignored so the write fails with EFBIG instead of the
// process being killed), which SQLite reports as SQLITE_IOERR_WRITE at the commit, when it writes
// the WAL. The command says what is wrong and what to do, exits 1, and keeps nothing.
import { describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { unprogressed } from '../helpers'
import { dbPath, dir, json, useTempDatabase } from './temp-database'

useTempDatabase()
const root = join(import.meta.dir, '..', '..')

/**
 * storeloc with files limited to `kb` KiB (`ulimit -f` counts 512-byte blocks in POSIX sh: dash,
 * bash as sh, busybox). 36 KiB holds the WAL index (-shm, 32 KiB) and 8 WAL frames of 4 KiB pages:
 * reads work, a commit of more pages fails.
 */
function limitedStoreloc(kb: number, ...argv: string[]) {
  const quoted = [process.execPath, join(root, 'src/cli/main.ts'), ...argv]
    .map((a) => `'${a.replaceAll("'", "'\\''")}'`)
    .join(' ')
  const p = Bun.spawnSync(['sh', '-c', `trap '' XFSZ; ulimit -f ${kb * 2} && exec ${quoted}`], {
    cwd: root,
    env: { ...process.env, DATABASE_PATH: dbPath },
  })
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: unprogressed(p.stderr.toString()) }
}

const IO_ERROR = (path: string) =>
  `Nothing was changed. Database I/O error: the disk or file system holding ${path} failed a read or write (see the system log; a file size limit, RLIMIT_FSIZE, gives this too). Then run the command again.`

describe('a write the disk refuses (SQLITE_IOERR)', () => {
  test('locations import: one line naming the I/O error, the database and what to do; exit 1; nothing imported', () => {
    const locator = json('locator', 'create', '--name', 'Shop').locator.id
    const file = join(dir, 'many.json')
    writeFileSync(
      file,
      JSON.stringify(
        Array.from({ length: 20 }, (_, i) => ({
          name: `Store ${i}`,
          address: `${i} Main St`,
          coordinates: { lat: 40, lng: -75 },
          description: 'x'.repeat(9_000),
        })),
      ),
    )
    const r = limitedStoreloc(36, 'locations', 'import', locator, '--file', file)
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `storeloc: disk I/O error (database ${dbPath}). ${IO_ERROR(dbPath)}\n`,
    })
    expect(json('locations', 'export', locator)).toEqual([])
  })

  test('locator create whose commit fails after the secret key was printed: says the printed key was not kept', () => {
    json('locator', 'create', '--name', 'First')
    // The key is printed inside the transaction (an output that fails undoes it); the WAL is written at the commit, after.
    const r = limitedStoreloc(36, 'locator', 'create', '--name', 'Second')
    expect(r.stdout).toContain('secret key:')
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      `storeloc: disk I/O error (database ${dbPath}). ${IO_ERROR(dbPath)} The secret key printed above was not kept and does not work.\n`,
    )
    expect(json('locator', 'list').map((l: { name: string }) => l.name)).toEqual(['First'])
  })
})
