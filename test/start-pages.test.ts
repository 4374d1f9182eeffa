// What a person's browser shows while the service starts (a first start prepares the geocoder's
// data for up to a minute): a page asked for gets a short HTML page that reloads itself, not the
// APIs' JSON; widget.js, which needs nothing the start prepares, is served (and the API docs:
// start-served.test.ts); the APIs answer as before. In process through startingResponder, then
// through a real start that waits for a lock.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { openApiDocument } from '../src/api/openapi/document'
import { startingResponder } from '../src/server/starting-answers'
import { openStore } from '../src/store'
import { quietApp, startOnFreePort, tempDir } from './helpers'
import { holdNewDatabase } from './hold-lock'

/** What a browser's address bar sends. */
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

const starting = startingResponder(false, () => {})
const ask = async (path: string, headers: Record<string, string> = {}) =>
  await starting(new Request(`http://localhost${path}`, { headers }))

async function expectStartingPage(res: Response, lang: string, text: string) {
  expect(res.status).toBe(503)
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(res.headers.get('retry-after')).toBe('5')
  expect(res.headers.get('cache-control')).toBe('no-store')
  expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-z]{16}$/)
  const html = await res.text()
  expect(html).toStartWith(`<!doctype html><html lang="${lang}">`)
  expect(html).toContain('<meta http-equiv="refresh" content="5">')
  expect(html).toContain('<meta name="robots" content="noindex">')
  expect(html).toContain(text)
}

describe('a page asked for while the service starts', () => {
  test("a locator's pages (finder, store, directory) answer a page that reloads, whatever the Accept", async () => {
    for (const path of ['/l/pk_x', '/l/pk_x/loc_1/a-store', '/l/pk_x/stores/de']) {
      for (const accept of [BROWSER, '*/*']) {
        await expectStartingPage(
          await ask(path, { accept }),
          'en',
          'This store finder is starting. This page reloads in a moment.',
        )
      }
    }
  })

  test('in the language its link asks for (?lang=), English for one not shipped', async () => {
    await expectStartingPage(await ask('/l/pk_x/loc_1/a-store?lang=de', { accept: BROWSER }), 'de', 'Filialsuche')
    await expectStartingPage(await ask('/l/pk_x?lang=nl'), 'nl', 'winkelzoeker')
    await expectStartingPage(await ask('/l/pk_x?lang=xx'), 'en', 'This store finder is starting.')
  })

  test('another path a browser opens (sitemap.xml) answers the page; a crawler or a script, the JSON', async () => {
    const page = await ask('/sitemap.xml', { accept: BROWSER })
    expect(page.headers.get('vary')).toBe('Accept') // chosen by it
    await expectStartingPage(page, 'en', 'is starting')
    // robots.txt too: its Sitemap line needs the database, and a crawler waits out a 503 with Retry-After.
    for (const path of ['/l/pk_x/sitemap.xml', '/robots.txt']) {
      const crawler = await ask(path, { accept: '*/*' })
      expect([
        path,
        crawler.status,
        crawler.headers.get('retry-after'),
        crawler.headers.get('vary'),
        await crawler.json(),
      ]).toEqual([
        path,
        503,
        '1',
        'Accept',
        { status: 'starting', message: 'The service is starting. Retry in a moment.' },
      ])
    }
  })

  test('the APIs keep their JSON, asked for by a browser too', async () => {
    const health = await ask('/healthz', { accept: BROWSER })
    expect([health.status, await health.json()]).toEqual([200, { status: 'starting' }])
    // A liveness probe's path as the app reads it (200 there): a 503 would restart a starting process.
    for (const path of ['/healthz/', '/healthz?probe=1']) {
      const probe = await ask(path)
      expect({ path, status: probe.status, body: await probe.json() }).toEqual({
        path,
        status: 200,
        body: { status: 'starting' },
      })
    }
    const ready = await ask('/readyz', { accept: BROWSER })
    expect([ready.status, ((await ready.json()) as { status: string }).status]).toEqual([503, 'starting'])
    expect(ready.headers.get('vary')).toBeNull() // JSON whatever the Accept
    const admin = await ask('/admin/v1/locations', { accept: BROWSER })
    expect([admin.status, ((await admin.json()) as { error: string }).error, admin.headers.get('retry-after')]).toEqual(
      [503, 'unavailable', '1'],
    )
    const pub = await ask('/public/v1/pk_x/locations?lat=1&lng=2', {
      accept: BROWSER,
      origin: 'https://shop.example.com',
    })
    expect([
      pub.status,
      ((await pub.json()) as { error: { code: string } }).error.code,
      pub.headers.get('retry-after'),
      pub.headers.get('access-control-allow-origin'),
    ]).toEqual([503, 'UNAVAILABLE', '1', 'https://shop.example.com'])
  })

  test('every starting answer says so in X-Service-Status; a widget file served does not', async () => {
    const asked = [
      ['/healthz', {}],
      ['/readyz', {}],
      ['/admin/v1/locations', {}],
      ['/public/v1/pk_x/locations?lat=1&lng=2', { origin: 'https://shop.example.com' }],
      ['/l/pk_x', { accept: BROWSER }],
      ['/l/pk_x/sitemap.xml', {}],
    ] as const
    for (const [path, headers] of asked) {
      const res = await ask(path, headers)
      expect({ path, status: res.headers.get('x-service-status') }).toEqual({ path, status: 'starting' })
    }
    expect((await ask('/widget.js')).headers.has('x-service-status')).toBe(false)
  })

  test('a starting answer of an operation sends only the headers the OpenAPI document declares for it', async () => {
    const paths = openApiDocument().paths as Record<string, Record<string, { responses: Record<string, any> }>>
    const asked = [
      ['/healthz', '/healthz'],
      ['/readyz', '/readyz'],
      ['/admin/v1/locations', '/admin/v1/locations'],
      ['/public/v1/pk_x/locations?lat=1&lng=2', '/public/v1/{token}/locations'],
    ] as const
    for (const [path, op] of asked) {
      const res = await ask(path, { origin: 'https://shop.example.com' })
      const declared = Object.keys(paths[op]!.get!.responses[String(res.status)]!.headers ?? {})
      const named = new Set(declared.map((name) => name.toLowerCase()))
      for (const name of res.headers.keys())
        if (!/^(content-type|content-length|x-content-type-options|access-control-[a-z-]+)$/.test(name))
          expect({ path, name, declared: named.has(name) }).toEqual({ path, name, declared: true })
    }
  })

  test("the Query API's starting 503 links its docs by a full URL, as its other errors: PUBLIC_BASE_URL, else the request's origin", async () => {
    const docsOf = async (res: Response) => ((await res.json()) as { error: { docs: string } }).error.docs
    const path = '/public/v1/pk_x/locations?lat=1&lng=2'
    expect(await docsOf(await starting(new Request(`http://stores.example.com:8080${path}`)))).toBe(
      'http://stores.example.com:8080/docs#UNAVAILABLE',
    )
    const behindProxy = startingResponder(false, () => {}, 'https://example.com/stores')
    expect(await docsOf(await behindProxy(new Request(`http://127.0.0.1:3000${path}`)))).toBe(
      'https://example.com/stores/docs#UNAVAILABLE',
    )
  })

  test("a shop's page script reads the Query API's X-Service-Status: CORS exposes it", async () => {
    const pub = await ask('/public/v1/pk_x/locations?lat=1&lng=2', { origin: 'https://shop.example.com' })
    const exposed = pub.headers.get('access-control-expose-headers')!.split(/,\s*/)
    expect(exposed).toContain('X-Service-Status')
    expect(exposed).toContain('Retry-After')
  })

  test('a Query API preflight is answered as the app answers it, so the request after reads the 503', async () => {
    const preflight = await starting(
      new Request('http://localhost/public/v1/pk_x/locations?lat=1&lng=2', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://shop.example.com',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'if-none-match',
        },
      }),
    )
    const cors = (name: string) => preflight.headers.get(`access-control-${name}`)
    expect([preflight.status, await preflight.text()]).toEqual([204, ''])
    expect([cors('allow-origin'), cors('allow-methods'), cors('allow-headers'), cors('max-age')]).toEqual([
      'https://shop.example.com',
      'GET, OPTIONS',
      'Content-Type, If-None-Match',
      '600',
    ])
  })

  test('a request without a usable Host (its URL the path alone) gets the page, not a 500', async () => {
    // As Bun.serve hands such a request over (HTTP/1.0, or a Host that is no host name).
    const bare = (path: string, headers: Record<string, string>) => {
      const request = new Request(`http://stand-in${path}`, { headers })
      Object.defineProperty(request, 'url', { value: path })
      return starting(request)
    }
    await expectStartingPage(await bare('/l/pk_x?lang=de', {}), 'de', 'Filialsuche')
    // A path begun by "//" is read as a path, as the app reads it (no route), not as a host ("[x") and its path.
    const slashes = await bare('//[x/l?lang=fr', { accept: BROWSER })
    expect([slashes.status, ((await slashes.json()) as { message: string }).message]).toEqual([
      404,
      'No route GET //[x/l. The Management API lives under /admin/v1.',
    ])
  })

  test('a request the app refuses before any route (its Host, its URL too long) gets that 400 while starting', async () => {
    const store = openStore(join(dir, 'refused.db'))
    const app = quietApp(store)
    // As Bun.serve hands a request over: a Host that is no host leaves the path alone as its URL.
    const sent = (path: string, host: string | null, url?: string) => {
      const request = new Request(`http://localhost${path}`, { headers: host === null ? {} : { host } })
      if (url !== undefined) Object.defineProperty(request, 'url', { value: url })
      return request
    }
    const long = 'a'.repeat(17_000)
    const asked = [
      ['/', 'a/b', '/'],
      ['/favicon.ico', 'a b', '/favicon.ico'],
      ['/docs', 'a/b', '/docs'],
      ['/docs/none', 'a/b', '/docs/none'],
      ['/', 'a, b'],
      ['/widget.js', 'x:99999', 'http://x:99999/widget.js'],
      [`/?q=${long}`, null],
      [`/docs/${long}`, null],
      [`/public/v1/pk_x/locations?search=${long}`, null],
    ] as const
    try {
      for (const [path, host, url] of asked) {
        const [atStart, started] = await Promise.all(
          [starting, app.handle].map(async (handle) => {
            const res = await handle(sent(path, host, url))
            return { status: res.status, type: res.headers.get('content-type'), body: await res.text() }
          }),
        )
        expect({ path: path.slice(0, 40), host, ...atStart }).toEqual({ path: path.slice(0, 40), host, ...started! })
        expect(atStart!.status).toBe(400)
      }
    } finally {
      store.close()
    }
  })

  test('widget.js and the widget files are served: making them needs nothing the start prepares', async () => {
    const js = await ask('/widget.js', { 'accept-encoding': 'gzip' })
    expect([js.status, js.headers.get('content-type'), js.headers.get('cache-control')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'public, max-age=3600',
    ])
    expect(js.headers.get('etag')).toMatch(/^"[0-9a-z]+"$/)
    expect(js.headers.get('access-control-allow-origin')).toBe('*')
    expect((await js.text()).length).toBeGreaterThan(10_000)
    const again = await ask('/widget.js', { 'accept-encoding': 'gzip', 'if-none-match': js.headers.get('etag')! })
    expect(again.status).toBe(304)
    const css = await ask('/widget/leaflet.css')
    expect([css.status, css.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8'])
    // A file there is none of: the 404 page it gets once started.
    const none = await ask('/widget/none.js')
    expect([none.status, none.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8'])
  })
})

let dir: string
beforeAll(() => (dir = tempDir()))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

for (const workers of ['1', '2']) {
  test(`a real start waiting for the database (WORKERS=${workers}): a finder page answers the page, widget.js is served`, async () => {
    const path = join(dir, `w${workers}.db`)
    const holder = await holdNewDatabase(dir, path)
    try {
      const { server, port } = await startOnFreePort(path, { DEMO: '0', WORKERS: workers }, /waiting for the database/)
      const base = `http://127.0.0.1:${port}`
      await expectStartingPage(
        await fetch(`${base}/l/pk_x?lang=fr`, { headers: { accept: BROWSER } }),
        'fr',
        'recherche de magasins',
      )
      const js = await fetch(`${base}/widget.js`)
      expect([js.status, js.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8'])
      const admin = await fetch(`${base}/admin/v1/locations`, { headers: { accept: BROWSER } })
      expect([admin.status, ((await admin.json()) as { error: string }).error]).toEqual([503, 'unavailable'])
      // A stop while it waits is a stop like any other: it closes what it opened and exits 0.
      server.proc.kill('SIGTERM')
      expect(await server.proc.exited).toBe(0)
      await server.waitFor(/"message":"stopped"/)
    } finally {
      holder.kill()
    }
  }, 60_000)
}
