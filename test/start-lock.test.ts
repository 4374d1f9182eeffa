// A start that meets another process's write lock (a long CLI import during a restart): it waits
// on a timer, answering /healthz meanwhile, up to LOCK_WAIT_SECONDS, then exits with one line
// naming the process. Real processes, real locks.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { openStore } from '../src/store'
import { MIGRATIONS } from '../src/store/migrations'
import { olderSchemaDatabase, sendRaw, startOnFreePort, startServer, tempDir } from './helpers'
import { holdLock, holdNewDatabase } from './hold-lock'

let dir: string
beforeAll(() => (dir = tempDir()))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A database at `path` with its schema one migration behind this program's. */
const oneMigrationBehind = (path: string) => olderSchemaDatabase(path, MIGRATIONS.length - 1)

const get = async (base: string, path: string) => {
  const res = await fetch(base + path)
  return { status: res.status, body: (await res.json()) as any, retryAfter: res.headers.get('retry-after') }
}

test('a database with locators starts at once under another process write lock: a start only reads it', async () => {
  const path = join(dir, 'made.db')
  openStore(path).close()
  const first = startServer(path, { DEMO: '0' })
  await first.waitFor(/"listening"/)
  first.proc.kill('SIGTERM')
  await first.proc.exited

  const holder = await holdLock(dir, path)
  try {
    const server = startServer(path, { DEMO: '0' })
    await server.waitFor(/"listening"/)
    expect(server.lines.join('\n')).not.toContain('waiting for the database')
    server.proc.kill('SIGTERM')
    expect(await server.proc.exited).toBe(0)
  } finally {
    holder.kill()
  }
})

for (const kind of [
  'a new database (the first locator to make)',
  'a migration to apply',
  'a migration to apply with WORKERS=2',
] as const) {
  test(`${kind} under another process write lock: /healthz answers "starting" while it waits, then it serves`, async () => {
    const path = join(dir, `${kind.length}.db`)
    const holder =
      kind === 'a new database (the first locator to make)'
        ? await holdNewDatabase(dir, path)
        : await holdLock(dir, oneMigrationBehind(path))
    // A start that ends instead of waiting fails the test at once, with what it said.
    const {
      server,
      port,
      line: said,
    } = await startOnFreePort(
      path,
      { DEMO: '0', WORKERS: kind.endsWith('WORKERS=2') ? '2' : '1' },
      /waiting for the database/,
    )
    const base = `http://127.0.0.1:${port}`
    const waiting = JSON.parse(said)
    expect(waiting.level).toBe('warn')
    expect(waiting.holder).toContain(`process ${holder.pid} (`)
    expect(waiting.holder).toContain('hold-lock.ts')
    // An upgrade says first which other processes have the file open: one may be an older server.
    const upgrading = server.lines.filter((l) => l.includes('upgrading the database schema')).map((l) => JSON.parse(l))
    if (kind === 'a new database (the first locator to make)') expect(upgrading).toEqual([])
    else {
      expect(upgrading).toHaveLength(1)
      expect(upgrading[0].level).toBe('warn')
      expect(upgrading[0].message).toContain(`from version ${MIGRATIONS.length - 1} to ${MIGRATIONS.length}`)
      expect(upgrading[0].processes).toEqual([expect.stringContaining(`process ${holder.pid} (`)])
    }
    expect(await get(base, '/healthz')).toEqual({ status: 200, body: { status: 'starting' }, retryAfter: null })
    const ready = await get(base, '/readyz')
    expect(ready.status).toBe(503)
    expect(ready.body.status).toBe('starting')
    const admin = await get(base, '/admin/v1/locations')
    expect([admin.status, admin.body.error, admin.retryAfter]).toEqual([503, 'unavailable', '1'])
    const pub = await get(base, '/public/v1/pk_x/locations?lat=1&lng=2')
    expect([pub.status, pub.body.error.code, pub.retryAfter]).toEqual([503, 'UNAVAILABLE', '1'])
    // A finder on a shop's site reads it too, with its Retry-After: CORS as on the Query API's other errors.
    const fromShop = await fetch(`${base}/public/v1/pk_x/locations?lat=1&lng=2`, {
      headers: { origin: 'https://shop.example.com' },
    })
    expect([
      fromShop.status,
      fromShop.headers.get('access-control-allow-origin'),
      fromShop.headers.get('access-control-expose-headers'),
    ]).toEqual([503, 'https://shop.example.com', expect.stringContaining('Retry-After')])
    // Without a Host (HTTP/1.0), the path alone is read.
    const bare = await sendRaw(Number(port), 'GET /admin/v1/locations HTTP/1.0\r\n\r\n')
    expect(bare).toStartWith('HTTP/1.1 503')
    expect(bare).toContain('"error":"unavailable"')
    expect(bare.toLowerCase()).toContain('x-content-type-options: nosniff')
    expect(bare.toLowerCase()).toContain('cache-control: no-store')
    // These answers are requests too: each has its request id and its request line.
    const proxied = await fetch(`${base}/readyz`, { headers: { 'x-request-id': 'lb-start-0001' } })
    expect([proxied.status, proxied.headers.get('x-request-id')]).toEqual([503, 'lb-start-0001'])
    expect(bare.toLowerCase()).toMatch(/x-request-id: [0-9a-z]{16}\r\n/)
    const line = JSON.parse(await server.waitFor(/"request_id":"lb-start-0001"/))
    expect(line).toMatchObject({ level: 'info', method: 'GET', path: '/readyz', status: 503, locator: null })
    const requestLines = server.lines.filter((l) => l.includes('"status":503')).map((l) => JSON.parse(l))
    expect(requestLines.map((l) => l.path)).toEqual([
      '/readyz',
      '/admin/v1/locations',
      '/public/v1/pk_x/locations',
      '/public/v1/pk_x/locations',
      '/admin/v1/locations',
      '/readyz',
    ])

    holder.release()
    expect(await holder.exited).toBe(0)
    await server.waitFor(/"listening"/)
    expect(await get(base, '/healthz')).toEqual({ status: 200, body: { status: 'ok' }, retryAfter: null })
    const store = openStore(path)
    expect(store.locators.count()).toBe(1)
    store.close()
    server.proc.kill('SIGTERM')
    expect(await server.proc.exited).toBe(0)
  })
}

for (const workers of ['1', '2']) {
  test(`a stop while the start waits (WORKERS=${workers}), the lock let go during it: its requests are answered, the start goes no further and writes nothing`, async () => {
    const path = join(dir, `stopped-${workers}.db`)
    const holder = await holdNewDatabase(dir, path)
    try {
      const { server, port } = await startOnFreePort(path, { DEMO: '0', WORKERS: workers }, /waiting for the database/)
      const base = `http://127.0.0.1:${port}`
      // Under way when the stop comes: widget.js is built on its first request.
      const inFlight = fetch(`${base}/widget.js`).then((r) => r.status, String)
      server.proc.kill('SIGTERM')
      await server.waitFor(/"shutting down"/)
      holder.release()
      expect(await holder.exited).toBe(0)
      // Requests keep the stop's drain going (up to a second), over the start's next tries for the lock.
      let exited = false
      const code = server.proc.exited.finally(() => (exited = true))
      while (!exited) {
        await fetch(`${base}/healthz`).then(
          (r) => r.arrayBuffer(),
          () => null,
        )
        await Bun.sleep(10)
      }
      expect(await code).toBe(0)
      expect(await inFlight).toBe(200)
      await server.ended
      expect(server.lines.filter((l) => /"listening"|first locator|"stopped"/.test(l))).toEqual([
        expect.stringContaining('"stopped"'),
      ])
      const db = new Database(path, { readonly: true })
      expect(db.query('SELECT count(*) AS n FROM sqlite_master').get()).toEqual({ n: 0 })
      db.close()
    } finally {
      holder.kill()
    }
  })
}

test('a lock held past --lock-wait ends the start with one line naming the process that holds it', async () => {
  const path = join(dir, 'held.db')
  oneMigrationBehind(path)
  const holder = await holdLock(dir, path)
  try {
    const server = startServer(path, { DEMO: '0', LOCK_WAIT_SECONDS: '30' }, [
      process.execPath,
      join(import.meta.dir, '..', 'src/main.ts'),
      '--lock-wait',
      '1',
    ])
    expect(await server.proc.exited).toBe(1)
    const stderr = (await new Response(server.proc.stderr).text()).trim()
    expect(stderr.split('\n')).toHaveLength(1)
    expect(stderr).toContain(`Cannot use the database at ${path}: another process has held its write lock for 1 s`)
    expect(stderr).toContain(`process ${holder.pid} (`)
    expect(stderr).not.toContain('    at ')
    const db = new Database(path, { readonly: true })
    expect(db.query<{ v: number }, []>('SELECT user_version AS v FROM pragma_user_version').get()!.v).toBe(
      MIGRATIONS.length - 1,
    )
    db.close()
  } finally {
    holder.kill()
  }
})
