// The filter controls, built from GET /filters: a row of toggles for an inline group, a dropdown
// otherwise; radio buttons or a single <select> where a group allows one tag. A group shown alone
// is a row of toggles: a lone dropdown (such as "Other", when a locator sets no groups) hides
// every choice behind one more click.
import { DEFAULT_FILTER_GROUP, shownGroupName } from '../core/filter-groups'
import type { FilterGroup } from './api'
import { h, uniqueId } from './dom'
import type { Texts } from './i18n'

export type Filters = {
  element: HTMLDetailsElement
  selected: () => string[]
  /** Sets the controls to these tags, as a search taken up again has them. */
  choose: (tags: string[]) => void
  groups: FilterGroup[]
}

/** The groups to show: not hidden, and among `wanted` when the widget names some. */
export const shownGroups = (groups: FilterGroup[], wanted: 'all' | 'none' | string[]): FilterGroup[] =>
  wanted === 'none'
    ? []
    : groups.filter((g) => !g.hidden && g.tags.length > 0 && (wanted === 'all' || wanted.includes(g.id)))

export function filterControls(
  texts: Texts,
  groups: FilterGroup[],
  chosen: string[],
  onChange: () => void,
  /** The finder's life: the page-wide listener goes with it. */
  life: AbortSignal,
): Filters {
  const inputs: (HTMLInputElement | HTMLSelectElement)[] = []
  /** Each single-tag group's "Any" radio, with the group's tags. */
  const anys: [HTMLInputElement, string[]][] = []
  const swatch = (color: string | undefined) =>
    color ? h('span', { class: 'sl-swatch', style: `background:${color}`, 'aria-hidden': 'true' }) : null

  const toggles = (g: FilterGroup, name: string) =>
    g.tags.map((tag) => {
      const input = h('input', {
        type: g.singleSelect ? 'radio' : 'checkbox',
        name,
        value: tag.value,
        checked: chosen.includes(tag.value),
        onchange: onChange,
      })
      inputs.push(input)
      return h('label', { class: 'sl-chip' }, input, swatch(tag.color), h('span', {}, tag.label))
    })

  const dropdowns: HTMLDetailsElement[] = []
  document.addEventListener(
    'pointerdown',
    (e) => {
      for (const d of dropdowns) if (d.open && !e.composedPath().includes(d)) d.open = false
    },
    { signal: life },
  )

  const lone = groups.length === 1
  const group = (given: FilterGroup) => {
    const g = { ...given, label: shownGroupName(given.id, given.label, texts.other) }
    const name = uniqueId(`group-${g.id}`)
    const inline = g.inline || lone
    if (g.singleSelect && !inline) {
      const id = uniqueId('select')
      const select = h(
        'select',
        { id, class: 'sl-select', onchange: onChange },
        h('option', { value: '' }, texts.any),
        g.tags.map((tag) => h('option', { value: tag.value, selected: chosen.includes(tag.value) }, tag.label)),
      )
      inputs.push(select)
      return h('div', { class: 'sl-field' }, h('label', { for: id }, g.label), select)
    }
    const any = g.singleSelect
      ? (() => {
          const input = h('input', {
            type: 'radio',
            name,
            value: '',
            checked: !g.tags.some((tag) => chosen.includes(tag.value)),
            onchange: onChange,
          })
          anys.push([input, g.tags.map((tag) => tag.value)])
          return h('label', { class: 'sl-chip' }, input, h('span', {}, texts.any))
        })()
      : null
    const items = [any, ...toggles(g, name)]
    if (inline) {
      // Alone, the default group ("Other") is named by the filters' own summary; a named group keeps its name.
      const legend = h('legend', lone && g.id === DEFAULT_FILTER_GROUP ? { class: 'sl-visually-hidden' } : {}, g.label)
      return h('fieldset', { class: 'sl-group' }, legend, h('div', { class: 'sl-chips' }, items))
    }
    // A dropdown of toggles: <details> opens and closes by keyboard and pointer alike, and closes as
    // a menu does: on Escape, or when the pointer or focus goes elsewhere, so it never covers the list.
    const summary = h('summary', {}, g.label)
    const dropdown = h(
      'details',
      {
        class: 'sl-dropdown',
        onkeydown: (e: Event) => {
          if ((e as KeyboardEvent).key !== 'Escape' || !dropdown.open) return
          dropdown.open = false
          summary.focus()
          e.stopPropagation()
        },
        // Focus moved to an element outside (Tab); a click on nothing focusable is the pointer's.
        onfocusout: (e: Event) => {
          const to = (e as FocusEvent).relatedTarget
          if (to instanceof Node && !dropdown.contains(to)) dropdown.open = false
        },
      },
      summary,
      h('fieldset', { class: 'sl-group' }, h('legend', { class: 'sl-visually-hidden' }, g.label), items),
    )
    dropdowns.push(dropdown)
    return dropdown
  }

  // One disclosure for them all: open where there is room, a single line on a phone.
  const element = h(
    'details',
    { class: 'sl-filters-box' },
    h('summary', { class: 'sl-filters-summary' }, texts.filters),
    h('div', { class: 'sl-filters', role: 'group', 'aria-label': texts.filters }, groups.map(group)),
  )
  const selected = () =>
    inputs.flatMap((input) =>
      input instanceof HTMLSelectElement
        ? input.value
          ? [input.value]
          : []
        : input.checked && input.value
          ? [input.value]
          : [],
    )
  const choose = (tags: string[]) => {
    for (const input of inputs)
      if (input instanceof HTMLSelectElement)
        input.value = [...input.options].find((o) => o.value && tags.includes(o.value))?.value ?? ''
      else input.checked = tags.includes(input.value)
    for (const [any, values] of anys) if (!values.some((v) => tags.includes(v))) any.checked = true
  }
  return { element, selected, choose, groups }
}

/** The width from which the filters show open: a row of toggles beside each other, not a phone's column. */
const OPEN_FROM_PX = 600

/**
 * Opens the filters where `host` has room for them, or when some are chosen. A host not laid out
 * yet (in a hidden tab: no width) decides once it first has a width, unless the visitor opened or
 * closed them meanwhile.
 */
export function openWhereRoom(filters: HTMLDetailsElement, host: HTMLElement, chosen: boolean, signal: AbortSignal) {
  if (chosen || host.clientWidth >= OPEN_FROM_PX) filters.open = true
  if (chosen || host.clientWidth > 0 || typeof ResizeObserver === 'undefined') return
  let toggled = false
  filters.addEventListener('toggle', () => (toggled = true), { once: true, signal })
  const sized = new ResizeObserver(() => {
    if (host.clientWidth === 0) return
    sized.disconnect()
    if (!toggled && host.clientWidth >= OPEN_FROM_PX) filters.open = true
  })
  sized.observe(host)
  signal.addEventListener('abort', () => sized.disconnect(), { once: true })
}
