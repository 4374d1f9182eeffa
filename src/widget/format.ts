// What a store's numbers and times read as, in the visitor's language and the store's time zone.
import { dateFormat, timeLocale, unbroken } from '../core/hours-text'
import type { Location } from './api'
import { t, type Texts, tNearYou } from './i18n'

/**
 * Loads the browser's date data while the first answer is on its way: the first date format a
 * page makes takes a tenth of a second or more, which would otherwise delay the first list.
 */
export const warmFormats = (lang: string) => dateFormat(lang, 'UTC', 'time').format(0)

const numbers = new Map<string, Intl.NumberFormat>()

/**
 * A distance as "1.2 km", "0.8 mi", "25 Meilen": a tenth below 10, whole above, a no-break space
 * before the unit (Intl's narrow one in French). Other languages have no sign for miles: they say
 * the word, as Intl writes it. Its formats are kept as the dates' are.
 */
export function distanceText(lang: string, value: number, unit: 'km' | 'miles'): string {
  const digits = value < 10 ? 1 : 0
  const key = `${lang} ${digits} ${unit}`
  let f = numbers.get(key)
  if (!f) {
    f = new Intl.NumberFormat(lang, {
      style: 'unit',
      unit: unit === 'km' ? 'kilometer' : 'mile',
      unitDisplay: unit === 'km' || lang.startsWith('en') ? 'short' : 'long',
      maximumFractionDigits: digits,
    })
    numbers.set(key, f)
  }
  return f.format(value).replace(/ /g, '\u00a0')
}

/**
 * "Open now · closes at 18:00", "Closed · opens tomorrow at 9:00", "Closed · opens Monday at
 * 9:00" (closes too), or null when the hours do not say; its time as the store's country writes times in the
 * language (timeLocale), as its hours are; its day by the store's own calendar.
 */
export function openText(texts: Texts, lang: string, location: Location, at = new Date()): string | null {
  if (location.open_now === null) return null
  const state = location.open_now ? texts.open : texts.closed
  if (!location.next_change) return state
  const next = new Date(location.next_change)
  const zone = location.timezone
  let time: string
  let hour: number
  let days: number
  let day: string
  try {
    const parts = dateFormat(timeLocale(lang, location.address.country), zone, 'time').formatToParts(next)
    time = unbroken(parts.map((p) => p.value).join(''))
    hour = Number(parts.find((p) => p.type === 'hour')?.value)
    // Days from the store's date to the change's ("2026-06-15", as en-CA writes dates).
    const date = dateFormat('en-CA', zone, 'date')
    days = (Date.parse(date.format(next)) - Date.parse(date.format(at))) / 86_400_000
    day = dateFormat(lang, zone, 'weekday').format(next)
  } catch {
    return state
  }
  // A closing past midnight is the night's ("closes at 2:00"); a day or more ahead, its day is said.
  const night = location.open_now && days === 1 && next.getTime() - at.getTime() <= 12 * 3_600_000
  const when = days === 0 || night ? 'At' : days === 1 ? 'Tomorrow' : 'On'
  // The hour as shown picks the article where the language's agrees with it ("a la 1:00").
  const change = t(texts, `${location.open_now ? 'closes' : 'opens'}${when}`, { day, time, n: hour })
  return `${state} · ${change}`
}

/** Only http(s), tel: and mailto: links are written; anything else (javascript:) is dropped. */
export const safeUrl = (url: string | undefined): string | null =>
  url && /^(https?:|tel:|mailto:)/i.test(url.trim()) ? url.trim() : null

// What the status line reads of the search (url-state.ts SearchState), declared here: these texts
// need no DOM, and Bun's tests call them as they are.
type Searched = {
  origin: { kind: 'place'; label: string } | { kind: 'near'; text: string } | { kind: 'geo' } | null
  radius: number | null
  openNow: boolean
  unit: 'km' | 'miles' | null
}

/** The status line after a search: how many stores were found, within what distance of where. */
export function countText(s: {
  texts: Texts
  lang: string
  total: number
  center: { label?: string } | null
  state: Searched
  /** None within the radius, and the nearest beyond it listed (beyond.ts). */
  nearest?: boolean
}): string {
  const { texts, total, center, state } = s
  const { unit } = state
  if (center === null || !unit) return total === 0 ? texts.none : t(texts, 'found', { n: total })
  const o = state.origin
  const r = distanceText(s.lang, state.radius ?? 0, unit)
  if (o?.kind === 'geo') {
    if (total > 0) return tNearYou(texts, 'foundNear', { n: total, r })
    return tNearYou(texts, s.nearest ? 'nearestNear' : state.openNow ? 'noneOpenNear' : 'noneNear', { r })
  }
  const place = o?.kind === 'place' ? o.label : (center.label ?? o?.text ?? '')
  const values = { n: total, r, place }
  if (total > 0) return t(texts, 'foundNear', values)
  return t(texts, s.nearest ? 'nearestNear' : state.openNow ? 'noneOpenNear' : 'noneNear', values)
}
