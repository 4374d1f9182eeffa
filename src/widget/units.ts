// The unit a finder measures in: the page's (data-unit) or its address's, else the locator's from
// GET /filters. While that fails, the one the page's language implies, said and sent with each
// search so the radii shown are the ones searched, until the locator's comes and takes its place.
import { regionOf } from '../core/languages'
import type { Area } from './answered-place'
import { radiusIn } from './options'
import type { SearchState } from './url-state'

type Unit = 'km' | 'miles'

/** The regions whose road distances are in miles. */
const MILES = ['US', 'GB', 'LR', 'MM']

/**
 * The unit the language tag `asked` implies: by its region, else the browser's when it speaks that
 * language ("en" in an "en-GB" browser); with none, miles in English (the Query API's own), else km.
 */
export function unitOfLang(asked: string, browser: string): Unit {
  const language = primary(asked)
  const region = regionOf(asked) ?? (primary(browser) === language ? regionOf(browser) : null)
  if (region !== null) return MILES.includes(region) ? 'miles' : 'km'
  return language === 'en' ? 'miles' : 'km'
}

const primary = (tag: string) => tag.split(/[-_]/)[0]!.toLowerCase()

/** `state`, and `area` searched, measured in `unit` from now on: their radii converted, as offered. */
export function measureIn(state: SearchState, area: Area | null, unit: Unit): void {
  const from = state.unit
  state.unit = unit
  if (from === null || from === unit) return
  const inUnit = (r: number | null) => (r === null ? null : radiusIn(r, from, unit))
  state.radius = inUnit(state.radius)
  if (area !== null) [area.radius, area.before] = [radiusIn(area.radius, from, unit), inUnit(area.before)]
}
