// Some providers' terms limit how long their coordinates may be kept: Google's, 30 days. This
// re-geocodes such locations when they come of age, through the normal write path (one
// transaction, change log), so the stored point is never older than the terms allow. When the
// provider is unavailable then, the embedded fallback's point replaces it (coarser, but within the
// terms); such points are geocoded again at every run until the provider answers for them (or
// says it does not know the address: the fallback's point then stands).
import type { Store } from '../store'
import type { GeocodeResult, Geocoder } from './geocoder'
import { fallbackName, fallbackSourcePattern, isFallbackSource } from './http'

/** Provider (as it appears at the start of a location's geocoding source) -> longest it may be kept. */
export const STORAGE_LIMITS: Record<string, number> = { google: 30 * 86_400_000 }

export type RefreshReport = { checked: number; refreshed: number; failed: number }

/**
 * Re-geocodes, per limited provider, up to `batch` locations whose coordinates are older than the
 * limit allows, and up to `batch` whose coordinates a fallback gave while it failed. A location
 * whose address or coordinates changed meanwhile is left alone.
 */
export async function refreshLimitedGeocodes(store: Store, geocoder: Geocoder, now = new Date(), batch = 500): Promise<RefreshReport> {
  const report: RefreshReport = { checked: 0, refreshed: 0, failed: 0 }
  const at = now.toISOString()
  for (const [provider, maxAgeMs] of Object.entries(STORAGE_LIMITS)) {
    const due = store.locations.geocodedBefore(`${provider}%`, new Date(now.getTime() - maxAgeMs).toISOString(), batch)
    const stopgaps = store.locations.geocodedBefore(fallbackSourcePattern(provider), at, batch)
    for (const location of due) {
      report.checked++
      const found = await geocoder.geocode(location.address).catch(() => null)
      if (!found) {
        report.failed++ // tried again on the next run
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
      geocodedAt: at,
      updatedAt: at,
    })
    return true
  })
}
