// The links a visitor follows from a store: the way there in a maps service, and a website as
// its link reads. The widget (in the browser) and the store pages both use these: no Node, no DOM.

export type DirectionsService = 'google' | 'apple' | 'osm'

/** Each maps service, with the name a link gives it. */
export const DIRECTIONS_SERVICES: readonly [DirectionsService, string][] = [
  ['google', 'Google Maps'],
  ['apple', 'Apple Maps'],
  ['osm', 'OpenStreetMap'],
]

/** Where a directions link leads: a location as the Query API shows it. */
export type DirectionsPlace = {
  coordinates: { lat: number; lng: number; approximate?: boolean }
  address: { formatted: string }
}

/**
 * A link that plans the way to `place` in `service`: to its point, or to its address text where
 * the point is approximate (a town's centre), so the service finds the street itself.
 */
export function directionsUrl(service: DirectionsService, place: DirectionsPlace): string {
  const { lat, lng, approximate } = place.coordinates
  const to =
    approximate && place.address.formatted.trim() ? encodeURIComponent(place.address.formatted) : `${lat}%2C${lng}`
  if (service === 'apple') return `https://maps.apple.com/?daddr=${to}`
  if (service === 'osm') return `https://www.openstreetmap.org/directions?to=${to}`
  return `https://www.google.com/maps/dir/?api=1&destination=${to}`
}

/** A website written without its scheme, "www." or a trailing slash, as a link's text ("example.com/stores/x"). */
export const shortUrl = (url: string) => url.replace(/^https?:\/\/(www\.)?/i, '').replace(/\/$/, '')

/**
 * The mailto: link of an address. The characters a mailto: URL reads as its own (RFC 6068: "?"
 * starts headers such as cc=, "#", "%", "/", "[" and "]") are escaped: they stay the address's.
 */
export const mailtoUrl = (address: string) => `mailto:${address.replace(/[%?#/[\]]/g, (c) => encodeURIComponent(c))}`
