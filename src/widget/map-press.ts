// A dot or bubble pressed on the map before a search: a search around its store, that store
// picked. A bubble no zoom splits (stores on one point) is taken as its first store by name, as its
// dot would be. Part of map.js: it asks with widget.js's queryWhenReady(), whose errors are its
// ApiErrors.
import type { ApiError, LocationsAnswer, queryWhenReady, Waiting } from './api'
import type { Cluster, Single } from './clusters'
import type { Options } from './options'

/** widget.js's Query API client. */
export type Api = { queryWhenReady: typeof queryWhenReady; ApiError: typeof ApiError }

export type Pressing = {
  options: Options
  /** GET /clusters' filter parameters for the search as it stands. */
  filters: () => [string, string][]
  /** A new press's signal: a newer press, a search or the finder's end aborts it, and its wait for the service. */
  signal: () => AbortSignal
  /** Whether the finder still browses: an answer after a search of the visitor's own, or out of the page, is dropped. */
  browsing: () => boolean
  /** Searches around `one`, picked; `byKeyboard`: the focus goes on to it in the list. */
  around: (one: Single, byKeyboard: boolean) => void
  /** Shows the map's bubbles anew. */
  browse: () => void
  /** Says why asking failed, with `again` to ask again. */
  failed: (e: unknown, again: () => void) => void
  /** Sets the status line, as the list's search does: its "Searching…", the prompt of no search, or nothing. */
  say: (key: 'loading' | 'prompt' | null) => void
  /** Tells the visitor a press's stores wait for the service (starting), as a search's do. */
  waiting: Waiting
}

/** What pressing `one` on the map does. */
export function mapPress(
  p: Pressing,
  { queryWhenReady, ApiError }: Api,
): (one: Single | Cluster, byKeyboard: boolean) => void {
  const pressed = (one: Single | Cluster, byKeyboard: boolean): void => {
    if (!('count' in one)) {
      p.around(one, byKeyboard)
      return
    }
    const leaves = [['limit', '1'], ...p.filters()] as [string, string][]
    const [path, signal] = [`clusters/${one.id}/leaves`, p.signal()]
    // A newer press or a search (browsing no more) wins: this answer, or failure, is not theirs.
    const gone = () => signal.aborted || !p.browsing()
    // Searching, as the list says of a search: the wait for a service starting shows.
    p.say('loading')
    void queryWhenReady<LocationsAnswer>(p.options.api, p.options.token, path, leaves, signal, p.waiting).then(
      (a) => {
        if (gone()) return
        const s = a.data.locations[0]
        // None left (closed since, open now set): the map's bubbles as they are now, no search made.
        if (s) return p.around({ ...s, ...s.coordinates }, byKeyboard)
        p.say('prompt')
        p.browse()
      },
      (e) => {
        if (gone()) return
        // Clusters built anew (a store added) know the id no more: the map's bubbles anew, to press.
        const stale = e instanceof ApiError && e.code === 'CLUSTER_NOT_FOUND'
        p.say(null)
        p.failed(e, () => (stale ? (p.say('prompt'), p.browse()) : pressed(one, byKeyboard)))
      },
    )
  }
  return pressed
}
