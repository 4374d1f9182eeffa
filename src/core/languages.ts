// The languages the service's visitor-facing texts ship in: the widget's and the store pages'.
// Each of those keeps a record keyed by Lang, so a language added here must be given both.

/** English first: the default. */
export const LANGS = ['en', 'de', 'fr', 'es', 'it', 'nl'] as const
export type Lang = (typeof LANGS)[number]

/** The language a text names by its first two letters, any case ("de-AT" -> "de"); null for none shipped. */
export function langOf(text: string | null | undefined): Lang | null {
  const code = text?.slice(0, 2).toLowerCase()
  return LANGS.find((l) => l === code) ?? null
}

/**
 * The region a language tag names, in capitals ("en-GB" -> "GB", "zh-Hant-TW" -> "TW"); null for
 * none, or one in digits ("es-419": Latin America).
 */
export function regionOf(text: string | null | undefined): string | null {
  const found = /^[a-z]{2,3}(?:[-_][a-z]{4})?[-_]([a-z]{2})(?:[-_]|$)/i.exec(text ?? '')
  return found === null ? null : found[1]!.toUpperCase()
}

/** The language of a locator's own pages when their link names none: its setting (null: none), else English. */
export const homeLang = (locator: { language: Lang | null }): Lang => locator.language ?? 'en'

/**
 * The query string that asks a locator's page for `lang`: none for `home`, the language its pages
 * are in when a link asks for none (the locator's, else English).
 */
export const langQuery = (lang: Lang, home: Lang): string => (lang === home ? '' : `?lang=${lang}`)

/** "label: text" as `lang` writes it: French puts a no-break space before the colon ("Téléphone : ..."). */
export const labelled = (lang: string, label: string, text: string): string =>
  `${label}${lang === 'fr' ? '\u00a0:' : ':'} ${text}`
