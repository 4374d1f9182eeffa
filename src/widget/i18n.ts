// t() and its kin: the texts of texts.ts filled in, their counts and numbers written as each
// language writes them.
import { type Lang, langOf, regionOf } from '../core/languages'
import { LANGUAGES, type Texts } from './texts'

export type { Texts } from './texts'

/** The language asked for (its first two letters), else English; and its texts. */
export function textsFor(asked: string): { lang: Lang; texts: Texts; placeLang: string } {
  const lang = langOf(asked) ?? 'en'
  // The place search's lang carries the visitor's country, whose places it lifts: the tag's
  // region ("en-GB"), else the browser's when the browser speaks the widget's language.
  const browser = typeof navigator === 'undefined' ? '' : navigator.language
  const region = regionOf(asked) ?? (langOf(browser) === lang ? regionOf(browser) : null)
  return { lang, texts: LANGUAGES[lang], placeLang: region === null ? lang : `${lang}-${region}` }
}

type Key = keyof Texts
type Values = Record<string, string | number>

/** A text with its values filled in; a count (`n`) picks the one or other form, as its language counts. */
export const t = (texts: Texts, key: Key, values: Values = {}): string => fill(texts, key, values, ['', ''])

/** A place's sentence (foundNear...) said of the visitor's own position, as nearYou writes it. */
export const tNearYou = (texts: Texts, key: Key, values: Values): string => fill(texts, key, values, texts.nearYou)

/** `key`'s text, its `at` written as `said` (none when empty), its values filled in. */
function fill(texts: Texts, key: Key, values: Values, [at, said]: string[]): string {
  const entry = texts[key]
  const picked: string = typeof entry === 'string' ? entry : isOne(texts, values.n) ? entry[0]! : entry[1]!
  const text = at ? picked.replace(at, said!) : picked
  const shown = (v: string | number) => (typeof v === 'number' ? numbersOf(texts).format(v) : v)
  const filled = text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? shown(values[name]!) : whole))
  return texts === LANGUAGES.fr ? frenchDe(filled) : filled
}

/** French "de" before a name: elided before its vowel ("d’Inverness"), joined to its article ("du Havre"). */
const frenchDe = (text: string): string =>
  text.replace(/\bde (?:(Les? )|(?=[AEIOUÀÂÉÈÊÎÏÔŒ]))/g, (_, article?: string) =>
    article === undefined ? 'd’' : article === 'Le ' ? 'du ' : 'des ',
  )

/** The language whose texts these are. */
const langOfTexts = (texts: Texts): Lang =>
  (Object.keys(LANGUAGES) as Lang[]).find((l) => LANGUAGES[l] === texts) ?? 'en'

/** Whether a count takes the one form: 1, and in French 0 too ("0 suggestion"); made once a language. */
const plurals = new Map<Texts, Intl.PluralRules>()
function isOne(texts: Texts, n: string | number | undefined): boolean {
  if (typeof n !== 'number') return false
  let rules = plurals.get(texts)
  if (rules === undefined) plurals.set(texts, (rules = new Intl.PluralRules(langOfTexts(texts))))
  return rules.select(n) === 'one'
}

/** Numbers as each language's texts write them ("5,930", "5.930", "5 930"); made once. */
const numberFormats = new Map<Texts, Intl.NumberFormat>()
function numbersOf(texts: Texts): Intl.NumberFormat {
  let format = numberFormats.get(texts)
  if (format === undefined) {
    format = new Intl.NumberFormat(langOfTexts(texts))
    numberFormats.set(texts, format)
  }
  return format
}
