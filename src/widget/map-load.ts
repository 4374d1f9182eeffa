// The map's files, loaded from the service when a finder first draws a map, once a page: Leaflet,
// its stylesheet and map.js (map-code.ts), the widget's map code. A finder without a map loads none.
import type * as Leaflet from 'leaflet'
import { ApiError, queryWhenReady } from './api'
import { type Texts, t } from './i18n'
import type { drawMap, StoreMap } from './map'
import type { mapPress, Pressing } from './map-press'
import type { Options } from './options'

type L = typeof Leaflet

/** map.js's version, set as widget.js is built (assets.ts): widget.js runs only the map.js built with it. */
declare const MAP_VERSION: string
const MAP_JS = `map.js?v=${MAP_VERSION}`

/** What map.js (map-code.ts) leaves on the element of the script that ran it. */
type MapCode = { drawMap: typeof drawMap; mapPress: typeof mapPress }
export type MapScript = HTMLScriptElement & { storeloc?: MapCode }

/** A script of the service's /widget/ added to the page: its element once it has run. */
const run = (api: string, file: string) =>
  new Promise<MapScript>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = `${api}/widget/${file}`
    script.async = true
    script.onload = () => resolve(script)
    script.onerror = reject
    document.head.append(script)
  })

let leaflet: Promise<L> | null = null

/**
 * Leaflet's script and stylesheet from the service, once a page. The widget keeps its own copy, the
 * version it is built for, even beside a page's Leaflet; the globals the script sets (L, leaflet)
 * are put back as the page had them.
 */
function loadLeaflet(api: string): Promise<L> {
  if (leaflet) return leaflet
  const page = window as unknown as Record<'L' | 'leaflet', unknown>
  const had = { L: 'L' in page, leaflet: 'leaflet' in page, leafletValue: page.leaflet }
  const css = document.createElement('link')
  css.rel = 'stylesheet'
  css.href = `${api}/widget/leaflet.css`
  // Leaflet's controls drawn before its stylesheet applies would jump into place as it does.
  const styled = new Promise((done) => {
    css.onload = css.onerror = done
  })
  document.head.append(css)
  leaflet = run(api, 'leaflet.js').then(
    async () => {
      const own = (page.L as L).noConflict() as unknown as L
      if (!had.L) delete page.L
      if (had.leaflet) page.leaflet = had.leafletValue
      else delete page.leaflet
      await styled
      return own
    },
    () => {
      leaflet = null
      throw new Error('The map library could not be loaded.')
    },
  )
  return leaflet
}

let code: Promise<MapCode> | null = null

/** map.js, once a page: it leaves its functions on its script element. */
function loadCode(api: string): Promise<MapCode> {
  code ??= run(api, MAP_JS).then(
    (script) => script.storeloc!,
    () => {
      code = null
      throw new Error('The map could not be loaded.')
    },
  )
  return code
}

/**
 * The map's files fetched now but run later: the widget starts its map once the first results are
 * drawn, so Leaflet's start (a tenth of a second of the page's one thread) does not delay them.
 */
export function preloadMap(api: string): void {
  if (leaflet) return
  for (const [file, as] of [
    ['leaflet.js', 'script'],
    [MAP_JS, 'script'],
    ['leaflet.css', 'style'],
  ]) {
    const link = document.createElement('link')
    link.rel = 'preload'
    link.as = as!
    link.href = `${api}/widget/${file}`
    document.head.append(link)
  }
}

/** The finder's map in `el`, once Leaflet and map.js have loaded; `pressing`: what a press on its stores does. */
export async function storeMap(
  el: HTMLElement,
  options: Options,
  texts: Texts,
  lang: string,
  onSelect: (id: string) => void,
  pressing: Pressing,
): Promise<StoreMap> {
  const [L, { drawMap, mapPress }] = await Promise.all([loadLeaflet(options.api), loadCode(options.api)])
  const found = (n: number) => t(texts, 'found', { n })
  return drawMap(L, el, options, texts, lang, found, onSelect, mapPress(pressing, { queryWhenReady, ApiError }))
}
