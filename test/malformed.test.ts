// Bodies Bun cannot read (a malformed chunked encoding, a connection closed mid-body) are the
// client's fault: logged as 400s without a stack, so nobody can inflate the 5xx rate unauthenticated.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { logCaughtUp, type Running, sendRaw, serverUrl, startServer, tempDir } from './helpers'
import { firstLocatorKey } from './under-way'

let dir: string
let server: Running
let base: string
let port: number
let key: string
let token: string
beforeAll(async () => {
  dir = tempDir()
  const db = join(dir, 'malformed.db')
  server = startServer(db, { DEMO: '0' })
  base = await serverUrl(server)
  port = Number(new URL(base).port)
  // A working key: a body is read only for one (test/admin/auth.test.ts).
  key = (await firstLocatorKey(server, db)).secret
  token = /public token: +(pk_\w+)/.exec(await server.waitFor(/public token:/))![1]!
})
afterAll(async () => {
  server.proc.kill('SIGTERM')
  await server.proc.exited
  rmSync(dir, { recursive: true, force: true })
})

const send = (raw: string, closeEarly = false) => sendRaw(port, raw, closeEarly)

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
  // Its line, the last: the third of POST /admin/v1/locations (a 400 and a 401 before it).
  await server.waitFor(/"path":"\/admin\/v1\/locations","status":/, undefined, 3)
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

test('a Host that URL cannot parse (a port past 65535, "a%b", "[zz]") is a 400 from its API, never a 500', async () => {
  const at = (path: string, host: string) =>
    `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`
  for (const host of ['x:99999', 'x:1:2', 'a%b', '[zz]']) {
    const pub = await send(at(`/public/v1/${token}/locations?all=true`, host))
    expect(pub).toStartWith('HTTP/1.1 400')
    expect(pub).toContain('"code":"INVALID_PARAMETER"')
    expect(pub).toContain('Host header')
    const admin = await send(at('/admin/v1/locations', host))
    expect(admin).toStartWith('HTTP/1.1 400')
    expect(admin).toContain('"error":"invalid_request"')
    for (const path of [`/l/${token}`, '/docs', '/readyz'])
      expect(await send(at(path, host))).toStartWith('HTTP/1.1 400')
  }
  // An error line comes before its request's line: read once every answer's line is in.
  await logCaughtUp(server, base)
  expect(server.lines.filter((l) => l.includes('"level":"error"'))).toEqual([])
})
