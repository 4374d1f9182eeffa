// Management API flows as plain functions: no Elysia, no HTTP. Each write is validated first,
// geocoded outside the transaction, then committed in one immediate transaction, shared with the
// other requests' writes that arrived meanwhile (store.writeSoon: one commit between them).
import { stampAfter } from '../core/stamp-after'
import { clipped, isBlankCode, meantName, WHOLE_NUMBER } from '../core/text'
import { noGeocoder, obtainedAtIso, type Geocoder, type GeocodeResult } from '../geocode/geocoder'
import { GeocoderUnavailableError } from '../geocode/http'
import { newLocationRecord } from './record'
import { FLAG_VALUES, flagValue, single } from '../core/urlencoded'
import { trimStrings } from '../core/validation'
import { type CsvStyle, csvSeparator, PLAIN_CSV } from './csv-write'
import type { Store } from '../store'
import { samePoint } from '../store/location-compare'
import { DAYS, type LocationRecord, type LocationStatus } from '../store/locations'
import { blankCodeProblem, type Coded, codeHolders, codeSaid, otherHolders, twinsOf } from './bulk-codes'
import { GeocoderDownError, GeocodingOffError, LocationError } from './errors'
import { CONTACT_KEYS, EXTERNAL_ID_MAX, LOCATION_FIELDS, SOCIAL_KEYS, statusInput } from './model'
import { mergeMap, normalizeLocationBody, pickLocationFields, type LocationPatch } from './normalize'
import { zoneOf } from '../core/zone'
import { keptZone, unreadHours } from './opening'
import { placed, REVERSE_SOURCE, type TownLookup, type TownSource } from './town'
import type { TownGuess } from './town-guess'
import { postcodeCountries } from '../geocode/embedded/postcode-forms'
import type { ReverseLookup } from '../geocode/embedded/reverse'
import type { RoomFor } from './cap'

export type AdminDeps = {
  store: Store
  geocoder: Geocoder
  /**
   * Called with a write's result inside its transaction, after the write: what it keeps (an
   * Idempotency-Key's answer) commits with the write or not at all; a throw undoes the write.
   */
  inWrite?: (result: unknown) => void
  /** The reverse lookup that completes a location's address parts and town (town.ts); none: left to the reverse upkeep. */
  towns?: TownSource
  /** The town a misspelt address may mean, said when it cannot be placed (town-guess.ts); none: not said. */
  guess?: TownGuess
  /** Called in a write's transaction before it creates locations: refuses past LOCATOR_MAX_LOCATIONS (cap.ts); none: no most. */
  roomFor?: RoomFor
}

/** The deps' reverse lookup, or null when there is none or it cannot be read now (the upkeep then places the rows). */
export async function townsOf(deps: AdminDeps): Promise<ReverseLookup | null> {
  try {
    return (await deps.towns?.()) ?? null
  } catch {
    return null
  }
}

const filled = <K extends string>(keys: readonly K[], values: Partial<Record<K, string>>) =>
  Object.fromEntries(keys.map((k) => [k, values[k] ?? ''])) as Record<K, string>

/** The Management API's location: every field, always. */
export function toAdminLocation(r: LocationRecord) {
  return {
    id: r.id,
    external_id: r.externalId,
    name: r.name,
    address: r.address,
    coordinates: { lat: r.lat, lng: r.lng },
    description: r.description,
    tags: r.tags,
    contact: filled(CONTACT_KEYS, r.contact),
    social: filled(SOCIAL_KEYS, r.social),
    hours: filled(DAYS, r.hours),
    special_hours: r.specialHours,
    timezone: zoneOf(r),
    hours_unread: unreadHours(r),
    custom_fields: r.customFields,
    image_url: r.imageUrl,
    status: r.status,
    geocoding: r.geocoding,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  }
}
export type AdminLocation = ReturnType<typeof toAdminLocation>

export const MAX_LIMIT = 500
/** The highest page of GET /admin/v1/locations. */
export const MAX_PAGE = 10_000_000

function positiveInteger(raw: string | null, name: string, fallback: number, max: number): number {
  if (raw === null) return fallback
  // Whole, as the Query API takes it: "20.0" is 20.
  if (!WHOLE_NUMBER.test(raw) || Number(raw) < 1) {
    throw new LocationError(
      'invalid_request',
      `The ${name} parameter must be a whole number of at least 1; got "${raw}".`,
    )
  }
  const n = Number(raw)
  if (n > max) {
    if (name === 'limit')
      throw new LocationError('limit_exceeded', `The limit parameter may not be greater than ${MAX_LIMIT}; got ${raw}.`)
    throw new LocationError('invalid_request', `The ${name} parameter may not be greater than ${max}.`)
  }
  return n
}

/** A list parameter's value, or null; given twice, 400 invalid_request. */
const once = (params: URLSearchParams, name: string) =>
  single(params, name, (tail) => new LocationError('invalid_request', `The ${name} parameter ${tail}`))

/** The status parameter: published or draft (or an alias of draft); null, for both, when absent or empty. */
function statusParam(params: URLSearchParams): LocationStatus | null {
  const raw = once(params, 'status')
  if (raw === null || raw === '') return null
  const status = statusInput(raw)
  if (!status)
    throw new LocationError('invalid_request', `The status parameter must be published or draft; got "${raw}".`)
  return status
}

/**
 * The external_id parameter, trimmed, or null when absent. One no location can have (empty, too
 * long) is 400 invalid_request: an empty page would read as "not there yet" to a sync script.
 */
function externalIdParam(params: URLSearchParams): string | null {
  const raw = once(params, 'external_id')
  if (raw === null) return null
  const id = trimStrings(raw) as string // as a write keeps it: "Café" with a combining accent finds "Café"
  if (id === '' || id.length > EXTERNAL_ID_MAX)
    throw new LocationError(
      'invalid_request',
      `The external_id parameter must be 1 to ${EXTERNAL_ID_MAX} characters; got ${id === '' ? 'an empty one' : `${id.length} characters`}. Leave it out to list every location.`,
    )
  return id
}

/** What GET /locations/export asks for: its format (json unless csv), status, and the CSV's style. */
export function exportQuery(params: URLSearchParams): {
  format: 'json' | 'csv'
  status: LocationStatus | null
  style: CsvStyle
} {
  takesOnly(params, ['format', 'status', 'separator', 'bom'])
  const sentFormat = once(params, 'format')
  // Any case, as the flags and status are read.
  const format = sentFormat === null ? 'json' : sentFormat.trim().toLowerCase()
  if (format !== 'json' && format !== 'csv')
    throw new LocationError(
      'invalid_request',
      `The format parameter must be json or csv (in any case); got ${JSON.stringify(sentFormat)}.`,
    )
  const refused = (message: string) => new LocationError('invalid_request', message)
  const asked = once(params, 'separator')
  const separator = asked === null ? PLAIN_CSV.separator : csvSeparator(asked)
  if (separator === null)
    throw refused(`The separator parameter must be ",", ";" or tab; got ${JSON.stringify(asked)}.`)
  const sentBom = once(params, 'bom')
  // A BOM by default: Excel reads a file without one in its code page, accents garbled.
  const bom = sentBom === null ? true : flagValue(sentBom)
  if (bom === null) throw refused(`The bom parameter must be ${FLAG_VALUES}; got ${JSON.stringify(sentBom)}.`)
  if (format === 'json' && (asked !== null || sentBom !== null))
    throw refused('The separator and bom parameters are for format=csv.')
  return { format, status: statusParam(params), style: { separator, bom } }
}

/**
 * Refuses a query parameter that is not one of `names`, the ones a route takes: a misspelt option
 * would otherwise be dropped unseen ("externalId" would list every location, "dry-run" write for
 * real). "_" is a cache-buster's (jQuery's cache: false), and means nothing.
 */
export function takesOnly(params: URLSearchParams, names: readonly string[]): void {
  const takes = names.length < 2 ? (names[0] ?? 'none') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
  for (const [name, value] of params) {
    if (name === '_' || names.includes(name)) continue
    // A name a reader could not see as written (none, a space, a control character) is quoted.
    const shown = /^[\w.[\]-]{1,60}$/.test(name) ? name : JSON.stringify(clipped(name))
    throw new LocationError(
      'invalid_request',
      name === ''
        ? `The query string has a parameter with no name (${JSON.stringify(clipped(`=${value}`))}): this route takes ${takes}.`
        : `The ${shown} parameter is unknown${meantName(name, names)}: this route takes ${takes}.`,
    )
  }
}

export function listLocations(deps: AdminDeps, locatorId: string, params: URLSearchParams) {
  takesOnly(params, ['limit', 'page', 'status', 'external_id'])
  const limit = positiveInteger(once(params, 'limit'), 'limit', 10, MAX_LIMIT)
  const page = positiveInteger(once(params, 'page'), 'page', 1, MAX_PAGE)
  const status = statusParam(params)
  const externalId = externalIdParam(params)
  let total: number
  let rows: LocationRecord[]
  if (externalId !== null) {
    // One location at most: found by the unique indexes, not by a page of the locator's rows; as
    // written, else but for invisible characters, as the bulk route matches codes.
    const held = codeHolders(deps.store, locatorId)(externalId)
    if (held.twins.length > 1)
      throw new LocationError(
        'conflict',
        `The external_id ${JSON.stringify(externalId)} names no location alone: it is ${twinsOf(held.twins)}. Read each by its id (GET /admin/v1/locations/{id}), and give one of them another external_id, or delete it if it is the same store twice.`,
      )
    const found = held.location
    const all = found && (status === null || found.status === status) ? [found] : []
    total = all.length
    rows = all.slice((page - 1) * limit, page * limit)
  } else {
    total = deps.store.locations.count(locatorId, status)
    rows = deps.store.locations.page(locatorId, status, limit, (page - 1) * limit)
  }
  const totalPages = Math.ceil(total / limit)
  const link = (n: number) => {
    let path = `/admin/v1/locations?page=${n}`
    if (params.has('limit')) path += `&limit=${limit}`
    if (status) path += `&status=${status}`
    if (externalId !== null) path += `&external_id=${encodeURIComponent(externalId)}`
    return path
  }
  return {
    locations: rows.map(toAdminLocation),
    pagination: {
      page,
      limit,
      total,
      total_pages: totalPages,
      next: page < totalPages ? link(page + 1) : null,
      previous: page > 1 ? link(Math.min(page - 1, Math.max(totalPages, 1))) : null,
    },
  }
}

/**
 * 409 conflict when another location of the locator has `externalId`, as written or but for
 * invisible characters (undefined or null: nothing to check). Asked before geocoding, to fail
 * early, and again in the write transaction, which decides.
 */
export function checkExternalIdFree(
  deps: AdminDeps,
  locatorId: string,
  externalId: string | null | undefined,
  selfId: string | null,
): void {
  if (externalId === undefined || externalId === null) return
  // One no location holds as written reads as no code, as on the bulk route.
  if (isBlankCode(externalId) && deps.store.locations.holderOf(locatorId, externalId) === null)
    throw new LocationError('validation_error', undefined, { external_id: [blankCodeProblem(externalId)] })
  const holders = otherHolders(deps.store, locatorId, externalId, selfId)
  if (holders.length === 0) return
  const [holder] = holders as [Coded]
  const whose =
    holders.length > 1
      ? twinsOf(holders)
      : holder.externalId === externalId
        ? `already that of location ${holder.id} (${JSON.stringify(holder.name)})`
        : `already that of location ${holder.id} (${JSON.stringify(holder.name)}) but for invisible characters: ${codeSaid(holder.externalId)}`
  throw new LocationError(
    'conflict',
    `The external_id ${JSON.stringify(externalId)} is ${whose}; external ids are unique within a locator. Update ${holders.length > 1 ? 'one of them' : 'that location'} instead, or give it another external_id first.`,
  )
}

/** The routes whose last segment a misspelt path sends to /locations/{id}, with the operation meant. */
const NEAR_ROUTES = [
  ['bulk', 'POST /admin/v1/locations/bulk'],
  ['export', 'GET /admin/v1/locations/export'],
  ['custom_fields', 'GET /admin/v1/custom_fields'],
] as const

/**
 * Whether `word` is route `name` as a hand slips on it: in another case or with other separators
 * ("Export", "custom-fields"), a letter doubled ("bulkk"), dropped from a name over 4 letters
 * ("exort"), two side by side swapped ("exprot"), or an "s" after it. A letter changed or added
 * ("report", "import", "bulky") is not: such a word is a store code sent as an id as likely as a
 * route meant, and a guess there misleads.
 */
function slipOf(word: string, name: string): boolean {
  const w = word.toLowerCase().replace(/[-_ ]/g, '')
  const n = name.replace(/_/g, '')
  if (w === n || w === `${n}s`) return true
  for (let i = 0; i < n.length; i++) {
    if (w === n.slice(0, i + 1) + n.slice(i)) return true
    if (n.length > 4 && w === n.slice(0, i) + n.slice(i + 1)) return true
    if (w === n.slice(0, i) + n.slice(i + 1, i + 2) + n.slice(i, i + 1) + n.slice(i + 2)) return true
  }
  return false
}

/**
 * 404 for `id` in `locatorId`'s locations: naming the location whose external_id it is, if one,
 * else the route it is a slip of, if one.
 */
function notFound(deps: AdminDeps, locatorId: string, id: string): LocationError {
  // An id (loc_ and its 16 characters, in any case) is never taken for a store code or a route's name.
  if (/^loc_/i.test(id)) return new LocationError('not_found', `Location ${JSON.stringify(id)} was not found.`)
  const coded = deps.store.locations.byExternalId(locatorId, id)?.id
  if (coded !== undefined)
    return new LocationError(
      'not_found',
      `Location ${JSON.stringify(id)} was not found. Ids begin with loc_; the location whose external_id is ${JSON.stringify(id)} is ${coded}: /admin/v1/locations/${coded}.`,
    )
  const near = NEAR_ROUTES.find(([name]) => slipOf(id, name))
  const meant = near === undefined ? '' : ` Did you mean ${near[1]}?`
  // A store code sent as an id: say where it is found.
  return new LocationError(
    'not_found',
    `Location ${JSON.stringify(id)} was not found.${meant} Ids begin with loc_; to find a location by its external_id, GET /admin/v1/locations?external_id=${encodeURIComponent(id)}.`,
  )
}

export function requireLocationId(id: string | undefined): string {
  const trimmed = (id ?? '').trim()
  // Elysia gives no ID for a path segment that is not valid percent-encoded UTF-8 ("%zz").
  if (trimmed === '')
    throw new LocationError(
      'invalid_request',
      'The location ID is missing from the path, or is not valid percent-encoded UTF-8: /admin/v1/locations/{id}.',
    )
  return trimmed
}

export function getLocation(deps: AdminDeps, locatorId: string, id: string): AdminLocation {
  const row = deps.store.locations.get(locatorId, requireLocationId(id))
  if (!row) throw notFound(deps, locatorId, id)
  return toAdminLocation(row)
}

/** " Did you mean Edinburgh, United Kingdom?" (town-guess.ts), or "" when there is no guess (or it fails). */
async function guessed(deps: AdminDeps, address: string): Promise<string> {
  const guess = await deps.guess?.(address).catch(() => null)
  return guess ? ` ${guess}` : ''
}

/**
 * " It gives the postcode 10001 but no town or country: ..." for an address of a street and a
 * postcode alone ("0 Main St, 10001"), whose postcode may be of several countries; else "".
 * A part without a digit may be a town, and is left to the guess.
 */
export function postcodeWithoutTown(address: string): string {
  const parts = address
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
  const code = parts.slice(1).find((p) => postcodeCountries(p).length > 0)
  if (code === undefined || parts.some((p) => !/\d/.test(p))) return ''
  return ` It gives the postcode ${code} but no town or country, and a postcode alone may be of several countries (${postcodeCountries(code).join(', ')}): add the town and the country after it.`
}

/** The geocoder's answer for `address`, or the documented geocoding_failed error. */
export async function geocode(deps: AdminDeps, address: string): Promise<GeocodeResult> {
  let result: GeocodeResult | null
  try {
    result = await deps.geocoder.geocode(address)
  } catch (e) {
    if (!(e instanceof GeocoderUnavailableError)) throw e
    // The HTTP geocoder could not answer and the embedded one does not know the address: the
    // spec's only code for an address without a point, with the advice that fits: the service
    // down, try again; the service refusing this address (or answering it with nonsense), a retry
    // fares no better.
    if (e.scope === 'address')
      throw new LocationError(
        'geocoding_failed',
        `The address ${JSON.stringify(address)} could not be geocoded: the geocoding service could not place it (${e.message}) and the built-in geocoder does not know it. Check the address, or send coordinates ({"lat": ..., "lng": ...}).`,
      )
    throw new GeocoderDownError(
      `The address ${JSON.stringify(address)} could not be geocoded now: the geocoding service is unavailable (${e.message}) and the built-in geocoder does not know it. Try again later, or send coordinates ({"lat": ..., "lng": ...}).`,
    )
  }
  if (!result) {
    if (deps.geocoder.name === noGeocoder.name)
      throw new GeocodingOffError(
        'Geocoding is off on this service (GEOCODER=none): send coordinates ({"lat": ..., "lng": ...}) with the address.',
      )
    throw new LocationError(
      'geocoding_failed',
      `The address ${JSON.stringify(address)} could not be geocoded.${(await guessed(deps, address)) || postcodeWithoutTown(address)} Fix the address or send coordinates ({"lat": ..., "lng": ...}).`,
    )
  }
  return result
}

/**
 * `write`, in the write queue, refused when its locator was deleted since the request's key was
 * checked (storeloc locator delete while the body arrived or an address was geocoded): its rows
 * would fail their foreign key.
 */
export function locatorWrite<T>(deps: AdminDeps, locatorId: string, write: () => T): Promise<T> {
  return deps.store.writeSoon(() => {
    if (deps.store.locators.get(locatorId) === null) throw locatorGone(locatorId)
    return write()
  })
}

const locatorGone = (locatorId: string) =>
  new LocationError('no_locator', `Locator ${locatorId} was deleted meanwhile; nothing was written.`)

/**
 * Inside the write transaction: the custom fields a body sets are checked again against the
 * definitions as they are now. The CLI may have removed a field, or removed it and added it again
 * with another type, while the request waited for the geocoder.
 */
export function checkCustomFieldsAgain(
  deps: AdminDeps,
  locatorId: string,
  fields: Record<string, unknown>,
  mode: 'create' | 'update',
): void {
  if (fields.custom_fields !== undefined) normalizeLocationBody(fields, mode, deps.store.customFields.list(locatorId))
}

/** The body as an object of location fields, or the documented error for what was sent instead. */
function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {}
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new LocationError('invalid_request', 'The request body must be a JSON object of location fields.')
  }
  return pickLocationFields(body as Record<string, unknown>)
}

export async function createLocation(deps: AdminDeps, locatorId: string, body: unknown): Promise<AdminLocation> {
  const fields = bodyObject(body)
  const patch = normalizeLocationBody(fields, 'create', deps.store.customFields.list(locatorId))
  checkExternalIdFree(deps, locatorId, patch.externalId, null)
  const found = patch.coordinates ? null : await geocode(deps, patch.address!)
  const record = newLocationRecord(locatorId, patch, found, await townsOf(deps))
  return locatorWrite(deps, locatorId, () => {
    checkCustomFieldsAgain(deps, locatorId, fields, 'create')
    checkExternalIdFree(deps, locatorId, patch.externalId, null)
    deps.roomFor?.(locatorId, 1)
    deps.store.locations.insert(record)
    const location = toAdminLocation(record)
    deps.inWrite?.(location)
    return location
  })
}

/**
 * The record `current` becomes with `patch` applied (and `found`, the geocoder's answer for its
 * address), its town placed by `towns` (town.ts).
 */
export function applyPatch(
  current: LocationRecord,
  patch: LocationPatch,
  found: GeocodeResult | null,
  towns: TownLookup | null,
): LocationRecord {
  const next: LocationRecord = {
    ...current,
    externalId: patch.externalId === undefined ? current.externalId : patch.externalId,
    name: patch.name ?? current.name,
    address: patch.address ?? current.address,
    description: patch.description ?? current.description,
    tags: patch.tags ?? current.tags,
    contact: mergeMap(current.contact, patch.contact),
    social: mergeMap(current.social, patch.social),
    hours: mergeMap(current.hours, patch.hours),
    specialHours: mergeMap(current.specialHours, patch.specialHours),
    timezone: patch.timezone === undefined ? current.timezone : patch.timezone,
    customFields: mergeMap(current.customFields, patch.customFields),
    imageUrl: patch.imageUrl ?? current.imageUrl,
    status: patch.status ?? current.status,
    updatedAt: stampAfter(current.updatedAt),
  }
  if (patch.coordinates) {
    // A geocoded point sent back as it is stays the geocoder's: its geocoding and age are kept, so
    // a limited provider's point is still refreshed in time (by its address then). Any other is a pin.
    const same = samePoint(patch.coordinates, current)
    const fromPoint = current.geocoding?.source === REVERSE_SOURCE
    // The same point as a sheet rounded it is the stored one, to the last digit: nothing changes.
    const at = same ? current : patch.coordinates
    next.lat = at.lat
    next.lng = at.lng
    if (!same) {
      next.geocoding = null
      next.geocodedAt = null
    }
    // The parts are the address's, kept while it is (a record sent back whole sends it again);
    // those of the reverse lookup are the point's, kept while both are (town.ts). Those sent with
    // a pin are the address's own: the lookup gives only those they lack. A geocoded point sent
    // back with another address is a pin of that address.
    const newAddress = patch.address !== undefined && patch.address !== current.address
    if (patch.addressParts !== undefined && (fromPoint || next.geocoding === null || newAddress)) {
      next.addressParts = patch.addressParts
      next.geocoding = null
      next.geocodedAt = null
    } else if ((fromPoint && !same) || newAddress) next.addressParts = {}
  } else if (found) {
    next.lat = found.lat
    next.lng = found.lng
    next.geocoding = { precision: found.precision, source: found.source }
    next.geocodedAt = obtainedAtIso(found, next.updatedAt)
    next.addressParts = found.parts
  }
  // The point a file may still send is that of a store at its replacement's point (bulk-apply.ts).
  if (!samePoint(next, current)) next.replacedPoint = null
  next.timezone = keptZone(next)
  return placed(next, current, towns)
}

/**
 * Changes only the fields sent. An address sent without coordinates is geocoded again, changed or
 * not (the spec's rule 1, as design.md reads it); coordinates sent set the point as they are, with
 * or without an address (the same rule), so a script that sends whole records (as GET returns them)
 * keeps hand-placed pins, and a changed address is geocoded only when sent without coordinates.
 */
export async function updateLocation(
  deps: AdminDeps,
  locatorId: string,
  rawId: string,
  body: unknown,
): Promise<AdminLocation> {
  const id = requireLocationId(rawId)
  const existing = deps.store.locations.get(locatorId, id)
  if (!existing)
    throw deps.store.locators.get(locatorId) === null ? locatorGone(locatorId) : notFound(deps, locatorId, id)
  const fields = bodyObject(body)
  if (Object.keys(fields).length === 0) {
    throw new LocationError(
      'invalid_request',
      `The request body has no location fields to update. Send a JSON object with at least one of: ${LOCATION_FIELDS.join(', ')}.`,
    )
  }
  const patch = normalizeLocationBody(fields, 'update', deps.store.customFields.list(locatorId))
  checkExternalIdFree(deps, locatorId, patch.externalId, id)
  const found = patch.address !== undefined && !patch.coordinates ? await geocode(deps, patch.address) : null
  const towns = await townsOf(deps)
  return locatorWrite(deps, locatorId, () => {
    const current = deps.store.locations.get(locatorId, id) // re-read: another writer may have changed or deleted it
    if (!current) throw notFound(deps, locatorId, id)
    checkCustomFieldsAgain(deps, locatorId, fields, 'update')
    checkExternalIdFree(deps, locatorId, patch.externalId, id)
    const location = toAdminLocation(deps.store.locations.replace(applyPatch(current, patch, found, towns), current))
    deps.inWrite?.(location)
    return location
  })
}

export async function deleteLocation(deps: AdminDeps, locatorId: string, rawId: string): Promise<string> {
  const id = requireLocationId(rawId)
  return locatorWrite(deps, locatorId, () => {
    if (!deps.store.locations.remove(locatorId, id)) throw notFound(deps, locatorId, id)
    const message = `Location ${id} was deleted.`
    deps.inWrite?.(message)
    return message
  })
}

export function listCustomFields(deps: AdminDeps, locatorId: string) {
  return deps.store.customFields.list(locatorId).map((f) => ({ id: f.id, name: f.name, type: f.type }))
}
