// A sorted list of keys kept in chunks, so that an insert or a removal moves at most a chunk's
// worth of entries instead of the whole list: the index's name order, kept in step with every
// write.
import { NAME_CHUNK } from './tuning'

export class ChunkedOrder {
  /** The keys in order, chunk after chunk; no chunk is empty. */
  readonly chunks: number[][] = []
  private count = 0

  /** `sorted` must be in the order of `compare`, a total order over the keys' current entries. */
  constructor(
    private readonly compare: (a: number, b: number) => number,
    sorted: number[] = [],
    /** Entries per chunk when built; a chunk splits in two past twice this. */
    private readonly chunk = NAME_CHUNK,
  ) {
    for (let i = 0; i < sorted.length; i += chunk) this.chunks.push(sorted.slice(i, i + chunk))
    this.count = sorted.length
  }

  get length(): number {
    return this.count
  }

  /** Adds a key where its entry belongs. */
  insert(key: number): void {
    const { chunks } = this
    if (chunks.length === 0) {
      chunks.push([key])
    } else {
      const [c, at] = this.locate(key)
      const list = chunks[c]!
      list.splice(at, 0, key)
      if (list.length > 2 * this.chunk) chunks.splice(c + 1, 0, list.splice(this.chunk))
    }
    this.count++
  }

  /** Takes a key out, found by its entry as it was when inserted; false when it is not there. */
  remove(key: number): boolean {
    if (this.chunks.length === 0) return false
    const [c, at] = this.locate(key)
    const list = this.chunks[c]!
    if (list[at] !== key) return false
    list.splice(at, 1)
    if (list.length === 0) this.chunks.splice(c, 1)
    this.count--
    return true
  }

  /** The keys at places from..to-1 (fewer at the end). */
  slice(from: number, to: number): number[] {
    const out: number[] = []
    let start = 0
    for (const list of this.chunks) {
      if (start >= to) break
      const end = start + list.length
      if (end > from) for (let i = Math.max(from, start); i < Math.min(to, end); i++) out.push(list[i - start]!)
      start = end
    }
    return out
  }

  /**
   * Where `key` belongs: the first chunk whose last key does not come before it, and the first
   * place in that chunk whose key does not; past the end of the last chunk when it comes after all.
   */
  private locate(key: number): [number, number] {
    const { chunks, compare } = this
    let lo = 0
    let hi = chunks.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const list = chunks[mid]!
      if (compare(list[list.length - 1]!, key) < 0) lo = mid + 1
      else hi = mid
    }
    if (lo === chunks.length) return [lo - 1, chunks[lo - 1]!.length]
    const list = chunks[lo]!
    let a = 0
    let b = list.length
    while (a < b) {
      const mid = (a + b) >>> 1
      if (compare(list[mid]!, key) < 0) a = mid + 1
      else b = mid
    }
    return [lo, a]
  }
}
