// On a phone, where the map comes after the whole list (widget.css), a button floating at the
// screen's foot switches to the map, taller in the list's place, and back: a list with a switch to
// a full map. Wider, list and map stand side by side and the button is not shown. The map shown
// alone is an entry of the browser's history, as a page of its own would be: Back shows the list.
import { h } from './dom'
import {
  forward,
  last,
  leaving,
  MAP_LAST,
  marked,
  nextHere,
  opened,
  overKey,
  pushEntry,
  type SearchEntries,
} from './history'
import type { Texts } from './i18n'

export type ViewSwitch = {
  element: HTMLButtonElement
  /** With no store found there is nothing to switch between: no button. */
  found: (any: boolean) => void
  /** The list shown, `item` in sight: a pin pressed on the map, a page opened on a store picked. */
  toList: (item: Element) => void
}

/** Where the finder keeps the map's entries: its searches' entries; `settle` writes its search into the address. */
export type MapEntries = { searches: SearchEntries; settle: () => void }

type State = Record<string, unknown> | null

/** history.state as an object, or null when it is a router's own value, left alone then. */
const state = (): State => {
  const s: unknown = history.state
  return s === null || typeof s === 'object' ? { ...(s as State) } : null
}
const inSight = () => ({ state: state(), href: location.href })

/**
 * Whether `to` (a copy of the entry's state) is the entry of the map showing `shut` (left by the
 * button or a pin under another finder's map entry), which is then written as its list's entry.
 */
function unshown(to: State, key: string, since: string, shut: unknown): boolean {
  if (shut == null || to?.[MAP_LAST] !== key || to[since] !== shut) return false
  delete to[key]
  delete to[MAP_LAST]
  history.replaceState(to, '')
  return true
}

/**
 * Drops `over`, a list's mark of its map's entry after it, from the entry in sight. The mark holds
 * while the finder saw every step from the entry (history.ts's nextHere, with the Navigation API,
 * checks it too).
 */
function unmark(over: string): void {
  const s = state()
  if (!s || !(over in s)) return
  delete s[over]
  history.replaceState(s, '')
}

/**
 * Unmarks the entry a step from `left` (as the finder saw it) came to, but from its map's entry
 * (`since` the showing it marks) or by Forward: a router's entry pushed unseen may have been left.
 */
function unmarkFrom(left: State, over: string, since: string): void {
  const to = history.state as State
  if (left?.[since] !== to?.[over] && !forward(left, to)) unmark(over)
}

/**
 * Forward to a list whose map's entry is after it (its `over` mark), side by side, changes nothing in
 * sight: the finder goes on to the map's, where Back left it, while that is still the next entry.
 * It is when the finder stepped Back from that list itself and has not come to it since: nothing can
 * push after the list until it is in sight again (a push from an entry before it drops it too). Else
 * only the Navigation API knows (nextHere).
 */
function forwardOn(over: string, since: string, prefix: string) {
  /** The mark of the list the finder stepped Back from, till a step comes to it. */
  let own: unknown
  return {
    /** Steps Back from the list in sight, `to`. */
    back: (to: State) => {
      own = to?.[over]
      history.back()
    },
    /** At each step from `left` (unmarkFrom first): whether it came Forward to such a list. */
    step: (left: State): boolean => {
      unmarkFrom(left, over, since)
      const to = state()
      const next = to?.[over]
      const mine = next !== undefined && next === own
      if (mine) own = undefined
      return next !== undefined && forward(left, to) && (mine || nextHere(prefix))
    },
  }
}

/**
 * Hides `button`, floating at the screen's foot, while it stands over `map` in sight, the list's
 * switch to it (widget.css): what it would show is there, and it would cover the map's middle, a
 * few stores' pins. It keeps its place hidden, and shows again once off the map: the list in sight,
 * or its own place after the map reached.
 */
function offMap(root: HTMLElement, button: HTMLElement, map: HTMLElement, life: AbortSignal): () => void {
  let asked = false
  const check = () => {
    asked = false
    const [b, m] = [button.getBoundingClientRect(), map.getBoundingClientRect()]
    const alone = root.classList.contains('sl-map-view')
    button.classList.toggle('sl-view-over', !alone && b.height > 0 && b.top < m.bottom && b.bottom > m.top)
  }
  const soon = () => {
    if (!asked) requestAnimationFrame(check)
    asked = true
  }
  // Scrolled (the page, or a box holding the finder), the screen's height changed (a browser's bar
  // hidden); the stores drawn or the screen turned move the map.
  for (const type of ['scroll', 'resize']) addEventListener(type, soon, { passive: true, capture: true, signal: life })
  const observer = new ResizeObserver(soon)
  for (const el of [root, map]) observer.observe(el)
  life.addEventListener('abort', () => observer.disconnect())
  return soon
}

/**
 * The switch of `root`'s `list` and `map`; the class sl-map-view on `root` shows the map alone.
 * `mapShown` is called as it does: the map shows the stores listed, those added since its fit too.
 * With `entries` (the finder keeps its search in the address), the map shown is a new entry of
 * the browser's history over the list's, its key in history.state holding the list's address.
 * Leaving it by the button or a pin steps back from it, so no later Back is spent on a map gone.
 * A search made on the map alone is an entry of the list under the map's, as made on the list:
 * Back shows that list, then the search before. Its popstate listener goes before the finder's
 * (history.ts), which then finds the address its search's.
 * What an entry shows is in its history.state, so a reload keeps it: the switch keeps only the
 * entry in sight, to tell by a step's popstate where it came from.
 */
export function viewSwitch(
  root: HTMLElement,
  texts: Texts,
  list: HTMLElement,
  map: HTMLElement,
  mapShown: () => void,
  life: AbortSignal,
  entries: MapEntries | null = null,
): ViewSwitch {
  const button = h('button', { type: 'button', class: 'sl-button sl-view', hidden: true }, texts.showMap)
  const prefix = entries?.searches.prefix ?? ''
  const key = `storelocMap:${prefix}`
  /** When the map was shown alone, in its entries: which showing of it an entry is. */
  const since = `storelocMapSince:${prefix}`
  /**
   * In the entry its list was shown in under another finder's map entry (and those pushed after
   * it): the showing of its own map left in place below, whose entry Back shows as the list.
   */
  const shut = `storelocMapShut:${prefix}`
  /** In a list's entry: the showing of its map alone in the entry after it. */
  const over = overKey(prefix)
  const onMap = () => root.classList.contains('sl-map-view')
  const placed = offMap(root, button, map, life)
  const show = (map: boolean) => {
    root.classList.toggle('sl-map-view', map)
    button.textContent = map ? texts.showList : texts.showMap
    placed()
  }
  // Unmarked when come to by no step it saw (Back or Forward from another page, the cache); a reload keeps it.
  if (entries && opened !== 'reload') unmark(over)
  if (entries) addEventListener('pageshow', (e) => void (e.persisted && unmark(over)), { signal: life })
  const onward = forwardOn(over, since, prefix)
  /** The entry in sight (a reloaded page's too), as the switch last saw or wrote it. */
  let seen = inSight()
  /** Whether the entry is this finder's map shown alone, right over its list (a page's other finder pushes none such). */
  const isOver = (s: State) => onMap() && s?.[MAP_LAST] === key && typeof s[key] === 'string'
  /** Whether list and map stand side by side (a wide box: a phone on its side), where the map alone shows nothing more (widget.css). */
  const sideBySide = () => root.clientWidth > 0 && !stacked()
  const stacked = () => list.parentElement !== null && getComputedStyle(list.parentElement).display !== 'grid'
  /** Whether a search found stores since the finder started. */
  let foundAny = false
  /** What the list does once shown again: by the history's step back, or at once. */
  let returning: (() => void) | null = null
  const toMap = () => {
    const s = marked()
    if (entries && s && !onMap()) {
      // The list's entry is one to come back to: marked, as a search's is, and the map's after it.
      const showing = Date.now()
      history.replaceState({ ...leaving(s), [over]: showing }, '')
      pushEntry({ ...s, [key]: location.href, [MAP_LAST]: key, [since]: showing }, location.href)
      seen = inSight()
    }
    show(true)
    // What it shows comes in sight, where the map began.
    map.scrollIntoView({ block: 'nearest' })
    mapShown()
  }
  /** `then` once the list shows; `back`, by the history's step, after the browser's scroll (where the list was left). */
  const toList = (then: () => void, back: () => void) => {
    if (returning) return // its step back is on its way: a second press would take another
    const s = state()
    if (entries && isOver(s)) {
      // The entry the map was shown in goes, as Back would take it: Forward shows the map again.
      returning = () => requestAnimationFrame(back)
      history.back()
      return
    }
    if (s && key in s) {
      // Another finder's map entry is over this one's, which is left below: it is this map's no more.
      if (s[since] !== undefined) s[shut] = s[since]
      delete s[key]
      history.replaceState(s, '')
      seen = inSight()
    }
    show(false)
    then()
  }
  if (entries) {
    const { searches, settle } = entries
    searches.wrote = () => void (seen = inSight())
    searches.overMap = (href, push, asked) => {
      const s = marked()
      if (s === null || !isOver(s) || !push) return false
      // The search made goes under the map: this entry becomes its list's, the map's a new one over it.
      const under = { ...last(s), [over]: s[since], ...asked }
      delete under[key]
      delete under[MAP_LAST]
      history.replaceState(under, '', href)
      pushEntry({ ...s, [key]: href, ...asked }, href)
      seen = inSight()
      return true
    }
    addEventListener(
      'popstate',
      () => {
        const { state: left, href: leftAt } = seen
        const forwardToList = onward.step(left)
        seen = inSight()
        const to = seen.state
        const mapEntry = typeof to?.[key] === 'string'
        // Now the list's, as the entry below it is: Back goes on to it, as nothing in sight would change.
        if (mapEntry && unshown(to, key, since, left?.[shut])) {
          seen = inSight()
          return history.back()
        }
        const then = returning
        // The list under the map shown alone left, at its address or the one the map's entry had.
        const under = typeof left?.[key] === 'string' && (location.href === left[key] || location.href === leftAt)
        // Wider (a phone turned on its side), list and map stand side by side (widget.css).
        const alone = getComputedStyle(list).display === 'none'
        returning = null
        // Forward, side by side, to a list its map's entry is still after: it goes on to the map's.
        if (!mapEntry && !onMap() && forwardToList && sideBySide()) return history.forward()
        // Shown already; or a link to a part of the page (#stores) followed: no state, the address left's but its fragment.
        if (mapEntry === onMap() || (!history.state && leftAt.split('#')[0] + location.hash === location.href)) return
        show(mapEntry)
        if (mapEntry) return mapShown()
        // Back to the list under the map, or left by the button or a pin: the list shows the
        // search as it stands (a filter set on the map, a store picked), not the entry's as it
        // was: the finder's listener has nothing to take up.
        if (then || under) settle()
        if (then) then()
        // Side by side, Back from the map's entry changed nothing in sight: it goes on to the step before.
        else if (under && !alone && root.clientWidth > 0) onward.back(to)
      },
      { signal: searches.life },
    )
  }
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
      placed()
      // A page opened again at the map's entry (a reload, Back from another page): the map shown.
      if (any && entries && !foundAny && typeof state()?.[key] === 'string') show(true)
      foundAny ||= any
    },
    toList: (item) => {
      const fromMap = onMap()
      // From the map alone the list comes back around it: the store is brought to the top.
      const bring = () => item.scrollIntoView({ block: fromMap ? 'start' : 'nearest' })
      toList(bring, bring)
    },
  }
}
