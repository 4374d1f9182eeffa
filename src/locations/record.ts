// The one place a new location's record is built from a validated patch: used by the Management
// API's create flow and by the demo loader, so both store exactly the same shape.
import { mergeMap, type LocationPatch } from './normalize'
import { keptZone } from './opening'
import { obtainedAtIso, type GeocodeResult } from '../geocode/geocoder'
import { newLocationId } from '../core/ids'
import type { Contact, Hours, LocationRecord, Social } from '../store/locations'
import { placed, type TownLookup } from './town'

/**
 * A new record for `locatorId`. `patch` comes from normalizeLocationBody in create mode (name and
 * address set); `found` is the geocoder's answer when the patch has no coordinates, else null.
 * `towns` completes its address parts (town.ts; null: later, by the reverse upkeep).
 * `now` is an ISO time used for the timestamps (and geocodedAt when geocoded, unless the answer came
 * from the cache: then the entry's time).
 */
export function newLocationRecord(
  locatorId: string,
  patch: LocationPatch,
  found: GeocodeResult | null,
  towns: TownLookup | null,
  now: string = new Date().toISOString(),
): LocationRecord {
  const coordinates = patch.coordinates ?? (found ? { lat: found.lat, lng: found.lng } : null)
  if (!coordinates) throw new TypeError('newLocationRecord needs coordinates in the patch or a geocoder result.')
  const record: LocationRecord = {
    id: newLocationId(),
    locatorId,
    externalId: patch.externalId ?? null,
    status: patch.status ?? 'published',
    name: patch.name!,
    address: patch.address!,
    lat: coordinates.lat,
    lng: coordinates.lng,
    description: patch.description ?? '',
    tags: patch.tags ?? [],
    contact: mergeMap<Contact>({}, patch.contact),
    social: mergeMap<Social>({}, patch.social),
    hours: mergeMap<Hours>({}, patch.hours),
    specialHours: mergeMap<Record<string, string>>({}, patch.specialHours),
    timezone: patch.timezone ?? null,
    customFields: mergeMap<Record<string, string>>({}, patch.customFields),
    imageUrl: patch.imageUrl ?? '',
    geocoding: found ? { precision: found.precision, source: found.source } : null,
    geocodedAt: found ? obtainedAtIso(found, now) : null,
    addressParts: found?.parts ?? patch.addressParts ?? {},
    townNames: null,
    replacedPoint: null,
    createdAt: now,
    updatedAt: now,
  }
  record.timezone = keptZone(record)
  return placed(record, null, towns)
}
