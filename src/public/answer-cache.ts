// Answers kept for repeated identical requests between two writes (shared/design.md). The caller
// keys them by URL and uses one only for the locator version it was made for, so after a write
// (a new version) older entries are dead until made again; least recently used entries leave first.
//
// Answers are kept as Blobs of the UTF-8 bytes the caller sent: a Response made from a Blob shares
// its bytes, where one made from a Uint8Array copies them (30 KB: 1.9 µs; from the Blob 0.1 µs),
// and an answer as text is encoded again for every response (under wrk at 100k, one query
// repeated: bare Bun.serve with our answer as text and our 12 headers made 67.8k req/s; the same
// with ASCII text, nothing to transcode, 80.7k). src/public/index.ts (fast) sends them.
//
// An answer is kept from the second time its key is asked for: keys asked for once are
// remembered, not their answers. A stream of one-off queries (every map pan somewhere new) then
// costs a key each, not a ~30 KB answer each churned through the cache (under wrk at 100k, 4000
// distinct radius queries cycled, two alternating 5 s runs each: 6.6k and 7.0k req/s keeping
// every answer, 7.0k and 8.1k keeping answers from the second ask).

/** An answer kept: its body, and the locator version and ETag it was made for. */
export type Kept = { version: number; etag: string; body: Blob }

export class AnswerCache {
  private answers = new Map<string, Kept>()
  /** Keys asked for once whose answer was not kept, oldest first. */
  private seen = new Map<string, true>()

  constructor(
    /** Answers kept at most: at ~30 KB per radius answer, 1024 stay under ~32 MB. */
    readonly maxAnswers = 1024,
    /** Keys remembered at most. */
    readonly maxSeen = 4096,
  ) {}

  /** The answer kept for `key`, now the most recently used; undefined when none is. */
  get(key: string): Kept | undefined {
    const kept = this.answers.get(key)
    if (kept !== undefined) {
      this.answers.delete(key)
      this.answers.set(key, kept)
    }
    return kept
  }

  /**
   * An answer just made for `key` (its bytes are copied: the caller may reuse them): kept if the
   * key was asked for before, and then returned as the Blob kept; else the key is remembered.
   */
  offer(key: string, version: number, etag: string, answer: Uint8Array): Blob | null {
    if (this.seen.delete(key)) {
      this.answers.delete(key) // an older answer's place
      if (this.answers.size >= this.maxAnswers) this.answers.delete(this.answers.keys().next().value!)
      const body = new Blob([answer])
      this.answers.set(key, { version, etag, body })
      return body
    }
    if (this.seen.size >= this.maxSeen) this.seen.delete(this.seen.keys().next().value!)
    this.seen.set(key, true)
    return null
  }

  get size(): number {
    return this.answers.size
  }
}
