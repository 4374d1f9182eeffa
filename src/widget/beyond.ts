// What a search that found no store within its radius goes on to say: the nearest stores beyond
// it (as far as the service searches), else, for words searched, whether any store has them.
import { MAX_RADIUS } from '../core/limits'
import { type Location, type LocationsAnswer, queryWhenReady, type Waiting } from './api'

/** The nearest stores shown when none is within the radius. */
const NEAREST = 3

export type Beyond = { kind: 'nearest'; locations: Location[] } | { kind: 'noMatch' } | null

/** The search's wait for the service: its signal, its busy text (`waiting`) and when it began (`since`). */
export type SearchWait = { signal: AbortSignal; waiting: Waiting; since: number }

/**
 * For a search of `params` that found nothing: the nearest stores its filters and words let
 * through, within MAX_RADIUS of its centre; else, when `words` were searched and no store has
 * them, noMatch; else null (nothing better to say than that none is near). Each is asked again
 * while the service starts, the status line saying so, within the search's wait (since); aborting
 * its signal (a newer search) ends it, its waits too. Busy is said 3 s after they are first asked,
 * not the search's: its count, said meanwhile, answered the visitor.
 */
export async function beyondRadius(
  api: string,
  token: string,
  params: [string, string][],
  words: string,
  { signal, waiting, since }: SearchWait,
): Promise<Beyond> {
  const from = Date.now()
  // One wait for both requests: what the first said stays till the second is over, not said twice.
  const over: ReturnType<Waiting>[] = []
  const once: Waiting = (retrying) => void over.push(waiting(retrying))
  const ask = (p: [string, string][]) =>
    queryWhenReady<LocationsAnswer>(api, token, 'locations', p, signal, once, since, from)
  try {
    const wider: [string, string][] = params.filter(([k]) => k !== 'radius' && k !== 'limit' && k !== 'offset')
    wider.push(['radius', String(MAX_RADIUS)], ['limit', String(NEAREST)])
    const nearest = await ask(wider)
    if (nearest.data.locations.length > 0) return { kind: 'nearest', locations: nearest.data.locations }
    if (words === '') return null
    const anywhere = await ask([
      ['all', 'true'],
      ['search', words],
      ['limit', '1'],
    ])
    return anywhere.data.pagination.total === 0 ? { kind: 'noMatch' } : null
  } finally {
    for (const end of over) end?.()
  }
}
