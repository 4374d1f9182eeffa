// Longitude/latitude boxes around a circle: what the kd tree and the delta's grid are searched by.

/** A box in lng/lat order: minLng, minLat, maxLng, maxLat. */
export type LngLatBox = [number, number, number, number]

/** km per degree of latitude, rounded down so boxes err on the large side. */
const KM_PER_DEGREE = 111

/** The stand-in second box of a query without one: nothing overlaps it or lies in it. */
export const NO_BOX: LngLatBox = [Infinity, 0, -Infinity, 0]

/**
 * Longitude/latitude boxes that hold every point within `km` of (lng, lat): one box, or two when
 * it crosses the antimeridian (both in one band of latitudes); the whole band of longitudes near
 * a pole.
 */
export function boxesAround(lng: number, lat: number, km: number): LngLatBox[] {
  const dLat = (km / KM_PER_DEGREE) * 1.01
  const minLat = Math.max(-90, lat - dLat)
  const maxLat = Math.min(90, lat + dLat)
  const edge = Math.max(Math.abs(minLat), Math.abs(maxLat))
  if (edge >= 89.9) return [[-180, minLat, 180, maxLat]]
  const dLng = (km / (KM_PER_DEGREE * Math.cos((edge * Math.PI) / 180))) * 1.01
  if (dLng >= 180) return [[-180, minLat, 180, maxLat]]
  const minLng = lng - dLng
  const maxLng = lng + dLng
  if (minLng < -180)
    return [
      [minLng + 360, minLat, 180, maxLat],
      [-180, minLat, maxLng, maxLat],
    ]
  if (maxLng > 180)
    return [
      [minLng, minLat, 180, maxLat],
      [-180, minLat, maxLng - 360, maxLat],
    ]
  return [[minLng, minLat, maxLng, maxLat]]
}
