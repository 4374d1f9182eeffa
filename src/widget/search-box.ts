// The place box: a combobox (WAI-ARIA 1.2) that suggests places from GET /places as the visitor
// types. Arrow keys move through the suggestions, Enter picks one, Escape closes the list, Down
// opens it again.
import type { Place } from './api'
import { handedOn } from './busy'
import { h, uniqueId } from './dom'
import { t, type Texts } from './i18n'

export type PlaceBox = {
  input: HTMLInputElement
  element: HTMLElement
  /** The place picked from the list, while the box still shows its label. */
  picked: () => Place | null
  setText: (text: string, picked?: Place | null) => void
  close: () => void
}

/**
 * A question for suggestions: `show` shows its answer once no press begun elsewhere lasts; `end`
 * drops it, for a newer question asked with `next` when there is one.
 */
type Asked = { signal: AbortSignal; end: (next?: AbortSignal) => void; show: (show: () => void) => void }

/**
 * A question asked from the place box `element`. Its answer waits while a press begun outside the
 * box lasts, as a list opening under a finger would take its tap: a tap or click there drops it
 * (the visitor has moved on), a press that turns into a scroll lets it open.
 */
function question(element: HTMLElement): Asked {
  const controller = new AbortController()
  const end = (next?: AbortSignal) => controller.abort(next && handedOn(next))
  let pressed = false
  let held: (() => void) | null = null
  const outside = (type: string, then: () => void) =>
    document.addEventListener(type, (e) => element.contains(e.target as Node) || then(), {
      capture: true,
      signal: controller.signal,
    })
  outside('pointerdown', () => (pressed = true))
  outside('pointerup', () => pressed && end())
  outside('pointercancel', () => {
    pressed = false
    held?.()
  })
  return {
    signal: controller.signal,
    end,
    show: (show) => {
      held = () => {
        end() // its listeners go
        show()
      }
      if (!pressed) held()
    },
  }
}

const MIN_CHARS = 2
const DEBOUNCE_MS = 120

/** The box's elements: the labelled input, its list of suggestions, and the count read out. */
function boxElements(texts: Texts) {
  const listId = uniqueId('places')
  const inputId = uniqueId('place')
  const input = h('input', {
    id: inputId,
    class: 'sl-input',
    type: 'text',
    role: 'combobox',
    autocomplete: 'off',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    'aria-controls': listId,
    placeholder: texts.placeHint,
  })
  const list = h('ul', {
    id: listId,
    class: 'sl-suggestions',
    role: 'listbox',
    'aria-label': texts.place,
    hidden: true,
  })
  const count = h('span', { class: 'sl-visually-hidden', 'aria-live': 'polite' })
  const element = h(
    'div',
    { class: 'sl-field sl-place' },
    h('label', { for: inputId }, texts.place),
    h('div', { class: 'sl-combo' }, input, list),
    count,
  )
  return { input, list, count, element, listId }
}

export function placeBox(
  texts: Texts,
  suggest: (q: string, signal: AbortSignal) => Promise<Place[]>,
  onPick: (place: Place) => void,
): PlaceBox {
  const { input, list, count, element, listId } = boxElements(texts)
  let places: Place[] = []
  let active = -1
  let picked: Place | null = null
  let timer = 0
  let pending: Asked | null = null

  function render() {
    list.replaceChildren(
      ...places.map((p, i) =>
        h(
          'li',
          {
            id: `${listId}-${i}`,
            role: 'option',
            class: 'sl-suggestion',
            'aria-selected': i === active ? 'true' : 'false',
            // mousedown, not click: the input keeps its focus, so the list is not closed first.
            onmousedown: (e) => {
              e.preventDefault()
              pick(i)
            },
          },
          p.label,
        ),
      ),
    )
    const open = places.length > 0
    list.hidden = !open
    input.setAttribute('aria-expanded', String(open))
    if (active >= 0) input.setAttribute('aria-activedescendant', `${listId}-${active}`)
    else input.removeAttribute('aria-activedescendant')
  }

  function close() {
    pending?.end()
    clearTimeout(timer)
    places = []
    active = -1
    render()
  }

  function pick(i: number) {
    const place = places[i]
    if (!place) return
    input.value = place.label
    picked = place
    close()
    onPick(place)
  }

  /** A new question: the last one's answer is no longer wanted. */
  function asking(): Asked {
    const next = question(element)
    pending?.end(next.signal)
    pending = next
    return next
  }

  async function ask(q: string, asked = asking()) {
    try {
      const found = await suggest(q, asked.signal)
      if (asked.signal.aborted || input.value.trim() !== q) return asked.end()
      asked.show(() => {
        places = found
        active = -1
        render()
        count.textContent = t(texts, 'suggestions', { n: found.length })
      })
    } catch {
      // A failed suggestion leaves the list as it was; the search itself reports errors.
      asked.end()
    }
  }

  input.addEventListener('input', () => {
    picked = null
    clearTimeout(timer)
    const q = input.value.trim()
    if (q.length < MIN_CHARS) return close()
    // Asked from now: a press elsewhere while it waits counts too.
    const asked = asking()
    timer = window.setTimeout(() => ask(q, asked), DEBOUNCE_MS)
  })
  input.addEventListener('keydown', (e) => {
    // How far an arrow key moves through the suggestions: 1, -1, or 0 for any other key.
    const step = places.length === 0 ? 0 : e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0
    const q = input.value.trim()
    if (e.key === 'ArrowDown' && places.length === 0 && q.length >= MIN_CHARS) {
      // A closed list opens again, as after typing (after Escape, or a pick).
      e.preventDefault()
      clearTimeout(timer)
      void ask(q)
    } else if (step !== 0) {
      e.preventDefault()
      active = (active + step + places.length + 1) % (places.length + 1)
      if (active === places.length) active = -1
      render()
    } else if (e.key === 'Enter' && active >= 0) {
      e.preventDefault()
      pick(active)
    } else if (e.key === 'Escape') {
      // A question on its way (waiting for a starting service) is dropped too: no list opens after.
      if (places.length > 0) e.preventDefault()
      close()
    }
  })
  input.addEventListener('blur', () => window.setTimeout(close, 0))

  return {
    input,
    element,
    picked: () => (picked && input.value === picked.label ? picked : null),
    setText: (text, place = null) => {
      input.value = text
      picked = place
    },
    close,
  }
}
