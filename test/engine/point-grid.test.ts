// The delta's grid: for any boxes, the lists it gives hold every key whose point lies in a box,
// each key at most once, after any sequence of adds, moves and deletes.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { boxesAround } from '../../src/engine/locator-index'
import { type LngLatBox, PointGrid } from '../../src/engine/geo/point-grid'

const lng = fc.double({ min: -180, max: 180, noNaN: true })
const lat = fc.double({ min: -90, max: 90, noNaN: true })
// Points near a few spots (so cells hold several keys), on the edges, and anywhere.
const spot = fc.constantFrom([0, 0], [179.9, 10], [-179.9, 10], [180, 90], [-180, -90], [13.4, 52.5])
const point = fc.oneof(
  { arbitrary: fc.tuple(lng, lat), weight: 1 },
  {
    arbitrary: fc
      .tuple(spot, fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
      .map(
        ([[x, y], dx, dy]) =>
          [Math.max(-180, Math.min(180, x + dx)), Math.max(-90, Math.min(90, y + dy))] as [number, number],
      ),
    weight: 4,
  },
)
const op = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 2000 }), p: point }),
    weight: 12,
  },
  { arbitrary: fc.record({ kind: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 2000 }) }), weight: 4 },
)
// Boxes as radius queries make them (one, two across the antimeridian, whole bands near the poles).
const km = fc.oneof(
  { arbitrary: fc.double({ min: 0.001, max: 150, noNaN: true }), weight: 3 },
  { arbitrary: fc.double({ min: 150, max: 1500, noNaN: true }), weight: 2 },
  { arbitrary: fc.double({ min: 1500, max: 20_000, noNaN: true }), weight: 1 },
)
const boxes = fc.tuple(point, km).map(([[x, y], r]) => boxesAround(x, y, r))

const inBox = ([x, y]: [number, number], [x0, y0, x1, y1]: LngLatBox) => x >= x0 && x <= x1 && y >= y0 && y <= y1

describe('PointGrid', () => {
  test('near() covers every key in the boxes, each once, after random adds, moves, deletes and clears', () => {
    // Some sequences clear the set part way (as a compaction does), then go on.
    const ops = fc.tuple(
      fc.array(op, { maxLength: 300, size: 'max' }),
      fc.boolean(),
      fc.array(op, { minLength: 50, maxLength: 2500, size: 'max' }),
    )
    fc.assert(
      fc.property(ops, fc.array(boxes, { minLength: 1, maxLength: 8 }), ([before, clear, after], queries) => {
        const grid = new PointGrid()
        const naive = new Map<number, [number, number]>()
        const apply = (o: (typeof before)[number]) => {
          if (o.kind === 'set') {
            grid.set(o.key, o.p[0], o.p[1])
            naive.set(o.key, o.p)
          } else {
            grid.delete(o.key)
            naive.delete(o.key)
          }
        }
        before.forEach(apply)
        if (clear) {
          grid.clear()
          naive.clear()
        }
        after.forEach(apply)
        expect(grid.size).toBe(naive.size)
        expect([...grid.keys].sort((a, b) => a - b)).toEqual([...naive.keys()].sort((a, b) => a - b))
        for (const bs of queries) {
          const listed = grid.near(bs).flat()
          expect(new Set(listed).size).toBe(listed.length)
          for (const key of listed) expect(naive.has(key)).toBe(true)
          const listedSet = new Set(listed)
          for (const [key, p] of naive) if (bs.some((b) => inBox(p, b))) expect(listedSet.has(key)).toBe(true)
        }
      }),
      { numRuns: 150 },
    )
  })

  test('a wide circle near the pole at the antimeridian: two boxes whose edges share a column of cells, read once', () => {
    // A radius whose box spans just under 360° of longitude: the far box starts a hair east of
    // where the near one ends, in the same half-degree column.
    const column = (x: number) => Math.floor((x + 180) / 0.5)
    let bs: LngLatBox[] = []
    for (let km = 166; km < 167.5 && bs.length === 0; km += 0.01) {
      const b = boxesAround(-0.3, 88, km)
      if (b.length === 2 && column(b[0]![0]) === column(b[1]![2])) bs = b
    }
    expect(bs).toHaveLength(2)
    // Enough keys, in enough cells, that the grid looks cells up one by one: one key in every cell
    // of the band, more in a band far south, the rest piled on one cell of the band.
    const grid = new PointGrid()
    let key = 0
    for (let row = 0; row < 8; row++)
      for (let col = 0; col < 720; col++) grid.set(key++, -180 + col * 0.5 + 0.25, 86.25 + row * 0.5)
    for (let col = 0; col < 720; col++) grid.set(key++, -180 + col * 0.5 + 0.25, -40)
    while (key < 60_000) grid.set(key++, 10, 88)
    const inBand = (k: number) => k < 5760 || k >= 5760 + 720
    const listed = grid.near(bs).flat()
    expect(new Set(listed).size).toBe(listed.length)
    expect(listed.filter(inBand)).toHaveLength(60_000 - 720)
  })

  test('many keys in few cells, a box touching many more cells: the cells in use are tested, not looked up', () => {
    const grid = new PointGrid()
    // 1,000 keys in 4 cells near Berlin, one far away; the box of a 100 km circle touches about 35 cells.
    for (let key = 0; key < 1000; key++) grid.set(key, 13.1 + (key % 2) * 0.5, 52.1 + (Math.floor(key / 2) % 2) * 0.5)
    grid.set(1000, -70, -30)
    const lists = grid.near(boxesAround(13.4, 52.5, 100))
    expect(lists.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i))
    expect(lists).toHaveLength(4)
  })

  test('a small box reads only the cells it touches', () => {
    const grid = new PointGrid()
    for (let key = 0; key < 10_000; key++) grid.set(key, -100 + (key % 100), -40 + Math.floor(key / 100) * 0.8)
    grid.set(10_000, 13.4, 52.5)
    expect(grid.near(boxesAround(13.4, 52.5, 10)).flat()).toEqual([10_000])
  })
})
