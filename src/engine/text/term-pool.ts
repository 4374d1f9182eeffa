// Each key's distinct term ids, pooled in one Int32Array (repacked in kd order at every
// compaction), with the vocabulary that numbers the terms and each term's live locations. A key's
// own terms (its text's) come first in its slice, then those only its town's names have.
import { ensure, fit } from '../arrays'
import { Vocabulary } from './vocabulary'

export class TermPool {
  readonly vocab = new Vocabulary()
  /** Per term: the live locations that have it. */
  df = new Int32Array(0)
  /** Per term: the live locations that have it in their own text (not only among their town's names). */
  ownDf = new Int32Array(0)
  /** The pool of term ids; a key's are pool[start[key]..start[key] + count[key]). */
  pool = new Int32Array(0)
  used = 0
  /** Ids in the pool no live key owns (a key's old terms after a write). */
  garbage = 0
  start = new Int32Array(0)
  count = new Int32Array(0)
  /** Per key: how many of its terms, first in its slice, are its own text's. */
  own = new Int32Array(0)
  /** Per term: a stamp (linking a doc marks the terms seen). */
  private mark = new Uint32Array(0)
  private stamp = 0

  /**
   * Pools the distinct terms of a key's text and then of its town's names (both searchKey's) at
   * the end of the pool. Terms new to the vocabulary are ids from its size before the call.
   */
  link(key: number, text: string, places: string): void {
    const start = this.used
    const stamp = this.nextStamp()
    this.used = this.append(text, stamp, true)
    this.own[key] = this.used - start
    this.used = this.append(places, stamp, false)
    this.start[key] = start
    this.count[key] = this.used - start
  }

  /** Appends the words of `text` not marked with `stamp` yet; returns the end of the pool's ids. */
  private append(text: string, stamp: number, own: boolean): number {
    let end = this.used
    const before = this.vocab.size
    const words = this.vocab.internWords(text)
    if (this.vocab.size > before) {
      this.df = ensure(this.df, this.vocab.size)
      this.ownDf = ensure(this.ownDf, this.vocab.size)
      this.mark = ensure(this.mark, this.vocab.size)
    }
    const { found } = this.vocab
    for (let i = 0; i < words; i++) {
      const t = found[i]!
      if (this.mark[t] === stamp) continue // seen in this doc already
      this.mark[t] = stamp
      if (end === this.pool.length) this.pool = ensure(this.pool, end + 1)
      this.pool[end++] = t
      this.df[t]!++
      if (own) this.ownDf[t]!++
    }
    return end
  }

  /** Drops a key's terms from the counts; they stay in the pool as garbage. */
  unlink(key: number): void {
    const from = this.start[key]!
    const n = this.count[key]!
    for (let i = from; i < from + n; i++) this.df[this.pool[i]!]!--
    for (let i = from; i < from + this.own[key]!; i++) this.ownDf[this.pool[i]!]!--
    this.garbage += n
    this.count[key] = 0
    this.own[key] = 0
  }

  /** Room for `n` keys. */
  grow(n: number): void {
    this.start = ensure(this.start, n)
    this.count = ensure(this.count, n)
    this.own = ensure(this.own, n)
  }

  /** Cuts the growth slack after a bulk load of `n` keys. */
  shrink(n: number): void {
    this.start = fit(this.start, n)
    this.count = fit(this.count, n)
    this.own = fit(this.own, n)
    // Not the pool: the compaction after every bulk load replaces it with one cut to size.
    this.df = fit(this.df, this.vocab.size)
    this.ownDf = fit(this.ownDf, this.vocab.size)
    this.mark = fit(this.mark, this.vocab.size)
  }

  /** A stamp no mark carries yet. */
  private nextStamp(): number {
    if (this.stamp === 0xffffffff) {
      this.mark.fill(0)
      this.stamp = 0
    }
    return ++this.stamp
  }
}

/** Whether the term ids pool[from..to) have every term of `whole` and, if `prefix`, one marked in prefixBits. */
export function wordsIn(
  pool: Int32Array,
  prefixBits: Int32Array,
  from: number,
  to: number,
  whole: readonly number[],
  prefix: boolean,
): boolean {
  for (const t of whole) {
    let found = false
    for (let i = from; i < to; i++) {
      if (pool[i] === t) {
        found = true
        break
      }
    }
    if (!found) return false
  }
  if (!prefix) return true
  for (let i = from; i < to; i++) {
    const t = pool[i]!
    if ((prefixBits[t >>> 5]! & (1 << (t & 31))) !== 0) return true
  }
  return false
}
