// The trail from the store directory down to one of its pages or a store's page: as links (a
// breadcrumb nav) and as schema.org BreadcrumbList JSON-LD, which search engines show for a page.
import type { BreadcrumbList, WithContext } from 'schema-dts'
import { countryLabel } from '../../geocode/countries'
import { directoryUrl } from './deps'
import { type Directory, OTHER, countrySlug, townOf, townSlug } from './directory'
import { escapeHtml as esc } from './html'
import type { LangTexts } from './page-texts'

/** A step of the trail: the page's name and its URL; the last step is the page itself. */
export type Crumb = { name: string; url: string }

/** A country's name in the page's language: "Other places" for OTHER. */
export const countryName = (code: string | null, texts: LangTexts): string =>
  code === null ? texts.otherPlaces : countryLabel(code, texts.lang)

/** A town's name as its stores' addresses write it: "Other places" for OTHER. */
export const townName = (name: string | null, texts: LangTexts): string => name ?? texts.otherPlaces

/** Where a page's links go: the base and token of directoryUrl, and the query each carries (its language). */
export type Links = { base: string; token: string; query: string }

/**
 * The trail to a place of the directory: the directory, the country (unless the directory lists
 * its towns at the top, as the only one), the town. `country` and `town` by slug and name. The
 * other places of no country are one step, not "Other places › Other places".
 */
export function placeCrumbs(
  dir: Directory,
  links: Links,
  texts: LangTexts,
  country?: { slug: string; code: string | null },
  town?: { slug: string; name: string | null },
): Crumb[] {
  const url = (...slugs: string[]) => directoryUrl(links.base, links.token, ...slugs) + links.query
  const crumbs = [{ name: texts.directory, url: url() }]
  if (country === undefined) return crumbs
  const alone = dir.single?.slug === country.slug || (country.code === null && town?.slug === OTHER)
  if (!alone) crumbs.push({ name: countryName(country.code, texts), url: url(country.slug) })
  if (town !== undefined) crumbs.push({ name: townName(town.name, texts), url: url(country.slug, town.slug) })
  return crumbs
}

/**
 * The trail to a store's page: its town's (as the directory names it; by its address when the
 * directory does not hold it yet), then the store, `url` its page's canonical URL.
 */
export function storeCrumbs(
  dir: Directory,
  links: Links,
  texts: LangTexts,
  address: { city?: string; region?: string; country?: string },
  store: Crumb,
): Crumb[] {
  const found = townOf(dir, address)
  if (found !== undefined) return [...placeCrumbs(dir, links, texts, found.country, found.town), store]
  const slug = countrySlug(address.country)
  const country = { slug, code: slug === OTHER ? null : slug.toUpperCase() }
  const town = townSlug(address.city, country.code)
  return [
    ...placeCrumbs(dir, links, texts, country, { slug: town, name: town === OTHER ? null : address.city! }),
    store,
  ]
}

/** The trail as a nav of links, the last step the page itself (not a link). */
export function crumbsHtml(crumbs: Crumb[], texts: LangTexts): string {
  const items = crumbs.map((c, i) =>
    i === crumbs.length - 1
      ? `<li><span aria-current="page">${esc(c.name)}</span></li>`
      : `<li><a href="${esc(c.url)}">${esc(c.name)}</a></li>`,
  )
  return `<nav class="slp-crumbs" aria-label="${esc(texts.breadcrumb)}"><ol>${items.join('')}</ol></nav>`
}

/** The trail as schema.org BreadcrumbList, each step with its position, name and URL. */
export const breadcrumbJsonLd = (crumbs: Crumb[]): WithContext<BreadcrumbList> => ({
  '@context': 'https://schema.org',
  '@type': 'BreadcrumbList',
  itemListElement: crumbs.map((c, i) => ({ '@type': 'ListItem', position: i + 1, name: c.name, item: c.url })),
})

/**
 * The breadcrumb's style: the steps on a line, "›" between them. The "›" is drawn, not read (its
 * alternative text is none); a browser without that syntax keeps the first content.
 */
export const CRUMBS_STYLE =
  '.slp-crumbs ol{list-style:none;padding:0;margin:0 0 1rem;display:flex;flex-wrap:wrap;gap:.25rem}' +
  '.slp-crumbs li+li::before{content:"›";content:"›"/"";margin-right:.25rem;color:var(--sl-muted,#57606a)}'
