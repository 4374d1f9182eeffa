// The search form and the search state kept in step: the state shown in the form's fields, the
// fields read back into the state, the place box read as the search's origin.
import { asksOwnPosition } from '../core/own-position'
import { h } from './dom'
import type { Form } from './form'
import { distanceText } from './format'
import type { Lang } from '../core/languages'
import type { Texts } from './i18n'
import { radiiWith } from './options'
import { originOf, type SearchState } from './url-state'

/** The form's fields as `state` stands; `chosen`: the radius shown, null until the locator's default is known. */
export function fillForm(form: Form, state: SearchState, texts: Texts, lang: Lang, chosen: number | null): void {
  const { unit } = state
  form.keyword.value = state.keyword
  form.openNow.checked = state.openNow
  const o = state.origin
  if (o && form.place.input.value === '')
    form.place.setText(o.kind === 'geo' ? texts.yourLocation : o.kind === 'place' ? o.label : o.text)
  // Until an answer names the locator's default radius, that default is chosen by its name; until
  // the unit is known (units.ts), the page's or the locator's default alone, no number without it.
  form.radius.replaceChildren(
    chosen === null || !unit ? h('option', { value: chosen ?? '', selected: true }, texts.defaultRadius) : '',
    ...(unit
      ? radiiWith(chosen).map((r) => h('option', { value: r, selected: r === chosen }, distanceText(lang, r, unit)))
      : []),
  )
}

/** The fields' keywords, radius, open now and (once shown) filters into `state`. */
export function readForm(form: Form, state: SearchState, tags: string[] | null): void {
  state.keyword = form.keyword.value
  state.radius = Number(form.radius.value) || null
  state.openNow = form.openNow.checked
  if (tags) state.tags = tags
}

/**
 * The place box's text (or place picked) as `state`'s origin, unless it shows the one searched;
 * false when it asks for the visitor's position.
 */
export function readPlace(form: Form, state: SearchState, texts: Texts): boolean {
  const { place } = form
  const text = place.input.value.trim()
  const picked = place.picked()
  const o = state.origin
  if (picked) state.origin = originOf(picked)
  else if (asksOwnPosition(text)) return false
  else if (text === '') state.origin = null
  else if (!(o?.kind === 'geo' && text === texts.yourLocation) && !(o?.kind === 'place' && o.label === text))
    state.origin = { kind: 'near', text }
  return true
}
