// Paths on the command line are read from where the person typed them: `npm run cli` and `bun run
// cli` run in the package's folder, yet `--file stores.csv` is the file beside the person.
// --database names the database for any command.
import { describe, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stdoutLines, unprogressed } from '../helpers'
import { dir, shellEnv, useTempDatabase } from './temp-database'

useTempDatabase()

const root = join(import.meta.dir, '..', '..')
const spawn = (cmd: string[], cwd: string, env = shellEnv()) => {
  const p = Bun.spawnSync(cmd, { cwd, env })
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: unprogressed(p.stderr.toString()) }
}
const storeloc = (argv: string[], cwd = root) => spawn([process.execPath, join(root, 'src/cli/main.ts'), ...argv], cwd)

/**
 * `npm --prefix PKG start -s -- ...argv` typed in `cwd`, on port 0, with no demo nor geocoder: npm
 * finds the package by --prefix, runs the script in its folder, and names `cwd` in INIT_CWD. In a
 * process group of its own (setsid), to be stopped whole: npm passes no signal on.
 */
const npmStart = (pkg: string, argv: readonly string[], cwd: string, env: Record<string, string> = {}) =>
  Bun.spawn(
    ['setsid', 'npm', '--prefix', pkg, 'start', '-s', '--', ...argv, '--port', '0', '--no-demo', '--geocoder', 'none'],
    { cwd, env: { ...shellEnv(), ...env }, stdout: 'pipe', stderr: 'pipe' },
  )

const CSV = 'external_id,name,address,lat,lng\nA1,Corner Shop,"1 Main St, Springfield",39.8,-89.65\n'

describe('--database FILE', () => {
  test('every command acts on the file it names, relative to where it is typed', () => {
    mkdirSync(join(dir, 'sub'))
    const made = storeloc(['locator', 'create', '--name', 'Shops', '--database', 'sub/shops.db', '--json'], dir)
    expect(made.code).toBe(0)
    expect(existsSync(join(dir, 'sub', 'shops.db'))).toBe(true)
    const id = JSON.parse(made.stdout).locator.id
    const listed = storeloc(['locator', 'list', '--json', `--database=${join(dir, 'sub', 'shops.db')}`])
    expect(listed.code).toBe(0)
    expect(JSON.parse(listed.stdout).map((l: { id: string }) => l.id)).toEqual([id])
    const twice = storeloc(['locator', 'list', '--database', 'a.db', '--database', 'b.db'], dir)
    expect([twice.code, twice.stderr.split('\n')[0]]).toEqual([2, 'storeloc: --database is given twice.'])
    // A path forgotten is said, not taken from the next option.
    const forgot = storeloc(['locator', 'create', '--name', 'X', '--database', '--json'], dir)
    expect([forgot.code, JSON.parse(forgot.stdout).message]).toEqual([2, '--database needs a path.'])
    expect(existsSync(join(dir, '--json'))).toBe(false)
  })

  test('given before the command, as `storeloc --database FILE locator list`, it names the file too', () => {
    const db = join(dir, 'first.db')
    const made = storeloc(['--database', db, 'locator', 'create', '--name', 'Shops', '--json'])
    expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: '' })
    const id = JSON.parse(made.stdout).locator.id
    const listed = storeloc([`--database=${db}`, 'locator', 'list', '--json'])
    expect(JSON.parse(listed.stdout).map((l: { id: string }) => l.id)).toEqual([id])
    const twice = storeloc(['--database', db, 'locator', 'list', '--database', 'b.db'], dir)
    expect([twice.code, twice.stderr.split('\n')[0]]).toEqual([2, 'storeloc: --database is given twice.'])
  })
})

describe('--database misspelt', () => {
  test('is named as the option it most likely is (exit 2), not read as no database at the default path', () => {
    const db = join(dir, 'shops.db')
    for (const [argv, typo] of [
      [['locator', 'list', '--databse', db], '--databse'],
      [['key', 'list', 'lct_x', `--datbase=${db}`], '--datbase'],
      [['doctor', '-database', db], '-database'],
    ] as const) {
      const r = storeloc([...argv], dir)
      expect([r.code, r.stderr.split('\n')[0]]).toEqual([
        2,
        `storeloc: Unknown option ${typo}. Did you mean --database?`,
      ])
    }
    expect(existsSync(join(dir, 'data'))).toBe(false)
  })
})

describe('--database before any command, through src/storeloc.ts', () => {
  const entry = (argv: string[], cwd = root) => spawn([process.execPath, join(root, 'src/storeloc.ts'), ...argv], cwd)

  test('help prints the usage, and serve starts on the file it names', async () => {
    const db = join(dir, 'served.db')
    for (const argv of [
      ['--database', db, 'help'],
      [`--database=${db}`, 'help'],
      ['--database', db, '--help'],
    ]) {
      const help = entry(argv)
      expect({ argv, code: help.code, usage: help.stdout.startsWith('Usage: storeloc <command>') }).toEqual({
        argv,
        code: 0,
        usage: true,
      })
    }
    const alone = entry(['--database', db])
    expect([alone.code, alone.stderr.split('\n')[0]]).toEqual([2, 'storeloc: No command given.'])
    // A path given, with no command after it; a --database with no path after it.
    for (const argv of [[`--database=${db}`], ['--database', db, `--database=${db}`]]) {
      const named = entry(argv)
      expect([argv, named.code, named.stderr.split('\n')[0]]).toEqual([argv, 2, 'storeloc: No command given.'])
    }
    const bare = entry(['--database', db, '--database'])
    expect([bare.code, bare.stderr.split('\n')[0]]).toEqual([2, 'storeloc: --database needs a path.'])
    // Another option before the command: said to come after it.
    for (const [argv, option] of [
      [['--json', 'locator', 'list'], '--json'],
      [['--database', db, '--port', '44018', 'serve'], '--port'],
    ] as const) {
      const early = entry([...argv], dir)
      const said = early.stderr ? early.stderr.split('\n')[0] : `storeloc: ${JSON.parse(early.stdout).message}`
      expect([early.code, said]).toEqual([
        2,
        `storeloc: "${option}" stands before the command: give the command first, its options after it (storeloc locator list --json, storeloc serve --port 3000).`,
      ])
    }
    expect(existsSync(join(dir, 'data'))).toBe(false)
    const serveHelp = entry(['--database', db, 'serve', '--help'])
    expect([serveHelp.code, serveHelp.stdout.split('\n')[0]]).toEqual([
      0,
      'Usage: storeloc serve [options]   (npm start -- [options])',
    ])
    const twice = entry(['--database', db, 'serve', '--database', 'b.db'])
    expect([twice.code, twice.stderr.split('\n')[0]]).toEqual([
      2,
      'Configuration error: --database is given more than once: give it once.',
    ])
    // Started, it makes its database there; stopped once it listens.
    const server = Bun.spawn(
      [
        process.execPath,
        join(root, 'src/storeloc.ts'),
        '--database',
        db,
        'serve',
        '--port',
        '44017',
        '--demo',
        '0',
        '--geocoder',
        'none',
      ],
      {
        cwd: dir,
        env: shellEnv(),
        stdout: 'pipe',
        stderr: 'pipe',
      },
    )
    try {
      for (let tries = 0; tries < 300 && !existsSync(db); tries++) await Bun.sleep(100)
      expect(existsSync(db)).toBe(true)
      expect(existsSync(join(dir, 'data', 'storeloc.db'))).toBe(false)
    } finally {
      server.kill()
      await server.exited
    }
  }, 60_000)
})

describe('npm run cli from another folder', () => {
  test('--file and a backup FILE are the ones beside the person; a missing file is named whole', () => {
    const db = join(dir, 'shops.db')
    const made = storeloc(['locator', 'create', '--name', 'Shops', '--database', db, '--json'])
    const id = JSON.parse(made.stdout).locator.id
    const here = join(dir, 'desk')
    mkdirSync(here)
    writeFileSync(join(here, 'stores.csv'), CSV)
    const npm = (...argv: string[]) => spawn(['npm', '--prefix', root, 'run', '-s', 'cli', '--', ...argv], here)
    const imported = npm('locations', 'import', id, '--file', 'stores.csv', '--database', db)
    expect([imported.code, imported.stderr]).toEqual([0, ''])
    expect(imported.stdout).toStartWith(`Imported ${join(here, 'stores.csv')} into ${id}: 1 created`)
    const missing = npm('locations', 'import', id, '--file', 'nope.csv', '--database', db)
    expect([missing.code, missing.stderr.trim()]).toEqual([1, `storeloc: No file ${join(here, 'nope.csv')}.`])
    const backup = npm('backup', 'copy.db', '--database', db)
    expect(backup.code).toBe(0)
    expect(existsSync(join(here, 'copy.db'))).toBe(true)
  }, 60_000)
})

describe('a relative DATABASE_PATH under npm run cli', () => {
  test('is read from where the command was typed, as --database is', () => {
    const here = join(dir, 'desk')
    mkdirSync(here)
    const npm = (env: Record<string, string>, ...argv: string[]) =>
      spawn(['npm', '--prefix', root, 'run', '-s', 'cli', '--', ...argv], here, { ...shellEnv(), ...env })
    const made = npm({ DATABASE_PATH: 'shops.db' }, 'locator', 'create', '--name', 'Shops', '--json')
    // Read from the package's folder, it would be made there: said, then not left behind.
    const stray = existsSync(join(root, 'shops.db'))
    for (const end of ['', '-wal', '-shm']) rmSync(join(root, `shops.db${end}`), { force: true })
    expect(stray).toBe(false)
    expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: '' })
    expect(existsSync(join(here, 'shops.db'))).toBe(true)
    const id = JSON.parse(made.stdout).locator.id
    for (const listed of [
      npm({ DATABASE_PATH: 'shops.db' }, 'locator', 'list', '--json'),
      npm({}, 'locator', 'list', '--database', 'shops.db', '--json'),
    ])
      expect(JSON.parse(listed.stdout).map((l: { id: string }) => l.id)).toEqual([id])
  }, 60_000)
  test("a .env's DATABASE_PATH is read from the package's folder, as the service reads it", () => {
    // A package of its own: Bun reads .env from the folder it runs in, the package's under npm run.
    const pkg = join(dir, 'pkg')
    mkdirSync(join(pkg, 'data', 'desk'), { recursive: true })
    copyFileSync(join(root, 'package.json'), join(pkg, 'package.json'))
    symlinkSync(join(root, 'src'), join(pkg, 'src'))
    symlinkSync(join(root, 'node_modules'), join(pkg, 'node_modules'))
    writeFileSync(join(pkg, '.env'), 'DATABASE_PATH=data/env.db\n')
    const made = spawn(
      ['npm', '--prefix', pkg, 'run', '-s', 'cli', '--', 'locator', 'create', '--name', 'Shops', '--json'],
      join(pkg, 'data', 'desk'),
    )
    expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: '' })
    expect(existsSync(join(pkg, 'data', 'desk', 'data', 'env.db'))).toBe(false)
    expect(existsSync(join(pkg, 'data', 'env.db'))).toBe(true)
  }, 60_000)
})

describe('a relative GEODATA_PATH under npm run cli', () => {
  test('is read from where the command was typed, as DATABASE_PATH is', () => {
    const here = join(dir, 'desk')
    mkdirSync(here)
    writeFileSync(join(here, 'geo.sqlite'), 'not the data\n')
    const npm = (...argv: string[]) =>
      spawn(['npm', '--prefix', root, 'run', '-s', 'cli', '--', ...argv, '--database', 'shops.db'], here, {
        ...shellEnv(),
        GEOCODER: 'embedded',
        GEODATA_PATH: 'geo.sqlite',
      })
    expect(npm('locator', 'create', '--name', 'Shops').code).toBe(0)
    const doctor = npm('doctor')
    expect(doctor.stdout).toContain(`PROBLEM  geocoder data ${join(here, 'geo.sqlite')}:`)
  }, 60_000)
})

describe('serve under npm run cli from another folder', () => {
  test('its --database, and a relative DATABASE_PATH, are the files beside the person', async () => {
    const here = join(dir, 'desk')
    mkdirSync(here)
    for (const [env, argv, name, port] of [
      [{}, ['--database', 'first.db', 'serve'], 'first.db', '44404'],
      [{}, ['serve', '--database=after.db'], 'after.db', '44405'],
      [{ DATABASE_PATH: 'env.db' }, ['serve'], 'env.db', '44406'],
    ] as const) {
      // As npm runs the cli script: in the package's folder, naming the person's in INIT_CWD.
      const server = Bun.spawn(
        [process.execPath, join(root, 'src/storeloc.ts'), ...argv, '--port', port, '--demo', '0', '--geocoder', 'none'],
        {
          cwd: root,
          env: { ...shellEnv(), ...env, INIT_CWD: here, npm_lifecycle_event: 'cli' },
          stdout: 'pipe',
          stderr: 'pipe',
        },
      )
      try {
        const places = [join(here, name), join(root, name)]
        for (let tries = 0; tries < 300 && !places.some((p) => existsSync(p)); tries++) await Bun.sleep(100)
        const made = places.map((p) => existsSync(p))
        for (const end of ['', '-wal', '-shm']) rmSync(join(root, `${name}${end}`), { force: true })
        expect({ argv, made }).toEqual({ argv, made: [true, false] })
      } finally {
        server.kill()
        await server.exited
      }
    }
  }, 90_000)
})

describe('npm start from another folder', () => {
  test('its --database, and a relative DATABASE_PATH, are the files beside the person, as under npm run cli', async () => {
    const here = join(dir, 'desk')
    mkdirSync(here)
    for (const [env, argv, name] of [
      [{}, ['--database', 'first.db'], 'first.db'],
      [{}, ['--database', 'before.db', 'serve'], 'before.db'],
      [{}, ['serve', '--database=after.db'], 'after.db'],
      [{ DATABASE_PATH: 'env.db' }, [], 'env.db'],
    ] as const) {
      const server = npmStart(root, argv, here, env)
      try {
        const places = [join(here, name), join(root, name)]
        for (let tries = 0; tries < 300 && !places.some((p) => existsSync(p)); tries++) await Bun.sleep(100)
        const made = places.map((p) => existsSync(p))
        for (const end of ['', '-wal', '-shm']) rmSync(join(root, `${name}${end}`), { force: true })
        expect({ argv, made }).toEqual({ argv, made: [true, false] })
      } finally {
        process.kill(-server.pid, 'SIGTERM')
        await server.exited
      }
    }
  }, 90_000)
})

/** The address a server started by npm listens on (it binds port 0); null when it exits first. */
const listeningUrl = (server: { stdout: ReadableStream<Uint8Array>; pid: number }) =>
  stdoutLines(server)
    .waitFor(/"listening"/)
    .then(
      (line) => `http://127.0.0.1:${new URL(JSON.parse(line).url).port}`,
      () => null,
    )

describe('npm start -- --database :memory: from another folder', () => {
  test('is the database in memory, as from the package folder, not a file named :memory:', async () => {
    const here = join(dir, 'desk')
    mkdirSync(here)
    for (const argv of [
      ['--database', ':memory:'],
      ['serve', '--database=:memory:'],
    ]) {
      const server = npmStart(root, argv, here)
      try {
        const url = await listeningUrl(server)
        const ready = url !== null && (await fetch(`${url}/readyz`)).ok
        expect({ argv, ready, file: existsSync(join(here, ':memory:')) }).toEqual({ argv, ready: true, file: false })
      } finally {
        process.kill(-server.pid, 'SIGTERM')
        await server.exited
      }
    }
  }, 90_000)
})

describe('bun run cli from a folder of the package', () => {
  test('--file and a backup FILE are the ones beside the person, as with npm run cli', () => {
    const db = join(dir, 'shops.db')
    const id = JSON.parse(storeloc(['locator', 'create', '--name', 'Shops', '--database', db, '--json']).stdout).locator
      .id
    // bun run finds the package from where it is typed: a folder inside it, not committed.
    const here = join(root, 'test-artifacts', `typed-paths-${process.pid}`)
    mkdirSync(here, { recursive: true })
    try {
      writeFileSync(join(here, 'stores.csv'), CSV)
      const bun = (...argv: string[]) => spawn([process.execPath, 'run', '--silent', 'cli', ...argv], here)
      const imported = bun('locations', 'import', id, '--file', 'stores.csv', '--database', db)
      expect([imported.code, imported.stderr]).toEqual([0, ''])
      expect(imported.stdout).toStartWith(`Imported ${join(here, 'stores.csv')} into ${id}: 1 created`)
      const backup = bun('backup', 'copy.db', '--database', db)
      expect(backup.code).toBe(0)
      expect(existsSync(join(here, 'copy.db'))).toBe(true)
      expect(existsSync(join(root, 'copy.db'))).toBe(false)
    } finally {
      rmSync(here, { recursive: true, force: true })
    }
  }, 60_000)

  test("an INIT_CWD an outer npm left (npm run's script runs bun run) is not where bun run was typed", () => {
    const db = join(dir, 'shops.db')
    expect(storeloc(['locator', 'create', '--name', 'Shops', '--database', db]).code).toBe(0)
    const outer = join(dir, 'outer')
    mkdirSync(outer)
    const here = join(root, 'test-artifacts', `typed-paths-stale-${process.pid}`)
    mkdirSync(here, { recursive: true })
    try {
      const backup = spawn([process.execPath, 'run', '--silent', 'cli', 'backup', 'copy.db', '--database', db], here, {
        ...shellEnv(),
        INIT_CWD: outer,
      })
      expect({
        code: backup.code,
        outer: existsSync(join(outer, 'copy.db')),
        here: existsSync(join(here, 'copy.db')),
      }).toEqual({ code: 0, outer: false, here: true })
    } finally {
      rmSync(here, { recursive: true, force: true })
    }
  }, 60_000)
})

describe('bun run --cwd PKG cli from another folder', () => {
  test('the commands its messages give run from where it was typed', () => {
    const db = join(dir, 'shops.db')
    const id = JSON.parse(storeloc(['locator', 'create', '--name', 'Shops', '--database', db, '--json']).stdout).locator
      .id
    // The person's shell, with `bun` on its PATH.
    const bin = join(dir, 'bin')
    mkdirSync(bin)
    symlinkSync(process.execPath, join(bin, 'bun'))
    // Bun names the package's folder in its environment either way: its own command line says --cwd.
    for (const typed of [
      ['run', '--cwd', root, 'cli'],
      [`--cwd=${root}`, 'run', 'cli'],
      // Bun runs a script named without `run` too.
      ['--cwd', root, 'cli'],
    ]) {
      const refused = spawn([process.execPath, ...typed, 'locator', 'show', 'lct_nosuch', '--database', db], dir)
      const line = /`([^`]+)` shows them/.exec(refused.stderr)?.[1] ?? refused.stderr
      expect({ typed, line }).toEqual({
        typed,
        line: `bun run --cwd ${root} --silent cli locator list --database ${db}`,
      })
      const pasted = spawn(['sh', '-c', `${line} --json`], dir, { ...shellEnv(), PATH: `${bin}:${process.env.PATH}` })
      const usage = spawn([process.execPath, ...typed.with(-1, 'start'), '--help'], dir).stdout.split('\n')[0]
      expect({ typed, usage }).toEqual({ typed, usage: `Usage: bun run --cwd ${root} start [options]` })
      expect({
        typed,
        code: pasted.code,
        ids: JSON.parse(pasted.stdout || '[]').map((l: { id: string }) => l.id),
      }).toEqual({ typed, code: 0, ids: [id] })
    }
    // Typed in the package's folder, the line is as short as ever.
    const here = spawn([process.execPath, 'run', 'cli', 'locator', 'show', 'lct_nosuch', '--database', db], root)
    expect(here.stderr).toContain('`bun run --silent cli locator list --database ')
  }, 60_000)
})

/** Whether a Bun may be started as a PID namespace's first process here (unshare, as root). */
const asPidOne = process.getuid?.() === 0 && Bun.which('unshare') !== null

describe('bun run --cwd PKG cli as the first process of a container', () => {
  test.skipIf(!asPidOne)(
    'its lines keep --cwd PKG: the Bun that ran the script is pid 1',
    () => {
      const db = join(dir, 'boxed.db')
      storeloc(['locator', 'create', '--name', 'Shops', '--database', db])
      const typed = ['run', '--cwd', root, 'cli', 'locator', 'show', 'lct_nosuch', '--database', db]
      const refused = spawn(['unshare', '--pid', '--fork', '--mount-proc', process.execPath, ...typed], dir)
      expect(/`([^`]+)` shows them/.exec(refused.stderr)?.[1] ?? refused.stderr).toBe(
        `bun run --cwd ${root} --silent cli locator list --database ${db}`,
      )
    },
    60_000,
  )
})

describe('npm start -- --geodata, and GEODATA_PATH, from another folder', () => {
  test("are read where typed, as --database is; a .env GEODATA_PATH stays the package's", async () => {
    // A package of its own: Bun reads .env from the folder it runs in, the package's under npm start.
    const pkg = join(dir, 'pkg')
    const here = join(pkg, 'data', 'desk')
    mkdirSync(here, { recursive: true })
    copyFileSync(join(root, 'package.json'), join(pkg, 'package.json'))
    symlinkSync(join(root, 'src'), join(pkg, 'src'))
    symlinkSync(join(root, 'node_modules'), join(pkg, 'node_modules'))
    // One file named twice is refused before the start opens either: read from one folder, the
    // two names meet; read from two, the service starts. The refusal names them as they were
    // given: a variable read where typed is still the variable.
    for (const [env, argv, dotEnv, named] of [
      [{}, ['--database', 'same.db', '--geodata', 'same.db'], '', '--geodata and --database'],
      [{}, ['serve', '--geodata=same.db', '--database=same.db'], '', '--geodata and --database'],
      [{ GEODATA_PATH: 'same.db' }, ['--database', 'same.db'], '', 'GEODATA_PATH and --database'],
      [{ GEODATA_PATH: 'same.db', DATABASE_PATH: 'same.db' }, [], '', 'GEODATA_PATH and DATABASE_PATH'],
      [{}, ['--database', '../same.db'], 'GEODATA_PATH=data/same.db\n', 'GEODATA_PATH and --database'],
    ] as const) {
      writeFileSync(join(pkg, '.env'), dotEnv)
      const server = npmStart(pkg, argv, here, env)
      // A refusal exits at once; a start that listens is the fault, stopped here.
      const ready = (await listeningUrl(server)) !== null
      if (ready) process.kill(-server.pid, 'SIGTERM')
      await server.exited
      const stderr = await new Response(server.stderr).text()
      expect({ argv, env, ready, refused: /: (\S+ and \S+) name one file \(/.exec(stderr)?.[1] }).toEqual({
        argv,
        env,
        ready: false,
        refused: named,
      })
    }
  }, 90_000)
})
