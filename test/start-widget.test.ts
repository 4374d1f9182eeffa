// A widget file whose build fails (a deploy that left out a file the widget imports): whoever asks
// for it gets a 503 that says the file could not be made, never a 500 or a "starting" that would
// never end, while the service starts and once it serves; the log says why, naming the file and
// the line; every other file and page is served. A real server run from a copy of src/ whose
// widget entry imports a file there is none of.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { cpSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Running, startOnFreePort, tempDir } from './helpers'
import { holdLock } from './hold-lock'

const ROOT = join(import.meta.dir, '..')
let dir: string
let copy: string
beforeAll(() => {
  dir = tempDir()
  copy = join(dir, 'service')
  for (const part of ['package.json', 'tsconfig.json', 'src'])
    cpSync(join(ROOT, part), join(copy, part), { recursive: true })
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'))
  const entry = join(copy, 'src/widget/main.ts')
  writeFileSync(entry, `import './gone'\n${readFileSync(entry, 'utf8')}`)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** What a person who opens widget.js sees, and the log line the answer's request id names. */
async function widgetAnswer(base: string, server: Running) {
  const res = await fetch(`${base}/widget.js`)
  const id = res.headers.get('x-request-id')
  const body = await res.text()
  // The log line may reach the pipe after the answer does: wait for it.
  const line = await server.waitFor(new RegExp(`^(?=.*"request_id":"${id}")(?=.*"level":"error")`))
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body, line }
}

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
  const made = new Database(path, { create: true }) // a new file: its first locator needs the lock
  made.exec('PRAGMA journal_mode = WAL')
  made.close()
  const holder = await holdLock(dir, path)
  try {
    const { server, port } = await startOnFreePort(
      path,
      { DEMO: '0', GEOCODER: 'none' },
      /waiting for the database/,
      () => [process.execPath, join(copy, 'src/main.ts')],
    )
    const base = `http://127.0.0.1:${port}`
    const starting = await widgetAnswer(base, server)
    expect([starting.status, starting.retryAfter, JSON.parse(starting.body)]).toEqual([
      503,
      '10',
      {
        success: false,
        error: 'unavailable',
        message:
          'The widget file widget.js could not be made. The error was logged; quote the X-Request-Id header when reporting it.',
      },
    ])
    const logged = JSON.parse(starting.line)
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
    const started = await widgetAnswer(base, server)
    expect({ ...started, line: '' }).toEqual({ ...starting, line: '' })
    expect(JSON.parse(started.line).message).toBe(logged.message)
    expect(await others(base)).toEqual(served)
    expect((await fetch(`${base}/readyz`)).status).toBe(200)
    server.proc.kill('SIGTERM')
    expect(await server.proc.exited).toBe(0)
  } finally {
    holder.kill()
  }
}, 60_000)
