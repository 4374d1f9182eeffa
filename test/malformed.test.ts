// Bodies Bun cannot read (a malformed chunked encoding, a connection closed mid-body) are the
// client's fault: logged as 400s without a stack, so nobody can inflate the 5xx rate unauthenticated.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { cliRunner, type Running, serverUrl, startServer, tempDir } from './helpers'

let dir: string
let server: Running
let port: number
let key: string
beforeAll(async () => {
  dir = tempDir()
  const db = join(dir, 'malformed.db')
  server = startServer(db, { DEMO: '0' })
  port = Number(new URL(await serverUrl(server)).port)
  // A working key: a body is read only for one (test/admin/auth.test.ts).
  const locatorId = /locator id: +(lct_\w+)/.exec(await server.waitFor(/locator id:/))![1]!
  key = cliRunner(() => db).json('key', 'create', locatorId).secret_key
})
afterAll(async () => {
  server.proc.kill('SIGTERM')
  await server.proc.exited
  rmSync(dir, { recursive: true, force: true })
})

/** Sends `raw` on a connection of its own; resolves with what came back when the server closes it (or after 2 s), and whether `end` was sent half-way. */
function send(raw: string, closeEarly = false): Promise<string> {
  return new Promise((resolve) => {
    let answer = ''
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(raw)
      if (closeEarly) socket.end()
    })
    socket.on('data', (chunk) => (answer += chunk))
    socket.on('error', () => {})
    socket.on('close', () => resolve(answer))
    setTimeout(() => (socket.destroy(), resolve(answer)), 2000)
  })
}

const chunked = (method: string, path: string, auth = `Authorization: Bearer ${key}\r\n`) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{"a":1}\r\n0\r\n\r\n`

test('a malformed chunked body is a 400, logged as a 400 with no error line, on every route that reads a body', async () => {
  const paths = ['/admin/v1/locations', '/admin/v1/locations/bulk', '/admin/v1/locations/loc_0000000000000000']
  for (const path of paths) {
    const answer = await send(chunked('POST', path))
    expect(answer).toStartWith('HTTP/1.1 400')
    // Without a key, the body is never read: the 401 comes first.
    expect(await send(chunked('POST', path, ''))).toStartWith('HTTP/1.1 401')
  }
  // A body cut short by the client closing its side.
  await send(
    `POST /admin/v1/locations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"name":`,
    true,
  )
  await Bun.sleep(300)
  const logged = server.lines.filter((l) => l.includes('"/admin/v1/locations'))
  expect(logged.length).toBeGreaterThanOrEqual(paths.length)
  for (const line of logged) expect(JSON.parse(line).status).toBeLessThan(500)
  expect(server.lines.filter((l) => l.includes('"level":"error"'))).toEqual([])
})

test('a body left unread (no key) does not spill into the next request on the connection', async () => {
  const body = '{"name":"GET /healthz HTTP/1.1","address":"x"}'
  const first = (framing: string, sent: string) =>
    `POST /admin/v1/locations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${framing}\r\n\r\n${sent}`
  for (const request of [
    first(`Content-Length: ${body.length}`, body),
    first('Transfer-Encoding: chunked', `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`),
  ]) {
    const answer = await send(`${request}GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    expect(answer.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 401', 'HTTP/1.1 200'])
    expect(answer).toContain('{"status":"ok"}')
  }
})
