// A widget's options: from Storeloc.mount's argument, else from its element's data attributes.

import type { DirectionsService } from '../core/directions'
import { KM_PER_MILE } from '../core/limits'

export type Options = {
  /** The locator's public token (pk_...). */
  token: string
  /** The service's address, such as https://stores.example.com: where widget.js came from unless set. */
  api: string
  /** One of core/languages.ts's (en, de, fr, es, it, nl); else the page's language, else the browser's. */
  lang: string
  /** null: the locator's default unit. */
  unit: 'km' | 'miles' | null
  /** The search radius first chosen; null: the locator's default. */
  radius: number | null
  /** A place searched at once, as a visitor would type it. */
  place: string | null
  /** The filter groups shown: all of them, none, or these ids. */
  filters: 'all' | 'none' | string[]
  /** Whether the map is drawn. */
  map: boolean
  /** A tile URL template ({z}/{x}/{y}); null: the country shapes served with the widget. */
  tiles: string | null
  tilesAttribution: string
  directions: DirectionsService
  /** Stores a page. */
  limit: number
  /** Whether the "open now" switch is shown. */
  openNow: boolean
  /** Whether the search is kept in the page's URL. */
  urlState: boolean
  /** Whether each store links to its page on the service (/l/{token}/{id}). */
  storePages: boolean
  /** The level of each store's heading (h2 to h6): one below the page's heading above the widget. */
  headingLevel: 2 | 3 | 4 | 5 | 6
  /** This finder's name for screen readers (its search and its list); null: the widget's own words. */
  label: string | null
}

/**
 * Every option's name in Storeloc.mount (the type holds it to Options); its data attribute is the
 * name in kebab-case, token's data-storeloc.
 */
const KNOWN: Record<keyof Options, true> = {
  token: true,
  api: true,
  lang: true,
  unit: true,
  radius: true,
  place: true,
  filters: true,
  map: true,
  tiles: true,
  tilesAttribution: true,
  directions: true,
  limit: true,
  openNow: true,
  urlState: true,
  storePages: true,
  headingLevel: true,
  label: true,
}
export const OPTION_NAMES = Object.keys(KNOWN) as (keyof Options)[]

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
/** Each option's data attribute, in OPTION_NAMES' order. */
export const OPTION_ATTRIBUTES = OPTION_NAMES.map((name) =>
  name === 'token' ? 'data-storeloc' : `data-${kebab(name)}`,
)

/** The words unit takes; any other leaves the locator's. */
export const UNITS = ['km', 'miles'] as const
/** The maps services directions takes; any other is google. */
export const DIRECTIONS: readonly DirectionsService[] = ['google', 'apple', 'osm']
/** The levels headingLevel takes; any other is 3 (the finder page's: its h1, a hidden h2, then the stores). */
export const HEADING_LEVELS = [2, 3, 4, 5, 6] as const
/** The options that are on or off, each with its default. */
export const SWITCHES = { map: true, openNow: true, urlState: true, storePages: false }
/** The words that turn a switch's data attribute off; any other turns it on. */
export const OFF_WORDS = ['off', 'false', '0', 'no']

const RADII = [5, 10, 25, 50, 100]

/** A radius as the widget offers it: one of more than one decimal (a locator's 25 miles as 40.23 km) made whole. */
export const offeredRadius = (r: number): number =>
  Math.abs(r * 10 - Math.round(r * 10)) < 1e-6 ? r : Math.max(1, Math.round(r))

/** A radius in `from` as one in `unit`, as offered. */
export const radiusIn = (radius: number, from: 'km' | 'miles', unit: 'km' | 'miles'): number =>
  offeredRadius(from === unit ? radius : from === 'miles' ? radius * KM_PER_MILE : radius / KM_PER_MILE)

/** The radii offered, with the chosen one among them. */
export const radiiWith = (radius: number | null): number[] =>
  radius === null || RADII.includes(radius) ? RADII : [...RADII, radius].sort((a, b) => a - b)

const on = (value: string | undefined, otherwise: boolean) =>
  value === undefined ? otherwise : !OFF_WORDS.includes(value.trim().toLowerCase())

/** The one of `words` that `value` is, if any. */
const choice = <T>(words: readonly T[], value: unknown): T | undefined => words.find((w) => w === value)

const positive = (value: string | number | undefined | null): number | null => {
  // Nothing, null and '' are 0 or NaN as numbers: none above 0.
  const n = Number(value)
  return Number.isFinite(n) && n > 0 ? n : null
}

/** The language of the page at `el`: the nearest lang, else the browser's. */
export const pageLang = (el: HTMLElement): string =>
  el.closest('[lang]')?.getAttribute('lang') || navigator.language || 'en'

/** The options an element's data attributes give, over those passed, over the defaults. */
export function optionsOf(el: HTMLElement, given: Partial<Options>, scriptBase: string): Options {
  const d = el.dataset
  const unit = given.unit ?? d.unit
  const filters = given.filters ?? d.filters
  const directions = given.directions ?? d.directions
  const lang = given.lang ?? d.lang ?? pageLang(el)
  return {
    token: given.token ?? d.storeloc ?? '',
    api: (given.api ?? d.api ?? scriptBase).replace(/\/+$/, ''),
    lang,
    unit: choice(UNITS, unit) ?? null,
    radius: positive(given.radius ?? d.radius),
    place: given.place ?? d.place ?? null,
    filters: Array.isArray(filters)
      ? filters
      : filters === undefined || filters === 'all'
        ? 'all'
        : filters === 'none'
          ? 'none'
          : filters
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
    map: given.map ?? on(d.map, SWITCHES.map),
    tiles: given.tiles ?? d.tiles ?? null,
    tilesAttribution: given.tilesAttribution ?? d.tilesAttribution ?? '',
    directions: choice(DIRECTIONS, directions) ?? 'google',
    limit: Math.min(100, Math.floor(positive(given.limit ?? d.limit) ?? 10)),
    openNow: given.openNow ?? on(d.openNow, SWITCHES.openNow),
    urlState: given.urlState ?? on(d.urlState, SWITCHES.urlState),
    storePages: given.storePages ?? on(d.storePages, SWITCHES.storePages),
    headingLevel: choice(HEADING_LEVELS, Number(given.headingLevel ?? d.headingLevel)) ?? 3,
    label: (given.label ?? d.label)?.trim() || null,
  }
}
