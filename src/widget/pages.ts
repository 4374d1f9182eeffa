// A search's stores as the Query API gives them: its first page, the further pages "Show more
// stores" asks for, the nearest stores beyond its radius when none is within it, and the status
// line's count of them. The finder (widget.ts) says what is searched and takes up the answer.
import type { Lang } from '../core/languages'
import { type LocationsAnswer, queryWhenReady } from './api'
import { type Beyond, beyondRadius } from './beyond'
import { type Busy, handedOn } from './busy'
import { sayFailure, tryAgain } from './failures'
import type { CountBar } from './filter-count'
import { countText } from './format'
import { t, type Texts } from './i18n'
import type { StoreMap } from './map'
import type { Options } from './options'
import { searchParams } from './search-params'
import type { StoreList } from './store-list'
import type { SearchState } from './url-state'

/** A search's requests for its stores, and what their answers say. */
export type Pages = {
  /** Where the service measured the last search from; null until one names a place. */
  center: { lat: number; lng: number; label?: string } | null
  /** The request's parameters for the search as it stands, from `offset`; null when there is nothing to search for. */
  params: (offset: number) => [string, string][] | null
  /** The request on its way ended: its answer, and the nearest stores it asks next (beyond), are no search's. */
  stop: () => void
  /**
   * A page of the search's stores; `since`: when the search's wait for the service began. `again`:
   * a further page asked again in place of the one on its way, its busy text kept (busy.ts).
   */
  fetch: (offset: number, since?: number, again?: boolean) => Promise<LocationsAnswer | null>
  /**
   * The search's next page, after the stores listed; the keyboard goes on where its stores begin.
   * `since`: the first press's, for a page asked again in place of one unanswered (store-list.ts).
   */
  more: (since?: number) => Promise<void>
  /** None within the radius: the nearest stores beyond it, or that no store has the words (beyond.ts). */
  beyond: (since: number) => Promise<void>
  /** The status line's count of the stores listed. */
  count: () => string
}

/**
 * The pages of `state`'s search, listed in `stores`, said on `status` (and `alert`, `bar`), shown
 * on `map()`. `search`: the search asked again (Try again); `life`: aborted by the finder's end,
 * after which no request nor answer acts. `placeLang`: lang for places (near=), with the region
 * its tag names ("en-GB").
 */
export function searchPages(
  state: SearchState,
  options: Options,
  [texts, lang, placeLang]: [Texts, Lang, string],
  stores: StoreList,
  [status, alert]: HTMLElement[],
  bar: CountBar,
  busy: Busy,
  map: () => StoreMap | null,
  search: () => void,
  life: AbortSignal,
): Pages {
  /** The request on its way: a newer one, or the finder's end, aborts it. */
  let pending: AbortController | null = null
  /** A search's first page on its way: the list, and its "Show more stores", are the last search's. */
  let first: AbortController | null = null
  const { api, token } = options
  const say = (text: string) => void (status!.textContent = text)
  const pages: Pages = {
    center: null,
    params: (offset) => searchParams(state, options, placeLang, offset),
    stop() {
      pending?.abort()
      pending = null
    },
    async fetch(offset, since = Date.now(), again = false) {
      const p = pages.params(offset)
      // A further page pressed for meanwhile would be the newer search's, after the last one's stores.
      if (p === null || life.aborted || (offset > 0 && first !== null)) return null
      const controller = new AbortController()
      const signal = controller.signal
      pending?.abort(again ? handedOn(signal) : undefined)
      pending = controller
      // A search's alert is cleared by the search (widget.ts): its first keeps a token's refusal.
      if (offset === 0) first = controller
      else alert!.textContent = ''
      try {
        // A search's busy text replaces its "Searching…"; a further page's follows the count, and shows
        // by its button (unanswered, a press again asks afresh: store-list.ts).
        const waiting = offset === 0 ? busy.searching() : stores.moreWaiting(busy.after(signal))
        const answer = await queryWhenReady<LocationsAnswer>(api, token, 'locations', p, signal, waiting, since)
        return signal.aborted ? null : answer
      } catch (e) {
        if ((e as Error).name === 'AbortError') return null
        const o = state.origin
        // A further page's: the count and the stores listed stay, and Try again asks that page again.
        if (offset === 0) say('')
        // A token refused while the filters loaded, said already: not read out, nor warned of, again.
        if (alert!.textContent) throw e
        const again = tryAgain(alert!, status!, () => void (offset ? pages.more() : search()))
        sayFailure(alert!, texts, e, o?.kind === 'near' ? o.text : '', again)
        throw e
      } finally {
        if (first === controller) first = null
        // A further page over: the busy text of the one it was asked again in place of, over too.
        if (offset > 0) controller.abort()
      }
    },
    async more(since) {
      const answer = await pages.fetch(stores.stores.length, since, since !== undefined).catch(() => null)
      if (answer === null || life.aborted) return
      const first = stores.add(answer.data)
      const count = pages.count()
      say(
        `${count}${count.endsWith('.') ? '' : '.'} ${t(texts, 'shown', { n: stores.stores.length, total: stores.total })}`,
      )
      map()?.show(answer.data.locations, pages.center, false)
      stores.list.querySelectorAll<HTMLButtonElement>('.sl-name')[first]?.focus()
    },
    async beyond(since) {
      const [asked, words] = [pending, state.keyword.trim()]
      bar.stale()
      // The search's own signal: a newer search, or the finder's end, ends it and any wait for the service.
      const wait = { signal: asked!.signal, waiting: busy.after(), since }
      let beyond: Beyond
      try {
        beyond = await beyondRadius(api, token, pages.params(0)!, words, wait)
      } catch (e) {
        if (pending !== asked) return
        bar.count(0)
        // Failed, or given up at the end of the search's wait (a first page answered late): said, not
        // left silent; Try again asks them with a wait of their own (a newer search clears the alert).
        const again = tryAgain(alert!, status!, () => void pages.beyond(Date.now()))
        return sayFailure(alert!, texts, e, '', again, texts.nearestNotLoaded)
      }
      if (pending !== asked) return
      if (beyond?.kind !== 'nearest') bar.count(0)
      if (beyond === null) return
      if (beyond.kind === 'noMatch') return say(t(texts, 'noMatch', { words }))
      stores.nearest(beyond.locations)
      say(pages.count())
      bar.count(beyond.locations.length)
      map()?.show(beyond.locations, pages.center, true)
    },
    count() {
      const [{ stores: listed, total }, center] = [stores, pages.center]
      return countText({ texts, lang, total, center, state, nearest: listed.length > total })
    },
  }
  return pages
}
