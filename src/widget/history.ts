// The finder's searches as entries of the browser's history. A search the visitor commits (a place
// picked, Enter, their position, a settled filter change) is a new entry as it is asked, answered,
// failed or waiting still, so Back returns to the one before; what happens on the way (an answer's
// details, a store picked) replaces the entry. The entries it writes are marked: Back and Forward
// to those alone restore a search, so a single-page app's router keeps its own.
import { firstSearch, readState, type SearchState, searchQuery, withState } from './url-state'

/** The key of the mark in history.state, beside a router's own keys. */
const MARK = 'storeloc'

/** Filter changes closer together than this are one, with one entry: a visitor ticking three boxes. */
const SETTLE_MS = 1500

/** The key naming the finder whose map shown alone over its list the entry is (view-switch.ts). */
export const MAP_LAST = 'storelocMapLast'

/**
 * The key, per finder, of the search its entry was asked as (a town typed, before its answer named
 * its point): the same asked again is that entry's, no new one. Its store picked aside; its unit
 * kept, as 25 km is another search than 25 miles.
 */
const ASKED = 'storelocAsked:'

/** The key, per finder, of a list's entry with its map shown alone in the entry after it (view-switch.ts). */
const OVER = 'storelocMapOver:'
export const overKey = (prefix: string): string => `${OVER}${prefix}`

/** `state` with no entry after it: none of the finders' maps is shown in the next (an entry pushed drops those after it). */
export const last = (state: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(state).filter(([k]) => !k.startsWith(OVER)))

/** The key of when an entry was pushed: an entry come to by a step is after the one left, or before it. */
const PUSHED = 'storelocPushed'

/** The key of when the entry a push left was pushed: Back one step from the entry pushed goes to it. */
const AFTER = 'storelocAfter'

const now = () => performance.timeOrigin + performance.now()

/** `state`'s stamp of `key` (PUSHED, AFTER); a router's state has none. */
const stamp = (state: unknown, key = PUSHED) => (state as Record<string, number> | null)?.[key]

/** How the page was opened: 'navigate', 'reload' or 'back_forward' (Back or Forward from another page). */
export const opened = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type

/**
 * The stamp of the entry pushed last and the history's length then: while both hold, no entry is
 * after it. A page opened (or reloaded) at an entry is taken to be at the last, but by Back or Forward.
 */
let tip = opened === 'back_forward' ? '' : `${stamp(history.state)} ${history.length}`

/** Pushes `state` (stamped with when, the last entry, after the current one) as a new entry at `href`. */
export function pushEntry(state: Record<string, unknown>, href: string): void {
  const at = now()
  history.pushState({ ...last(state), [PUSHED]: at, [AFTER]: stamp(history.state) }, '', href)
  tip = `${at} ${history.length}`
}

/** The state of the entry a push leaves, stamped (a page's first entry is not pushed) and the last no more. */
export const leaving = (state: Record<string, unknown>): Record<string, unknown> => ({
  [PUSHED]: now(),
  ...last(state),
})

/**
 * Whether the entry `to`, come to by a step from `from`, was pushed after it: the step was Forward.
 * Not known, and false, when either is not the widget's (a router's own entry).
 */
export function forward(from: unknown, to: unknown): boolean {
  // A stamp missing is undefined: no comparison with it holds.
  return stamp(to)! > stamp(from)!
}

/** The Navigation API's part read here (not in every browser). */
type Entries = EventTarget & {
  currentEntry: { index: number } | null
  entries: () => { sameDocument: boolean; url: string | null }[]
}

/** The Navigation API's navigate event's part read here. */
type Navigate = Event & { destination: { index: number } }

/** The Navigation API, where the browser has it. */
const nav = (globalThis as { navigation?: Entries }).navigation

/**
 * Whether the entry after the current one is of this page, at its address but for the search of
 * `prefix`'s finder (a store picked since), its fragment this one's or none (this one set by the
 * page since, as it scrolls): not a router's route (a hash router's #/about too), nor another page,
 * pushed since (a push drops the entries after). Not known without the Navigation API: false then, as a
 * router's push from the list, then Back past the list in one step (history.go(-2)), shows the
 * finder no step at all.
 */
export function nextHere(prefix: string): boolean {
  const next = nav?.currentEntry && nav.entries()[nav.currentEntry.index + 1]
  const url = next?.sameDocument && next.url
  if (!url) return false
  // The fragment is all after the first '#', as location.hash has it.
  const hash = new URL(url).hash
  return pageOf(url, prefix) === pageOf(location.href, prefix) && (!hash || hash === location.hash)
}

/**
 * `href` without the search of `prefix`'s finder nor its fragment: the page's own address. A link to
 * a part of it followed (#stores), or its fragment replaced as it scrolls, leaves the page where it is.
 */
const pageOf = (href: string, prefix: string) => withState(href.split('#')[0]!, firstSearch(null, null), prefix)

/** Whether `state` takes the finder's keys: none, or a plain object (not a router's array, Map or Date, whose shape a copy loses). */
function plain(state: unknown): state is Record<string, unknown> | null {
  return (
    state === null || (typeof state === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(state)))
  )
}

/** The current entry's state with the mark; null when it is not a plain object (a router's own value), kept then. */
export function marked(): Record<string, unknown> | null {
  const state: unknown = history.state
  return plain(state) ? { ...state, [MARK]: true } : null
}

/** `text` as the service compares names: no case, no accents ("Zürich" is "zurich"). */
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()

/** SearchEntries' hold: Back from a waiting search is going Forward at once; then, its search is dropped. */
const BOUNCE = 1
const DROPPED = 2

// A router's string or number state has no such key.
const isMarked = (state: unknown): boolean => (state as Record<string, unknown> | null)?.[MARK] === true

export class SearchEntries {
  /** The next search written is a new entry. */
  #pushNext = false
  #changedAt = -Infinity
  /** Writes `href` its own way, `asked` into its entries, when its map is shown alone over its list (view-switch.ts); false: not so. */
  overMap: ((href: string, push: boolean, asked: Record<string, unknown>) => boolean) | null = null
  /** Called once it wrote the current entry its own way (view-switch.ts keeps the entry in sight). */
  wrote: (() => void) | null = null
  /** The page's address where the finder started, without its search. */
  readonly #home: string
  /**
   * Whether the entry in sight, come to by a step, is not the finder's: unmarked, at another address
   * than its start's (a router's route). Its search is written there by no answer, only pushed over it.
   */
  #away = false
  /** The search the entry in sight was asked as (ASKED), as of the last step or write. */
  #asked: unknown
  /** Whether the entry come to by the last step was asked as the one it left: its search is the one shown. */
  #same = false
  /**
   * The hold of a search waiting for its answer to tell whether it is an entry of its own (write):
   * the entry in sight meanwhile; BOUNCE while the step Back from it goes Forward at once; DROPPED
   * in the step after, which takes up the entry's search, even as the one shown (another finder's
   * step); else none (0).
   */
  #hold: unknown = 0
  /** The index of the entry in sight as the search held began to wait (Navigation API): a step before it is Back past it. */
  #at?: number
  /** The address of the entry in sight as the search held began to wait. */
  #heldAt = ''
  constructor(
    /** The finder's URL parameters' prefix (url-state.ts). */
    readonly prefix: string,
    /** The finder's life: it follows the history until it ends. */
    readonly life: AbortSignal,
  ) {
    const page = () => pageOf(location.href, prefix)
    this.#home = page()
    // Before any other listener of the finder's (view-switch.ts's may write the search).
    const stepped = (e: PopStateEvent) => {
      const held = this.#hold
      this.#hold = held === BOUNCE ? DROPPED : +this.#holds(forward(e.state, held))
      // A search held for its answer (write) is an entry of the step's no more.
      this.#pushNext = false
      // The entry before is not taken up on the way: no listener after this one sees the step.
      if (this.#hold === BOUNCE) {
        e.stopImmediatePropagation()
        // Back further than the entry the one held was pushed after, or from an entry with entries
        // after it (a push would drop them): Forward one from there.
        const to = stamp(e.state)
        if ((stamp(held, AFTER) ?? to) !== to || tip !== `${stamp(held)} ${history.length}`) return history.forward()
        // Back one step from the last entry: it is pushed again, and each listener told of the step to
        // it. No history.forward(), which Chromium drops as the visitor steps again, ending every request.
        history.pushState(held, '', this.#heldAt)
        return dispatchEvent(new PopStateEvent('popstate', { state: held }))
      }
      this.#away = !isMarked(e.state) && page() !== this.#home
      const asked = (e.state as Record<string, unknown> | null)?.[ASKED + prefix]
      this.#same = asked !== undefined && asked === this.#asked
      this.#asked = asked
    }
    addEventListener('popstate', stepped, { signal: life })
  }

  /**
   * Whether a step, Back (`back`) while a search waits for its entry, drops that search: the entry
   * left is the one before it, and the one held is shown again; but for its own map shown alone,
   * whose Back shows the list, the search under it (view-switch.ts).
   */
  #holds(back: boolean): boolean {
    return (
      this.#pushNext &&
      back &&
      (this.#hold as Record<string, unknown> | null)?.[MAP_LAST] !== `storelocMap:${this.prefix}`
    )
  }

  /** The visitor committed a search: it is written as a new entry as it is asked (widget.ts), so a failed one is an entry too. */
  commit(): void {
    this.#pushNext = true
  }

  /** A filter changed: a new entry, unless the last change was within SETTLE_MS (its entry is this one's). */
  changed(): void {
    const now = performance.now()
    if (now - this.#changedAt > SETTLE_MS) this.#pushNext = true
    this.#changedAt = now
  }

  /**
   * Writes `state` into the address; `asked`: the search as asked, when it is asked or answered (a
   * new entry when one was committed, unless the entry in sight is the same search: asked or
   * answered as it, its store aside); `failed`: its answer failed, an entry then, as asked.
   */
  write(state: SearchState, asked?: SearchState, failed?: boolean): void {
    const key = ASKED + this.prefix
    // A place is its point, its name aside: "10115 Berlin, Germany" at Berlin's is the search of
    // "Berlin, Germany". As asked, it keeps its name: a step to an entry of its other name shows that.
    const bare = (s: SearchState | null, named?: boolean) =>
      s &&
      searchQuery({
        ...s,
        selected: null,
        origin: s.origin?.kind === 'place' && !named ? { ...s.origin, label: '' } : s.origin,
      })
    const as = asked && bare(asked, true)
    const now: unknown = history.state
    const shown = readState(location.href, this.prefix)
    // The same search as the entry's is no new one: as it was asked (a town typed again), or as
    // its address holds it answered (the place picked that a town typed was answered as).
    const push =
      as !== undefined &&
      this.#pushNext &&
      (now as Record<string, unknown> | null)?.[key] !== as &&
      bare(state) !== bare(shown)
    const o = state.origin
    const at = shown?.origin
    // Text that may be answered as the place shown ("London" over "London, United Kingdom", "zurich"
    // over "Zürich, Switzerland": case and accents aside, as the service reads it; a postcode, which
    // may be at its point): its entry waits for the answer, which tells whether it is that place
    // (replaced) or not (pushed); meanwhile the entry in sight keeps its search (a store picked goes
    // in with the answer).
    if (
      (push || !asked) &&
      this.#pushNext &&
      !failed &&
      o?.kind === 'near' &&
      at?.kind === 'place' &&
      (fold(at.label).startsWith(fold(o.text)) || /\d/.test(o.text))
    )
      return void ((this.#hold = now), (this.#heldAt = location.href), (this.#at = nav?.currentEntry?.index))
    if (asked) this.#hold = this.#pushNext = false
    if (this.#away && !push) return
    this.#away = false
    const href = withState(location.href, state, this.prefix)
    if (href === location.href) return
    if (asked) this.#asked = as
    if (this.overMap?.(href, push, { [key]: as })) return
    const mark = push ? marked() : null
    if (mark === null) history.replaceState(asked && plain(now) ? { ...now, [key]: as } : now, '', href)
    else {
      // The entry left is one to come back to: marked too, its map's entry after it gone. The one
      // pushed keeps a map's keys (Back to it shows that map), but is no map shown over its list.
      history.replaceState(leaving(mark), '')
      delete mark[MAP_LAST]
      pushEntry({ ...mark, [key]: as }, href)
    }
    this.wrote?.()
  }

  /**
   * Back or Forward to an entry the finder wrote: `restore` with its search (null: none, the
   * finder's first), unless, its store aside, that is one of `shown()`'s (the search shown, as
   * answered and as asked) or was asked as the entry left was; then, `only`, its store alone when
   * it is not the one shown (the answer is there: nothing is asked again).
   */
  follow(shown: () => SearchState[], restore: (state: SearchState | null, only?: boolean) => void): void {
    const take = () => {
      const [to, all] = [readState(location.href, this.prefix), shown()]
      const id = to?.selected ?? null
      const here = (s: SearchState) => withState(location.href, { ...s, selected: id }, this.prefix) === location.href
      if (this.#hold === DROPPED || (!this.#same && !all.some(here))) restore(to)
      else if (id !== all[0]!.selected) restore(to, true)
    }
    addEventListener('popstate', (e) => isMarked(e.state) && take(), { signal: this.life })
    // With the Navigation API that Back is cancelled: no step for a router or another finder to see,
    // and a second Back at once goes on from the entry in sight (Chromium drops a Forward asked meanwhile).
    nav?.addEventListener(
      'navigate',
      (e) => {
        // Back within the page to the entry before the one held (not from a host's entry pushed
        // after it); a push or replace goes to no entry (-1). A step further back is not cancelled:
        // the search waiting is one of its steps, and popstate goes Forward one from where it lands.
        const to = (e as Navigate).destination.index
        if (e.cancelable && to >= 0 && this.#holds(to === this.#at! - 1)) {
          e.preventDefault()
          this.#hold = DROPPED
          this.#pushNext = false
          // The entry in sight shows the finder's search, in its address: taken up, marked or not.
          take()
        }
      },
      { signal: this.life },
    )
  }
}
