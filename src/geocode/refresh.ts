// Some providers' terms limit how long their coordinates may be kept: Google's, 30 days. This
// re-geocodes such locations a day before they come of age, through the normal write path (one
// transaction, change log), so the stored point is never older than the terms allow. While the
// provider is unavailable the point is kept and asked again at the next runs; only at its last run
// before the limit does the embedded fallback's point replace it (coarser, but within the terms).
// Such points are geocoded again at every run until the provider answers for them (or says it does
// not know the address: the fallback's point then stands).
import type { Store } from '../store'
import type { GeocodedCursor, LocationRecord } from '../store/locations'
import { obtainedAtIso, type GeocodeResult, type Geocoder } from './geocoder'
import { asStopgap, fallbackName, fallbackReason, fallbackSourcePattern, GeocoderUnavailableError, isFallbackSource, REFRESH_AHEAD_MS, STORAGE_LIMITS } from './http'

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

/** Points at their last chance read at a time: however many there are, each page is refreshed before the next is read. */
const PAGE = 500

/**
 * Re-geocodes, per limited provider, the locations whose coordinates come of age before the next
 * run (all of them, page by page), then up to `batch` more whose coordinates come of age within
 * REFRESH_AHEAD_MS (oldest first), and up to `batch` whose coordinates a fallback gave while the
 * provider failed. A location whose address or coordinates changed meanwhile is left alone.
 */
export async function refreshLimitedGeocodes(store: Store, geocoder: Geocoder, options: RefreshOptions = {}): Promise<RefreshReport> {
  const { now = new Date(), batch = 500, everyMs = REFRESH_EVERY_MS, fallback } = options
  const report: RefreshReport = { checked: 0, refreshed: 0, failed: 0, overdue: 0, overdueLocations: [] }
  const at = now.toISOString()
  for (const [provider, maxAgeMs] of Object.entries(STORAGE_LIMITS)) {
    const lastChanceBefore = new Date(now.getTime() - maxAgeMs + everyMs + NEXT_RUN_SLACK_MS).toISOString()
    const dueBefore = new Date(now.getTime() - maxAgeMs + REFRESH_AHEAD_MS).toISOString()
    // Read first: a stopgap this run writes is not asked again in it.
    const stopgaps = store.locations.geocodedByFallback(fallbackSourcePattern(provider), at, batch)
    /** Why the provider failed in this run; null while it has not. */
    let down: string | null = null
    const stopgap = (address: string, reason: string) => fallback!.geocode(address).then((found) => found && asStopgap(found, reason)).catch(() => null)

    const refresh = async (location: LocationRecord, lastChance: boolean) => {
      report.checked++
      let found: GeocodeResult | null | undefined
      if (down !== null && lastChance && fallback) {
        // The provider failed earlier in this run: the fallback's point now, without waiting for the provider's timeout again.
        found = await stopgap(location.address, down)
      } else {
        let reason: string | null = null
        found = await geocoder.geocode(location.address).catch((e: unknown) => ((reason = failureReason(provider, e)), undefined))
        if (found != null && isFallbackSource(found.source)) {
          reason = fallbackReason(found.source)
          // The provider's point may still be kept: a stopgap for it must wait.
          if (!lastChance) found = undefined
        }
        if (reason !== null) down = reason
        // At the last chance the provider's point cannot stay: the embedded geocoder's may. The
        // provider failed (whatever the error): its stopgap. It no longer knows the address: the
        // embedded geocoder's point, as its own.
        if (lastChance && fallback) {
          if (found === undefined) found = await stopgap(location.address, reason!)
          else if (found === null) found = await fallback.geocode(location.address).catch(() => null)
        }
      }
      if (!found) {
        report.failed++ // tried again on the next run
        if (lastChance) {
          report.overdue++
          if (report.overdueLocations.length < 20) report.overdueLocations.push({ locator: location.locatorId, id: location.id })
        }
        return
      }
      if (save(store, location, found, at)) report.refreshed++
    }

    // Those at their last chance, oldest first (unknown age first), every one: a batch could leave some past the limit.
    for (let after: GeocodedCursor | null = null; ; ) {
      const page = store.locations.geocodedBy(provider, lastChanceBefore, PAGE, after)
      for (const location of page) await refresh(location, true)
      if (page.length < PAGE) break
      after = page[page.length - 1]!
    }
    // Then up to `batch` of those that may wait, unless the provider failed (each would wait its timeout too).
    const mayWait = store.locations.geocodedBy(provider, dueBefore, batch, { geocodedAt: lastChanceBefore, id: '' })
    for (const [i, location] of mayWait.entries()) {
      if (down !== null) {
        report.failed += mayWait.length - i
        break
      }
      await refresh(location, false)
    }
    for (const [i, location] of stopgaps.entries()) {
      if (down === null) {
        report.checked++
        const found = await geocoder.geocode(location.address).catch(() => undefined)
        if (found !== undefined && (found === null || !isFallbackSource(found.source))) {
          // The provider does not know the address: the fallback's point stands, as its own (no longer a stopgap).
          const point = found ?? { lat: location.lat, lng: location.lng, precision: location.geocoding!.precision as GeocodeResult['precision'], source: fallbackName(location.geocoding!.source), parts: location.addressParts }
          if (save(store, location, point, at)) report.refreshed++
          continue
        }
      }
      // The provider still fails: the rest wait for the next run (each would wait its timeout too).
      report.failed += stopgaps.length - i
      break
    }
  }
  return report
}

/** Why `provider` failed, for a stopgap's source: its own words when it was unavailable; otherwise only the error's kind (a bug's message is no source note). */
function failureReason(provider: string, error: unknown): string {
  if (error instanceof GeocoderUnavailableError) return error.message
  return `${provider} failed (${error instanceof Error ? error.name : 'error'})`
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

export type RefreshLogLine = { level: 'info' | 'error'; message: string } & Record<string, unknown>

/**
 * Runs refreshLimitedGeocodes now and every `everyMs` (the service: REFRESH_EVERY_MS), and `log`s
 * each run that asked for anything, the points kept past their limit (as an error, for the
 * operator), and a run that failed. A run still going when the next is due is not joined by it:
 * both would ask the provider for the same addresses. Returns the stop.
 */
export function scheduleGeocodeRefresh(store: Store, geocoder: Geocoder, options: RefreshOptions & { log: (line: RefreshLogLine) => void }): () => void {
  const { log, everyMs = REFRESH_EVERY_MS, ...rest } = options
  let running = false
  const run = () => {
    if (running) return
    running = true
    void refreshLimitedGeocodes(store, geocoder, { ...rest, everyMs })
      .then(({ overdueLocations, ...r }) => {
        if (r.checked > 0) log({ level: 'info', message: 'geocodes refreshed', ...r })
        if (r.overdue > 0) {
          const message = `${r.overdue} location(s) keep a point past its provider's limit (Google's 30 days): neither the provider nor the embedded geocoder found their address. Mend the address, or send coordinates.`
          log({ level: 'error', message, locations: overdueLocations })
        }
      })
      .catch((e) => log({ level: 'error', message: 'geocode refresh failed', error: String(e) }))
      .finally(() => (running = false))
  }
  run()
  const timer = setInterval(run, everyMs)
  return () => clearInterval(timer)
}
