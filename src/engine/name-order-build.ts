// The name order of a built index, made in slices between other work rather than in one sort
// that holds the event loop (PERF-040): runs of keys sorted one task each, then merged two at a
// time, a slice of each merge a task. Keys written meanwhile are left out and put back, at the
// end, where they now belong.
import { ChunkedOrder } from './chunked-order'
import type { KeyTable } from './keys'

/** Keys a merge task places, per key a run's sort takes: a merge's step costs about a sort's. */
const MERGE_PER_SORT = 3

/** A merge of two runs under way: `out` holds what is placed so far. */
type Merge = { a: number[]; b: number[]; i: number; j: number; out: number[] }

export class NameOrderBuild {
  /** Sorted runs still to merge, oldest first. */
  private readonly runs: number[][] = []
  private merging: Merge | null = null
  /** The next key slot to take into a run. */
  private next = 0
  /**
   * Keys written (put or removed) since the build began. A run sorted before a key's write may
   * hold it at its old place, and a merge would then order its neighbours wrongly: so every step
   * leaves such keys out, and the last inserts the live ones anew.
   */
  private readonly written = new Set<number>()

  constructor(
    private readonly keys: KeyTable,
    private readonly compare: (a: number, b: number) => number,
    /** Keys a run takes: one task's sort. */
    private readonly slice: number,
    private readonly chunk: number | undefined,
  ) {}

  /** A key was put or removed while the build runs. */
  touch(key: number): void {
    this.written.add(key)
  }

  /** One task's work: a run sorted, or a slice of a merge. Returns the order once it is whole, else null. */
  step(): ChunkedOrder | null {
    const { entries } = this.keys
    if (this.next < entries.length) {
      const run: number[] = []
      const end = Math.min(this.next + this.slice, entries.length)
      for (let key = this.next; key < end; key++) if (entries[key] !== null && !this.written.has(key)) run.push(key)
      this.next = end
      if (run.length > 0) this.runs.push(run.sort(this.compare))
      return null
    }
    if (this.merging === null && this.runs.length > 1)
      this.merging = { a: this.runs.shift()!, b: this.runs.shift()!, i: 0, j: 0, out: [] }
    if (this.merging !== null) {
      if (this.mergeSome(this.slice * MERGE_PER_SORT)) {
        this.runs.push(this.merging.out)
        this.merging = null
      }
      return null
    }
    const sorted = (this.runs[0] ?? []).filter((key) => !this.written.has(key))
    const order = new ChunkedOrder(this.compare, sorted, this.chunk)
    for (const key of this.written) if (entries[key] !== null) order.insert(key)
    return order
  }

  /** Places up to `budget` keys of the merge under way, leaving out written keys; true once it is done. */
  private mergeSome(budget: number): boolean {
    const m = this.merging!
    const { a, b, out } = m
    const skip = this.written
    for (let n = 0; n < budget && (m.i < a.length || m.j < b.length); n++) {
      if (m.i < a.length && skip.has(a[m.i]!)) m.i++
      else if (m.j < b.length && skip.has(b[m.j]!)) m.j++
      else if (m.j >= b.length || (m.i < a.length && this.compare(a[m.i]!, b[m.j]!) <= 0)) out.push(a[m.i++]!)
      else out.push(b[m.j++]!)
    }
    return m.i >= a.length && m.j >= b.length
  }
}
