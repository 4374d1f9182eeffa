// The languages of a page of the service's own (finder page, store pages, the directory): the
// hreflang links search engines read, and the links a visitor follows to read it in another.
import { homeLang, type Lang, LANGS } from '../../core/languages'
import type { Locator } from '../../store/locators'
import { escapeHtml as esc } from './html'
import { type LangTexts, pageLang } from './page-texts'

/** Each language by its own name, as a visitor looks for it. */
const NAMES: Record<Lang, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  nl: 'Nederlands',
}

/**
 * Open Graph's locale, language_TERRITORY, as Facebook reads it: one of its own locales, as it
 * refuses any other ("de_AT", "fr_DE", "en_CH") as no value of its list. The page's language in
 * the page's country where that is one ("en_GB", "fr_CA", "nl_BE"); English, which Facebook knows
 * only as en_US and en_GB, as the country writes it (BRITISH_ENGLISH); else the language's own
 * country ("de_DE").
 */
export function ogLocale(lang: Lang, country: string | null | undefined): string {
  const known = OG_LOCALES[lang]
  const territory = country?.toUpperCase()
  if (territory === undefined) return `${lang}_${known[0]}`
  if (known.includes(territory)) return `${lang}_${territory}`
  return `${lang}_${lang === 'en' && BRITISH_ENGLISH.has(territory) ? 'GB' : known[0]}`
}

/** Facebook's locales of each language the pages ship, the language's own country first. */
const OG_LOCALES: Record<Lang, readonly string[]> = {
  en: ['US', 'GB'],
  de: ['DE'],
  fr: ['FR', 'CA'],
  es: ['ES', 'MX'],
  it: ['IT'],
  nl: ['NL', 'BE'],
}

/**
 * The countries whose English is written as Britain's: Europe's, and those CLDR writes in
 * international English (en_001: "colour", day before month); elsewhere American English, as
 * CLDR's English in the US, its territories and the Philippines, and its fallback for the rest.
 */
const BRITISH_ENGLISH = new Set(
  (
    'AD AL AT BA BE BG BY CH CY CZ DE DK EE ES FI FO FR GB GG GI GR HR HU IE IM IS IT JE LI LT LU LV MC MD ME ' +
    'MK MT NL NO PL PT RO RS SE SI SK SM UA VA XK ' +
    'AE AG AI AU BB BD BM BS BW BZ CA CC CK CM CX DG DM ER FJ FK FM GD GE GH GM GS GY HK ID IL IN IO JM ' +
    'KE KI KN KY LC LK LR LS MG MO MS MU MV MW MY NA NF NG NR NU NZ PG PK PN PW RW SB SC SD SG SH SL SS ' +
    'SX SZ TC TK TO TT TV TZ UG VC VG VU WS ZA ZM ZW'
  ).split(' '),
)

/** The language of one of a locator's pages: the one its link asks for (?lang=), else homeLang. */
export const langOfPage = (url: URL, locator: Locator): Lang => pageLang(url) ?? homeLang(locator)

/**
 * The page in each language, and the one in `home` (its URL without ?lang=) as the one for any
 * other (x-default): for the head.
 */
export function alternates(pageUrl: (lang: Lang) => string, home: Lang): string {
  const links = LANGS.map((l) => `<link rel="alternate" hreflang="${l}" href="${esc(pageUrl(l))}">`)
  return [...links, `<link rel="alternate" hreflang="x-default" href="${esc(pageUrl(home))}">`].join('\n')
}

/** The page in each other language as a link, named in that language; the page's own marked as it. */
export function languageLinks(pageUrl: (lang: Lang) => string, texts: LangTexts): string {
  const { lang } = texts
  const items = LANGS.map((l) =>
    l === lang
      ? `<li><span aria-current="page">${NAMES[l]}</span></li>`
      : `<li><a href="${esc(pageUrl(l))}" hreflang="${l}" lang="${l}">${NAMES[l]}</a></li>`,
  )
  return `<footer class="slp-foot"><nav class="slp-langs" aria-label="${esc(texts.languages)}"><ul>${items.join('')}</ul></nav></footer>`
}

/** The links' style: on a line, apart, under the page. */
export const LANGUAGES_STYLE =
  '.slp-foot{max-width:48rem;margin:0 auto;padding:1rem}.slp-langs ul{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:.75rem}'
