// A client that sends its whole body before it reads the answer, on a connection it closes after
// (Python's urllib sends Connection: close): an answer given without reading the body (a key
// refused, a body over the limit) still reaches it, not a broken pipe halfway through its body.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { cliRunner, type Running, serverUrl, startServer, tempDir } from './helpers'

const dir = tempDir()
const dbPath = join(dir, 'unread.db')
let server: Running
let port = 0
let key = ''

beforeAll(async () => {
  server = startServer(dbPath, { DEMO: '0', GEOCODER: 'none' })
  port = Number(new URL(await serverUrl(server)).port)
  const { json } = cliRunner(() => dbPath)
  const [locator] = json('locator', 'list')
  key = json('key', 'create', locator.id).secret_key
})

afterAll(async () => {
  server.proc.kill('SIGTERM')
  await server.proc.exited
  rmSync(dir, { recursive: true, force: true })
})

/** Writes the request head and `size` bytes of body, all of it, then reads: what Python's http.client does. */
function sendWholeThenRead(head: string, size: number, chunked = false): Promise<{ sent: number; answer: string }> {
  return new Promise((resolve) => {
    let sent = 0
    let answer = ''
    const socket = connect(port, '127.0.0.1')
    socket.on('data', (chunk) => {
      answer += chunk
    })
    socket.on('error', () => {})
    socket.on('close', () => resolve({ sent, answer }))
    const piece = Buffer.alloc(64 * 1024, 0x20)
    const write = (bytes: Buffer | string) =>
      new Promise<boolean>((done) => socket.write(bytes, (error) => done(error == null)))
    socket.on('connect', async () => {
      if (!(await write(head))) return
      while (sent < size) {
        const part = piece.subarray(0, Math.min(piece.length, size - sent))
        if (
          !(await write(
            chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part,
          ))
        )
          return
        sent += part.length
      }
      if (chunked) await write('0\r\n\r\n')
    })
  })
}

const head = (auth: string, length: string) =>
  `POST /admin/v1/locations/bulk HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: Bearer ${auth}\r\nContent-Type: application/json\r\n${length}\r\n`

test('a refused key with an 8 MB body: the whole body is taken and the 401 read', async () => {
  const size = 8_000_000
  const { sent, answer } = await sendWholeThenRead(head('sk_wrong', `Content-Length: ${size}\r\n`), size)
  expect(sent).toBe(size)
  expect(answer).toStartWith('HTTP/1.1 401')
  expect(answer).toContain('API key malformed')
})

test('a body over the 8 MiB limit, declared or chunked: the whole body is taken and the 413 read', async () => {
  const size = 9_000_000
  for (const chunked of [false, true]) {
    const length = chunked ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${size}\r\n`
    const { sent, answer } = await sendWholeThenRead(head(key, length), size, chunked)
    expect(sent).toBe(size)
    expect(answer).toStartWith('HTTP/1.1 413')
    expect(answer).toContain('"payload_too_large"')
  }
})
