// Builds the geocoder stack the configuration asks for. Every provider goes through the SQLite cache.
import type { GeocoderConfig } from '../core/config'
import type { Store } from '../store'
import { openEmbeddedGeocoder, ensureGeodata } from './embedded'
import { GEODATA_VERSION } from './embedded/build'
import { type PlaceSource, placeSearchAt } from './embedded/place-source'
import { RESOLVER_VERSION } from './embedded/resolve'
import { cachedGeocoder, DEFAULT_TTL, noGeocoder, type Geocoder } from './geocoder'
import {
  createHttpGeocoder,
  httpCacheKey,
  isHttpProvider,
  PROVIDER_CACHE_TTL,
  withFallback,
  type HttpGeocoderOptions,
} from './http'

/** The cache's provider key for the offline geocoder's answers. */
export const EMBEDDED_CACHE_KEY = `embedded@${GEODATA_VERSION}.${RESOLVER_VERSION}`

export type GeocoderStack = {
  geocoder: Geocoder
  /** An HTTP provider alone (cached), without the fallback: for the refresh, which tells its failures apart. */
  primary?: Geocoder
  /** Behind an HTTP provider: the embedded geocoder it falls back to, for the refresh to ask directly. */
  fallback?: Geocoder
  /** Places as visitors type them, from the embedded data (GET /places, near=); null with GEOCODER=none. */
  places: PlaceSource | null
  close(): void
}

/**
 * Prepares (building the offline data on first use, `say`ing so) and returns the configured
 * geocoder. HTTP providers are tried first and fall back to the embedded geocoder when they fail
 * (timeout, 5xx, 429, a refusal, a malformed answer), each failure's reason `warn`ed at most once a
 * minute. Each has its own cache entries, so a fallback answer is never cached as the provider's.
 */
export async function createGeocoder(
  config: GeocoderConfig,
  store: Store,
  say: (line: string) => void = () => {},
  options: HttpGeocoderOptions & {
    warn?: (reason: string) => void
    /** A first start's build steps, each written over the last (a terminal); else `say` has them. */
    sayInPlace?: (text: string) => void
    /** Aborted: the caller no longer waits; a build of the offline data under way ends. */
    signal?: AbortSignal
  } = {},
): Promise<GeocoderStack> {
  if (config.provider === 'none') return { geocoder: noGeocoder, places: null, close: () => {} }
  // Housekeeping, not waited for: another process holding the database (a long import) must not
  // stop a start or a lookup; rows it leaves are purged at a later start.
  store.geocodeCache.purgeExpired(Date.now()).catch(() => {})
  await ensureGeodata(config.dataPath, say, options.sayInPlace, options.signal)
  const embedded = openEmbeddedGeocoder(config.dataPath)
  // Keyed by data and resolver version: a rebuilt gazetteer or a mended resolver must not be hidden behind old cached answers.
  // Its checks (an import's warnings) ask the data itself: a file's thousands of them are no
  // cache rows to write, one transaction each.
  const cachedEmbedded: Geocoder = {
    ...cachedGeocoder(embedded, store.geocodeCache, DEFAULT_TTL, Date.now, EMBEDDED_CACHE_KEY),
    offline: (address) => embedded.geocode(address),
  }
  const places = placeSearchAt(config.dataPath)
  if (!isHttpProvider(config.provider)) return { geocoder: cachedEmbedded, places, close: () => embedded.close() }
  // One adapter per process: the Nominatim one-request-per-second gate lives in it. Keyed by
  // adapter version and endpoint: a mended adapter, or GEOCODER_URL set to another instance, is
  // asked afresh, not hidden behind answers cached by an older build or from the old instance.
  const key = httpCacheKey(config.provider, config.url)
  const http = cachedGeocoder(
    createHttpGeocoder(config, options),
    store.geocodeCache,
    PROVIDER_CACHE_TTL[config.provider],
    Date.now,
    key,
  )
  return {
    geocoder: withFallback(http, cachedEmbedded, options.warn),
    primary: http,
    fallback: cachedEmbedded,
    places,
    close: () => embedded.close(),
  }
}
