// The links a visitor follows from a store: the way there in a maps service, and a website as
// its link reads. The widget (in the browser) and the store pages both use these: no Node, no DOM.

export type DirectionsService = 'google' | 'apple' | 'osm'

/** Each maps service, with the name a link gives it. */
export const DIRECTIONS_SERVICES: readonly [DirectionsService, string][] = [
  ['google', 'Google Maps'],
  ['apple', 'Apple Maps'],
  ['osm', 'OpenStreetMap'],
]

/** A link that plans the way to the point in `service`. */
export function directionsUrl(service: DirectionsService, lat: number, lng: number): string {
  if (service === 'apple') return `https://maps.apple.com/?daddr=${lat}%2C${lng}`
  if (service === 'osm') return `https://www.openstreetmap.org/directions?to=${lat}%2C${lng}`
  return `https://www.google.com/maps/dir/?api=1&destination=${lat}%2C${lng}`
}

/** A website written without its scheme, "www." or a trailing slash, as a link's text ("example.com/stores/x"). */
export const shortUrl = (url: string) => url.replace(/^https?:\/\/(www\.)?/i, '').replace(/\/$/, '')

/**
 * The mailto: link of an address. The characters a mailto: URL reads as its own (RFC 6068: "?"
 * starts headers such as cc=, "#", "%", "/", "[" and "]") are escaped: they stay the address's.
 */
export const mailtoUrl = (address: string) => `mailto:${address.replace(/[%?#/[\]]/g, (c) => encodeURIComponent(c))}`
