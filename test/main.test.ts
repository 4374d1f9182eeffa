// The README's promise: `npm start` on a new database prints a curl line that works.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { MIGRATIONS } from '../src/store/migrations'
import { cliRunner, newerSchemaDatabase, serverUrl, startInTerminal, startServer as start, tempDir } from './helpers'

const ROOT = join(import.meta.dir, '..')
let dir: string
beforeAll(() => (dir = tempDir()))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('first start in a terminal creates a locator, prints a working curl line once; SIGTERM stops cleanly', async () => {
  const db = join(dir, 'first.db')
  const first = startInTerminal(db)
  const curl = await first.waitFor(/curl -H "Authorization: Bearer sk_/)
  await first.waitFor(/"listening"/)
  expect(first.lines.some((l) => /locator id:\s+lct_[0-9a-z]{16}/.test(l))).toBe(true)
  expect(first.lines.some((l) => /public token:\s+pk_[0-9A-Za-z]{24}/.test(l))).toBe(true)

  const [, key, url] = /Bearer (sk_\w+)" (http:\/\/\S+)/.exec(curl)!
  const res = await fetch(url!, { headers: { authorization: `Bearer ${key}` } })
  expect(res.status).toBe(200)
  expect(await res.json()).toEqual({
    success: true,
    locations: [],
    pagination: { page: 1, limit: 10, total: 0, total_pages: 0, next: null, previous: null },
  })
  first.proc.kill('SIGTERM')
  expect(await first.proc.exited).toBe(0)

  // A second start on the same database creates nothing and prints no key.
  const second = start(db)
  await second.waitFor(/"listening"/)
  expect(second.lines.join('\n')).not.toContain('sk_')
  const again = await fetch(
    url!.replace(/:\d+\//, `:${new URL(JSON.parse(second.lines.find((l) => l.includes('"listening"'))!).url).port}/`),
    {
      headers: { authorization: `Bearer ${key}` },
    },
  )
  expect(again.status).toBe(200)
  second.proc.kill('SIGTERM')
  expect(await second.proc.exited).toBe(0)
})

test('a bad configuration value stops the start with a clear message', async () => {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_PATH: join(dir, 'bad.db'), PORT: 'eighty' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  expect(await proc.exited).toBe(2)
  expect(await new Response(proc.stderr).text()).toContain('PORT must be a whole number')
})

test('a database it cannot use, or an address it cannot listen on, stops the start with one line saying what to mend, no stack trace', async () => {
  const notDatabase = join(dir, 'not-a-database')
  writeFileSync(notDatabase, 'hello')
  const newer = newerSchemaDatabase(join(dir, 'newer.db'))
  const foreign = join(dir, 'invoices.db')
  const invoices = new Database(foreign)
  invoices.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)')
  invoices.close()
  const foreignBytes = readFileSync(foreign)
  const taken = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('taken') })
  try {
    // 3: a file only a person can mend; 1: an address that may come free or come up.
    const cases: [env: Record<string, string>, says: string, code: number][] = [
      [
        { DATABASE_PATH: dir },
        `Cannot use the database at ${dir}: unable to open database file. ${dir} is a folder, not a database file: set DATABASE_PATH to the database file.`,
        3,
      ],
      [{ DATABASE_PATH: notDatabase }, `Cannot use the database at ${notDatabase}: file is not a database.`, 3],
      [
        { DATABASE_PATH: newer },
        `Cannot use the database at ${newer}: The database schema (version 999) is newer than this program (version ${MIGRATIONS.length}). Run the newer storeloc, or restore a backup made before the upgrade (storeloc restore FILE).`,
        3,
      ],
      [
        { DATABASE_PATH: foreign },
        `Cannot use the database at ${foreign}: The file is another program's SQLite database (tables invoices), not storeloc's; it was left as it is.`,
        3,
      ],
      [
        { DATABASE_PATH: `${foreign}-wal` },
        `Cannot use the database at ${foreign}-wal: ${foreign}-wal is SQLite's -wal file of the database ${foreign}, no database itself. Nothing was changed. Name the database: --database ${foreign} (or DATABASE_PATH).`,
        3,
      ],
      [
        { DATABASE_PATH: join(dir, 'taken.db'), HOST: '127.0.0.1', PORT: String(taken.port) },
        `Cannot listen on 127.0.0.1:${taken.port} (EADDRINUSE): another program uses port ${taken.port}: stop it, or choose another PORT (--port).`,
        1,
      ],
      [
        { DATABASE_PATH: join(dir, 'taken.db'), HOST: '127.0.0.1', PORT: String(taken.port), WORKERS: '2' },
        `Cannot listen on 127.0.0.1:${taken.port} (EADDRINUSE)`,
        1,
      ],
      [
        { DATABASE_PATH: join(dir, 'elsewhere.db'), HOST: '192.0.2.1', PORT: '0' },
        'Cannot listen on 192.0.2.1:0 (EADDRNOTAVAIL)',
        1,
      ], // TEST-NET-1: no address of this machine
      [
        // No name a resolver is asked about: the test reaches no DNS server.
        { DATABASE_PATH: join(dir, 'elsewhere.db'), HOST: 'no such host', PORT: '0' },
        'Cannot listen on no such host:0 (ENOTFOUND): HOST (--host) is not an address of this machine (0.0.0.0 for all of them, 127.0.0.1 for this machine only), or a name of one.',
        1,
      ],
      [
        { DATABASE_PATH: join(dir, 'metrics.db'), METRICS_PORT: String(taken.port) },
        `Cannot listen for metrics on 127.0.0.1:${taken.port} (EADDRINUSE): another program uses port ${taken.port}: stop it, or choose another METRICS_PORT (--metrics-port).`,
        1,
      ],
      [
        { DATABASE_PATH: join(dir, 'metrics.db'), METRICS_PORT: '0', METRICS_HOST: 'no such host' },
        'Cannot listen for metrics on no such host:0 (ENOTFOUND): METRICS_HOST (--metrics-host) is not an address of this machine (0.0.0.0 for all of them, 127.0.0.1 for this machine only), or a name of one.',
        1,
      ],
    ]
    for (const [env, says, exit] of cases) {
      const proc = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts')], {
        cwd: ROOT,
        env: { ...process.env, DEMO: '0', PORT: '0', GEOCODER: 'none', ...env },
        stdout: 'pipe',
        stderr: 'pipe',
      })
      const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
      expect({ env, code, stderr: stderr.trim().split('\n') }).toEqual({
        env,
        code: exit,
        stderr: [expect.stringContaining(says)],
      })
      if (env.DATABASE_PATH === newer) expect(stderr.trim()).toBe(says) // its own reason alone: no advice on the file's path
    }
    expect(readFileSync(foreign).equals(foreignBytes)).toBe(true) // no table, no WAL mode written into it
    expect(existsSync(`${foreign}-wal`)).toBe(false)
  } finally {
    taken.stop(true)
  }
}, 30_000)

test('first start loads the demo: the printed public curl line returns real stores, nearest first', async () => {
  const server = start(join(dir, 'demo.db'))
  try {
    const line = await server.waitFor(/curl "http:\/\/.*\/public\/v1\//)
    const url = /curl "([^"]+)"/.exec(line)![1]!
    expect(server.lines.some((l) => /Loaded the demo: \d{3} stores/.test(l))).toBe(true)
    const res = await fetch(url)
    expect(res.status).toBe(200)
    const body = (await res.json()) as any
    expect(body.data.locations.length).toBe(3)
    const d = body.data.locations.map((l: any) => l.distance.value)
    expect(d).toEqual([...d].sort((a: number, b: number) => a - b))
    expect(body.meta.query).toEqual({ center: { lat: 51.5074, lng: -0.1278 }, radius: 10, unit: 'km' })
    // The start builds the public locators' indexes (the demo's; the first locator's Query API is off), then says so; /readyz agrees.
    const loadedLine = await server.waitFor(/"indexes loaded"/)
    // Every line leads with its time, so a log read without journald or Docker is still dated.
    expect(loadedLine).toStartWith('{"time":"')
    const loaded = JSON.parse(loadedLine)
    expect(Math.abs(Date.parse(loaded.time) - Date.now())).toBeLessThan(60_000)
    const all = new URL(url)
    all.search = 'all=true&limit=1'
    const published = ((await (await fetch(all)).json()) as any).data.pagination.total
    expect(published).toBeGreaterThan(500)
    expect(loaded).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: 'info',
      message: 'indexes loaded',
      locators: 1,
      locations: published,
      failed: 0,
      ms: expect.any(Number),
    })
    const ready = await fetch(new URL('/readyz', url))
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready' })
  } finally {
    server.proc.kill('SIGTERM')
    await server.proc.exited
  }
})

for (const [launch, env, pastedIn] of [
  // npm runs the cli script in the project's folder.
  [
    'by npm (npm start)',
    { npm_lifecycle_event: 'start', npm_package_name: 'storeloc', npm_config_user_agent: 'npm/10.0.0' },
    ROOT,
  ],
  // npx sets npm_lifecycle_event too (to "npx"): its users have no cli script of ours.
  ['by npx (npx storeloc serve)', { npm_lifecycle_event: 'npx', npm_package_name: 'their-site' }, '/'],
  ['by bun, as a service manager or an image does', {}, '/'],
] as const) {
  test(`first start with its output not a terminal (a log), launched ${launch}: the locator but no key, and the command that makes one, which works`, async () => {
    // Started in another folder with a relative path the command must quote for the shell: the
    // command, run where it is pasted, must name the same file.
    const db = join(dir, `${launch.split(' ')[1]} logged here's.db`)
    // The geocoder's data the preload built (test/setup.ts): this folder would build its own.
    const server = start(
      db.slice(dir.length + 1),
      // Typed in this folder: npm names it in INIT_CWD (npm test's own names the package's).
      { DEMO: '0', GEODATA_PATH: join(ROOT, 'data/geocoder.sqlite'), INIT_CWD: dir, ...env },
      // With the case's npm variables, or none (npm test sets them for the tests).
      [
        'sh',
        '-c',
        `cd '${dir}' && exec env ${'npm_lifecycle_event' in env ? '' : '-u npm_lifecycle_event -u npm_package_name '}'${process.execPath}' '${ROOT}/src/main.ts'`,
      ],
    )
    try {
      const url = await serverUrl(server)
      const command = (await server.waitFor(/key create lct_/)).trim()
      // Not the default database: the command names it (through env when not by npm, for docker exec).
      expect(command).toStartWith(pastedIn === '/' ? 'env DATABASE_PATH=' : 'DATABASE_PATH=')
      expect(command).toContain(
        pastedIn === '/' ? ` ${process.execPath} ${ROOT}/src/storeloc.ts key create` : ' npm run -s cli -- key create',
      )
      expect(server.lines.join('\n')).toContain('Its secret key is not made here: this output is not a terminal')
      expect(server.lines.join('\n')).not.toContain('sk_')
      const locatorId = /key create (lct_[0-9a-z]{16})$/.exec(command)![1]!
      expect(cliRunner(() => db).json('key', 'list', locatorId)).toEqual([])
      // The line as printed, pasted into a shell.
      const made = Bun.spawnSync(['sh', '-c', `${command} --json`], {
        cwd: pastedIn,
        env: { ...process.env, DATABASE_PATH: '' },
      })
      expect({ code: made.exitCode, stderr: made.stderr.toString() }).toEqual({ code: 0, stderr: '' })
      const key = JSON.parse(made.stdout.toString()).secret_key as string
      const res = await fetch(`${url}/admin/v1/locations`, { headers: { authorization: `Bearer ${key}` } })
      expect(res.status).toBe(200)
    } finally {
      server.proc.kill('SIGTERM')
      await server.proc.exited
    }
  })
}

test('DEMO=0 and --no-demo skip the demo', async () => {
  for (const [env, args] of [
    [{ DEMO: '0' }, []],
    [{}, ['--no-demo']],
  ] as const) {
    const db = join(dir, `nodemo-${args.length}.db`)
    const proc = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_PATH: db, PORT: '0', HOST: '127.0.0.1', ...env },
      stdout: 'pipe',
    })
    let out = ''
    for await (const chunk of proc.stdout) {
      out += new TextDecoder().decode(chunk)
      if (out.includes('"listening"')) break
    }
    proc.kill('SIGTERM')
    await proc.exited
    expect(out).toContain('Created your first locator')
    expect(out).not.toContain('Loaded the demo')
    expect(out).not.toContain('/public/v1/')
  }
})

test('a body of any size over the limit gets the JSON 413, declared or streamed, and stores nothing', async () => {
  const server = startInTerminal(join(dir, 'big.db'), { DEMO: '0' })
  try {
    const curl = await server.waitFor(/curl -H "Authorization: Bearer sk_/)
    await server.waitFor(/"listening"/)
    const [, key, url] = /Bearer (sk_\w+)" (http:\/\/\S+)/.exec(curl)!
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const big = JSON.stringify({
      name: 'Big',
      address: 'x',
      coordinates: { lat: 1, lng: 2 },
      description: 'x'.repeat(8 * 1024 * 1024),
    })
    const streamed = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          const bytes = new TextEncoder().encode(big)
          for (let at = 0; at < bytes.length; at += 65536) controller.enqueue(bytes.subarray(at, at + 65536))
          controller.close()
        },
      })
    for (const body of [big, streamed()]) {
      const res = await fetch(url!, { method: 'POST', headers, body })
      expect(res.status).toBe(413)
      expect(await res.json()).toEqual({
        success: false,
        error: 'payload_too_large',
        message: expect.stringContaining('256 KiB'),
      })
    }
    const list = await fetch(url!, { headers })
    expect(((await list.json()) as { pagination: { total: number } }).pagination.total).toBe(0)
  } finally {
    server.proc.kill('SIGTERM')
    await server.proc.exited
  }
})

test('two servers started together on a new database make one first locator and one demo between them', async () => {
  const db = join(dir, 'together.db')
  const servers = [start(db), start(db)]
  try {
    await Promise.all(servers.map((s) => s.waitFor(/"listening"/)))
    const made = servers.flatMap((s) => s.lines.filter((l) => l.startsWith('Created your first locator')))
    expect(made.length).toBe(1)
  } finally {
    for (const s of servers) s.proc.kill('SIGTERM')
    await Promise.all(servers.map((s) => s.proc.exited))
  }
  const { Database } = await import('bun:sqlite')
  const file = new Database(db, { readonly: true })
  expect(file.query('SELECT name FROM locators ORDER BY name').all()).toEqual([
    { name: 'Demo: Northwind Outdoor' },
    { name: 'My store locator' },
  ])
  file.close()
})

test('the database file moved away under a running server is logged once, as is its return; /readyz says failed meanwhile', async () => {
  const db = join(dir, 'moved.db')
  const server = start(db, { DEMO: '0', LOG_REQUESTS: '0' })
  const url = await serverUrl(server)
  renameSync(db, `${db}.moved`)
  const logged = JSON.parse(await server.waitFor(/was moved or deleted after this process opened it/))
  expect(logged).toMatchObject({
    level: 'error',
    message: expect.stringContaining(`The database file ${db} was moved or deleted`),
  })
  expect((await fetch(new URL('/readyz', url))).status).toBe(503)
  renameSync(`${db}.moved`, db)
  await server.waitFor(/back at its path/)
  expect((await fetch(new URL('/readyz', url))).status).toBe(200)
  expect(server.lines.filter((l) => l.includes('opened it')).length).toBe(1)
  server.proc.kill('SIGTERM')
  expect(await server.proc.exited).toBe(0)
})

test('listening beyond loopback without PUBLIC_BASE_URL: one warning line saying what to set and why', async () => {
  const warningsOf = async (name: string, env: Record<string, string>) => {
    const server = start(join(dir, `${name}.db`), { DEMO: '0', GEOCODER: 'none', LOG_REQUESTS: '0', ...env })
    try {
      await serverUrl(server)
      // The stop's first line follows every line the start wrote, on the same output.
      server.proc.kill('SIGTERM')
      await server.waitFor(/"shutting down"/)
      return server.lines.filter((l) => l.includes('"warn"') && l.includes('PUBLIC_BASE_URL'))
    } finally {
      server.proc.kill('SIGTERM')
      await server.proc.exited
    }
  }
  for (const workers of ['1', '2']) {
    const [line, ...more] = await warningsOf(`any-host-${workers}`, { HOST: '0.0.0.0', WORKERS: workers })
    expect({ workers, more }).toEqual({ workers, more: [] })
    expect(JSON.parse(line!)).toMatchObject({
      level: 'warn',
      message: expect.stringMatching(
        /^PUBLIC_BASE_URL is unset .*Host.*http:\/\/ behind a TLS proxy.*Set PUBLIC_BASE_URL/,
      ),
      host: '0.0.0.0',
    })
  }
  expect(await warningsOf('based', { HOST: '0.0.0.0', PUBLIC_BASE_URL: 'https://stores.example.com' })).toEqual([])
  expect(await warningsOf('loopback', { HOST: '127.0.0.1' })).toEqual([])
})
