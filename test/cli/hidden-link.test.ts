// A database in a folder this user may not search (systemd's StateDirectory, mode 0750), reached
// by a `..` after a link: the command names that folder as the system reaches it, and whose it
// is, not "No database". As root here, the commands run as another uid (setpriv).
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { chmodSync, chownSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { createLocator } from '../../src/operator'
import { openStore } from '../../src/store'
import { tempDir } from '../helpers'
import { AGAIN, asRoot, runAsUser, withSudo } from './as-user'

let dir: string
/** The service's folder, nobody's, mode 0750: the link's `..` leads there. */
let state: string
let sudoPath: string
beforeEach(() => {
  dir = tempDir()
  chmodSync(dir, 0o755)
  mkdirSync(join(dir, 'links', 'far'), { recursive: true, mode: 0o755 })
  state = join(dir, 'links', 'state')
  mkdirSync(state)
  const store = openStore(join(state, 'storeloc.db'))
  createLocator(store, 'Shop')
  store.close()
  for (const f of readdirSync(state)) chownSync(join(state, f), 65534, 65534)
  chownSync(state, 65534, 65534)
  chmodSync(state, 0o750)
  sudoPath = withSudo(dir)
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** What `locator list` as uid 65533 says of `database`, hidden by the service's folder. */
const hidden = (database: string) =>
  `storeloc: ${database} cannot be seen by this command: its folder ${state} belongs to nobody (uid 65534), mode 0750, and this command runs as uid 65533. Run it as nobody, the service's user (sudo -u nobody ${AGAIN} locator list --database ${database}).\n`

test.skipIf(!asRoot)("a `..` after a link, in the path or in a link's target, reaches the service's folder", () => {
  symlinkSync(join(dir, 'links', 'far'), join(dir, 'shortcut'))
  const spelt = `${dir}/shortcut/../state/storeloc.db` // the system reads links/state
  const typed = runAsUser(65533, spelt, 'cli/main.ts', ['locator', 'list'], { PATH: sudoPath })
  expect({ code: typed.code, stderr: typed.stderr }).toEqual({ code: 1, stderr: hidden(spelt) })

  // A link whose target goes up from the real folder it is in, itself reached by a link.
  symlinkSync('../state/storeloc.db', join(dir, 'links', 'far', 'storeloc.db'))
  const linked = `${dir}/shortcut/storeloc.db`
  const byLink = runAsUser(65533, linked, 'cli/main.ts', ['locator', 'list'], { PATH: sudoPath })
  expect({ code: byLink.code, stderr: byLink.stderr }).toEqual({ code: 1, stderr: hidden(linked) })
})

test.skipIf(!asRoot)("a link to a folder inside the service's folder: that folder is named, not No database", () => {
  mkdirSync(join(state, 'sub'))
  symlinkSync('links/state/sub', join(dir, 'into'))
  for (const spelt of [`${dir}/into/../storeloc.db`, `${dir}/into/storeloc.db`]) {
    const r = runAsUser(65533, spelt, 'cli/main.ts', ['locator', 'list'], { PATH: sudoPath })
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: hidden(spelt) })
  }
})
