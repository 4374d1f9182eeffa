// A widget file whose build fails (a deploy that left out a file the widget imports): whoever asks
// for it gets a 503 that says the file could not be made, never a 500 or a "starting" that would
// never end, while the service starts and once it serves; the log says why, naming the file and
// the line; every other file and page is served. A real server run from a copy of src/ whose
// widget entry imports a file there is none of.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { type Running, startOnFreePort, tempDir } from './helpers'
import { holdNewDatabase } from './hold-lock'
import { serviceCopy } from './service-copy'

let dir: string
let copy: ReturnType<typeof serviceCopy>
beforeAll(() => {
  dir = tempDir()
  copy = serviceCopy(join(dir, 'service'))
  copy.edit('src/widget/main.ts', (source) => `import './gone'\n${source}`)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** What a person who opens widget.js sees, and the request's log lines (its request line last), the error's first when it logged it. */
async function widgetAnswer(base: string, server: Running) {
  const res = await fetch(`${base}/widget.js`)
  const id = res.headers.get('x-request-id')
  const body = await res.text()
  // The log lines may reach the pipe after the answer does: wait for the request line, the last.
  await server.waitFor(new RegExp(`^(?=.*"request_id":"${id}")(?=.*"status":503)`))
  const lines = server.lines.filter((l) => l.includes(`"request_id":"${id}"`))
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body, lines, id }
}

/** The 503's message, naming the request id the build's failure was logged under. */
const unmadeMessage = (loggedUnder: string | null) =>
  `The widget file widget.js could not be made. The error was logged under request id ${loggedUnder}; quote it when reporting it.`

/** The request id of the last line that says why widget.js could not be made. */
const lastFailureId = (server: Running): string => JSON.parse(failures(server).at(-1)!).request_id

/** The log lines that say a widget file could not be made. */
const failures = (server: Running) => server.lines.filter((l) => l.includes('could not be made:'))

/** The statuses of the service's other files and pages. */
const others = (base: string) =>
  Promise.all(
    ['/widget/map.js', '/widget.css', '/widget/leaflet.css', '/', '/docs'].map(async (path) => {
      const res = await fetch(base + path)
      await res.arrayBuffer()
      return [path, res.status]
    }),
  )

test('a widget file that cannot be built: a 503 saying so, while starting and once started; its cause logged', async () => {
  const path = join(dir, 'unbuilt.db')
  const holder = await holdNewDatabase(dir, path)
  try {
    const { server, port } = await startOnFreePort(
      path,
      { DEMO: '0', GEOCODER: 'none' },
      /waiting for the database/,
      copy.command,
    )
    const base = `http://127.0.0.1:${port}`
    const starting = await widgetAnswer(base, server)
    expect([starting.status, starting.retryAfter, JSON.parse(starting.body)]).toEqual([
      503,
      '10',
      {
        success: false,
        error: 'unavailable',
        message: unmadeMessage(starting.id),
      },
    ])
    expect(starting.lines).toHaveLength(2) // the error, then the request line
    const logged = JSON.parse(starting.lines[0]!)
    expect(logged.level).toBe('error')
    expect(logged.message).toStartWith('The widget file widget.js could not be made: Could not resolve: "./gone"')
    expect(logged.message).toContain('src/widget/main.ts:1:8')
    const served = [
      ['/widget/map.js', 200],
      ['/widget.css', 200],
      ['/widget/leaflet.css', 200],
      ['/', 200],
      ['/docs', 200],
    ]
    expect(await others(base)).toEqual(served)

    holder.release()
    expect(await holder.exited).toBe(0)
    await server.waitFor(/"listening"/)
    // The same answer once started (the failure kept a while, or made again and logged again).
    const started = await widgetAnswer(base, server)
    expect({ ...started, lines: [], id: '', body: '' }).toEqual({ ...starting, lines: [], id: '', body: '' })
    expect(JSON.parse(started.body).message).toBe(unmadeMessage(lastFailureId(server)))
    for (const line of failures(server)) expect(JSON.parse(line).message).toBe(logged.message)
    expect(await others(base)).toEqual(served)
    expect((await fetch(`${base}/readyz`)).status).toBe(200)
    server.proc.kill('SIGTERM')
    expect(await server.proc.exited).toBe(0)
  } finally {
    holder.kill()
  }
}, 60_000)

test('a flood of requests for a file that cannot be built builds it and logs why once; a request after its Retry-After tries again', async () => {
  const { server, port } = await startOnFreePort(
    join(dir, 'flood.db'),
    { DEMO: '0', GEOCODER: 'none' },
    /"listening"/,
    copy.command,
  )
  const base = `http://127.0.0.1:${port}`
  const first = await widgetAnswer(base, server)
  expect(JSON.parse(first.lines[0]!)).toMatchObject({ level: 'error', retry_in_s: 10 })
  // Each answered as the first, its request line logged; the failure's line is not, until the
  // 10 s its Retry-After names are over (by the server's clock: a loaded machine's requests may
  // come after them).
  const failedAt = Date.parse(JSON.parse(first.lines[0]!).time)
  const within: string[][] = []
  for (let i = 0; i < 20; i++) {
    const answer = await widgetAnswer(base, server)
    expect({ ...answer, lines: [], id: '' }).toEqual({ ...first, lines: [], id: '' })
    // The id it quotes is the one the failure's line carries, the first request's.
    expect(JSON.parse(answer.body).message).toBe(unmadeMessage(lastFailureId(server)))
    if (Date.parse(JSON.parse(answer.lines.at(-1)!).time) - failedAt < 9_000) within.push(answer.lines)
  }
  expect(within.length).toBeGreaterThan(0)
  expect(within.flat().filter((l) => l.includes('could not be made:'))).toEqual([])
  // Asked now and then, the file is built again once the 10 s are over: the failure logged again.
  const before = failures(server).length
  while (failures(server).length === before) {
    await Bun.sleep(500)
    expect((await widgetAnswer(base, server)).status).toBe(503)
  }
  expect(failures(server)).toHaveLength(before + 1)
  server.proc.kill('SIGTERM')
  expect(await server.proc.exited).toBe(0)
}, 60_000)
