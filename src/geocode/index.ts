// Builds the geocoder stack the configuration asks for. Every provider goes through the SQLite cache.
import type { GeocoderConfig } from '../config'
import type { Store } from '../store'
import { openEmbeddedGeocoder, ensureGeodata } from './embedded'
import { cachedGeocoder, noGeocoder, type Geocoder } from './geocoder'

export type GeocoderStack = { geocoder: Geocoder; close(): void }

/** Prepares (building the offline data on first use) and returns the configured geocoder. */
export async function createGeocoder(config: GeocoderConfig, store: Store, say: (line: string) => void = () => {}): Promise<GeocoderStack> {
  if (config.provider === 'none') return { geocoder: noGeocoder, close: () => {} }
  await ensureGeodata(config.dataPath, say)
  const embedded = openEmbeddedGeocoder(config.dataPath)
  return { geocoder: cachedGeocoder(embedded, store.geocodeCache), close: () => embedded.close() }
}
