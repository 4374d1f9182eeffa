// WORKERS > 1: a request the port's hold (starting-answers.ts) took while the start waited gets its
// whole answer though the workers take over and a stop follows before it is made. A real server run
// from a copy of src/ whose widget build waits for the test to let it go.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startOnFreePort, tempDir } from './helpers'
import { holdNewDatabase } from './hold-lock'
import { serviceCopy } from './service-copy'

let dir: string
let copy: ReturnType<typeof serviceCopy>
let gate: string
beforeAll(() => {
  dir = tempDir()
  copy = serviceCopy(join(dir, 'service'))
  gate = join(dir, 'build-may-go')
  // The widget's texts, loaded in the build, once the gate file is there; a line says it waits.
  const held = `async ({ path }) => {
      console.log('widget build held')
      while (!(await Bun.file(${JSON.stringify(gate)}).exists())) await Bun.sleep(20)
      return {`
  copy.edit('src/api/pages/widget-texts.ts', (source) => {
    expect(source).toContain('async ({ path }) => ({')
    return source.replace('async ({ path }) => ({', held).replace("loader: 'js',\n    }))", "loader: 'js',\n    }})")
  })
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Whether the process `pid` is gone (reaped). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return false
  } catch {
    return true
  }
}

test('WORKERS=2: widget.js asked for while starting is answered whole through the hand-off and a stop', async () => {
  const path = join(dir, 'handoff.db')
  const holder = await holdNewDatabase(dir, path)
  try {
    const env = { WORKERS: '2', DEMO: '0', GEOCODER: 'none', STOP_TIMEOUT_SECONDS: '60' }
    const { server, port } = await startOnFreePort(path, env, /waiting for the database/, copy.command)
    // Unencoded: its Content-Length is the length of the body read.
    const answer = fetch(`http://127.0.0.1:${port}/widget.js`, { headers: { 'accept-encoding': 'identity' } }).then(
      async (res) => ({
        status: res.status,
        length: Number(res.headers.get('content-length')),
        body: await res.bytes(),
      }),
    )
    await server.waitFor(/widget build held/)
    holder.release()
    const { pids } = JSON.parse(await server.waitFor(/"listening"/)) as { pids: number[] }
    server.proc.kill('SIGTERM')
    // The workers have stopped: all that is left of the stop is the hold's request under way.
    while (!pids.every(gone)) await Bun.sleep(10)
    writeFileSync(gate, '')
    const { status, length, body } = await answer
    expect([status, body.length]).toEqual([200, length])
    expect(length).toBeGreaterThan(10_000) // the built bundle
    expect(await server.proc.exited).toBe(0)
    await server.ended
    expect(server.lines.filter((l) => l.includes('cut at the stop'))).toEqual([])
  } finally {
    holder.kill()
  }
}, 60_000)
