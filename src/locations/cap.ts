// The most locations one locator may hold (LOCATOR_MAX_LOCATIONS): a sync script that creates
// where it meant to update would otherwise grow one locator's index until the process runs out of
// memory, and every locator on it with it (a start preloads the indexes, so it would again).
import type { Store } from '../store'
import { LocationError } from './errors'

/**
 * How long a locator's counted locations are trusted, ms, with this process's own creates added:
 * counting costs ~0.1-0.3 µs a location (up to ~250 ms at 1M), once this often per locator written
 * to; other processes' creates (workers, the CLI) are missed for at most this long.
 */
const RECOUNT_MS = 60_000

/** What a write calls, in its transaction, before it adds `adding` locations to `locatorId`: throws limit_exceeded past the most. */
export type RoomFor = (locatorId: string, adding: number) => void

/** `max` locations a locator at most; `now` in ms (tests pass a fake clock). */
export function locationCap(store: Store, max: number, now: () => number = Date.now): RoomFor {
  const known = new Map<string, { count: number; at: number }>()
  return (locatorId, adding) => {
    if (adding <= 0) return
    const t = now()
    let seen = known.get(locatorId)
    // Counted again before a refusal too: a count kept since may be over (deletions are not taken off).
    if (seen === undefined || t - seen.at >= RECOUNT_MS || seen.count + adding > max) {
      seen = { count: store.locations.count(locatorId, null), at: t }
      known.set(locatorId, seen)
    }
    if (seen.count + adding > max)
      throw new LocationError('limit_exceeded', capMessage(locatorId, seen.count, adding, max))
    // Kept when the write is undone after this: over, never under, so a refusal is always counted first.
    seen.count += adding
  }
}

const n = (x: number) => x.toLocaleString('en-US')

/** limit_exceeded's message for a locator holding `count` that a write would give `adding` more, past `max`. */
export function capMessage(locatorId: string, count: number, adding: number, max: number): string {
  return `The locator ${locatorId} holds ${n(count)} locations and this request would create ${n(adding)} more: one locator may hold at most ${n(max)} (the service's LOCATOR_MAX_LOCATIONS setting). Nothing was written. Delete locations it no longer needs (a sync script that creates instead of updating makes duplicates: send external_id and use POST /admin/v1/locations/bulk), or ask the service's operator to raise LOCATOR_MAX_LOCATIONS.`
}
