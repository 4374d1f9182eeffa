// The service's own pages and the widget's files: the home page /, /widget.js, /widget.css,
// /widget/{file}, the finder page /l/{token}, store pages /l/{token}/{id}/{slug}, the store directory
// /l/{token}/stores[/{country}[/{town}]], /l/{token}/sitemap.xml, the index of those sitemaps
// /sitemap.xml, /robots.txt and /favicon.ico.
// "stores" is no location id (ids start "loc_"): the directory's paths and the store pages' never meet.
import { Elysia } from 'elysia'
import type { MapTiles } from '../../core/config'
import { asset, assetResponse, versionedResponse } from './assets'
import type { ClientCount } from '../public/guards'
import { type PageDeps, trailingSlashRedirect } from './deps'
import { directoryResponse } from './directory-page'
import { finderPageResponse } from './finder-page'
import { homeResponse } from './home-page'
import { pageRateRefusal } from './page-limit'
import { faviconResponse, robotsResponse } from './robots'
import { sitemapResponse } from './sitemap'
import { noSitemapIndex, sitemapIndexResponse } from './sitemap-index'
import { notFoundPage, storePageResponse } from './store-page'

/**
 * `sitemapPageSize`: URLs a sitemap page lists, and sitemaps the index names (tests use small
 * ones); SITEMAP_MAX_URLS unless given. `pageCount`: the request's client's count under
 * PAGE_RATE_LIMIT (null: off, or no client known); none when absent. `sitemapIndex`: false
 * (SITEMAP_INDEX=0) keeps the list of public locators to the operator; true when absent.
 */
export type PagesDeps = PageDeps & {
  mapTiles: MapTiles | null
  sitemapPageSize?: number
  sitemapIndex?: boolean
  pageCount?: (request: Request) => ClientCount | null
  /** The locator a page's token names (its log line's `locator`), told once the page is answered. */
  onLocator?: (request: Request, locatorId: string) => void
}

/** A widget file's response, or the 404 page for a name there is none of. */
async function serveAsset(name: string, request: Request): Promise<Response> {
  const found = asset(name)
  if (!found) return notFoundPage('Not found', `There is no widget file ${name}.`)
  // Only map.js is asked for by version, by the widget.js built with it; a page's own ?v= on the
  // files it links is a cache-buster, answered as without it.
  const version = name === 'map.js' ? new URL(request.url).searchParams.get('v') : null
  if (version === null) return assetResponse(await found, request)
  // Another version is of another build: a widget.js kept in a browser from before a deploy,
  // whose finders then show their lists without a map until it is fetched anew.
  return (
    versionedResponse(await found, request, version) ??
    notFoundPage('Not found', `There is no widget file ${name} of version ${version}: reload the page.`)
  )
}

/**
 * The widget's files, a name asked with a trailing slash sent to its path without it. They need
 * nothing a start prepares: a start answers them by these routes too (server/starting-answers.ts).
 */
export function widgetRoutes() {
  return new Elysia()
    .onBeforeHandle(({ request }) => trailingSlashRedirect(request.url) ?? undefined)
    .get('/widget.js', ({ request }) => serveAsset('widget.js', request))
    .get('/widget.css', ({ request }) => serveAsset('widget.css', request))
    .get('/widget/:name', ({ request, params }) => serveAsset(params.name, request))
}

/**
 * The home page and the favicon's answer, each the same for every request: a start answers them
 * by these routes too (server/starting-answers.ts).
 */
export function constantRoutes() {
  return new Elysia()
    .onBeforeHandle(({ request }) => trailingSlashRedirect(request.url) ?? undefined)
    .get('/', () => homeResponse())
    .get('/favicon.ico', () => faviconResponse())
}

/** The token a page route's path names; null for a route without one. */
function tokenOf(params: unknown): string | null {
  const token = (params as { token?: unknown } | undefined)?.token
  return typeof token === 'string' && token !== '' ? token : null
}

export function pageRoutes(deps: PagesDeps) {
  /**
   * The locator each request's token named as it came, for its log line: a change read while the
   * page is made (a token rotated, any locator's settings) empties the registry's cache of tokens.
   */
  const named = new WeakMap<Request, string>()
  /** Looks the token up (into the registry's cache); a database busy or failing leaves it out, the answer stands. */
  const lookUp = (request: Request, token: string | null) => {
    if (token === null || deps.onLocator === undefined) return
    try {
      const locator = deps.registry.locatorByToken(token)
      if (locator !== null) named.set(request, locator.id)
    } catch {}
  }
  return (
    new Elysia({ name: 'pages' })
      .use(constantRoutes())
      .use(widgetRoutes())
      // Counted first: a redirect is a request too. One URL per page: "/l/pk_x/stores/" would be
      // the directory again, "/l/pk_x/" no page. The token is looked up here, so that a line
      // names the locator whether or not this process had looked the token up before.
      .onBeforeHandle(({ request, params }) => {
        lookUp(request, tokenOf(params))
        return (
          pageRateRefusal(request, deps.pageCount?.(request) ?? null) ?? trailingSlashRedirect(request.url) ?? undefined
        )
      })
      // Named from the registry's cache, where the page's own lookup (after reading the latest
      // changes) put it, active or not, as the Query API's lines name it; else as it came.
      .onAfterHandle(({ request, params }) => {
        const token = tokenOf(params)
        if (deps.onLocator === undefined || token === null) return
        const id = deps.registry.locatorByToken(token, true)?.id ?? named.get(request)
        if (id !== undefined) deps.onLocator(request, id)
      })
      .get('/robots.txt', ({ request }) => robotsResponse(deps, request, deps.sitemapIndex ?? true))
      .get('/sitemap.xml', ({ request }) =>
        deps.sitemapIndex === false ? noSitemapIndex() : sitemapIndexResponse(deps, request, deps.sitemapPageSize),
      )
      .get('/l/:token', ({ request, params }) => finderPageResponse(deps, deps.mapTiles, request, params.token))
      .get('/l/:token/sitemap.xml', ({ request, params }) =>
        sitemapResponse(deps, request, params.token, deps.sitemapPageSize),
      )
      .get('/l/:token/stores', ({ request, params }) => directoryResponse(deps, request, params.token, []))
      .get('/l/:token/stores/:country', ({ request, params }) =>
        directoryResponse(deps, request, params.token, [params.country]),
      )
      .get('/l/:token/stores/:country/:town', ({ request, params }) =>
        directoryResponse(deps, request, params.token, [params.country, params.town]),
      )
      .get('/l/:token/:id', ({ request, params }) => storePageResponse(deps, request, params.token, params.id, null))
      .get('/l/:token/:id/:slug', ({ request, params }) =>
        storePageResponse(deps, request, params.token, params.id, params.slug),
      )
  )
}
