// What the store pages and the sitemap share: their dependencies, the base their links are made on,
// the locator a token names (as the Query API's guards see it), slugs, ETags and the 503 answer.
import type { Lang } from '../../core/languages'
import { slugOf } from '../../core/slug'
import { IndexUnavailable, databaseBusy } from '../../indexes/errors'
import type { IndexRegistry } from '../../indexes/registry'
import type { Store } from '../../store'
import { isBusyError } from '../../store/db'
import type { Locator } from '../../store/locators'
import { ANSWER_FORMAT, etagMatches, etagOf } from '../public/headers'
import { pathStart } from '../public/url'
import { messagePage } from './page-style'
import { pageLang, pageTexts } from './page-texts'

export type PageDeps = { store: Store; registry: IndexRegistry; publicBaseUrl: string | null }

/** The origin (and path prefix) page links start with: PUBLIC_BASE_URL, else the origin the request was sent to. */
export const pageBase = (deps: PageDeps, request: Request): string =>
  deps.publicBaseUrl ?? request.url.slice(0, pathStart(request.url))

/**
 * The caching headers of a page (or redirect) kept `seconds`. Without PUBLIC_BASE_URL its links
 * name the Host sent, which a client may forge: it varies by Host, so a cache keyed without it
 * (nginx's default key) keeps a copy per Host and gives none of them to another.
 */
export function pageCache(deps: PageDeps, seconds: number): Record<string, string> {
  const caching = { 'cache-control': `public, max-age=${seconds}` }
  return deps.publicBaseUrl === null ? { ...caching, vary: 'Host' } : caching
}

/**
 * Where a page loads the service's own files from (widget.js, widget.css): PUBLIC_BASE_URL, else
 * "" (paths from the page's own root). Never the Host a request sent: a shared cache that keeps a
 * page for every Host would serve one request's forged Host as the script of all.
 */
export const assetBase = (deps: PageDeps): string => deps.publicBaseUrl ?? ''

/**
 * The locator a token names when its pages may be shown: active, with its Query API on; else null.
 * Synced first, as a query is, so a write just answered shows. The referrer allowlist does not
 * apply: these are the service's own pages. `token` may be null: Elysia gives null for a path
 * segment that is not valid percent-encoded UTF-8.
 */
export function pageLocator(deps: PageDeps, token: string | null): Locator | null {
  if (typeof token !== 'string' || token === '') return null
  deps.registry.sync()
  const locator = deps.registry.locatorByToken(token)
  return locator?.active && locator.queryApiEnabled ? locator : null
}

/**
 * pageLocator() for a page made from the locator's index: an index of a large locator that is not
 * built is built in background tasks, which the page waits for as a query does (registry.whenBuilt).
 */
export async function indexedPageLocator(deps: PageDeps, token: string | null): Promise<Locator | null> {
  for (;;) {
    const locator = pageLocator(deps, token)
    const built = locator === null ? null : deps.registry.whenBuilt(locator.id)
    if (built === null) return locator
    await built
  }
}

/** The finder page of a locator: `${base}/l/${token}`. */
export const finderUrl = (base: string, token: string): string => `${base}/l/${encodeURIComponent(token)}`

/** A location's canonical page: `${base}/l/${token}/${id}/${slug}`, each segment percent-encoded. */
export const storePageUrl = (base: string, token: string, id: string, name: string): string =>
  `${finderUrl(base, token)}/${encodeURIComponent(id)}/${encodeURIComponent(slugOf(name))}`

/**
 * A page of the store directory: `${base}/l/${token}/stores`, then the country's slug and the
 * town's (directory.ts), each percent-encoded.
 */
export const directoryUrl = (base: string, token: string, ...places: string[]): string =>
  [`${finderUrl(base, token)}/stores`, ...places.map(encodeURIComponent)].join('/')

/**
 * The pages' format, in every page's ETag with ANSWER_FORMAT (a store page shows the Query API's
 * location): moved when a page's content changes for the same locator version (versions outlive
 * a restart), so a browser's copy made before is sent again in full, not confirmed by a 304.
 * Add one in the commit that changes what a page shows; `git log -S PAGE_FORMAT` lists why.
 */
export const PAGE_FORMAT = 35

/**
 * A page's ETag: it changes with every write to the locator (registry.writtenVersion, which also
 * marks its index in use; not as stores open and close, which no page shows), the URL as sent,
 * the formats, and `made`: the base its links are made on, and whatever else the page depends on
 * that no write changes (a store page's date). `version`: the written version the page was made
 * at, when not now.
 */
export function pageEtag(
  deps: PageDeps,
  locator: Locator,
  request: Request,
  made: string,
  version = deps.registry.writtenVersion(locator.id),
): string {
  return etagOf(version, request.url, Bun.hash(`pages ${ANSWER_FORMAT}.${PAGE_FORMAT} ${made}`))
}

/** A list's `page` parameter: null when absent, undefined when it is no page number (1 to 999,999,999). */
export function pageNumber(params: URLSearchParams): number | null | undefined {
  const page = params.get('page')
  if (page === null) return null
  return /^[1-9]\d{0,8}$/.test(page) ? Number(page) : undefined
}

/** 304 when the request already holds the page `etag` names; else null. */
export function notModified(request: Request, etag: string, caching: Record<string, string>): Response | null {
  if (!etagMatches(request.headers.get('if-none-match'), etag)) return null
  return new Response(null, { status: 304, headers: { etag, ...caching } })
}

/**
 * The 503 page for an index that cannot answer now (another process's write lock, a build that
 * failed on its rows); anything else is thrown on, for the app's error handler to log.
 */
export function unavailablePage(error: unknown, request?: Request): Response {
  const known = error instanceof IndexUnavailable ? error : isBusyError(error) ? databaseBusy(error) : null
  if (known === null) throw error
  return errorPage(503, known.retryAfterS, request && linkLang(request))
}

/** The language a request's link asks for (?lang=), else English: an error page reads no locator. */
export const linkLang = (request: Request): Lang => pageLang(new URL(request.url)) ?? 'en'

/** What an error page says for its status: the keys of its title and its text. */
const ERROR_PAGES = {
  429: ['tooMany', 'tooManyText'],
  503: ['unavailable', 'unavailableText'],
  500: ['failed', 'failedText'],
} as const

/**
 * A page for an error that is not the page's, in `lang`: 429 (with `retryAfterS`) says this
 * address asked for too many, 503 that the store list cannot be read at the moment, 500 that
 * something went wrong; none names the cause, which the log holds.
 */
export function errorPage(status: number, retryAfterS: number | null, lang: Lang = 'en'): Response {
  const texts = pageTexts(lang)
  const [title, text] = ERROR_PAGES[status === 429 || status === 503 ? status : 500]
  const headers: Record<string, string> = retryAfterS === null ? {} : { 'retry-after': String(retryAfterS) }
  return messagePage(status, lang, texts[title], texts[text], '', headers)
}

/**
 * The page every page answers while the service starts (503, in `lang`): it says so, and reloads
 * itself after `seconds`, as its Retry-After says.
 */
export function startingPage(lang: Lang, seconds: number): Response {
  const texts = pageTexts(lang)
  return messagePage(
    503,
    lang,
    texts.starting,
    texts.startingText,
    '',
    { 'retry-after': String(seconds) },
    `<meta http-equiv="refresh" content="${seconds}">`,
  )
}

/**
 * A page asked for with a trailing slash ("/l/pk_x/stores/?lang=de"), sent to its path without
 * it ("../stores?lang=de"), relative so that a proxy's path prefix stays; null when it has none.
 */
export function trailingSlashRedirect(url: string): Response | null {
  const { pathname, search } = new URL(url)
  if (!pathname.endsWith('/') || pathname === '/') return null
  const name = pathname.slice(0, -1).split('/').pop()!
  return new Response(null, { status: 308, headers: { location: `../${name}${search}` } })
}
