// The CLI run by a user who is not the database's owner: an operator who typed a command as
// themselves, not as the service's user, whose files are for their owner only (mode 0600). The
// command says whose the file is and how to run it as them, not SQLite's bare "unable to open".
// As root here, the commands run as nobody (setpriv), whom file modes bind.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { createLocator } from '../../src/operator'
import { openStore } from '../../src/store'
import { tempDir } from '../helpers'
import { AGAIN, asRoot, asUser, bunOn, keyLineOf, ROOT, run, runAsUser, toolsOnly, withSudo } from './as-user'

let dir: string
let path: string
let locator: string
/** The PATH of the runs: sudo installed, as on a host the service runs on under systemd. */
let sudoPath: string
beforeEach(() => {
  dir = tempDir()
  chmodSync(dir, 0o755) // the folder open to all, as /var/lib/storeloc is not: the file's own mode decides
  path = join(dir, 'storeloc.db')
  const store = openStore(path) // mode 0600, root's
  locator = createLocator(store, 'Shop').locator.id
  store.close()
  sudoPath = withSudo(dir)
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** `src/<script> ...argv` as uid `uid`, on the database at `database`, with `env` added. */
const runWith = (env: Record<string, string>, uid: number, database: string, script: string, ...argv: string[]) =>
  runAsUser(uid, database, script, argv, { PATH: sudoPath, ...env })
const runAs = (uid: number, database: string, script: string, ...argv: string[]) =>
  runWith({}, uid, database, script, ...argv)
const asNobody = (...argv: string[]) => runAs(65534, path, 'cli/main.ts', ...argv)

test.skipIf(!asRoot)('a command on a database it may not open names its owner and the user to run it as', () => {
  for (const argv of [
    ['key', 'create', locator],
    ['locator', 'list'],
  ]) {
    const r = asNobody(...argv)
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `storeloc: unable to open database file (database ${path}). ${path} belongs to root (uid 0), mode 0600, and this command runs as uid 65534: run it as root, the service's user (sudo -u root ${AGAIN} ${argv.join(' ')} --database ${path}).\n`,
    })
  }
  // A secret key typed where a key id goes is not printed back, as other messages redact it.
  const secret = `sk_${'Xy7'.repeat(14)}`
  const typed = asNobody('key', 'revoke', secret)
  expect([typed.code, typed.stderr.includes(secret)]).toEqual([1, false])
  expect(typed.stderr).toEndWith(`(sudo -u root ${AGAIN} key revoke sk_[redacted] --database ${path}).\n`)
  const doctor = asNobody('doctor', '--json')
  expect(doctor.code).toBe(1)
  const storage = JSON.parse(doctor.stdout).checks.find((c: { check: string }) => c.check === 'storage')
  expect(storage.problems[0].fix).toStartWith(`${path} belongs to root (uid 0), mode 0600`)
})

/**
 * systemd's layout (docs/operations.md): the folder is the service's user's (here nobody), mode
 * 0750; in it, the database at `made` by a command run as root, or handed to nobody.
 */
function stateDirectory(rootsFile: boolean): { folder: string; database: string } {
  const folder = join(dir, 'state')
  mkdirSync(folder)
  const database = join(folder, 'storeloc.db')
  const store = openStore(database)
  createLocator(store, 'Shop')
  store.close()
  if (!rootsFile) for (const f of readdirSync(folder)) chownSync(join(folder, f), 65534, 65534)
  chownSync(folder, 65534, 65534)
  chmodSync(folder, 0o750)
  return { folder, database }
}

test.skipIf(!asRoot)("a file made by root in the service's folder: the service's user is told to take it back", () => {
  const { folder, database } = stateDirectory(true)
  const files = [database, `${database}-wal`, `${database}-shm`].filter((f) => existsSync(f)).join(' ')
  const given = `${database} belongs to root (uid 0), mode 0600, but its folder ${folder} to nobody (uid 65534), the service's user, who must own the file too: give it back (sudo chown nobody: ${files})`
  // The CLI, the doctor, and the service as systemd starts it (with workers too, whose primary
  // opens the database first): each says how to mend it.
  expectGiven(database, given)
  // Another user, not root: told to give it back, then to run as the service's user. (The folder
  // opened to all here, so that the file can be seen at all.)
  chmodSync(folder, 0o755)
  expect(runAs(65533, database, 'cli/main.ts', 'locator', 'list').stderr).toBe(
    `storeloc: unable to open database file (database ${database}). ${given}, then run the command as nobody (sudo -u nobody ${AGAIN} locator list --database ${database}).\n`,
  )
})

test.skipIf(!asRoot)(
  "an operator who may not search the service's folder is told whose it is, not that no database is there",
  () => {
    const { folder, database } = stateDirectory(false)
    const hidden = (argv: string[]) =>
      `${database} cannot be seen by this command: its folder ${folder} belongs to nobody (uid 65534), mode 0750, and this command runs as uid 65533. Run it as nobody, the service's user (sudo -u nobody ${AGAIN} ${argv.join(' ')} --database ${database}).`
    for (const argv of [
      ['locator', 'list'],
      ['backup', join(dir, 'b.db')],
    ])
      expect(runAs(65533, database, 'cli/main.ts', ...argv)).toEqual({
        code: 1,
        stdout: '',
        stderr: `storeloc: ${hidden(argv)}\n`,
      })
    // A command that would make a new database, or replace it: the system's refusal, then the same.
    const backup = join(dir, 'root.db')
    expect(runAs(0, database, 'cli/main.ts', 'backup', backup).code).toBe(0)
    chmodSync(backup, 0o644)
    for (const argv of [
      ['locator', 'create', '--name', 'Second'],
      ['restore', backup],
    ]) {
      const r = runAs(65533, database, 'cli/main.ts', ...argv)
      expect({ code: r.code, end: r.stderr.slice(-hidden(argv).length - 1) }).toEqual({
        code: 1,
        end: `${hidden(argv)}\n`,
      })
    }
    // As the service's user, the same commands work.
    expect(runAs(65534, database, 'cli/main.ts', 'locator', 'list').code).toBe(0)
  },
)

test.skipIf(!asRoot)(
  "the command to run as the service's user, pasted under sudo (env_reset), acts on the database named",
  () => {
    const { database } = stateDirectory(false)
    // sudo as it is by default: env_reset drops the caller's variables, DATABASE_PATH too.
    const bin = join(dir, 'bin')
    mkdirSync(bin, { mode: 0o755 })
    writeFileSync(
      join(bin, 'sudo'),
      `#!/bin/sh\n[ "$1" = -u ] || exit 9\nuid=$(id -u "$2"); shift 2\nexec env -i PATH=${bin}:/usr/bin:/bin setpriv --reuid=$uid --regid=$uid --clear-groups "$@"\n`,
      { mode: 0o755 },
    )
    writeFileSync(
      join(bin, 'storeloc'),
      `#!/bin/sh\nexec ${process.execPath} ${join(ROOT, 'src/storeloc.ts')} "$@"\n`,
      {
        mode: 0o755,
      },
    )
    // Typed as `DATABASE_PATH=... storeloc locator list` by another user, in a folder of no database.
    const said = runAs(65533, database, 'cli/main.ts', 'locator', 'list').stderr
    const line = /\((sudo -u nobody [^)]*)\)/.exec(said)?.[1] ?? said
    const pasted = Bun.spawnSync(['sh', '-c', line], { cwd: dir, env: { PATH: `${bin}:/usr/bin:/bin` } })
    expect({ code: pasted.exitCode, stderr: pasted.stderr.toString() }).toEqual({ code: 0, stderr: '' })
    expect(pasted.stdout.toString()).toContain('Shop')
    expect(existsSync(join(dir, 'data'))).toBe(false)
  },
)

/** The start's line, the CLI's and the doctor's storage fix, as nobody on `database`: each says `given`. */
function expectGiven(database: string, given: string) {
  expect(runAs(65534, database, 'cli/main.ts', 'locator', 'list')).toEqual({
    code: 1,
    stdout: '',
    stderr: `storeloc: unable to open database file (database ${database}). ${given}.\n`,
  })
  const doctor = runAs(65534, database, 'cli/main.ts', 'doctor', '--json')
  const storage = JSON.parse(doctor.stdout).checks.find((c: { check: string }) => c.check === 'storage')
  expect(storage.problems[0].fix).toStartWith(`${given}.`)
  for (const workers of ['1', '2']) {
    const start = runWith({ WORKERS: workers }, 65534, database, 'main.ts')
    expect({ workers, code: start.code }).toEqual({ workers, code: 3 })
    expect(start.stderr).toContain(
      `Cannot use the database at ${database}: this user may not write to it. ${given}. Then start again.`,
    )
  }
}

test.skipIf(!asRoot)("a -wal file of root's in the service's folder is named with its owner, as the file is", () => {
  const { folder, database } = stateDirectory(false)
  // What a command run as root leaves when it is killed: its -wal, root's, mode 0600.
  for (const f of [`${database}-wal`, `${database}-shm`]) rmSync(f, { force: true })
  writeFileSync(`${database}-wal`, '', { mode: 0o600 })
  expectGiven(
    database,
    `${database}-wal belongs to root (uid 0), mode 0600, but its folder ${folder} to nobody (uid 65534), the service's user, who must own the file too: give it back (sudo chown nobody: ${database} ${database}-wal)`,
  )
})

test.skipIf(!asRoot)('a DATABASE_PATH that is a link names the folder of the file it leads to', () => {
  const { folder, database } = stateDirectory(true)
  const links = join(dir, 'links') // root's, mode 0755: not the service's folder
  mkdirSync(links, { mode: 0o755 })
  const link = join(links, 'storeloc.db')
  symlinkSync(database, link)
  const files = [database, `${database}-wal`, `${database}-shm`].filter((f) => existsSync(f)).join(' ')
  expectGiven(
    link,
    `${link} leads to ${database}, which belongs to root (uid 0), mode 0600, but its folder ${folder} to nobody (uid 65534), the service's user, who must own the file too: give it back (sudo chown nobody: ${files})`,
  )
  // Given back, the link opens: SQLite makes the -wal beside the file, in the folder nobody writes.
  for (const f of files.split(' ')) chownSync(f, 65534, 65534)
  expect(runAs(65534, link, 'cli/main.ts', 'locator', 'list').code).toBe(0)
  // An operator who may not search the folder the link leads to is told so, not "No database".
  expect(runAs(65533, link, 'cli/main.ts', 'locator', 'list').stderr).toBe(
    `storeloc: ${link} cannot be seen by this command: its folder ${folder} belongs to nobody (uid 65534), mode 0750, and this command runs as uid 65533. Run it as nobody, the service's user (sudo -u nobody ${AGAIN} locator list --database ${link}).\n`,
  )
})

test.skipIf(!asRoot)('a start in a folder it may not write, or on a read-only file system, names what and why', () => {
  const folder = join(dir, 'ro')
  mkdirSync(folder, { mode: 0o755 }) // root's: nobody may not make the -wal there
  const database = join(folder, 'storeloc.db')
  const store = openStore(database)
  store.close()
  for (const f of [`${database}-wal`, `${database}-shm`]) rmSync(f, { force: true })
  chownSync(database, 65534, 65534)
  const fix =
    "Make them writable by the service's user, or the file system read-write (under systemd, a folder outside the unit's StateDirectory needs ReadWritePaths=), then start again."
  const start = runAs(65534, database, 'main.ts')
  expect(start.code).toBe(3)
  expect(start.stderr).toContain(
    `Cannot use the database at ${database}: this user may not write to it. This user (uid 65534) may not write its folder ${folder} (its mode (0755) or owner). ${fix}`,
  )
  // A command as that user says the same, and that nothing was changed.
  const command = runAs(65534, database, 'cli/main.ts', 'locator', 'create', '--name', 'Second')
  expect(command.code).toBe(1)
  expect(command.stderr).toEndWith(
    ` (database ${database}). This user (uid 65534) may not write its folder ${folder} (its mode (0755) or owner). Nothing was changed: make them writable by the service's user, or the file system read-write, then run the command again.\n`,
  )
  // The folder the service's, but mounted read-only, as ProtectSystem=strict leaves a folder
  // outside the unit's StateDirectory without ReadWritePaths.
  if (Bun.which('unshare') === null) return
  chownSync(folder, 65534, 65534)
  /** `src/<script> ...argv` as nobody, with `folder` mounted read-only for it alone. */
  const readOnly = (script: string, ...argv: string[]) => {
    const mount = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
    const { code, stderr } = run(
      ['unshare', '--mount', 'sh', '-c', mount, 'sh', folder, ...asUser(65534), ...bunOn(script), ...argv],
      database,
    )
    return { code, stderr }
  }
  const mounted = `This user (uid 65534) may not write ${database} (a read-only file system), its folder ${folder} (a read-only file system).`
  const started = readOnly('main.ts')
  expect(started.code).toBe(3)
  expect(started.stderr).toContain(
    `Cannot use the database at ${database}: this user may not write to it. ${mounted} ${fix}`,
  )
  expect(readOnly('cli/main.ts', 'locator', 'create', '--name', 'Second')).toEqual({
    code: 1,
    stderr: `storeloc: unable to open database file (database ${database}). ${mounted} Nothing was changed: make them writable by the service's user, or the file system read-write, then run the command again.\n`,
  })
})

/** The line of a first start as `uid` (nobody), in a folder of its own of `mode`, that says how to make the key. */
async function keyLine(
  mode: number,
  uid = 65534,
  env: Record<string, string> = {},
): Promise<{ database: string; line: string; text: string }> {
  const folder = join(dir, `state-${mode.toString(8)}-${uid}-${Object.keys(env).length}`)
  mkdirSync(folder)
  chmodSync(folder, mode)
  chownSync(folder, uid, uid)
  const database = join(folder, 'storeloc.db')
  return { database, ...(await keyLineOf(uid, database, { PATH: sudoPath, ...env })) }
}

test.skipIf(!asRoot)(
  "a first start gives the key's command as the service's user where only it may open the files",
  async () => {
    // Typed by an operator, who may not look into the folder (systemd's StateDirectory, 0750).
    const closed = await keyLine(0o750)
    expect(closed.line).toStartWith(`  sudo -u nobody env DATABASE_PATH=${closed.database} `)
    // A folder open to all, its files the service's alone (0600): run by anyone else, the command
    // could not open them, so it is the service user's (nobody's: no login shell) all the same.
    const open = await keyLine(0o755)
    expect(open.line).toStartWith(`  sudo -u nobody env DATABASE_PATH=${open.database} `)
    const other = run(['sh', '-c', `${open.line.trim().replace(/^sudo -u nobody /, '')} --json`], open.database)
    expect(other.code).toBe(0) // as root here, who may open them: the line itself is sound
    const refused = run([...asUser(65533), 'sh', '-c', open.line.trim().replace(/^sudo -u nobody /, '')], open.database)
    expect(refused.stderr).toContain(`${open.database} belongs to nobody (uid 65534), mode 0600`)
    // A person's own files, open to all or not: user-lookup, whose getent names a person.
    // A service run as root, its folder closed: an operator reaches its files, root's, through
    // sudo (here one that runs the command as it is, as root). Without sudo (a container), whoever
    // reads the log is root: the command as it is.
    const root = await keyLine(0o750, 0)
    expect(root.line).toStartWith(`  sudo env DATABASE_PATH=${root.database} `)
    const pasted = Bun.spawnSync(['sh', '-c', `${root.line.trim()} --json`], {
      cwd: '/',
      env: { ...process.env, PATH: sudoPath },
    })
    expect({ code: pasted.exitCode, stderr: pasted.stderr.toString() }).toEqual({ code: 0, stderr: '' })
    expect(JSON.parse(pasted.stdout.toString()).secret_key).toStartWith('sk_')
    // Root's files 0600 in a folder open to all: an operator reaches them through sudo too.
    expect((await keyLine(0o755, 0)).line).toStartWith('  sudo env DATABASE_PATH=')
    const noSudo = await keyLine(0o750, 0, { PATH: toolsOnly(dir, ['getent']) })
    expect(noSudo.line).toStartWith('  env DATABASE_PATH=')
  },
)

test.skipIf(!asRoot)('a start on a database it may read but not write exits 3, as the doctor says', () => {
  // SQLite opens such a file read-only without a word: a start that went on would answer every
  // write 503. A file of nobody's that it may not write, then a -shm of root's it may only read.
  const { folder, database } = stateDirectory(false)
  const fix =
    "Make them writable by the service's user, or the file system read-write (under systemd, a folder outside the unit's StateDirectory needs ReadWritePaths=), then start again."
  const cases: [() => void, string][] = [
    [
      () => chmodSync(database, 0o400),
      `Cannot use the database at ${database}: this user may not write to it. This user (uid 65534) may not write ${database} (its mode (0400) or owner). ${fix}`,
    ],
    [
      () => {
        chmodSync(database, 0o600)
        writeFileSync(`${database}-shm`, '', { mode: 0o644 }) // root's, as a command run as root leaves it
      },
      `${database}-shm belongs to root (uid 0), mode 0644, but its folder ${folder} to nobody (uid 65534), the service's user, who must own the file too: give it back (sudo chown nobody: ${database} `,
    ],
  ]
  for (const [make, line] of cases) {
    make()
    for (const workers of ['1', '2']) {
      // A start that goes on is stopped after 15 s: its exit code is then null.
      const p = run([...asUser(65534), ...bunOn('main.ts')], database, { WORKERS: workers, PATH: sudoPath }, 15_000)
      expect({ workers, code: p.code }).toEqual({ workers, code: 3 })
      expect(p.stderr).toContain(line)
    }
    for (const f of [`${database}-wal`, `${database}-shm`]) rmSync(f, { force: true })
  }
})

test.skipIf(!asRoot)('a start on a closed database file of mode 0444 says so and leaves nothing beside it', () => {
  const folder = join(dir, 'state')
  mkdirSync(folder)
  chownSync(folder, 65534, 65534)
  const database = join(folder, 'storeloc.db')
  expect(runAsUser(65534, database, 'cli/main.ts', ['locator', 'create', '--name', 'Shop']).code).toBe(0)
  chmodSync(database, 0o444)
  const p = run([...asUser(65534), ...bunOn('main.ts')], database, {}, 15_000)
  expect(p.code).toBe(3)
  expect(p.stderr).toContain(`This user (uid 65534) may not write ${database} (its mode (0444) or owner). Make them`)
  // SQLite would open it read-only and make a -wal and -shm of its mode, which outlast its chmod.
  expect(readdirSync(folder)).toEqual(['storeloc.db'])
})

test.skipIf(!asRoot)('a database in memory starts in a folder the user may not write', async () => {
  // Nothing is written beside it: the working folder (the repository, root's) is no folder of its.
  // Read until it listens or ends, however long a loaded machine takes.
  const { text } = await keyLineOf(65534, ':memory:')
  expect(text).toContain('"listening"')
})

test.skipIf(!asRoot)('a DATABASE_PATH that names a folder, or a link to one, is told so', () => {
  // The folder the service's, its parent root's: the parent is not what is wrong.
  const folder = join(dir, 'data')
  mkdirSync(folder)
  chownSync(folder, 65534, 65534)
  const link = join(dir, 'data-link')
  symlinkSync(folder, link)
  for (const [database, said] of [
    [folder, `${folder} is a folder, not a database file: set DATABASE_PATH to the database file.`],
    [link, `${link} leads to the folder ${folder}, not a database file: set DATABASE_PATH to the database file.`],
  ] as const) {
    expect(runAs(65534, database, 'cli/main.ts', 'locator', 'list')).toEqual({
      code: 1,
      stdout: '',
      stderr: `storeloc: unable to open database file (database ${database}). ${said}\n`,
    })
    const start = runAs(65534, database, 'main.ts')
    expect(start.code).toBe(3)
    expect(start.stderr).toContain(`Cannot use the database at ${database}: unable to open database file. ${said}`)
    const doctor = JSON.parse(runAs(65534, database, 'cli/main.ts', 'doctor', '--json').stdout)
    const check = (name: string) => doctor.checks.find((c: { check: string }) => c.check === name)
    expect(check('database').problems[0].fix).toBe(said)
    expect(check('storage').problems).toEqual([])
  }
})

test('a new database made through a link to no file yet is for its owner only, as any new one', () => {
  // A link put in place before the file it names is made (docs/operations.md, another disk): the
  // file holds key hashes and contacts, whatever the umask.
  const target = join(dir, 'disk', 'storeloc.db')
  mkdirSync(join(dir, 'disk'))
  const link = join(dir, 'link.db')
  symlinkSync(join('disk', 'storeloc.db'), link) // relative, as `ln -s` is often given
  const chain = join(dir, 'chain.db')
  symlinkSync(link, chain)
  const p = run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'A'], chain)
  expect({ code: p.code, stderr: p.stderr }).toEqual({ code: 0, stderr: '' })
  expect((statSync(target).mode & 0o777).toString(8)).toBe('600')
})

test("a link to no file yet whose target has `..`, reached through a linked folder: that file is made, its owner's", () => {
  // real/inner/db.link -> ../b/storeloc.db names real/b/storeloc.db; reached as via/db.link
  // (via -> real/inner), `..` is still real's: the b beside via is another folder, left empty.
  for (const folder of ['real/inner', 'real/b', 'b']) mkdirSync(join(dir, folder), { recursive: true })
  symlinkSync(join('..', 'b', 'storeloc.db'), join(dir, 'real', 'inner', 'db.link'))
  symlinkSync(join('real', 'inner'), join(dir, 'via'))
  const p = run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'A'], join(dir, 'via', 'db.link'))
  expect({ code: p.code, stderr: p.stderr }).toEqual({ code: 0, stderr: '' })
  expect((statSync(join(dir, 'real', 'b', 'storeloc.db')).mode & 0o777).toString(8)).toBe('600')
  expect(readdirSync(join(dir, 'b'))).toEqual([])
})

test("a link to no file yet whose target's `..` follows a linked folder: the file the system names is made, its owner's", () => {
  // real/inner/db.link -> ../lnk/../b/storeloc.db, real/lnk -> ../other/x: real/lnk/.. is other.
  for (const folder of ['real/inner', 'real/b', 'other/x', 'other/b']) mkdirSync(join(dir, folder), { recursive: true })
  symlinkSync('../lnk/../b/storeloc.db', join(dir, 'real', 'inner', 'db.link'))
  symlinkSync(join('..', 'other', 'x'), join(dir, 'real', 'lnk'))
  const p = run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'A'], join(dir, 'real', 'inner', 'db.link'))
  expect({ code: p.code, stderr: p.stderr }).toEqual({ code: 0, stderr: '' })
  expect((statSync(join(dir, 'other', 'b', 'storeloc.db')).mode & 0o777).toString(8)).toBe('600')
  expect(readdirSync(join(dir, 'real', 'b'))).toEqual([])
})

test('a DATABASE_PATH that is a link into a folder not there names that folder and how to make it', () => {
  // A link to another disk not mounted: a new file beside the link is not wanted, nor the folder
  // made on the disk under the mount point.
  const folder = join(dir, 'disk', 'storeloc')
  const link = join(dir, 'link.db')
  symlinkSync(join('disk', 'storeloc', 'storeloc.db'), link)
  const said = `${link} leads to ${join(folder, 'storeloc.db')}, whose folder ${folder} is not there: mount the disk it is on, or make the folder (mkdir -p ${folder}) writable by the service's user, or set DATABASE_PATH to another file.`
  // `locator create` gets SQLite's reason first; the others find no file, and say only this.
  for (const [argv, before] of [
    [['locator', 'create', '--name', 'A'], `unable to open database file (database ${link}). `],
    [['locator', 'list'], ''],
    [['doctor'], ''],
  ] as const) {
    const r = run([...bunOn('cli/main.ts'), ...argv], link)
    expect({ argv, ...r }).toEqual({ argv, code: 1, stdout: '', stderr: `storeloc: ${before}${said}\n` })
  }
  const start = run([...bunOn('main.ts')], link, {}, 15_000)
  expect(start.code).toBe(3)
  expect(start.stderr).toContain(`Cannot use the database at ${link}: unable to open database file. ${said}`)
  expect(existsSync(join(dir, 'disk'))).toBe(false)
  // Made as it says, the link opens.
  mkdirSync(folder, { recursive: true })
  expect(run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'A'], link).code).toBe(0)
})

test.skipIf(!asRoot)(
  'a service user with no name is given as setpriv takes it: sudo refuses an unknown #uid',
  async () => {
    // sudo 1.8.30 and later refuse `sudo -u '#4242'` for a uid in no password database
    // (runas_allow_unknown_id is off by default); setpriv, run as root, takes any uid.
    const uid = 4242
    const setpriv = `setpriv --reuid=${uid} --regid=${uid} --clear-groups`
    // A PATH with no sudo (a container's), and one with a sudo on it.
    const tools = toolsOnly(dir, ['getent', 'setpriv'])
    const sudoBin = sudoPath.split(':')[0]!
    const sudoed = await keyLine(0o750, uid, { PATH: `${sudoBin}:${tools}`, LOG_REQUESTS: '1' })
    expect(sudoed.line).toStartWith(`  sudo ${setpriv} env DATABASE_PATH=${sudoed.database} `)
    // Without sudo, the line is one root runs as it is, and says so.
    const { database, line, text } = await keyLine(0o750, uid, { PATH: tools })
    expect(line).toStartWith(`  ${setpriv} env DATABASE_PATH=${database} `)
    expect(text).toContain('Make its key where only you see it (the key is shown once), as root:\n')
    // Pasted (as root here), it makes the key, and the file stays the service's.
    const pasted = Bun.spawnSync(['sh', '-c', line.trim()], { cwd: '/' })
    expect({ code: pasted.exitCode, stderr: pasted.stderr.toString() }).toEqual({ code: 0, stderr: '' })
    expect(pasted.stdout.toString()).toContain('sk_')
    // A command run as another user on that user's file says the same.
    chmodSync(dirname(database), 0o755)
    for (const [path, as] of [
      [tools, `as root: ${setpriv}`],
      [`${sudoBin}:${tools}`, `sudo ${setpriv}`],
    ] as const)
      expect(runWith({ PATH: path }, 65534, database, 'cli/main.ts', 'locator', 'list').stderr).toEndWith(
        `run it as that user, the service's user (${as} ${AGAIN} locator list --database ${database}).\n`,
      )
    // A file of root's there: the chown given is one chown takes (it refuses `4242:`), pasted as is.
    chmodSync(dirname(database), 0o750)
    chownSync(database, 0, 0)
    const said = runAs(uid, database, 'cli/main.ts', 'locator', 'list').stderr
    const chown = /\((sudo chown [^)]*)\)/.exec(said)?.[1] ?? said
    expect(chown).toStartWith(`sudo chown ${uid}:${uid} ${database}`)
    expect(Bun.spawnSync(['sh', '-c', chown.replace(/^sudo /, '')]).exitCode).toBe(0)
    expect(runAs(uid, database, 'cli/main.ts', 'locator', 'list').code).toBe(0)
  },
)

test.skipIf(!asRoot)(
  'a folder this user may not write, with no -wal file there, still serves the commands that only read',
  () => {
    // A copy on a read-only mount, or in a folder of root's: SQLite can make no -wal or -shm there.
    const folder = join(dir, 'ro')
    mkdirSync(folder, { mode: 0o755 })
    const database = join(folder, 'storeloc.db')
    // Made by a process that has ended: its last connection closed, SQLite removed the -wal.
    const made = run([...bunOn('cli/main.ts'), 'locator', 'create', '--name', 'Read only', '--json'], database)
    const id = JSON.parse(made.stdout).locator.id as string
    expect(readdirSync(folder)).toEqual(['storeloc.db'])
    chownSync(database, 65534, 65534)
    const asReader = (...argv: string[]) => runAs(65534, database, 'cli/main.ts', ...argv)
    for (const argv of [
      ['locator', 'list'],
      ['locator', 'show', id],
      ['key', 'list', id],
      ['custom-field', 'list', id],
      ['filters', 'show', id],
      ['priority', 'show', id],
      ['locations', 'export', id],
      ['locations', 'export', id, '--format', 'csv'],
    ]) {
      const r = asReader(...argv)
      expect({ argv, code: r.code, stderr: r.stderr }).toEqual({ argv, code: 0, stderr: '' })
    }
    expect(asReader('locator', 'list').stdout).toContain('Read only')
    expect(readdirSync(folder)).toEqual(['storeloc.db'])
    // A command that writes is still refused, with what to do.
    const write = asReader('locator', 'set', id, '--name', 'Other')
    expect(write.code).toBe(1)
    expect(write.stderr).toContain(
      `This user (uid 65534) may not write its folder ${folder} (its mode (0755) or owner).`,
    )
    // A read-only mount, as root: the same.
    if (Bun.which('unshare') === null) return
    const mount = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
    const mounted = run(
      ['unshare', '--mount', 'sh', '-c', mount, 'sh', folder, ...bunOn('cli/main.ts'), 'locator', 'show', id, '--json'],
      database,
    )
    expect({ code: mounted.code, stderr: mounted.stderr }).toEqual({ code: 0, stderr: '' })
    expect(JSON.parse(mounted.stdout).name).toBe('Read only')
  },
)

test.skipIf(!asRoot)(
  "with no sudo installed, a service user's command is run by runuser or su as root, or said to be theirs",
  async () => {
    /** A folder of nobody's, mode 0750 (systemd's StateDirectory), its name with a quote: su -c takes one word. */
    const state = (name: string) => {
      const folder = join(dir, `it's ${name}`)
      mkdirSync(folder)
      chownSync(folder, 65534, 65534)
      chmodSync(folder, 0o750)
      return { folder, database: join(folder, 'storeloc.db') }
    }
    const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`
    // The service's log, on a host with no sudo: who reads it is root, who may switch users.
    for (const [name, tools, start] of [
      ['runuser', ['getent', 'runuser'], 'runuser -u nobody -- env DATABASE_PATH='],
      ['su', ['getent'], "su -s /bin/sh nobody -c 'env DATABASE_PATH="],
    ] as const) {
      const { database } = state(name)
      const { line, text } = await keyLineOf(65534, database, { PATH: toolsOnly(dir, [...tools]) })
      expect({ name, start: line.trim().slice(0, start.length) }).toEqual({ name, start })
      expect(text).toContain('Make its key where only you see it (the key is shown once), as root:\n')
      // Pasted as root, it makes the key as nobody, whose file it is.
      const pasted = Bun.spawnSync(['sh', '-c', line.trim()], {
        cwd: '/',
        env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
      })
      expect({ name, code: pasted.exitCode, stderr: pasted.stderr.toString() }).toEqual({ name, code: 0, stderr: '' })
      expect(pasted.stdout.toString()).toContain('sk_')
      expect(statSync(database).uid).toBe(65534)
    }
    // A command typed by another user, not root, who has no sudo: the line to run as that user.
    const noSudo = { PATH: toolsOnly(dir, ['getent', 'runuser']) }
    const { folder, database } = state('typed')
    expect(runAsUser(65534, database, 'cli/main.ts', ['locator', 'create', '--name', 'Shop'], noSudo).code).toBe(0)
    expect(runAsUser(65533, database, 'cli/main.ts', ['locator', 'list'], noSudo).stderr).toEndWith(
      `Run it as nobody, the service's user (as nobody: ${AGAIN} locator list --database ${quoted(database)}).\n`,
    )
    // A file of root's in the folder open to all: root gives it back, then the command is nobody's.
    chmodSync(folder, 0o755)
    chownSync(database, 0, 0)
    const files = [database, `${database}-wal`, `${database}-shm`].filter((f) => existsSync(f)).map(quoted)
    expect(runAsUser(65533, database, 'cli/main.ts', ['locator', 'list'], noSudo).stderr).toEndWith(
      `give it back (as root: chown nobody: ${files.join(' ')}), then run the command as nobody (as nobody: ${AGAIN} locator list --database ${quoted(database)}).\n`,
    )
  },
)
