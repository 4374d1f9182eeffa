// GET /robots.txt: what crawlers may fetch (all but the Management API) and the sitemap of each
// locator whose pages are public. GET /favicon.ico: no icon, for the browsers that ask on every page.
import { finderUrl, pageBase, type PageDeps, unavailablePage } from './deps'

/**
 * The most bytes robots.txt is given: Google reads the first 500 KiB and no further, so Sitemap
 * lines stop short of that (about 6,000 locators on a short base URL).
 */
export const ROBOTS_MAX_BYTES = 500_000

const TEXT_TYPE = 'text/plain; charset=utf-8'
const CACHE_CONTROL = 'public, max-age=300'
const utf8 = new TextEncoder()

/**
 * The robots.txt of the service at `pageBase`: its paths under that base's path, which a proxy
 * maps to the service's root, and one Sitemap line per locator that is active with its Query API
 * on, oldest first, as many as `maxBytes` holds; a last comment says how many were left out.
 */
export function robotsResponse(deps: PageDeps, request: Request, maxBytes = ROBOTS_MAX_BYTES): Response {
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
      '',
    ]
    const open = deps.store.locators.list().filter((l) => l.active && l.queryApiEnabled)
    let bytes = utf8.encode(lines.join('\n')).length + 200 // room for the last comment
    let listed = 0
    for (const locator of open) {
      const line = `Sitemap: ${finderUrl(base, locator.publicToken)}/sitemap.xml`
      bytes += utf8.encode(line).length + 1
      if (bytes > maxBytes) break
      lines.push(line)
      listed++
    }
    const left = open.length - listed
    if (left > 0)
      lines.push(
        `# ${left} more ${left === 1 ? "locator's sitemap is" : "locators' sitemaps are"} left out: search engines read no further than 500 KiB. Submit them to search engines directly.`,
      )
    return new Response(`${lines.join('\n')}\n`, {
      headers: { 'content-type': TEXT_TYPE, 'cache-control': CACHE_CONTROL, 'x-content-type-options': 'nosniff' },
    })
  } catch (e) {
    return unavailablePage(e)
  }
}

/** No icon, said so a browser keeps the answer a day and stops asking on every page. */
export const faviconResponse = (): Response =>
  new Response(null, { status: 204, headers: { 'cache-control': 'public, max-age=86400' } })
