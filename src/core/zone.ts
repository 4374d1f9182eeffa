// The IANA time zone at a point, offline: @photostructure/tz-lookup's boundaries, coarse near
// borders (a location's own zone, set by the Management API, overrides it).
import tzlookup from '@photostructure/tz-lookup'

export const zoneAt = (lat: number, lng: number): string => tzlookup(lat, lng)

/** A location's time zone: the one set for it (null: none), else the one of its coordinates. */
export const zoneOf = (r: { timezone: string | null; lat: number; lng: number }): string =>
  r.timezone ?? zoneAt(r.lat, r.lng)
