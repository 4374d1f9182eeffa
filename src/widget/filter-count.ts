// Ways past the filters' many controls to the stores they choose. Before them, a button seen when
// focused skips them by keyboard. After them, on a phone, where the open filters fill the screen
// and the list is below it, a bar held at the screen's foot while they run past it (widget.css)
// names the stores the list shows as a filter changes (the nearest beyond the radius too; no bar
// after a search that failed), dimmed while the next count is on its way, and takes the visitor
// to them. The status line above the list reads the count out: the bar's text is not read again.
import { h } from './dom'
import { t, type Texts } from './i18n'

/**
 * Focus on the first store's name in `root`'s finder; with none, or the map shown in the list's
 * place on a phone, on the status line that says why, or above the map.
 */
function toList(root: HTMLElement): void {
  const named = root.querySelector<HTMLElement>('.sl-list .sl-name')
  const first = named?.getClientRects().length ? named : null
  const status = root.querySelector<HTMLElement>('.sl-status')
  if (!first && status) status.tabIndex = -1
  ;(first ?? status)?.focus()
}

export type CountBar = {
  element: HTMLElement
  /** Says what the list shows: `n` stores (the nearest beyond the radius too), or no bar (null: nothing listed, the search failed). */
  count: (n: number | null) => void
  /** An answer is on its way (a search, the nearest stores): the count shown is marked as the last one until it comes. */
  stale: () => void
}

/** The count bar of `root`'s finder, hidden until its first count. */
export function countBar(root: HTMLElement, texts: Texts): CountBar {
  const button = h('button', { type: 'button', class: 'sl-button sl-primary' })
  const bar = h('div', { class: 'sl-filter-count', hidden: true }, button)
  button.addEventListener('click', () => {
    // The stores from the top of their count, the status line: not the first one's name alone.
    root.querySelector('.sl-status')?.scrollIntoView({ block: 'start' })
    toList(root)
  })
  return {
    element: bar,
    count: (n) => {
      button.textContent = n ? t(texts, 'showFound', { n }) : texts.none
      bar.classList.remove('sl-pending')
      bar.hidden = n === null
    },
    stale: () => bar.classList.add('sl-pending'),
  }
}

/** The skip button, and `filters` with the count `bar` at their foot, for the filter slot of `root`'s finder. */
export function pastFilters(root: HTMLElement, filters: HTMLElement, texts: Texts, bar: CountBar): HTMLElement[] {
  const skip = h('button', { type: 'button', class: 'sl-button sl-skip' }, texts.skip)
  skip.addEventListener('click', () => toList(root))
  filters.append(bar.element)
  return [skip, filters]
}
