// The map, drawn with Leaflet once map-load.ts has loaded it: part of map.js, not widget.js. Tiles
// come only from a configured URL; without one (or when its tiles fail) the country shapes served
// with the widget are the basemap, so the map works with no other server reachable.
import type * as Leaflet from 'leaflet'
import type { Location } from './api'
import { type Cluster, type ClustersAnswer, clusterLayer, countTexts, type Single, viewOf } from './clusters'
import type { Texts } from './i18n'
import type { Options } from './options'

type Point = { lat: number; lng: number }

export type StoreMap = {
  show: (locations: Location[], center: Point | null, fit: boolean) => void
  select: (id: string | null) => void
  /**
   * The stores of the map's view, clustered (before a search) at `zoom` (GET /clusters's), the map
   * fitted to them; `clear` takes them off.
   */
  clusters: { show: (answer: ClustersAnswer, fit: boolean, zoom: number) => void; clear: () => void }
  /** The view as GET /clusters takes it. */
  view: () => { bbox: string; zoom: number }
  /** Its size taken again and its last fit made again, unless the visitor has moved it since. */
  refit: () => void
  /** Called after each move or zoom of the map. */
  onMoved: (listener: () => void) => void
  /** Zooms out one step; false when the map is as far out as it goes. */
  zoomOut: () => boolean
  /** Called when the visitor handles the map (a press, a wheel, a key), before it moves. */
  onTouched: (listener: () => void) => void
  destroy: () => void
}

/** A pin's size (widget.css): a fit keeps pins off the zoom buttons. */
const PIN_WIDTH = 28
const PIN_HEIGHT = 28
/**
 * A pin's z-index offset by its place in the list (0 first): a nearer store's pin stands over a
 * farther one's wherever they overlap (Leaflet otherwise puts the southern one on top). A step
 * outweighs any map's height in pixels; the store picked stands over all.
 */
const rankOffset = (index: number) => (10_000 - index) * 10_000
const SELECTED_OFFSET = 200_000_000

/** A town's zoom: the view of a fit whose points are all one (a single pin as well). */
const TOWN_ZOOM = 13

/**
 * The room fitBounds keeps around the stores, in px: above, a pin stands 28 px over its point and
 * keeps a few more; below, the scale, two lines high without a unit.
 */
const [FIT_TOP, FIT_SIDE, FIT_BOTTOM] = [44, 24, 44]

/** A CSS variable of the widget's, or `fallback`. */
const cssVar = (el: HTMLElement, name: string, fallback: string) =>
  getComputedStyle(el).getPropertyValue(name).trim() || fallback

/** The map over the whole world, its zoom floor kept as its width changes. */
function worldMap(L: typeof Leaflet, el: HTMLElement, still: boolean): Leaflet.Map {
  // The world is 512 px wide at zoom 1: a map narrower than that (a phone) may zoom out one more,
  // so that stores from California to New Zealand fit in it.
  const minZoom = () => (el.clientWidth < 512 ? 0 : 1)
  const map = L.map(el, {
    worldCopyJump: true,
    minZoom: minZoom(),
    zoomControl: false,
    zoomAnimation: !still,
    fadeAnimation: !still,
    markerZoomAnimation: !still,
    inertia: !still,
  }).setView([30, 10], 2)
  map.on('resize', () => map.setMinZoom(minZoom()))
  // Every pan then a jump: Leaflet glides its own (an arrow key's, a fit at the same zoom) unless told not to.
  if (still) {
    const panBy = map.panBy.bind(map)
    map.panBy = (offset, options) => panBy(offset, { ...options, animate: false })
  }
  return map
}

/** The pane of the country shapes and the search's centre (picturePane()). */
const PICTURE_PANE = 'sl-picture'

/**
 * A pane, and so an SVG, of its own for what the map draws with nothing to read, hidden from
 * screen readers, which have the list: within the overlays' (Leaflet's CSS keeps their SVGs
 * whole there), under the stores' dots.
 */
function picturePane(map: Leaflet.Map): void {
  const pane = map.createPane(PICTURE_PANE, map.getPane('overlayPane'))
  pane.style.zIndex = '-1'
  pane.setAttribute('aria-hidden', 'true')
}

/** The search's centre, as drawn. */
const HERE: Leaflet.CircleMarkerOptions = { radius: 7, className: 'sl-here', pane: PICTURE_PANE, interactive: false }

/**
 * Tiles from options.tiles; without them, or when they fail, the country shapes served with the
 * widget. Makes the pane they share with the search's centre.
 */
function addBasemap(L: typeof Leaflet, map: Leaflet.Map, el: HTMLElement, options: Options): void {
  picturePane(map)
  let basemap: Leaflet.GeoJSON | null = null
  const drawBasemap = async () => {
    if (basemap) return
    basemap = L.geoJSON(undefined, {
      pane: PICTURE_PANE,
      interactive: false,
      style: {
        color: cssVar(el, '--sl-border-line', '#8a9a8f'),
        weight: 0.6,
        fillColor: cssVar(el, '--sl-land', '#e4ebdf'),
        fillOpacity: 1,
      },
    }).addTo(map)
    const shapes = await fetch(`${options.api}/widget/countries.json`).then((r) => r.json())
    // Under the search's centre, which shares their SVG and may be drawn before they come.
    basemap.addData(shapes).bringToBack()
  }
  if (options.tiles) {
    const tiles = L.tileLayer(options.tiles, { attribution: options.tilesAttribution, maxZoom: 19 }).addTo(map)
    let loaded = false
    tiles.once('tileload', () => {
      loaded = true
    })
    tiles.once('tileerror', () => void drawBasemap().catch(() => {}))
    // A tile server that gives the first view no tile at all is dropped, and its credit with it:
    // the map is the country shapes alone.
    tiles.once('load', () => {
      if (!loaded) tiles.remove()
    })
  } else {
    el.classList.add('sl-no-tiles')
    void drawBasemap().catch(() => {})
  }
}

/** Zooms `map` out one step, unless it is as far out as it goes (false). */
function zoomOutOnce(map: Leaflet.Map): boolean {
  if (map.getZoom() <= map.getMinZoom()) return false
  map.zoomOut(1)
  return true
}

/** The scale's widest line, in px (Leaflet's own). */
const SCALE_WIDTH = 100

/** The zoom buttons (returned) and the scale. */
function addControls(L: typeof Leaflet, map: Leaflet.Map, texts: Texts, unit: Options['unit']): Leaflet.Control.Zoom {
  // Distances read off the map, in the widget's unit (both while it is not known): without tiles
  // the country shapes show nothing else at a town's zoom.
  const scale = L.control.scale({ metric: unit !== 'miles', imperial: unit !== 'km', maxWidth: SCALE_WIDTH })
  // As wide as it grows: the bubbles kept off it stay where they are as its lines change length.
  const box = scale.addTo(map).getContainer()!
  box.style.minWidth = `${SCALE_WIDTH}px`
  scaleOnCredit(map, box)
  return L.control.zoom({ zoomInTitle: texts.zoomIn, zoomOutTitle: texts.zoomOut }).addTo(map)
}

/**
 * widget.css wraps the credit right of the scale's box; a word wider than the room left there (a
 * narrow map, a page zoomed in) would push it over the scale. The credit then takes the map's
 * width, and the scale stands on it. Bubbles are placed again ('move') when the scale moves.
 */
function scaleOnCredit(map: Leaflet.Map, scale: HTMLElement): void {
  const credit = map.attributionControl.getContainer()!
  // Leaflet's corners: the scale's, bottom left; the credit's, bottom right.
  const [left, right] = [scale.parentElement!, credit.parentElement!]
  const stack = () => {
    // A map removed takes its corners off first: nothing to measure, no bubble to place.
    if (!credit.isConnected) return
    const was = left.style.bottom
    left.style.bottom = right.style.maxWidth = ''
    if (credit.offsetWidth > right.clientWidth) {
      right.style.maxWidth = 'none'
      left.style.bottom = `${credit.offsetHeight}px`
    }
    if (left.style.bottom !== was) map.fire('move')
  }
  // A layer with a credit only: each bubble and pin is a layer too. Its credit leaves on its
  // 'remove', after the map's 'layerremove'.
  map.on('resize', stack).on('layeradd', ({ layer }) => {
    if (!layer.getAttribution?.()) return
    stack()
    layer.once('remove', stack)
  })
  stack()
}

/**
 * The map's last fit is made again at each new size (the phone's switch to the map and back, the
 * phone turned; a fit made hidden, at 0 x 0, fits nothing), or when asked (`refit`: stores added
 * since it, a map shown at the same size), until the visitor handles the map: the view is theirs
 * then, and a new size keeps its centre. A press on a pin only picks its store. Hidden, the map
 * takes no size: at 0 x 0 a fit zooms in on one point, and before a search asks for its clusters.
 */
function keptFitted(map: Leaflet.Map, el: HTMLElement, afterZoom: (then: (() => void) | null) => void) {
  let fit: (() => void) | null = null
  const refit = () => {
    if (el.clientWidth === 0 || el.clientHeight === 0) return
    map.invalidateSize()
    if (fit) afterZoom(fit)
  }
  const observer = new ResizeObserver(refit)
  observer.observe(el)
  const handled = (e: Event) => {
    if (!(e.target as Element).closest?.('.sl-marker')) fit = null
  }
  for (const type of ['pointerdown', 'wheel', 'keydown']) el.addEventListener(type, handled, { passive: true })
  return { fitted: (then: () => void) => (fit = then), refit, observer }
}

/**
 * During a zoom animation Leaflet drops any other view asked for (1.9.4's _tryAnimatedZoom says it
 * took it), and its end reads the map's panes. The function returned runs `then` now, or at the end
 * of the zoom under way in place of any waiting: the last view asked for is made. Null forgets it.
 */
function afterZooming(map: Leaflet.Map): (then: (() => void) | null) => void {
  let zooming = false
  let waiting: (() => void) | null = null
  map.on('zoomanim', () => (zooming = true)).on('zoomend', () => (zooming = false))
  // Registered during the animation: it runs after the zoomend listeners of the map and its layers.
  const run = () => {
    const then = waiting
    waiting = null
    then?.()
  }
  return (then) => {
    if (zooming && then && waiting === null) map.once('zoomend', run)
    waiting = zooming ? then : null
    if (!zooming) then?.()
  }
}

/** Whether fitting `bounds` as fitPins first does would put a pin of `points` under the zoom buttons (`box`). */
function underButtons(
  L: typeof Leaflet,
  map: Leaflet.Map,
  box: HTMLElement,
  bounds: Leaflet.LatLngBounds,
  points: Leaflet.LatLng[],
  maxZoom: number,
): boolean {
  const [topLeft, bottomRight] = [L.point(FIT_SIDE, FIT_TOP), L.point(FIT_SIDE, FIT_BOTTOM)]
  const zoom = Math.min(maxZoom, map.getBoundsZoom(bounds, false, topLeft.add(bottomRight)))
  // As fitBounds centres it: the bounds' middle, moved by half the difference of the paddings.
  const middle = map
    .project(bounds.getSouthWest(), zoom)
    .add(map.project(bounds.getNorthEast(), zoom))
    .divideBy(2)
    .add(bottomRight.subtract(topLeft).divideBy(2))
  const origin = middle.subtract(map.getSize().divideBy(2))
  const [x0, y0] = [box.offsetLeft, box.offsetTop]
  const [x1, y1] = [x0 + box.offsetWidth, y0 + box.offsetHeight]
  return points.some((p) => {
    const at = map.project(p, zoom).subtract(origin)
    return at.x - PIN_WIDTH / 2 < x1 && at.x + PIN_WIDTH / 2 > x0 && at.y - PIN_HEIGHT < y1 && at.y > y0
  })
}

/** A stack's pins in rows of this many at least, this far apart (px): room for a picked pin's larger head. */
const STACK_ROW = 4
const [STACK_X, STACK_Y] = [PIN_WIDTH + 4, PIN_HEIGHT + 8]
/** Pins whose points are nearer than this (px) at the map's zoom make a stack: one would hide the other. */
const STACK_NEAR = 8

/**
 * The pins of stores on one point or a few metres apart (an address given a town's centre) drawn
 * in rows around the first one's point, in the list's order, about as many rows as columns, so
 * that a stack of many stays in a town's view: each pin is seen and pressed. Each other pin
 * stands on its store. In px of the map's zoom: made again at each.
 */
function spreadStacks(map: Leaflet.Map, markers: Map<string, Leaflet.Marker>, places: Map<string, Leaflet.LatLng>) {
  const stacks: [Leaflet.Point, string[]][] = []
  for (const [id, place] of places) {
    const at = map.latLngToLayerPoint(place)
    const stack = stacks.find(([first]) => first.distanceTo(at) < STACK_NEAR)
    if (stack) stack[1].push(id)
    else stacks.push([at, [id]])
  }
  for (const [at, ids] of stacks) {
    const perRow = Math.max(STACK_ROW, Math.ceil(Math.sqrt(ids.length)))
    const rows = Math.ceil(ids.length / perRow)
    ids.forEach((id, i) => {
      const [row, column] = [Math.floor(i / perRow), i % perRow]
      const inRow = Math.min(perRow, ids.length - row * perRow)
      const x = at.x + (column - (inRow - 1) / 2) * STACK_X
      const y = at.y + (row - (rows - 1) / 2) * STACK_Y
      markers.get(id)?.setLatLng(ids.length === 1 ? places.get(id)! : map.layerPointToLatLng([x, y]))
    })
  }
}

/** The finder's map in `el`, in `lang`; `found`: its texts' count of stores ("5,930 stores"). */
export function drawMap(
  L: typeof Leaflet,
  el: HTMLElement,
  options: Options,
  texts: Texts,
  lang: string,
  found: (n: number) => string,
  onSelect: (id: string) => void,
  onStore: (store: Single | Cluster, byKeyboard: boolean) => void,
): StoreMap {
  el.setAttribute('role', 'region')
  // Before a search too: so not "found". Two finders on a page tell theirs by data-label.
  el.setAttribute('aria-label', options.label ? `${texts.map}: ${options.label}` : texts.map)
  // Reduced motion asked for: no zoom or fade animations, no panning glide.
  const still = matchMedia('(prefers-reduced-motion: reduce)').matches
  const map = worldMap(L, el, still)
  const zoomButtons = addControls(L, map, texts, options.unit)
  const buttons = zoomButtons.getContainer()!
  addBasemap(L, map, el, options)
  const markers = new Map<string, Leaflet.Marker>()
  /** Each pin's store's place: a pin of a stack is drawn beside it (spreadStacks). */
  const places = new Map<string, Leaflet.LatLng>()
  const spread = () => spreadStacks(map, markers, places)
  map.on('zoomend', spread)
  const layer = L.layerGroup().addTo(map)
  let here: Leaflet.CircleMarker | null = null
  const clusters = clusterLayer(L, map, onStore, countTexts(lang, found, texts.zoomIn), still)
  const afterZoom = afterZooming(map)
  const { fitted, refit, observer } = keptFitted(map, el, afterZoom)
  // Without tiles the country shapes show nothing nearer than a town's view: an empty field.
  const maxZoom = options.tiles ? 15 : TOWN_ZOOM
  const fitPins = () => {
    const points = [...places.values()]
    if (here) points.push(here.getLatLng())
    const bounds = L.latLngBounds(points)
    // One point (a town's stores on its centre): a town's view, not an empty field of a street's.
    if (points.length > 0 && bounds.getSouthWest().equals(bounds.getNorthEast(), 1e-5))
      map.setView(points[0]!, TOWN_ZOOM)
    else if (points.length > 1) {
      // A pin stands 28 px above its point: the top keeps room for the whole pin. Where a pin
      // would stand under the zoom buttons, the left keeps room for them too.
      const left = underButtons(L, map, buttons, bounds, points, maxZoom)
        ? buttons.offsetLeft + buttons.offsetWidth + PIN_WIDTH / 2 + 2
        : FIT_SIDE
      map.fitBounds(bounds, {
        paddingTopLeft: [left, FIT_TOP],
        paddingBottomRight: [FIT_SIDE, FIT_BOTTOM],
        maxZoom,
      })
    }
  }

  return {
    clusters: {
      show(answer, fit, zoom) {
        clusters.show(answer, zoom)
        if (!fit) return
        afterZoom(() => clusters.fit(answer))
        fitted(() => clusters.fit(answer))
      },
      clear: () => {
        afterZoom(null)
        clusters.clear()
      },
    },
    refit,
    view: () => viewOf(map),
    onMoved: (listener) => map.on('moveend', listener),
    zoomOut: () => zoomOutOnce(map),
    onTouched: (listener) => {
      for (const type of ['pointerdown', 'wheel', 'keydown']) el.addEventListener(type, listener, { passive: true })
    },
    show(locations, center, fit) {
      clusters.clear()
      if (fit) {
        layer.clearLayers()
        markers.clear()
        places.clear()
      }
      here?.remove()
      here = center ? L.circleMarker([center.lat, center.lng], HERE).addTo(map) : null
      const start = markers.size
      locations.forEach((location, i) => {
        const pin = document.createElement('span')
        pin.className = 'sl-pin'
        pin.dataset.id = location.id
        const number = document.createElement('span')
        number.textContent = String(start + i + 1)
        pin.appendChild(number)
        const marker = L.marker([location.coordinates.lat, location.coordinates.lng], {
          icon: L.divIcon({ className: 'sl-marker', html: pin, iconSize: [28, 28], iconAnchor: [14, 28] }),
          title: location.name,
          keyboard: false,
          riseOnHover: true,
          riseOffset: SELECTED_OFFSET, // a pin under the pointer over every other
          zIndexOffset: rankOffset(start + i),
        })
        marker.on('click', () => onSelect(location.id))
        marker.addTo(layer)
        // Screen readers have the numbered list: its numbers alone on the map would be read as a row of digits.
        marker.getElement()?.setAttribute('aria-hidden', 'true')
        markers.set(location.id, marker)
        places.set(location.id, marker.getLatLng())
      })
      spread()
      if (!fit) return
      // The map may have just changed size (the list's column shown again): fit to its size now.
      map.invalidateSize()
      afterZoom(fitPins)
      fitted(fitPins)
    },
    select(id) {
      let index = -1
      for (const [key, marker] of markers) {
        index++
        const on = key === id
        marker.getElement()?.classList.toggle('sl-marker-selected', on)
        marker.setZIndexOffset(on ? SELECTED_OFFSET : rankOffset(index))
        if (on && !map.getBounds().contains(marker.getLatLng())) map.panTo(marker.getLatLng(), { animate: !still })
      }
    },
    destroy() {
      observer.disconnect()
      // Removed mid-zoom, Leaflet's end of the animation (a timer) would read its panes, gone: after it.
      afterZoom(() => map.remove())
    },
  }
}
