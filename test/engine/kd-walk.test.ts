// The kd walks against brute force: a depth-first walk reaches every position once (in a leaf the
// visitor takes whole, or as a median), in ascending order when asked, each node with the box its
// points fill; a best-first walk takes nodes by (rank, reach); BoxRuns' runs hold exactly the
// points in its boxes.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { buildKd } from '../../src/engine/geo/kd-build'
import { KdQueue, KdStack, SKIP, walkKd, walkKdBestFirst } from '../../src/engine/geo/kd-walk'
import { Base } from '../../src/engine/base'
import { BoxRuns } from '../../src/engine/query/box-runs'

const lng = fc.double({ min: -180, max: 180, noNaN: true })
const lat = fc.double({ min: -90, max: 90, noNaN: true })
const points = fc.array(fc.tuple(lng, lat), { minLength: 1, maxLength: 400, size: 'max' })
const nodeSize = fc.constantFrom(1, 2, 4, 16, 64)

// The tree and its leaves' size (KDBush takes at least 2).
const treeOf = (ps: [number, number][], nodeSize: number) => {
  const tree = buildKd(Float64Array.from(ps.flat()), nodeSize)
  return { ...tree, size: tree.kd.nodeSize }
}

describe('walkKd', () => {
  test("reaches every position once, each node with its points' box; in order: ascending", () => {
    fc.assert(
      fc.property(points, nodeSize, fc.boolean(), lng, lat, (ps, n, inOrder, x, y) => {
        const { kd, boxes, size } = treeOf(ps, n)
        const coords = kd.coords as Float64Array
        const seen: number[] = []
        walkKd(
          kd,
          boxes,
          new KdStack(),
          {
            node(left, right, _node, minX, minY, maxX, maxY) {
              for (let at = left; at <= right; at++) {
                expect(coords[2 * at]!).toBeGreaterThanOrEqual(minX)
                expect(coords[2 * at]!).toBeLessThanOrEqual(maxX)
                expect(coords[2 * at + 1]!).toBeGreaterThanOrEqual(minY)
                expect(coords[2 * at + 1]!).toBeLessThanOrEqual(maxY)
              }
              if (right - left > size) return 0
              for (let at = left; at <= right; at++) seen.push(at)
              return SKIP
            },
            median(m) {
              seen.push(m)
            },
          },
          inOrder,
          x,
          y,
        )
        expect([...seen].sort((a, b) => a - b)).toEqual(ps.map((_, i) => i))
        if (inOrder) expect(seen).toEqual(ps.map((_, i) => i))
      }),
    )
  })

  test('the flag node() returns is the one its median and children get', () => {
    fc.assert(
      fc.property(points, nodeSize, fc.boolean(), (ps, n, inOrder) => {
        const { kd, boxes, size } = treeOf(ps, n)
        const returned = new Map<number, number>()
        let last = -1
        let medians = 0
        walkKd(
          kd,
          boxes,
          new KdStack(),
          {
            node(left, right, node, _a, _b, _c, _d, flag) {
              expect(flag).toBe(node === 0 ? 0 : returned.get((node - 1) >> 1)!)
              if (right - left <= size) return SKIP
              last = (node * 7) % 5
              returned.set(node, last)
              return last
            },
            median(_m, flag) {
              medians++
              // Near side first, the median comes at once after its node; in order, it carries its node's flag too.
              if (!inOrder) expect(flag).toBe(last)
              else expect([...returned.values()]).toContain(flag)
            },
          },
          inOrder,
          0,
          0,
        )
        expect(medians).toBe(returned.size)
      }),
    )
  })
})

describe('walkKdBestFirst', () => {
  test('opens nodes in order of (rank, reach) when a child is never better than its parent; takes each point once; stops when told', () => {
    fc.assert(
      fc.property(
        points,
        nodeSize,
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 5 }),
        (ps, n, stopAfter, spread) => {
          const { kd, boxes, size } = treeOf(ps, n)
          // A node's rank: the best of its points' (as Base.nodeMinRanks makes them); its reach: its
          // box's west edge, shifted to >= 0 (a child's box lies in its parent's).
          const pointRank = ps.map((_, i) => (i * 2654435761) % spread)
          const ranks = new Int32Array(boxes.length / 4)
          const fill = (left: number, right: number, node: number): number => {
            if (left > right) return 1e9
            let min = 1e9
            for (let at = left; at <= right; at++) min = Math.min(min, pointRank[kd.ids[at]!]!)
            ranks[node] = min
            if (right - left > size) {
              const m = (left + right) >> 1
              fill(left, m - 1, 2 * node + 1)
              fill(m + 1, right, 2 * node + 2)
            }
            return min
          }
          fill(0, ps.length - 1, 0)
          const opened: [number, number][] = []
          const taken: number[] = []
          walkKdBestFirst(kd, boxes, ranks, new KdQueue(), {
            reach: (minX) => minX + 180,
            open: (rank, reach) => {
              opened.push([rank, reach])
              return taken.length < stopAfter
            },
            point: (at) => void taken.push(at),
          })
          for (let i = 1; i < opened.length; i++) {
            const [r0, d0] = opened[i - 1]!
            const [r1, d1] = opened[i]!
            expect(r1 > r0 || (r1 === r0 && d1 >= d0)).toBe(true)
          }
          expect(new Set(taken).size).toBe(taken.length)
          if (stopAfter >= ps.length) expect([...taken].sort((a, b) => a - b)).toEqual(ps.map((_, i) => i))
        },
      ),
    )
  })
})

describe('BoxRuns', () => {
  test("runs ascending, apart, holding exactly the points in the boxes (whole leaves: at least those, in the boxes' leaves)", () => {
    const box = fc
      .tuple(lng, lng, lat, lat)
      .map(([a, b, c, d]) => [Math.min(a, b), Math.min(c, d), Math.max(a, b), Math.max(c, d)])
    fc.assert(
      fc.property(
        points,
        nodeSize,
        fc.array(box, { minLength: 1, maxLength: 2 }),
        fc.boolean(),
        (ps, n, bs, wholeLeaves) => {
          const { kd, boxes } = treeOf(ps, n)
          const base = new Base()
          base.kd = kd
          base.nodeBox = boxes
          const runs = new BoxRuns()
          runs.count = 0
          for (const b of bs) runs.add(base, b, wholeLeaves, new KdStack())
          const coords = kd.coords as Float64Array
          const inside = (at: number) =>
            bs.some(
              ([x0, y0, x1, y1]) =>
                coords[2 * at]! >= x0! &&
                coords[2 * at]! <= x1! &&
                coords[2 * at + 1]! >= y0! &&
                coords[2 * at + 1]! <= y1!,
            )
          const listed: number[] = []
          for (let i = 0; i < runs.count; i += 2)
            for (let at = runs.found[i]!; at <= runs.found[i + 1]!; at++) listed.push(at)
          if (bs.length === 1)
            for (let i = 1; i < listed.length; i++) expect(listed[i]!).toBeGreaterThan(listed[i - 1]!)
          const want = ps.map((_, at) => at).filter(inside)
          if (wholeLeaves) for (const at of want) expect(listed).toContain(at)
          else expect([...new Set(listed)].sort((a, b) => a - b)).toEqual(want)
        },
      ),
    )
  })
})
