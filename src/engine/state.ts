// The index's tables and the scratch its queries reuse, in one place: LocatorIndex owns one, and
// the query and build functions take it.
import { Base } from './base'
import type { ChunkedOrder } from './chunked-order'
import { ClusterScratch } from './clusters/answer'
import type { ClusterTree } from './clusters/tree'
import { Circle } from './geo/circle'
import { KdQueue, KdStack } from './geo/kd-walk'
import { PointGrid } from './geo/point-grid'
import { KeyTable } from './keys'
import { BoxRuns } from './query/box-runs'
import { ByRank } from './query/by-rank'
import { CircleRuns } from './query/circle-runs'
import { FuzzyMarks } from './query/fuzzy'
import { MatchMarks } from './query/matches'
import { RankHeap } from './query/name-pages'
import { OpenNow } from './open-now'
import { NearestCount } from './query/nearest'
import { PageBuffer } from './query/top-k'
import { TagTable } from './tags'
import { EditRows, PrefixGroups } from './text/fuzzy-terms'
import { Postings } from './text/postings'
import { Prefixes } from './text/prefixes'
import { TermPool } from './text/term-pool'
import type { Schedule } from './types'

export class IndexState {
  readonly keys = new KeyTable()
  readonly tags = new TagTable()
  readonly terms = new TermPool()
  readonly prefixes = new Prefixes()
  readonly postings: Postings
  /** Keys added or moved since the base was built, by grid cell of their points. */
  readonly delta = new PointGrid()
  readonly base = new Base()
  /** Which locations are open at the last instant asked for (open-now.ts). */
  readonly open = new OpenNow(this.base)
  /** Live keys by (name, id), for all=true by name; built in the background after load, then kept in step. */
  nameOrder: ChunkedOrder | null = null
  /** The clusters of the points, once asked for (clusters/): built anew after each compaction. */
  clusters: ClusterTree | null = null

  // Kept between queries (a query runs to its end before the next starts).
  readonly stack = new KdStack()
  readonly queue = new KdQueue()
  readonly circle = new Circle()
  readonly nearest = new NearestCount()
  readonly runs = new CircleRuns()
  readonly boxRuns = new BoxRuns()
  readonly byRank = new ByRank()
  readonly marks = new MatchMarks()
  readonly rankHeap = new RankHeap()
  readonly page = new PageBuffer()
  readonly fuzzy = new FuzzyMarks()
  readonly clusterScratch = new ClusterScratch()
  readonly editRows = new EditRows()
  readonly prefixGroups = new PrefixGroups()

  constructor(schedule: Schedule, textGarbageMin: number) {
    this.postings = new Postings(this.keys, this.terms, schedule, textGarbageMin)
  }

  /** Room for `n` keys in every per-key table. */
  grow(n: number): void {
    this.keys.grow(n)
    this.base.grow(n)
    this.terms.grow(n)
    this.tags.grow(n)
    this.postings.grow(n)
    this.open.grow(n)
  }

  /** Cuts the growth slack after a bulk load. */
  shrink(): void {
    for (const step of this.shrinkSteps()) step()
  }

  /** shrink() in steps, a table or two each (a build in the background runs one a task). */
  shrinkSteps(): (() => void)[] {
    const n = this.keys.entries.length
    const terms = this.terms.vocab.size
    return [
      () => this.keys.shrink(),
      () => this.base.shrink(n),
      () => this.terms.shrink(n),
      () => this.tags.shrink(n),
      () => {
        this.postings.shrink(n, terms)
        this.prefixes.shrink(terms)
      },
    ]
  }
}
