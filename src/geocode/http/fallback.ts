import { type GeocodeResult, type Geocoder, geocodeOffline } from '../geocoder'
import { GeocoderUnavailableError } from './request'

/** What a fallback's answer's source carries after the fallback's own name, before the primary's failure. */
const FALLBACK_NOTE = ' (fallback: '

/** Whether a geocoding source names a fallback's answer (withFallback): coarser than the provider's, and given only while it failed. */
export const isFallbackSource = (source: string) => source.includes(FALLBACK_NOTE)

/** The geocoder that gave a fallback's answer, from its source: "embedded (fallback: ...)" -> "embedded". */
export const fallbackName = (source: string) => source.slice(0, source.indexOf(FALLBACK_NOTE))

/** A SQL LIKE pattern for the sources of the answers a fallback gave while `provider` failed. */
export const fallbackSourcePattern = (provider: string) => `%${FALLBACK_NOTE}${provider} %`

/** `result` as a fallback's answer given because the primary failed for `reason` (its name first: "google timed out after 3000 ms"). */
export const asStopgap = (result: GeocodeResult, reason: string): GeocodeResult => ({
  ...result,
  source: `${result.source}${FALLBACK_NOTE}${reason})`,
})

/** Why the primary failed, from a fallback's answer's source: "embedded (fallback: google timed out after 3000 ms)" -> "google timed out after 3000 ms". */
export const fallbackReason = (source: string) => source.slice(source.indexOf(FALLBACK_NOTE) + FALLBACK_NOTE.length, -1)

/** A failure reason is warned about at most this often. */
const WARN_EVERY_MS = 60_000

/**
 * Asks `primary`; only when it cannot answer (GeocoderUnavailableError) asks `fallback`, and notes
 * why in the result's source: "embedded (fallback: nominatim timed out after 3000 ms)". When the
 * fallback finds nothing either, the primary's error is thrown again: the address may well exist,
 * and the caller says so (try again later), where a null means "no such address". A null from the
 * primary is an answer and stays null. Any other error is a bug and is not hidden. The primary's
 * own deadline bounds its share, so a call takes at most the primary's timeout plus the
 * fallback's time. Each failure is told to `warn` (a refused key, an outage: otherwise only the
 * locations' source notes would say), each reason at most once a minute.
 */
export function withFallback(
  primary: Geocoder,
  fallback: Geocoder,
  warn: (reason: string) => void = () => {},
  now: () => number = () => performance.now(),
): Geocoder {
  const lastWarned = new Map<string, number>()
  return {
    name: primary.name,
    offline: (address) => geocodeOffline(fallback, address),
    async geocode(address) {
      try {
        return await primary.geocode(address)
      } catch (err) {
        if (!(err instanceof GeocoderUnavailableError)) throw err
        const t = now()
        // One reason whatever its durations ("timed out after 2150 ms", "... 50 ms"), whether part of it was a wait for a request
        // slot ("... (300 ms of it waiting for a request slot)") and when a Retry-After wait ends ("... until 2026-11-24T12:00:01Z":
        // a provider answering each request with a 1 s wait gives a new end every second): else each call would be warned about.
        // HTTP statuses stay apart.
        const reason = err.message
          .replace(/ \(\d+ ms of it waiting for a request slot\)/, '')
          .replace(/\d+ ms\b/g, '# ms')
          .replace(/ until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, ' until #')
        if (t - (lastWarned.get(reason) ?? -Infinity) >= WARN_EVERY_MS) {
          if (lastWarned.size >= 100) lastWarned.clear()
          lastWarned.set(reason, t)
          warn(err.message)
        }
        const result = await fallback.geocode(address)
        if (result === null) throw err
        return asStopgap(result, err.message)
      }
    },
  }
}
