import type { AddressParts } from '../store/locations'
import { isBusyError, storageFault } from '../store/db'
import type { GeocodeCacheRepo } from '../store/geocode-cache'

export const PRECISIONS = ['rooftop', 'street', 'postcode', 'city', 'region', 'country'] as const
export type Precision = (typeof PRECISIONS)[number]

export type GeocodeResult = {
  lat: number
  lng: number
  precision: Precision
  /** Which geocoder answered, e.g. "embedded" or "nominatim". */
  source: string
  parts: AddressParts
  /**
   * When the geocoder gave this answer (ms since the epoch), where a cache in front of it knows: a
   * cached answer is as old as its entry, and a provider's terms (Google's 30 days) count from then.
   */
  obtainedAt?: number
}

/** When a location's point was obtained from `found` (geocodedAt), as an ISO time: `now` unless a cache knows better. */
export const obtainedAtIso = (found: GeocodeResult, now: string): string =>
  found.obtainedAt === undefined ? now : new Date(found.obtainedAt).toISOString()

/** Turns a free-text address into coordinates, or null when it cannot do so honestly. */
export interface Geocoder {
  readonly name: string
  geocode(address: string): Promise<GeocodeResult | null>
  /** The embedded geocoder behind an HTTP provider, for checks that must cost no provider request. */
  offline?(address: string): Promise<GeocodeResult | null>
}

/** `address` looked up without a provider's request: by the embedded geocoder behind `g`, else by `g`. */
export const geocodeOffline = (g: Geocoder, address: string): Promise<GeocodeResult | null> =>
  g.offline ? g.offline(address) : g.geocode(address)

/** The default until the embedded offline geocoder lands: resolves nothing, so callers must send coordinates. */
export const noGeocoder: Geocoder = {
  name: 'none',
  geocode: async () => null,
}

/**
 * The cache's key for an address: it folds only what no geocoder reads apart, so two addresses
 * that may be placed differently never share an answer. Unicode's composed form, one space for a
 * run of spaces or tabs, none beside a separator (, ; | or a line break), none at the ends:
 * "12 Main St ,\tSpringfield " -> "12 Main St,Springfield". Case, punctuation and which separator
 * was used are kept: the offline geocoder reads "Paris, TX" (a state) and "paris, tx" (words) apart.
 */
export function normalizeAddress(address: string): string {
  return address
    .normalize('NFC')
    .replace(/\r\n/g, '\n') // a lone \r is a space to the offline geocoder, as below
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?([,;|\n]) ?/g, '$1')
    .trim()
}

export type CacheTtl = { hitMs: number; missMs: number }
export const DEFAULT_TTL: CacheTtl = { hitMs: 90 * 86_400_000, missMs: 86_400_000 }

/**
 * Wraps a geocoder with the SQLite cache, keyed by provider and normalized address. Misses are
 * cached too, for a shorter time. Concurrent lookups of one address share one upstream call.
 */
export function cachedGeocoder(
  inner: Geocoder,
  cache: GeocodeCacheRepo,
  ttl: CacheTtl = DEFAULT_TTL,
  now = Date.now,
  /** The cache's provider key; defaults to the geocoder's name. Include a data version where answers change with it. */
  cacheKey: string = inner.name,
): Geocoder {
  const inFlight = new Map<string, Promise<GeocodeResult | null>>()
  return {
    name: inner.name,
    async geocode(address) {
      const query = normalizeAddress(address)
      if (query === '') return null
      const t = now()
      const cached = cache.get(cacheKey, query, t)
      // The TTL in force now, also for entries stored under a longer one (Google's was 30 days).
      if (cached !== undefined && t - cached.createdAt < (cached.result === null ? ttl.missMs : ttl.hitMs))
        return cached.result === null
          ? null
          : { ...(JSON.parse(cached.result) as GeocodeResult), obtainedAt: cached.createdAt }
      const pending = inFlight.get(query)
      if (pending) return pending
      const lookup = inner
        .geocode(address)
        .then(async (result) => {
          // Stored (waiting for another process's lock without stopping this one) before it is
          // answered; not stored if that lock was held past busy_timeout, or the database's storage
          // refused it (disk full, read-only: a write that needs the answer meets that itself and
          // says so; `storeloc geocode` answers): asked again next time.
          await cache
            .put(cacheKey, query, result ? JSON.stringify(result) : null, now(), result ? ttl.hitMs : ttl.missMs)
            .catch((e) => {
              if (!isBusyError(e) && storageFault(e) === null) throw e
            })
          return result
        })
        .finally(() => inFlight.delete(query))
      inFlight.set(query, lookup)
      return lookup
    },
  }
}
