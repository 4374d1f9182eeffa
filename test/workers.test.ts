// WORKERS=N: a primary and N worker processes sharing one port (SO_REUSEPORT), through the real
// server. Which worker answered a connection is read from Linux's /proc (the server-side socket's
// inode, found among the workers' open files), so the API needs no process id of its own.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createLocator, setLocatorSettings } from '../src/operator'
import { openStore } from '../src/store'
import { cliRunner, locationRecord, serverUrl, startServer, stdoutLines, tempDir, type Running } from './helpers'
import { parseExposition, sampleValue } from './metrics-parse'
import { treeCpuTicks } from './process-waits'
import { alive, childrenOf, freshGet, open, ownerOf, readReply, until } from './workers-procs'

describe('WORKERS=2', () => {
  let dir: string
  let server: Running
  let primary: number
  let port: number
  let key: string
  let token: string
  let metrics: string
  /** The primary's stderr, where it says a worker stopped. */
  let errors: ReturnType<typeof stdoutLines>
  /** The server's work (its tree's CPU time): a wait on it fails once it does none. */
  const serverWork = () => treeCpuTicks(primary)

  beforeAll(async () => {
    dir = tempDir()
    // Each worker's indexes in the metrics, the largest by locator: what a test waits for.
    const env = { WORKERS: '2', DEMO: '0', GEOCODER: 'none', LOG_REQUESTS: '0', METRICS_PORT: '0' }
    server = startServer(join(dir, 'workers.db'), { ...env, METRICS_LOCATOR_SERIES: '2' })
    primary = server.proc.pid
    errors = stdoutLines({ stdout: server.proc.stderr, pid: primary })
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
    await until('every worker to build it', built, serverWork)
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
    const workers = await until(
      'a replacement worker',
      () => {
        const now = childrenOf(primary)
        return now.length === 2 && !now.includes(victim) ? now : null
      },
      serverWork,
    )
    expect(workers).toContain(survivor)
    const replacement = workers.find((p) => p !== survivor)!
    await until(
      'the replacement to answer',
      async () => (await freshGet(port, '/healthz', workers)).pid === replacement,
      serverWork,
    )

    // Said before the replacement starts, but read from another pipe than its answer: waited for.
    await errors.waitFor(/worker stopped/)
    const logged = errors.lines.filter((l) => l.includes('worker stopped'))
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
    await until('the worker to accept the connection', () => ownerOf(socket, workers), serverWork)

    server.proc.kill('SIGTERM')
    // Nobody accepts any more, once the signal has gone through the primary to both workers.
    await until(
      'the workers to stop accepting',
      () =>
        open(port).then(
          (probe) => (probe.destroy(), null),
          () => true,
        ),
      serverWork,
    )
    await Bun.sleep(100)
    expect(server.proc.exitCode).toBeNull() // waiting for the request in flight

    socket.write(body.slice(half))
    const answer = await reply
    socket.destroy()
    expect(answer.status).toBe(201)
    expect(answer.body.location.name).toBe('Late Store')

    expect(await server.proc.exited).toBe(0) // the test's timeout ends a hang
    await server.ended
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
      await until(
        'the workers to stop',
        () => workers.every((pid) => !alive(pid)),
        () => workers.reduce((ticks, pid) => ticks + treeCpuTicks(pid), 0),
      )
      await expect(open(port)).rejects.toThrow()
    } finally {
      if (server.proc.exitCode === null) server.proc.kill('SIGKILL')
      rmSync(own, { recursive: true, force: true })
    }
  }, 30_000)
})
