// The public Query API (/public/v1/{token}): read-only, answered from the in-memory index.
// Handlers run the guards, then build the body from pre-serialized location JSON.
import { cors } from '@elysiajs/cors'
import { Elysia } from 'elysia'
import type { Store } from '../store'
import type { Locator } from '../store/locators'
import { DEFAULT_FILTER_GROUP } from '../store/filters'
import { PublicError } from './errors'
import { admit, findSecretKey, RateLimiter, refuseSecretKey } from './guards'
import { convert, parseLocationsRequest } from './params'
import type { IndexRegistry } from './registry'

export type PublicDeps = {
  store: Store
  registry: IndexRegistry
  limiter?: RateLimiter
  publicBaseUrl?: string | null
  log: (line: Record<string, unknown>) => void
}

/** Where the app is mounted (src/app.ts); mounted apps see paths without it. */
export const PUBLIC_PREFIX = '/public/v1'

const round2 = (n: number) => Math.round(n * 100) / 100

/** If-None-Match holds "*" or a comma-separated list of ETags; weak comparison, as for GET. */
function etagMatches(header: string | null, etag: string): boolean {
  if (header === null) return false
  const bare = (tag: string) => tag.trim().replace(/^W\//, '')
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag))
}

/**
 * The body of GET /locations for a full public URL: the index's answer assembled from
 * pre-serialized fragments (the benchmark calls this too). Throws PublicError for bad parameters.
 */
export function locationsBody(registry: IndexRegistry, locator: Locator, url: URL): { body: string; total: number } {
  for (let attempt = 1; ; attempt++) {
    const answer = locationsAnswer(registry, locator, url)
    if (answer !== null) return answer
    // A location's row vanished between the sync and its JSON (another process's write): again, synced.
    if (attempt === 3) throw new PublicError('UNAVAILABLE', undefined, { 'retry-after': '1' })
    registry.sync()
  }
}

function locationsAnswer(registry: IndexRegistry, locator: Locator, url: URL): { body: string; total: number } | null {
  const entry = registry.entry(locator.id)
  const groupOf = (tag: string) => entry.ctx.groupOfTag.get(tag)?.group.id ?? DEFAULT_FILTER_GROUP
  const req = parseLocationsRequest(url.searchParams, locator, groupOf)
  const { total, hits } = entry.index.query(req.query)

  let out = '{"success":true,"data":{"locations":['
  for (let i = 0; i < hits.length; i++) {
    const { doc, distanceKm } = hits[i]!
    const json = registry.json(locator.id, entry, doc)
    if (json === null) return null
    if (i > 0) out += ','
    out += distanceKm === null ? json : `${json.slice(0, -1)},"distance":{"value":${round2(convert(distanceKm, 'km', req.unit))},"unit":"${req.unit}"}}`
  }
  const { offset, limit } = req.query
  const page = (to: number) => {
    const q = new URLSearchParams(url.searchParams)
    q.set('offset', String(to))
    return `${url.origin}${url.pathname}?${q}`
  }
  const pagination: Record<string, unknown> = { offset, limit, total, hasMore: offset + limit < total }
  if (offset + limit < total) pagination.next = page(offset + limit)
  if (offset > 0) pagination.prev = page(Math.max(0, offset - limit))
  const meta = req.query.center ? { query: { center: req.query.center, radius: req.radius, unit: req.unit } } : {}
  return { body: `${out}],"pagination":${JSON.stringify(pagination)}},"meta":${JSON.stringify(meta)}}`, total }
}

/**
 * Answers kept for repeated identical requests between two writes (shared/design.md): keyed by
 * ETag and URL, so a write (a new version) makes every older entry unreachable; least recently
 * used entries leave first. At ~30 KB per radius answer, 1024 entries stay under ~32 MB.
 */
const RESPONSE_CACHE_ENTRIES = 1024

export function publicRoutes(deps: PublicDeps) {
  const limiter = deps.limiter ?? new RateLimiter()
  const responses = new Map<string, Uint8Array>()
  const encoder = new TextEncoder()

  /** Guards, conditional GET, then the body; errors carry the rate headers once the rate was counted. */
  function respond(request: Request, token: string, body: (locator: Locator, url: URL) => string): Response {
    let rate: Record<string, string> = {}
    try {
      const key = findSecretKey(request)
      if (key) refuseSecretKey(deps.store, key)
      deps.registry.sync()
      const admitted = admit(deps.registry.locatorByToken(token), request, limiter, token)
      rate = admitted.headers
      const mounted = new URL(request.url)
      const url = new URL(`${deps.publicBaseUrl ?? mounted.origin}${PUBLIC_PREFIX}${mounted.pathname}${mounted.search}`)
      const base = url.origin
      const etag = `W/"${deps.registry.version(admitted.locator.id).toString(36)}-${Bun.hash(base + url.pathname + url.search).toString(36)}"`
      const headers = { ...rate, etag, 'cache-control': 'public, max-age=60', vary: 'Origin' }
      if (etagMatches(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers })
      // The ETag names the locator's version and the URL: the same ETag, the same bytes.
      const cacheKey = `${etag} ${url.href}`
      let bytes = responses.get(cacheKey)
      if (bytes) {
        responses.delete(cacheKey) // most recently used last
      } else {
        bytes = encoder.encode(body(admitted.locator, url))
        if (responses.size >= RESPONSE_CACHE_ENTRIES) responses.delete(responses.keys().next().value!)
      }
      responses.set(cacheKey, bytes)
      return new Response(bytes, { status: 200, headers: { ...headers, 'content-type': 'application/json; charset=utf-8' } })
    } catch (e) {
      if (!(e instanceof PublicError)) throw e
      const res = e.toResponse()
      for (const [k, v] of Object.entries(rate)) res.headers.set(k, v)
      return res
    }
  }

  // A separate app, mounted at PUBLIC_PREFIX, so CORS (a global onRequest hook) stays on this API.
  return new Elysia({ name: 'public' })
    .onError(({ code, error, request, path }) => {
      if (error instanceof PublicError) return error.toResponse()
      if (code === 'NOT_FOUND') {
        const key = findSecretKey(request)
        try {
          if (key) refuseSecretKey(deps.store, key)
        } catch (e) {
          return (e as PublicError).toResponse()
        }
        return new PublicError('NOT_FOUND', `No endpoint ${request.method} ${PUBLIC_PREFIX}${path}. The Query API serves GET ${PUBLIC_PREFIX}/{token}/locations, /locations/{id} and /filters.`).toResponse()
      }
      const e = error as Error
      deps.log({ level: 'error', api: 'public', method: request.method, path: PUBLIC_PREFIX + path, error: e?.message, stack: e?.stack })
      return new Response(JSON.stringify({ success: false, error: { code: 'INTERNAL_ERROR', message: 'Internal server error. The error was logged.', docs: '/docs#INTERNAL_ERROR' } }), {
        status: 500,
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
      })
    })
    .use(cors({ origin: true, credentials: false, methods: ['GET', 'OPTIONS'], allowedHeaders: ['Content-Type', 'If-None-Match'], exposeHeaders: ['ETag', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'] }))
    .get('/:token/locations', ({ request, params }) =>
      respond(request, params.token, (locator, url) => locationsBody(deps.registry, locator, url).body),
    )
    .get('/:token/locations/:id', ({ request, params }) =>
      respond(request, params.token, (locator) => {
        const entry = deps.registry.entry(locator.id)
        const doc = entry.index.get(params.id)
        const json = doc && deps.registry.json(locator.id, entry, doc)
        if (!json) throw new PublicError('LOCATION_NOT_FOUND', `Location ${JSON.stringify(params.id)} was not found.`)
        return `{"success":true,"data":{"location":${json}}}`
      }),
    )
    .get('/:token/filters', ({ request, params }) =>
      respond(request, params.token, (locator) => JSON.stringify({ success: true, data: { filters: deps.registry.filters(locator.id) } })),
    )
}
