// Discs on the screen pushed apart until none covers another. A cluster's centre is its stores'
// mean, which may drift up to a cluster's reach (40 px) from where the cluster began; the places
// they began are 40 px apart or more, so the bubbles fit side by side near their centres.

/**
 * A disc in screen px; a fixed one (a store alone, at its own place) is not moved. One with `within`
 * (the map's view, whose top left is x0, y0) is kept wholly inside it.
 */
export type Disc = { x: number; y: number; r: number; fixed: boolean; within?: Within }
export type Within = { x0: number; y0: number; x1: number; y1: number }

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
  for (const d of discs) {
    reach = Math.max(reach, 2 * d.r)
    keep(d)
  }
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
    for (const d of discs) keep(d)
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

/** Moves a disc with a box as little as puts it wholly inside. */
function keep(d: Disc): void {
  const w = d.within
  if (!w || d.fixed) return
  d.x = Math.max(w.x0 + d.r, Math.min(w.x1 - d.r, d.x))
  d.y = Math.max(w.y0 + d.r, Math.min(w.y1 - d.r, d.y))
}
