// A start with the embedded geocoder serves once its indexes are built, and only then reads the
// place data of GET /places and near= (a core's work for seconds, which N workers starting at once
// share): a worker listens before it is read, and /places answers 503 with Retry-After meanwhile.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createLocator, setLocatorSettings } from '../src/operator'
import { openStore } from '../src/store'
import { locationRecord, type Running, serverUrl, startServer, stdoutLines, tempDir } from './helpers'

let dir: string
let server: Running | null = null

/** Stops the server, if it runs, and removes its directory. */
async function stop(): Promise<void> {
  if (server !== null && server.proc.exitCode === null) {
    server.proc.kill('SIGTERM')
    await server.proc.exited
  }
  server = null
  rmSync(dir, { recursive: true, force: true })
}

/**
 * A start with the embedded geocoder: its indexes and place data take a core tens of seconds on a
 * busy machine, and two workers share the cores.
 */
const START_MS = 120_000

/** Starts a server with the embedded geocoder on a database of one public locator; its base URL and token once it listens. */
async function start(workers: string): Promise<{ base: string; token: string }> {
  dir = tempDir()
  const path = join(dir, 'places.db')
  const store = openStore(path)
  const { locator } = createLocator(store, 'Shops')
  setLocatorSettings(store, locator.id, { queryApi: 'on' })
  const body = { name: 'Shop', address: '1 Oxford Street, London', coordinates: { lat: 51.515, lng: -0.141 } }
  store.write(() => store.locations.insert(locationRecord(locator.id, { ...body, status: 'published' })))
  store.close()
  server = startServer(path, { WORKERS: workers, DEMO: '0', GEOCODER: 'embedded', LOG_REQUESTS: '0' })
  return { base: await serverUrl(server), token: locator.publicToken }
}

/** The lines whose message is `message`, parsed, with their place among all the lines. */
function logged(lines: string[], message: string): { at: number; line: Record<string, unknown> }[] {
  const found = []
  for (const [at, text] of lines.entries()) {
    if (!text.startsWith('{')) continue
    const line = JSON.parse(text)
    if (line.message === message) found.push({ at, line })
  }
  return found
}

/**
 * Resolves once the primary has reaped process `pid`. Its leader's zombie state is not enough: the
 * other threads of a multi-threaded process may still hold its sockets, and a listening one resets
 * the connections the kernel hands it.
 */
async function reaped(pid: number): Promise<void> {
  while (await Bun.file(`/proc/${pid}/stat`).exists()) await Bun.sleep(10)
}

/** GET /places on a new connection each time, so the kernel spreads them over every worker that listens. */
const search = (base: string, token: string) =>
  fetch(`${base}/public/v1/${token}/places?q=London`, { keepalive: false, headers: { Connection: 'close' } })

/** Asks GET /places until it answers 200, up to `count` lines of `place data read` being logged; the answers before. */
async function placesUntilRead(base: string, token: string, count: number) {
  const before: { status: number; retryAfter: string | null; body: any }[] = []
  for (;;) {
    const read = logged(server!.lines, 'place data read').length === count
    const response = await search(base, token)
    if (read) return { last: response, before }
    before.push({
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: await response.json(),
    })
    await Bun.sleep(50)
  }
}

describe('one process', () => {
  afterEach(stop)

  test(
    'it listens, /readyz answers 200 once the indexes are built, then the place data is read',
    async () => {
      const { base, token } = await start('1')
      const { last } = await placesUntilRead(base, token, 1)
      expect(last.status).toBe(200)
      expect((await fetch(`${base}/readyz`)).status).toBe(200)
      const lines = server!.lines
      const [listening] = logged(lines, 'listening')
      const [loaded] = logged(lines, 'indexes loaded')
      const [read] = logged(lines, 'place data read')
      expect(listening!.at).toBeLessThan(loaded!.at)
      expect(loaded!.at).toBeLessThan(read!.at)
    },
    START_MS,
  )
})

// One server of two workers for both tests, in either order: the first reads how it started (the
// lines of its start, kept apart), the second kills a worker of it.
describe('WORKERS=2', () => {
  let base: string
  let token: string
  let first: Awaited<ReturnType<typeof placesUntilRead>>
  /** The lines up to each worker's place data read: the start, before any worker is killed. */
  let started: string[]
  /** The primary logs each worker's crash and restart on stderr: a failure shows whether another worker stopped too. */
  let stderr: string[]
  beforeAll(async () => {
    ;({ base, token } = await start('2'))
    stderr = stdoutLines({ stdout: server!.proc.stderr }).lines
    first = await placesUntilRead(base, token, 2)
    started = [...server!.lines]
  }, START_MS)
  afterAll(stop)

  test('each worker listens once its indexes are built, and reads the place data after; /places answers 503 until it is read', async () => {
    const { last, before } = first
    expect(last.status).toBe(200)
    const found = (await last.json()) as { data: { places: { label: string }[] } }
    expect(found.data.places[0]!.label).toContain('London')
    for (const answer of before) {
      if (answer.status === 200) continue // a worker that had read it
      expect(answer).toEqual({
        status: 503,
        retryAfter: '1',
        body: {
          success: false,
          error: {
            code: 'UNAVAILABLE',
            message: 'The place data is being read; retry in a moment.',
            docs: `${base}/docs#UNAVAILABLE`,
          },
        },
      })
    }

    const [listening] = logged(started, 'listening')
    const pids = [...(listening!.line.pids as number[])].sort()
    const loaded = logged(started, 'indexes loaded')
    const read = logged(started, 'place data read')
    expect(loaded.map((l) => [l.line.pid, l.line.locators]).sort()).toEqual(pids.map((pid) => [pid, 1]))
    expect(read.map((l) => l.line.pid).sort()).toEqual(pids)
    // The primary says it listens once every worker does: after their indexes, before their place data.
    for (const l of loaded) expect(l.at).toBeLessThan(listening!.at)
    for (const l of read) expect(l.at).toBeGreaterThan(listening!.at)
  })

  test(
    'a worker started again after a crash reads the place data before it listens, so no /places answer is 503',
    async () => {
      const output = () => `stdout:\n${server!.lines.join('\n')}\nstderr:\n${stderr.join('\n')}`
      const [listening] = logged(server!.lines, 'listening')
      const [victim] = listening!.line.pids as number[]
      const readsBefore = logged(server!.lines, 'place data read').length
      const killedAt = performance.now()
      process.kill(victim!, 'SIGKILL')
      await reaped(victim!)
      // A failed connection is kept as a line, not thrown: the whole list then tells one refused
      // connection from a port nothing listened on for a while.
      const statuses: (number | string)[] = []
      const ask = async () => {
        const reads = logged(server!.lines, 'place data read').length
        try {
          const response = await search(base, token)
          statuses.push(response.status)
          await response.arrayBuffer()
        } catch (e) {
          const after = Math.round(performance.now() - killedAt)
          statuses.push(`${(e as { code?: string }).code ?? e} ${after} ms after the kill, ${reads} reads logged`)
        }
      }
      while (logged(server!.lines, 'place data read').length <= readsBefore) {
        await ask()
        await Bun.sleep(20)
      }
      for (let i = 0; i < 40; i++) await ask()
      expect(
        statuses.filter((s) => s !== 200),
        `answers other than 200; the server's ${output()}`,
      ).toEqual([])
      const restarted = logged(server!.lines, 'place data read').at(-1)!.line.pid as number
      expect(restarted, `the last read is the killed worker's; the server's ${output()}`).not.toBe(victim)
    },
    START_MS,
  )
})
