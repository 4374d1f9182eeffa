// Some providers' terms limit how long their coordinates may be kept: Google's, 30 days. This
// re-geocodes such locations when they come of age, through the normal write path (one
// transaction, change log), so the stored point is never older than the terms allow.
import type { Store } from '../store'
import type { Geocoder } from './geocoder'
import { isFallbackSource } from './http'

/** Provider (as it appears at the start of a location's geocoding source) -> longest it may be kept. */
export const STORAGE_LIMITS: Record<string, number> = { google: 30 * 86_400_000 }

export type RefreshReport = { checked: number; refreshed: number; failed: number }

/**
 * Re-geocodes up to `batch` locations per limited provider whose coordinates are older than the
 * limit allows. A location whose address or coordinates changed meanwhile is left alone.
 */
export async function refreshLimitedGeocodes(store: Store, geocoder: Geocoder, now = new Date(), batch = 500): Promise<RefreshReport> {
  const report: RefreshReport = { checked: 0, refreshed: 0, failed: 0 }
  for (const [source, maxAgeMs] of Object.entries(STORAGE_LIMITS)) {
    const due = store.locations.geocodedBefore(source, new Date(now.getTime() - maxAgeMs).toISOString(), batch)
    for (const location of due) {
      report.checked++
      const found = await geocoder.geocode(location.address).catch(() => null)
      // The provider down and the embedded geocoder answering for it: its coarser point would
      // replace the provider's, and being no longer the provider's, never be refreshed again.
      if (!found || isFallbackSource(found.source)) {
        report.failed++ // tried again on the next run
        continue
      }
      store.write(() => {
        const current = store.locations.get(location.locatorId, location.id)
        if (!current || current.address !== location.address || current.geocodedAt !== location.geocodedAt) return
        const at = now.toISOString()
        store.locations.replace({
          ...current,
          lat: found.lat,
          lng: found.lng,
          geocoding: { precision: found.precision, source: found.source },
          addressParts: found.parts,
          geocodedAt: at,
          updatedAt: at,
        })
        report.refreshed++
      })
    }
  }
  return report
}
