// Before a search, the map shows where every store is: GET /clusters for the map's view, redrawn
// as it moves. A cluster zooms the map in to where it splits; a single store searches around it.
import type * as Leaflet from 'leaflet'

export type Cluster = { id: string; lat: number; lng: number; count: number; expansion_zoom: number }
/** A store alone at the zoom asked, as GET /clusters gives it. */
export type Single = { id: string; lat: number; lng: number; name: string }
export type ClustersAnswer = { data: { clusters: Cluster[]; locations: Single[]; total: number } }

export type ClusterLayer = {
  /** Draws the answer; `fit`: the map then shows all of it. */
  show: (answer: ClustersAnswer, fit: boolean) => void
  clear: () => void
}

/**
 * GET /clusters's zoom is that of 512 px tiles (a cluster reaches 40 of their px), the map's of
 * Leaflet's 256 px ones: the map's zoom less one keeps clusters 40 screen px apart, more than a
 * bubble is wide, so none covers another. A cluster's expansion_zoom is so one less than the map's.
 */
const TILE_ZOOMS = 1

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
 * `countName`: a cluster's name for screen readers ("44 stores"); `still`: the visitor asked for
 * reduced motion, so a cluster zooms in without flying.
 */
export function clusterLayer(
  L: typeof Leaflet,
  map: Leaflet.Map,
  onStore: (store: Single, byKeyboard: boolean) => void,
  countName: (n: number) => string,
  still: boolean,
): ClusterLayer {
  const layer = L.layerGroup().addTo(map)
  const bubble = (c: Cluster) => {
    // Clusters lie 40 px or more apart (TILE_ZOOMS): the bubbles stay smaller.
    const size = Math.round(20 + Math.min(12, Math.log2(c.count) * 2))
    const html = document.createElement('span')
    html.className = 'sl-cluster-count'
    html.textContent = String(c.count)
    const marker = L.marker([c.lat, c.lng], {
      icon: L.divIcon({ className: 'sl-cluster', html, iconSize: [size, size] }),
      keyboard: false,
    })
    // Read as "44 stores", not a bare number; no Tab stop (the search form is the way by keyboard).
    marker.on('add', () => {
      const el = marker.getElement()
      el?.setAttribute('role', 'img')
      el?.setAttribute('aria-label', countName(c.count))
    })
    const zoom = Math.min(c.expansion_zoom + TILE_ZOOMS, 18)
    marker.on('click', () => (still ? map.setView([c.lat, c.lng], zoom) : map.flyTo([c.lat, c.lng], zoom)))
    return marker
  }
  const store = (single: Single) => {
    const marker = L.circleMarker([single.lat, single.lng], { radius: 7, className: 'sl-dot' })
    // An element, not a string: Leaflet writes a string tooltip as HTML, and a name is text.
    const name = document.createElement('span')
    name.textContent = single.name
    marker.bindTooltip(name)
    marker.on('click', () => onStore(single, false))
    // A control by keyboard too: named, and Enter or Space searches around the store, as a click does.
    marker.on('add', () => {
      const el = marker.getElement() as SVGElement | undefined
      if (!el) return
      el.setAttribute('tabindex', '0')
      el.setAttribute('role', 'button')
      el.setAttribute('aria-label', single.name)
      el.addEventListener('keydown', (e) => {
        if (e.key !== 'Enter' && e.key !== ' ') return
        e.preventDefault()
        onStore(single, true)
      })
    })
    return marker
  }
  return {
    show(answer, fit) {
      layer.clearLayers()
      const points: Leaflet.LatLngExpression[] = []
      for (const c of answer.data.clusters) {
        bubble(c).addTo(layer)
        points.push([c.lat, c.lng])
      }
      for (const single of answer.data.locations) {
        store(single).addTo(layer)
        points.push([single.lat, single.lng])
      }
      if (!fit || points.length === 0) return
      if (points.length > 1) map.fitBounds(L.latLngBounds(points), { padding: [30, 30], maxZoom: 12 })
      else {
        // One cluster: the zoom where it splits; one store: a town's.
        const one = answer.data.clusters[0]
        map.setView(points[0]!, one ? Math.min(12, one.expansion_zoom + TILE_ZOOMS) : 12)
      }
    },
    clear: () => layer.clearLayers(),
  }
}
