// A second SIGTERM or SIGINT during a stop (Ctrl-C pressed twice) ends it at once, the requests
// under way cut: exit 128 + the signal's number, and a line saying what was cut. One signal that
// reaches the service twice (a terminal's Ctrl-C, passed on by the storeloc launcher or npm too; a
// signal to a process group) is one stop, not two.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { SAME_STOP_MS } from '../src/server/listen'
import { startOnFreePort, tempDir } from './helpers'
import { firstLocatorKey, requestUnderWay } from './under-way'

const ROOT = join(import.meta.dir, '..')
let dir: string
beforeAll(() => (dir = tempDir()))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

for (const workers of ['1', '2'])
  test(`WORKERS=${workers}: a second SIGINT during a stop held by a request ends it at once, saying what it cut`, async () => {
    const db = join(dir, `forced-${workers}.db`)
    // A stop that would wait an hour for the request under way.
    const env = { DEMO: '0', GEOCODER: 'none', WORKERS: workers, STOP_TIMEOUT_SECONDS: '3600', LOG_REQUESTS: '0' }
    const { server, port } = await startOnFreePort(db, env, /"listening"/)
    const { secret } = await firstLocatorKey(server, db)
    const socket = await requestUnderWay(Number(port), secret)
    server.proc.kill('SIGTERM')
    await server.waitFor(/"shutting down"/)
    // Later than a relay of the first signal, which counts as the same stop.
    await Bun.sleep(SAME_STOP_MS)
    server.proc.kill('SIGINT')
    expect(await server.proc.exited).toBe(130)
    socket.destroy()
    const forced = server.lines.filter((l) => l.includes('"stop forced')).map((l) => JSON.parse(l))
    const cut = (requests: number) => ({
      time: expect.any(String),
      level: 'warn',
      message: `stop forced by a second SIGINT: ${requests} request${requests === 1 ? '' : 's'} under way cut`,
      signal: 'SIGINT',
      requests,
    })
    // WORKERS=2: the primary's line (the start's hold has handed its port off), then the workers':
    // the one that took the request says so; the other may have ended its stop by then.
    if (workers === '1') expect(forced).toEqual([cut(1)])
    else {
      expect(forced[0]).toEqual(cut(0))
      const [busy, ...idle] = forced.slice(1).sort((a, b) => b.requests - a.requests)
      expect(busy).toEqual({ ...cut(1), pid: expect.any(Number) })
      for (const other of idle) expect(other).toEqual({ ...cut(0), pid: expect.any(Number) })
    }
    expect(server.lines.some((l) => l.includes('"message":"stopped"'))).toBe(false)
  }, 60_000)

/** A command started in a terminal of its own (its session, its foreground group), up to its "listening" line. */
async function inTerminal(command: string[], env: Record<string, string> = {}) {
  let output = ''
  const lines = () => output.split(/\r?\n/)
  const proc = Bun.spawn(command, {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_PATH: join(dir, `terminal-${Bun.randomUUIDv7()}.db`),
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO: '0',
      GEOCODER: 'none',
      ...env,
    },
    terminal: { cols: 250, rows: 50, data: (_terminal, data) => (output += new TextDecoder().decode(data)) },
  })
  while (!lines().some((l) => l.includes('"listening"'))) {
    if (proc.exitCode !== null) throw new Error(`the service ended ${proc.exitCode}: ${output}`)
    await Bun.sleep(50)
  }
  return { proc, lines }
}

/** The service's stop ended by itself: no forced stop, its "stopped" line. */
function stoppedOnce(lines: string[]) {
  expect(lines.filter((l) => l.includes('"stop forced'))).toEqual([])
  expect(lines.some((l) => l.includes('"message":"stopped"'))).toBe(true)
}

const launcher = ['node', join(ROOT, 'bin/storeloc.js'), 'serve']

test('one Ctrl-C in a terminal, to the storeloc launcher and the service both, is one stop: it ends by itself, exit 0', async () => {
  const { proc, lines } = await inTerminal(launcher)
  proc.terminal!.write('\x03')
  expect(await proc.exited).toBe(0)
  stoppedOnce(lines())
}, 60_000)

test('one Ctrl-C under npm start, which passes it on to the service too, is one stop', async () => {
  // A shell that runs the script's one command in its place (bash, macOS's sh): npm's child is the service.
  // npm's own check for a newer npm would reach the registry.
  const { proc, lines } = await inTerminal(['npm', 'start', '--script-shell=/bin/bash'], {
    npm_config_update_notifier: 'false',
  })
  proc.terminal!.write('\x03')
  await proc.exited
  stoppedOnce(lines())
}, 60_000)

test("a SIGTERM to the launcher's process group (KillMode=control-group), to it and the service both, is one stop", async () => {
  const { proc, lines } = await inTerminal(launcher)
  process.kill(-proc.pid, 'SIGTERM')
  expect(await proc.exited).toBe(0)
  stoppedOnce(lines())
}, 60_000)

test("a SIGINT to the launcher alone (kill -INT from another shell), in the terminal's foreground, stops the service", async () => {
  const { proc, lines } = await inTerminal(launcher)
  proc.kill('SIGINT')
  expect(await proc.exited).toBe(0)
  stoppedOnce(lines())
}, 30_000)
