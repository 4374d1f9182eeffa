// Some providers' terms limit how long their coordinates may be kept: Google's, 30 days. This
// re-geocodes such locations a day before they come of age, through the normal write path (one
// transaction, change log), so the stored point is never older than the terms allow. While the
// provider is unavailable the point is kept and asked again at the next runs; only at its last run
// before the limit does the embedded fallback's point replace it (coarser, but within the terms).
// Such points are geocoded again at every run until the provider answers for them (or says it does
// not know the address: the fallback's point then stands).
import { stampAfter } from '../core/stamp-after'
import type { Store } from '../store'
import { isBusyError } from '../store/db'
import { unplacedRecord } from '../store/location-compare'
import {
  type GeocodedCursor,
  type GeocodeSources,
  type LocationRecord,
  type ReplacedPoint,
  replacedPointOf,
} from '../store/locations'
import { obtainedAtIso, type GeocodeResult, type Geocoder } from './geocoder'
import {
  asStopgap,
  fallbackName,
  fallbackReason,
  fallbackSourcePattern,
  GeocoderUnavailableError,
  isFallbackSource,
  REFRESH_AHEAD_MS,
  STORAGE_LIMITS,
} from './http'

/** How often the service runs the refresh (main.ts): at start, then every 6 hours. */
export const REFRESH_EVERY_MS = 6 * 3_600_000

/** A run's own length and a late timer: a point whose limit comes before the next run plus this is replaced now, by the fallback if need be. */
const NEXT_RUN_SLACK_MS = 3_600_000

/**
 * checked: points asked for; refreshed: written; failed: not written, to be tried at the next run
 * (asked in vain, an answer not stored while another process held the database past busy_timeout,
 * or, for those that may wait, left unasked once the provider failed; stopgaps left
 * unasked then are not counted). overdue: of those, points at their last chance that nothing replaced (neither the
 * provider nor the embedded geocoder answered): kept past the limit, for the operator to mend (a
 * better address, or coordinates); `overdueLocations` names up to 20.
 */
export type RefreshReport = {
  checked: number
  refreshed: number
  failed: number
  overdue: number
  overdueLocations: { locator: string; id: string }[]
}

export type RefreshOptions = {
  now?: Date
  /** At most this many points that may wait (due, not at their last chance) per provider and run; those at their last chance and the stopgaps are all taken. */
  batch?: number
  /** The time to the next run: a point whose limit comes before it (plus a slack) has its last chance now. */
  everyMs?: number
  /**
   * The embedded geocoder, asked at a point's last chance when the provider fails (its point, a
   * stopgap, is asked of the provider again at the next runs) or no longer knows the address (its
   * point, as its own, replaces the provider's).
   */
  fallback?: Geocoder
  /**
   * How a run places a refreshed point's record in its town (locations/town.ts placed), asked once
   * a run; without one, unplacedRecord: a record whose point or parts changed waits for the
   * reverse upkeep.
   */
  placer?: () => Promise<Placer>
}

/** A refreshed record `next` of the stored `current`, placed in its town. */
export type Placer = (next: LocationRecord, current: LocationRecord) => LocationRecord

/** How many times a point at its last chance that changed while it was asked is asked again in the run. */
const CHANGED_RETRIES = 2

/** Rows read at a time where a run takes them all (however many, each page is done before the next is read). */
const PAGE = 500

/**
 * Re-geocodes, per limited provider, with `geocoder` (the provider alone, as the service passes it;
 * one that falls back by itself works too, its fallback's answers taken as the provider's failure):
 * 1. the locations whose coordinates come of age before the next run, all of them;
 * 2. then up to `batch` whose coordinates come of age within REFRESH_AHEAD_MS, oldest first;
 * 3. then the stopgaps, whose coordinates a fallback gave while the provider failed, all of them.
 * Once the provider fails for a reason not of one address (a timeout, a refusal, over quota), it is
 * not asked again in the run: those at their last chance get the fallback's point at once, the
 * others wait for the next run. A location whose address or coordinates changed meanwhile is left
 * alone.
 */
export async function refreshLimitedGeocodes(
  store: Store,
  geocoder: Geocoder,
  options: RefreshOptions = {},
): Promise<RefreshReport> {
  const { now = new Date(), batch = 500, everyMs = REFRESH_EVERY_MS, fallback } = options
  const place = options.placer ? await options.placer() : unplacedRecord
  const report: RefreshReport = { checked: 0, refreshed: 0, failed: 0, overdue: 0, overdueLocations: [] }
  const at = now.toISOString()
  for (const [provider, maxAgeMs] of Object.entries(STORAGE_LIMITS)) {
    const lastChanceBefore = new Date(now.getTime() - maxAgeMs + everyMs + NEXT_RUN_SLACK_MS).toISOString()
    const dueBefore = new Date(now.getTime() - maxAgeMs + REFRESH_AHEAD_MS).toISOString()
    const points: GeocodeSources = { source: provider }
    const stopgaps: GeocodeSources = { sourceLike: fallbackSourcePattern(provider) }
    /** Why the provider failed in this run, for a reason not of one address; null while it has not. */
    let down: string | null = null
    /** The stopgaps this run wrote: not asked for again in it. */
    const written = new Set<string>()

    /** The provider's answer (null: it does not know the address), or why it failed. */
    const ask = async (
      address: string,
    ): Promise<{ found: GeocodeResult | null } | { failed: string; stopgap?: GeocodeResult }> => {
      try {
        const found = await geocoder.geocode(address)
        // The provider's answer obtained (cached) about as long ago as the point's: no fresher than
        // what it would replace. Another geocoder's (GEOCODER switched since) is not under the limit.
        if (found !== null && found.source === provider && obtainedAtIso(found, at) < lastChanceBefore)
          return { failed: `${provider} answered from a cache as old as the point` }
        if (found === null || !isFallbackSource(found.source)) return { found }
        // A geocoder that fell back by itself: the provider failed, its source says why.
        down = fallbackReason(found.source)
        return { failed: down, stopgap: found }
      } catch (e) {
        const reason = failureReason(provider, e)
        // An error of this address only (or a bug on its data): the next address may fare better.
        if (e instanceof GeocoderUnavailableError && e.scope === 'service') down = reason
        return { failed: reason }
      }
    }
    const stopgapFor = (address: string, reason: string) =>
      fallback
        ? fallback
            .geocode(address)
            .then((found) => found && asStopgap(found, reason))
            .catch(() => null)
        : null
    const fail = (location: LocationRecord, lastChance: boolean) => {
      report.failed++ // tried again on the next run
      if (lastChance) {
        report.overdue++
        if (report.overdueLocations.length < 20)
          report.overdueLocations.push({ locator: location.locatorId, id: location.id })
      }
    }

    /**
     * Asks for the point of a location geocoded by the provider; at its last chance, the fallback's
     * point if need be, and, when the location changed while it was asked (another address sent
     * with the point, which keeps its geocoding), again by what it holds now (`retries` times).
     */
    const refresh = async (location: LocationRecord, lastChance: boolean, retries = CHANGED_RETRIES): Promise<void> => {
      if (retries === CHANGED_RETRIES) report.checked++ // a point asked again is one point checked
      let found: GeocodeResult | null = null
      // The provider failed earlier in this run: the fallback's point now, without waiting for the
      // provider's timeout again; the provider is still asked when the fallback has none.
      if (down !== null && lastChance) found = await stopgapFor(location.address, down)
      if (found === null) {
        const answer = await ask(location.address)
        if ('found' in answer) {
          found = answer.found
          // It no longer knows the address: its point cannot be kept past the limit, the embedded geocoder's (as its own) may.
          if (found === null && lastChance && fallback)
            found = await fallback.geocode(location.address).catch(() => null)
        } else if (lastChance) {
          // It failed: at the last chance, the fallback's point, a stopgap. A point that may wait waits (a stopgap would replace a point that may still be kept).
          found = answer.stopgap ?? (await stopgapFor(location.address, answer.failed))
        }
      }
      if (!found) return fail(location, lastChance)
      const saved = await save(store, location, found, at, place)
      if (saved === 'busy') return void report.failed++ // an answer not stored: not overdue for want of one
      if (saved === 'saved') {
        report.refreshed++
        if (isFallbackSource(found.source)) written.add(location.id)
      } else if (lastChance) {
        // Still the provider's point, at its last chance: the next run would be too late.
        const current = store.locations.get(location.locatorId, location.id)
        if (
          current !== null &&
          current.geocoding?.source === provider &&
          (current.geocodedAt ?? '') < lastChanceBefore
        ) {
          if (retries > 0) return refresh(current, true, retries - 1)
          fail(current, true)
        }
      }
    }

    /** Asks the provider for the point of a stopgap. */
    const repair = async (location: LocationRecord) => {
      report.checked++
      const answer = await ask(location.address)
      if (!('found' in answer)) return fail(location, false)
      // The provider does not know the address: the fallback's point stands, as its own (no longer a stopgap).
      const point = answer.found ?? {
        lat: location.lat,
        lng: location.lng,
        precision: location.geocoding!.precision as GeocodeResult['precision'],
        source: fallbackName(location.geocoding!.source),
        parts: location.addressParts,
      }
      const saved = await save(store, location, point, at, place)
      if (saved === 'busy') return void report.failed++
      if (saved === 'saved') report.refreshed++
    }

    // 1. Those at their last chance, oldest first (unknown age first), every one: a batch could leave some past the limit.
    for (const page of pagesOf(store, points, lastChanceBefore)) {
      for (const location of page) await refresh(location, true)
    }
    // 2. Up to `batch` of those that may wait, while the provider answers (each ask would wait its timeout too).
    const mayWait =
      batch >= 1 ? store.locations.geocodedBy(points, dueBefore, batch, { geocodedAt: lastChanceBefore, id: '' }) : []
    for (const [i, location] of mayWait.entries()) {
      if (down !== null) {
        report.failed += mayWait.length - i
        break
      }
      await refresh(location, false)
    }
    // 3. The stopgaps, while the provider answers (those left are not counted: they wait by nature).
    if (down === null) {
      for (const page of pagesOf(store, stopgaps, at)) {
        for (const location of page) {
          if (down !== null) break
          // A stopgap may carry its fallback's (cached) answer's older time: those this run wrote are read again.
          if (!written.has(location.id)) await repair(location)
        }
        if (down !== null) break
      }
    }
  }
  return report
}

/** The locations of `sources` geocoded before `before`, every one, a page at a time: a page is read when the one before it is done. */
function* pagesOf(store: Store, sources: GeocodeSources, before: string): Generator<LocationRecord[]> {
  for (let after: GeocodedCursor | null = null; ; ) {
    const page = store.locations.geocodedBy(sources, before, PAGE, after)
    yield page
    if (page.length < PAGE) return
    after = page[page.length - 1]!
  }
}

/** Why `provider` failed, for a stopgap's source: its own words when it was unavailable; otherwise only the error's kind (a bug's message is no source note). */
function failureReason(provider: string, error: unknown): string {
  if (error instanceof GeocoderUnavailableError) return error.message
  return `${provider} failed (${error instanceof Error ? error.name : 'error'})`
}

/**
 * Stores `found` as the location's point: 'saved'; 'changed' when its address or point changed
 * since it was read; 'busy' when another process held the database past busy_timeout (waited for
 * without stopping this one): not written, tried again at the next run.
 */
async function save(
  store: Store,
  location: { locatorId: string; id: string; address: string; geocodedAt: string | null },
  found: GeocodeResult,
  at: string,
  place: Placer,
): Promise<'saved' | 'changed' | 'busy'> {
  const written = store.writeSoon(() => {
    const current = store.locations.get(location.locatorId, location.id)
    if (!current || current.address !== location.address || current.geocodedAt !== location.geocodedAt) return false
    const next: LocationRecord = {
      ...current,
      lat: found.lat,
      lng: found.lng,
      geocoding: { precision: found.precision, source: found.source },
      addressParts: found.parts,
      geocodedAt: obtainedAtIso(found, at),
      updatedAt: stampAfter(current.updatedAt, Date.parse(at)), // the run's time, past a change the row holds (one made during the run)
      replacedPoint: replacedBy(current, found),
    }
    store.locations.replace(place(next, current), current)
    return true
  })
  try {
    return (await written) ? 'saved' : 'changed'
  } catch (e) {
    if (isBusyError(e)) return 'busy'
    throw e
  }
}

/**
 * The point `current`'s address replaced, replaced now by `found`: the same address placed anew
 * leaves the former address's point as stale as before (locations/bulk-check.ts).
 */
function replacedBy(current: LocationRecord, found: GeocodeResult): ReplacedPoint | null {
  const replaced = replacedPointOf(current)
  return replaced === null ? null : { ...replaced, by: { lat: found.lat, lng: found.lng } }
}

export type RefreshLogLine = { level: 'info' | 'error'; message: string } & Record<string, unknown>

/**
 * Runs refreshLimitedGeocodes now and every `everyMs` (the service: REFRESH_EVERY_MS), and `log`s
 * each run that asked for anything, the points kept past their limit (as an error, for the
 * operator), and a run that failed. A run still going when the next is due is not joined by it:
 * both would ask the provider for the same addresses. Returns the stop.
 */
export function scheduleGeocodeRefresh(
  store: Store,
  geocoder: Geocoder,
  options: Omit<RefreshOptions, 'now'> & { log: (line: RefreshLogLine) => void },
): () => void {
  const { log, everyMs = REFRESH_EVERY_MS, ...rest } = options
  let running = false
  const run = () => {
    if (running) return
    running = true
    void refreshLimitedGeocodes(store, geocoder, { ...rest, everyMs })
      .then(({ overdueLocations, ...r }) => {
        if (r.checked > 0) log({ level: 'info', message: 'geocodes refreshed', ...r })
        if (r.overdue > 0) {
          const message =
            geocoder.name === 'none'
              ? `${r.overdue} location(s) keep a point past its provider's limit (Google's 30 days): with GEOCODER=none no geocoder replaces it. Send coordinates, or set GEOCODER.`
              : `${r.overdue} location(s) keep a point past its provider's limit (Google's 30 days): neither the geocoder (${geocoder.name})${rest.fallback ? ' nor the embedded one' : ''} gave another for their address. Mend the address, or send coordinates.`
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
