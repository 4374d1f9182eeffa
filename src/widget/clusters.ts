// Before a search, the map shows where every store is: GET /clusters for the map's view, redrawn
// as it moves. A cluster zooms the map in to where it splits; a single store searches around it,
// and so does a cluster no zoom splits (stores on one point), around its first store.
import type * as Leaflet from 'leaflet'
import { type Box, type Disc, spreadApart, underControls, type Within } from './spacing'
import { nameTooltips } from './tooltip'

export type Cluster = { id: string; lat: number; lng: number; count: number; expansion_zoom: number }
/** A store alone at the zoom asked, as GET /clusters gives it. */
export type Single = { id: string; lat: number; lng: number; name: string }
export type ClustersAnswer = { data: { clusters: Cluster[]; locations: Single[]; total: number } }
/** The bubbles and lone stores drawn. */
type Drawing = Pick<ClustersAnswer['data'], 'clusters' | 'locations'>

/** A bubble (`size` its width in px) or a lone store (0, its `id`) as drawn; `at`: where the answer put it. */
type Drawn = { marker: Leaflet.Marker | Leaflet.CircleMarker; at: Leaflet.LatLng; size: number; id?: string }

/** What has the keyboard's focus, or had it before a redraw: a store (its id) or a bubble, and where. */
type Focused = { at: Leaflet.LatLng; id?: string }

export type ClusterLayer = {
  /** Draws the answer, whose clusters GET /clusters made at `zoom`. */
  show: (answer: ClustersAnswer, zoom: number) => void
  /** Sets the map's view to show all of the answer. */
  fit: (answer: ClustersAnswer) => void
  clear: () => void
}

/**
 * GET /clusters's zoom is that of 512 px tiles (a cluster reaches 40 of their px), the map's of
 * Leaflet's 256 px ones: the map's zoom less one begins clusters 40 screen px apart or more, as
 * wide as a bubble with its ring. A cluster's expansion_zoom is so one less than the map's.
 */
const TILE_ZOOMS = 1

/** How far apart, in screen px, clusters begin at the map's zoom less TILE_ZOOMS: a bubble's reach. */
const REACH = 40

/** GET /clusters's deepest zoom of clusters: from the next every store stands alone. */
const DEEPEST = 16

/** A bubble's ring (widget.css's box-shadow) and a lone store's dot with its stroke, in px. */
const RING = 4
const DOT = 8

/** The map's view as GET /clusters takes it: a box within the world's bounds, and the zoom. */
export function viewOf(map: Leaflet.Map): { bbox: string; zoom: number } {
  const b = map.getBounds()
  const wide = b.getEast() - b.getWest() >= 360
  const clamp = (v: number, max: number) => Math.max(-max, Math.min(max, v))
  const round = (v: number) => Math.round(v * 1e5) / 1e5
  const box = [
    wide ? -180 : clamp(b.getWest(), 180),
    clamp(b.getSouth(), 90),
    wide ? 180 : clamp(b.getEast(), 180),
    clamp(b.getNorth(), 90),
  ].map(round)
  return { bbox: box.join(','), zoom: Math.max(0, Math.min(20, Math.round(map.getZoom()) - TILE_ZOOMS)) }
}

/**
 * A cluster's words: its `label` in the bubble ("5.9K"), its `name` for screen readers, the label
 * then the count whole with what pressing it does ("5.9K: 5,930 stores, Zoom in"; a `stack` shows
 * its stores: the count alone).
 */
export type CountTexts = { label: (n: number) => string; name: (n: number, stack: boolean) => string }

/**
 * `lang`'s cluster words. The label: the count as `found` writes it below 1,000, else short
 * ("5.9K", "5,9 k") as the language shortens it (German writes "12.345" whole). The name begins
 * with the label (WCAG 2.5.3, so speech input finds it by its label): "5.9K: 5,930 stores",
 * "5930 Geschäfte" for "5.930 Geschäfte".
 */
export function countTexts(lang: string, found: (n: number) => string, zoomIn: string): CountTexts {
  const [short, whole] = [new Intl.NumberFormat(lang, { notation: 'compact' }), new Intl.NumberFormat(lang)]
  const named = (n: number) => {
    const [label, said] = [short.format(n), found(n)]
    if (said.includes(label)) return said
    // Digits alone are the same count written another way: they take its place.
    if (!/\p{L}/u.test(label)) return said.replace(whole.format(n), label)
    return `${label}: ${said}`
  }
  return { label: (n) => short.format(n), name: (n, stack) => (stack ? named(n) : `${named(n)}, ${zoomIn}`) }
}

/**
 * A bubble's width in px: 20 to 32 by its count (with its ring no wider than clusters begin apart,
 * TILE_ZOOMS); wider when its label needs it, the label's box (`width` + 4 by 13 px) inside the disc.
 */
const bubbleSize = (count: number, width: number): number =>
  Math.max(Math.round(20 + Math.min(12, Math.log2(count) * 2)), Math.ceil(Math.hypot(width + 4, 13)))

/** `still`: the visitor asked for reduced motion, so a cluster zooms in without flying. */
export function clusterLayer(
  L: typeof Leaflet,
  map: Leaflet.Map,
  onStore: (store: Single | Cluster, byKeyboard: boolean) => void,
  counts: CountTexts,
  still: boolean,
): ClusterLayer {
  const layer = L.layerGroup().addTo(map)
  const measure = labelWidths(map.getContainer())
  const names = nameTooltips(map)
  /** The answer's bubbles (their size) and lone stores as drawn, to be spaced at each zoom. */
  let drawn: Drawn[] = []
  /** Where a bubble pressed by keyboard stood: the next drawing focuses what stands nearest it. */
  let refocus: Focused | null = null
  /** The answer drawn, the zoom its clusters were made at, and the map's zoom it was drawn at. */
  let shown: [ClustersAnswer, number] | null = null
  let drawnAt = 0
  const bubble = (c: Cluster) => {
    const label = counts.label(c.count)
    const size = bubbleSize(c.count, measure(label))
    const html = document.createElement('span')
    html.className = 'sl-cluster-count'
    html.textContent = label
    const marker = L.marker([c.lat, c.lng], {
      icon: L.divIcon({ className: 'sl-cluster', html, iconSize: [size, size] }),
      keyboard: false,
    })
    // Stores on one point (or metres apart) split only where every store stands alone, past a
    // street's view: pressing them does what pressing one would.
    const stack = c.expansion_zoom > DEEPEST
    const zoom = c.expansion_zoom + TILE_ZOOMS
    const zoomIn = () => (still ? map.setView([c.lat, c.lng], zoom) : map.flyTo([c.lat, c.lng], zoom))
    marker.on('click', () => (stack ? onStore(c, false) : zoomIn()))
    // By keyboard the bubble goes with the redraw: the focus goes on to what is drawn where it was.
    marker.on('add', () =>
      asButton(marker.getElement(), counts.name(c.count, stack), () => {
        if (stack) return onStore(c, true)
        refocus = { at: L.latLng(c.lat, c.lng) }
        zoomIn()
      }),
    )
    drawn.push({ marker, at: marker.getLatLng(), size })
    return marker
  }
  const store = (single: Single) => {
    const marker = L.circleMarker([single.lat, single.lng], { radius: 7, className: 'sl-dot' })
    names.bind(marker, single.name)
    marker.on('click', () => onStore(single, false))
    drawn.push({ marker, at: marker.getLatLng(), size: 0, id: single.id })
    marker.on('add', () => asButton(marker.getElement(), single.name, () => onStore(single, true)))
    return marker
  }
  /**
   * Each bubble moved, in the map's view, as little as keeps it off the other bubbles, the lone
   * stores and the map's controls (the zoom buttons, the scale, the credit): rings may meet, no ring
   * covers a disc, a dot or a control. A lone store stays on its place, unless under a control or
   * within a dot's width of one before it (stores given their town's centre): each dot is seen and
   * pressed.
   * A bubble whose cluster lies in the view stays in it (spacing.ts's `within`): a crowd drawn
   * apart at a world's view reaches its edges.
   */
  const place = () => {
    const within = inView(map)
    // A bubble's r takes half its ring (rings may meet): a control is kept the other half further off.
    const ringed = { ...within, keep: within.keep.map((b) => grown(b, RING / 2)) }
    const discs: Disc[] = drawn.map(({ at, size }) => {
      const { x, y } = map.latLngToLayerPoint(at)
      const [r, fixed] = size === 0 ? [DOT, true] : [size / 2, false]
      return { x, y, r: r + RING / 2, fixed, within: fixed ? within : ringed }
    })
    discs.forEach((d, i) => {
      d.fixed &&=
        !underControls(d, within) && !discs.some((e, j) => j < i && e.fixed && Math.hypot(e.x - d.x, e.y - d.y) < DOT)
    })
    spreadApart(discs)
    drawn.forEach(({ marker, at: own }, i) => {
      const d = discs[i]!
      // A dot moved aside at a step goes back on its place at a step where it is free.
      const at = d.fixed ? own : map.layerPointToLatLng([d.x, d.y])
      // Set only when moved: a drag's step leaves most where they were, and each set restyles one.
      if (!at.equals(marker.getLatLng())) marker.setLatLng(at)
    })
  }
  const clear = () => {
    layer.clearLayers()
    drawn = []
  }
  const draw = () => {
    const [answer, zoom] = shown!
    // The redraw takes off what has the focus: it goes on to the same store, or what is drawn nearest.
    const had = refocus ?? focused()
    refocus = null
    clear()
    const { clusters, locations } = joined(map, answer.data, zoom)
    drawnAt = map.getZoom()
    for (const c of clusters) bubble(c).addTo(layer)
    for (const single of locations) store(single).addTo(layer)
    place()
    if (had) focusAgain(map, drawn, had)
    names.restore(drawn.flatMap((d) => (d.size === 0 ? [d.marker as Leaflet.CircleMarker] : [])))
  }
  // Placed at each step of every move (a drag's, a glide's, a zoom's end, a fit, a new size): a
  // bubble kept in the view moves with no jump. Drawn again at a zoom's end while its clusters are,
  // or were, joined. A map removed at a zoom's end still ends its move, with no panes to place by.
  const moves = {
    move: place,
    zoomend: () => {
      if (shown && Math.min(drawnAt, map.getZoom()) < shown[1] + TILE_ZOOMS) draw()
    },
  }
  map.on(moves).once('unload', () => map.off(moves))
  const focused = (): Focused | null => {
    const one = drawn.find((d) => d.marker.getElement() === document.activeElement)
    return one ? { at: one.at, id: one.id } : null
  }
  return {
    show(answer, zoom) {
      shown = [answer, zoom]
      draw()
    },
    fit(answer) {
      const points = [...answer.data.clusters, ...answer.data.locations].map((p) => L.latLng(p.lat, p.lng))
      if (points.length === 0) return
      if (points.length > 1) map.fitBounds(L.latLngBounds(points), { padding: [30, 30], maxZoom: 12 })
      else {
        // One cluster: the zoom where it splits; one store: a town's.
        const one = answer.data.clusters[0]
        map.setView(points[0]!, one ? Math.min(12, one.expansion_zoom + TILE_ZOOMS) : 12)
      }
    },
    clear() {
      const had = focused()
      shown = null
      clear()
      // A search's pins are not focusable: the map itself keeps the focus.
      if (had) map.getContainer().focus({ preventScroll: true })
    },
  }
}

/** The map's view in layer px, with its controls' boxes (the zoom buttons, the scale, the credit). */
function inView(map: Leaflet.Map): Within {
  const { x: x0, y: y0 } = map.containerPointToLayerPoint([0, 0])
  const { x: x1, y: y1 } = map.containerPointToLayerPoint(map.getSize())
  // Each control is placed in its corner's box (Leaflet's .leaflet-top.leaflet-left...), placed in the view.
  const keep = [...map.getContainer().querySelectorAll<HTMLElement>('.leaflet-control')].flatMap((el) => {
    const corner = el.offsetParent as HTMLElement | null
    if (!corner) return []
    const [x, y] = [x0 + corner.offsetLeft + el.offsetLeft, y0 + corner.offsetTop + el.offsetTop]
    return [{ x0: x, y0: y, x1: x + el.offsetWidth, y1: y + el.offsetHeight }]
  })
  return { x0, y0, x1, y1, keep }
}

/** `b` larger by `by` px each way. */
const grown = (b: Box, by: number): Box => ({ x0: b.x0 - by, y0: b.y0 - by, x1: b.x1 + by, y1: b.y1 + by })

/**
 * The answer's clusters and lone stores as drawn at the map's zoom. Made for a deeper one (the
 * first answer's, the whole world's at 16 tiles across; a phone's world at zoom 0, 20 px apart),
 * their bubbles would cover each other: each, the largest first, takes in those left within REACH
 * of it, their counts added up, at their mean. A bubble so made zooms in to where they part.
 */
function joined(map: Leaflet.Map, data: ClustersAnswer['data'], zoom: number): Drawing {
  if (map.getZoom() >= zoom + TILE_ZOOMS) return data
  // `n`: the stores a point holds, 0 once taken in.
  const points = [...data.clusters, ...data.locations].map((p) => ({
    p,
    at: map.latLngToLayerPoint(p),
    n: 'count' in p ? p.count : 1,
  }))
  // Ties by place: the same clusters are joined alike in any order of the answer.
  points.sort((a, b) => b.n - a.n || a.at.x - b.at.x)
  const around = inCells(points, REACH)
  const out: Drawing = { clusters: [], locations: [] }
  for (const a of points) {
    if (a.n === 0) continue
    const near = around(a.at).filter((b) => b.n > 0 && a.at.distanceTo(b.at) < REACH)
    let [x, y, count] = [0, 0, 0]
    for (const b of near) {
      x += b.at.x * b.n
      y += b.at.y * b.n
      count += b.n
      b.n = 0
    }
    if (near.length > 1) {
      const { lat, lng } = map.layerPointToLatLng([x / count, y / count])
      const parts = parting(map, near, { x: x / count, y: y / count }, Math.min(zoom, DEEPEST) + TILE_ZOOMS)
      out.clusters.push({ id: a.p.id, lat, lng, count, expansion_zoom: parts - TILE_ZOOMS })
    } else if ('count' in a.p) out.clusters.push(a.p)
    else out.locations.push(a.p)
  }
  return out
}

/**
 * The map's zoom, a step deeper than its own at least, where `parts` (at its zoom, their mean
 * `mid`) stand REACH apart: no deeper than `deepest` (where the answer is drawn as made), nor than
 * keeps them all in the view round `mid`, their bubbles whole.
 */
function parting(map: Leaflet.Map, parts: { at: Leaflet.Point }[], mid: { x: number; y: number }, deepest: number) {
  const [from, { x: w, y: h }] = [map.getZoom(), map.getSize()]
  const apart = (reach: number) => {
    const around = inCells(parts, reach)
    return parts.every((p) => around(p.at).every((q) => q === p || p.at.distanceTo(q.at) >= reach))
  }
  const shown = (scale: number) =>
    parts.every(
      (p) => Math.abs(p.at.x - mid.x) * scale <= w / 2 - REACH && Math.abs(p.at.y - mid.y) * scale <= h / 2 - REACH,
    )
  let to = Math.round(from) + 1
  while (to < deepest && !apart(REACH / 2 ** (to - from)) && shown(2 ** (to + 1 - from))) to++
  return to
}

/**
 * `points` by the square `cell` px wide their `at` lies in; the function returned gives those in
 * the square of `at` and the eight round it: every one within `cell` of it, and few more.
 */
function inCells<T extends { at: Leaflet.Point }>(points: T[], cell: number): (at: Leaflet.Point) => T[] {
  const cells = new Map<string, T[]>()
  const key = (at: Leaflet.Point, di = 0, dj = 0) => `${Math.floor(at.x / cell) + di},${Math.floor(at.y / cell) + dj}`
  for (const p of points) (cells.get(key(p.at)) ?? cells.set(key(p.at), []).get(key(p.at))!).push(p)
  const steps = [-1, 0, 1]
  return (at) => steps.flatMap((di) => steps.flatMap((dj) => cells.get(key(at, di, dj)) ?? []))
}

/** `el` a control by keyboard too: a named button that Enter or Space acts on, as a click does. */
function asButton(el: Element | undefined, name: string, act: () => void): void {
  if (!el) return
  el.setAttribute('tabindex', '0')
  el.setAttribute('role', 'button')
  el.setAttribute('aria-label', name)
  el.addEventListener('keydown', (e) => {
    const key = (e as KeyboardEvent).key
    if (key !== 'Enter' && key !== ' ') return
    e.preventDefault()
    act()
  })
}

/**
 * Focuses the store `had` names when drawn, else the bubble or store drawn nearest where it stood,
 * else the map; unless the focus has gone elsewhere than the map (or the page's body, where a
 * removed element leaves it) meanwhile.
 */
function focusAgain(map: Leaflet.Map, drawn: Drawn[], had: Focused): void {
  const focused = document.activeElement
  if (focused && focused !== document.body && !map.getContainer().contains(focused)) return
  const from = map.latLngToLayerPoint(had.at)
  let best = had.id === undefined ? undefined : drawn.find((one) => one.id === had.id)
  let bestDistance = Infinity
  for (const one of best ? [] : drawn) {
    const d = from.distanceTo(map.latLngToLayerPoint(one.marker.getLatLng()))
    if (d < bestDistance) [best, bestDistance] = [one, d]
  }
  const el = (best?.marker.getElement() ?? map.getContainer()) as HTMLElement | SVGElement
  el.focus({ preventScroll: true })
}

/**
 * The width in px of a bubble's label as widget.css writes it (bold, 13 px) in the map's font,
 * measured on a canvas: a bubble is sized before it is drawn.
 */
function labelWidths(container: HTMLElement): (label: string) => number {
  const context = document.createElement('canvas').getContext('2d')
  if (context === null) return (label) => label.length * 8
  context.font = `700 13px ${getComputedStyle(container).fontFamily}`
  return (label) => context.measureText(label).width
}
