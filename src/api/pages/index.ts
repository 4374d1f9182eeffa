// The service's own pages and the widget's files: /widget.js, /widget.css, /widget/{file}, the
// finder page /l/{token}, store pages /l/{token}/{id}/{slug}, the store directory
// /l/{token}/stores[/{country}[/{town}]], /l/{token}/sitemap.xml, the index of those sitemaps
// /sitemap.xml, /robots.txt and /favicon.ico.
// "stores" is no location id (ids start "loc_"): the directory's paths and the store pages' never meet.
import { Elysia } from 'elysia'
import type { MapTiles } from '../../core/config'
import { asset, assetResponse } from './assets'
import type { ClientCount } from '../public/guards'
import { type PageDeps, trailingSlashRedirect } from './deps'
import { directoryResponse } from './directory-page'
import { finderPageResponse } from './finder-page'
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
}

/** A widget file's response, or the 404 page for a name there is none of. */
export async function serveAsset(name: string, request: Request): Promise<Response> {
  const found = asset(name)
  return found ? assetResponse(await found, request) : notFoundPage('Not found', `There is no widget file ${name}.`)
}

export function pageRoutes(deps: PagesDeps) {
  return (
    new Elysia({ name: 'pages' })
      // Counted first: a redirect is a request too. One URL per page: "/l/pk_x/stores/" would be
      // the directory again, "/l/pk_x/" no page.
      .onBeforeHandle(
        ({ request }) =>
          pageRateRefusal(request, deps.pageCount?.(request) ?? null) ??
          trailingSlashRedirect(request.url) ??
          undefined,
      )
      .get('/robots.txt', ({ request }) => robotsResponse(deps, request, deps.sitemapIndex ?? true))
      .get('/sitemap.xml', ({ request }) =>
        deps.sitemapIndex === false ? noSitemapIndex() : sitemapIndexResponse(deps, request, deps.sitemapPageSize),
      )
      .get('/favicon.ico', () => faviconResponse())
      .get('/widget.js', ({ request }) => serveAsset('widget.js', request))
      .get('/widget.css', ({ request }) => serveAsset('widget.css', request))
      .get('/widget/:name', ({ request, params }) => serveAsset(params.name, request))
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
