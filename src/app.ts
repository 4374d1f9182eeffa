// Builds the HTTP application; never listens (src/main.ts does). Tests call app.handle(...).
import { Elysia } from 'elysia'
import { adminRoutes } from './admin'
import { AdminError } from './admin/errors'
import type { Config } from './config'
import type { Geocoder } from './geocode/geocoder'
import { newKeyId, redactSecrets } from './ids'
import type { RateLimiter } from './public/guards'
import { PUBLIC_PREFIX, publicRoutes } from './public'
import { IndexRegistry } from './public/registry'
import type { Store } from './store'
import { isBusyError } from './store/db'

export type AppDeps = {
  store: Store
  geocoder: Geocoder
  config: Pick<Config, 'maxBodyBytes' | 'logRequests'> & Partial<Pick<Config, 'publicBaseUrl'>>
  /** The public API's rate limiter (tests pass one with a fake clock). */
  limiter?: RateLimiter
  /** Where request lines and errors go; defaults to stdout/stderr. */
  log?: (line: Record<string, unknown>) => void
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } })

export function createApp(deps: AppDeps) {
  const write = deps.log ?? ((line) => console.log(JSON.stringify(line)))
  // A key sent where it does not belong (a public URL) must not reach the log either.
  const log = (line: Record<string, unknown>) => {
    const safe: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(line)) safe[k] = typeof v === 'string' ? redactSecrets(v) : v
    write(safe)
  }
  const registry = new IndexRegistry(deps.store)
  const started = new WeakMap<Request, { t0: number; id: string; locator?: string }>()

  return new Elysia()
    .onRequest(({ request, set }) => {
      const id = newKeyId().slice(4)
      started.set(request, { t0: performance.now(), id })
      set.headers['x-request-id'] = id
    })
    .onError({ as: 'global' }, ({ code, error, request, path }) => {
      if (error instanceof AdminError) return error.toResponse()
      if (code === 'NOT_FOUND') {
        return json(404, { success: false, error: 'not_found', message: `No route ${request.method} ${path}. The Management API lives under /admin/v1.` })
      }
      if (isBusyError(error)) return new AdminError('unavailable').toResponse()
      const e = error as Error
      log({ level: 'error', request_id: started.get(request)?.id, method: request.method, path, error: e?.message, stack: e?.stack })
      return json(500, { success: false, error: 'error', message: 'Internal server error. The error was logged; quote the X-Request-Id header when reporting it.' })
    })
    .onAfterResponse({ as: 'global' }, ({ request, set, path, responseValue }) => {
      if (!deps.config.logRequests) return
      const s = started.get(request)
      const status = responseValue instanceof Response ? responseValue.status : set.status
      log({ method: request.method, path, status, ms: s ? Math.round((performance.now() - s.t0) * 100) / 100 : null, locator: s?.locator ?? null, request_id: s?.id })
    })
    .get('/healthz', () => ({ status: 'ok' }))
    .get('/readyz', () => {
      deps.store.db.query('SELECT 1').get()
      return { status: 'ready' }
    })
    .mount(PUBLIC_PREFIX, publicRoutes({ store: deps.store, registry, limiter: deps.limiter, publicBaseUrl: deps.config.publicBaseUrl ?? null, log }))
    .use(
      adminRoutes({
        store: deps.store,
        geocoder: deps.geocoder,
        maxBodyBytes: deps.config.maxBodyBytes,
        onAuthenticated: (request, locatorId) => {
          const s = started.get(request)
          if (s) s.locator = locatorId
        },
      }),
    )
}
export type App = ReturnType<typeof createApp>
