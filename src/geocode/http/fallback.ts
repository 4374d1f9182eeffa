import type { Geocoder } from '../geocoder'
import { GeocoderUnavailableError } from './request'

/**
 * Asks `primary`; only when it cannot answer (GeocoderUnavailableError) asks `fallback`, and notes
 * why in the result's source: "embedded (fallback: nominatim timed out after 3000 ms)". A null from
 * the primary is an answer ("no such address") and stays null. Any other error is a bug and is
 * not hidden. The primary's own deadline bounds its share, so a call takes at most the primary's
 * timeout plus the fallback's time.
 */
export function withFallback(primary: Geocoder, fallback: Geocoder): Geocoder {
  return {
    name: primary.name,
    async geocode(address) {
      try {
        return await primary.geocode(address)
      } catch (err) {
        if (!(err instanceof GeocoderUnavailableError)) throw err
        const result = await fallback.geocode(address)
        return result && { ...result, source: `${result.source} (fallback: ${err.message})` }
      }
    },
  }
}
