// GET /sitemap.xml: the service's sitemap index, naming the sitemap of each locator whose pages are
// public, so robots.txt holds one Sitemap line whatever the number of locators.
import type { Locator } from '../../store/locators'
import { finderUrl, pageBase, pageCache, type PageDeps, unavailablePage } from './deps'
import { directoryOf } from './directory'
import { directoryUrls } from './directory-page'
import { escapeHtml as esc } from './html'
import { SITEMAP_MAX_URLS, sitemapPlan } from './sitemap'

const XML_TYPE = 'application/xml; charset=utf-8'
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9'

/** The locators whose pages, and so sitemaps, are public: active with the Query API on, oldest first. */
export const publicLocators = (deps: PageDeps): Locator[] =>
  deps.store.locators.list().filter((l) => l.active && l.queryApiEnabled)

/**
 * The sitemap index of every public locator's sitemap, oldest first, as many as `pageSize` files
 * hold (the protocol's 50,000 an index; tests use small ones), a last comment saying how many
 * locators were left out. A locator's sitemap that is itself an index is named by its pages, as
 * an index may not name another. 404 (plain text) when no locator is public: an index names one
 * sitemap at least.
 */
export async function sitemapIndexResponse(
  deps: PageDeps,
  request: Request,
  pageSize = SITEMAP_MAX_URLS,
): Promise<Response> {
  try {
    const base = pageBase(deps, request)
    const open = publicLocators(deps)
    if (open.length === 0)
      return new Response('Not found. No store locator is public: there is no sitemap to list.\n', {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
      })
    const items: string[] = []
    let listed = 0
    for (const locator of open) {
      const files = await sitemapFiles(deps, locator, base, pageSize)
      if (items.length + files.length > pageSize) break
      for (const url of files) items.push(`<sitemap><loc>${esc(url)}</loc></sitemap>`)
      listed++
    }
    const left = open.length - listed
    if (left > 0)
      items.push(
        `<!-- ${left} more ${left === 1 ? "locator's sitemap is" : "locators' sitemaps are"} left out: an index names at most ${pageSize} files. Submit them to search engines directly. -->`,
      )
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NS}">\n${items.join('\n')}\n</sitemapindex>\n`
    return new Response(xml, { headers: { 'content-type': XML_TYPE, ...pageCache(deps, 300) } })
  } catch (e) {
    return unavailablePage(e)
  }
}

/**
 * GET /sitemap.xml with SITEMAP_INDEX=0: a shared service keeps its list of locators, and so of
 * tokens, to itself. Each locator's sitemap is still served, at the address its finder page is on.
 */
export const noSitemapIndex = (): Response =>
  new Response(
    "Not found. This service lists no sitemap index: each store locator's sitemap is at /l/{its public token}/sitemap.xml.\n",
    { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=300' } },
  )

/**
 * The files of a locator's sitemap (sitemap.ts): sitemap.xml, or its numbered pages when it is an
 * index. It lists the finder page, the directory's pages and n stores: no more than 2 + 4n URLs,
 * as each page of the directory's lists holds an entry, each town a store and each country a
 * town. Only a locator that may pass `pageSize` has its directory made to count them.
 */
async function sitemapFiles(deps: PageDeps, locator: Locator, base: string, pageSize: number): Promise<string[]> {
  const sitemap = `${finderUrl(base, locator.publicToken)}/sitemap.xml`
  const stores = deps.store.locations.count(locator.id, 'published')
  if (2 + 4 * stores <= pageSize) return [sitemap]
  const directory = await directoryOf(deps, locator).directory
  const urls = 1 + directoryUrls(directory, base, locator.publicToken).length + stores
  const plan = sitemapPlan(urls, null, pageSize)!
  if (plan.kind === 'urlset') return [sitemap]
  return Array.from({ length: plan.pages }, (_, i) => `${sitemap}?page=${i + 1}`)
}
