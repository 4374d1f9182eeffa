// A lone store's name shown beside its dot on hover or focus, as WCAG 1.4.13 asks of such content:
// Escape hides it, and the pointer may move onto it without it going.
import type * as Leaflet from 'leaflet'

/** Where a mouse event of Leaflet's went: the element the pointer moved onto. */
const movedOnto = (e: Leaflet.LeafletMouseEvent) =>
  (e.originalEvent as MouseEvent | undefined)?.relatedTarget as Node | null

/** Binds each store's name tooltip on `map`: the returned function, given its dot and the name. */
export function nameTooltips(map: Leaflet.Map): (dot: Leaflet.Path, name: string) => void {
  let shown: Leaflet.Tooltip | null = null
  map.on('tooltipopen', (e) => {
    shown = e.tooltip
  })
  map.on('tooltipclose', (e) => {
    if (shown === e.tooltip) shown = null
  })
  // Before the page sees it: an Escape that hides a tooltip does nothing else (a search box
  // would clear itself).
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || shown === null) return
    map.closeTooltip(shown)
    e.preventDefault()
    e.stopImmediatePropagation()
  }
  document.addEventListener('keydown', onKey, true)
  map.on('unload', () => document.removeEventListener('keydown', onKey, true))
  return (dot, name) => {
    // An element, not a string: Leaflet writes a string tooltip as HTML, and a name is text.
    const text = document.createElement('span')
    text.textContent = name
    dot.bindTooltip(text, { interactive: true })
    const tooltip = dot.getTooltip()!
    // Leaflet closes it as the pointer leaves the dot: not when it leaves for the tooltip, or back.
    dot.off('mouseout', dot.closeTooltip, dot)
    dot.on('mouseout', (e) => {
      if (!tooltip.getElement()?.contains(movedOnto(e))) dot.closeTooltip()
    })
    // The pointer shows it may be pressed: it does what pressing the dot does. On the element:
    // Leaflet closes a tooltip as a press reaches the map, before it would tell the tooltip.
    tooltip.once('add', () => tooltip.getElement()?.addEventListener('click', () => dot.fire('click')))
    tooltip.on('mouseout', (e) => {
      if (!dot.getElement()?.contains(movedOnto(e as Leaflet.LeafletMouseEvent))) dot.closeTooltip()
    })
  }
}
