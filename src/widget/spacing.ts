// Discs on the screen pushed apart until none covers another. A cluster's centre is its stores'
// mean, which may drift up to a cluster's reach (40 px) from where the cluster began; the places
// they began are 40 px apart or more, so the bubbles fit side by side near their centres.

/**
 * A disc in screen px; a fixed one (a store alone, at its own place) is not moved. One with `within`
 * (the map's view, whose top left is x0, y0) is kept wholly in it while its place is in it; its
 * place beyond the edge, it leaves twice as fast: half out with its place half a radius out, on its
 * place a radius out. So it moves with no jump as its place, moved with the map, crosses the edge.
 */
export type Disc = { x: number; y: number; r: number; fixed: boolean; within?: Within }
export type Box = { x0: number; y0: number; x1: number; y1: number }
/**
 * The view; `keep`: its controls' boxes (the zoom buttons, the scale, the credit), each kept clear
 * from the view's corner nearest it to its far corner.
 */
export type Within = Box & { keep: Box[] }

/**
 * Passes over the pairs at most: each ends with fewer overlaps, and a screen's bubbles settle in a
 * few; a crowd of 20 on one point by the view's edge in 80.
 */
const ROUNDS = 80

/** Moved a little further than they overlap: Leaflet rounds a marker's place to whole px. */
const SLACK = 1

/** The golden angle (radians): discs on one point leave it in directions spread round the circle. */
const GOLDEN = 2.399963

/**
 * Moves the discs that are not fixed, in place, until no two overlap (or ROUNDS passes): each pair
 * that overlaps apart along the line between their centres, by what they overlap, the two sharing
 * the move (or the free one taking it all); each disc is moved back within its box as a pass ends,
 * not at each push: discs held at an edge at each push stay in a line along it, which a crowd
 * overfills. The same discs in the same order move the same way.
 */
export function spreadApart(discs: Disc[]): void {
  let reach = 0
  const boxes = discs.map(keptIn)
  const keep = () =>
    discs.forEach((d, i) => {
      const box = boxes[i]
      if (!box) return
      d.x = Math.max(box.x0, Math.min(box.x1, d.x))
      d.y = Math.max(box.y0, Math.min(box.y1, d.y))
      offControls(d, d.within!)
    })
  for (const d of discs) reach = Math.max(reach, 2 * d.r)
  keep()
  const order = discs.map((_, i) => i)
  for (let round = 0; round < ROUNDS; round++) {
    // Swept by x: a pass compares a disc only with those less than two radii to its east.
    order.sort((a, b) => discs[a]!.x - discs[b]!.x || a - b)
    let moved = false
    for (let p = 0; p < order.length; p++) {
      const a = discs[order[p]!]!
      for (let q = p + 1; q < order.length; q++) {
        const b = discs[order[q]!]!
        if (b.x - a.x >= reach) break
        if ((a.fixed && b.fixed) || !apart(a, b, order[q]!)) continue
        moved = true
      }
    }
    if (!moved) return
    keep()
  }
}

/** Moves a and b apart if they overlap; whether they did. */
function apart(a: Disc, b: Disc, index: number): boolean {
  const dx = b.x - a.x
  const dy = b.y - a.y
  const distance = Math.hypot(dx, dy)
  const overlap = a.r + b.r - distance
  if (overlap <= 0) return false
  const [ux, uy] =
    distance > 1e-6 ? [dx / distance, dy / distance] : [Math.cos(index * GOLDEN), Math.sin(index * GOLDEN)]
  const push = overlap + SLACK
  const aShare = a.fixed ? 0 : b.fixed ? 1 : 0.5
  a.x -= ux * push * aShare
  a.y -= uy * push * aShare
  b.x += ux * push * (1 - aShare)
  b.y += uy * push * (1 - aShare)
  return true
}

/** Where a disc's centre may be: its radius within `within`, less twice as far as its place is out. */
function keptIn({ x, y, r, fixed, within: w }: Disc): Box | undefined {
  if (!w || fixed) return undefined
  const by = (inside: number) => r + 2 * Math.min(0, inside)
  return { x0: w.x0 + by(x - w.x0), y0: w.y0 + by(y - w.y0), x1: w.x1 - by(w.x1 - x), y1: w.y1 - by(w.y1 - y) }
}

/**
 * A control's box as kept clear on one axis: from the view's side nearest it (o) to its far side,
 * `w` from o, the view lying towards s (+1 rightwards or downwards, -1 leftwards or upwards).
 */
type Side = [o: number, s: number, w: number]
const side = (a0: number, a1: number, v0: number, v1: number): Side =>
  a0 + a1 > v0 + v1 ? [v1, -1, v1 - a0] : [v0, 1, a1 - v0]
type Corner = [Side, Side]
/** `b` as kept clear from the view's corner nearest it. */
const cornered = (b: Box, w: Box): Corner => [side(b.x0, b.x1, w.x0, w.x1), side(b.y0, b.y1, w.y0, w.y1)]

/** `d`'s centre from c's corner, towards the view; whether it reaches c's box: one beyond the view does not. */
function from(d: Disc, [[ox, sx, w], [oy, sy, h]]: Corner): [number, number, boolean] {
  const [u, v] = [(d.x - ox) * sx, (d.y - oy) * sy]
  return [u, v, u < w + d.r && v < h + d.r && u + d.r > 0 && v + d.r > 0]
}

/** Whether `d` reaches a control's box. */
export const underControls = (d: Disc, within: Within): boolean =>
  within.keep.some((box) => from(d, cornered(box, within))[2])

/**
 * Moves `d` off every control's box: one moved off a box may land on the next (the scale and a
 * credit a bubble's width apart), so it is moved again, each move taking it further from the side
 * the two share, until it reaches none (or PASSES).
 */
function offControls(d: Disc, within: Within): void {
  for (let pass = 0; pass < PASSES && underControls(d, within); pass++)
    for (const box of within.keep) offControl(d, cornered(box, within))
}

/** Moves off the controls at most: a disc between two boxes on one side is clear of both in two or three. */
const PASSES = 8

/**
 * Moves `d` off c's box, its radius clear of it: diagonally, away from the corner, while it is
 * whole in the view (its place in it), so it moves no faster than its place along either axis
 * (along both at once, up to 1.4 times: a disc kept off the box, moving with no jump, must be
 * faster than the map on some drag); else along the line from a radius beyond the view's corner,
 * where a disc no longer reaches the view, turning to the diagonal as it comes in whole. So a disc
 * whose place moves a little moves a little, wherever it is, and one by the corner, half out of
 * the view, comes in beside the box.
 */
function offControl(d: Disc, c: Corner): void {
  const [u, v, under] = from(d, c)
  const [[, sx, w], [, sy, h]] = c
  if (!under) return
  // Both above 0: the disc reaches the view; both 2r: it is whole in it.
  const [du, dv] = [Math.min(u + d.r, 2 * d.r), Math.min(v + d.r, 2 * d.r)]
  const t = Math.min((w + d.r - u) / du, (h + d.r - v) / dv)
  d.x += t * du * sx
  d.y += t * dv * sy
}
