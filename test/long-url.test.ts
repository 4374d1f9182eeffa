// A URL longer than the service reads (a script's growing list of tags[] or ids) is answered in
// the error shape of the API it asked, naming the limit, not with Bun's bare 431 and no body.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { MAX_URL_LENGTH } from '../src/server/app'
import { makeEnv, type Running, sendRaw, serverUrl, startServer, tempDir, type TestEnv } from './helpers'

/** A path and query `length` characters long under `path` (a query string of repeated tags[]). */
function longPath(path: string, length: number): string {
  const start = `${path}?all=true`
  return start + '&tags[]=x'.repeat(Math.ceil((length - start.length) / 9)).slice(0, length - start.length)
}

const LIMIT_WORDS = `this service reads at most ${MAX_URL_LENGTH.toLocaleString('en-US')}`

test("a URL past the limit is a 400 in each API's shape, naming its length and the limit", async () => {
  const env: TestEnv = makeEnv()
  try {
    const publicPath = longPath('/public/v1/pk_0000000000000000/locations', MAX_URL_LENGTH + 1)
    const pub = await env.app.handle(new Request(`http://localhost${publicPath}`))
    expect(pub.status).toBe(400)
    expect(await pub.json()).toEqual({
      success: false,
      error: {
        code: 'INVALID_PARAMETER',
        message: `The request's URL (its path and query string) is ${(MAX_URL_LENGTH + 1).toLocaleString('en-US')} characters long; ${LIMIT_WORDS}. Send fewer parameters: tags[] at most 50 times, search at most 200 characters.`,
        docs: 'http://localhost/docs#INVALID_PARAMETER',
      },
    })
    const admin = await env.call('GET', longPath('/admin/v1/locations', MAX_URL_LENGTH + 500))
    expect(admin.status).toBe(400)
    expect(admin.body).toEqual({
      success: false,
      error: 'invalid_request',
      message: expect.stringContaining(`${LIMIT_WORDS}. Send data in a JSON request body, not in the URL.`),
    })
    // At the limit, the request is the API's to answer (here: no such token).
    const within = await env.app.handle(
      new Request(`http://localhost${longPath('/public/v1/pk_0000000000000000/locations', MAX_URL_LENGTH)}`),
    )
    expect(((await within.json()) as { error: { code: string } }).error.code).toBe('INVALID_TOKEN')
  } finally {
    env.close()
  }
})

test('a browser page can read why its URL is too long: CORS as on other error answers', async () => {
  const env: TestEnv = makeEnv()
  try {
    const path = longPath('/public/v1/pk_0000000000000000/locations', MAX_URL_LENGTH + 1)
    const origin = 'https://shop.example.com'
    const res = await env.app.handle(new Request(`http://localhost${path}`, { headers: { origin } }))
    expect(res.status).toBe(400)
    expect(res.headers.get('access-control-allow-origin')).toBe(origin)
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Request-Id')
    expect(res.headers.get('vary')).toBe('*')
    const bare = await env.app.handle(new Request(`http://localhost${path}`))
    expect(bare.headers.get('access-control-allow-origin')).toBe('*')
    // The Management API sends no CORS headers, refused or not.
    const admin = await env.app.handle(
      new Request(`http://localhost${longPath('/admin/v1/locations', MAX_URL_LENGTH + 1)}`, { headers: { origin } }),
    )
    expect(admin.status).toBe(400)
    expect(admin.headers.get('access-control-allow-origin')).toBeNull()
  } finally {
    env.close()
  }
})

let dir: string
let server: Running
let port: number
beforeAll(async () => {
  dir = tempDir()
  server = startServer(join(dir, 'long-url.db'), { DEMO: '0', GEOCODER: 'none' })
  port = Number(new URL(await serverUrl(server)).port)
})
afterAll(async () => {
  server.proc.kill('SIGTERM')
  await server.proc.exited
  rmSync(dir, { recursive: true, force: true })
})

test('through the server, a URL of 20,000 characters reaches the app and gets its JSON 400', async () => {
  for (const [path, expected] of [
    ['/public/v1/pk_0000000000000000/locations', '"code":"INVALID_PARAMETER"'],
    ['/admin/v1/locations', '"error":"invalid_request"'],
  ] as const) {
    const res = await fetch(`http://127.0.0.1:${port}${longPath(path, 20_000)}`)
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toStartWith('application/json')
    const text = await res.text()
    expect(text).toContain(expected)
    expect(text).toContain('is 20,000 characters long')
  }
})

test("past the server's header limit (32 KiB), Bun answers 431 itself and closes", async () => {
  const path = longPath('/public/v1/pk_0000000000000000/locations', 40_000)
  const answer = await sendRaw(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
  expect(answer).toStartWith('HTTP/1.1 431')
})

test('a larger --max-http-header-size given in BUN_OPTIONS is kept', async () => {
  const wide = startServer(join(dir, 'long-url-wide.db'), {
    DEMO: '0',
    GEOCODER: 'none',
    BUN_OPTIONS: '--max-http-header-size=65536',
  })
  try {
    const widePort = Number(new URL(await serverUrl(wide)).port)
    const path = longPath('/public/v1/pk_0000000000000000/locations', 40_000)
    const answer = await sendRaw(widePort, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    expect(answer).toStartWith('HTTP/1.1 400')
    expect(answer).toContain('is 40,000 characters long')
  } finally {
    wide.proc.kill('SIGTERM')
    await wide.proc.exited
  }
})
