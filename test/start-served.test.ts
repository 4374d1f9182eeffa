// What a start that waits for the database answers as the app will: the home page, the favicon's
// answer, the API docs and the widget's files, made from the code alone, by the app's own routes
// (a path percent-encoded, a trailing slash); its pages' starting page is not counted under
// PAGE_RATE_LIMIT. A real start, held by another process's write lock, then released: each
// answer is compared with the started app's.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { type Running, startOnFreePort, tempDir } from './helpers'
import { holdNewDatabase } from './hold-lock'

let dir: string
beforeAll(() => (dir = tempDir()))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A server on a new database, started on a free port, that says it waits for the database. */
async function startWaiting(path: string, env: Record<string, string>): Promise<{ server: Running; base: string }> {
  const { server, port } = await startOnFreePort(path, { DEMO: '0', ...env }, /waiting for the database/)
  return { server, base: `http://127.0.0.1:${port}` }
}

/** The paths a start answers as the app does, each with the status it has. */
const SERVED: [path: string, status: number][] = [
  ['/docs', 200],
  ['/docs/', 308],
  ['/docs/api', 200],
  ['/openapi.json', 200],
  ['/widget.js', 200],
  ['/widget/leaflet.css', 200],
  ['/widget/leaflet%2Ecss', 200],
  ['/widget/%6Ceaflet.css', 200],
  ['/widget/leaflet.css/', 308],
  ['/widget/none.js', 404],
  ['/', 200],
  ['/favicon.ico', 204],
  ['/favicon.ico/', 308],
  // No such file or path under those routes' paths: the app's 404, a page or its JSON.
  ['/widget/', 404],
  ['/widget%2Ejs', 404],
  ['/docs/assets/none.js', 404],
  ['/docs/none', 404],
  ['/healthz/none', 404],
  // No route of the app: its 404, which needs no database.
  ['/foo', 404],
  ['/readyz/x', 404],
  ['/l', 404],
  ['/admin/v1/none', 404],
  // A page's path with a trailing slash: sent to the page.
  ['/l/pk_x/', 308],
]

/** What a browser would keep of an answer. */
async function answer(base: string, path: string) {
  const res = await fetch(base + path, { redirect: 'manual' })
  const header = (name: string) => res.headers.get(name)
  return {
    status: res.status,
    type: header('content-type'),
    cache: header('cache-control'),
    csp: header('content-security-policy'),
    location: header('location'),
    nosniff: header('x-content-type-options'),
    body: await res.text(),
  }
}

for (const workers of ['1', '2']) {
  test(`a start waiting for the database (WORKERS=${workers}) serves the home page, the API docs and the widget's files as the app does`, async () => {
    const path = join(dir, `w${workers}.db`)
    const holder = await holdNewDatabase(dir, path)
    try {
      const { server, base } = await startWaiting(path, { WORKERS: workers, PAGE_RATE_LIMIT: '1' })
      const starting = await Promise.all(SERVED.map(([p]) => answer(base, p)))
      expect(starting.map((a) => a.status)).toEqual(SERVED.map(([, status]) => status))
      const [docs, , apiPage, openapi, , css, encoded] = starting
      expect(docs!.type).toBe('text/html; charset=utf-8')
      expect(docs!.body).toContain('id="UNAVAILABLE"')
      expect(apiPage!.body).toContain('swagger-ui')
      expect(JSON.parse(openapi!.body).openapi).toBe('3.1.0')
      expect(encoded).toEqual(css!)
      expect(css!.type).toBe('text/css; charset=utf-8')
      // Swagger UI's files, linked by the page with their version, are served too.
      const asset = /src="(assets\/swagger-ui-bundle\.js\?v=[0-9a-z]+)"/.exec(apiPage!.body)![1]!
      const bundle = await fetch(`${base}/docs/${asset}`)
      expect([bundle.status, bundle.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8'])
      await bundle.arrayBuffer()
      // A page's starting answer is as cheap as the limit's 429 page: not counted.
      for (let i = 0; i < 3; i++) {
        const page = await fetch(`${base}/l/pk_x`)
        expect([page.status, page.headers.get('retry-after')]).toEqual([503, '5'])
        await page.text()
      }
      expect((await fetch(`${base}/readyz`)).status).toBe(503)

      holder.release()
      expect(await holder.exited).toBe(0)
      await server.waitFor(/"listening"/)
      expect(await Promise.all(SERVED.map(([p]) => answer(base, p)))).toEqual(starting)
      server.proc.kill('SIGTERM')
      expect(await server.proc.exited).toBe(0)
    } finally {
      holder.kill()
    }
  }, 60_000)
}
