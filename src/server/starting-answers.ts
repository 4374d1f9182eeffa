// What requests are answered while a start waits (the port is bound before the database is
// opened): what is made from the code alone by the app's own routes, a 503 "starting" for what
// the app answers from the database, and the app's own 404 for a path it has no route for.
import { AdminError } from '../api/admin/errors'
import { Elysia } from 'elysia'
import { docsRoutes } from '../api/openapi/routes'
import { takesAdminRoute } from '../api/admin/methods'
import { constantRoutes, pageRoutes, type PagesDeps, widgetRoutes } from '../api/pages'
import { AssetError } from '../api/pages/assets'
import { startingPage, trailingSlashRedirect } from '../api/pages/deps'
import { pageLang } from '../api/pages/page-texts'
import { noEndpointError, PublicError, takesEndpoint } from '../api/public/errors'
import { findSecretKey } from '../api/public/guards'
import { CORS } from '../api/public/headers'
import { pathOf, pathStart, SHORT_HOSTS } from '../api/public/url'
import { requestIds } from '../core/ids'
import { weighted } from '../core/weighted'
import { HOST_REFUSED, hostRefusal, isQueryApiPath, refusedBeforeRoutes } from './app'
import { type Log, logRequest, sentRequestId } from './app-log'
import { asPage, unmadeFile } from './app-routes'
import { harden } from './harden'
import { drainUnread } from '../core/read-bytes'
import { notFoundAnswer } from './not-found'

const STARTING = 'The service is starting. Retry in a moment.'

/**
 * The header every starting answer carries, so a client tells it from the service's other 503s
 * (a busy database's has the same code) without reading its message.
 */
const SERVICE_STATUS_HEADER = 'X-Service-Status'

/** How long a page asked for while the service starts waits before it reloads itself, s. */
const PAGE_RELOAD_S = 5

/**
 * Before the app serves: what is made from the code alone, the home page, the favicon's answer,
 * the widget's files and the API docs (/docs, /docs/api, /openapi.json), by the app's own
 * routes, so a path is read as the app reads it; /healthz answers 200 "starting" (the process is
 * alive). A request the app answers from the database (/readyz, the Query API, the Management
 * API's routes, robots.txt, the sitemaps, a locator's pages) gets 503 with Retry-After: 1, an
 * API's in its own error shape; where a page is asked for, a page that reloads itself after
 * PAGE_RELOAD_S (its Retry-After too). Each carries X-Service-Status: starting. Any other request
 * gets the app's own answer for no route (a 404, or a Management API route's 405 and OPTIONS),
 * which needs no database. A widget file that could not be made (a failed build) gets the app's
 * answer (unmadeFile, its cause in `log`): the next request tries again, and a start does not
 * end it.
 */
function startingResponses(
  log: Log,
  publicBaseUrl: string | null,
): (request: Request, id: string) => Promise<Response> {
  const ids = new WeakMap<Request, string>()
  const starting = (request: Request) => startingAnswer(request, publicBaseUrl)
  const served = new Elysia({ handler: SHORT_HOSTS })
    .onError({ as: 'global' }, ({ code, error, request, path }) => {
      if (error instanceof AssetError) return asPage(unmadeFile(error, log, ids.get(request)), path)
      if (code !== 'NOT_FOUND' || awaitsDatabase(request, path)) return starting(request)
      return isQueryApiPath(request.url, pathStart(request.url))
        ? queryNoEndpoint(request, path, publicBaseUrl)
        : notFoundAnswer(request, path)
    })
    // The process is alive: 200 at /healthz as the app routes it ("/healthz/" too).
    .get('/healthz', () => marked(Response.json({ status: 'starting' })))
    .use(constantRoutes())
    .use(widgetRoutes())
    .use(docsRoutes())
    .get('/readyz', ({ request }) => starting(request))
  served.use(awaitedPages(new Set(served.routes.map((route) => `${route.method} ${route.path}`)), starting))
  return (request, id) => {
    ids.set(request, id)
    return served.handle(request).then(async (response) => {
      await drainUnread(request)
      return harden(response, pathOf(request.url).startsWith('/admin/'))
    })
  }
}

/**
 * The app's page routes that need the database (robots.txt, the sitemaps, a locator's pages), but
 * those in `served` ("GET /widget.js"), each answered the starting answer, a trailing slash
 * redirected first as the app's pages do. Read off the app's own routes, made without deps: a
 * route reads its deps when it answers, never when it is made.
 */
function awaitedPages(served: Set<string>, starting: (request: Request) => Response) {
  const pages = new Elysia().onBeforeHandle(({ request }) => trailingSlashRedirect(request.url) ?? undefined)
  for (const { method, path } of pageRoutes({} as PagesDeps).routes)
    if (!served.has(`${method} ${path}`)) pages.route(method, path, ({ request }) => starting(request))
  return pages
}

/**
 * Whether a request no route of the start takes is one the app answers from the database: a
 * Query API endpoint's, a preflight, or one that carries a secret key (refused as the key's
 * locator is); or a Management API route's with a method it takes (the id-less delete's POST too:
 * its 400 follows the key check).
 */
function awaitsDatabase(request: Request, path: string): boolean {
  if (isQueryApiPath(request.url, pathStart(request.url)))
    return request.method === 'OPTIONS' || takesEndpoint(request.method, path) || findSecretKey(request) !== null
  return takesAdminRoute(request.method, path)
}

/**
 * The Query API's 404 (405 for another method on an endpoint's path) for a request no endpoint
 * takes, with the CORS headers the app gives it; without its token's rate, which the database
 * holds.
 */
function queryNoEndpoint(request: Request, path: string, publicBaseUrl: string | null): Response {
  const base = publicBaseUrl ?? request.url.slice(0, pathStart(request.url))
  const response = noEndpointError(request.method, path).toResponse(base)
  for (const [name, value] of Object.entries(corsHeaders(request.headers.get('origin') || '*')))
    response.headers.set(name, value)
  return response
}

/**
 * startingResponses' answers with what the app gives every request: an X-Request-Id (a proxy's kept) and,
 * with LOG_REQUESTS on, a request line, so a load balancer's 503s during a start are in the log.
 * A request the app refuses before any route gets its 400 (`publicBaseUrl`: its docs link's base).
 */
export function startingResponder(
  logRequests: boolean,
  log: Log,
  publicBaseUrl: string | null = null,
): (request: Request) => Promise<Response> {
  const nextId = requestIds()
  const startingResponse = startingResponses(log, publicBaseUrl)
  return (sent) => {
    const t0 = performance.now()
    // A request without a usable Host comes with its path alone as its URL: read as sent to
    // localhost, as the app reads it ("//x" is a path, not a host).
    const request = sent.url.charCodeAt(0) === 0x2f ? new Request(`http://localhost${sent.url}`, sent) : sent
    const note = { id: sentRequestId(request) ?? nextId() }
    const done = (response: Response) => {
      response.headers.set('x-request-id', note.id)
      return logRequests ? logRequest(log, request, response, t0, note) : response
    }
    const refused = refusedWhileStarting(sent, request, publicBaseUrl, note.id)
    return refused !== null ? Promise.resolve(done(refused)) : startingResponse(request, note.id).then(done)
  }
}

/**
 * The app's 400 for a request it refuses before any route (a Host that is no host, a URL too
 * long), or null: answered alike while starting, where a home page or a 404 would be served.
 */
function refusedWhileStarting(sent: Request, request: Request, publicBaseUrl: string | null, id: string) {
  const path = pathStart(request.url)
  const host = hostRefusal(sent) ?? (URL.canParse(`${request.url.slice(0, path)}/`) ? null : HOST_REFUSED)
  return refusedBeforeRoutes(request, path, host, isQueryApiPath(request.url, path), publicBaseUrl, id)
}

/** The starting answer to `request`, marked as one (`publicBaseUrl`: its docs link's base). */
const startingAnswer = (request: Request, publicBaseUrl: string | null): Response =>
  marked(answerFor(pathOf(request.url), request, publicBaseUrl))

function marked(response: Response): Response {
  response.headers.set(SERVICE_STATUS_HEADER, 'starting')
  return response
}

/**
 * What a request to `path` is answered while starting. A Query API answer echoes its Origin, as
 * its other errors do, so a finder on a shop's site reads it, and links its docs by a full URL
 * under PUBLIC_BASE_URL (`publicBaseUrl`), else the request's origin, as they do.
 */
function answerFor(path: string, request: Request, publicBaseUrl: string | null): Response {
  if (path.startsWith('/public/')) {
    const origin = request.headers.get('origin') || '*'
    // A preflight refused would fail the request after as a network error, its 503 unread.
    if (request.method === 'OPTIONS') return preflight(origin)
    return new PublicError('UNAVAILABLE', STARTING, {
      'retry-after': '1',
      'access-control-allow-origin': origin,
      'access-control-expose-headers': STARTING_EXPOSED,
      vary: 'Origin',
    }).toResponse(publicBaseUrl ?? request.url.slice(0, pathStart(request.url)))
  }
  if (path.startsWith('/admin/')) return new AdminError('unavailable', STARTING, undefined, 1).toResponse()
  // Another path than a page's or /readyz gets the page or the JSON by Accept, and says so (Vary).
  const byAccept = path !== '/readyz' && !isPage(path)
  const answer =
    isPage(path) || (byAccept && prefersHtml(request.headers.get('accept')))
      ? // The page's language is its link's (?lang=), else English: the locator's is in the database.
        startingPage(pageLang(new URL(request.url)) ?? 'en', PAGE_RELOAD_S)
      : Response.json({ status: 'starting', message: STARTING }, { status: 503, headers: { 'retry-after': '1' } })
  if (byAccept) answer.headers.set('vary', 'Accept')
  return answer
}

/** What a page's script may read of a Query API answer while starting: the app's, and the mark. */
const STARTING_EXPOSED = [...CORS.exposeHeaders, SERVICE_STATUS_HEADER].join(', ')

/** The CORS plugin's headers on a Query API answer (api/public/index.ts). */
const corsHeaders = (origin: string): Record<string, string> => ({
  'access-control-allow-origin': origin,
  'access-control-allow-methods': CORS.methods.join(', '),
  'access-control-allow-headers': CORS.allowedHeaders.join(', '),
  'access-control-expose-headers': CORS.exposeHeaders.join(', '),
  vary: '*',
})

/** A Query API preflight's answer, the CORS plugin's the app answers with. */
const preflight = (origin: string): Response =>
  new Response(null, {
    status: 204,
    headers: { ...corsHeaders(origin), 'access-control-max-age': String(CORS.maxAge) },
  })

/** The paths of a locator's pages, which a person opens; not its sitemap. */
const isPage = (path: string): boolean => (path === '/l' || path.startsWith('/l/')) && !path.endsWith('.xml')

/**
 * Whether an Accept header ranks an HTML page above all else (a browser's address bar does; fetch()
 * and curl send "*\/*"): its first range of the highest weight is text/html or XHTML.
 */
function prefersHtml(accept: string | null): boolean {
  let best = ''
  let bestQ = 0
  for (const { item, q } of weighted(accept)) if (q > bestQ) [best, bestQ] = [item, q]
  return best === 'text/html' || best === 'application/xhtml+xml'
}
