// The route and method labels of a request: a fixed table of templates, so no token, key, id or
// stray path becomes a label, and the series stay few whatever is asked.
import { PUBLIC_PREFIX } from '../api/public/url'

/** Every route label, with its API; a route's number is its place here. "other": a path no route serves. */
export const ROUTES = [
  { api: 'public', route: '/public/v1/{token}/locations' },
  { api: 'public', route: '/public/v1/{token}/locations/{id}' },
  { api: 'public', route: '/public/v1/{token}/filters' },
  { api: 'public', route: 'other' },
  { api: 'admin', route: '/admin/v1/locations' },
  { api: 'admin', route: '/admin/v1/locations/{id}' },
  { api: 'admin', route: '/admin/v1/locations/{id}/delete' },
  { api: 'admin', route: '/admin/v1/locations/bulk' },
  { api: 'admin', route: '/admin/v1/locations/export' },
  { api: 'admin', route: '/admin/v1/custom_fields' },
  { api: 'admin', route: 'other' },
  { api: 'service', route: '/healthz' },
  { api: 'service', route: '/readyz' },
  { api: 'service', route: '/docs' },
  { api: 'service', route: '/docs/api' },
  { api: 'service', route: '/docs/assets/{name}' },
  { api: 'service', route: '/openapi.json' },
  { api: 'service', route: 'other' },
  { api: 'public', route: '/public/v1/{token}/places' },
  { api: 'public', route: '/public/v1/{token}/clusters' },
  { api: 'public', route: '/public/v1/{token}/clusters/{id}/leaves' },
  { api: 'service', route: '/widget.js' },
  { api: 'service', route: '/widget.css' },
  { api: 'service', route: '/widget/{name}' },
  { api: 'service', route: '/l/{token}' },
  { api: 'service', route: '/l/{token}/sitemap.xml' },
  { api: 'service', route: '/l/{token}/{id}' },
  { api: 'service', route: '/l/{token}/{id}/{slug}' },
  { api: 'service', route: '/' },
  { api: 'service', route: '/l/{token}/stores' },
  { api: 'service', route: '/l/{token}/stores/{country}' },
  { api: 'service', route: '/l/{token}/stores/{country}/{town}' },
  { api: 'service', route: '/robots.txt' },
  { api: 'service', route: '/favicon.ico' },
  { api: 'service', route: '/sitemap.xml' },
  { api: 'admin', route: '/admin/v1/locator' },
] as const

/** The routes by name: each its place in ROUTES. */
export const ROUTE = {
  PublicLocations: 0,
  PublicLocation: 1,
  PublicFilters: 2,
  PublicOther: 3,
  AdminLocations: 4,
  AdminLocation: 5,
  AdminDelete: 6,
  AdminBulk: 7,
  AdminExport: 8,
  AdminCustomFields: 9,
  AdminOther: 10,
  Healthz: 11,
  Readyz: 12,
  Docs: 13,
  DocsApi: 14,
  DocsAsset: 15,
  OpenApi: 16,
  ServiceOther: 17,
  PublicPlaces: 18,
  PublicClusters: 19,
  PublicLeaves: 20,
  WidgetJs: 21,
  WidgetCss: 22,
  WidgetFile: 23,
  FinderPage: 24,
  Sitemap: 25,
  StorePage: 26,
  StorePageSlug: 27,
  Home: 28,
  Directory: 29,
  DirectoryCountry: 30,
  DirectoryTown: 31,
  Robots: 32,
  Favicon: 33,
  SitemapIndex: 34,
  AdminLocator: 35,
} as const
export type Route = number

/** The method labels; any other method is "other". */
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'other'] as const
export const GET = 0
export const POST = 2

export function methodIndex(method: string): number {
  const i = (METHODS as readonly string[]).indexOf(method)
  return i === -1 || i === METHODS.length - 1 ? METHODS.length - 1 : i
}

/** The Management API's writes, by route: what storeloc_writes_total counts (POST only). */
export const WRITE_KINDS: Readonly<Record<number, string>> = {
  [ROUTE.AdminLocations]: 'create',
  [ROUTE.AdminLocation]: 'update',
  [ROUTE.AdminDelete]: 'delete',
  [ROUTE.AdminBulk]: 'bulk',
}

/**
 * The route of a path under PUBLIC_PREFIX, in a full URL whose path starts at `path`, without
 * cutting the URL (the fast path asks it of every answer). A trailing "/" is read as none.
 */
export function publicRoute(href: string, path: number): Route {
  const start = path + PUBLIC_PREFIX.length + 1
  const token = href.indexOf('/', start) // the "/" after the token
  if (token <= start) return ROUTE.PublicOther
  let end = href.indexOf('?', token)
  if (end === -1) end = href.length
  if (end - 1 > token && href.charCodeAt(end - 1) === 0x2f) end--
  if (href.startsWith('/locations', token)) {
    const after = token + 10
    if (after === end) return ROUTE.PublicLocations
    if (href.charCodeAt(after) !== 0x2f) return ROUTE.PublicOther
    const slash = href.indexOf('/', after + 1)
    return slash === -1 || slash >= end ? ROUTE.PublicLocation : ROUTE.PublicOther
  }
  if (end === token + 7 && href.startsWith('/places', token)) return ROUTE.PublicPlaces
  if (href.startsWith('/clusters', token)) {
    const after = token + 9
    if (after === end) return ROUTE.PublicClusters
    if (href.charCodeAt(after) !== 0x2f) return ROUTE.PublicOther
    // /clusters/{id}/leaves: an id of at least one character, without "/".
    const slash = href.indexOf('/', after + 1)
    return slash > after + 1 && slash + 7 === end && href.startsWith('/leaves', slash)
      ? ROUTE.PublicLeaves
      : ROUTE.PublicOther
  }
  return end === token + 8 && href.startsWith('/filters', token) ? ROUTE.PublicFilters : ROUTE.PublicOther
}

const SERVICE: Record<string, Route> = {
  '/': ROUTE.Home,
  '/healthz': ROUTE.Healthz,
  '/readyz': ROUTE.Readyz,
  '/docs': ROUTE.Docs,
  '/docs/api': ROUTE.DocsApi,
  '/openapi.json': ROUTE.OpenApi,
  '/widget.js': ROUTE.WidgetJs,
  '/widget.css': ROUTE.WidgetCss,
  '/robots.txt': ROUTE.Robots,
  '/favicon.ico': ROUTE.Favicon,
  '/sitemap.xml': ROUTE.SitemapIndex,
}

/** The route of a path under /widget/ or /l/ (the pages' routes, src/api/pages), else ServiceOther. */
function pageRoute(p: string): Route {
  const parts = p.split('/') // "", "l", token, ...
  if (parts[1] === 'widget') return parts.length === 3 && parts[2] !== '' ? ROUTE.WidgetFile : ROUTE.ServiceOther
  if (parts[1] !== 'l' || parts.length < 3 || parts.some((part, i) => i > 0 && part === '')) return ROUTE.ServiceOther
  if (parts.length === 3) return ROUTE.FinderPage
  // "stores" is no location id: the directory's (index.ts).
  if (parts[3] === 'stores')
    return [ROUTE.Directory, ROUTE.DirectoryCountry, ROUTE.DirectoryTown][parts.length - 4] ?? ROUTE.ServiceOther
  if (parts.length === 4) return parts[3] === 'sitemap.xml' ? ROUTE.Sitemap : ROUTE.StorePage
  return parts.length === 5 ? ROUTE.StorePageSlug : ROUTE.ServiceOther
}

const ADMIN_LOCATIONS = '/admin/v1/locations'

/** The route of any request, as the apps route it (src/server/app-routes.ts, src/api/admin, src/api/public). */
export function routeOf(href: string, path: number, isPublic: boolean): Route {
  if (isPublic) return publicRoute(href, path)
  const query = href.indexOf('?', path)
  let p = href.slice(path, query === -1 ? href.length : query)
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1)
  if (p !== '/admin' && !p.startsWith('/admin/')) {
    const known = SERVICE[p]
    if (known !== undefined) return known
    if (p.startsWith('/docs/assets/')) return p.indexOf('/', 13) === -1 ? ROUTE.DocsAsset : ROUTE.ServiceOther
    return pageRoute(p)
  }
  if (p === ADMIN_LOCATIONS) return ROUTE.AdminLocations
  if (p === '/admin/v1/custom_fields') return ROUTE.AdminCustomFields
  if (p === '/admin/v1/locator') return ROUTE.AdminLocator
  if (!p.startsWith(`${ADMIN_LOCATIONS}/`)) return ROUTE.AdminOther
  const rest = p.slice(ADMIN_LOCATIONS.length + 1)
  const slash = rest.indexOf('/')
  if (slash === -1) {
    // Static routes win over /locations/{id}, with either method: the other one is told it is not served.
    if (rest === 'export') return ROUTE.AdminExport
    if (rest === 'bulk') return ROUTE.AdminBulk
    return ROUTE.AdminLocation
  }
  return rest.slice(slash) === '/delete' ? ROUTE.AdminDelete : ROUTE.AdminOther
}
