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

/** A bounding box as a query sends it: west, south, east, north; west > east crosses the antimeridian. */
export type Bbox = readonly [number, number, number, number]

/**
 * The lng/lat boxes of a bbox (longitudes within -180..180, south <= north): one, or two across
 * the antimeridian. A box that reaches the antimeridian holds the points on it whether their
 * longitude is written 180 or -180.
 */
export function boxesOf([w, s, e, n]: Bbox): LngLatBox[] {
  if (w > e)
    return [
      [w, s, 180, n],
      [-180, s, e, n],
    ]
  if (e === 180 && w > -180)
    return [
      [w, s, 180, n],
      [-180, s, -180, n],
    ]
  if (w === -180 && e < 180)
    return [
      [-180, s, e, n],
      [180, s, 180, n],
    ]
  return [[w, s, e, n]]
}

/** A bbox's middle: where its distances are measured from when the query names no point. */
export function bboxMiddle([w, s, e, n]: Bbox): { lat: number; lng: number } {
  const lng = w + (w > e ? e + 360 - w : e - w) / 2
  return { lat: (s + n) / 2, lng: lng > 180 ? lng - 360 : lng }
}

/** Whether (x, y) lies in one of the boxes (one or two: boxesOf's or boxesAround's). */
export function inBoxes(boxes: LngLatBox[], x: number, y: number): boolean {
  const [ax0, y0, ax1, y1] = boxes[0]!
  if (y < y0 || y > y1) return false
  if (x >= ax0 && x <= ax1) return true
  const b = boxes[1]
  return b !== undefined && x >= b[0] && x <= b[2]
}
