// The routes are known before the database is: while the service starts, a request the started app
// answers from the database gets the starting 503, and one that no route of the app takes gets the
// app's own answer for it (a 404, a Management API route's 405 or OPTIONS), never a 503 that says
// to retry what will not be (the Query API's 404 too, without its token's rate). Through
// startingResponder, beside the started app.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type { App } from '../src/server/app'
import { startingResponder } from '../src/server/starting-answers'
import { openStore, type Store } from '../src/store'
import { quietApp, tempDir } from './helpers'
import { FAKE_SECRET } from './public/fixture'

let dir: string
let store: Store
let app: App
beforeAll(() => {
  dir = tempDir()
  store = openStore(join(dir, 'routes.db'))
  app = quietApp(store)
})
afterAll(() => {
  store.close()
  rmSync(dir, { recursive: true, force: true })
})

const starting = startingResponder(false, () => {})
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

/** What a client keeps of an answer: its status, type, Allow and body. */
async function kept(response: Response) {
  const header = (name: string) => response.headers.get(name)
  return { status: response.status, type: header('content-type'), allow: header('allow'), body: await response.text() }
}

/** Requests no route of the app takes: the start answers each as the started app does. */
const NO_ROUTE: [method: string, path: string, accept?: string][] = [
  ['GET', '/foo'],
  ['GET', '/foo', BROWSER],
  ['HEAD', '/foo'],
  ['GET', '/readyz/x'],
  ['POST', '/readyz'],
  ['GET', '/metrics'],
  ['GET', '/%'],
  ['GET', '/public/foo'],
  // The Query API's own 404 and 405: no endpoint takes them, whatever the database holds.
  ['GET', '/public/v1/pk_x/none'],
  ['GET', '/public/v1'],
  ['GET', '/public/v1/pk_x/locations/loc_1/more'],
  ['HEAD', '/public/v1/pk_x/clusters/c_1'],
  ['POST', '/public/v1/pk_x/locations'],
  ['DELETE', '/public/v1/pk_x/filters/'],
  ['GET', '/admin/v1/none'],
  ['GET', '/admin/v1/locations/bulk'],
  ['PUT', '/admin/v1/locations/loc_1'],
  ['DELETE', '/admin/v1/locations/loc_1'],
  ['GET', '/admin/v1/locations//delete'],
  ['OPTIONS', '/admin/v1/locations'],
  ['GET', '/l'],
  ['GET', '/l/', BROWSER],
  ['GET', '/l/pk_x/loc_1/a-store/more', BROWSER],
  ['POST', '/l/pk_x'],
  ['GET', '/robots.txt/x'],
]

test('a request no route of the app takes gets the started app answer while starting: 404, 405 or OPTIONS', async () => {
  for (const [method, path, accept] of NO_ROUTE) {
    const request = () => new Request(`http://localhost${path}`, { method, headers: accept ? { accept } : {} })
    const [atStart, started] = await Promise.all([kept(await starting(request())), kept(await app.handle(request()))])
    expect({ method, path, accept, ...atStart }).toEqual({ method, path, accept, ...started })
    expect({ method, path, status: atStart.status }).not.toEqual({ method, path, status: 503 })
  }
})

test("the Query API's 404 while starting carries the CORS headers the app's does, for a finder on a shop's site", async () => {
  for (const origin of ['https://shop.example', null]) {
    const request = () =>
      new Request('http://localhost/public/v1/pk_x/none', { headers: origin === null ? {} : { origin } })
    const [atStart, started] = await Promise.all([starting(request()), app.handle(request())])
    const cors = (response: Response) =>
      Object.fromEntries(
        [...response.headers].filter(([name]) => name.startsWith('access-control-') || name === 'vary'),
      )
    expect({ origin, status: atStart.status, ...cors(atStart) }).toEqual({ origin, status: 404, ...cors(started) })
    expect(atStart.headers.get('access-control-allow-origin')).toBe(origin ?? '*')
  }
})

/** Requests the app answers from the database: each gets the starting 503, HEAD as GET. */
const AWAITED: [method: string, path: string][] = [
  ['GET', '/readyz'],
  ['GET', '/readyz/'],
  ['HEAD', '/readyz'],
  ['GET', '/robots.txt'],
  ['GET', '/sitemap.xml'],
  ['GET', '/l/pk_x'],
  ['HEAD', '/l/pk_x'],
  ['GET', '/l/pk_x/sitemap.xml'],
  ['GET', '/l/pk_x/stores/de/berlin'],
  ['GET', '/l/pk_x/loc_1/a-store'],
  ['GET', '/admin/v1/locations'],
  ['HEAD', '/admin/v1/custom_fields'],
  ['GET', '/admin/v1/locator'],
  ['POST', '/admin/v1/locations/bulk'],
  ['POST', '/admin/v1/locations/loc_1/delete'],
  // The delete without an id is a route of the app's: its 400 follows the key check.
  ['POST', '/admin/v1/locations//delete'],
  ['GET', '/public/v1/pk_x/locations'],
  ['HEAD', '/public/v1/pk_x/clusters/c_1/leaves'],
  // A secret key sent to the Query API is refused as its locator's, which the database holds.
  ['GET', `/public/v1/pk_x/none?key=${FAKE_SECRET}`],
]

test('a request the app answers from the database gets the starting 503', async () => {
  for (const [method, path] of AWAITED) {
    const res = await starting(new Request(`http://localhost${path}`, { method }))
    expect({ method, path, status: res.status, mark: res.headers.get('x-service-status') }).toEqual({
      method,
      path,
      status: 503,
      mark: 'starting',
    })
  }
})

test("a page's path with a trailing slash is redirected while starting, as the app's pages are", async () => {
  for (const path of ['/l/pk_x/', '/l/pk_x/stores/?lang=de', '/robots.txt/']) {
    const [atStart, started] = await Promise.all(
      [starting, app.handle].map(async (handle) => {
        const res = await handle(new Request(`http://localhost${path}`))
        return { status: res.status, location: res.headers.get('location') }
      }),
    )
    expect({ path, ...atStart }).toEqual({ path, ...started! })
    expect(atStart!.status).toBe(308)
  }
})
