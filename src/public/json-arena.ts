// Locations' public JSON as UTF-8 bytes, packed in a few large buffers: an answer is made by
// copying each location's bytes into one buffer, which is sent (and kept by the answer cache) as
// it is. Kept as JS strings instead, an answer was a rope of ~60 strings that the runtime flattened
// and then transcoded to UTF-8 for every response: at 100k, 4000 distinct radius queries, about
// 30 µs of a ~75 µs request in process, against ~15 µs for the copies (most of either is reading
// 20 locations' JSON from memory no cache holds). Buffers also keep 100,000s of strings out of the
// garbage collector's way.
//
// Each JSON gets a slot (a small integer, reused once freed). Bytes are appended to the newest
// buffer; a freed slot's bytes stay where they are until its buffer is at most half live, when the
// buffer's live slots move to the newest one and the buffer is let go.

/** The first buffer's size; each next one doubles, up to MAX_CHUNK (a JSON longer gets its own). */
const MIN_CHUNK = 64 * 1024
const MAX_CHUNK = 8 * 1024 * 1024

export class JsonArena {
  private chunks: (Buffer | null)[] = []
  /** Live bytes per buffer. */
  private liveBytes: number[] = []
  /** Buffers let go, whose places in `chunks` are free. */
  private freeChunks: number[] = []
  /** The buffer appended to, and where its free space starts. */
  private current = -1
  private tail = 0
  private nextSize = MIN_CHUNK
  /** Buffers no longer appended to, to check for compaction once the current step is done. */
  private retired: number[] = []

  /**
   * Per slot, 3 numbers side by side: its buffer, offset and length in bytes (-1: a free slot).
   * An answer reads 20 slots' records, mostly from memory no cache holds: side by side, one cache
   * miss each, where three arrays took three.
   */
  private rec = new Int32Array(3 * 64).fill(-1)
  private slots = 0
  private freeSlots: number[] = []
  private live = 0

  /** Stores a JSON text; returns its slot. */
  add(json: string): number {
    const n = Buffer.byteLength(json, 'utf8')
    const c = this.room(n)
    const offset = this.tail
    this.chunks[c]!.write(json, offset, n, 'utf8')
    this.tail += n
    const slot = this.newSlot()
    this.place(slot, c, offset, n)
    this.tidy()
    return slot
  }

  /** Gives a slot back; its bytes are no longer read. */
  free(slot: number): void {
    const n = this.rec[3 * slot + 2]!
    if (n < 0) throw new Error(`JsonArena: slot ${slot} is not in use`)
    const c = this.rec[3 * slot]!
    this.rec[3 * slot + 2] = -1
    this.freeSlots.push(slot)
    this.live -= n
    this.liveBytes[c]! -= n
    if (c !== this.current) this.retired.push(c)
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
    // Buffer's copy makes no view of the piece (set(subarray(...)) did: ~100 ns a location).
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
   * Gives back the free space at the end of the buffer being appended to (up to MAX_CHUNK, as
   * buffers double): its bytes move to a buffer of their exact size, and the next JSON added
   * starts a new buffer, small again. For when a burst of adds is over (a locator's JSON filled).
   */
  trim(): void {
    const c = this.current
    if (c < 0 || this.tail === this.chunks[c]!.length) return
    // Even when empty: a slot of an empty text may be in it.
    const exact = Buffer.allocUnsafeSlow(this.tail)
    this.chunks[c]!.copy(exact, 0, 0, this.tail)
    this.chunks[c] = exact
    this.retired.push(c)
    this.current = -1
    this.tail = 0
    this.nextSize = MIN_CHUNK
  }

  /** Bytes of the JSON stored (live slots), and of the buffers holding it. */
  get bytes(): { live: number; allocated: number } {
    let allocated = 0
    for (const chunk of this.chunks) allocated += chunk?.length ?? 0
    return { live: this.live, allocated }
  }

  /** A buffer with room for `n` more bytes at `tail`: the current one, or a new one. */
  private room(n: number): number {
    if (this.current >= 0 && this.tail + n <= this.chunks[this.current]!.length) return this.current
    if (this.current >= 0) this.retired.push(this.current)
    const size = Math.max(n, this.nextSize)
    this.nextSize = Math.min(this.nextSize * 2, MAX_CHUNK)
    const c = this.freeChunks.pop() ?? this.chunks.length
    this.chunks[c] = Buffer.allocUnsafeSlow(size)
    this.liveBytes[c] = 0
    this.current = c
    this.tail = 0
    return c
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
  }

  /** Moves the live slots of retired buffers at most half live to the current one, and lets those go. */
  private tidy(): void {
    while (this.retired.length > 0) {
      const c = this.retired.pop()!
      const chunk = this.chunks[c]
      if (chunk === null || chunk === undefined || c === this.current || this.liveBytes[c]! * 2 > chunk.length) continue
      for (let slot = 0; slot < this.slots; slot++) {
        const r = 3 * slot
        if (this.rec[r] !== c || this.rec[r + 2]! < 0) continue
        const a = this.rec[r + 1]!
        const n = this.rec[r + 2]!
        const to = this.room(n)
        chunk.copy(this.chunks[to]!, this.tail, a, a + n)
        this.live -= n
        this.liveBytes[c]! -= n
        this.place(slot, to, this.tail, n)
        this.tail += n
      }
      this.chunks[c] = null
      this.freeChunks.push(c)
    }
  }
}
