// Requests whatever their Host header says: a short host name (a container's, such as "api"), none
// at all (HTTP/1.0), or one that is no host name. Each is answered for the path it asked for.
import { afterEach, beforeEach, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { sendRaw, serverUrl, startServer, tempDir } from './helpers'
import { makeFixture, send, type Fixture } from './public/fixture'

let f: Fixture
beforeEach(async () => {
  f = await makeFixture()
})
afterEach(() => f.env.close())

const auth = () => ({ authorization: `Bearer ${f.env.key}` })

test('a host of 1 to 3 characters (a container named "api" on port 80) reaches every route', async () => {
  for (const host of ['a', 'db', 'api', 'app:80']) {
    const at = (path: string) => `http://${host}${path}`
    expect(
      (await send(f.env.app, at('/admin/v1/locations?limit=1'), { headers: auth() })).body.pagination.total,
    ).toBeGreaterThan(0)
    expect((await send(f.env.app, at('/admin/v1/custom_fields'), { headers: auth() })).status).toBe(200)
    expect((await send(f.env.app, at(`/public/v1/${f.token}/filters`))).status).toBe(200)
    expect((await send(f.env.app, at(`/public/v1/${f.token}/locations/${f.ids.velo}`))).body.data.location.id).toBe(
      f.ids.velo,
    )
    const page = await send(f.env.app, at(`/public/v1/${f.token}/locations?all=true&limit=1`))
    expect(page.body.data.pagination.next).toBe(
      `http://${host.replace(':80', '')}/public/v1/${f.token}/locations?all=true&limit=1&offset=1`,
    )
    expect((await send(f.env.app, at('/readyz'))).status).toBe(200)
  }
})

/** A request as Bun.serve hands it over when the Host header is missing or no host name: its URL is the path alone. */
function asBunGivesIt(path: string, headers: Record<string, string> = {}): Request {
  const request = new Request(`http://stand-in${path}`, { headers })
  Object.defineProperty(request, 'url', { value: path })
  return request
}

test('without a Host (HTTP/1.0), a request is answered for its path, as sent to localhost', async () => {
  const read = async (path: string, headers: Record<string, string> = {}) => {
    const res = await f.env.app.handle(asBunGivesIt(path, headers))
    return { status: res.status, body: (await res.json()) as any }
  }
  expect((await read('/admin/v1/locations?limit=1', auth())).body.pagination.total).toBeGreaterThan(0)
  const page = await read(`/public/v1/${f.token}/locations?all=true&limit=1`)
  expect(page.status).toBe(200)
  expect(page.body.data.pagination.next).toBe(
    `http://localhost/public/v1/${f.token}/locations?all=true&limit=1&offset=1`,
  )
  expect((await read(`/public/v1/${f.token}/filters`)).status).toBe(200)
  // A path that only ends like a route is no route (it was read from its second "/" on).
  for (const path of [
    `/x/public/v1/${f.token}/filters`,
    `/xxxxxxxxxxxxxxx/public/v1/${f.token}/locations?all=true`,
    '/xxxxxxxxxxx/admin/v1/locations',
  ]) {
    expect(await read(path, auth())).toEqual({
      status: 404,
      body: { success: false, error: 'not_found', message: expect.stringContaining(path.split('?')[0]!) },
    })
  }
})

test('a Host that is no host name gets 400 from its API, not an answer for another path nor a 500', async () => {
  for (const host of ['evil.com/x?', 'a@b', 'a"b', 'a b']) {
    const pub = await f.env.app.handle(asBunGivesIt(`/public/v1/${f.token}/locations?all=true`, { host }))
    // Its docs link the page's path: there is no address the request was sent to.
    expect({ status: pub.status, cache: pub.headers.get('cache-control'), body: await pub.json() }).toEqual({
      status: 400,
      cache: 'no-store',
      body: {
        success: false,
        error: {
          code: 'INVALID_PARAMETER',
          message: expect.stringContaining('Host header'),
          docs: '/docs#INVALID_PARAMETER',
        },
      },
    })
    expect(pub.headers.get('x-request-id')).toMatch(/^[0-9a-z]{16}$/)
    const admin = await f.env.app.handle(asBunGivesIt('/admin/v1/locations', { host, ...auth() }))
    expect({ status: admin.status, body: await admin.json() }).toEqual({
      status: 400,
      body: { success: false, error: 'invalid_request', message: expect.stringContaining('Host header') },
    })
  }
})

test('two Host headers get 400 from either API, not links built on the first', async () => {
  // As Bun.serve gives them: its URL takes the first, the header joins both.
  const twice = (path: string, headers: Record<string, string> = {}) =>
    new Request(`http://evil.example${path}`, { headers: { host: 'evil.example, stores.example', ...headers } })
  const pub = await f.env.app.handle(twice(`/public/v1/${f.token}/locations?all=true`))
  expect({ status: pub.status, body: await pub.json() }).toEqual({
    status: 400,
    body: {
      success: false,
      error: {
        code: 'INVALID_PARAMETER',
        message: expect.stringContaining('more than one Host header'),
        docs: '/docs#INVALID_PARAMETER',
      },
    },
  })
  const admin = await f.env.app.handle(twice('/admin/v1/locations', auth()))
  expect({ status: admin.status, body: await admin.json() }).toEqual({
    status: 400,
    body: { success: false, error: 'invalid_request', message: expect.stringContaining('more than one Host header') },
  })
  const page = await f.env.app.handle(twice(`/l/${f.token}`))
  expect(page.status).toBe(400)
})

test('through the server, a request with two Host lines gets 400 and one with one is answered', async () => {
  const dir = tempDir()
  const server = startServer(join(dir, 'hosts.db'), { DEMO: '0', GEOCODER: 'none' })
  try {
    const port = Number(new URL(await serverUrl(server)).port)
    const ask = (hosts: string) =>
      sendRaw(port, `GET /admin/v1/locations HTTP/1.1\r\n${hosts}Connection: close\r\n\r\n`)
    const two = await ask('Host: evil.example\r\nHost: stores.example\r\n')
    expect(two).toStartWith('HTTP/1.1 400')
    expect(two).toContain('more than one Host header')
    // One Host line: the Management API's own answer (no token sent).
    expect(await ask('Host: stores.example\r\n')).toStartWith('HTTP/1.1 401')
  } finally {
    server.proc.kill('SIGTERM')
    await server.proc.exited
    rmSync(dir, { recursive: true, force: true })
  }
})
