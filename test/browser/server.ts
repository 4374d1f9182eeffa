// A real server with the demo data for the browser tests, and a host page on another origin that
// embeds the widget as docs/widget.md tells a business to.
import { afterAll, beforeAll } from 'bun:test'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { type Running, serverUrl, startServer, tempDir } from '../helpers'
import { chromiumPath, launch } from './browser'

export type DemoServer = {
  /** The service, as http://localhost:PORT (the host page is on 127.0.0.1: another site). */
  url: string
  token: string
  locatorId: string
  dbPath: string
  /** The folder of its database, removed when it stops: where a test writes files it imports. */
  dir: string
  /** GET a Query API path of the demo locator; its parsed body. */
  api: (path: string) => Promise<{
    data: Record<string, unknown> & {
      locations: {
        id: string
        hours_today?: string | null
        coordinates: { lat: number; lng: number }
        address: { country?: string }
      }[]
    }
  }>
  stop: () => Promise<void>
}

/** A demo server and a browser, shared by a test file's tests. */
export type DemoBrowser = { server: DemoServer; browser: Browser }

/**
 * Registers, in the calling file, hooks that start a demo server and a browser before its tests
 * and stop them after; the object's fields are set once they have started. Nothing starts
 * without a browser (the tests are skipped then: chromiumPath).
 */
export function useDemoBrowser(env: Record<string, string> = {}): DemoBrowser {
  const shared = {} as DemoBrowser
  if (chromiumPath === null) return shared
  beforeAll(async () => {
    Object.assign(shared, await startDemoBrowser(env))
  }, 120_000)
  afterAll(async () => {
    await shared.browser?.close()
    await shared.server?.stop()
  })
  return shared
}

/** A demo server and a browser, started together; when one fails to start, the other is stopped. */
export async function startDemoBrowser(env: Record<string, string> = {}): Promise<DemoBrowser> {
  const [server, browser] = await Promise.allSettled([startDemo(env), launch()])
  if (server.status === 'fulfilled' && browser.status === 'fulfilled')
    return { server: server.value, browser: browser.value }
  if (server.status === 'fulfilled') await server.value.stop()
  if (browser.status === 'fulfilled') await browser.value.close()
  throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason
}

export async function startDemo(env: Record<string, string> = {}): Promise<DemoServer> {
  const dir = tempDir()
  const dbPath = join(dir, 'db.sqlite')
  const server: Running = startServer(dbPath, { DEMO: '1', LOG_REQUESTS: '0', ...env })
  const stop = async () => {
    server.proc.kill()
    await server.proc.exited
    rmSync(dir, { recursive: true, force: true })
  }
  // A start that fails leaves neither its process nor its folder: no afterAll has its stop.
  let port: string, locatorId: string, token: string
  try {
    port = new URL(await serverUrl(server)).port
    const curl = await server.waitFor(/Loaded the demo/)
    locatorId = /locator (lct_\w+)/.exec(curl)![1]!
    const tokenLine = await server.waitFor(/public\/v1\/pk_/)
    token = /\/public\/v1\/(pk_\w+)\//.exec(tokenLine)![1]!
    // After the indexes: /places and near= answer. Reading the place data writes nothing for its
    // whole length, which a loaded machine stretches past QUIET_MS.
    await server.waitFor(/place data read/, 60_000)
  } catch (e) {
    await stop()
    throw e
  }
  const url = `http://localhost:${port}`
  return {
    url,
    token,
    locatorId,
    dbPath,
    dir,
    api: async (path) => {
      const response = await fetch(`${url}/public/v1/${token}/${path}`)
      return (await response.json()) as never
    },
    stop,
  }
}

/** The snippet of docs/widget.md's first HTML example, for this service and token. */
export function docsSnippet(url: string, token: string): string {
  const doc = readFileSync(join(import.meta.dir, '..', '..', 'docs', 'widget.md'), 'utf8')
  const html = /```html\n([\s\S]*?)```/.exec(doc)?.[1]
  if (!html) throw new Error('docs/widget.md has no ```html example')
  return html.replaceAll('https://stores.example.com', url).replaceAll('pk_YOUR_TOKEN', token)
}

/** A 1x1 PNG, every tile of the host's tile server. */
const TILE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

/**
 * A plain page on http://127.0.0.1:PORT holding `body` (and `head`, such as its stylesheet): a
 * business's own site. It serves a tile for any path under /tiles/.
 */
export function hostPage(body: string, head = ''): { url: string; stop: () => void } {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Our stores</title><link rel="icon" href="data:,">${head}</head><body><main><h1>Our stores</h1>${body}</main></body></html>`
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) =>
      new URL(request.url).pathname.startsWith('/tiles/')
        ? new Response(TILE, { headers: { 'content-type': 'image/png' } })
        : new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
  })
  return { url: `http://127.0.0.1:${server.port}/stores.html`, stop: () => server.stop(true) }
}
