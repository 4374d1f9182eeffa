// Who is a person, by the uids /etc/login.defs gives people (UID_MIN, UID_MAX), as a first start
// says how to make the key: a person runs the command as it is, a service's user through sudo.
// The start runs in a mount namespace (unshare, as root) with a fixture over /etc/login.defs.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { chmodSync, chownSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers'
import { asRoot, keyLineOf } from './as-user'

const UNSHARE = Bun.which('unshare') ?? Bun.which('unshare', { PATH: '/usr/bin:/bin' })
const FIXTURES = join(import.meta.dir, '..', 'fixtures', 'login-defs')
/** The words that run what follows with the fixture `defs` over /etc/login.defs, in a mount namespace of its own. */
const mounted = (defs: string) => [
  UNSHARE!,
  '-m',
  'sh',
  '-c',
  'mount --bind "$0" /etc/login.defs && exec "$@"',
  join(FIXTURES, defs),
]

/**
 * Why a fixture cannot be put over /etc/login.defs here, '' where it can: not root, no unshare,
 * or a container that refuses a mount namespace (no CAP_SYS_ADMIN) or has no /etc/login.defs.
 */
function cannotMount(): string {
  if (!asRoot) return 'not root with setpriv'
  if (UNSHARE === null) return 'no unshare'
  const probe = Bun.spawnSync([...mounted('hex.defs'), 'true'], { stderr: 'pipe' })
  return probe.exitCode === 0 ? '' : `unshare -m with mount --bind refused: ${probe.stderr.toString().trim()}`
}
const refused = cannotMount()
if (refused !== '') console.warn(`login-defs-person: skipped, ${refused}`)
/** A user with a login shell whose home is not under /home: its uid alone says if it is a person. */
const OPS = 'ops:*:1500:1500::/srv/ops:/bin/bash'
let dir: string
let bin: string
beforeEach(() => {
  dir = tempDir()
  chmodSync(dir, 0o755)
  bin = join(dir, 'bin')
  mkdirSync(bin, { mode: 0o755 })
  writeFileSync(
    join(bin, 'getent'),
    `#!/bin/sh\n[ "$1" = passwd ] && [ "$2" = 1500 ] && { echo '${OPS}'; exit 0; }\nexec /usr/bin/getent "$@"\n`,
    { mode: 0o755 },
  )
  writeFileSync(join(bin, 'sudo'), '#!/bin/sh\nexec "$@"\n', { mode: 0o755 })
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** The key's line of a first start as uid 1500 in a folder of its own, mode 0750, under `defs` as /etc/login.defs. */
async function keyLine(defs: string): Promise<string> {
  const folder = join(dir, defs.replace('.defs', ''))
  mkdirSync(folder)
  chownSync(folder, 1500, 1500)
  chmodSync(folder, 0o750)
  const { line } = await keyLineOf(
    1500,
    join(folder, 'storeloc.db'),
    { PATH: `${bin}:${process.env.PATH}` },
    mounted(defs),
  )
  return line.trim()
}

test.skipIf(refused !== '')(
  'a uid login.defs gives people, in hex or octal, is a person: the command as it is, no sudo',
  async () => {
    expect(await keyLine('hex.defs')).toStartWith('env DATABASE_PATH=')
    expect(await keyLine('octal.defs')).toStartWith('env DATABASE_PATH=')
    // UID_MIN "2000": uid 1500 is a service's, whose folder only it may open.
    expect(await keyLine('quoted.defs')).toStartWith('sudo -u ops env DATABASE_PATH=')
  },
  60_000,
)
