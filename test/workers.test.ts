// WORKERS=N: a primary and N worker processes sharing one port (SO_REUSEPORT), through the real
// server. Which worker answered a connection is read from Linux's /proc (the server-side socket's
// inode, found among the workers' open files), so the API needs no process id of its own.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { checkWorkers, ConfigError, loadConfig, MAX_WORKERS } from '../src/core/config'
import { createLocator, setLocatorSettings } from '../src/operator'
import { openStore } from '../src/store'
import { cliRunner, locationRecord, serverUrl, startServer, tempDir, type Running } from './helpers'
import { parseExposition, sampleValue } from './metrics-parse'

const ROOT = join(import.meta.dir, '..')

/** Live (not zombie) processes whose parent is `pid`, sorted. */
function childrenOf(pid: number): number[] {
  const out: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(ppid) === pid && state !== 'Z') out.push(Number(entry))
    } catch {
      // gone meanwhile
    }
  }
  return out.sort((a, b) => a - b)
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat[stat.lastIndexOf(')') + 2] !== 'Z'
  } catch {
    return false
  }
}

/** The process among `pids` holding the server side of this connection, or null. */
function ownerOf(socket: Socket, pids: number[]): number | null {
  const hex = (n: number) => `:${n.toString(16).toUpperCase().padStart(4, '0')}`
  let inode: string | undefined
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/)
      // local address, remote address, ..., inode: the server side is local = the server's port.
      if (f.length > 9 && f[1]!.endsWith(hex(socket.remotePort!)) && f[2]!.endsWith(hex(socket.localPort!)))
        inode = f[9]
    }
  }
  if (!inode || inode === '0') return null
  for (const pid of pids) {
    let fds: string[] = []
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return pid
      } catch {
        // closed meanwhile
      }
    }
  }
  return null
}

const open = (port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => resolve(socket))
    socket.once('error', reject)
  })

type Reply = { status: number; headers: Record<string, string>; body: any }

/** One whole HTTP/1.1 response (Content-Length framed) read from the socket, which stays open. */
function readReply(socket: Socket): Promise<Reply> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0)
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk])
      const end = buf.indexOf('\r\n\r\n')
      if (end < 0) return
      const [statusLine, ...lines] = buf.subarray(0, end).toString().split('\r\n')
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      )
      const length = Number(headers['content-length'])
      if (!Number.isInteger(length)) return reject(new Error(`no Content-Length in ${statusLine}`))
      if (buf.length < end + 4 + length) return
      socket.off('data', onData)
      const text = buf.subarray(end + 4, end + 4 + length).toString()
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text ? JSON.parse(text) : null })
    }
    socket.on('data', onData)
    socket.once('error', reject)
    socket.once('close', () => reject(new Error('connection closed before a whole response')))
  })
}

/** The TCP ports on which `pid` holds a listening socket (state 0A in /proc/net/tcp*), sorted. */
function listeningPortsOf(pid: number): number[] {
  const inodes = new Set<string>()
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
        if (m) inodes.add(m[1]!)
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    return []
  }
  const ports = new Set<number>()
  if (inodes.size === 0) return []
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    // Split only a listening socket's line: a busy machine's file has tens of thousands (TIME_WAIT),
    // and a slow look can miss a hold that lasts a moment.
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      if (!line.includes(' 0A ')) continue
      const f = line.trim().split(/\s+/)
      if (f.length > 9 && f[3] === '0A' && inodes.has(f[9]!))
        ports.add(parseInt(f[1]!.slice(f[1]!.lastIndexOf(':') + 1), 16))
    }
  }
  return [...ports].sort((a, b) => a - b)
}

/** A GET on a fresh connection (the kernel picks the worker), and which worker answered it. */
async function freshGet(port: number, path: string, workers: number[]): Promise<Reply & { pid: number | null }> {
  const socket = await open(port)
  try {
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
    const reply = await readReply(socket)
    return { ...reply, pid: ownerOf(socket, workers) }
  } finally {
    socket.destroy()
  }
}

/** Polls `probe` until it gives a value; `ms` ends a hang (a worker's start at load 20 takes seconds). */
async function until<T>(
  what: string,
  probe: () => T | null | undefined | Promise<T | null | undefined>,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(25)
  }
}

describe('WORKERS=2', () => {
  let dir: string
  let server: Running
  let primary: number
  let port: number
  let key: string
  let token: string
  let metrics: string
  const errors: string[] = []

  beforeAll(async () => {
    dir = tempDir()
    // Each worker's indexes in the metrics, the largest by locator: what a test waits for.
    const env = { WORKERS: '2', DEMO: '0', GEOCODER: 'none', LOG_REQUESTS: '0', METRICS_PORT: '0' }
    server = startServer(join(dir, 'workers.db'), { ...env, METRICS_LOCATOR_SERIES: '2' })
    primary = server.proc.pid
    void (async () => {
      const decoder = new TextDecoder()
      for await (const chunk of server.proc.stderr) errors.push(...decoder.decode(chunk).split('\n').filter(Boolean))
    })()
    port = Number(new URL(await serverUrl(server)).port)
    metrics = JSON.parse(await server.waitFor(/"metrics listening"/)).url
    // Its output is no terminal: no key printed; one made as the start-up lines say.
    const locatorId = /key create (lct_\w+)/.exec(server.lines.join('\n'))![1]!
    key = cliRunner(() => join(dir, 'workers.db')).json('key', 'create', locatorId).secret_key
    token = /public token:\s+(pk_\w+)/.exec(server.lines.join('\n'))![1]!
  }, 30_000)

  afterAll(async () => {
    if (server.proc.exitCode === null) {
      server.proc.kill('SIGTERM')
      await server.proc.exited
    }
    rmSync(dir, { recursive: true, force: true })
  })

  test('the primary prints the start-up lines once and runs two workers, both answering on the one port', async () => {
    const count = (re: RegExp) => server.lines.filter((l) => re.test(l)).length
    expect(count(/Created your first locator/)).toBe(1)
    expect(count(/key create lct_/)).toBe(1)
    expect(count(/sk_/)).toBe(0)
    expect(count(/"listening"/)).toBe(1)
    const listening = JSON.parse(server.lines.find((l) => l.includes('"listening"'))!)
    expect(listening.workers).toBe(2)

    const workers = childrenOf(primary)
    expect(workers).toHaveLength(2)
    expect([...listening.pids].sort((a: number, b: number) => a - b)).toEqual(workers)
    // Each worker builds its indexes before it listens, and says so under its pid.
    const loaded = server.lines.filter((l) => l.includes('"indexes loaded"')).map((l) => JSON.parse(l))
    expect(loaded.map((l) => l.pid).sort((a: number, b: number) => a - b)).toEqual(workers)
    for (const l of loaded) expect(l).toMatchObject({ level: 'info', failed: 0, locators: expect.any(Number) })
    const answeredBy = new Set<number | null>()
    for (let i = 0; i < 40; i++) {
      const reply = await freshGet(port, '/healthz', workers)
      expect(reply.status).toBe(200)
      answeredBy.add(reply.pid)
    }
    expect([...answeredBy].sort((a, b) => a! - b!)).toEqual(workers)
  }, 30_000)

  /** A GET on many fresh connections: every answer is a 200 that passes `check`, and both workers answered. */
  async function askEveryWorker(path: string, check: (body: any) => void): Promise<void> {
    const workers = childrenOf(primary)
    const answeredBy = new Set<number | null>()
    for (let i = 0; i < 24; i++) {
      const reply = await freshGet(port, path, workers)
      expect(reply.status).toBe(200)
      check(reply.body)
      answeredBy.add(reply.pid)
    }
    expect([...answeredBy].sort((a, b) => a! - b!)).toEqual(workers)
  }

  test('a write through one worker is in the very next query of every worker', async () => {
    // A third process switches the Query API on; both workers pick it up from the change log.
    const store = openStore(join(dir, 'workers.db'))
    setLocatorSettings(store, store.locators.byToken(token)!.id, { queryApi: 'on' })
    store.close()

    const near = `/public/v1/${token}/locations?lat=52.52&lng=13.405&radius=10&unit=km`
    const everywhere = (check: (body: any) => void) => askEveryWorker(near, check)
    await everywhere((body) => expect(body.data.pagination.total).toBe(0)) // each worker has its index loaded

    const admin = (path: string, body: unknown) =>
      fetch(`http://127.0.0.1:${port}/admin/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))
    const created = await admin('/locations', {
      name: 'Berlin Mitte',
      address: 'Unter den Linden 1, 10117 Berlin',
      coordinates: { lat: 52.517, lng: 13.389 },
    })
    expect(created.status).toBe(201)
    const id = created.body.location.id
    await everywhere((body) => expect(body.data.locations.map((l: any) => l.id)).toEqual([id]))

    expect((await admin(`/locations/${id}`, { coordinates: { lat: 48.137, lng: 11.575 } })).status).toBe(200) // to Munich
    await everywhere((body) => expect(body.data.pagination.total).toBe(0))
  }, 30_000)

  test('a locator another process makes public is built by every worker before its first query', async () => {
    // Each worker applies what was committed once a second with no query asking, and builds a
    // locator made public in a background task.
    const store = openStore(join(dir, 'workers.db'))
    const { locator } = createLocator(store, 'Made elsewhere')
    setLocatorSettings(store, locator.id, { queryApi: 'on' })
    store.write(() => {
      for (let i = 0; i < 30; i++) {
        const body = {
          name: `Elsewhere ${i}`,
          address: `${i} Main Street, Paris`,
          coordinates: { lat: 48.85 + i * 0.001, lng: 2.35 },
          status: 'published',
        }
        store.locations.insert(locationRecord(locator.id, body))
      }
    })
    const other = store.locators.get(locator.id)!.publicToken
    // Each worker's sync (a second's turn) sees it, builds it and fills its JSON (30 rows: one
    // page, at once) in background tasks; the metrics show each worker's index.
    const built = async () => {
      const families = parseExposition(await (await fetch(metrics)).text())
      const of = (name: string, worker: string) => sampleValue(families, name, { worker, locator: locator.id })
      return ['1', '2'].every((w) => of('storeloc_index_locations', w) === 30 && of('storeloc_index_json_bytes', w) > 0)
    }
    await until('every worker to build it', built)
    // The rows now go behind the change log's back: an index built by a first query would not hold them.
    store.db.run('DELETE FROM locations WHERE locator_id = ?', [locator.id])
    store.close()
    await askEveryWorker(`/public/v1/${other}/locations?lat=48.86&lng=2.35&radius=20&unit=km&limit=1`, (body) =>
      expect(body.data.pagination.total).toBe(30),
    )
  }, 30_000)

  test('a killed worker is replaced, with one log line, and the new one answers', async () => {
    const [victim, survivor] = childrenOf(primary) as [number, number]
    process.kill(victim, 'SIGKILL')
    const workers = await until('a replacement worker', () => {
      const now = childrenOf(primary)
      return now.length === 2 && !now.includes(victim) ? now : null
    })
    expect(workers).toContain(survivor)
    const replacement = workers.find((p) => p !== survivor)!
    await until(
      'the replacement to answer',
      async () => (await freshGet(port, '/healthz', workers)).pid === replacement,
    )

    const logged = errors.filter((l) => l.includes('worker stopped'))
    expect(logged).toHaveLength(1)
    expect(JSON.parse(logged[0]!)).toMatchObject({
      level: 'error',
      message: 'worker stopped; starting another',
      pid: victim,
      signal: 'SIGKILL',
      restart_in_ms: 500,
    })
    expect(server.proc.exitCode).toBeNull()
  }, 30_000)

  test('SIGTERM: every worker stops accepting, finishes its in-flight request, and the primary exits 0', async () => {
    const workers = childrenOf(primary)
    // A create whose body is half sent when the signal arrives.
    const body = JSON.stringify({
      name: 'Late Store',
      address: 'Alexanderplatz 1, 10178 Berlin',
      coordinates: { lat: 52.5219, lng: 13.4132 },
    })
    const half = Math.floor(body.length / 2)
    const socket = await open(port)
    // Bun answers 100 Continue as it hands the request to the app: from then on it is under way.
    const underWay = new Promise((resolve) => socket.once('data', resolve))
    socket.write(
      `POST /admin/v1/locations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    )
    expect(String(await underWay)).toStartWith('HTTP/1.1 100 Continue')
    const reply = readReply(socket)
    socket.write(body.slice(0, half))
    await until('the worker to accept the connection', () => ownerOf(socket, workers))

    server.proc.kill('SIGTERM')
    // Nobody accepts any more, once the signal has gone through the primary to both workers.
    await until('the workers to stop accepting', () =>
      open(port).then(
        (probe) => (probe.destroy(), null),
        () => true,
      ),
    )
    await Bun.sleep(100)
    expect(server.proc.exitCode).toBeNull() // waiting for the request in flight

    socket.write(body.slice(half))
    const answer = await reply
    socket.destroy()
    expect(answer.status).toBe(201)
    expect(answer.body.location.name).toBe('Late Store')

    expect(await server.proc.exited).toBe(0) // the test's timeout ends a hang
    expect(server.lines.filter((l) => l.includes('"shutting down"'))).toHaveLength(1)
    for (const pid of workers) expect(alive(pid)).toBe(false)

    const store = openStore(join(dir, 'workers.db'))
    expect(store.locations.get(store.locators.byToken(token)!.id, answer.body.location.id)?.name).toBe('Late Store')
    store.close()
  }, 30_000)

  test('a primary killed outright takes its workers with it: none is left holding the port', async () => {
    const own = tempDir()
    const server = startServer(join(own, 'orphans.db'), {
      WORKERS: '2',
      DEMO: '0',
      GEOCODER: 'none',
      LOG_REQUESTS: '0',
    })
    try {
      const port = Number(new URL(await serverUrl(server)).port)
      const workers = childrenOf(server.proc.pid)
      expect(workers).toHaveLength(2)
      server.proc.kill('SIGKILL')
      await server.proc.exited
      await until('the workers to stop', () => workers.every((pid) => !alive(pid)))
      await expect(open(port)).rejects.toThrow()
    } finally {
      if (server.proc.exitCode === null) server.proc.kill('SIGKILL')
      rmSync(own, { recursive: true, force: true })
    }
  }, 30_000)
})

describe('WORKERS=2, PORT=0', () => {
  test('the primary holds the port the kernel picked until its workers listen on it, then lets it go', async () => {
    // Released at once, another process could bind the port before the workers do.
    const own = tempDir()
    const server = startServer(join(own, 'hold.db'), { WORKERS: '2', DEMO: '0', GEOCODER: 'none', LOG_REQUESTS: '0' })
    try {
      const held = new Set<number>()
      const watching = (async () => {
        while (!server.lines.some((l) => l.includes('"listening"')) && server.proc.exitCode === null) {
          for (const p of listeningPortsOf(server.proc.pid)) held.add(p)
          await Bun.sleep(2)
        }
      })()
      const port = Number(new URL(await serverUrl(server)).port)
      await watching
      expect([...held]).toEqual([port])
      expect(listeningPortsOf(server.proc.pid)).toEqual([])
      const workers = childrenOf(server.proc.pid)
      for (const pid of workers) expect(listeningPortsOf(pid)).toEqual([port])
      for (let i = 0; i < 12; i++) expect((await freshGet(port, '/healthz', workers)).status).toBe(200)
    } finally {
      if (server.proc.exitCode === null) {
        server.proc.kill('SIGTERM')
        await server.proc.exited
      }
      rmSync(own, { recursive: true, force: true })
    }
  }, 30_000)
})

describe('WORKERS=2, a configured PORT', () => {
  test('the primary holds the port until its workers listen: a second server started on it meanwhile is refused, not let share it', async () => {
    const own = tempDir()
    const free = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
    const port = free.port!
    free.stop(true)
    const server = startServer(join(own, 'first.db'), {
      WORKERS: '2',
      DEMO: '0',
      GEOCODER: 'none',
      LOG_REQUESTS: '0',
      PORT: String(port),
    })
    let second: ReturnType<typeof Bun.spawn> | null = null
    try {
      const held = new Set<number>()
      while (!server.lines.some((l) => l.includes('"listening"')) && server.proc.exitCode === null) {
        for (const p of listeningPortsOf(server.proc.pid)) held.add(p)
        if (held.size > 0 && second === null) {
          second = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts')], {
            cwd: ROOT,
            env: {
              ...process.env,
              DATABASE_PATH: join(own, 'second.db'),
              PORT: String(port),
              HOST: '127.0.0.1',
              WORKERS: '2',
              DEMO: '0',
              GEOCODER: 'none',
            },
            stdout: 'pipe',
            stderr: 'pipe',
          })
        }
        await Bun.sleep(2)
      }
      expect([...held]).toEqual([port])
      expect(second).not.toBeNull()
      expect(await second!.exited).toBe(1)
      expect(await new Response(second!.stderr as ReadableStream).text()).toContain(
        `Cannot listen on 127.0.0.1:${port} (EADDRINUSE)`,
      )
      await serverUrl(server)
      expect(listeningPortsOf(server.proc.pid)).toEqual([])
      const workers = childrenOf(server.proc.pid)
      for (const pid of workers) expect(listeningPortsOf(pid)).toEqual([port])
      for (let i = 0; i < 8; i++) expect((await freshGet(port, '/healthz', workers)).status).toBe(200)
    } finally {
      if (second !== null && second.exitCode === null) second.kill('SIGTERM')
      if (server.proc.exitCode === null) {
        server.proc.kill('SIGTERM')
        await server.proc.exited
      }
      rmSync(own, { recursive: true, force: true })
    }
  }, 30_000)
})

test('a worker whose database file is gone (deleted or moved since the primary made it) stops with one line and makes no empty one', async () => {
  const own = tempDir()
  try {
    const path = join(own, 'gone.db')
    const worker = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_PATH: path,
        PORT: '0',
        HOST: '127.0.0.1',
        STORELOC_WORKER: '1',
        GEOCODER: 'none',
        DEMO: '0',
      },
      stdout: 'pipe',
      stderr: 'pipe',
      ipc() {},
    })
    expect(await worker.exited).toBe(3)
    expect((await new Response(worker.stderr).text()).trim()).toBe(
      `Cannot use the database at ${path}: the file is gone (the primary made it at start), and a worker does not make an empty one. Put the file back, then start the service again.`,
    )
    expect(existsSync(path)).toBe(false)
  } finally {
    rmSync(own, { recursive: true, force: true })
  }
})

describe('WORKERS configuration', () => {
  test('values: default 1, 1 to 64, auto is one per core; anything else is refused by name', () => {
    expect(loadConfig({}).workers).toBe(1)
    expect(loadConfig({ WORKERS: '' }).workers).toBe(1)
    expect(loadConfig({ WORKERS: '4' }).workers).toBe(4)
    expect(loadConfig({ WORKERS: '2.0' }).workers).toBe(2)
    expect(loadConfig({ WORKERS: 'auto' }, 6).workers).toBe(6)
    expect(loadConfig({ WORKERS: 'auto' }, 256).workers).toBe(MAX_WORKERS)
    for (const bad of ['0', '65', '1.5', 'two', '-1', ' ', '0x2', '1e1']) {
      expect(() => loadConfig({ WORKERS: bad })).toThrow(ConfigError)
    }
    expect(() => loadConfig({ WORKERS: '0' }, 2)).toThrow(
      'WORKERS must be a whole number from 1 to 64, or auto (one per core: 2 here); got "0".',
    )
  })

  test('more than one worker needs Linux, and not the public Nominatim', () => {
    expect(() => checkWorkers(loadConfig({ WORKERS: '2' }), 'darwin')).toThrow(/needs Linux/)
    expect(() => checkWorkers(loadConfig({ WORKERS: '1' }), 'darwin')).not.toThrow()
    const nominatim = { GEOCODER: 'nominatim', GEOCODER_USER_AGENT: 'acme/1.0 (ops@acme.example)' }
    expect(() => checkWorkers(loadConfig({ ...nominatim, WORKERS: '2' }), 'linux')).toThrow(/one request per second/)
    expect(() =>
      checkWorkers(loadConfig({ ...nominatim, WORKERS: '2', GEOCODER_URL: 'http://127.0.0.1:8080' }), 'linux'),
    ).not.toThrow()
  })

  test('a bad WORKERS or --workers stops the start with a clear message and exit code 2', async () => {
    const dir = tempDir()
    try {
      const runs = [
        {
          env: { WORKERS: 'two' },
          args: [],
          says: 'Configuration error: WORKERS must be a whole number from 1 to 64, or auto',
        },
        { env: { WORKERS: '65' }, args: [], says: 'got "65"' },
        {
          env: {},
          args: ['--workers', '0'],
          says: 'Configuration error: --workers must be a whole number from 1 to 64',
        },
        {
          env: { STORELOC_WORKER: '1' },
          args: [],
          says: 'STORELOC_WORKER is set by the primary process for its workers only',
        },
      ]
      await Promise.all(
        runs.map(async ({ env, args, says }, i) => {
          const proc = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts'), ...args], {
            cwd: ROOT,
            env: {
              ...process.env,
              DATABASE_PATH: join(dir, `bad-${i}.db`),
              PORT: '0',
              HOST: '127.0.0.1',
              GEOCODER: 'none',
              DEMO: '0',
              ...env,
            },
            stdout: 'pipe',
            stderr: 'pipe',
          })
          expect(await proc.exited).toBe(2)
          expect(await new Response(proc.stderr).text()).toContain(says)
          expect(await new Response(proc.stdout).text()).toBe('') // nothing started, nothing printed
        }),
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 15_000)

  test('WORKERS=1 is one process, as without it', async () => {
    const dir = tempDir()
    const server = startServer(join(dir, 'one.db'), { WORKERS: '1', DEMO: '0', GEOCODER: 'none', LOG_REQUESTS: '0' })
    try {
      const listening = JSON.parse(await server.waitFor(/"listening"/))
      expect(listening.workers).toBeUndefined()
      expect(childrenOf(server.proc.pid)).toEqual([])
      expect((await fetch(`${await serverUrl(server)}/healthz`)).status).toBe(200)
    } finally {
      server.proc.kill('SIGTERM')
      expect(await server.proc.exited).toBe(0)
      rmSync(dir, { recursive: true, force: true })
    }
  }, 15_000)
})
