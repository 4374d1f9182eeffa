// Some providers' terms limit how long their coordinates may be kept: Google's, 30 days. This
// re-geocodes such locations a day before they come of age, through the normal write path (one
// transaction, change log), so the stored point is never older than the terms allow. While the
// provider is unavailable the point is kept and asked again at the next runs; only at its last run
// before the limit does the embedded fallback's point replace it (coarser, but within the terms).
// Such points are geocoded again at every run until the provider answers for them (or says it does
// not know the address: the fallback's point then stands).
import type { Store } from '../store'
import { obtainedAtIso, type GeocodeResult, type Geocoder } from './geocoder'
import { fallbackName, fallbackSourcePattern, isFallbackSource, REFRESH_AHEAD_MS, STORAGE_LIMITS } from './http'

/** How often the service runs the refresh (main.ts): at start, then every 6 hours. */
export const REFRESH_EVERY_MS = 6 * 3_600_000

/** A run's own length and a late timer: a point whose limit comes before the next run plus this is replaced now, by the fallback if need be. */
const NEXT_RUN_SLACK_MS = 3_600_000

/**
 * checked: points asked for; refreshed: written; failed: left for the next run (asked or not).
 * overdue: of those, points at their last chance that nothing replaced (neither the provider nor
 * the embedded geocoder answered): kept past the limit, for the operator to mend (a better address,
 * or coordinates); `overdueLocations` names up to 20.
 */
export type RefreshReport = { checked: number; refreshed: number; failed: number; overdue: number; overdueLocations: { locator: string; id: string }[] }

export type RefreshOptions = {
  now?: Date
  /** At most this many due points (besides those at their last chance: all of them), and this many stopgaps, per provider and run. */
  batch?: number
  /** The time to the next run: a point whose limit comes before it (plus a slack) has its last chance now. */
  everyMs?: number
  /**
   * The embedded geocoder, asked directly when the provider says it no longer knows the address of
   * a point at its last chance: its point, as its own, replaces the provider's.
   */
  fallback?: Geocoder
}

/**
 * Re-geocodes, per limited provider, the locations whose coordinates come of age before the next
 * run (all of them), then up to `batch` more whose coordinates come of age within REFRESH_AHEAD_MS
 * (oldest first), and up to `batch` whose coordinates a fallback gave while the provider failed. A
 * location whose address or coordinates changed meanwhile is left alone.
 */
export async function refreshLimitedGeocodes(store: Store, geocoder: Geocoder, options: RefreshOptions = {}): Promise<RefreshReport> {
  const { now = new Date(), batch = 500, everyMs = REFRESH_EVERY_MS, fallback } = options
  const report: RefreshReport = { checked: 0, refreshed: 0, failed: 0, overdue: 0, overdueLocations: [] }
  const at = now.toISOString()
  for (const [provider, maxAgeMs] of Object.entries(STORAGE_LIMITS)) {
    // Oldest first (NULL first): those at their last chance, every one (a batch could leave some
    // past the limit), then up to `batch` of those that may wait.
    const lastChanceBefore = new Date(now.getTime() - maxAgeMs + everyMs + NEXT_RUN_SLACK_MS).toISOString()
    const isLastChance = (location: { geocodedAt: string | null }) => location.geocodedAt === null || location.geocodedAt < lastChanceBefore
    const lastChances = store.locations.geocodedBefore(`${provider}%`, lastChanceBefore, -1)
    const mayWait = store.locations.geocodedBefore(`${provider}%`, new Date(now.getTime() - maxAgeMs + REFRESH_AHEAD_MS).toISOString(), lastChances.length + batch)
    const due = lastChances.concat(mayWait.filter((location) => !isLastChance(location)))
    const stopgaps = store.locations.geocodedBefore(fallbackSourcePattern(provider), at, batch)
    let providerDown = false
    for (const [i, location] of due.entries()) {
      const lastChance = isLastChance(location)
      if (!lastChance && providerDown) {
        // The provider failed this run: the rest may wait for the next (each would wait its timeout too).
        report.failed += due.length - i
        break
      }
      report.checked++
      let found = await geocoder.geocode(location.address).catch(() => undefined)
      const stopgap = found != null && isFallbackSource(found.source)
      if (found === undefined || stopgap) providerDown = true
      // The provider's point may still be kept: a stopgap for it must wait.
      if (stopgap && !lastChance) found = undefined
      // The provider no longer knows the address: its point cannot be kept past the limit, the embedded geocoder's may.
      if (found === null && lastChance && fallback) found = await fallback.geocode(location.address).catch(() => null)
      if (!found) {
        report.failed++ // tried again on the next run
        if (lastChance) {
          report.overdue++
          if (report.overdueLocations.length < 20) report.overdueLocations.push({ locator: location.locatorId, id: location.id })
        }
        continue
      }
      if (save(store, location, found, at)) report.refreshed++
    }
    for (const [i, location] of stopgaps.entries()) {
      report.checked++
      const found = await geocoder.geocode(location.address).catch(() => undefined)
      if (found === undefined || (found !== null && isFallbackSource(found.source))) {
        // The provider still fails: the rest wait for the next run (each would wait its timeout too).
        report.failed += stopgaps.length - i
        break
      }
      // The provider does not know the address: the fallback's point stands, as its own (no longer a stopgap).
      const point = found ?? { lat: location.lat, lng: location.lng, precision: location.geocoding!.precision as GeocodeResult['precision'], source: fallbackName(location.geocoding!.source), parts: location.addressParts }
      if (save(store, location, point, at)) report.refreshed++
    }
  }
  return report
}

/** Stores `found` as the location's point, unless its address or point changed since it was read. */
function save(store: Store, location: { locatorId: string; id: string; address: string; geocodedAt: string | null }, found: GeocodeResult, at: string): boolean {
  return store.write(() => {
    const current = store.locations.get(location.locatorId, location.id)
    if (!current || current.address !== location.address || current.geocodedAt !== location.geocodedAt) return false
    store.locations.replace({
      ...current,
      lat: found.lat,
      lng: found.lng,
      geocoding: { precision: found.precision, source: found.source },
      addressParts: found.parts,
      geocodedAt: obtainedAtIso(found, at),
      updatedAt: at,
    })
    return true
  })
}
