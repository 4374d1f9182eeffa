// The search form's elements: place box, "use my location", keywords, radius, open now, the
// filters' slot, and the search button. The widget reads and fills them.
import type { Place } from './api'
import { h, uniqueId } from './dom'
import type { Texts } from './i18n'
import type { Options } from './options'
import { type PlaceBox, placeBox } from './search-box'

export type Form = {
  element: HTMLFormElement
  place: PlaceBox
  keyword: HTMLInputElement
  radius: HTMLSelectElement
  openNow: HTMLInputElement
  filterSlot: HTMLElement
}

export type FormActions = {
  suggest: (q: string, signal: AbortSignal) => Promise<Place[]>
  pick: (place: Place) => void
  locate: () => void
  change: () => void
  submit: (e: Event) => void
}

export function searchForm(texts: Texts, options: Options, actions: FormActions): Form {
  const place = placeBox(texts, actions.suggest, actions.pick)
  const keywordId = uniqueId('keyword')
  const keyword = h('input', { id: keywordId, class: 'sl-input', type: 'search' })
  const radiusId = uniqueId('radius')
  const radius = h('select', { id: radiusId, class: 'sl-select', onchange: actions.change })
  const openNow = h('input', { type: 'checkbox', onchange: actions.change })
  const filterSlot = h('div', { class: 'sl-filter-slot' })
  const element = h(
    'form',
    // Named: two finders on one page are two search landmarks.
    { class: 'sl-form', role: 'search', 'aria-label': options.label ?? texts.finder, onsubmit: actions.submit },
    h(
      'div',
      { class: 'sl-row' },
      place.element,
      h('button', { type: 'button', class: 'sl-button sl-locate', onclick: actions.locate }, texts.locate),
    ),
    h(
      'div',
      { class: 'sl-row' },
      h('div', { class: 'sl-field sl-keyword' }, h('label', { for: keywordId }, texts.keyword), keyword),
      h('div', { class: 'sl-field sl-radius' }, h('label', { for: radiusId }, texts.radius), radius),
      options.openNow ? h('label', { class: 'sl-check' }, openNow, h('span', {}, texts.openNow)) : null,
      h('button', { type: 'submit', class: 'sl-button sl-primary' }, texts.search),
    ),
    filterSlot,
  )
  return { element, place, keyword, radius, openNow, filterSlot }
}
