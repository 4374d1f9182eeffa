// Locations' public JSON as UTF-8 bytes, packed in a few large buffers: an answer is made by
// copying each location's bytes into one buffer, which is sent (and kept by the answer cache) as
// it is. Kept as JS strings instead, an answer would be a rope of strings that the runtime
// flattens and transcodes to UTF-8 for every response, dearer than the copies (PERF-036); most of
// either is reading 20 locations' JSON from memory no cache holds. Buffers also keep 100,000s of
// strings out of the garbage collector's way.
//
// Each JSON gets a slot (a small integer, reused once freed). Bytes are appended to the newest
// buffer of their kind (below); a freed slot's bytes stay where they are until its buffer is at
// most half live, when the buffer's live slots move, in their order, to the newest buffer of its
// kind and the buffer is let go.
//
// An answer's locations are near each other, and its copies are fastest when their JSON is too:
// read as one run, not as 20 reads from anywhere in a large arena. So bytes are appended at one of
// two ends: in order (the registry adds them in the index's space order: the JSON fill, and
// reorder() of what writes added since), or as written (a write's JSON, made on demand or for a
// change). Each buffer holds bytes of one kind; `outOfOrder` is the second kind's share of the
// live bytes.

/** The first buffer's size; each next one doubles, up to MAX_CHUNK (a JSON longer gets its own). */
const MIN_CHUNK = 64 * 1024
const MAX_CHUNK = 8 * 1024 * 1024

/** Where bytes are appended: a buffer (-1: none yet), where its free space starts, the next buffer's size. */
type End = { chunk: number; tail: number; nextSize: number }
const newEnd = (): End => ({ chunk: -1, tail: 0, nextSize: MIN_CHUNK })
const WRITTEN = 0
const IN_ORDER = 1

export class JsonArena {
  private chunks: (Buffer | null)[] = []
  /** Live bytes per buffer. */
  private liveBytes: number[] = []
  /** Per buffer: whether it holds bytes added in order. */
  private inOrder: boolean[] = []
  /** Buffers let go, whose places in `chunks` are free. */
  private freeChunks: number[] = []
  /** The two ends appended to: bytes as written (WRITTEN), bytes in order (IN_ORDER). */
  private ends: End[] = [newEnd(), newEnd()]
  /** Live bytes in buffers of bytes as written. */
  private looseBytes = 0
  /** Buffers no longer appended to, to check for compaction once the current step is done. */
  private retired: number[] = []

  /**
   * Per slot, 3 numbers side by side: its buffer, offset and length in bytes (-1: a free slot).
   * An answer reads 20 slots' records, mostly from memory no cache holds: side by side, one cache
   * miss each, where three arrays would take three (PERF-012).
   */
  private rec = new Int32Array(3 * 64).fill(-1)
  private slots = 0
  private freeSlots: number[] = []
  private live = 0

  /** Stores a JSON text, after the texts added in order if `inOrder`, else as written; returns its slot. */
  add(json: string, inOrder = false): number {
    const n = Buffer.byteLength(json, 'utf8')
    const end = this.ends[inOrder ? IN_ORDER : WRITTEN]!
    const c = this.room(end, n)
    const offset = end.tail
    this.chunks[c]!.write(json, offset, n, 'utf8')
    end.tail += n
    const slot = this.newSlot()
    this.place(slot, c, offset, n)
    this.tidy()
    return slot
  }

  /**
   * Moves a slot's bytes that were added as written to after those added in order; false if they
   * were in order already. Called for slots in the index's space order, it lays them out again as
   * the JSON fill did. Their old place is freed space, given back as any other.
   */
  reorder(slot: number): boolean {
    const r = 3 * slot
    const c = this.rec[r]!
    const n = this.rec[r + 2]!
    if (n < 0) throw new Error(`JsonArena: slot ${slot} is not in use`)
    if (this.inOrder[c]) return false
    this.move(slot, this.ends[IN_ORDER]!)
    if (!this.isEnd(c)) this.retired.push(c)
    this.tidy()
    return true
  }

  /** The share of the live bytes added as written (not in order): what reorder() would move. */
  get outOfOrder(): number {
    return this.live === 0 ? 0 : this.looseBytes / this.live
  }

  /** Gives a slot back; its bytes are no longer read. */
  free(slot: number): void {
    const n = this.rec[3 * slot + 2]!
    if (n < 0) throw new Error(`JsonArena: slot ${slot} is not in use`)
    const c = this.rec[3 * slot]!
    this.rec[3 * slot + 2] = -1
    this.freeSlots.push(slot)
    this.unplace(c, n)
    if (!this.isEnd(c)) this.retired.push(c)
    this.tidy()
  }

  /** The slot's length in bytes. */
  size(slot: number): number {
    return this.rec[3 * slot + 2]!
  }

  /** Copies the slot's bytes into `out` at `pos`; returns the position after them. */
  copy(slot: number, out: Uint8Array, pos: number): number {
    const r = 3 * slot
    const a = this.rec[r + 1]!
    const n = this.rec[r + 2]!
    // Buffer's copy makes no view of the piece, as set(subarray()) would (PERF-018, PERF-036).
    this.chunks[this.rec[r]!]!.copy(out, pos, a, a + n)
    return pos + n
  }

  /** The slot's JSON as text. */
  text(slot: number): string {
    const r = 3 * slot
    const a = this.rec[r + 1]!
    return this.chunks[this.rec[r]!]!.toString('utf8', a, a + this.rec[r + 2]!)
  }

  /**
   * Gives back the free space at the end of the buffers being appended to (up to MAX_CHUNK each,
   * as buffers double): their bytes move to buffers of their exact size, and the next JSON added
   * starts a new buffer, small again. For when a burst of adds is over (a locator's JSON filled,
   * or laid out again).
   */
  trim(): void {
    for (const end of this.ends) {
      const c = end.chunk
      if (c < 0 || end.tail === this.chunks[c]!.length) continue
      // Even when empty: a slot of an empty text may be in it.
      const exact = Buffer.allocUnsafeSlow(end.tail)
      this.chunks[c]!.copy(exact, 0, 0, end.tail)
      this.chunks[c] = exact
      this.retired.push(c)
      Object.assign(end, newEnd())
    }
  }

  /** Bytes of the JSON stored (live slots), and of the buffers holding it. */
  get bytes(): { live: number; allocated: number } {
    let allocated = 0
    for (const chunk of this.chunks) allocated += chunk?.length ?? 0
    return { live: this.live, allocated }
  }

  /** A buffer with room for `n` more bytes at the end's tail: its current one, or a new one. */
  private room(end: End, n: number): number {
    if (end.chunk >= 0 && end.tail + n <= this.chunks[end.chunk]!.length) return end.chunk
    if (end.chunk >= 0) this.retired.push(end.chunk)
    const size = Math.max(n, end.nextSize)
    end.nextSize = Math.min(end.nextSize * 2, MAX_CHUNK)
    const c = this.freeChunks.pop() ?? this.chunks.length
    this.chunks[c] = Buffer.allocUnsafeSlow(size)
    this.liveBytes[c] = 0
    this.inOrder[c] = end === this.ends[IN_ORDER]
    end.chunk = c
    end.tail = 0
    return c
  }

  private isEnd(c: number): boolean {
    return c === this.ends[WRITTEN]!.chunk || c === this.ends[IN_ORDER]!.chunk
  }

  /** Copies a live slot's bytes to the end's tail and places it there (its old buffer keeps them as freed space). */
  private move(slot: number, end: End): void {
    const r = 3 * slot
    const from = this.rec[r]!
    const a = this.rec[r + 1]!
    const n = this.rec[r + 2]!
    const to = this.room(end, n)
    this.chunks[from]!.copy(this.chunks[to]!, end.tail, a, a + n)
    this.unplace(from, n)
    this.place(slot, to, end.tail, n)
    end.tail += n
  }

  private newSlot(): number {
    const reused = this.freeSlots.pop()
    if (reused !== undefined) return reused
    if (3 * this.slots === this.rec.length) {
      const grown = new Int32Array(2 * this.rec.length).fill(-1)
      grown.set(this.rec)
      this.rec = grown
    }
    return this.slots++
  }

  private place(slot: number, c: number, offset: number, n: number): void {
    this.rec[3 * slot] = c
    this.rec[3 * slot + 1] = offset
    this.rec[3 * slot + 2] = n
    this.live += n
    this.liveBytes[c]! += n
    if (!this.inOrder[c]) this.looseBytes += n
  }

  /** `n` bytes of buffer `c` are no longer live. */
  private unplace(c: number, n: number): void {
    this.live -= n
    this.liveBytes[c]! -= n
    if (!this.inOrder[c]) this.looseBytes -= n
  }

  /**
   * Moves the live slots of retired buffers at most half live to the end of their kind (in the
   * order they were in: what was in order stays so), and lets those buffers go.
   */
  private tidy(): void {
    while (this.retired.length > 0) {
      const c = this.retired.pop()!
      const chunk = this.chunks[c]
      if (chunk === null || chunk === undefined || this.isEnd(c) || this.liveBytes[c]! * 2 > chunk.length) continue
      const slots: number[] = []
      for (let slot = 0; slot < this.slots; slot++)
        if (this.rec[3 * slot] === c && this.rec[3 * slot + 2]! >= 0) slots.push(slot)
      slots.sort((a, b) => this.rec[3 * a + 1]! - this.rec[3 * b + 1]!)
      const end = this.ends[this.inOrder[c] ? IN_ORDER : WRITTEN]!
      for (const slot of slots) this.move(slot, end)
      this.chunks[c] = null
      this.freeChunks.push(c)
    }
  }
}
