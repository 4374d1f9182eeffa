// GET /l/{token}: a locator's store finder on a page of its own, the widget filling it. For
// businesses without a web team, and the demo the first start points at.
import type { MapTiles } from '../../core/config'
import { langQuery } from '../../core/languages'
import type { Locator } from '../../store/locators'
import { escapeHtml } from './html'
import { named, pageLang, pageTexts } from './page-texts'

/** The page's options that a link may set: ?lang=de&unit=km&place=Berlin. */
function linkOptions(url: URL): Record<string, string> {
  const options: Record<string, string> = {}
  const lang = pageLang(url)
  if (lang !== null) options.lang = lang
  const unit = url.searchParams.get('unit')
  if (unit === 'km' || unit === 'miles') options.unit = unit
  const place = url.searchParams.get('place')?.slice(0, 200)
  if (place) options.place = place
  return options
}

/** `assets`: where the page loads the widget from (pages/deps.ts assetBase); "" is its own origin. */
export function finderPage(locator: Locator, assets: string, request: Request, tiles: MapTiles | null): string {
  const url = new URL(request.url)
  const options = linkOptions(url)
  const lang = pageLang(url) ?? 'en'
  const texts = pageTexts(lang)
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
  // The store directory, for visitors without JavaScript and crawlers: from the page's own origin, as its files.
  const directory = `<a href="${escapeHtml(`${assets}/l/${encodeURIComponent(locator.publicToken)}/stores${langQuery(lang)}`)}">${escapeHtml(texts.browse)}</a>`
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${named(escapeHtml(texts.finderTitle), name)}</title>
<meta name="description" content="${named(escapeHtml(texts.finderDescription), name)}">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(assets)}/widget.css">
<link rel="sitemap" type="application/xml" href="${escapeHtml(assets)}/l/${escapeHtml(locator.publicToken)}/sitemap.xml">
<style>
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2329; }
header { padding: 16px 20px; border-bottom: 1px solid #c5ced6; }
h1 { margin: 0; font-size: 22px; }
main { padding: 16px 20px; max-width: 1280px; margin: 0 auto; }
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
