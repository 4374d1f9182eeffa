// A query circle (r km around lng, lat) and its tests of points by position and of lng/lat boxes,
// set once per query and kept between queries: within r by haversine, by chord first (a sine only
// within CHORD_SLACK of the circle), and a box missing the circle's boxes or lying wholly inside.
import { QUICK_CORNERS_KM } from '../tuning'
import { type LngLatBox, NO_BOX } from './boxes'
import {
  BOUND_SLACK_KM,
  boxLowerBoundHav,
  chordAbove,
  chordBelow,
  HAV_MARGIN,
  halfLngGap,
  havBetween,
  havOfKm,
  haverSin,
  kmOfHav,
  lngGap,
  nearCos,
  RAD,
  unitVector,
} from './sphere'

const NONE64 = new Float64Array(0)
const NONE32 = new Float32Array(0)

export class Circle {
  lng = 0
  lat = 0
  cosLat = 1
  r = 0
  // Points by position: (lng, lat) pairs, cos(lat), unit vectors (x, y, z).
  private coords: Float64Array = NONE64
  private cos: Float64Array = NONE64
  private xyz: Float32Array = NONE32
  // havBetween's values surely in and surely out (within the margin, decided in km).
  private havIn = 0
  private havOut = 0
  // The centre on the unit sphere and the squared chords surely in and surely out (chords()).
  private readonly q = new Float64Array(3)
  private qx = 0
  private qy = 0
  private qz = 0
  private chordIn = 0
  private chordOut = 0
  // The circle's boxes (boxes()): one band of latitudes y0..y1; longitudes ax0..ax1, and bx0..bx1
  // on the far side of the antimeridian (NO_BOX's when none).
  private y0 = 0
  private y1 = 0
  private ax0 = 0
  private ax1 = 0
  private bx0 = 0
  private bx1 = 0
  /** Whether every longitude in the boxes is less than 90° from the centre's. */
  private narrow = false
  /** Whether holds() looks at the corners without a sine first, and what it needs then. */
  private quick = false
  private sinLat = 0
  private cornerIn = 0
  private nearlyIn = 0

  /** The circle of r km around (lng, lat) (cosLat: its cosine), over points by position. */
  set(
    lng: number,
    lat: number,
    cosLat: number,
    r: number,
    coords: Float64Array,
    cos: Float64Array,
    xyz: Float32Array,
  ): this {
    this.lng = lng
    this.lat = lat
    this.cosLat = cosLat
    this.r = r
    this.coords = coords
    this.cos = cos
    this.xyz = xyz
    // A circle of Infinity km holds every point (a bbox query's distances, box-query.ts).
    const h = r === Infinity ? Infinity : havOfKm(r)
    this.havIn = h * (1 - HAV_MARGIN)
    this.havOut = h * (1 + HAV_MARGIN)
    return this
  }

  /** Makes chordAt, inCircle and surelyInCount ready. */
  chords(): this {
    unitVector(this.lng, this.cosLat, this.lat, this.q, 0)
    this.qx = this.q[0]!
    this.qy = this.q[1]!
    this.qz = this.q[2]!
    this.chordIn = chordBelow(this.havIn)
    this.chordOut = chordAbove(this.havOut)
    return this
  }

  /**
   * Makes misses and holds ready for the circle's boxes (boxesAround's, centred on its longitude:
   * less than 180° wide in all, unless a whole band near a pole).
   */
  boxes(boxes: LngLatBox[]): this {
    const [ax0, y0, ax1, y1] = boxes[0]!
    const [bx0, , bx1] = boxes[1] ?? NO_BOX
    this.y0 = y0
    this.y1 = y1
    this.ax0 = ax0
    this.ax1 = ax1
    this.bx0 = bx0
    this.bx1 = bx1
    this.narrow = ax1 - ax0 + (bx1 > bx0 ? bx1 - bx0 : 0) < 180
    // A corner is surely inside below cornerIn; a circle smaller than the slack has no box wholly inside.
    this.cornerIn = this.r > BOUND_SLACK_KM ? havOfKm(this.r - BOUND_SLACK_KM) * (1 - HAV_MARGIN) : -1
    this.quick = this.r <= QUICK_CORNERS_KM
    this.sinLat = Math.sin(this.lat * RAD)
    this.nearlyIn = this.cornerIn * 1.01
    return this
  }

  /** havBetween from the centre to the point at position `at`. */
  havAt(at: number): number {
    return havBetween(this.lng, this.lat, this.cosLat, this.coords[2 * at]!, this.coords[2 * at + 1]!, this.cos[at]!)
  }

  /** Whether havBetween's value h lies within r: what falls within the margin is decided in km. */
  within(h: number): boolean {
    return h < this.havIn || (h <= this.havOut && kmOfHav(h) <= this.r)
  }

  /** The squared chord from the centre to the point at position `at` (NaN for a dead point). */
  chordAt(at: number): number {
    const { xyz } = this
    const dx = xyz[3 * at]! - this.qx
    const dy = xyz[3 * at + 1]! - this.qy
    const dz = xyz[3 * at + 2]! - this.qz
    return dx * dx + dy * dy + dz * dz
  }

  /** Whether the point at `at`, at squared chord c2, lies within r: by the chord where it is sure, else by havBetween. */
  inCircle(at: number, c2: number): boolean {
    return c2 < this.chordIn || (c2 <= this.chordOut && this.within(this.havAt(at)))
  }

  /** The live points of left..right surely within r; -1 if a live point lies within the slack of the circle. */
  surelyInCount(left: number, right: number): number {
    return countSurelyIn(this.xyz, left, right, this.qx, this.qy, this.qz, this.chordIn, this.chordOut)
  }

  /** A lower bound of havBetween from the centre to any point of a box. */
  lowerBound(minX: number, minY: number, maxX: number, maxY: number): number {
    return boxLowerBoundHav(this.lng, this.lat, this.cosLat, minX, minY, maxX, maxY)
  }

  /** Whether a box lies outside the circle's boxes. */
  misses(minX: number, minY: number, maxX: number, maxY: number): boolean {
    return (
      maxY < this.y0 ||
      minY > this.y1 ||
      !((maxX >= this.ax0 && minX <= this.ax1) || (maxX >= this.bx0 && minX <= this.bx1))
    )
  }

  /**
   * Whether a box lies wholly inside the circle: within a bounding box, and every corner within r.
   * A box whose longitudes are all within 90° of the centre's is no farther anywhere than at a
   * corner (along a parallel the distance grows with the longitude gap; along a meridian less than
   * 90° away it has no maximum inside).
   */
  holds(minX: number, minY: number, maxX: number, maxY: number): boolean {
    const { lng, lat, cosLat, cornerIn } = this
    if (
      !(
        minY >= this.y0 &&
        maxY <= this.y1 &&
        ((minX >= this.ax0 && maxX <= this.ax1) || (minX >= this.bx0 && maxX <= this.bx1))
      )
    )
      return false
    if (!this.narrow && !(maxX - minX < 180 && lngGap(lng, minX) <= 90 && lngGap(lng, maxX) <= 90)) return false
    if (this.quick) {
      // A quick look at the corners first, without a sine: (θ/2)² for haverSin(θ), cos(lat) to
      // first order, longitude gaps the short way round. It only says no (a box it calls not
      // inside is walked into, never wrongly counted), so it needs only to be close, as it is up
      // to QUICK_CORNERS_KM; the exact test below is left to boxes likely inside (PERF-004).
      const nearlyIn = this.nearlyIn
      const s = (lat - minY) * (RAD / 2)
      const n = (lat - maxY) * (RAD / 2)
      const w = halfLngGap(lng, minX)
      const e = halfLngGap(lng, maxX)
      const cs = cosLat * nearCos(cosLat, this.sinLat, lat, minY)
      const cn = cosLat * nearCos(cosLat, this.sinLat, lat, maxY)
      if (
        cs * w * w + s * s > nearlyIn ||
        cn * w * w + n * n > nearlyIn ||
        cs * e * e + s * s > nearlyIn ||
        cn * e * e + n * n > nearlyIn
      )
        return false
    }
    // The corners' havBetween, each sine of a side taken once (4, not 8), in the same operations, so the same values.
    const cosMin = Math.cos(minY * RAD)
    const west = haverSin((lng - minX) * RAD)
    const south = haverSin((lat - minY) * RAD)
    if (!(cosLat * cosMin * west + south < cornerIn)) return false
    const cosMax = Math.cos(maxY * RAD)
    const north = haverSin((lat - maxY) * RAD)
    if (!(cosLat * cosMax * west + north < cornerIn)) return false
    const east = haverSin((lng - maxX) * RAD)
    return cosLat * cosMin * east + south < cornerIn && cosLat * cosMax * east + north < cornerIn
  }
}

/**
 * The live points at positions left..right whose squared chord to (qx, qy, qz) is below surelyIn;
 * -1 if a live point's chord lies between surelyIn and surelyOut, where the chord cannot decide.
 * Without a branch per point: at a circle's edge a point is as likely in as out, and a mispredicted
 * branch costs more than the loop (PERF-003). A dead point's NaN chord compares false both ways.
 */
function countSurelyIn(
  xyz: Float32Array,
  left: number,
  right: number,
  qx: number,
  qy: number,
  qz: number,
  surelyIn: number,
  surelyOut: number,
): number {
  // Read through a view of the leaf, indexed from 0 to its length (PERF-004).
  const v = xyz.subarray(3 * left, 3 * right + 3)
  let count = 0
  let undecided = 0
  for (let o = 0; o < v.length; o += 3) {
    const dx = v[o]! - qx
    const dy = v[o + 1]! - qy
    const dz = v[o + 2]! - qz
    const c2 = dx * dx + dy * dy + dz * dz
    // +(a < b), not a ternary, which compiles to a branch.
    count += +(c2 < surelyIn)
    undecided |= +(c2 >= surelyIn) & +(c2 <= surelyOut)
  }
  return undecided === 0 ? count : -1
}
