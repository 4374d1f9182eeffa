// Builds the geocoder stack the configuration asks for. Every provider goes through the SQLite cache.
import type { GeocoderConfig } from '../config'
import type { Store } from '../store'
import { openEmbeddedGeocoder, ensureGeodata } from './embedded'
import { GEODATA_VERSION } from './embedded/build'
import { cachedGeocoder, DEFAULT_TTL, noGeocoder, type Geocoder } from './geocoder'

export type GeocoderStack = { geocoder: Geocoder; close(): void }

/** Prepares (building the offline data on first use) and returns the configured geocoder. */
export async function createGeocoder(config: GeocoderConfig, store: Store, say: (line: string) => void = () => {}): Promise<GeocoderStack> {
  if (config.provider === 'none') return { geocoder: noGeocoder, close: () => {} }
  store.geocodeCache.purgeExpired(Date.now())
  await ensureGeodata(config.dataPath, say)
  const embedded = openEmbeddedGeocoder(config.dataPath)
  // Keyed by data version: a rebuilt gazetteer must not be hidden behind old cached answers.
  const cachedEmbedded = cachedGeocoder(embedded, store.geocodeCache, DEFAULT_TTL, Date.now, `embedded@${GEODATA_VERSION}`)
  return { geocoder: cachedEmbedded, close: () => embedded.close() }
}
