// On a phone, where the map comes after the whole list (widget.css), a button floating at the
// screen's foot switches to the map, taller in the list's place, and back: a list with a switch to
// a full map. Wider, list and map stand side by side and the button is not shown. The map shown
// alone is an entry of the browser's history, as a page of its own would be: Back shows the list.
import { h } from './dom'
import type { Texts } from './i18n'

export type ViewSwitch = {
  element: HTMLButtonElement
  /** With no store found there is nothing to switch between: no button. */
  found: (any: boolean) => void
  /** The list shown, `item` in sight: a pin pressed on the map, a page opened on a store picked. */
  toList: (item: Element) => void
}

/** Where the finder keeps the map's entries: its URL prefix, the finder's own; `settle` writes its search into the address. */
export type MapEntries = { prefix: string; settle: () => void; life: AbortSignal }

type State = Record<string, unknown> | null

/**
 * The switch of `root`'s `list` and `map`; the class sl-map-view on `root` shows the map alone.
 * `mapShown` is called as it does: the map shows the stores listed, those added since its fit too.
 * With `entries` (the finder keeps its search in the address), the map shown is a new entry of
 * the browser's history, its key in history.state holding the address it was shown at. Leaving
 * it by the button or a pin steps back from it, so no later Back is spent on a map gone. A search
 * made on the map alone keeps the key (history.ts keeps the state's keys): Back to it shows the
 * map. Its popstate listener goes before the finder's (history.ts), which then finds the
 * address its search's.
 */
export function viewSwitch(
  root: HTMLElement,
  texts: Texts,
  list: HTMLElement,
  map: HTMLElement,
  mapShown: () => void,
  entries: MapEntries | null = null,
): ViewSwitch {
  const button = h('button', { type: 'button', class: 'sl-button sl-view', hidden: true }, texts.showMap)
  const key = `storelocMap:${entries?.prefix}`
  // Which finder's map the last entry pushed shows: a page's other finder steps back from its own alone.
  const last = 'storelocMapLast'
  const onMap = () => root.classList.contains('sl-map-view')
  const show = (map: boolean) => {
    root.classList.toggle('sl-map-view', map)
    button.textContent = map ? texts.showList : texts.showMap
  }
  /** history.state as an object, or null when it is a router's own value, left alone then. */
  const state = (): State => {
    const s: unknown = history.state
    return s === null || typeof s === 'object' ? { ...(s as State) } : null
  }
  /** Whether a search found stores since the finder started. */
  let opened = false
  /** What the list does once shown again: by the history's step back, or at once. */
  let returning: (() => void) | null = null
  const toMap = () => {
    const s = state()
    if (entries && s && !onMap()) history.pushState({ ...s, [key]: location.href, [last]: key }, '', location.href)
    show(true)
    // What it shows comes in sight, where the map began.
    map.scrollIntoView({ block: 'nearest' })
    mapShown()
  }
  /** `then` once the list shows; `back`, by the history's step, after the browser's scroll (where the list was left). */
  const toList = (then: () => void, back: () => void) => {
    if (returning) return // its step back is on its way: a second press would take another
    const s = state()
    if (entries && onMap() && s?.[key] === location.href && s[last] === key) {
      // The entry the map was shown in goes, as Back would take it: Forward shows the map again.
      returning = () => requestAnimationFrame(back)
      history.back()
      return
    }
    if (s && key in s) {
      delete s[key]
      history.replaceState(s, '')
    }
    show(false)
    then()
  }
  if (entries)
    addEventListener(
      'popstate',
      (e) => {
        const to = e.state as State
        const mapEntry = to !== null && typeof to === 'object' && typeof to[key] === 'string'
        const then = returning
        returning = null
        if (mapEntry === onMap()) return
        show(mapEntry)
        if (mapEntry) return mapShown()
        // Left by the button or a pin, the list shows the search as it stands (a pin picked a store
        // meanwhile), not the entry's as it was: the finder's listener has nothing to take up.
        if (then) {
          entries.settle()
          then()
        }
      },
      { signal: entries.life },
    )
  button.addEventListener('click', () =>
    onMap()
      ? toList(
          () => list.scrollIntoView({ block: 'nearest' }),
          () => {},
        )
      : toMap(),
  )
  return {
    element: button,
    found: (any) => {
      button.hidden = !any
      // A page opened again at the map's entry (a reload, Back from another page): the map shown.
      if (any && entries && !opened && typeof state()?.[key] === 'string') show(true)
      opened ||= any
    },
    toList: (item) => {
      const fromMap = onMap()
      // From the map alone the list comes back around it: the store is brought to the top.
      const inSight = () => item.scrollIntoView({ block: fromMap ? 'start' : 'nearest' })
      toList(inSight, inSight)
    },
  }
}
