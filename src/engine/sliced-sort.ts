// A sort made in slices between other work rather than in one piece that holds the event loop
// (PERF-040, PERF-041): runs of items sorted one step each, then merged two at a time, a slice
// of a merge a step. Items `skip` names (written since the sort began) are left out of every step.

/** Items a merge step places, per item a run's sort takes: a merge's step costs about a sort's. */
const MERGE_PER_SORT = 3

/** A merge of two runs under way: `out` holds what is placed so far. */
type Merge<T> = { a: T[]; b: T[]; i: number; j: number; out: T[] }

export class SlicedSort<T> {
  /** Sorted runs still to merge, oldest first. */
  private readonly runs: T[][] = []
  private merging: Merge<T> | null = null
  /** The next place of the source to take into a run. */
  private next = 0

  constructor(
    /** The source's size now (it may grow while the sort runs: a run takes what is there then). */
    private readonly size: () => number,
    /** The items at places [from, to) of the source, skipped ones left out. */
    private readonly take: (from: number, to: number) => T[],
    private readonly compare: (a: T, b: T) => number,
    /** Items a run takes: one step's sort. */
    private readonly slice: number,
    private readonly skip: (item: T) => boolean = () => false,
  ) {}

  /** One step's work: a run sorted, or a slice of a merge. Returns every item in order once whole (skipped ones left out), else null. */
  step(): T[] | null {
    const size = this.size()
    if (this.next < size) {
      const end = Math.min(this.next + this.slice, size)
      const run = this.take(this.next, end)
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
    return (this.runs[0] ?? []).filter((item) => !this.skip(item))
  }

  /** Places up to `budget` items of the merge under way, leaving out skipped ones; true once it is done. */
  private mergeSome(budget: number): boolean {
    const m = this.merging!
    const { a, b, out } = m
    for (let n = 0; n < budget && (m.i < a.length || m.j < b.length); n++) {
      if (m.i < a.length && this.skip(a[m.i]!)) m.i++
      else if (m.j < b.length && this.skip(b[m.j]!)) m.j++
      else if (m.j >= b.length || (m.i < a.length && this.compare(a[m.i]!, b[m.j]!) <= 0)) out.push(a[m.i++]!)
      else out.push(b[m.j++]!)
    }
    return m.i >= a.length && m.j >= b.length
  }
}
