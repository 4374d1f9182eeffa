// Answers kept for repeated identical requests between two writes (shared/design.md). The caller
// keys them by URL and uses one only for the locator version it was made for, so after a write
// (a new version) older entries are dead until made again.
//
// Answers are kept as Blobs of the UTF-8 bytes the caller sent: a Response made from a Blob shares
// its bytes, where one made from a Uint8Array copies them, and an answer as text is encoded again
// for every response (PERF-036). src/api/public/index.ts (fast) sends them.
//
// Keeping an answer costs: its Blob is ~30 KB of new memory, faulted in page by page. So an
// answer is kept from the second time its key is asked for (keys asked for once are remembered,
// with how often they were asked, not their answers), and once the cache is full only if its key
// was asked for more often than the least recently used answer's, which then leaves. Counts are
// halved now and then, so answers popular once give way. Without that contest, a round of more
// keys than the cache holds, each asked twice or more, would replace an answer at every request,
// none used before it left: page faults and lost throughput (PERF-036).

/**
 * An answer kept: its body, and the locator version and ETag it was made for; `headers` is the
 * caller's to fill in (the headers its responses are made from), null from when the answer is
 * kept or replaced.
 */
export type Kept = { version: string; etag: string; body: Blob; headers: ResponseHeaders | null }

/** Headers a caller makes responses from, and the rate limit, CORS origin, Vary and max-age they were last set to. */
export type ResponseHeaders = { headers: Headers; limit: number; origin: string; vary: string; maxAge: number }

type Entry = Kept & { asks: number }

/**
 * URLs longer than this are neither kept nor remembered: real queries are a few hundred
 * characters, and the cache must not hold megabytes of keys padded with parameters nobody reads.
 */
const MAX_KEY_LENGTH = 2048

export class AnswerCache {
  /** Least recently used first. */
  private answers = new Map<string, Entry>()
  /**
   * Keys whose answer is not kept: each key's slot in a ring of the last maxSeen remembered
   * (`ring`, with how often each was asked for in `asks`), which the next key remembered takes
   * over from the oldest. A slot whose key was remembered again since, or kept, is no longer the
   * key's. (Not a Map in insertion order, its oldest key found with keys().next(): the iterator
   * walks past every key deleted from the front since the Map last rehashed, a cost every
   * distinct query would pay; PERF-011.)
   */
  private seen = new Map<string, number>()
  private ring: (string | undefined)[]
  private asks: Int32Array
  private next = 0
  /** Offers until the counts are halved. */
  private untilAging: number

  /** The kept answers' bytes, at most maxBytes. */
  private bytes = 0

  constructor(
    /** Answers kept at most: 1024 radius answers of ~30 KB, ~32 MB. */
    readonly maxAnswers = 1024,
    /** Keys remembered at most. */
    readonly maxSeen = 4096,
    /** Offers between two halvings of the counts. */
    readonly agingPeriod = 10 * maxAnswers,
    /**
     * The kept answers' bytes at most, however big they are (an `all=true&limit=500` answer is
     * ~600 KB, so 1024 of them would hold hundreds of MB); an answer over a sixteenth of it is
     * not kept.
     */
    readonly maxBytes = 32 * 1024 * 1024,
  ) {
    this.untilAging = agingPeriod
    this.ring = new Array(maxSeen)
    this.asks = new Int32Array(maxSeen)
  }

  /** The answer kept for `key`, now the most recently used; undefined when none is. */
  get(key: string): Kept | undefined {
    const kept = this.answers.get(key)
    if (kept !== undefined) {
      kept.asks++
      this.answers.delete(key)
      this.answers.set(key, kept)
    }
    return kept
  }

  /**
   * An answer just made for `key` (its bytes are copied: the caller may reuse them). Kept, and
   * returned as the Blob kept, when the key has an answer kept already (made for an older
   * version: it takes its place), or is asked for the second time or more and the cache has room
   * or holds a less asked-for answer; else null, and the key is remembered.
   */
  offer(key: string, version: string, etag: string, answer: Uint8Array): Blob | null {
    if (key.length > MAX_KEY_LENGTH) return null
    if (--this.untilAging <= 0) this.age()
    const size = answer.byteLength
    const fits = size <= this.maxBytes / 16
    const kept = this.answers.get(key)
    if (kept !== undefined) {
      this.answers.delete(key)
      this.bytes -= kept.body.size
      if (!fits) return null
      const body = new Blob([answer])
      kept.version = version
      kept.etag = etag
      kept.body = body
      kept.headers = null
      this.answers.set(key, kept)
      this.bytes += size
      // Grown past the budget: the least recently used others leave.
      while (this.bytes > this.maxBytes) this.evictOldest()
      return body
    }
    const slot = this.seen.get(key)
    const asks = (slot === undefined ? 0 : this.asks[slot]!) + 1
    if (slot !== undefined) this.seen.delete(key)
    if (asks >= 2 && fits && this.makeRoom(asks, size)) {
      const body = new Blob([answer])
      this.answers.set(key, { version, etag, body, headers: null, asks })
      this.bytes += size
      return body
    }
    this.remember(key, asks)
    return null
  }

  get size(): number {
    return this.answers.size
  }

  /** The kept answers' bytes. */
  get byteSize(): number {
    return this.bytes
  }

  /**
   * True when an answer of `size` bytes asked for `asks` times may be kept: there is room, or is
   * made by sending off less asked-for ones, least recently used first.
   */
  private makeRoom(asks: number, size: number): boolean {
    while (this.answers.size >= this.maxAnswers || this.bytes + size > this.maxBytes) {
      if (asks <= this.answers.values().next().value!.asks) return false
      this.evictOldest()
    }
    return true
  }

  /** Sends off the least recently used answer; its key is remembered with its count. */
  private evictOldest(): void {
    const [victim, entry] = this.answers.entries().next().value!
    this.answers.delete(victim)
    this.bytes -= entry.body.size
    this.remember(victim, entry.asks)
  }

  private remember(key: string, asks: number): void {
    const slot = this.next
    this.next = slot + 1 === this.maxSeen ? 0 : slot + 1
    const oldest = this.ring[slot]
    if (oldest !== undefined && this.seen.get(oldest) === slot) this.seen.delete(oldest)
    this.ring[slot] = key
    this.asks[slot] = asks
    this.seen.set(key, slot)
  }

  /** Halves every count: what was asked for long ago weighs less against what is asked for now. */
  private age(): void {
    this.untilAging = this.agingPeriod
    for (const entry of this.answers.values()) entry.asks = Math.max(1, entry.asks >> 1)
    for (let i = 0; i < this.maxSeen; i++) this.asks[i]! >>= 1
  }
}
