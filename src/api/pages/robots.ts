// GET /robots.txt: what crawlers may fetch (all but the Management API) and the service's sitemap
// index. GET /favicon.ico: no icon, for the browsers that ask on every page.
import { pageBase, pageCache, type PageDeps, unavailablePage } from './deps'
import { publicLocators } from './sitemap-index'

const TEXT_TYPE = 'text/plain; charset=utf-8'

/**
 * The robots.txt of the service at `pageBase`: its paths under that base's path, which a proxy
 * maps to the service's root, and one Sitemap line, the sitemap index (sitemap-index.ts), when a
 * locator is public and `sitemapIndex` (SITEMAP_INDEX) lists them: its size and the tokens it
 * shows stay out of this file.
 */
export function robotsResponse(deps: PageDeps, request: Request, sitemapIndex = true): Response {
  try {
    const base = pageBase(deps, request)
    const url = new URL(base)
    const prefix = url.pathname.replace(/\/+$/, '')
    const lines = [
      ...(prefix === ''
        ? []
        : [`# The service is at ${base}: crawlers read ${url.origin}/robots.txt only. Copy these lines there.`]),
      '# The Query API (/public/) stays open: the finder pages read their stores from it, and search',
      '# engines fetch it to render them. The Management API (/admin/) needs a key: nothing to crawl.',
      'User-agent: *',
      `Allow: ${prefix}/`,
      `Disallow: ${prefix}/admin/`,
    ]
    if (sitemapIndex && publicLocators(deps).length > 0) lines.push('', `Sitemap: ${base}/sitemap.xml`)
    return new Response(`${lines.join('\n')}\n`, {
      headers: {
        'content-type': TEXT_TYPE,
        ...pageCache(deps, 300),
        'x-content-type-options': 'nosniff',
      },
    })
  } catch (e) {
    return unavailablePage(e)
  }
}

/** No icon, said so a browser keeps the answer a day and stops asking on every page. */
export const faviconResponse = (): Response =>
  new Response(null, { status: 204, headers: { 'cache-control': 'public, max-age=86400' } })
