// A locator's index in this process, with its public JSON and what its upkeep needs to know.
import type { LocatorIndex } from '../engine/locator-index'
import type { FilterGroup } from '../store/filters'
import type { JsonArena } from './json-arena'
import type { PresentContext } from './present'

export type Entry = {
  index: LocatorIndex
  ctx: PresentContext
  filters: FilterGroup[]
  /** The locations' public JSON; an index entry's `json` is its slot here. */
  arena: JsonArena
  /** Whether every location's public JSON is filled in (see entry()). */
  jsonReady: boolean
  /** Settings changed since (apply()): ranks to take again (priority rules), JSON to make again (filters, custom fields); see refresh(). */
  stale: { ranks: boolean; json: boolean } | null
  /** Whether background tasks are laying the JSON written since the fill out in space order (reorderJson()). */
  reordering: boolean
  /** Queried since evictIdle() last looked (set by version(), which every public request asks). */
  used: boolean
  /** When evictIdle() last saw it used, or when it was built (performance.now()). */
  usedAt: number
  /** When a change was last applied to its index, or when it was built (performance.now()): settleDeltas(). */
  writtenAt: number
}
