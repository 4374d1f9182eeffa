// GET /l/{token}/stores[/{country}[/{town}]]: the store directory, made on the server for people
// without JavaScript and for crawlers that follow links: the countries, a country's towns, a
// town's stores, each list in pages. A locator in one country lists its towns at the top.
import { homeLang, type Lang, langQuery } from '../../core/languages'
import type { Locator } from '../../store/locators'
import {
  CRUMBS_STYLE,
  type Crumb,
  type Links,
  breadcrumbJsonLd,
  countryName,
  crumbsHtml,
  placeCrumbs,
  townName,
} from './breadcrumbs'
import {
  assetBase,
  directoryUrl,
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
import {
  type Directory,
  type DirectoryCountry,
  type DirectoryTown,
  OTHER,
  directoryOf,
  storesOf,
  townSlug,
} from './directory'
import { countryIn, elsewhereIn, townIn } from './country-in'
import { escapeHtml as esc, htmlResponse, openGraphTags, pagePolicy, scriptJson } from './html'
import { type LangTexts, counted, filled, pageTexts } from './page-texts'
import { alternates, LANGUAGES_STYLE, langOfPage, languageLinks, ogLocale } from './page-languages'
import { PAGE_STYLE } from './page-style'
import { finderNotFoundPage, notFoundPage } from './store-page'

/** The most entries a page of a list holds (countries, towns or stores): past it, ?page=2 and on. */
export const LIST_PAGE = 200

const STYLE = `${PAGE_STYLE}${CRUMBS_STYLE}${LANGUAGES_STYLE}.slp-dir{padding-left:1.25rem}.slp-dir li{margin:.35rem 0}.slp-pager{display:flex;gap:1rem;margin-top:1rem}`

/**
 * A place of the directory: its top, a country, a town of one, or the towns of a country that
 * share a name, at the slug that name alone makes (`slug`, `name`).
 */
type Place =
  | { level: 'top' }
  | { level: 'country'; country: DirectoryCountry }
  | { level: 'town'; country: DirectoryCountry; town: DirectoryTown }
  | { level: 'namesakes'; country: DirectoryCountry; slug: string; name: string; towns: DirectoryTown[] }

/** A list's entry: a link, what it counts (a place's stores, in words) or says (a store's address). */
type Entry = { name: string; url: string; count?: string; address?: string }

/**
 * A page of the directory of the locator `token` names: the place the slugs name (none: the
 * top), page `?page=` of its list. A slug written otherwise (FR, Paris) or a country page of the
 * only country answers 301 to the canonical URL. 404 unless the locator is active with its Query
 * API on and the place holds a published store; `null` slugs: not valid percent-encoded UTF-8.
 */
export async function directoryResponse(
  deps: PageDeps,
  request: Request,
  token: string,
  slugs: (string | null)[],
): Promise<Response> {
  try {
    const locator = pageLocator(deps, token)
    if (locator === null) return finderNotFoundPage(request)
    const url = new URL(request.url)
    const home = homeLang(locator)
    const lang = langOfPage(url, locator)
    const texts = pageTexts(lang)
    const base = pageBase(deps, request)
    const links: Links = { base, token: locator.publicToken, query: langQuery(lang, home) }
    const made = directoryOf(deps, locator)
    const dir = await made.directory
    const asked = pageNumber(url.searchParams)
    const page = asked === null ? 1 : (asked ?? null) // no page number: null, a 404
    const found = page === null ? null : placeOf(dir, slugs)
    const entries = found === null ? null : listOf(dir, found.place, lang)
    const pages = entries === null ? 0 : Math.max(1, Math.ceil(entries.length / LIST_PAGE))
    if (found === null || page === null || page > pages)
      return notFoundPage(
        texts.placeNotFound,
        texts.placeNotFoundText,
        directoryUrl(base, links.token) + links.query,
        lang,
      )
    if (found.canonical.join('/') !== slugs.join('/')) {
      const location = directoryUrl(base, links.token, ...found.canonical) + query(links.query, page)
      return new Response(null, { status: 301, headers: { location, ...pageCache(deps, 60) } })
    }
    const etag = pageEtag(deps, locator, request, base, made.version)
    const cached = notModified(request, etag, pageCache(deps, 60))
    if (cached !== null) return cached
    const assets = assetBase(deps)
    const html = pageHtml({
      deps,
      locator,
      dir,
      place: found.place,
      entries: entries!.slice((page - 1) * LIST_PAGE, page * LIST_PAGE),
      texts,
      links,
      page,
      pages,
      home,
      pageUrl: (l, n = page) => directoryUrl(base, links.token, ...found.canonical) + query(langQuery(l, home), n),
    })
    return htmlResponse(html, 200, { etag, ...pageCache(deps, 60), ...pagePolicy(assets, locator.referrers, false) })
  } catch (e) {
    return unavailablePage(e, request)
  }
}

/** The query of page `page` of a directory page in a language, `lang` as langQuery gives it: "?lang=de&page=2". */
function query(lang: string, page: number): string {
  return page > 1 ? `${lang === '' ? '?' : `${lang}&`}page=${page}` : lang
}

/**
 * The place `slugs` name, and its canonical slugs: the country's in lower case, the town's as
 * townSlug writes it ("Paris" -> "paris", "Köln" -> "koeln"), none for the country of a directory in one country.
 * null: no such place (or a slug that was not valid UTF-8).
 */
function placeOf(dir: Directory, slugs: (string | null)[]): { place: Place; canonical: string[] } | null {
  const [c, t] = slugs
  if (c === undefined) return { place: { level: 'top' }, canonical: [] }
  const country = c === null ? undefined : dir.country.get(c.toLowerCase())
  if (country === undefined) return null
  if (t === undefined)
    return { place: { level: 'country', country }, canonical: dir.single === country ? [] : [country.slug] }
  const slug = t === null ? undefined : t.toLowerCase() === OTHER ? OTHER : townSlug(t, country.code)
  const town = slug === undefined ? undefined : (country.town.get(slug) ?? country.spelt.get(slug))
  if (town !== undefined) return { place: { level: 'town', country, town }, canonical: [country.slug, town.slug] }
  const named = slug === undefined || country.namesakes.has(slug) ? slug : country.namesakesSpelt.get(slug)
  const towns = named === undefined ? undefined : country.namesakes.get(named)
  if (towns === undefined) return null
  const place = { level: 'namesakes' as const, country, slug: named!, name: towns[0]!.city!, towns }
  return { place, canonical: [country.slug, named!] }
}

/** The list a place's page shows: countries (by their names in `lang`), towns, or stores (by id). */
function listOf(
  dir: Directory,
  place: Place,
  lang: Lang,
): readonly (DirectoryCountry | DirectoryTown | { id: string })[] {
  if (place.level === 'town') return storesOf(place.town)
  if (place.level === 'namesakes') return place.towns
  if (place.level === 'country') return place.country.towns
  return dir.single?.towns ?? sortedCountries(dir.countries, lang)
}

/** What a directory page is made from; `entries`: the places or stores of its page of the list. */
type DirectoryPage = {
  deps: PageDeps
  locator: Locator
  dir: Directory
  place: Place
  entries: (DirectoryCountry | DirectoryTown | { id: string })[]
  texts: LangTexts
  links: Links
  page: number
  pages: number
  /** The language of the page without ?lang= (core/languages.ts homeLang). */
  home: Lang
  /** The page's URL in a language (`home` without ?lang), page `n` of its list (this one's unless given). */
  pageUrl: (lang: Lang, n?: number) => string
}

/** The page's entries as links: a country or town with its store count, a store with its address. */
function entriesOf(p: DirectoryPage): Entry[] {
  const { place, links, texts } = p
  const to = (...slugs: string[]) => directoryUrl(links.base, links.token, ...slugs) + links.query
  if (place.level === 'town') {
    // Read by id for this page only; a row gone since the directory was made is left out.
    const ids = p.entries.map((e) => (e as { id: string }).id)
    const rows = new Map(p.deps.store.locations.publishedByIds(p.locator.id, ids).map((r) => [r.id, r]))
    return ids.flatMap((id) => {
      const r = rows.get(id)
      if (r === undefined) return []
      return [
        { name: r.name, url: storePageUrl(links.base, links.token, r.id, r.name) + links.query, address: r.address },
      ]
    })
  }
  const country = place.level === 'top' ? p.dir.single : place.country
  if (country !== null)
    return (p.entries as DirectoryTown[]).map((t) => ({
      name: townName(t.name, texts),
      url: to(country.slug, t.slug),
      count: counted(texts, texts.stores, t.stores.length),
    }))
  return (p.entries as DirectoryCountry[]).map((c) => ({
    name: countryName(c.code, texts),
    url: to(c.slug),
    count: counted(texts, texts.stores, c.count),
  }))
}

/** The countries in the order of their names in the page's language, the other places last. */
function sortedCountries(countries: DirectoryCountry[], lang: Lang): DirectoryCountry[] {
  const collator = new Intl.Collator(lang)
  const texts = pageTexts(lang)
  return [...countries].sort((a, b) =>
    a.code === null
      ? 1
      : b.code === null
        ? -1
        : collator.compare(countryName(a.code, texts), countryName(b.code, texts)),
  )
}

/**
 * The heading of a place's page; its title's first part, which names a town's country too (towns
 * of one name are in many countries: "Stores in Richmond, United Kingdom"); and the place after
 * "in" for its description ("in the Netherlands", "in der Schweiz", "au Havre").
 */
function headingOf(place: Place, texts: LangTexts): { heading: string; title: string; inPlace: string | null } {
  if (place.level === 'top') return { heading: texts.directory, title: texts.directory, inPlace: null }
  const storesIn = (where: string) => filled(texts.storesIn, { in: where })
  const same = (where: string) => ({ heading: storesIn(where), title: storesIn(where), inPlace: where })
  const { code } = place.country
  // The places of no country, whichever page lists them, are just the other places.
  if (code === null) return same(texts.inOtherPlaces)
  if (place.level === 'country') return same(countryIn(code, texts))
  const town = place.level === 'town' ? place.town.name : place.name
  if (town === null) return same(elsewhereIn(code, texts))
  const where = townIn(`${town}, ${countryName(code, texts)}`, code, texts)
  return { heading: storesIn(townIn(town, code, texts)), title: storesIn(where), inPlace: where }
}

/** The trail to the page's place: none at the top. */
function crumbsOf(p: DirectoryPage): Crumb[] {
  const { place } = p
  if (place.level === 'top') return []
  const town =
    place.level === 'town'
      ? place.town
      : place.level === 'namesakes'
        ? { slug: place.slug, name: place.name }
        : undefined
  return placeCrumbs(p.dir, p.links, p.texts, place.country, town)
}

function pageHtml(p: DirectoryPage): string {
  const { locator, texts, place, page, pages } = p
  const { heading, title: named, inPlace } = headingOf(place, texts)
  const pageOf = pages > 1 ? [filled(texts.pageOf, { page, pages })] : []
  const title = [named, ...pageOf, locator.name].join(' – ')
  const described =
    inPlace === null
      ? filled(texts.directoryDescription, { name: locator.name })
      : filled(texts.placeDescription, { name: locator.name, in: inPlace })
  // Each page of a list says which it is: search engines take pages of one description for copies.
  const description = page > 1 ? `${described} ${pageOf[0]}.` : described
  const crumbs = crumbsOf(p)
  const entries = entriesOf(p)
  const list =
    entries.length === 0
      ? `<p>${esc(texts.noStores)}</p>`
      : `<ul class="slp-dir">${entries.map(entryHtml).join('')}</ul>`
  const finder = finderUrl(p.links.base, p.links.token) + p.links.query
  return `<!doctype html>
<html lang="${texts.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<meta name="description" content="${esc(description)}">${robotsOf(place)}
<link rel="canonical" href="${esc(p.pageUrl(texts.lang))}">
${headLinks(p)}
${openGraph(p, title, description)}
<style>${STYLE}</style>${crumbs.length === 0 ? '' : `\n<script type="application/ld+json">${scriptJson(breadcrumbJsonLd(crumbs))}</script>`}
</head>
<body class="slp-page">
<nav class="slp-nav" aria-label="${esc(locator.name)}"><a href="${esc(finder)}">${esc(texts.finder)}</a></nav>
<main class="slp-main">
${crumbs.length === 0 ? '' : `${crumbsHtml(crumbs, texts)}\n`}<h1>${esc(heading)}</h1>
${list}
${pagerHtml(p)}</main>
${languageLinks((l) => p.pageUrl(l), texts)}
</body>
</html>
`
}

/**
 * The towns of one name, at the slug that name alone makes (where a directory of old listed them
 * as one town), lead to each town's own page: followed, not indexed, as no sitemap lists them.
 */
const robotsOf = (place: Place): string =>
  place.level === 'namesakes' ? '\n<meta name="robots" content="noindex, follow">' : ''

/**
 * What a link to the page shows where it is shared: its title and description, its locale the
 * page's language in the place's country (the only one's at the top), or in its own.
 */
function openGraph(p: DirectoryPage, title: string, description: string): string {
  const country = p.place.level === 'top' ? p.dir.single?.code : p.place.country.code
  return openGraphTags([
    ['og:type', 'website'],
    ['og:site_name', p.locator.name],
    ['og:title', title],
    ['og:description', description],
    ['og:url', p.pageUrl(p.texts.lang)],
    ['og:locale', ogLocale(p.texts.lang, country)],
  ])
}

/** The page in each language, `home` as the one for any other; the list's pages before and after it. */
function headLinks(p: DirectoryPage): string {
  const links = [alternates((l) => p.pageUrl(l), p.home)]
  if (p.page > 1) links.push(`<link rel="prev" href="${esc(p.pageUrl(p.texts.lang, p.page - 1))}">`)
  if (p.page < p.pages) links.push(`<link rel="next" href="${esc(p.pageUrl(p.texts.lang, p.page + 1))}">`)
  return links.join('\n')
}

function entryHtml(e: Entry): string {
  // In words, not a bare number: a screen reader says "Berlin, 59 stores", not "Berlin, 59".
  const count = e.count === undefined ? '' : ` <span class="slp-count">(${esc(e.count)})</span>`
  const address = e.address === undefined ? '' : `<br><span class="slp-addr">${esc(e.address)}</span>`
  return `<li><a href="${esc(e.url)}">${esc(e.name)}</a>${count}${address}</li>`
}

/** Links to the list's pages before and after this one, and which page it is; none for a list of one page. */
function pagerHtml(p: DirectoryPage): string {
  if (p.pages === 1) return ''
  const { texts, page, pages } = p
  const prev = page > 1 ? `<a rel="prev" href="${esc(p.pageUrl(texts.lang, page - 1))}">${esc(texts.previous)}</a>` : ''
  const next = page < pages ? `<a rel="next" href="${esc(p.pageUrl(texts.lang, page + 1))}">${esc(texts.next)}</a>` : ''
  const at = `<span>${esc(filled(texts.pageOf, { page, pages }))}</span>`
  return `<nav class="slp-pager" aria-label="${esc(texts.pages)}">${[prev, at, next].filter((x) => x).join(' ')}</nav>\n`
}

/**
 * Every page of the directory, without ?lang= (the canonical URLs the others name as alternates): the
 * top, each country's (but the only one's), each town's, each with the pages of its list.
 */
export function directoryUrls(dir: Directory, base: string, token: string): string[] {
  const urls: string[] = []
  const add = (count: number, ...slugs: string[]) => {
    const url = directoryUrl(base, token, ...slugs)
    const pages = Math.max(1, Math.ceil(count / LIST_PAGE))
    for (let n = 1; n <= pages; n++) urls.push(url + query('', n))
  }
  add(dir.single?.towns.length ?? dir.countries.length)
  for (const country of dir.countries) {
    if (country !== dir.single) add(country.towns.length, country.slug)
    for (const town of country.towns) add(town.stores.length, country.slug, town.slug)
  }
  return urls
}
