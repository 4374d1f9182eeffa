// `storeloc restore` run by the database's owner in a shared folder (the sticky bit, as /tmp),
// where a file beside the database, or the backup, is another user's: the refusal names the system's reason.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { chmodSync, chownSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers'
import { asRoot, bunOn, run, runAsUser } from './as-user'

let dir: string
beforeEach(() => {
  dir = tempDir()
  chmodSync(dir, 0o1777) // each user may remove only their own files
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

test.skipIf(!asRoot)(
  "a -wal beside the database that is another user's: the restore says EPERM, the database kept",
  () => {
    const path = join(dir, 'storeloc.db')
    // nobody's, who restores it: made by a command in a process of its own, which closes it whole
    expect(runAsUser(65534, path, 'cli/main.ts', ['locator', 'create', '--name', 'Shop']).code).toBe(0)
    const backup = join(dir, 'backup.db')
    expect(run([...bunOn('cli/main.ts'), 'backup', backup], path).code).toBe(0)
    chmodSync(backup, 0o644)
    writeFileSync(`${path}-wal`, '') // root's: as a command run as root and killed leaves it
    const before = statSync(path).ino
    const r = runAsUser(65534, path, 'cli/main.ts', ['restore', backup])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`EPERM: operation not permitted, unlink '${path}-wal'`)
    expect(r.stderr).toEndWith(
      `the database ${path} was left as it was. That file is another user's, in a folder with the sticky bit: remove it as its owner or as root, or name another place.\n`,
    )
    expect(statSync(path).ino).toBe(before)
  },
)

test.skipIf(!asRoot)('a backup this user may not read: the restore names it and why, not the database', () => {
  const path = join(dir, 'storeloc.db')
  expect(runAsUser(65534, path, 'cli/main.ts', ['locator', 'create', '--name', 'Shop']).code).toBe(0)
  const backup = join(dir, 'backup.db')
  expect(run([...bunOn('cli/main.ts'), 'backup', backup], path).code).toBe(0)
  chmodSync(backup, 0o000)
  const before = statSync(path).ino
  const r = runAsUser(65534, path, 'cli/main.ts', ['restore', backup])
  expect(r.code).toBe(1)
  expect(r.stderr).toBe(
    `storeloc: ${backup} was not restored: this user may not read it (EACCES: permission denied, open '${backup}'): run this as a user who may, or make it readable. The database was left as it was.\n`,
  )
  expect(statSync(path).ino).toBe(before)
})

test.skipIf(!asRoot)(
  "a database in a folder this user may not write: the restore names that folder, as a backup's",
  () => {
    const folder = join(dir, 'live')
    mkdirSync(folder, { mode: 0o755 }) // root's: the file itself is nobody's, the folder not
    const path = join(folder, 'storeloc.db')
    expect(run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'Shop'], path).code).toBe(0)
    chownSync(path, 65534, 65534)
    const backup = join(dir, 'backup.db')
    expect(run([...bunOn('cli/main.ts'), 'backup', backup], path).code).toBe(0)
    chmodSync(backup, 0o644)
    const before = statSync(path).ino
    const r = runAsUser(65534, path, 'cli/main.ts', ['restore', backup])
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 1,
      stderr: `storeloc: ${path} cannot be replaced: its folder ${folder} belongs to root (uid 0), mode 0755, which this user (uid 65534) may not write in. A restore writes its copy there first: run this as a user who may; the database ${path} was left as it was.\n`,
    })
    expect(statSync(path).ino).toBe(before)
    expect(readdirSync(folder)).toEqual(['storeloc.db'])
  },
)
