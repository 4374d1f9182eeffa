// A set of keys (small integers), each at a point, bucketed in cells of CELL_DEG degrees: the
// index's delta (the keys added or moved since the last compaction), so that a radius query reads
// the keys in the cells its boxes touch instead of every key written since. It knows cells only:
// callers test each key they are given against their own box and distance.
import { ensure } from '../arrays'
import { CELL_DEG, KEYS_PER_LOOKUP } from '../tuning'
import type { LngLatBox } from './boxes'

export type { LngLatBox } from './boxes'

const ROWS = 180 / CELL_DEG
const COLS = 360 / CELL_DEG

/** Row of a latitude, column of a longitude; the edges (90, 180) fall in the last row and column. */
const rowOf = (lat: number) => Math.min(ROWS - 1, Math.max(0, Math.floor((lat + 90) / CELL_DEG)))
const colOf = (lng: number) => Math.min(COLS - 1, Math.max(0, Math.floor((lng + 180) / CELL_DEG)))

export class PointGrid {
  /** Every key, in no order. */
  readonly keys: number[] = []
  /** Per key: its place in `keys` (-1: not in the set), its cell, its place in the cell's list. */
  private at = new Int32Array(0)
  private cellOf = new Int32Array(0)
  private inCell = new Int32Array(0)
  private cells = new Map<number, number[]>()

  get size(): number {
    return this.keys.length
  }

  has(key: number): boolean {
    return key < this.at.length && this.at[key] !== -1
  }

  /** Adds a key at (lng, lat), or moves it there. */
  set(key: number, lng: number, lat: number): void {
    if (this.has(key)) this.leaveCell(key)
    else {
      if (key >= this.at.length) this.grow(key + 1)
      this.at[key] = this.keys.length
      this.keys.push(key)
    }
    const cell = rowOf(lat) * COLS + colOf(lng)
    let list = this.cells.get(cell)
    if (list === undefined) this.cells.set(cell, (list = []))
    this.cellOf[key] = cell
    this.inCell[key] = list.length
    list.push(key)
  }

  /** Takes a key out; a key not in the set is ignored. */
  delete(key: number): void {
    if (!this.has(key)) return
    this.leaveCell(key)
    const at = this.at[key]!
    const last = this.keys.pop()!
    if (last !== key) {
      this.keys[at] = last
      this.at[last] = at
    }
    this.at[key] = -1
  }

  clear(): void {
    for (const key of this.keys) this.at[key] = -1
    this.keys.length = 0
    this.cells.clear()
  }

  /**
   * Lists of keys that hold every key whose point lies in one of the boxes (and maybe others): the
   * lists of the cells the boxes touch, or, when that would cost more to look up, all keys in one.
   */
  near(boxes: LngLatBox[]): number[][] {
    let lookups = 0
    for (const [x0, y0, x1, y1] of boxes) lookups += (rowOf(y1) - rowOf(y0) + 1) * (colOf(x1) - colOf(x0) + 1)
    if (lookups * KEYS_PER_LOOKUP >= this.keys.length) return [this.keys]
    const lists: number[][] = []
    if (this.cells.size < lookups) {
      // Fewer cells in use than cells touched: test each one in use.
      for (const [cell, list] of this.cells) {
        const row = Math.floor(cell / COLS)
        const col = cell - row * COLS
        if (
          boxes.some(([x0, y0, x1, y1]) => row >= rowOf(y0) && row <= rowOf(y1) && col >= colOf(x0) && col <= colOf(x1))
        )
          lists.push(list)
      }
      return lists
    }
    // Two boxes (either side of the antimeridian) may touch one column of cells both: read it once.
    const seen = boxes.length > 1 ? new Set<number>() : null
    for (const [x0, y0, x1, y1] of boxes) {
      const c0 = colOf(x0)
      const c1 = colOf(x1)
      for (let row = rowOf(y0); row <= rowOf(y1); row++) {
        for (let col = c0; col <= c1; col++) {
          const cell = row * COLS + col
          if (seen !== null) {
            if (seen.has(cell)) continue
            seen.add(cell)
          }
          const list = this.cells.get(cell)
          if (list !== undefined) lists.push(list)
        }
      }
    }
    return lists
  }

  /** Takes a key (in the set) out of its cell's list; an emptied cell is dropped. */
  private leaveCell(key: number): void {
    const cell = this.cellOf[key]!
    const list = this.cells.get(cell)!
    const at = this.inCell[key]!
    const last = list.pop()!
    if (last !== key) {
      list[at] = last
      this.inCell[last] = at
    }
    if (list.length === 0) this.cells.delete(cell)
  }

  private grow(n: number): void {
    const before = this.at.length
    this.at = ensure(this.at, n)
    this.at.fill(-1, before)
    this.cellOf = ensure(this.cellOf, n)
    this.inCell = ensure(this.inCell, n)
  }
}
