// GET /l/{token}/sitemap.xml: the finder page, the store directory's pages and every published
// location's canonical page, for search engines; past the protocol's 50,000 URLs per file, a
// sitemap index of numbered pages.
import type { Store } from '../../store'
import type { PublishedName } from '../../store/location-slicers'
import type { Locator } from '../../store/locators'
import { eachSlice } from '../../store/snapshot'
import {
  finderUrl,
  notModified,
  pageBase,
  pageCache,
  pageEtag,
  pageLocator,
  pageNumber,
  type PageDeps,
  storePageUrl,
  unavailablePage,
} from './deps'
import { directoryOf } from './directory'
import { directoryUrls } from './directory-page'
import { keptPerRegistry } from './kept'
import { escapeHtml as esc } from './html'

/** The sitemap protocol's most URLs per file. */
export const SITEMAP_MAX_URLS = 50_000

const XML_TYPE = 'application/xml; charset=utf-8'
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9'

/** A sitemap answer: a urlset of the URLs from `from` to before `to` (of them all, in order), or an index of pages. */
export type SitemapPlan = { kind: 'urlset'; from: number; to: number } | { kind: 'index'; pages: number }

/**
 * What one sitemap request answers, for `urls` URLs in all (the finder page, the directory's
 * pages, then the locations in row order), cut into pages of `pageSize`. Without `page`, a
 * urlset of them all when they fit in one, else an index of `pages`; page N (1-based): its run of
 * `pageSize`. null: no such page.
 */
export function sitemapPlan(urls: number, page: number | null, pageSize = SITEMAP_MAX_URLS): SitemapPlan | null {
  const pages = Math.max(1, Math.ceil(urls / pageSize))
  if (page === null) return pages === 1 ? { kind: 'urlset', from: 0, to: urls } : { kind: 'index', pages }
  if (!(page >= 1 && page <= pages)) return null
  return { kind: 'urlset', from: (page - 1) * pageSize, to: Math.min(urls, page * pageSize) }
}

/**
 * The sitemap of the locator `token` names, or the page of it `?page=N` asks for; 404 (plain
 * text) unless the locator is active with its Query API on. `pageSize`: tests use small ones.
 */
export async function sitemapResponse(
  deps: PageDeps,
  request: Request,
  token: string,
  pageSize = SITEMAP_MAX_URLS,
): Promise<Response> {
  try {
    const locator = pageLocator(deps, token)
    if (locator === null) return notFound('This store locator does not exist or is not public.')
    const page = pageNumber(new URL(request.url).searchParams)
    const base = pageBase(deps, request)
    const made = directoryOf(deps, locator)
    const head = [
      finderUrl(BASE_MARK, locator.publicToken),
      ...directoryUrls(await made.directory, BASE_MARK, locator.publicToken),
    ]
    const urls = head.length + deps.store.locations.count(locator.id, 'published')
    const plan = page === undefined ? null : sitemapPlan(urls, page, pageSize)
    if (plan === null)
      return notFound('This sitemap has no such page. Its pages are numbered from 1: sitemap.xml?page=1.')
    const etag = pageEtag(deps, locator, request, base, made.version)
    const cached = notModified(request, etag, pageCache(deps, 60))
    if (cached !== null) return cached
    const key = `${locator.id} ${pageSize} ${page}`
    const kept = await keptBodies(deps.registry).get(key, made.version, async () => {
      const xml =
        plan.kind === 'index'
          ? indexXml(`${finderUrl(BASE_MARK, locator.publicToken)}/sitemap.xml?page=`, plan.pages)
          : await urlsetXml(deps.store, locator, BASE_MARK, head, plan)
      return { parts: `<?xml version="1.0" encoding="UTF-8"?>\n${xml}\n`.split(BASE_MARK), base: '', bytes: null }
    })
    return new Response(bodyOn(kept, base), {
      headers: { 'content-type': XML_TYPE, ...pageCache(deps, 60), etag },
    })
  } catch (e) {
    return unavailablePage(e)
  }
}

const utf8 = new TextEncoder()

/**
 * What a sitemap body is made with in place of the base of its URLs; each answer puts its base
 * there (bodyOn). No URL nor XML the body holds has it (segments are percent-encoded).
 */
const BASE_MARK = '\u0001'

/** A sitemap body, cut where its base goes; and its bytes for the last base it was sent on. */
type KeptBody = { parts: string[]; base: string; bytes: Uint8Array | null }

/** `kept`'s bytes on `base`: made again only for another base than the last. */
function bodyOn(kept: KeptBody, base: string): Uint8Array {
  if (kept.bytes === null || kept.base !== base) {
    kept.bytes = utf8.encode(kept.parts.join(esc(base)))
    kept.base = base
  }
  return kept.bytes
}

/**
 * Sitemap bodies made (or being made), by the locator and the page, while the locator's written
 * version holds, 64 MiB in all (their text counted twice, for its bytes): a crawler that does not
 * revalidate gets the same bytes again without a rebuild, which reads every published location
 * (about 0.15 s of CPU at 50,000; a page of 50,000 URLs is about 8 MB). Kept without their base,
 * so that a request's Host (without PUBLIC_BASE_URL) neither keys one nor makes one: a new Host
 * costs the join of the parts, not a rebuild.
 */
const keptBodies = keptPerRegistry<KeptBody>(64 * 1024 * 1024, (body) =>
  body.parts.reduce((sum, part) => sum + 2 * part.length, 0),
)

function indexXml(pageUrl: string, pages: number): string {
  const items: string[] = []
  for (let n = 1; n <= pages; n++) items.push(`<sitemap><loc>${esc(pageUrl + n)}</loc></sitemap>`)
  return `<sitemapindex xmlns="${NS}">\n${items.join('\n')}\n</sitemapindex>`
}

/** Published locations a slice when a sitemap page is written: a few milliseconds each. */
const SLICE = 2000

/**
 * The urlset a plan names: of the `head` URLs (the finder page, the directory's pages) and then
 * each location's canonical page with its last change, those from `from` to before `to`; the
 * locations read from one snapshot a slice at a time, the event loop free between slices.
 */
async function urlsetXml(
  store: Store,
  locator: Locator,
  base: string,
  head: string[],
  plan: { from: number; to: number },
) {
  const items = head.slice(plan.from, plan.to).map((url) => `<url><loc>${esc(url)}</loc></url>`)
  let left = plan.to - Math.max(plan.from, head.length)
  if (left <= 0) return `<urlset xmlns="${NS}">\n${items.join('\n')}\n</urlset>`
  const snapshot = store.snapshot()
  try {
    const names = snapshot.publishedNames
    // Up to `left` more rows; a slice of none ends the reads.
    const read = (after: number, size: number) => {
      const slice = names.read(locator.id, after, left <= 0 ? 0 : size < 0 ? left : Math.min(size, left))
      left -= slice.rows.length
      return slice
    }
    const add = (rows: PublishedName[]) => {
      for (const row of rows) {
        const lastmod = W3C_TIME.test(row.updatedAt) ? `<lastmod>${esc(row.updatedAt)}</lastmod>` : ''
        items.push(`<url><loc>${esc(storePageUrl(base, locator.publicToken, row.id, row.name))}</loc>${lastmod}</url>`)
      }
    }
    const from = names.seqBefore(locator.id, Math.max(0, plan.from - head.length))
    await eachSlice(snapshot, SLICE, read, add, from)
  } finally {
    snapshot.close()
  }
  return `<urlset xmlns="${NS}">\n${items.join('\n')}\n</urlset>`
}

/** An ISO time as the rows hold updated_at ("2026-06-15T08:00:00.000Z"), which W3C Datetime allows. */
const W3C_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/

function notFound(text: string): Response {
  return new Response(`Not found. ${text}\n`, {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  })
}
