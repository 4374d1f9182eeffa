// The name order of a built index, made in slices between other work rather than in one sort
// that holds the event loop (PERF-040): a SlicedSort of the live keys. Keys written meanwhile are
// left out and put back, at the end, where they now belong.
import { ChunkedOrder } from './chunked-order'
import type { KeyTable } from './keys'
import { SlicedSort } from './sliced-sort'

export class NameOrderBuild {
  /**
   * Keys written (put or removed) since the build began. A run sorted before a key's write may
   * hold it at its old place, and a merge would then order its neighbours wrongly: so every step
   * leaves such keys out, and the last inserts the live ones anew.
   */
  private readonly written = new Set<number>()
  private readonly sort: SlicedSort<number>

  constructor(
    private readonly keys: KeyTable,
    private readonly compare: (a: number, b: number) => number,
    /** Keys a run takes: one task's sort. */
    slice: number,
    private readonly chunk: number | undefined,
  ) {
    const { entries } = keys
    const take = (from: number, to: number) => {
      const run: number[] = []
      for (let key = from; key < to; key++) if (entries[key] !== null && !this.written.has(key)) run.push(key)
      return run
    }
    this.sort = new SlicedSort(
      () => entries.length,
      take,
      compare,
      slice,
      (key) => this.written.has(key),
    )
  }

  /** A key was put or removed while the build runs. */
  touch(key: number): void {
    this.written.add(key)
  }

  /** One task's work: a run sorted, or a slice of a merge. Returns the order once it is whole, else null. */
  step(): ChunkedOrder | null {
    const sorted = this.sort.step()
    if (sorted === null) return null
    const order = new ChunkedOrder(this.compare, sorted, this.chunk)
    for (const key of this.written) if (this.keys.entries[key] !== null) order.insert(key)
    return order
  }
}
