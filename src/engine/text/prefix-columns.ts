// Prefix columns: a prefix of 1 to PREFIX_COLUMN_LENGTH characters that the term columns do not
// decide (more than SIG_PREFIX_TERMS terms begin it, or one without a column of its own does),
// and whose terms are in at least 1/TERM_COLUMN_SHARE of the base's locations (counted once per
// term), gets a bit column of its own: a position has it when one of its terms begins with the
// prefix. A search typed as it is typed ("s", "st", "1") then tests its last word 32 positions
// at a time, as a common whole word is tested (PERF-026).
import { MAX_PREFIX_COLUMNS, PREFIX_COLUMN_LENGTH, SIG_PREFIX_TERMS, TERM_COLUMN_SHARE } from '../tuning'

/**
 * Finds the prefix columns over the terms in text order (`sorted`, their ids `ids`: copies, as
 * the vocabulary may grow meanwhile), a slice at a time (scan(to)), then numbers them
 * (columns()). One pass: the terms a prefix begins lie side by side, and a term's groups of each
 * length go on from the term before as far as they share a prefix.
 */
export class PrefixScan {
  private at = 0
  private prev = ''
  // Running sums over the terms so far (those with a location): terms, their locations, those
  // without a column; and, per length (1..PREFIX_COLUMN_LENGTH), where the group under way began
  // and the sums then.
  private terms = 0
  private locations = 0
  private loose = 0
  private readonly from = new Int32Array(PREFIX_COLUMN_LENGTH + 1)
  private readonly termsAt = new Int32Array(PREFIX_COLUMN_LENGTH + 1)
  private readonly locationsAt = new Float64Array(PREFIX_COLUMN_LENGTH + 1)
  private readonly looseAt = new Int32Array(PREFIX_COLUMN_LENGTH + 1)
  private readonly candidates: { prefix: string; length: number; from: number; to: number; locations: number }[] = []

  constructor(
    private readonly sorted: readonly string[],
    private readonly ids: readonly number[],
    private readonly df: Int32Array,
    /** The term columns (termColumns), for the terms known when the scan began. */
    private readonly termCol: Int32Array,
    private readonly live: number,
  ) {}

  /** How far the scan is, and where it ends: a step for each term, and one more that ends the groups under way. */
  get position(): number {
    return this.at
  }
  get end(): number {
    return this.sorted.length + 1
  }

  /** Scans on up to position `to` (at most end). */
  scan(to: number): void {
    const { sorted, ids, df, termCol, from, termsAt, locationsAt, looseAt } = this
    const L = PREFIX_COLUMN_LENGTH
    const end = Math.min(to, this.end)
    for (; this.at < end; this.at++) {
      const i = this.at
      const prev = this.prev
      const word = i < sorted.length ? sorted[i]! : ''
      let shared = 0
      const most = Math.min(L, word.length, prev.length)
      while (shared < most && word.charCodeAt(shared) === prev.charCodeAt(shared)) shared++
      // The previous term's groups longer than the prefix it shares with this one end here.
      for (let length = shared + 1, last = Math.min(L, prev.length); length <= last; length++) {
        const n = this.terms - termsAt[length]!
        const sum = this.locations - locationsAt[length]!
        // Not half a character (a prefix cut inside a surrogate pair): no search asks for one.
        const half = (prev.charCodeAt(length - 1) & 0xfc00) === 0xd800
        if ((n > SIG_PREFIX_TERMS || this.loose > looseAt[length]!) && sum * TERM_COLUMN_SHARE >= this.live && !half) {
          this.candidates.push({ prefix: prev.slice(0, length), length, from: from[length]!, to: i, locations: sum })
        }
      }
      if (i === sorted.length) continue
      for (let length = shared + 1, last = Math.min(L, word.length); length <= last; length++) {
        from[length] = i
        termsAt[length] = this.terms
        locationsAt[length] = this.locations
        looseAt[length] = this.loose
      }
      const t = ids[i]!
      if (df[t]! > 0) {
        this.terms++
        this.locations += df[t]!
        if (termCol[t]! < 0) this.loose++
      }
      this.prev = word
    }
  }

  /**
   * The prefix columns, numbered from `first` (after the term columns, as termCol numbers them):
   * the prefix of each, and per term id, the columns of its prefixes, shortest first, in `out`
   * (PREFIX_COLUMN_LENGTH a term, then -1 if fewer).
   */
  columns(first: number, out: Int32Array): Map<string, number> {
    const chosen = this.candidates
      .sort((a, b) => a.length - b.length || b.locations - a.locations)
      .slice(0, MAX_PREFIX_COLUMNS)
    const columns = new Map<string, number>()
    out.fill(-1)
    // Shortest first, so each term's columns are written in order of length, side by side.
    for (const { prefix, from, to } of chosen) {
      const c = first + columns.size
      columns.set(prefix, c)
      for (let i = from; i < to; i++) {
        let k = PREFIX_COLUMN_LENGTH * this.ids[i]!
        while (out[k] !== -1) k++
        out[k] = c
      }
    }
    return columns
  }
}
