// A finder's answer as a list: the stores found, in order, their items, and "More" while the
// service has further pages of them. The finder says the counts and moves the map.
import { type Location, type LocationsAnswer, SAY_WAITING_MS, type Waiting } from './api'
import { append, h } from './dom'
import type { Texts } from './i18n'
import { listKeys } from './results'

export class StoreList {
  /** The stores listed, the nearest beyond the radius when none is within it. */
  stores: Location[] = []
  /** The search's total of stores, of which the list holds its first pages. */
  total = 0
  readonly list: HTMLOListElement
  readonly box: HTMLDivElement
  readonly #more: HTMLButtonElement
  /** Under "Show more stores" while its page waits for the service: where the visitor looks, the status line far above. */
  readonly #moreBusy: HTMLParagraphElement
  /** The further pages' waits that show #moreBusy. */
  #waits = 0
  readonly #item: (location: Location, n: number) => HTMLElement
  /** On a phone, the list-or-map switch: whether there is a list to show. */
  readonly #found: (any: boolean) => void
  readonly #texts: Texts

  constructor(
    texts: Texts,
    label: string,
    item: (location: Location, n: number) => HTMLElement,
    found: (any: boolean) => void,
    /**
     * The search's next page asked for, and shown: settled once answered, failed or aborted. `since`:
     * when the visitor first pressed for it, asked again.
     */
    more: (since?: number) => Promise<void>,
  ) {
    ;[this.#item, this.#found, this.#texts] = [item, found, texts]
    this.list = h('ol', { class: 'sl-list', 'aria-label': label })
    this.#more = h('button', { type: 'button', class: 'sl-button sl-more', hidden: true }, texts.more)
    // Pressed again before its busy text shows (a double click): its page is on its way still. Once
    // it shows, the request waited on is given up and the page asked afresh, within the 90 s of
    // the first press, its busy text said still (a service that took it and never answers). One
    // asked afresh is waited on as long before another press asks again: a key held down, or a
    // double click, asks once.
    let [presses, asking, since, asked] = [0, false, 0, 0]
    this.#more.addEventListener('click', () => {
      if (asking && (this.#moreBusy.hidden || Date.now() - asked < SAY_WAITING_MS)) return
      const press = ++presses
      const again = asking
      asking = true
      asked = Date.now()
      if (!again) since = asked
      void more(again ? since : undefined).finally(() => press === presses && (asking = false))
    })
    // Not read out: the status line, a live region, says the same.
    this.#moreBusy = h('p', { class: 'sl-more-busy', 'aria-hidden': 'true', hidden: true })
    this.box = h('div', { class: 'sl-results' }, this.list, this.#more, this.#moreBusy)
    listKeys(this.list)
  }

  /** No store listed; `answered`: a search was answered (or failed), so the empty list gives up its room. */
  clear(answered: boolean): void {
    this.stores = []
    this.list.replaceChildren()
    this.#found(false)
    // Till the first answer, an empty list keeps its room on a phone (widget.css).
    if (answered) this.box.classList.add('sl-answered')
    this.#more.hidden = true
  }

  /** A further page's `waiting`: the busy text under its button too, till its wait, and any asked again in its place, is over. */
  moreWaiting(waiting: Waiting): Waiting {
    return (retrying) => {
      const over = waiting(retrying)
      this.#moreBusy.textContent = retrying ? this.#texts.waiting : this.#texts.stalled
      this.#waits++
      this.#moreBusy.hidden = false
      // Under the button, past the end of a list that scrolls in its box: scrolled to, as little as it takes.
      this.#moreBusy.scrollIntoView({ block: 'nearest' })
      return () => {
        over?.()
        this.#moreBusy.hidden = --this.#waits === 0
      }
    }
  }

  /** A search's first page, listed from its top. */
  show(data: LocationsAnswer['data']): void {
    this.total = data.pagination.total
    this.nearest(data.locations)
    this.box.classList.add('sl-answered')
    // A new list starts at its top, not where the last one was scrolled to.
    this.box.scrollTop = 0
    this.#more.hidden = !data.pagination.hasMore
  }

  /** The search's next page, after the stores listed; the index of its first. */
  add(data: LocationsAnswer['data']): number {
    const [first, added] = [this.stores.length, data.locations]
    this.stores = this.stores.concat(added)
    append(
      this.list,
      added.map((l, i) => this.#item(l, first + i + 1)),
    )
    this.#more.hidden = !data.pagination.hasMore
    return first
  }

  /** These stores listed, from the first; the nearest beyond the radius when none is within it. */
  nearest(stores: Location[]): void {
    this.stores = stores
    this.list.replaceChildren(...stores.map((l, i) => this.#item(l, i + 1)))
    this.#found(stores.length > 0)
  }
}
