// The HTTP geocoders: one thin adapter per provider over a shared transport (request.ts).
import { ConfigError, type GeocoderConfig, type GeocoderProvider } from '../../core/config'
import type { CacheTtl, Geocoder } from '../geocoder'
import { google } from './google'
import { mapbox } from './mapbox'
import { nominatim } from './nominatim'
import { opencage } from './opencage'
import { pelias } from './pelias'
import { photon } from './photon'
import { httpGeocoder, type HttpGeocoderOptions, type HttpGeocoderProvider, type ProviderSpec } from './request'

export {
  asStopgap,
  fallbackName,
  fallbackReason,
  fallbackSourcePattern,
  isFallbackSource,
  withFallback,
} from './fallback'
export { GeocoderUnavailableError, type HttpGeocoderOptions, type HttpGeocoderProvider } from './request'

const SPECS = { nominatim, photon, pelias, google, mapbox, opencage } as const satisfies Record<
  HttpGeocoderProvider,
  ProviderSpec
>

const DAY_MS = 86_400_000

/**
 * How long a provider's coordinates may be kept in a location, per its terms (absent: no limit).
 * Google's Maps Platform terms allow caching them for at most 30 consecutive days. refresh.ts
 * geocodes such points again from REFRESH_AHEAD_MS before their limit. A provider added here
 * needs a partial index of its points, as locations_geocoded_by_google (store migration 4), or
 * each refresh reads every row to find them.
 */
export const STORAGE_LIMITS: Partial<Record<HttpGeocoderProvider, number>> = { google: 30 * DAY_MS }

/** How long before its limit a point is geocoded again: a day, so an outage of the provider then costs nothing (the next runs try again). */
export const REFRESH_AHEAD_MS = DAY_MS

/**
 * How long the geocode cache may keep each provider's answers, per its terms.
 * - google: within the 30 days of STORAGE_LIMITS, and shorter than a point's age when it is
 *   refreshed (30 days less REFRESH_AHEAD_MS), so the refresh is never handed the point's own answer
 *   again. A location records when its answer was obtained (a cached one: its entry's time).
 * - mapbox: storing is allowed only because we use the permanent endpoint (see mapbox.ts);
 *   temporary-geocoding results could not be cached at all.
 * - nominatim, photon, pelias, opencage: open data (OpenStreetMap under the ODbL, OpenAddresses,
 *   ...) whose terms allow keeping results, with attribution; hits are refreshed quarterly.
 * Misses live a day everywhere: an address the provider lacks today may be added tomorrow.
 */
export const PROVIDER_CACHE_TTL = {
  nominatim: { hitMs: 90 * DAY_MS, missMs: DAY_MS },
  photon: { hitMs: 90 * DAY_MS, missMs: DAY_MS },
  pelias: { hitMs: 90 * DAY_MS, missMs: DAY_MS },
  google: { hitMs: 28 * DAY_MS, missMs: DAY_MS },
  mapbox: { hitMs: 90 * DAY_MS, missMs: DAY_MS },
  opencage: { hitMs: 90 * DAY_MS, missMs: DAY_MS },
} as const satisfies Record<HttpGeocoderProvider, CacheTtl>

/**
 * Each adapter's version, in its answers' cache key: bump a provider's when its reading of answers
 * changes (a point or a precision it now reads otherwise, an answer it now refuses), in its own file
 * or in parts.ts, which every adapter reads through (then bump them all). Answers cached under an
 * older version are not served again: the lookup asks the provider, and the old rows are purged as
 * they expire. 1: the first versioned keys, after 0,0 was refused; keys before had no version.
 * 2: address parts over 200 characters, or with a line break or bidi control, left out (parts.ts).
 */
export const ADAPTER_VERSIONS = {
  nominatim: 2,
  photon: 2,
  pelias: 2,
  google: 2,
  mapbox: 2,
  opencage: 2,
} as const satisfies Record<HttpGeocoderProvider, number>

/**
 * The geocode cache's provider key for `provider`'s answers from `url` (null: its public endpoint):
 * its name and adapter version, and for any other endpoint a hash of it, "nominatim@1#2q1k7wz8v3c0j":
 * an instance with other data (a self-hosted one) never gets another's cached answers. The URL is
 * not stored, and its user and password are not even hashed: a fast hash of a password is checked
 * against guesses in nanoseconds, and an instance answers the same whoever logs in. Should a Bun
 * release hash otherwise, the endpoint's answers are only asked for once more.
 */
export function httpCacheKey(provider: HttpGeocoderProvider, url: string | null): string {
  const key = `${provider}@${ADAPTER_VERSIONS[provider]}`
  if (url === null) return key
  const endpoint = endpointOf(url)
  return endpoint === endpointOf(SPECS[provider].defaultUrl) ? key : `${key}#${Bun.hash.wyhash(endpoint).toString(36)}`
}

/**
 * An endpoint as its answers tell it apart: scheme and host in lower case, the port unless the
 * scheme's default, the path without trailing slashes; no user or password. `url` parses (loadConfig).
 */
function endpointOf(url: string): string {
  const parsed = new URL(url)
  parsed.username = ''
  parsed.password = ''
  return parsed.href.replace(/\/+$/, '')
}

export function isHttpProvider(provider: GeocoderProvider): provider is HttpGeocoderProvider {
  return Object.hasOwn(SPECS, provider)
}

/** The adapter for `config.provider`; fails fast on a provider that is not an HTTP one or lacks its key. */
export function createHttpGeocoder(config: GeocoderConfig, options?: HttpGeocoderOptions): Geocoder {
  const provider = config.provider
  if (!isHttpProvider(provider)) throw new ConfigError(`GEOCODER=${provider} is not an HTTP geocoder.`)
  const needsKey =
    provider === 'google' ||
    provider === 'mapbox' ||
    provider === 'opencage' ||
    (provider === 'pelias' && config.url === null)
  if (needsKey && !config.apiKey) {
    throw new ConfigError(
      provider === 'pelias'
        ? 'GEOCODER=pelias without GEOCODER_URL uses geocode.earth, which needs GEOCODER_API_KEY; set GEOCODER_URL for your own Pelias.'
        : `GEOCODER=${provider} needs GEOCODER_API_KEY.`,
    )
  }
  return httpGeocoder(SPECS[provider], config, options)
}
