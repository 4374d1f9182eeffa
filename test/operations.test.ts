// The systemd unit of docs/operations.md, run as systemd would run it: its ExecStart, in its
// WorkingDirectory, with its Environment lines and nothing else but PATH, the install at
// /opt/storeloc being this checkout and the StateDirectory a temporary one.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { loadDemo } from '../src/operator/demo'
import { openStore } from '../src/store'
import { stdoutLines, tempDir } from './helpers'

const ROOT = join(import.meta.dir, '..')
let state: string
beforeAll(() => (state = tempDir()))
afterAll(() => rmSync(state, { recursive: true, force: true }))

/** The unit's [Service] settings, each key with its values in order, /opt/storeloc and /var/lib/storeloc made local. */
function unit(): Map<string, string[]> {
  const text = readFileSync(join(ROOT, 'deploy/storeloc.service'), 'utf8')
  const settings = new Map<string, string[]>()
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim())
    if (m === null) continue
    const value = m[2]!.replaceAll('/opt/storeloc', ROOT).replaceAll('/var/lib/storeloc', state)
    settings.set(m[1]!, [...(settings.get(m[1]!) ?? []), value])
  }
  return settings
}

/** Names and modification times of what the install's data folder holds. */
const installData = () =>
  readdirSync(join(ROOT, 'data'))
    .map((name) => `${name} ${statSync(join(ROOT, 'data', name)).mtimeMs}`)
    .sort()

/** What the unit's ExecStart is started with: its Environment lines and PATH, no more. */
function unitEnv(settings: Map<string, string[]>): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' }
  for (const assignment of settings.get('Environment') ?? []) {
    const [name, ...value] = assignment.split('=')
    env[name!] = value.join('=')
  }
  return env
}

test('the unit starts the service with its data in the StateDirectory, writing nothing into the install, and stops it on SIGTERM', async () => {
  const settings = unit()
  const env = unitEnv(settings)
  expect(env.DATABASE_PATH).toBe(join(state, 'storeloc.db'))
  expect(env.GEODATA_PATH).toBe(join(state, 'geocoder.sqlite'))
  env.PORT = '0' // the unit's 3000 may be taken here
  copyFileSync(join(ROOT, 'data/geocoder.sqlite'), env.GEODATA_PATH!) // as a second start finds it
  const before = installData()

  const [command] = settings.get('ExecStart')!
  expect(settings.get('WorkingDirectory')).toEqual([ROOT])
  const proc = Bun.spawn(command!.split(' '), { cwd: ROOT, env, stdout: 'pipe', stderr: 'pipe' })
  const server = stdoutLines(proc)
  try {
    const listening = JSON.parse(await server.waitFor(/"listening"/))
    expect(listening.database).toBe(env.DATABASE_PATH)
    expect(listening.url).toStartWith('http://127.0.0.1:')
    // Not a terminal: the first locator is made, its key is not; the line to make one names the database.
    expect(server.lines.join('\n')).toContain(`DATABASE_PATH=${env.DATABASE_PATH}`)
    expect(server.lines.join('\n')).not.toContain('Loaded the demo') // DEMO=0
    await server.waitFor(/"indexes loaded"/)
    const ready = await fetch(`${listening.url}/readyz`)
    expect(ready.status).toBe(200)
  } finally {
    const stopAt = performance.now()
    proc.kill('SIGTERM')
    expect(await proc.exited).toBe(0)
    const timeoutStopSec = Number(settings.get('TimeoutStopSec')![0])
    expect(performance.now() - stopAt).toBeLessThan(timeoutStopSec * 1000)
  }
  expect(installData()).toEqual(before)
})

test('a start its settings stop is not started again; one that may pass later (the port held) is', async () => {
  const settings = unit()
  const prevented = (settings.get('RestartPreventExitStatus') ?? []).flatMap((v) => v.split(/\s+/))
  expect(settings.get('Restart')).toEqual(['on-failure'])
  const start = async (over: Record<string, string>) => {
    const proc = Bun.spawn(settings.get('ExecStart')![0]!.split(' '), {
      cwd: ROOT,
      env: { ...unitEnv(settings), ...over },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    return { code: await proc.exited, err: await new Response(proc.stderr).text() }
  }
  const bads: Record<string, string>[] = [{ PORT: 'x' }, { WORKERS: 'many' }, { METRICS_TOKEN: 'abcdefghijklmnopq' }]
  for (const bad of bads) {
    const { code, err } = await start(bad)
    expect(err).toStartWith('Configuration error: ')
    expect(prevented).toContain(String(code))
  }
  const held = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  try {
    const { code, err } = await start({ PORT: String(held.port) })
    expect(err).toContain(`${held.port}`)
    expect(code).toBe(1)
    expect(prevented).not.toContain(String(code))
  } finally {
    held.stop(true)
  }
})

/** The [Unit] section's settings: systemd reads the start limit there. */
function unitSection(): Map<string, string> {
  const text = readFileSync(join(ROOT, 'deploy/storeloc.service'), 'utf8')
  const lines = text.slice(text.indexOf('[Unit]\n'), text.indexOf('\n[Service]')).split('\n')
  const settings = new Map<string, string>()
  for (const line of lines) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line)
    if (m !== null) settings.set(m[1]!, m[2]!)
  }
  return settings
}

/**
 * Which of the starts at `times` (seconds) systemd refuses first, as its ratelimit counts: a window
 * of `interval` seconds from the first start counted, `burst` starts in it. null: none refused.
 */
function refusedStart(times: number[], interval: number, burst: number): number | null {
  let begin = -Infinity
  let counted = 0
  for (const [i, now] of times.entries()) {
    if (now > begin + interval) [begin, counted] = [now, 0]
    if (counted >= burst) return i
    counted++
  }
  return null
}

test('a start that fails every time stops at the start limit; a crash now and then, or a port held 15 s, starts again', async () => {
  const settings = unit()
  const limits = unitSection()
  // systemd's defaults (10 s, 5 starts) when the unit sets none.
  const interval = Number(limits.get('StartLimitIntervalSec') ?? 10)
  const burst = Number(limits.get('StartLimitBurst') ?? 5)
  const restartSec = Number(settings.get('RestartSec')![0])
  const held = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  let failing: number
  try {
    const proc = Bun.spawn(settings.get('ExecStart')![0]!.split(' '), {
      cwd: ROOT,
      env: { ...unitEnv(settings), PORT: String(held.port), GEOCODER: 'none' },
      stdout: 'ignore',
      stderr: 'ignore',
    })
    expect(await proc.exited).toBe(1)
    // The start's CPU time, not its wall time: the start waits on nothing (it reads its modules
    // and meets the port), so this is its length on a machine that runs nothing else, where wall
    // time adds whatever other processes take of the cores.
    failing = Number(proc.resourceUsage()!.cpuTime.total) / 1e6
  } finally {
    held.stop(true)
  }
  // Starts RestartSec apart, each failing as the one above, or as one 4 times slower (a busy machine).
  for (const each of [failing, 4 * failing]) {
    const loop = Array.from({ length: 1000 }, (_, i) => i * (restartSec + each))
    const refused = refusedStart(loop, interval, burst)
    expect({ each, refused }).toEqual({ each, refused: expect.any(Number) })
    // Stopped in the first window, after `burst` lines, not thousands; a slowed start spaces them
    // out but stays within it.
    expect(loop[refused!]!).toBeLessThanOrEqual(interval)
    // The port held for 15 s (another process's stop): its starts pass, and the next one runs.
    const passing = loop.filter((t) => t <= 15 + restartSec + each)
    expect(refusedStart(passing, interval, burst)).toBeNull()
  }
  // Crashes an hour apart: each started again.
  expect(refusedStart([0, 3600, 7200, 10_800], interval, burst)).toBeNull()
})

test('a start only a person can mend (a damaged database, one it may not read) is not started again', async () => {
  const settings = unit()
  const prevented = (settings.get('RestartPreventExitStatus') ?? []).flatMap((v) => v.split(/\s+/))
  // The unit's User= is no root: as root here, the start runs as nobody, whom file modes bind.
  const asUser = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : []
  const start = async (database: string, command: string[] = []) => {
    const proc = Bun.spawn([...command, ...settings.get('ExecStart')![0]!.split(' ')], {
      cwd: ROOT,
      // No geocoder: its data in the StateDirectory is no business of this test's user.
      env: { ...unitEnv(settings), PORT: '0', DATABASE_PATH: database, GEOCODER: 'none' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    return { code: await proc.exited, err: await new Response(proc.stderr).text() }
  }
  const folder = tempDir()
  try {
    // A whole database, then 8 of its middle pages overwritten with bytes that are no page of SQLite's.
    const damaged = join(folder, 'damaged.db')
    const store = openStore(damaged)
    loadDemo(store, join(ROOT, 'data/demo/demo.json'))
    store.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    store.close()
    const pages = statSync(damaged).size / 4096
    const fd = openSync(damaged, 'r+')
    writeSync(fd, Buffer.alloc(8 * 4096, 0x5a), 0, 8 * 4096, Math.floor(pages / 2) * 4096)
    closeSync(fd)
    const unreadable = join(folder, 'unreadable.db')
    copyFileSync(join(state, 'storeloc.db'), unreadable) // the unit's, whole, left by the first test
    chmodSync(unreadable, 0o000)
    chmodSync(folder, 0o755)
    for (const [database, said, command] of [
      [damaged, `Cannot use the database at ${damaged}: it is damaged (SQLite's quick_check: `, []],
      [unreadable, `Cannot use the database at ${unreadable}: `, asUser],
    ] as const) {
      const { code, err } = await start(database, [...command])
      expect({ database, code, err: err.slice(0, said.length) }).toEqual({ database, code: 3, err: said })
      expect(prevented).toContain(String(code))
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
})

test("the backup, restore and doctor lines of the page, through the package's launcher", async () => {
  const database = join(state, 'storeloc.db') // the unit's, left by the test above
  const backups = join(state, 'backups')
  mkdirSync(backups) // the page makes it first: install -d
  const run = (...argv: string[]) => {
    const p = Bun.spawnSync(['node', join(ROOT, 'bin/storeloc.js'), ...argv], {
      cwd: state,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        DATABASE_PATH: database,
        GEODATA_PATH: join(state, 'geocoder.sqlite'),
      },
    })
    const [out, err] = [p.stdout.toString(), p.stderr.toString()]
    // Killed (by the test's timeout, past its end): said so, with what it wrote, not as a null exit code.
    if (p.exitCode === null) {
      throw new Error(
        `storeloc ${argv.join(' ')} was killed (${p.signalCode}) before it exited; it wrote:\n${out}${err}`,
      )
    }
    return { code: p.exitCode, out, err }
  }
  const made = run('locator', 'create', '--name', 'Before the backup', '--json')
  expect(made.code).toBe(0)
  const backup = run('backup', join(backups, '2026-12-01.db'))
  expect(backup).toMatchObject({ code: 0, err: '' })
  expect(run('locator', 'create', '--name', 'After the backup').code).toBe(0)
  expect(run('restore', join(backups, '2026-12-01.db')).code).toBe(0)
  const names = JSON.parse(run('locator', 'list', '--json').out).map((l: { name: string }) => l.name)
  expect(names).toContain('Before the backup')
  expect(names).not.toContain('After the backup')
  const doctor = run('doctor')
  expect(doctor.err).toBe('')
  expect([0, 1]).toContain(doctor.code) // 1 when it finds something to fix (a locator with its Query API off)
  expect(doctor.out).not.toBe('')
}, 120_000) // 7 starts of Node and Bun: about 1 s each here at load 7, over 4 s at load 17

test('the cron file of the page, as cron runs it: a backup named by the time, old ones and stale partials gone', () => {
  const page = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8')
  const block = page.slice(page.indexOf('# /etc/cron.d/storeloc-backup\n')).split('\n```')[0]!.split('\n').slice(1)
  const backups = join(state, 'cron-backups')
  mkdirSync(backups)
  const local = (text: string) =>
    text
      .replaceAll('/opt/storeloc', ROOT)
      .replaceAll('/var/lib/storeloc', state)
      .replaceAll('/var/backups/storeloc', backups)
  // Cron's own environment, the file's assignments on top; the job runs in the user's home.
  const env: Record<string, string> = { PATH: '/usr/bin:/bin', HOME: state, LOGNAME: 'storeloc', SHELL: '/bin/sh' }
  const jobs: string[] = []
  for (const line of block) {
    const assignment = /^([A-Z_]+)=(.*)$/.exec(line)
    if (assignment !== null) env[assignment[1]!] = assignment[2]!
    else if (line.trim() !== '') jobs.push(line)
  }
  expect(jobs).toHaveLength(1)
  const job = /^(?:\S+\s+){5}(\S+)\s+(.*)$/.exec(jobs[0]!)!
  expect(job[1]).toBe('storeloc')
  const command = local(job[2]!.replaceAll('\\%', '%')) // cron reads "\%" as "%"
  const old = join(backups, '2026-11-01-0310.db')
  const kept = join(backups, '2026-12-01-0310.db')
  const partial = join(backups, `2026-12-02-0310.db.partial-${Bun.spawnSync(['true']).pid}`)
  for (const [file, daysAgo] of [
    [old, 15],
    [kept, 3],
    [partial, 2],
  ] as const) {
    writeFileSync(file, 'an earlier backup')
    const at = Date.now() / 1000 - daysAgo * 86_400
    utimesSync(file, at, at)
  }
  const p = Bun.spawnSync(['/bin/sh', '-c', command], { cwd: state, env })
  expect([p.exitCode, p.stderr.toString()]).toEqual([0, ''])
  expect(p.stdout.toString()).toStartWith(`Backed up ${join(state, 'storeloc.db')} to ${backups}/`)
  const made = readdirSync(backups).filter((f) => f !== '2026-12-01-0310.db')
  expect(made).toHaveLength(1)
  expect(made[0]).toMatch(/^\d{4}-\d{2}-\d{2}-\d{4}\.db$/)
  expect([existsSync(old), existsSync(partial), existsSync(kept)]).toEqual([false, false, true])
})
