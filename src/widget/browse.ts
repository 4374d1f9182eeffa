// Before a search, the map shows the stores of its view, clustered (GET /clusters), with the
// filters set: fitted at first to every store, then following the map as it moves.
import { ApiError, query } from './api'
import type { ClustersAnswer } from './clusters'
import type { StoreMap } from './map'
import { MAX_MAP_TILES } from '../core/limits'

/** GET /clusters's box for the whole world, and the deepest zoom it is taken at (16 tiles across). */
const WORLD = '-180,-90,180,90'
const WORLD_ZOOM = Math.log2(MAX_MAP_TILES)

/** How many times in a row the map asks again for clusters the service is building: a minute's worth. */
const BROWSE_RETRIES = 60

export class Browsing {
  /** No search yet: the map shows every store of its view. */
  on = false
  #request: AbortController | null = null
  #browsed = false
  /** Clusters asked again while the service builds them (503 UNAVAILABLE, after a start), in a row; the next ask. */
  #retries = 0
  #retry: ReturnType<typeof setTimeout> | undefined
  /**
   * After the first view is fitted to the whole world's clusters, the stores they hold (their
   * total) and how many times more the map may zoom out to show them all: a fit sees the
   * clusters' centres, and their stores may lie beyond.
   */
  #fitting: { total: number; left: number; filters: string } | null = null

  readonly #options: { api: string; token: string }
  /** The filters' parameters, as set now. */
  readonly #filterParams: () => [string, string][]

  constructor(options: { api: string; token: string }, filterParams: () => [string, string][]) {
    this.#options = options
    this.#filterParams = filterParams
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

  /** No request or retry of it left. */
  stop(): void {
    this.#request?.abort()
    clearTimeout(this.#retry)
  }

  /** While nothing is searched, the clusters of the map's view, with the filters set. */
  async show(map: StoreMap | null): Promise<void> {
    if (!this.on || map === null) return
    this.stop()
    const controller = new AbortController()
    this.#request = controller
    const view = map.view()
    // The first answer holds every store, wherever it is, in clusters as small as the world's box
    // allows: the map is then fitted to them all.
    const first = !this.#browsed
    const [bbox, zoom] = first ? [WORLD, WORLD_ZOOM] : [view.bbox, view.zoom]
    const p: [string, string][] = [['bbox', bbox], ['zoom', String(zoom)], ...this.#filterParams()]
    try {
      const answer = await query<ClustersAnswer>(
        this.#options.api,
        this.#options.token,
        'clusters',
        p,
        controller.signal,
      )
      if (!this.on || controller.signal.aborted) return
      // The first view shows every store; after that the visitor moves the map. Browsed before the
      // fit: one made at once (no animation) moves the map, and the clusters asked then are its view's.
      this.#browsed = true
      map.clusters.show(answer, first)
      // Other filters since, or a visitor's own move (touched), end it.
      const fit = this.#fitting
      const filters = JSON.stringify(this.#filterParams())
      if (first) this.#fitting = { total: answer.data.total, left: 3, filters }
      else if (fit?.filters === filters && answer.data.total < fit.total && fit.left > 0 && map.zoomOut()) fit.left--
      else this.#fitting = null
      this.#retries = 0
    } catch (e) {
      // Clusters being built (a large locator's first since a start): asked again in a moment, as
      // the answer's Retry-After says. Else the map stays as it was; the next move asks again.
      if (e instanceof ApiError && e.code === 'UNAVAILABLE' && this.#retries < BROWSE_RETRIES) {
        this.#retries++
        this.#retry = setTimeout(() => void this.show(map), 1000)
      }
    }
  }
}
