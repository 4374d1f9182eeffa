// GET /l/{token}/sitemap.xml: the finder page and every published location's canonical page, for
// search engines; past the protocol's 50,000 URLs per file, a sitemap index of numbered pages.
import type { Store } from '../../store'
import type { Locator } from '../../store/locators'
import {
  finderUrl,
  notModified,
  pageBase,
  pageEtag,
  pageLocator,
  type PageDeps,
  storePageUrl,
  unavailablePage,
} from './deps'
import { escapeHtml as esc } from './html'

/** The sitemap protocol's most URLs per file. */
export const SITEMAP_MAX_URLS = 50_000

const XML_TYPE = 'application/xml; charset=utf-8'
const CACHE_CONTROL = 'public, max-age=60'
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9'

/** A sitemap answer: a urlset (the finder page or not, and a run of locations), or an index of pages. */
export type SitemapPlan =
  | { kind: 'urlset'; finder: boolean; offset: number; limit: number }
  | { kind: 'index'; pages: number }

/**
 * What one sitemap request answers, for a locator of `published` locations: its URLs are the
 * finder page then the locations in row order, cut into pages of `pageSize`. Without `page`, a
 * urlset of them all when they fit in one, else an index of `pages`; page N (1-based): the
 * finder if N is 1, and up to `limit` locations from `offset`. null: no such page.
 */
export function sitemapPlan(published: number, page: number | null, pageSize = SITEMAP_MAX_URLS): SitemapPlan | null {
  const urls = published + 1
  const pages = Math.ceil(urls / pageSize)
  if (page === null)
    return pages === 1 ? { kind: 'urlset', finder: true, offset: 0, limit: published } : { kind: 'index', pages }
  if (!(page >= 1 && page <= pages)) return null
  const start = (page - 1) * pageSize
  return page === 1
    ? { kind: 'urlset', finder: true, offset: 0, limit: pageSize - 1 }
    : { kind: 'urlset', finder: false, offset: start - 1, limit: pageSize }
}

/**
 * The sitemap of the locator `token` names, or the page of it `?page=N` asks for; 404 (plain
 * text) unless the locator is active with its Query API on. `pageSize`: tests use small ones.
 */
export function sitemapResponse(
  deps: PageDeps,
  request: Request,
  token: string,
  pageSize = SITEMAP_MAX_URLS,
): Response {
  try {
    const locator = pageLocator(deps, token)
    if (locator === null) return notFound('This store locator does not exist or is not public.')
    const page = pageParam(request)
    const plan =
      page === undefined ? null : sitemapPlan(deps.store.locations.count(locator.id, 'published'), page, pageSize)
    if (plan === null)
      return notFound('This sitemap has no such page. Its pages are numbered from 1: sitemap.xml?page=1.')
    const base = pageBase(deps, request)
    const etag = pageEtag(deps, locator, request, base)
    const cached = notModified(request, etag, CACHE_CONTROL)
    if (cached !== null) return cached
    const xml =
      plan.kind === 'index'
        ? indexXml(`${finderUrl(base, locator.publicToken)}/sitemap.xml?page=`, plan.pages)
        : urlsetXml(deps.store, locator, base, plan)
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n${xml}\n`
    return new Response(body, { headers: { 'content-type': XML_TYPE, 'cache-control': CACHE_CONTROL, etag } })
  } catch (e) {
    return unavailablePage(e)
  }
}

function indexXml(pageUrl: string, pages: number): string {
  const items: string[] = []
  for (let n = 1; n <= pages; n++) items.push(`<sitemap><loc>${esc(pageUrl + n)}</loc></sitemap>`)
  return `<sitemapindex xmlns="${NS}">\n${items.join('\n')}\n</sitemapindex>`
}

/** The urlset a plan names: the finder page first on page 1, then each location's canonical page with its last change. */
function urlsetXml(store: Store, locator: Locator, base: string, plan: SitemapPlan & { kind: 'urlset' }): string {
  const token = locator.publicToken
  const items: string[] = plan.finder ? [`<url><loc>${esc(finderUrl(base, token))}</loc></url>`] : []
  for (const row of store.locations.publishedNames(locator.id, plan.offset, plan.limit)) {
    const lastmod = W3C_TIME.test(row.updatedAt) ? `<lastmod>${esc(row.updatedAt)}</lastmod>` : ''
    items.push(`<url><loc>${esc(storePageUrl(base, token, row.id, row.name))}</loc>${lastmod}</url>`)
  }
  return `<urlset xmlns="${NS}">\n${items.join('\n')}\n</urlset>`
}

/** An ISO time as the rows hold updated_at ("2026-06-15T08:00:00.000Z"), which W3C Datetime allows. */
const W3C_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/

/** The `page` parameter: null when absent, undefined when it is no page number. */
function pageParam(request: Request): number | null | undefined {
  const q = request.url.indexOf('?')
  if (q === -1) return null
  const page = new URLSearchParams(request.url.slice(q + 1)).get('page')
  if (page === null) return null
  return /^[1-9]\d{0,8}$/.test(page) ? Number(page) : undefined
}

function notFound(text: string): Response {
  return new Response(`Not found. ${text}\n`, {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  })
}
