// Distances on the sphere, as geokdbush takes them, and bounds that decide most comparisons
// without a sine. Coordinates are (lng, lat) in degrees; distances in km.

/** geokdbush's Earth radius (km) and degrees-to-radians factor: our distances are its distances. */
export const EARTH_RADIUS_KM = 6371
export const RAD = Math.PI / 180

/** km of slack when comparing bounds computed by a different formula from the points' own distance. */
export const BOUND_SLACK_KM = 1e-6
/** Relative margin of havOfKm's values: the two sides of a km disagree only in the last bits. */
export const HAV_MARGIN = 1e-9
/**
 * Slack of a squared chord between Float32 unit vectors (each within 3e-8 of the truth, so a chord
 * within 6e-8): points within it of a threshold are decided by havBetween.
 */
export const CHORD_SLACK = 2e-7

/** geokdbush's haverSin. */
export function haverSin(theta: number): number {
  const s = Math.sin(theta / 2)
  return s * s
}

/**
 * geokdbush's distance(lng1, lat1, lng2, lat2) in km, with the cosines of both latitudes given
 * (hoisted per query, kept per point): the same operations in the same order, so the same km.
 */
export function kmBetween(
  lng1: number,
  lat1: number,
  cosLat1: number,
  lng2: number,
  lat2: number,
  cosLat2: number,
): number {
  return kmOfHav(havBetween(lng1, lat1, cosLat1, lng2, lat2, cosLat2))
}

/** kmBetween's haversine of the central angle, before its asin: it grows with the distance, so comparisons need no asin. */
export function havBetween(
  lng1: number,
  lat1: number,
  cosLat1: number,
  lng2: number,
  lat2: number,
  cosLat2: number,
): number {
  return cosLat1 * cosLat2 * haverSin((lng1 - lng2) * RAD) + haverSin((lat1 - lat2) * RAD)
}

/** km from havBetween's value, as kmBetween takes it; at most half the Earth round (rounding can put an antipode's above 1). */
export function kmOfHav(h: number): number {
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(Math.min(h, 1)))
}

/** The haversine of km, to compare with havBetween's values: callers widen it by HAV_MARGIN the safe way. */
export function havOfKm(km: number): number {
  return haverSin(km / EARTH_RADIUS_KM)
}

/** A haversine above which a point is surely farther than km (for skipping points a full heap will not take). */
export function havAbove(km: number): number {
  return km === Infinity ? Infinity : havOfKm(km + BOUND_SLACK_KM) * (1 + HAV_MARGIN)
}

/** A squared chord below which a haversine is surely below h (-1: none); the squared chord is 4 × the haversine. */
export function chordBelow(h: number): number {
  const c = 2 * Math.sqrt(h * (1 - HAV_MARGIN)) - CHORD_SLACK
  return c > 0 ? c * c : -1
}

/** A squared chord above which a haversine is surely above h. */
export function chordAbove(h: number): number {
  if (h === Infinity) return Infinity
  const c = 2 * Math.sqrt(h * (1 + HAV_MARGIN)) + CHORD_SLACK
  return c * c
}

/** (lng, lat) as a point of the unit sphere, written at out[o..o+3). */
export function unitVector(
  lng: number,
  cosLat: number,
  lat: number,
  out: Float32Array | Float64Array,
  o: number,
): void {
  out[o] = cosLat * Math.cos(lng * RAD)
  out[o + 1] = cosLat * Math.sin(lng * RAD)
  out[o + 2] = Math.sin(lat * RAD)
}

/**
 * A lower bound of the haversine from (lng, lat) to any point of a lng/lat box (as havBetween's
 * values): the smallest latitude gap, the smallest longitude gap (either way round) and the
 * smallest cos(latitude) in the box, each no larger than for any point inside; the sines and the
 * cosine taken from below by polynomials, without trigonometry (PERF-004).
 */
export function boxLowerBoundHav(
  lng: number,
  lat: number,
  cosLat1: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
): number {
  const dLat = lat < minY ? minY - lat : lat > maxY ? lat - maxY : 0
  let dLng = 0
  if (lng < minX) dLng = Math.min(minX - lng, lng - maxX + 360)
  else if (lng > maxX) dLng = Math.min(minX - lng + 360, lng - maxX)
  const far = Math.max(Math.abs(minY), Math.abs(maxY)) * RAD
  return Math.min(
    1,
    sinSquaredBelow(dLat * (RAD / 2)) + cosLat1 * Math.max(0, cosBelow(far)) * sinSquaredBelow(dLng * (RAD / 2)),
  )
}

/**
 * A lower bound of sin²(t) for 0 <= t <= π/2, without a sine: (t - t³/6)². There sin(t) -
 * (t - t³/6) is cos(ξ) t⁵/120 for some ξ in [0, t], not negative, and t - t³/6 >= 0.
 */
function sinSquaredBelow(t: number): number {
  const s = t - (t * t * t) / 6
  return s * s
}

/** A lower bound of cos(a) for 0 <= a <= π/2: Taylor's to a⁶, whose remainder cos(ξ) a⁸/8! is not negative there. */
function cosBelow(a: number): number {
  const a2 = a * a
  return 1 - a2 / 2 + (a2 * a2) / 24 - (a2 * a2 * a2) / 720
}

/** Degrees between two longitudes, the short way round (0..180). */
export function lngGap(a: number, b: number): number {
  return Math.abs(((((b - a) % 360) + 540) % 360) - 180)
}

/** Half the gap from longitude x to lng, the short way round, in radians. */
export function halfLngGap(lng: number, x: number): number {
  const d = lng - x
  return (d > 180 ? d - 360 : d < -180 ? d + 360 : d) * (RAD / 2)
}

/** cos(y) to first order about lat (its cosine and sine given). */
export function nearCos(cosLat: number, sinLat: number, lat: number, y: number): number {
  return cosLat + sinLat * (lat - y) * RAD
}
