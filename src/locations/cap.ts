// The most locations one locator may hold (LOCATOR_MAX_LOCATIONS): a sync script that creates
// where it meant to update would otherwise grow one locator's index until the process runs out of
// memory, and every locator on it with it (a start preloads the indexes, so it would again).
import type { Store } from '../store'
import { LocationError } from './errors'

/**
 * What a write calls, in its transaction, before it adds `adding` locations to `locatorId`: throws
 * limit_exceeded past the most. A bulk dry run calls it too, in a read transaction, to answer as the write would.
 */
export type RoomFor = (locatorId: string, adding: number) => void

/**
 * `max` locations a locator at most. The count is read in the write's own transaction, which holds
 * the write lock: what any other process (a worker, the CLI) committed is in it, and none can
 * commit between the check and the write.
 */
export function locationCap(store: Store, max: number): RoomFor {
  return (locatorId, adding) => {
    if (adding <= 0) return
    const count = store.locationCounts.of(locatorId)
    if (count + adding > max) throw new LocationError('limit_exceeded', capMessage(locatorId, count, adding, max))
  }
}

const n = (x: number) => x.toLocaleString('en-US')

/** limit_exceeded's message for a locator holding `count` that a write would give `adding` more, past `max`. */
export function capMessage(locatorId: string, count: number, adding: number, max: number): string {
  return `The locator ${locatorId} holds ${n(count)} locations and this request would create ${n(adding)} more: one locator may hold at most ${n(max)} (the service's LOCATOR_MAX_LOCATIONS setting). Nothing was written. Delete locations it no longer needs (a sync script that creates instead of updating makes duplicates: send external_id and use POST /admin/v1/locations/bulk), or ask the service's operator to raise LOCATOR_MAX_LOCATIONS.`
}
