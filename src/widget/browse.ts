// Before a search, the map shows the stores of its view, clustered (GET /clusters), with the
// filters set: fitted at first to every store, then following the map as it moves.
import { queryWhenReady, type Waiting } from './api'
import { handedOn } from './busy'
import type { ClustersAnswer } from './clusters'
import type { StoreMap } from './map'
import { MAX_MAP_TILES } from '../core/limits'

/** GET /clusters's box for the whole world, and the deepest zoom it is taken at (16 tiles across). */
const WORLD = '-180,-90,180,90'
const WORLD_ZOOM = Math.log2(MAX_MAP_TILES)

export class Browsing {
  /** No search yet: the map shows every store of its view. */
  on = false
  #request: AbortController | null = null
  /** A press's request (map-press.ts): the map moving leaves it, unlike the clusters'. */
  #press: AbortController | null = null
  #browsed = false
  /**
   * After the first view is fitted to the whole world's clusters, the stores they hold (their
   * total) and how many times more the map may zoom out to show them all: a fit sees the
   * clusters' centres, and their stores may lie beyond.
   */
  #fitting: { total: number; left: number; filters: string } | null = null

  readonly #options: { api: string; token: string }
  /** The filters' parameters, as set now. */
  readonly #filterParams: () => [string, string][]
  /** The status line's busy text while the clusters asked with `signal` wait for the service (busy.ts). */
  readonly #waiting: (signal: AbortSignal) => Waiting

  constructor(
    options: { api: string; token: string },
    filterParams: () => [string, string][],
    waiting: (signal: AbortSignal) => Waiting,
  ) {
    this.#options = options
    this.#filterParams = filterParams
    this.#waiting = waiting
  }

  /** The visitor handled the map: it is theirs, no longer fitted. */
  touched(): void {
    this.#fitting = null
  }

  /** Back to no search: the next clusters are the whole world's, the map fitted to them, as at first. */
  again(): void {
    this.#browsed = false
    this.#fitting = null
  }

  /** No request, nor a wait to ask it again, left: the clusters' nor a press's. */
  stop(): void {
    this.#request?.abort()
    this.#press?.abort()
  }

  /** The signal of a press's request on the map: a newer press, a search or the end (stop) ends it. */
  pressed(): AbortSignal {
    this.#press?.abort()
    this.#press = new AbortController()
    return this.#press.signal
  }

  /** While nothing is searched, the clusters of the map's view, with the filters set. */
  async show(map: StoreMap | null): Promise<void> {
    if (!this.on || map === null) return
    const controller = new AbortController()
    // The map moved while the last clusters waited: their busy text is this request's (busy.ts).
    this.#request?.abort(handedOn(controller.signal))
    this.#request = controller
    const view = map.view()
    // The first answer holds every store, wherever it is, in clusters as small as the world's box
    // allows: the map is then fitted to them all.
    const first = !this.#browsed
    const [bbox, zoom] = first ? [WORLD, WORLD_ZOOM] : [view.bbox, view.zoom]
    const p: [string, string][] = [['bbox', bbox], ['zoom', String(zoom)], ...this.#filterParams()]
    try {
      // Asked again while the service starts or builds the clusters (a large locator's first).
      const answer = await queryWhenReady<ClustersAnswer>(
        this.#options.api,
        this.#options.token,
        'clusters',
        p,
        controller.signal,
        this.#waiting(controller.signal),
      )
      if (!this.on || controller.signal.aborted) return
      // The first view shows every store; after that the visitor moves the map. Browsed before the
      // fit: one made at once (no animation) moves the map, and the clusters asked then are its view's.
      this.#browsed = true
      map.clusters.show(answer, first, zoom)
      // Other filters since, or a visitor's own move (touched), end it.
      const fit = this.#fitting
      const filters = JSON.stringify(this.#filterParams())
      if (first) this.#fitting = { total: answer.data.total, left: 3, filters }
      else if (fit?.filters === filters && answer.data.total < fit.total && fit.left > 0 && map.zoomOut()) fit.left--
      else this.#fitting = null
    } catch {
      // The map stays as it was; the next move asks again.
    } finally {
      // Over, answered or not: a busy text taken up from the clusters before is over with it.
      controller.abort()
    }
  }
}
