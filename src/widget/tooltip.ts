// A lone store's name shown beside its dot on hover or focus, as WCAG 1.4.13 asks of such content:
// Escape hides it, and the pointer may move onto it without it going.
import type * as Leaflet from 'leaflet'

/** Where a mouse event of Leaflet's went: the element the pointer moved onto. */
const movedOnto = (e: Leaflet.LeafletMouseEvent) =>
  (e.originalEvent as MouseEvent | undefined)?.relatedTarget as Node | null

export type NameTooltips = {
  /** Binds the dot's name tooltip. */
  bind: (dot: Leaflet.Path, name: string) => void
  /**
   * Shows the name of the dot of `dots` under the resting pointer, as hovering it does: a browser
   * may not tell a dot drawn under a pointer that rests (Chromium just after a wheel) until it moves.
   */
  restore: (dots: Leaflet.Path[]) => void
}

/** The stores' name tooltips on `map`. */
export function nameTooltips(map: Leaflet.Map): NameTooltips {
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
  const container = map.getContainer()
  /** The mouse pointer's place in the window while it is over the map. */
  let pointer: { x: number; y: number } | null = null
  container.addEventListener('pointermove', (e) => {
    pointer = e.pointerType === 'mouse' ? { x: e.clientX, y: e.clientY } : null
  })
  container.addEventListener('pointerleave', () => {
    pointer = null
  })
  return {
    bind: (dot, name) => {
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
    },
    restore: (dots) => {
      const under = pointer && document.elementFromPoint(pointer.x, pointer.y)
      const dot = under && dots.find((d) => d.getElement() === under)
      if (!dot) return
      dot.openTooltip()
      // Told of no hover, the dot may be told of no leaving either: the pointer's next move off it closes it.
      const moved = new AbortController()
      const off = (e: Event) => {
        moved.abort()
        const to = e.type === 'pointermove' ? (e.target as Node) : null
        if (!dot.getElement()?.contains(to) && !dot.getTooltip()?.getElement()?.contains(to)) dot.closeTooltip()
      }
      for (const type of ['pointermove', 'pointerleave'])
        container.addEventListener(type, off, { signal: moved.signal })
    },
  }
}
