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
/** The view; `cx`, `cy`: the far corner of the zoom buttons at its top left, kept clear too. */
type Box = { x0: number; y0: number; x1: number; y1: number }
export type Within = Box & { cx: number; cy: number }

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
      offButtons(d, d.within!)
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

/** Whether `d` reaches the zoom buttons' box (the view's corner to cx, cy): one above or left of the view does not. */
export const underButtons = ({ x, y, r }: Disc, { x0, y0, cx, cy }: Within): boolean =>
  x < cx + r && y < cy + r && x + r > x0 && y + r > y0

/**
 * Moves `d` off the zoom buttons (the view's corner to cx, cy), its radius clear of them, along the
 * line from a radius above and left of the view's corner, where a disc no longer reaches the view:
 * a disc whose place moves a little moves a little, wherever it is, and one by the corner, half
 * out of the view, comes in beside them.
 */
function offButtons(d: Disc, within: Within): void {
  if (!underButtons(d, within)) return
  const { x0, y0, cx, cy } = within
  // Both above 0: the disc reaches the view.
  const [dx, dy] = [d.x + d.r - x0, d.y + d.r - y0]
  const t = Math.min((cx + d.r - d.x) / dx, (cy + d.r - d.y) / dy)
  d.x += t * dx
  d.y += t * dy
}
