// The finders of data-storeloc elements, kept in step with the page as a single-page app changes
// it: an element added is mounted, one taken out of the page is stopped, one whose options change
// (data-lang, data-unit, its token) is mounted again with them. Finders the page mounts with
// Storeloc.mount are the page's: it destroys them and mounts them again itself.
import { OPTION_ATTRIBUTES } from './options'
import type { Finder } from './finder'

const MARKED = '[data-storeloc]'

export type Marking = {
  /** A finder in `el` from its attributes, or its failure said there (null). */
  mount: (el: HTMLElement) => Finder | null
  /** The finder last mounted in `el`, by the page or here. */
  finderOf: (el: HTMLElement) => Finder | undefined
  /** `el`'s data-unit changed: the search the address holds for it is to be in the new unit. */
  unitChanged: (el: HTMLElement) => void
}

/** Mounts the page's marked elements, and follows those it adds, takes out and changes. */
export function followMarked(marking: Marking): void {
  const { mount, finderOf, unitChanged } = marking
  /** Finders mounted here: stopped here. Live ones are in `live`, to be checked as elements go. */
  const automatic = new WeakSet<Finder>()
  const live = new Set<Finder>()

  function mountMarked(elements: Iterable<HTMLElement>) {
    for (const el of elements) {
      const had = finderOf(el)
      // Once mounted, an element keeps its finder wherever it is moved (frameworks re-parent them);
      // one stopped here mounts again when it comes back.
      if (!el.isConnected || (had !== undefined && !(had.destroyed && automatic.has(had)))) continue
      const widget = mount(el)
      if (widget === null) continue
      automatic.add(widget)
      live.add(widget)
    }
  }

  /** Stops the finders whose element is out of the page once its changes are made: a route left. */
  function stopRemoved() {
    for (const widget of live) {
      if (!widget.destroyed && widget.element.isConnected) continue
      widget.destroy()
      live.delete(widget)
    }
  }

  /** A marked element's options changed: its finder mounted again with them, or stopped when unmarked. */
  function restart(el: HTMLElement, unit: boolean) {
    const had = finderOf(el)
    if (had !== undefined && !automatic.has(had)) return
    if (had !== undefined && !had.destroyed) {
      had.destroy()
      live.delete(had)
    }
    if (!el.matches(MARKED)) return
    if (unit) unitChanged(el)
    mountMarked([el])
  }

  function changed(records: MutationRecord[]) {
    const added: HTMLElement[] = []
    const options = new Map<HTMLElement, boolean>()
    let removed = false
    for (const record of records) {
      const el = record.target as HTMLElement
      // An attribute set to the value it had (a render that sets them all) changes nothing.
      const name = record.attributeName
      if (name !== null && record.oldValue !== el.getAttribute(name))
        options.set(el, options.get(el) || name === 'data-unit')
      removed ||= record.removedNodes.length > 0
      for (const node of record.addedNodes) {
        if (node.nodeType !== Node.ELEMENT_NODE) continue
        const el = node as HTMLElement
        if (el.matches(MARKED)) added.push(el)
        if (el.firstElementChild !== null) added.push(...el.querySelectorAll<HTMLElement>(MARKED))
      }
    }
    if (removed) stopRemoved()
    for (const [el, unit] of options) restart(el, unit)
    mountMarked(added)
  }

  mountMarked(document.querySelectorAll<HTMLElement>(MARKED))
  new MutationObserver(changed).observe(document.documentElement, {
    childList: true,
    subtree: true,
    attributeFilter: OPTION_ATTRIBUTES,
    attributeOldValue: true,
  })
}
