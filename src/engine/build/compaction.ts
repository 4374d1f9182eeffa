// Compaction: the delta folded into a new KDBush base and the term pool's garbage dropped. Run at
// once at load (compactNow), else scheduled in steps between requests after the write that
// crosses the delta's bound, never on a query or a write: a snapshot of the live keys and their
// points, some keys per task; their KDBush and its nodes' boxes, in a worker thread when large;
// the prefix columns; the new base's tables; its positions filled, some per task; then the swap.
// A task runs slices of its work until its turn ends (stepEnd). Queries use the old base until the swap.
import { termColumns } from '../columns'
import { buildKd, buildKdInWorker } from '../geo/kd-build'
import type { IndexState } from '../state'
import { PrefixScan } from '../text/prefix-columns'
import { stepEnd } from '../schedule'
import { DELTA_MAX, POOL_GARBAGE_MIN, PREFIX_COLUMN_LENGTH, PREFIX_SCAN_SLICE, SLICE } from '../tuning'
import type { Schedule } from '../types'
import { type Build, fillPositions, makeTables, newBuild, scanKeys, swapIn } from './new-base'

export type CompactionOptions = { nodeSize: number; compactionSlice: number; kdWorkerMin: number; deltaMin: number }

export class Compactor {
  /** A compaction under way (scheduled, in steps), or null. */
  private building: Build | null = null
  /** Compactions whose KDBush the worker thread sorted. */
  kdSortedInWorker = 0

  constructor(
    private readonly s: IndexState,
    private readonly schedule: Schedule,
    private readonly o: CompactionOptions,
    /** Called once a new base is swapped in, before a compaction is scheduled for writes made meanwhile. */
    private readonly swapped: () => void,
  ) {}

  /** Whether a scheduled compaction is under way. */
  get compacting(): boolean {
    return this.building !== null
  }

  /** A key was written or removed: a build under way must not take what it copied of it. */
  written(key: number): void {
    this.building?.dirty.add(key)
  }

  /** Drops a compaction under way (the index is let go). */
  drop(): void {
    this.building = null
  }

  /** The delta's bound: max(deltaMin, min(base / 10, DELTA_MAX)) keys. */
  deltaBound(): number {
    return Math.max(this.o.deltaMin, Math.min(this.s.base.size / 10, DELTA_MAX))
  }

  /** The delta is past its bound, or the term pool is mostly garbage. */
  needed(): boolean {
    const { terms } = this.s
    return this.s.delta.size > this.deltaBound() || terms.garbage > Math.max(POOL_GARBAGE_MIN, terms.used / 2)
  }

  /** Schedules a compaction when the changes since the base was built number at least deltaMin and none is under way; returns whether it did. */
  settle(): boolean {
    if (this.building !== null || this.s.delta.size + this.s.base.deadCount < this.o.deltaMin) return false
    this.start()
    return true
  }

  /** Compacts now, in one go (a scheduled compaction under way is dropped). */
  compactNow(): void {
    const build = this.begin()
    scanKeys(this.s, build, build.scanTo)
    build.tree = buildKd(build.coords, this.o.nodeSize)
    const scan = this.startPrefixScan(build)
    scan.scan(scan.end)
    this.endPrefixScan(build, scan)
    makeTables(this.s, build)
    fillPositions(this.s, build, build.keys.length)
    this.swap(build)
  }

  /** Schedules a compaction in steps, unless one is under way. */
  start(): void {
    if (this.building !== null) return
    const build = this.begin()
    const step = () => {
      if (this.building !== build) return // dropped: compactNow ran meanwhile
      if (this.advance(build, step)) this.schedule(step)
    }
    this.schedule(step)
  }

  /** Does the build's next step; returns whether `step` is to be scheduled again now. */
  private advance(b: Build, step: () => void): boolean {
    const { s, o } = this
    const slice = Math.min(SLICE, o.compactionSlice)
    if (b.scanned < b.scanTo) {
      inSlices(b.scanned, Math.min(b.scanTo, b.scanned + 4 * o.compactionSlice), 4 * slice, (to) => scanKeys(s, b, to))
    } else if (!b.sorting) {
      b.sorting = true
      if (b.keys.length >= o.kdWorkerMin) {
        buildKdInWorker(b.coords, o.nodeSize, (tree, inWorker) => {
          if (inWorker) this.kdSortedInWorker++
          b.tree = tree
          if (b.tabled) this.schedule(step) // else the tables' step goes on
        })
      } else b.tree = buildKd(b.coords, o.nodeSize)
    } else if (b.prefixCol === null) {
      // Steps of their own, while the worker sorts.
      const scan = b.prefixScan ?? this.startPrefixScan(b)
      inSlices(
        scan.position,
        Math.min(scan.end, scan.position + 4 * o.compactionSlice),
        Math.min(PREFIX_SCAN_SLICE, o.compactionSlice),
        (to) => scan.scan(to),
      )
      if (scan.position === scan.end) this.endPrefixScan(b, scan)
    } else if (!b.tabled) {
      // A step of its own, while the worker sorts; the worker's answer goes on if it has not come.
      makeTables(s, b)
      return b.tree !== null
    } else if (b.filled < b.keys.length) {
      inSlices(b.filled, Math.min(b.keys.length, b.filled + o.compactionSlice), slice, (to) => fillPositions(s, b, to))
    } else {
      this.swap(b)
      return false
    }
    return true
  }

  /** A new build, from here on told of every write (it replaces any under way). */
  private begin(): Build {
    this.building = newBuild(this.s.keys.entries.length)
    return this.building
  }

  /** Finds the new base's term columns, and starts the scan for its prefix columns, over the terms known now. */
  private startPrefixScan(b: Build): PrefixScan {
    const { df, vocab } = this.s.terms
    const { prefixes } = this.s
    b.termCol = new Int32Array(vocab.size)
    b.termColCount = termColumns(df, vocab.size, b.keys.length, b.termCol)
    return (b.prefixScan = new PrefixScan(prefixes.terms.slice(), prefixes.ids.slice(), df, b.termCol, b.keys.length))
  }

  /** The scan is done: the prefix columns are numbered (b.prefixCol), and each term's found. */
  private endPrefixScan(b: Build, scan: PrefixScan): void {
    b.termPrefixCols = new Int32Array(PREFIX_COLUMN_LENGTH * b.termCol.length)
    b.prefixCol = scan.columns(b.termColCount, b.termPrefixCols)
    b.prefixScan = null
  }

  private swap(b: Build): void {
    this.building = null
    swapIn(this.s, b)
    this.swapped()
    // Writes during the build may have passed the bound again.
    if (this.needed()) this.start()
  }
}

/** Calls work(end) for end = from + slice, from + 2 slice, ... up to `to`, until its turn ends (stepEnd). */
function inSlices(from: number, to: number, slice: number, work: (end: number) => void): void {
  const until = stepEnd()
  for (let end = from; end < to && performance.now() < until; ) {
    end = Math.min(to, end + slice)
    work(end)
  }
}
