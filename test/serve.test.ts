// `storeloc serve` through the package's launcher (bin/storeloc.js, run by Node as `npx storeloc`
// runs it): its options, its usage, and the CLI's other commands behind the same name.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { cliRunner, machineEnv, startOnFreePort, startServer, tempDir, serverUrl } from './helpers'
import { waitingForLock } from './process-waits'

const ROOT = join(import.meta.dir, '..')
const LAUNCHER = join(ROOT, 'bin/storeloc.js')
let dir: string
beforeAll(() => (dir = tempDir()))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// No geocoder in the starts with workers: a worker listens once its indexes are loaded, which
// with the geocoder took 8-11 s more at load 12-21 (8 ms without), in which it wrote nothing.
const NO_GEOCODER = { GEOCODER: 'none' }

/**
 * The time limit of a test that starts `n` processes in turn (the launcher's Node and Bun, a
 * server, its workers, a CLI command): at load 15 to 24 on 2 cores each took 2 to 11 s. The limit
 * only ends a hang.
 */
const starts = (n: number) => n * 20_000

/** `node bin/storeloc.js ...argv` to its end, on `env` over the test's environment. */
function storeloc(argv: string[], env: Record<string, string> = {}) {
  const p = Bun.spawnSync(['node', LAUNCHER, ...argv], { cwd: dir, env: { ...machineEnv(), ...env } })
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() }
}

test(
  'serve --help prints every option with its variable and exits 0, touching no database',
  () => {
    const db = join(dir, 'help.db')
    for (const help of ['--help', '-h']) {
      const r = storeloc(['serve', '--port', '1', help], { DATABASE_PATH: db })
      expect(r.code).toBe(0)
      expect(r.stdout).toContain('Usage: storeloc serve [options]')
      for (const [flag, variable] of [
        ['--port', 'PORT'],
        ['--database', 'DATABASE_PATH'],
        ['--workers', 'WORKERS'],
        ['--geocoder', 'GEOCODER'],
        ['--lock-wait', 'LOCK_WAIT_SECONDS'],
        ['--stop-timeout', 'STOP_TIMEOUT_SECONDS'],
        ['--idle-timeout', 'IDLE_TIMEOUT_SECONDS'],
      ])
        expect(r.stdout).toMatch(new RegExp(`\\n  ${flag} \\S+ +${variable} `))
    }
    expect(existsSync(db)).toBe(false)
  },
  starts(2),
)

test('npm start -- serve reads as storeloc serve: the word is taken, not refused', () => {
  const db = join(dir, 'npm-start.db')
  const p = Bun.spawnSync(['npm', 'start', '--silent', '--', 'serve', '--help'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_PATH: db },
  })
  expect(p.exitCode).toBe(0)
  expect(p.stdout.toString()).toContain('Usage: npm start -- [options]')
  expect(existsSync(db)).toBe(false)
})

test('npm run cli -- serve is storeloc serve too, as the CLI usage lists it', () => {
  const db = join(dir, 'npm-cli.db')
  const p = Bun.spawnSync(['npm', 'run', '--silent', 'cli', '--', 'serve', '--help'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_PATH: db },
  })
  expect(p.exitCode).toBe(0)
  expect(p.stdout.toString()).toContain('Usage: npm run -s cli -- serve [options]')
  expect(existsSync(db)).toBe(false)
})

test(
  'an unknown option or a stray argument exits 2 with the usage; a bad value names the option',
  () => {
    const db = join(dir, 'bad.db')
    for (const argv of [['--prot', '4000'], ['4000'], ['--port']]) {
      const r = storeloc(['serve', ...argv], { DATABASE_PATH: db })
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('Configuration error:')
      expect(r.stderr).toContain('Usage: storeloc serve [options]')
    }
    // A misspelt option names the one it most likely is.
    expect(storeloc(['serve', '--prot', '4000'], { DATABASE_PATH: db }).stderr).toContain(
      'Configuration error: unknown option --prot. Did you mean --port?',
    )
    expect(storeloc(['serve', '--databse=x.db'], { DATABASE_PATH: db }).stderr).toContain(
      'unknown option --databse. Did you mean --database?',
    )
    // Given twice, an option is refused: the second value would win silently.
    const twice = storeloc(['serve', '--port', '4000', '--port=4001'], { DATABASE_PATH: db })
    expect(twice.code).toBe(2)
    expect(twice.stderr).toContain('--port is given more than once: give it once.')
    // Bun closes a connection at its next 4 s look once the time is up: below 5 s, one still sending.
    const idle = storeloc(['serve', '--idle-timeout', '4'], { DATABASE_PATH: db })
    expect(idle.code).toBe(2)
    expect(idle.stderr).toContain('--idle-timeout must be a whole number from 5 to 255; got "4"')
    // A setting that needs another names the option that gives it, not only its variable.
    const token = storeloc(['serve', '--metrics-token', 'a-long-enough-metrics-token'], { DATABASE_PATH: db })
    expect(token.code).toBe(2)
    expect(token.stderr).toContain(
      'Configuration error: --metrics-token is set but METRICS_PORT (--metrics-port) is not: metrics are off until METRICS_PORT names their port.',
    )
    // Each variable followed by its option once, in a sentence of no other parenthesis.
    const pelias = storeloc(['serve', '--geocoder', 'pelias'], { DATABASE_PATH: db })
    expect(pelias.code).toBe(2)
    expect(pelias.stderr).toContain(
      'Configuration error: --geocoder=pelias needs the address of your own Pelias in GEOCODER_URL (--geocoder-url), or GEOCODER_API_KEY (--geocoder-api-key) for the hosted geocode.earth.',
    )
    const bad = storeloc(['serve', '--port=eighty'], { DATABASE_PATH: db, PORT: '3000' })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--port must be a whole number from 0 to 65535; got "eighty"')
    expect(bad.stderr).not.toContain('Usage:')
    expect(existsSync(db)).toBe(false)
  },
  starts(10),
)

test(
  'options win over the environment: --database and --port, and --workers passes them to every worker; HOST is 127.0.0.1 unless set',
  async () => {
    for (const workers of ['1', '2']) {
      const db = join(dir, `options-${workers}.db`)
      const other = join(dir, `env-${workers}.db`)
      // HOST unset: this machine only.
      const started = await startOnFreePort(
        other,
        { ...NO_GEOCODER, PORT: '1', DEMO: '1', WORKERS: '1', HOST: '' },
        /"listening"/,
        (port) => [
          'node',
          LAUNCHER,
          'serve',
          '--database',
          db,
          `--port=${port}`,
          '--no-demo',
          '--workers',
          workers,
          '--log-requests',
          '0',
        ],
      )
      const { server, port } = started
      try {
        const line = JSON.parse(started.line)
        expect(line.database).toBe(db)
        expect(new URL(line.url).port).toBe(port)
        expect(new URL(line.url).hostname).toBe('127.0.0.1')
        for (let i = 0; i < 4; i++) {
          const res = await fetch(`http://127.0.0.1:${port}/readyz`)
          expect([200, 503]).toContain(res.status)
        }
        expect(existsSync(db)).toBe(true)
        expect(existsSync(other)).toBe(false)
      } finally {
        server.proc.kill('SIGTERM')
        expect(await server.proc.exited).toBe(0)
      }
      // What it never said, read once all it said is in.
      await server.ended
      expect(server.lines.join('\n')).not.toContain('Loaded the demo')
      expect(server.lines.some((l) => l.includes('"/readyz"'))).toBe(false) // --log-requests 0, in every worker
    }
  },
  starts(6),
)

test(
  'the launcher runs the CLI too, with its exit codes',
  () => {
    const db = join(dir, 'cli.db')
    const made = storeloc(['locator', 'create', '--name', 'Launcher', '--json'], { DATABASE_PATH: db })
    expect(made.code).toBe(0)
    const id = JSON.parse(made.stdout).locator.id
    const listed = storeloc(['locator', 'list', '--json'], { DATABASE_PATH: db })
    expect(listed.code).toBe(0)
    expect(JSON.parse(listed.stdout).map((l: { id: string }) => l.id)).toEqual([id])
    expect(storeloc(['locator', 'nonsense'], { DATABASE_PATH: db }).code).toBe(2)
    expect(storeloc(['locator', 'show', 'lct_0000000000000000'], { DATABASE_PATH: db }).code).toBe(1)
  },
  starts(4),
)

test(
  'a variable that looks like a setting but is none is named at the start, with the setting meant; others are not',
  async () => {
    const server = startServer(join(dir, 'misspelt.db'), {
      DEMO: '0',
      PORT: '0',
      DATABSE_PATH: join(dir, 'meant.db'),
      geodata_path: 'x',
      HOSTNAME: 'a-machine', // another program's
    })
    try {
      await server.waitFor(/"listening"/)
      const warned = server.lines.filter((l) => l.includes('storeloc reads no setting')).map((l) => JSON.parse(l))
      expect(warned.map((w) => [w.level, w.message])).toEqual([
        [
          'warn',
          'DATABSE_PATH is set, but storeloc reads no setting of that name: did you mean DATABASE_PATH? It is left out, so DATABASE_PATH keeps the value it is set to.',
        ],
        [
          'warn',
          'geodata_path is set, but storeloc reads no setting of that name: did you mean GEODATA_PATH? It is left out, so GEODATA_PATH keeps its default.',
        ],
      ])
    } finally {
      server.proc.kill('SIGTERM')
      await server.proc.exited
    }
    const cli = storeloc(['locator', 'list'], { DATABASE_PATH: join(dir, 'misspelt.db'), DATABSE_PATH: 'x' })
    expect(cli.code).toBe(0)
    expect(cli.stderr.trim()).toBe(
      'storeloc: warning: DATABSE_PATH is set, but storeloc reads no setting of that name: did you mean DATABASE_PATH? It is left out, so DATABASE_PATH keeps the value it is set to.',
    )
    // A path setting's name without its _PATH, as a newcomer guesses it.
    const short = storeloc(['locator', 'list'], { DATABASE: join(dir, 'misspelt.db') })
    expect(short.stderr.split('\n')[0]).toBe(
      'storeloc: warning: DATABASE is set, but storeloc reads no setting of that name: did you mean DATABASE_PATH? It is left out, so DATABASE_PATH keeps its default.',
    )
  },
  starts(3),
)

test(
  'SIGHUP (a closed terminal) stops the service as SIGTERM does, with one line, and exit 0',
  async () => {
    for (const workers of ['1', '2']) {
      const server = startServer(join(dir, `hup-${workers}.db`), { ...NO_GEOCODER, DEMO: '0', WORKERS: workers }, [
        'node',
        LAUNCHER,
        'serve',
        '--port=0',
      ])
      await server.waitFor(/"listening"/)
      server.proc.kill('SIGHUP')
      expect(await server.proc.exited).toBe(0)
      await server.ended
      const stopping = server.lines.filter((l) => l.includes('"shutting down"')).map((l) => JSON.parse(l).signal)
      expect(stopping).toEqual(['SIGHUP'])
    }
  },
  starts(6),
)

/**
 * What a SIGHUP does to process `pid`, as the kernel holds it (Linux: /proc/PID/status): ended
 * already, ignored, caught, or the default (it ends the process).
 */
function hangupTo(pid: number): 'ended' | 'ignored' | 'caught' | 'default' {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const hup = (name: string) => BigInt(`0x${new RegExp(`^${name}:\\s*([0-9a-f]+)$`, 'm').exec(status)![1]}`) & 1n
  if (/^State:\s*[ZX]/m.test(status)) return 'ended'
  return hup('SigIgn') === 1n ? 'ignored' : hup('SigCgt') === 1n ? 'caught' : 'default'
}

test(
  'started ignoring SIGHUP (nohup bun src/main.ts), it serves on, its workers too',
  async () => {
    // (Node resets SIGHUP as it starts: through the launcher, nohup never kept it.) The terminal's
    // SIGHUP reaches the workers too, which do not inherit the ignoring.
    for (const workers of ['1', '2']) {
      const kept = startServer(
        join(dir, `nohup-${workers}.db`),
        { ...NO_GEOCODER, DEMO: '0', PORT: '0', WORKERS: workers },
        ['sh', '-c', `trap '' HUP; exec '${process.execPath}' '${join(ROOT, 'src/main.ts')}'`],
      )
      try {
        const listening = JSON.parse(await kept.waitFor(/"listening"/))
        const workerPids: number[] = listening.pids ?? []
        const port = new URL(listening.url).port
        for (const pid of [kept.proc.pid, ...workerPids]) process.kill(pid, 'SIGHUP')
        // Read, not waited for: the service keeps it ignored, each worker catches it (and does
        // nothing). A SIGHUP taken as a stop shows below, as the first stop line's signal: the
        // kernel hands the SIGHUP over before the SIGTERM sent after it.
        expect(hangupTo(kept.proc.pid)).toBe('ignored')
        for (const pid of workerPids)
          expect([pid, hangupTo(pid)]).toEqual([pid, expect.stringMatching(/^(caught|ignored)$/)])
        expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200)
      } finally {
        kept.proc.kill('SIGTERM')
        expect(await kept.proc.exited).toBe(0)
      }
      await kept.ended
      const stopping = kept.lines.filter((l) => l.includes('"shutting down"')).map((l) => JSON.parse(l).signal)
      expect(stopping).toEqual(['SIGTERM'])
      expect(await new Response(kept.proc.stderr).text()).not.toContain('worker stopped')
    }
  },
  starts(6),
)

test('a command ended by a signal ends the launcher by the same signal, not with exit 0', async () => {
  const db = join(dir, 'signal.db')
  const made = storeloc(['locator', 'create', '--name', 'Signal', '--json'], { DATABASE_PATH: db })
  const locatorId = JSON.parse(made.stdout).locator.id
  // The command waits for the write lock another connection holds.
  const holder = new Database(db)
  holder.exec('BEGIN IMMEDIATE')
  try {
    const launcher = Bun.spawn(['node', LAUNCHER, 'key', 'create', locatorId], {
      cwd: dir,
      env: { ...process.env, DATABASE_PATH: db },
      stdout: 'ignore',
      stderr: 'ignore',
    })
    const childOf = () => readFileSync(`/proc/${launcher.pid}/task/${launcher.pid}/children`, 'utf8').trim()
    while (childOf() === '') await Bun.sleep(20) // node's start at load 20 takes seconds; the test's timeout ends a hang
    // Signalled as it waits for the lock: under way, its signal handlers in place.
    const command = Number(childOf().split(' ')[0])
    while (!waitingForLock(command)) await Bun.sleep(10)
    process.kill(command, 'SIGTERM')
    await launcher.exited
    expect({ code: launcher.exitCode, signal: launcher.signalCode }).toEqual({ code: null, signal: 'SIGTERM' })
  } finally {
    holder.exec('ROLLBACK')
    holder.close()
  }
})

test(
  'DATABASE_PATH set but empty stops every command; restore with no DATABASE_PATH makes no database in another folder',
  () => {
    const folder = join(dir, 'elsewhere')
    mkdirSync(folder)
    // serve's setting errors are exit 2, as its bad options; the CLI's are 1, as its other settings'.
    for (const [argv, code] of [
      [['serve'], 2],
      [['locator', 'list'], 1],
      [['restore', 'x.db'], 1],
    ] as const) {
      const r = Bun.spawnSync(['node', LAUNCHER, ...argv], { cwd: folder, env: { ...process.env, DATABASE_PATH: '' } })
      expect({ argv, code: r.exitCode }).toEqual({ argv, code })
      expect(r.stderr.toString()).toContain('DATABASE_PATH is set but empty')
    }
    // A backup to restore, and no database where the command runs.
    const backup = join(dir, 'to-restore.db')
    expect(storeloc(['locator', 'create', '--name', 'Kept'], { DATABASE_PATH: backup }).code).toBe(0)
    const { DATABASE_PATH: _, ...unset } = process.env
    const r = Bun.spawnSync(['node', LAUNCHER, 'restore', backup], { cwd: folder, env: unset })
    expect(r.exitCode).toBe(1)
    expect(r.stderr.toString()).toContain(`No database at data/storeloc.db in ${folder} to replace`)
    expect(existsSync(join(folder, 'data'))).toBe(false)
    // Named, the new file is made.
    const named = Bun.spawnSync(['node', LAUNCHER, 'restore', backup], {
      cwd: folder,
      env: { ...unset, DATABASE_PATH: join(folder, 'data/storeloc.db') },
    })
    expect(named.exitCode).toBe(0)
    expect(existsSync(join(folder, 'data/storeloc.db'))).toBe(true)
  },
  starts(6),
)

/** Resolves once `url` answers 200: the server has loaded its indexes and its event loop is idle. */
async function ready(url: string) {
  while ((await fetch(url).catch(() => null))?.status !== 200) await Bun.sleep(50)
}

/**
 * A connection to `port` that sends a request's headers, and no body: `underWay` once the server
 * has read them (its 100 Continue, as it hands the request to the app, which waits for the body),
 * `closed` once the server closes it, with no answer.
 */
function stalledRequest(port: number, key: string) {
  const socket = connect(port, '127.0.0.1', () =>
    socket.write(
      `POST /admin/v1/locations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 500\r\n\r\n`,
    ),
  )
  socket.on('error', () => {})
  const underWay = new Promise<void>((resolve) => socket.once('data', () => resolve()))
  const closed = new Promise<void>((resolve) => {
    socket.on('end', () => resolve())
    socket.on('close', () => resolve())
  })
  return { socket, underWay, closed }
}

test(
  'a request whose body stops coming is closed after IDLE_TIMEOUT_SECONDS idle; the log stays JSON lines',
  async () => {
    // Two servers, at 5 s and at 255 s. Bun looks at idle connections every 4 s: 5 s closes one
    // after 4 to 8 s, and one opened as it closes another 8 s later (so after 12 to 16 s); the
    // default (10 s) closes one after 8 to 12 s. The 255 s connection, under way before the first
    // 5 s one opens, is still open when the second 5 s one closes: at the default it would not
    // be. A loaded machine only makes closes later, so the times are bounded from below only.
    // One value for both servers, whatever it is, fails: the 255 s connection would close before
    // the second 5 s one.
    const servers = ['5', '255'].map((seconds) => {
      const db = join(dir, `idle-${seconds}.db`)
      const key = cliRunner(() => db).json('locator', 'create', '--name', 'Idle').key.secret_key as string
      const server = startServer(db, { ...NO_GEOCODER, DEMO: '0', PORT: '0', IDLE_TIMEOUT_SECONDS: seconds })
      return { server, port: 0, key }
    })
    for (const started of servers) {
      const url = await serverUrl(started.server)
      started.port = Number(new URL(url).port)
      await ready(`${url}/readyz`)
    }
    const [short, long] = servers as [(typeof servers)[number], (typeof servers)[number]]
    const closes: string[] = []
    const stalled = ({ port, key }: typeof short, name: string) => {
      const request = stalledRequest(port, key)
      request.closed.then(() => closes.push(name))
      return request
    }
    const late = stalled(long, '255')
    await late.underWay
    const t0 = performance.now()
    const first = stalled(short, '5')
    await first.closed
    expect(performance.now() - t0).toBeGreaterThan(3900)
    const second = stalled(short, '5 again')
    await second.closed
    expect(performance.now() - t0).toBeGreaterThan(11_800)
    expect(closes).toEqual(['5', '5 again']) // the 255 s connection is still open: the setting, not the default
    late.socket.destroy()
    await late.closed
    for (const { server } of servers) {
      server.proc.kill('SIGTERM')
      expect(await server.proc.exited).toBe(0)
      const stderr = (await new Response(server.proc.stderr as ReadableStream).text())
        .split('\n')
        .filter((l) => l !== '')
      expect(stderr.filter((l) => !l.startsWith('{'))).toEqual([])
    }
  },
  16_000 + starts(4), // the closes' 16 s, two CLI commands and two servers
)
