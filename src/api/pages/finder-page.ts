// GET /l/{token}: a locator's store finder on a page of its own, the widget filling it. For
// businesses without a web team, and the demo the first start points at.
import type { MapTiles } from '../../core/config'
import { homeLang, type Lang, langQuery } from '../../core/languages'
import type { Locator } from '../../store/locators'
import {
  assetBase,
  directoryUrl,
  finderUrl,
  notModified,
  pageBase,
  pageCache,
  type PageDeps,
  pageEtag,
  pageLocator,
  unavailablePage,
} from './deps'
import { escapeHtml, htmlResponse, pagePolicy } from './html'
import { named, pageLang, pageTexts } from './page-texts'
import { alternates, langOfPage, ogLocale } from './page-languages'
import { finderNotFoundPage } from './store-page'

/**
 * The finder page of the locator `token` names (null: a path segment that is not valid
 * percent-encoded UTF-8); 404 unless it is active with its Query API on. Its ETag holds the
 * locator's written version (its name and referrers among it), the URL as sent, and what no write
 * changes: the base its links are made on, where its files come from, the tiles.
 */
export function finderPageResponse(
  deps: PageDeps,
  tiles: MapTiles | null,
  request: Request,
  token: string | null,
): Response {
  try {
    const locator = pageLocator(deps, token)
    if (locator === null) return finderNotFoundPage(request)
    const assets = assetBase(deps)
    const base = pageBase(deps, request)
    const etag = pageEtag(deps, locator, request, `${base} ${assets} ${tiles?.url} ${tiles?.attribution}`)
    const cached = notModified(request, etag, pageCache(deps, 60))
    if (cached !== null) return cached
    return htmlResponse(finderPage(locator, base, assets, request, tiles), 200, {
      etag,
      ...pageCache(deps, 60),
      ...pagePolicy(assets, locator.referrers, true),
    })
  } catch (e) {
    return unavailablePage(e, request)
  }
}

/**
 * The page's options that a link may set: ?lang=de&unit=km&place=Berlin. Without ?unit=, the
 * locator's: the widget would otherwise wait for GET /filters to learn it before its first search,
 * and its map's scale would show both units.
 */
function linkOptions(url: URL, locator: Locator): Record<string, string> {
  const options: Record<string, string> = {}
  const lang = pageLang(url)
  if (lang !== null) options.lang = lang
  const unit = url.searchParams.get('unit')
  options.unit = unit === 'km' || unit === 'miles' ? unit : locator.defaultUnit
  const place = url.searchParams.get('place')?.slice(0, 200)
  if (place) options.place = place
  return options
}

/**
 * `base`: the base its links are made on (pages/deps.ts pageBase); `assets`: where the page loads
 * the widget from (assetBase), "" for its own origin.
 */
function finderPage(locator: Locator, base: string, assets: string, request: Request, tiles: MapTiles | null): string {
  const url = new URL(request.url)
  const options = linkOptions(url, locator)
  const home = homeLang(locator)
  const lang = langOfPage(url, locator)
  const texts = pageTexts(lang)
  // Each language's page is its own canonical URL; ?unit=, ?place= and any other parameter make no other page.
  const pageUrl = (l: Lang) => finderUrl(base, locator.publicToken) + langQuery(l, home)
  const attrs: Record<string, string> = {
    'data-storeloc': locator.publicToken,
    // Without one, the widget asks the origin its script came from.
    ...(assets !== '' && { 'data-api': assets }),
    'data-store-pages': 'on',
    ...Object.fromEntries(Object.entries(options).map(([k, v]) => [`data-${k}`, v])),
  }
  if (tiles) {
    attrs['data-tiles'] = tiles.url
    attrs['data-tiles-attribution'] = tiles.attribution
  }
  const dataAttrs = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${escapeHtml(v)}"`)
    .join('')
  const name = escapeHtml(locator.name)
  const title = named(escapeHtml(texts.finderTitle), name)
  const description = named(escapeHtml(texts.finderDescription), name)
  const canonical = escapeHtml(pageUrl(lang))
  // The store directory, for visitors without JavaScript and crawlers: from the page's own origin, as its files.
  const directory = `<a href="${escapeHtml(directoryUrl(assets, locator.publicToken) + langQuery(lang, home))}">${escapeHtml(texts.browse)}</a>`
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${description}">
<link rel="canonical" href="${canonical}">
${alternates(pageUrl, home)}
<meta property="og:type" content="website">
<meta property="og:site_name" content="${name}">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:url" content="${canonical}">
<meta property="og:locale" content="${ogLocale(lang, null)}">
<meta name="twitter:card" content="summary">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(assets)}/widget.css">
<link rel="sitemap" type="application/xml" href="${escapeHtml(assets)}/l/${escapeHtml(locator.publicToken)}/sitemap.xml">
<style>
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2329; }
header { padding: 16px 20px; border-bottom: 1px solid #c5ced6; }
/* A name of one word wider than a phone breaks: the page never scrolls sideways. */
h1 { margin: 0; font-size: 22px; overflow-wrap: anywhere; }
/* The footer starts below the first screen: the finder growing as it loads does not move it in view. */
main { padding: 16px 20px; max-width: 1280px; margin: 0 auto; min-height: 100vh; box-sizing: border-box; }
footer { padding: 0 20px 16px; max-width: 1280px; margin: 0 auto; }
.sl-root { --sl-map-height: max(280px, calc(100vh - 260px)); }
</style>
</head>
<body>
<header><h1>${name}</h1></header>
<main>
<h2 class="sl-visually-hidden">${escapeHtml(texts.finder)}</h2>
<div${dataAttrs}><noscript><p>${escapeHtml(texts.noScript)}</p><p>${directory}</p></noscript></div>
</main>
<footer><p>${directory}</p></footer>
<script src="${escapeHtml(assets)}/widget.js" async></script>
</body>
</html>
`
}
