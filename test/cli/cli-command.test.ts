// The commands a message tells a person to run are written as that person runs storeloc: the
// CLI's as it was typed, the service's (its API's errors) as it was started. README's newcomer
// has `npm run -s cli --` and no `storeloc` on the PATH; an installed package or an image has
// `storeloc` and maybe no npm.
import { describe, expect, test } from 'bun:test'
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { serverUrl, startServer } from '../helpers'
import { dbPath, dir, json, shellEnv, useTempDatabase } from './temp-database'

useTempDatabase()
const ROOT = join(import.meta.dir, '..', '..')

/**
 * How each launch sets npm's variables (npm and Bun alike name the package and the script), typed
 * in the package's folder (INIT_CWD, npm_config_local_prefix): not the folder a test run's own
 * npm names, which may be outside it (`npm --prefix PKG test`).
 */
const TYPED_HERE = { INIT_CWD: ROOT, npm_config_local_prefix: ROOT }
const LAUNCHES = {
  typed: { npm_lifecycle_event: '', npm_package_name: '', npm_config_user_agent: '' },
  npm: {
    ...TYPED_HERE,
    npm_lifecycle_event: 'cli',
    npm_package_name: 'storeloc',
    npm_config_user_agent: 'npm/11.0.0 node/v22',
  },
  bun: {
    ...TYPED_HERE,
    npm_lifecycle_event: 'cli',
    npm_package_name: 'storeloc',
    npm_config_user_agent: 'bun/1.4.5 npm/?',
  },
  npx: {
    ...TYPED_HERE,
    npm_lifecycle_event: 'npx',
    npm_package_name: 'their-site',
    npm_config_user_agent: 'npm/11.0.0 node/v22',
  },
  // Another package's own `cli` script, which runs ours from node_modules/.bin.
  other: {
    ...TYPED_HERE,
    npm_lifecycle_event: 'cli',
    npm_package_name: 'their-site',
    npm_config_user_agent: 'npm/11.0.0 node/v22',
  },
}
const PREFIX = {
  typed: 'storeloc',
  npm: 'npm run -s cli --',
  bun: 'bun run --silent cli',
  npx: 'npx storeloc',
  other: 'storeloc',
}

test("the CLI's messages name commands as the CLI was launched", () => {
  json('locator', 'create', '--name', 'Shop')
  for (const [launch, env] of Object.entries(LAUNCHES)) {
    const p = Bun.spawnSync([process.execPath, join(ROOT, 'src/cli/main.ts'), 'locator', 'show', 'lct_nosuch'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_PATH: dbPath, ...env },
    })
    const prefix = PREFIX[launch as keyof typeof PREFIX]
    expect({ launch, stderr: p.stderr.toString() }).toEqual({
      launch,
      stderr: `storeloc: No locator "lct_nosuch". \`${prefix} locator list --database ${dbPath}\` shows them.\n`,
    })
  }
})

test("a command the CLI's message gives acts on the CLI's database, typed without what named it", () => {
  const { locator } = json('locator', 'create', '--name', 'Shop')
  const cli = [process.execPath, join(ROOT, 'src/cli/main.ts')]
  /** The command of the message `stderr`, between backquotes. */
  const given = (stderr: string) => /`storeloc ([^`]+)`/.exec(stderr)?.[1] ?? stderr
  // Named by --database: in another folder, with no DATABASE_PATH, the pasted command reads that
  // same file.
  const env = { ...process.env, ...LAUNCHES.typed, DATABASE_PATH: undefined }
  const refused = Bun.spawnSync([...cli, 'locator', 'show', 'lct_nosuch', '--database', dbPath], { cwd: ROOT, env })
  const pasted = Bun.spawnSync(['sh', '-c', `"$0" "$1" ${given(refused.stderr.toString())} --json`, ...cli], {
    cwd: '/',
    env,
  })
  expect({ code: pasted.exitCode, stderr: pasted.stderr.toString() }).toEqual({ code: 0, stderr: '' })
  expect(JSON.parse(pasted.stdout.toString()).map((l: { id: string }) => l.id)).toEqual([locator.id])
  // The default database, which a command typed in the same folder opens: named by nothing.
  const fresh = Bun.spawnSync([...cli, 'locator', 'list'], { cwd: dir, env })
  expect(fresh.stderr.toString()).toBe(
    "storeloc: No database at data/storeloc.db: set DATABASE_PATH to the service's database file (storeloc locator create makes a new one).\n",
  )
  // A relative DATABASE_PATH, named whole.
  const relative = Bun.spawnSync([...cli, 'locator', 'show', 'lct_nosuch'], {
    cwd: dir,
    env: { ...env, DATABASE_PATH: 'cli.db' },
  })
  expect(given(relative.stderr.toString())).toBe(`locator list --database ${dbPath}`)
})

test('the usage lines name commands as the CLI was launched', () => {
  for (const [launch, env] of Object.entries(LAUNCHES)) {
    const prefix = PREFIX[launch as keyof typeof PREFIX]
    const usage = (...argv: string[]) =>
      Bun.spawnSync([process.execPath, join(ROOT, 'src/cli/main.ts'), ...argv], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_PATH: dbPath, ...env },
      }).stderr.toString()
    const wrong = usage('restore', 'x.db', '--yes').split('\n')
    expect({ launch, usage: wrong.slice(2) }).toEqual({
      launch,
      usage: [
        `Usage: ${prefix} restore FILE [--force] (puts a backup in its place; refused while a process uses it)`,
        `\`${prefix} help\` lists every command, with what each option means.`,
        '',
      ],
    })
    const all = usage().split('\n')
    expect({ launch, first: all[0], serve: all[2]!.trim() }).toEqual({
      launch,
      first: `Usage: ${prefix} <command> [options] [--json]`,
      serve: `serve [options]                               (the service itself; \`${prefix} serve --help\` lists its options)`,
    })
  }
})

test('help serve and serve --help name the command as the person types it', () => {
  /** `src/storeloc.ts ...argv` launched as `launch` is: its first line, on stdout. */
  const first = (env: Record<string, string>, ...argv: string[]) =>
    Bun.spawnSync([process.execPath, join(ROOT, 'src/storeloc.ts'), ...argv], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_PATH: dbPath, ...env },
    })
      .stdout.toString()
      .split('\n')[0]
  for (const [launch, env] of Object.entries(LAUNCHES)) {
    const prefix = PREFIX[launch as keyof typeof PREFIX]
    expect({ launch, help: first(env, 'help', 'serve') }).toEqual({
      launch,
      help: `Usage: ${prefix} serve [options] (the service itself; \`${prefix} serve --help\` lists its options)`,
    })
    // storeloc's own line says how a checkout starts it too; a script's names the script.
    const own =
      prefix === 'storeloc'
        ? 'Usage: storeloc serve [options]   (npm start -- [options])'
        : `Usage: ${prefix} serve [options]`
    expect({ launch, help: first(env, 'serve', '--help') }).toEqual({ launch, help: own })
  }
  // `npm start -- --help` (`bun run start --help`): the script's own words.
  expect(first({ ...LAUNCHES.npm, npm_lifecycle_event: 'start' }, 'serve', '--help')).toBe(
    'Usage: npm start -- [options]',
  )
  expect(first({ ...LAUNCHES.bun, npm_lifecycle_event: 'start' }, 'serve', '--help')).toBe(
    'Usage: bun run start [options]',
  )
})

test("the service's API errors name commands as the service was started", async () => {
  const { locator } = json('locator', 'create', '--name', 'Shop')
  for (const [launch, env, prefix] of [
    ['npm start', { ...LAUNCHES.npm, npm_lifecycle_event: 'start' }, 'npm run -s cli --'],
    ['bun start', { ...LAUNCHES.bun, npm_lifecycle_event: 'start' }, 'bun run --silent cli'],
    ['storeloc serve', LAUNCHES.typed, 'storeloc'],
  ] as const) {
    const server = startServer(dbPath, { ...env, DEMO: '0', GEOCODER: 'none' })
    try {
      const url = await serverUrl(server)
      const query = await fetch(`${url}/public/v1/${locator.public_token}/locations?lat=51.5&lng=-0.1`)
      expect({ launch, message: ((await query.json()) as { error: { message: string } }).error.message }).toEqual({
        launch,
        message: `The Query API is switched off for this locator. Its operator enables it with \`${prefix} locator set lct_... --query-api on\` (its lct_ id).`,
      })
      const admin = await fetch(`${url}/admin/v1/locations`, {
        headers: { authorization: `Bearer ${locator.public_token}` },
      })
      expect({ launch, message: ((await admin.json()) as { message: string }).message }).toEqual({
        launch,
        message: `API key malformed: this is a locator's public token ("pk_..."), which the Query API under /public/v1 takes. The Management API takes a secret key ("sk_..."): \`${prefix} key create LOCATOR_ID\` makes one.`,
      })
    } finally {
      server.proc.kill('SIGTERM')
      await server.proc.exited
    }
  }
})

test('the image started as its Dockerfile starts it has the `storeloc` its messages name on its PATH', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
  // Started with no npm: its messages name `storeloc` (the case above), which the image links in.
  expect(dockerfile).toContain('CMD ["bun", "src/main.ts"]')
  const workdir = /^WORKDIR (\S+)$/m.exec(dockerfile)![1]!
  const linked = new RegExp(`ln -s ${workdir}/(bin/\\S+) /usr/local/bin/storeloc\\b`).exec(dockerfile)?.[1]
  expect(linked).toBeDefined()
  expect(dockerfile).toContain('COPY bin ./bin')
  // A link as the image has it, run by name on a PATH with Bun and no Node.js or npm.
  const onPath = join(dir, 'image-bin')
  mkdirSync(onPath)
  symlinkSync(join(ROOT, linked!), join(onPath, 'storeloc'))
  symlinkSync(process.execPath, join(onPath, 'bun'))
  const { locator } = json('locator', 'create', '--name', 'Imaged')
  const made = Bun.spawnSync(['sh', '-c', `storeloc key create ${locator.id} --json`], {
    cwd: dir,
    env: { ...shellEnv(), DATABASE_PATH: dbPath, PATH: `${onPath}:/usr/bin:/bin` },
  })
  expect({ code: made.exitCode, stderr: made.stderr.toString() }).toEqual({ code: 0, stderr: '' })
  expect(JSON.parse(made.stdout.toString()).secret_key).toStartWith('sk_')
})

describe('typed outside the package (npm --prefix PKG)', () => {
  /** `line` run by a shell in `cwd`, as a person pastes it. */
  const pasted = (line: string, cwd: string) => {
    const p = Bun.spawnSync(['sh', '-c', line], { cwd, env: shellEnv() })
    return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() }
  }

  test("npm start's first-start key line runs where npm start was typed", async () => {
    const here = join(dir, 'desk')
    mkdirSync(here)
    // In a process group of its own (setsid), stopped whole: npm passes no signal on.
    const server = Bun.spawn(
      ['setsid', 'npm', '--prefix', ROOT, 'start', '-s', '--', '--database', 'new.db', '--port', '0', '--no-demo'],
      { cwd: here, env: shellEnv(), stdout: 'pipe', stderr: 'pipe' },
    )
    let text = ''
    try {
      const reader = server.stdout.getReader()
      while (!text.includes('"listening"')) {
        const { value, done } = await reader.read()
        if (done) break
        text += new TextDecoder().decode(value)
      }
    } finally {
      process.kill(-server.pid, 'SIGTERM')
      await server.exited
    }
    const lines = text.split('\n')
    const line = lines[lines.findIndex((l) => l.startsWith('Make its key')) + 1]?.trim() ?? text
    const made = pasted(line, here)
    expect({ line, code: made.code, stderr: made.stderr }).toEqual({ line, code: 0, stderr: '' })
    expect(made.stdout).toContain('sk_')
  }, 60_000)

  test("npm run cli's messages give commands that run where it was typed", () => {
    const here = join(dir, 'desk')
    mkdirSync(here)
    const npm = (...argv: string[]) => pasted(`npm --prefix '${ROOT}' run -s cli -- ${argv.join(' ')}`, here)
    const refused = npm('locator', 'show', 'lct_nosuch', '--database', 'shops.db')
    const none = /\((.+) makes a new one\)/.exec(refused.stderr)?.[1] ?? refused.stderr
    expect(pasted(`${none} --name Shops`, here).code).toBe(0)
    const unknown = npm('locator', 'show', 'lct_nosuch', '--database', 'shops.db')
    const list = /`([^`]+)` shows them/.exec(unknown.stderr)?.[1] ?? unknown.stderr
    expect(pasted(list, here)).toEqual({ code: 0, stdout: expect.stringContaining('lct_'), stderr: '' })
    const usage = npm('restore').stderr
    const help = /`([^`]+)` lists every command/.exec(usage)?.[1] ?? usage
    expect(pasted(help, here).code).toBe(0)
  }, 60_000)

  test('npm start -- --help names the command that runs where it was typed', () => {
    const here = join(dir, 'desk')
    mkdirSync(here)
    const help = pasted(`npm --prefix '${ROOT}' start -s -- --help`, here).stdout
    const usage = /^Usage: (.+) \[options\]$/m.exec(help)?.[1] ?? help
    const again = pasted(`${usage} --help`, here)
    expect({ code: again.code, stderr: again.stderr, help: again.stdout.endsWith(help) }).toEqual({
      code: 0,
      stderr: '',
      help: true,
    })
  }, 60_000)
})

test('typed in a folder of the package whose name starts with "..", npm run cli gives no --prefix', () => {
  // npm finds the package from there (one folder up): `..shop` is in it, not above it.
  const p = Bun.spawnSync([process.execPath, join(ROOT, 'src/cli/main.ts'), 'locator', 'show', 'lct_nosuch'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_PATH: dbPath, ...LAUNCHES.npm, INIT_CWD: join(ROOT, '..shop') },
  })
  const stderr = p.stderr.toString()
  expect({ given: stderr.includes('npm run -s cli -- locator '), prefix: stderr.includes('--prefix') }).toEqual({
    given: true,
    prefix: false,
  })
})
