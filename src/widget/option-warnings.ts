// What the page's developer is told, in the console, of options the widget cannot use: a name it
// does not know (the one meant, when close), a value it does not take. It goes on with its default.
import { LANGS, langOf } from '../core/languages'
import { withinEdits } from '../core/text'
import type { FilterGroup } from './api'
import {
  OPTION_ATTRIBUTES as ATTRIBUTES,
  DIRECTIONS,
  HEADING_LEVELS,
  OPTION_NAMES as NAMES,
  OFF_WORDS,
  type Options,
  SWITCHES,
  UNITS,
} from './options'

/** Said once a page: a finder mounted again, or a second one alike, repeats nothing. */
const said = new Set<string>()
function warn(message: string): void {
  if (said.has(message)) return
  said.add(message)
  console.warn(`storeloc: ${message}`)
}

/** The known name `name` is a slip of: a letter or two off, or one word that begins with it (language: lang). */
function meant(name: string, known: string[]): string | null {
  const bare = (n: string) => n.replace(/^data-/, '').toLowerCase()
  const word = bare(name)
  for (const k of known) {
    const other = bare(k)
    if (withinEdits(word, other, other.length > 4 ? 2 : 1)) return k
    if (other.length >= 4 && !word.includes('-') && word.startsWith(other)) return k
  }
  return null
}

const or = (words: readonly unknown[]) =>
  words.length < 2 ? words[0] || 'none' : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`

const BOOLEAN_WORDS = ['', 'on', 'true', '1', 'yes', ...OFF_WORDS]

/** What's wrong with `value`, the option `name`'s: what it takes and what is used instead; null when it is fine. */
function badValue(name: keyof Options, value: unknown, fromAttribute: boolean): string | null {
  const one = (allowed: readonly unknown[], otherwise: string) =>
    allowed.some((a) => String(a) === String(value)) ? null : `it takes ${or(allowed)}; ${otherwise}`
  if (name === 'unit') return one(UNITS, "the locator's unit is used.")
  if (name === 'directions') return one(DIRECTIONS, 'google is used.')
  if (name === 'headingLevel') return one(HEADING_LEVELS, '3 is used.')
  // As textsFor reads it: by its first two letters, so de-AT is German.
  if (name === 'lang') return langOf(String(value)) ? null : `it takes ${or([...LANGS])}; English is used.`
  const number = Number(value)
  if (name === 'radius')
    return value !== '' && number > 0 && Number.isFinite(number)
      ? null
      : "it takes a distance above 0; the locator's default is used."
  if (name === 'limit') return number >= 1 && number <= 100 ? null : 'it takes 1 to 100; 10 is used (100 above it).'
  if (!(name in SWITCHES)) return null
  if (fromAttribute)
    return BOOLEAN_WORDS.includes(String(value).trim().toLowerCase()) ? null : 'it takes on or off; on is used.'
  return typeof value === 'boolean' ? null : 'it takes true or false.'
}

const shown = (value: unknown) => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value))

/**
 * Warns of `given`'s options (Storeloc.mount's) and `el`'s data attributes that the widget cannot
 * use. Only attributes close to one of its own are named: the others are the page's.
 */
export function warnOfOptions(el: HTMLElement, given: object): void {
  for (const [key, value] of Object.entries(given)) {
    if (value == null) continue
    if (!NAMES.includes(key as keyof Options)) {
      const close = meant(key, NAMES)
      const hint = close ? `: did you mean ${close}?` : '.'
      warn(`Storeloc.mount has no option ${key} (given ${shown(value)})${hint} It is ignored.`)
    } else {
      const wrong = badValue(key as keyof Options, value, false)
      if (wrong) warn(`${key} is ${shown(value)}: ${wrong}`)
    }
  }
  for (const attr of el.getAttributeNames()) {
    if (!attr.startsWith('data-')) continue
    const value = el.getAttribute(attr) ?? ''
    const index = ATTRIBUTES.indexOf(attr)
    if (index === -1) {
      const close = meant(attr, ATTRIBUTES)
      if (close) warn(`${attr}="${value}" is no option: did you mean ${close}? It is ignored.`)
    } else if (!(NAMES[index]! in given)) {
      const wrong = badValue(NAMES[index]!, value, true)
      if (wrong) warn(`${attr} is "${value}": ${wrong}`)
    }
  }
}

/** Warns of the filter groups data-filters (or filters) names that the locator has not. */
export function warnOfGroups(groups: FilterGroup[], wanted: Options['filters']): void {
  if (!Array.isArray(wanted)) return
  // A hidden group is one all the same; the groups named to the developer are those a visitor sees.
  const ids = groups.map((g) => g.id)
  const shown = groups.filter((g) => !g.hidden).map((g) => g.id)
  for (const id of wanted) {
    if (ids.includes(id)) continue
    const close = meant(id, shown)
    const hint = close ? ` Did you mean "${close}"?` : ''
    warn(`data-filters (filters) names "${id}", no filter group of this locator: it has ${or(shown)}.${hint}`)
  }
}
