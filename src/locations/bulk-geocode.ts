// Bulk upsert, step 2: the addresses that need it geocoded, a few at once.
import { samePoint } from '../store/location-compare'
import type { BulkItem, BulkProgress, BulkWords } from './bulk'
import type { Plan } from './bulk-check'
import { inColumns, type Problems, whoIs } from './bulk-problems'
import { GeocoderDownError, GeocodingOffError, LocationError } from './errors'
import { pickLocationFields } from './normalize'
import { otherCountryHint, placementWarnings } from './placement'
import { type AdminDeps, geocode } from './service'

/**
 * Addresses geocoded at once: their cache rows share commits (one each would wait for its own
 * fsync), and an HTTP geocoder's own gate still spaces its requests (geocode/http/request.ts).
 */
const GEOCODE_CONCURRENCY = 8

/**
 * Said of a geocoded point sent back whose new address was placed: the list still holds the former
 * point, which the store remembers (bulk-apply.ts withReplacedPoint), so sent again it moves nothing.
 */
const MOVED_FROM_SENT_BACK =
  "The coordinates sent are its former address's point: the new address was geocoded, and the location moved to it. Write its new coordinates in their place, or leave them out; sent again, they are read as its former point, not as a pin."

/** Step 2: the addresses that need it geocoded (new ones, without coordinates); problems in item order. */
export async function geocodeAll(
  deps: AdminDeps,
  items: BulkItem[],
  plans: Plan[],
  problems: Problems,
  words: BulkWords,
  onProgress?: (p: BulkProgress) => void,
): Promise<void> {
  const todo = plans.filter((p) => p.patch.address !== undefined && !p.patch.coordinates && !p.keepsPoint)
  const failed = new Map<Plan, LocationError>()
  let next = 0
  let done = 0
  const worker = async () => {
    while (next < todo.length) {
      const plan = todo[next++]!
      try {
        plan.found = await geocode(deps, plan.patch.address!)
        plan.warnings.push(...(await placementWarnings(deps, plan.patch.address!, plan.found, items[plan.index]!)))
        if (plan.sentBack !== undefined && !samePoint(plan.found, plan.sentBack))
          plan.warnings.push(MOVED_FROM_SENT_BACK)
      } catch (e) {
        if (!(e instanceof LocationError)) throw e
        failed.set(plan, e)
      }
      const at = plan.found && { lat: plan.found.lat, lng: plan.found.lng }
      onProgress?.({ stage: 'geocoded', done: ++done, total: todo.length, ...(at && { at }) })
    }
  }
  await Promise.all(Array.from({ length: Math.min(GEOCODE_CONCURRENCY, todo.length) }, worker))
  for (const plan of todo) {
    const error = failed.get(plan)
    if (error === undefined) continue
    // A geocoder down, or none (GEOCODER=none), says nothing of the address: the row is refused,
    // so a retry geocodes it, or the sender places it; the old point is kept only for an address
    // a geocoder looked for and could not place.
    const off = error instanceof GeocodingOffError
    if (plan.sentBack !== undefined && !off && !(error instanceof GeocoderDownError)) {
      keptAsPin(plan, items[plan.index]!)
      continue
    }
    const item = items[plan.index]!
    const { columns, unplaced } = item
    const message = plan.sentBack !== undefined && off ? sentBackUnplaced(plan, columns, words) : error.message
    const said = `${inColumns(message, columns)}${await otherCountryHint(deps, item)}`
    problems.add(
      plan.key,
      whoIs(plan.key, pickLocationFields(plan.raw)),
      'address',
      unplaced ? `${said} ${unplaced}` : said,
    )
  }
}

/**
 * A geocoded point sent back with an address the geocoder cannot place stays, as a pin of that
 * address, and the row is told so; the point its address replaced, sent back, is no place for it:
 * the store keeps its own (Plan.keptAt). Its parts are the row's, as for any row with coordinates; those
 * it lacks (all, without part columns) come from the point (town.ts).
 */
function keptAsPin(plan: Plan, { parts }: BulkItem): void {
  const at = plan.keptAt ?? plan.sentBack!
  plan.patch = { ...plan.patch, coordinates: at, addressParts: parts ?? {} }
  plan.warnings.push(
    samePoint(at, plan.sentBack!)
      ? "The new address could not be placed: the location keeps the coordinates sent, its former address's point; check them."
      : 'The new address could not be placed: the location keeps its point, that of the address before it; check it.',
  )
}

/**
 * Why a geocoded point sent back with another address is refused when the service has no
 * geocoder, and the two ways on: the new address's point, or (a store that did not move) the
 * single-location update, which keeps the point sent. The point its address replaced is where the
 * store was before: the update keeps the store at its point now (Plan.keptAt), given in the
 * message. In a file, address columns make no difference (a row is read alike with or without them).
 */
function sentBackUnplaced(plan: Plan, columns: ReadonlyMap<string, string> | undefined, words: BulkWords): string {
  const pair = columns?.get('coordinates')
  const point =
    columns === undefined
      ? 'coordinates'
      : pair !== undefined
        ? `"${pair}"`
        : `"${columns.get('coordinates.lat') ?? 'lat'}" and "${columns.get('coordinates.lng') ?? 'lng'}"`
  const are = pair === undefined ? 'are' : 'is'
  const now = plan.keptAt
  const keep = words.keepPoint(plan.target!)
  if (now === undefined || samePoint(now, plan.sentBack!))
    return `The address changed, but ${point} ${are} the point geocoding gave the former address, and this service has no geocoder (GEOCODER=none) to place the new one. Send the new address's own ${point}; if the store has not moved, ${keep}, which keeps the point sent.`
  return `The address changed, but ${point} ${are} the point of the address before the one stored, where the store no longer is, and this service has no geocoder (GEOCODER=none) to place the new one. Send the new address's own ${point}; if the store has not moved from ${now.lat}, ${now.lng}, where the stored address placed it, ${keep} giving that point.`
}
