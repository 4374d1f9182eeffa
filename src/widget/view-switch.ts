// On a phone, where the map comes after the whole list (widget.css), a button floating at the
// screen's foot switches to the map, taller in the list's place, and back: a list with a switch to
// a full map. Wider, list and map stand side by side and the button is not shown.
import { h } from './dom'
import type { Texts } from './i18n'

export type ViewSwitch = {
  element: HTMLButtonElement
  /** With no store found there is nothing to switch between: no button. */
  found: (any: boolean) => void
  /** The list shown, `item` in sight: a pin pressed on the map, a page opened on a store picked. */
  toList: (item: Element) => void
}

/**
 * The switch of `root`'s `list` and `map`; the class sl-map-view on `root` shows the map alone.
 * `mapShown` is called as it does: the map shows the stores listed, those added since its fit too.
 */
export function viewSwitch(
  root: HTMLElement,
  texts: Texts,
  list: HTMLElement,
  map: HTMLElement,
  mapShown: () => void,
): ViewSwitch {
  const button = h('button', { type: 'button', class: 'sl-button sl-view', hidden: true }, texts.showMap)
  const show = (onMap: boolean) => {
    root.classList.toggle('sl-map-view', onMap)
    button.textContent = onMap ? texts.showList : texts.showMap
  }
  button.addEventListener('click', () => {
    const onMap = !root.classList.contains('sl-map-view')
    show(onMap)
    // What it shows comes in sight, where the list or the map began.
    ;(onMap ? map : list).scrollIntoView({ block: 'nearest' })
    if (onMap) mapShown()
  })
  return {
    element: button,
    found: (any) => {
      button.hidden = !any
    },
    toList: (item) => {
      const fromMap = root.classList.contains('sl-map-view')
      show(false)
      // From the map alone the list comes back around it: the store is brought to the top.
      item.scrollIntoView({ block: fromMap ? 'start' : 'nearest' })
    },
  }
}
