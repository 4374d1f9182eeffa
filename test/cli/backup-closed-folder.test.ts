// A backup FILE behind a folder this user may not look into (a backups folder of root's, mode
// 0700), or a link into one: refused naming that folder and its owner, not by the system's EACCES.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { chmodSync, chownSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers'
import { asRoot, bunOn, run, runAsUser } from './as-user'

let dir: string
beforeEach(() => {
  dir = tempDir()
  chmodSync(dir, 0o755)
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

test.skipIf(!asRoot)('a backup FILE behind a folder this user may not look into names that folder', () => {
  const database = join(dir, 'live', 'storeloc.db')
  mkdirSync(join(dir, 'live'))
  expect(run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'Shop'], database).code).toBe(0)
  chownSync(join(dir, 'live'), 65534, 65534)
  for (const f of readdirSync(join(dir, 'live'))) chownSync(join(dir, 'live', f), 65534, 65534)
  mkdirSync(join(dir, 'closed', 'sub'), { recursive: true })
  chmodSync(join(dir, 'closed'), 0o700)
  mkdirSync(join(dir, 'own', 'sub'), { recursive: true })
  chownSync(join(dir, 'own'), 65534, 65534)
  chmodSync(join(dir, 'own'), 0o600)
  symlinkSync('closed/sub/y.db', join(dir, 'link.db'))
  const refused = (file: string, folder: string, whose: string, mode: string) => {
    const r = runAsUser(65534, database, 'cli/main.ts', ['backup', file])
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 1,
      stderr: `storeloc: ${file} cannot be reached: its folder ${join(dir, folder)} ${whose}, mode ${mode}, which this user (uid 65534) may not look into. Run this as a user who may, or name another place.\n`,
    })
  }
  refused(join(dir, 'closed', 'sub', 'x.db'), 'closed', 'belongs to root (uid 0)', '0700')
  refused(join(dir, 'link.db'), 'closed', 'belongs to root (uid 0)', '0700')
  refused(join(dir, 'own', 'sub', 'x.db'), 'own', "is this user's own (uid 65534)", '0600')
  symlinkSync('closed/sub', join(dir, 'into')) // a link to a folder behind the closed one
  refused(`${dir}/into/../z.db`, 'closed', 'belongs to root (uid 0)', '0700')
  refused(`${dir}/into/z.db`, 'closed', 'belongs to root (uid 0)', '0700')
  expect(readdirSync(join(dir, 'closed', 'sub'))).toEqual([])
})
