// GET /l/{token}/{id}[/{slug}]: a published location's own page, server-rendered for people and
// search engines (JSON-LD, Open Graph), from the Query API's view of it. Every value is escaped.
import { isFullUrl } from '../../core/validation'
import { parseDayHours } from '../../core/hours'
import { hoursText, timeLocale } from '../../core/hours-text'
import { DIRECTIONS_SERVICES, directionsUrl, mailtoUrl, shortUrl, telUrl } from '../../core/directions'
import { homeLang, type Lang, labelled, langQuery } from '../../core/languages'
import { localDayOn } from '../../core/zone-clock'
import type { LocatorIndex } from '../../engine/locator-index'
import type { IndexRegistry } from '../../indexes/registry'
import { DAYS } from '../../store/locations'
import { shownGroupName } from '../../core/filter-groups'
import type { Locator } from '../../store/locators'
import { locationBody } from '../public/answer'
import { PublicError } from '../public/errors'
import {
  finderUrl,
  notModified,
  assetBase,
  pageBase,
  pageCache,
  pageEtag,
  indexedPageLocator,
  type PageDeps,
  storePageUrl,
  unavailablePage,
} from './deps'
import { slugOf } from '../../core/slug'
import { type SocialNetwork, socialUrl } from '../../core/social'
import { escapeHtml as esc, htmlResponse, openGraphTags, pagePolicy, scriptJson } from './html'
import { messagePage, PAGE_STYLE } from './page-style'
import { capitalise, type LangTexts, longDate, named, pageLang, pageTexts } from './page-texts'
import { countryLabel } from '../../geocode/countries'
import { localBusinessJsonLd, type PublicLocation, streetOf } from './json-ld'
import { CRUMBS_STYLE, type Crumb, breadcrumbJsonLd, crumbsHtml, storeCrumbs } from './breadcrumbs'
import { alternates, LANGUAGES_STYLE, langOfPage, languageLinks, ogLocale } from './page-languages'
import { type Directory, directoryOf } from './directory'
import { cut, storeName, storeTitle } from './store-title'

/** How many days ahead a page lists special hours. */
const SPECIAL_DAYS = 60
const SOCIAL: [SocialNetwork, string][] = [
  ['instagram', 'Instagram'],
  ['facebook', 'Facebook'],
  ['twitter', 'X (Twitter)'],
]
const utf8 = new TextDecoder()

/**
 * The page of location `id` of the locator `token` names. `slug` null: the path had none (or one
 * that is not valid percent-encoded UTF-8). A slug other than the name's answers 301 to the
 * canonical URL; none serves the page, which names that URL as canonical. 404 unless the locator
 * is active with its Query API on and the location is published.
 */
export async function storePageResponse(
  deps: PageDeps,
  request: Request,
  token: string,
  id: string,
  slug: string | null,
): Promise<Response> {
  try {
    const locator = await indexedPageLocator(deps, token)
    if (locator === null) return finderNotFoundPage(request)
    const base = pageBase(deps, request)
    const assets = assetBase(deps)
    const home = homeLang(locator)
    const lang = langOfPage(new URL(request.url), locator)
    // Elysia gives null for an id that is not valid percent-encoded UTF-8.
    const location = typeof id === 'string' ? publishedLocation(deps.registry, locator, id) : null
    if (location === null) {
      const texts = pageTexts(lang)
      const finder = finderUrl(base, locator.publicToken) + langQuery(lang, home)
      return notFoundPage(texts.storeNotFound, texts.storeNotFoundText, finder, lang)
    }
    const pageUrl = (l: Lang) =>
      storePageUrl(base, locator.publicToken, location.id, location.name) + langQuery(l, home)
    const canonical = pageUrl(lang)
    const search = searchOf(new URL(request.url))
    const finder = finderUrl(base, locator.publicToken) + withSearch(langQuery(lang, home), search)
    if (slug === null ? slugSent(request, location.id) : slug !== slugOf(location.name)) {
      const location = withSearch(canonical, search) // the search goes on, for the link back
      return new Response(null, { status: 301, headers: { location, ...pageCache(deps, 60) } })
    }
    const entry = deps.registry.entry(locator.id)
    const hidden = new Set(entry.filters.filter((g) => g.hideInLocationDetails).map((g) => g.id))
    const { today, special } = specialDates(entry.index, location.id, deps.registry.now())
    const links = { base, token: locator.publicToken, query: langQuery(lang, home) }
    const store = { name: location.name, url: canonical }
    // The page lists the dates ahead of its day, so it changes with the day too.
    const etag = pageEtag(deps, locator, request, `${base} ${today}`)
    const cached = notModified(request, etag, pageCache(deps, 60))
    if (cached !== null) return cached
    // Read only for a page sent: a directory is made once per write to the locator. The page
    // stands without its trail when the rows cannot be read: it is made from the index.
    const directory = await directoryOf(deps, locator).directory.catch((e) => {
      deps.store.noteDamage(e)
      return null
    })
    return htmlResponse(
      pageHtml({
        location,
        locator,
        base,
        canonical,
        hidden,
        special,
        texts: pageTexts(lang),
        pageUrl,
        home,
        finder,
        directory,
        crumbs: directory && storeCrumbs(directory, links, pageTexts(lang), location.address, store),
      }),
      200,
      { etag, ...pageCache(deps, 60), ...pagePolicy(assets, locator.referrers, false) },
    )
  } catch (e) {
    return unavailablePage(e, request)
  }
}

/** The location as GET /public/v1/{token}/locations/{id} shows it; null for a draft, a deleted or an unknown id. */
function publishedLocation(registry: IndexRegistry, locator: Locator, id: string): PublicLocation | null {
  let body: Uint8Array
  try {
    body = locationBody(registry, locator, id)
  } catch (e) {
    if (e instanceof PublicError && e.code === 'LOCATION_NOT_FOUND') return null
    throw e
  }
  return (JSON.parse(utf8.decode(body)) as { data: { location: PublicLocation } }).data.location
}

/**
 * The location's local date at `now`, and its special hours from that date for SPECIAL_DAYS days, in
 * date order ('' and none when it has no hours, or its zone is not known here).
 */
function specialDates(index: LocatorIndex, id: string, now: number): { today: string; special: [string, string][] } {
  const doc = index.get(id)
  const hours = doc === null ? null : index.openingHours(index.keyOf(doc))
  if (hours === null) return { today: '', special: [] }
  let today: string
  let end: string
  try {
    const day = localDayOn(hours.clock, now)
    today = hours.clock.date(day)
    end = hours.clock.date(day + SPECIAL_DAYS)
  } catch {
    return { today: '', special: [] }
  }
  const special = [...hours.texts.special].filter(([date]) => date >= today && date < end)
  return { today, special: special.sort(([a], [b]) => (a < b ? -1 : 1)) }
}

/** Whether the path goes on after the id: a slug Elysia gave as null, not being valid percent-encoded UTF-8. */
function slugSent(request: Request, id: string): boolean {
  const path = new URL(request.url).pathname.replace(/\/+$/, '')
  const last = path.slice(path.lastIndexOf('/') + 1)
  try {
    return decodeURIComponent(last) !== id
  } catch {
    return true
  }
}

/**
 * A 404 page saying what was not found, in `lang` (html lang, the finder link's text), with a link
 * to the finder when there is one.
 */
export function notFoundPage(title: string, text: string, finder?: string, lang: Lang = 'en'): Response {
  const link = finder === undefined ? '' : `<p><a href="${esc(finder)}">${esc(pageTexts(lang).seeAll)}</a></p>`
  return messagePage(404, lang, title, text, link)
}

/** The 404 page of a locator that has no public pages, in the language a link asks for. */
export function finderNotFoundPage(request: Request): Response {
  const lang = pageLang(new URL(request.url)) ?? 'en'
  const texts = pageTexts(lang)
  return notFoundPage(texts.finderNotFound, texts.finderNotFoundText, undefined, lang)
}

/**
 * What a store page is made from; `hidden`: the filter groups left out of location details;
 * `special`: the special hours ahead, by date.
 */
type Page = {
  location: PublicLocation
  locator: Locator
  base: string
  canonical: string
  hidden: Set<string>
  special: [string, string][]
  texts: LangTexts
  /** The page's URL in a language (`home` without ?lang). */
  pageUrl: (lang: Lang) => string
  /** The language of the page without ?lang= (core/languages.ts homeLang). */
  home: Lang
  /** The link back to the finder page, with the search the visitor came from. */
  finder: string
  /** The locator's store directory; null when it could not be read. */
  directory: Directory | null
  /** The trail from the store directory to the page; null when the directory could not be read. */
  crumbs: Crumb[] | null
}

/** The finder page's search, as the widget's store links carry it: its sl_ parameters, at most this many. */
const SEARCH_PARAMS = 12

/**
 * The search a widget's store link carries (its sl_ parameters), for the page's link back to the
 * finder page: none when a value is over 500 characters or there are too many (a search in part
 * is another search).
 */
function searchOf(url: URL): string {
  const search = [...url.searchParams].filter(([k]) => /^sl_[a-z]{1,8}$/.test(k))
  if (search.length > SEARCH_PARAMS || search.some(([, v]) => v.length > 500)) return ''
  return new URLSearchParams(search).toString()
}

/** `url` (with its query, or none) with `search`'s parameters after its own. */
const withSearch = (url: string, search: string): string =>
  search === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${search}`

function pageHtml(page: Page): string {
  const { location, locator, texts, finder } = page
  return `<!doctype html>
<html lang="${texts.lang}">
<head>
${headHtml(page)}
</head>
<body class="slp-page">
<nav class="slp-nav" aria-label="${esc(locator.name)}"><a href="${esc(finder)}">${esc(texts.back)}</a></nav>
<main class="slp-main">
${page.crumbs === null ? '' : crumbsHtml(page.crumbs, texts)}
<h1>${esc(location.name)}</h1>
${badgesHtml(location, texts)}${imageHtml(location, texts)}${descriptionHtml(location.description)}
${addressHtml(location, texts)}
${hoursHtml(location, texts)}${specialHtml(page.special, texts, location.address.country)}${contactHtml(location, texts)}${tagsHtml(location, page.hidden, texts)}${customFieldsHtml(location, texts)}
</main>
${languageLinks(page.pageUrl, texts)}
</body>
</html>
`
}

function headHtml({ location, locator, canonical, special, pageUrl, home, texts, crumbs, directory }: Page): string {
  const description = cut(location.description || location.address.formatted, 160)
  const { address } = location
  const name = storeName(location, directory)
  const og: [string, string | undefined][] = [
    ['og:type', 'business.business'],
    ['og:site_name', locator.name],
    ['og:title', name],
    ['og:description', description],
    ['og:url', canonical],
    ['og:locale', ogLocale(texts.lang, address.country)],
    ['og:image', isFullUrl(location.image) ? location.image : undefined],
    ['business:contact_data:street_address', streetOf(address)],
    ['business:contact_data:locality', address.city],
    ['business:contact_data:region', address.region],
    ['business:contact_data:postal_code', address.postcode],
    ['business:contact_data:country_name', address.country && countryLabel(address.country, texts.lang)],
    // Required of business.business, and Open Graph says no precision: an approximate point (the
    // town's) is where the store is at a link preview's scale. JSON-LD's geo, a search engine's
    // pin for the business, has only the store's own (localBusinessJsonLd).
    ['place:location:latitude', String(location.coordinates.lat)],
    ['place:location:longitude', String(location.coordinates.lng)],
  ]
  return `<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(storeTitle(location.name, name, locator.name))}</title>
<meta name="description" content="${esc(description)}">
<link rel="canonical" href="${esc(canonical)}">
${alternates(pageUrl, home)}
${openGraphTags(og)}
<style>${PAGE_STYLE}${CRUMBS_STYLE}${LANGUAGES_STYLE}</style>
<script type="application/ld+json">${scriptJson(localBusinessJsonLd(location, pageUrl(home), canonical, special))}</script>
${crumbs === null ? '' : `<script type="application/ld+json">${scriptJson(breadcrumbJsonLd(crumbs))}</script>`}`
}

/** Each badge custom field as a chip under the name: its label and value (its colour marks the chip's edge, never the text's). */
function badgesHtml(location: PublicLocation, texts: LangTexts): string {
  const badges = location.customFields.filter((f) => f.type === 'badge')
  if (badges.length === 0) return ''
  const items = badges.map((f) => {
    const color = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(f.color ?? '') ? ` style="border-left-color:${f.color}"` : ''
    return `<li><span class="slp-badge"${color}>${esc(labelled(texts.lang, f.label || f.name || '', f.value ?? ''))}</span></li>`
  })
  return `<ul class="slp-badges" aria-label="${esc(texts.badges)}">${items.join('')}</ul>\n`
}

/**
 * The store's photo, in a 3:2 box held before it loads (its size is not known): nothing under it
 * moves when it comes. A photo of another shape (a logo, a portrait) is shown whole within it,
 * and a small one at its own size.
 */
function imageHtml(location: PublicLocation, texts: LangTexts): string {
  if (!isFullUrl(location.image)) return ''
  const alt = esc(named(texts.photo, location.name))
  return `<img class="slp-photo" src="${esc(location.image)}" alt="${alt}" width="960" height="640">\n`
}

/** The description's paragraphs (blank lines apart), its other line breaks kept. */
function descriptionHtml(description: string): string {
  const paragraphs = description.split(/\n\s*\n/).filter((p) => p.trim() !== '')
  return paragraphs.map((p) => `<p>${esc(p.trim()).replace(/\n/g, '<br>')}</p>\n`).join('')
}

function addressHtml(location: PublicLocation, texts: LangTexts): string {
  const links = DIRECTIONS_SERVICES.map(
    ([service, name]) =>
      `<li><a href="${esc(directionsUrl(service, location))}">${esc(named(texts.directions, name))}</a></li>`,
  )
  return `<section aria-labelledby="slp-address"><h2 id="slp-address">${esc(texts.address)}</h2>
<address>${esc(location.address.formatted)}</address>
<ul class="slp-list">${links.join('')}</ul></section>`
}

/** The week's hours as stored, Monday first; none when no day has any. */
function hoursHtml(location: PublicLocation, texts: LangTexts): string {
  const { hours } = location
  if (DAYS.every((d) => !hours[d])) return ''
  const country = location.address.country
  const rows = DAYS.map(
    (d, i) => `<tr><th scope="row">${esc(texts.weekdays[i]!)}</th><td>${dayHtml(hours[d], texts, country)}</td></tr>`,
  )
  return `<section aria-labelledby="slp-hours"><h2 id="slp-hours">${esc(texts.hours)}</h2>
<table class="slp-hours"><thead><tr><th scope="col">${esc(texts.day)}</th><th scope="col">${esc(texts.times)}</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>
`
}

/**
 * A day's hours as the page says them, in its language and as the store's country writes times
 * (hoursText, as the widget's cards say them); "Not given" for none. Each range of times read is
 * held on one line ("10:00 a.m.–2:00 p.m." never ends a line at its dash); other text wraps.
 */
function dayHtml(text: string | undefined, texts: LangTexts, country: string | undefined): string {
  if (!text) return esc(texts.notGiven)
  const shown = hoursText(texts.lang, text, country)
  if (parseDayHours(text).kind !== 'open') return esc(shown)
  // hoursText joins the ranges with ", ", and no time it writes holds one. The comma stays with its range.
  const ranges = shown.split(', ')
  return ranges
    .map((range, i) => `<span class="slp-range">${esc(range)}${i < ranges.length - 1 ? ',' : ''}</span>`)
    .join(' ')
}

/**
 * The special hours ahead (holidays, events), each date with its hours text, dates and times as the
 * store's country writes them in the page's language; none when there are none.
 */
function specialHtml(special: [string, string][], texts: LangTexts, country: string | undefined): string {
  if (special.length === 0) return ''
  const dates = longDate(timeLocale(texts.lang, country))
  const rows = special.map(
    ([date, text]) =>
      `<tr><th scope="row"><time datetime="${date}">${esc(capitalise(dates.format(Date.parse(`${date}T00:00:00Z`)), texts.lang))}</time></th><td>${dayHtml(text, texts, country)}</td></tr>`,
  )
  return `<section aria-labelledby="slp-special"><h2 id="slp-special">${esc(texts.special)}</h2>
<table class="slp-hours"><thead><tr><th scope="col">${esc(texts.date)}</th><th scope="col">${esc(texts.times)}</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>
`
}

/** A phone number as a tel: link (telUrl); its text alone when it holds no digit. */
function phoneLink(phone: string): string {
  const tel = telUrl(phone)
  return tel === null ? esc(phone) : `<a href="${esc(tel)}">${esc(phone)}</a>`
}

/** A link when `url` is a full http(s) URL (stored ones are; a row written otherwise may not be), else its text. */
const webLink = (url: string, text: string) => (isFullUrl(url) ? `<a href="${esc(url)}">${esc(text)}</a>` : esc(text))

function contactHtml(location: PublicLocation, texts: LangTexts): string {
  const { phone, email, website } = location.contact
  const items: string[] = []
  if (phone) items.push(labelled(texts.lang, esc(texts.phone), phoneLink(phone)))
  if (email) items.push(labelled(texts.lang, esc(texts.email), `<a href="${esc(mailtoUrl(email))}">${esc(email)}</a>`))
  if (website) items.push(labelled(texts.lang, esc(texts.website), webLink(website, shortUrl(website))))
  for (const [network, name] of SOCIAL) {
    const handle = location.social[network]
    if (handle) items.push(labelled(texts.lang, name, webLink(socialUrl(network, handle), `@${handle}`)))
  }
  if (items.length === 0) return ''
  return `<section aria-labelledby="slp-contact"><h2 id="slp-contact">${esc(texts.contact)}</h2>
<ul class="slp-list">${items.map((i) => `<li>${i}</li>`).join('')}</ul></section>
`
}

/** The location's tags, a section per filter group, but for groups the operator hides in location details. */
function tagsHtml(location: PublicLocation, hidden: Set<string>, texts: LangTexts): string {
  let out = ''
  let n = 0 // the sections' element ids: a group's id may hold what an id attribute may not
  for (const [id, group] of Object.entries(location.tags)) {
    if (hidden.has(id) || group.items.length === 0) continue
    const items = group.items.map((t) => `<li>${esc(t.label)}</li>`).join('')
    const heading = shownGroupName(id, group.name, texts.other)
    out += `<section aria-labelledby="slp-tags-${++n}"><h2 id="slp-tags-${n}">${esc(heading)}</h2><ul class="slp-list">${items}</ul></section>\n`
  }
  return out
}

/** A custom field's value as its type shows it: links for URLs, emails and phones, a button's label as its link. */
function fieldValue(f: Record<string, string>): string {
  const value = f.value ?? ''
  if (f.type === 'url') return webLink(value, value)
  if (f.type === 'button') return webLink(value, f.label || f.name || value)
  if (f.type === 'email') return `<a href="${esc(mailtoUrl(value))}">${esc(value)}</a>`
  if (f.type === 'phone') return phoneLink(value)
  return esc(value)
}

/** Every custom field but badges (shown under the name), as a list of names and values. */
function customFieldsHtml(location: PublicLocation, texts: LangTexts): string {
  const fields = location.customFields.filter((f) => f.type !== 'badge')
  if (fields.length === 0) return ''
  const items = fields.map((f) => `<dt>${esc(f.name ?? '')}</dt><dd>${fieldValue(f)}</dd>`)
  return `<section aria-labelledby="slp-details"><h2 id="slp-details">${esc(texts.details)}</h2>
<dl class="slp-fields">${items.join('')}</dl></section>
`
}
