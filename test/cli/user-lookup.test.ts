// Whose a file is, as the messages name it: users are looked up as the system looks them up
// (getent: /etc/passwd, LDAP, systemd's dynamic users), and a person is never told to sudo to
// themselves. As root here, the commands run as other users (setpriv), whom file modes bind.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { chmodSync, chownSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createLocator } from '../../src/operator'
import { openStore } from '../../src/store'
import { tempDir } from '../helpers'
import { AGAIN, asRoot, keyLineOf, ROOT, runAsUser, SETPRIV } from './as-user'

/** Users a directory service knows and /etc/passwd does not, as getent gives them. */
const KNOWN = {
  4242: 'ldapsvc:*:4242:4242::/var/lib/ldapsvc:/usr/sbin/nologin',
  // A person: a uid useradd gives people, a home under /home, a login shell.
  4444: 'dev:*:4444:4444::/home/dev:/bin/bash',
  // A service's user with a login shell, as PostgreSQL's postgres has: a system uid, its home elsewhere.
  421: 'pgsvc:*:421:421::/var/lib/pgsvc:/bin/bash',
}
let dir: string
let bin: string
beforeEach(() => {
  dir = tempDir()
  chmodSync(dir, 0o755)
  // A getent that knows the users above, and asks the system's for any other; and a sudo (that
  // runs the command as it is), as on a host the service runs on under systemd.
  bin = join(dir, 'bin')
  mkdirSync(bin, { mode: 0o755 })
  const known = Object.entries(KNOWN).map(([uid, line]) => `  ${uid}) echo '${line}'; exit 0 ;;\n`)
  writeFileSync(
    join(bin, 'getent'),
    `#!/bin/sh\n[ "$1" = passwd ] && case "$2" in\n${known.join('')}esac\nexec /usr/bin/getent "$@"\n`,
    { mode: 0o755 },
  )
  writeFileSync(join(bin, 'sudo'), '#!/bin/sh\nexec "$@"\n', { mode: 0o755 })
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** `src/<script> ...argv` as uid `uid` on `database`, with the getent above first on the PATH. */
const runAs = (uid: number, database: string, script: string, ...argv: (string | Record<string, string>)[]) =>
  runOn(`${bin}:${process.env.PATH}`, uid, database, script, ...argv)

/** `src/<script> ...argv` as uid `uid` on `database`, with `path` as the PATH, and `env` added. */
function runOn(
  path: string,
  uid: number,
  database: string,
  script: string,
  ...argv: (string | Record<string, string>)[]
) {
  const env = argv.find((a) => typeof a !== 'string') ?? {}
  const words = argv.filter((a) => typeof a === 'string')
  return runAsUser(uid, database, script, words, { PATH: path, ...env })
}

/** A folder of `uid`'s, of `mode`, with a database in it, the files `uid`'s too. */
function folderOf(uid: number, mode: number, name = `of-${uid}`): { folder: string; database: string } {
  const folder = join(dir, name)
  mkdirSync(folder)
  const database = join(folder, 'storeloc.db')
  const store = openStore(database)
  createLocator(store, 'Shop')
  store.close()
  for (const f of ['', '-wal', '-shm']) {
    try {
      chownSync(`${database}${f}`, uid, uid)
    } catch {
      // not there: SQLite removed it at the close
    }
  }
  chownSync(folder, uid, uid)
  chmodSync(folder, mode)
  return { folder, database }
}

/** The line of a first start as `uid` on a new database in `folder` that says how to make the key. */
const keyLine = async (uid: number, folder: string): Promise<string> =>
  (await keyLineOf(uid, join(folder, 'storeloc.db'), { PATH: `${bin}:${process.env.PATH}` })).line

test.skipIf(!asRoot)(
  "a service's user known to the system, not to /etc/passwd, is named as the system names it",
  async () => {
    // systemd's StateDirectory: the folder the service user's, mode 0750.
    const folder = join(dir, 'state')
    mkdirSync(folder)
    chownSync(folder, 4242, 4242)
    chmodSync(folder, 0o750)
    expect((await keyLine(4242, folder)).trim()).toStartWith(`sudo -u ldapsvc env DATABASE_PATH=${folder}/storeloc.db `)
    // Another user on its files: told whose they are by name, and to run the command as that user.
    chmodSync(folder, 0o755)
    const database = join(folder, 'storeloc.db')
    expect(runAs(65534, database, 'cli/main.ts', 'locator', 'list').stderr).toBe(
      `storeloc: unable to open database file (database ${database}). ${database} belongs to ldapsvc (uid 4242), mode 0600, and this command runs as uid 65534: run it as ldapsvc, the service's user (sudo -u ldapsvc ${AGAIN} locator list --database ${database}).\n`,
    )
    // With no getent (macOS, a slim image), /etc/passwd names those it has.
    chownSync(database, 65533, 65533)
    chownSync(folder, 65533, 65533)
    expect(runOn(join(dir, 'none'), 65534, database, 'cli/main.ts', 'locator', 'list').stderr).toContain(
      `${database} belongs to uid 65533, mode 0600`,
    )
    chownSync(database, 0, 0)
    chownSync(folder, 0, 0)
    expect(runOn(join(dir, 'none'), 65534, database, 'cli/main.ts', 'locator', 'list').stderr).toContain(
      `${database} belongs to root (uid 0), mode 0600, and this command runs as uid 65534: run it as root`,
    )
    // A uid no lookup knows is named by its number; run by setpriv under sudo, where there is one.
    chownSync(database, 4343, 4343)
    chownSync(folder, 4343, 4343)
    expect(runAs(65534, database, 'cli/main.ts', 'locator', 'list').stderr).toContain(
      `${database} belongs to uid 4343, mode 0600, and this command runs as uid 65534: run it as that user, the service's user (sudo setpriv --reuid=4343 --regid=4343 --clear-groups ${AGAIN} locator list`,
    )
  },
)

test.skipIf(!asRoot)(
  'a getent that hangs or prints no entry gives way to /etc/passwd',
  () => {
    const { database } = folderOf(0, 0o755)
    const said = `${database} belongs to root (uid 0), mode 0600, and this command runs as uid 65534: run it as root`
    for (const [name, body] of [
      // A directory service that does not answer (an LDAP server down): nss waits on it.
      ['hangs', 'exec sleep 600'],
      ['prints no entry', 'echo "getent: see the manual"; exit 0'],
    ] as const) {
      const odd = join(dir, name.replaceAll(' ', '-'))
      mkdirSync(odd)
      writeFileSync(join(odd, 'getent'), `#!/bin/sh\n${body}\n`, { mode: 0o755 })
      // Bounded here so that a CLI that waits for it ends, and fails, rather than holding the run.
      const p = runAsUser(
        65534,
        database,
        'cli/main.ts',
        ['locator', 'list'],
        { PATH: `${odd}:${process.env.PATH}` },
        25_000,
      )
      expect({ name, stderr: p.stderr }).toEqual({ name, stderr: expect.stringContaining(said) })
    }
  },
  60_000,
)

test.skipIf(!asRoot)(
  'a person whose files are for them alone (umask 077) is never told to sudo to themselves',
  async () => {
    const uid = 4444
    // A developer's data/ made under umask 077: the folder 0700, the files 0600, all theirs.
    const folder = join(dir, 'data')
    mkdirSync(folder)
    chownSync(folder, uid, uid)
    chmodSync(folder, 0o700)
    const line = (await keyLine(uid, folder)).trim()
    expect(line).toStartWith(`env DATABASE_PATH=${folder}/storeloc.db `)
    // Their own folder they took search from: the mode to give back, not a user to run as.
    const own = folderOf(uid, 0o600)
    const said = runAs(uid, own.database, 'cli/main.ts', 'locator', 'list')
    expect({ code: said.code, stderr: said.stderr }).toEqual({
      code: 1,
      stderr: `storeloc: ${own.database} cannot be seen by this command: its folder ${own.folder} is this user's own (uid ${uid}), mode 0600, which lets no one look into it: let it (chmod u+rwx ${own.folder}), then run this command again.\n`,
    })
    expect(said.stderr).not.toContain('sudo')
    chmodSync(own.folder, 0o700)
    expect(runAs(uid, own.database, 'cli/main.ts', 'locator', 'list').code).toBe(0)
  },
)

test.skipIf(!asRoot)("under npm run cli, the command to run as the service's user runs pasted in any folder", () => {
  // The service's folder (nobody's, 0750), its name with a space and a quote in it.
  const { database } = folderOf(65534, 0o750, "it's here")
  // sudo as it is by default: env_reset drops the caller's variables and keeps a short PATH.
  writeFileSync(
    join(bin, 'sudo'),
    `#!/bin/sh\n[ "$1" = -u ] || exit 9\nuid=$(id -u "$2"); shift 2\nexec env -i PATH=/usr/bin:/bin ${SETPRIV} --reuid=$uid --regid=$uid --clear-groups "$@"\n`,
    { mode: 0o755 },
  )
  const npm = { npm_lifecycle_event: 'cli', npm_package_name: 'storeloc', npm_config_user_agent: 'npm/11.0.0 node/v22' }
  for (const launch of [
    npm,
    { ...npm, npm_config_user_agent: 'bun/1.4.5 npm/?' },
    { ...npm, npm_lifecycle_event: 'npx', npm_package_name: 'their-site' },
  ]) {
    // Typed by another user, as `npm run -s cli -- locator list` in the package's folder.
    const said = runAs(65533, database, 'cli/main.ts', 'locator', 'list', { ...launch, INIT_CWD: ROOT }).stderr
    const line = /\((sudo -u nobody [^)]*)\)\.\n$/.exec(said)?.[1] ?? said
    expect({ launch: launch.npm_config_user_agent, line }).toEqual({
      launch: launch.npm_config_user_agent,
      line: `sudo -u nobody ${process.execPath} ${join(ROOT, 'src/storeloc.ts')} locator list --database '${database.replaceAll("'", "'\\''")}'`,
    })
    for (const cwd of [dir, '/']) {
      const pasted = Bun.spawnSync(['sh', '-c', `${line} --json`], { cwd, env: { PATH: `${bin}:/usr/bin:/bin` } })
      expect({ cwd, code: pasted.exitCode, stderr: pasted.stderr.toString() }).toEqual({ cwd, code: 0, stderr: '' })
      expect(JSON.parse(pasted.stdout.toString())[0].name).toBe('Shop')
    }
  }
})

test.skipIf(!asRoot)("a plain storeloc launch gives a command that runs on sudo's PATH, in any folder", () => {
  const { database } = folderOf(65534, 0o750, "it's here")
  // sudo as it is by default: env_reset drops the caller's variables and keeps a short PATH.
  writeFileSync(
    join(bin, 'sudo'),
    `#!/bin/sh\n[ "$1" = -u ] || exit 9\nuid=$(id -u "$2"); shift 2\nexec env -i PATH=/usr/bin:/bin ${SETPRIV} --reuid=$uid --regid=$uid --clear-groups "$@"\n`,
    { mode: 0o755 },
  )
  // A project the package is installed in: its storeloc is on this shell's PATH only.
  const project = join(dir, 'project')
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true })
  symlinkSync(join(ROOT, 'bin', 'storeloc.js'), join(project, 'node_modules', '.bin', 'storeloc'))
  const typed = Bun.spawnSync(
    [SETPRIV, '--reuid=65533', '--regid=65533', '--clear-groups', 'storeloc', 'locator', 'list'],
    {
      cwd: project,
      env: { PATH: `${project}/node_modules/.bin:${bin}:/usr/bin:/bin`, DATABASE_PATH: database, GEOCODER: 'none' },
    },
  )
  const said = typed.stderr.toString()
  const line = /\((sudo -u nobody [^)]*)\)\.\n$/.exec(said)?.[1] ?? said
  for (const cwd of [dir, '/']) {
    const pasted = Bun.spawnSync(['sh', '-c', `${line} --json`], { cwd, env: { PATH: `${bin}:/usr/bin:/bin` } })
    expect({ line, cwd, code: pasted.exitCode, stderr: pasted.stderr.toString() }).toEqual({
      line,
      cwd,
      code: 0,
      stderr: '',
    })
    expect(JSON.parse(pasted.stdout.toString())[0].name).toBe('Shop')
  }
})

test.skipIf(!asRoot)("a service's user with a login shell is told from a person by its uid and its home", async () => {
  // pgsvc (uid 421, home /var/lib/pgsvc, bash) is a service's; dev (uid 4444, home /home/dev) a
  // person's. In a folder closed to others, or with files closed in a folder open to all.
  for (const [uid, mode, before] of [
    [421, 0o750, 'sudo -u pgsvc '],
    [421, 0o755, 'sudo -u pgsvc '],
    [4444, 0o750, ''],
    [4444, 0o755, ''],
  ] as const) {
    const folder = join(dir, `own-${uid}-${mode.toString(8)}`)
    mkdirSync(folder)
    chownSync(folder, uid, uid)
    chmodSync(folder, mode)
    const line = (await keyLine(uid, folder)).trim()
    const start = `${before}env DATABASE_PATH=${folder}/storeloc.db `
    expect({ uid, mode, start: line.slice(0, start.length) }).toEqual({ uid, mode, start })
  }
})
