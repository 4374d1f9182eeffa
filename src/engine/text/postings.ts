// FlexSearch ('strict': whole words) holding the postings of the rarer terms, for the plan that
// starts from a word instead of the map when the word is rarer than the map's candidates. Built
// in the background after load, and append-only: an update adds the location under a new
// FlexSearch id; stale ids are skipped, and dropped by a background rebuild. No answer depends on
// it being ready: without it, words are checked on the map's candidates.
import FlexSearch from 'flexsearch'
import { ensure, fit } from '../arrays'
import type { KeyTable } from '../keys'
import { stepEnd } from '../schedule'
import { FS_CHUNK, FS_DF_DIVISOR, FS_MIN_DF } from '../tuning'
import type { Schedule } from '../types'
import type { TermPool } from './term-pool'

export class Postings {
  /** Per term: 1 if FlexSearch holds it (the rarer terms at load, and every term made since). */
  inText = new Uint8Array(0)
  /** Whether every live key is in FlexSearch (a word-first plan is possible). */
  ready = false
  private index: InstanceType<typeof FlexSearch.Index> | null = null
  private cursor = 0
  private nextId = 0
  private garbage = 0
  /** Per key, its current FlexSearch id (-1: none); per FlexSearch id, its key. */
  private idOf = new Int32Array(0)
  private owner = new Int32Array(0)
  /** eachCandidate's bits by key: all zero between its calls. */
  private seen = new Int32Array(0)

  constructor(
    private readonly keys: KeyTable,
    private readonly terms: TermPool,
    private readonly schedule: Schedule,
    private readonly garbageMin: number,
  ) {}

  /** Whether the postings are being filled or kept (false until start()). */
  get started(): boolean {
    return this.index !== null
  }

  /** Chooses the terms FlexSearch holds: those in at most max(FS_MIN_DF, live / FS_DF_DIVISOR) locations. */
  chooseTerms(): void {
    const { df, vocab } = this.terms
    const cap = Math.max(FS_MIN_DF, this.keys.live / FS_DF_DIVISOR)
    for (let t = 0; t < vocab.size; t++) this.inText[t] = df[t]! <= cap ? 1 : 0
  }

  /** A new term: FlexSearch holds it (new terms are rare). */
  addTerm(t: number): void {
    this.inText = ensure(this.inText, t + 1)
    this.inText[t] = 1
  }

  /** A fresh FlexSearch index, filled FS_CHUNK locations per scheduled task. */
  start(): void {
    this.index = new FlexSearch.Index({ tokenize: 'strict', encoder: FlexSearch.Charset.Exact, resolution: 1 })
    this.ready = false
    this.cursor = 0
    this.nextId = 0
    this.garbage = 0
    this.idOf.fill(-1)
    this.owner = new Int32Array(0)
    const index = this.index
    const { entries } = this.keys
    // Slices of FS_CHUNK keys until its turn ends (stepEnd); a write meanwhile adds its key itself (upsert).
    const step = () => {
      if (this.index !== index) return // replaced by a rebuild
      const until = stepEnd()
      do {
        const end = Math.min(entries.length, this.cursor + FS_CHUNK)
        for (let key = this.cursor; key < end; key++) if (entries[key] !== null && this.idOf[key] === -1) this.add(key)
        this.cursor = end
      } while (this.cursor < entries.length && performance.now() < until)
      if (this.cursor < entries.length) this.schedule(step)
      else this.ready = true
    }
    this.schedule(step)
  }

  /** Adds a key's current FlexSearch-held terms under a new FlexSearch id. */
  add(key: number): void {
    this.drop(key)
    const { pool, start, count, vocab } = this.terms
    const from = start[key]!
    const n = count[key]!
    let words = ''
    for (let i = from; i < from + n; i++) {
      const t = pool[i]!
      if (this.inText[t] === 1) words += words === '' ? vocab.terms[t]! : ` ${vocab.terms[t]!}`
    }
    const id = this.nextId++
    this.owner = ensure(this.owner, id + 1)
    this.owner[id] = key
    this.idOf[key] = id
    if (words !== '') this.index!.add(id, words)
    if (this.ready && this.garbage > Math.max(this.garbageMin, this.keys.live)) this.start()
  }

  /** The key's FlexSearch entry is stale from now on (a write or a removal). */
  drop(key: number): void {
    if (this.idOf[key]! >= 0) {
      this.idOf[key] = -1
      this.garbage++
    }
  }

  /** Live keys whose current text has one of the terms (stale ids skipped), a key once per term it has. */
  candidates(terms: string[]): number[] {
    const out: number[] = []
    const limit = this.nextId + 1
    for (const term of terms) {
      // With nothing left in it, FlexSearch answers undefined, not [].
      const ids = (this.index!.search(term, { limit }) as number[] | undefined) ?? []
      for (const id of ids) {
        const key = this.owner[id]!
        if (this.idOf[key] === id) out.push(key)
      }
    }
    // A key appears once per term of a prefix it has: markPassing marks it once, eachCandidate
    // visits it once, each without a Set (PERF-028).
    return out
  }

  /** Visits each key of candidates(terms) once: the first time, by a bit set by key and cleared after. */
  eachCandidate(terms: string[], visit: (key: number) => void): void {
    const keys = this.candidates(terms)
    if (terms.length === 1) {
      for (const key of keys) visit(key)
      return
    }
    const seen = (this.seen = ensure(this.seen, (this.keys.entries.length + 31) >>> 5))
    for (const key of keys) {
      const bit = 1 << (key & 31)
      if ((seen[key >>> 5]! & bit) !== 0) continue
      seen[key >>> 5]! |= bit
      visit(key)
    }
    // All zero again for the next query.
    for (const key of keys) seen[key >>> 5] = 0
  }

  /** Room for `n` keys. */
  grow(n: number): void {
    const before = this.idOf.length
    this.idOf = ensure(this.idOf, n)
    this.idOf.fill(-1, before)
  }

  /** Cuts the growth slack after a bulk load of `n` keys and `terms` terms. */
  shrink(n: number, terms: number): void {
    this.idOf = fit(this.idOf, n)
    this.inText = fit(this.inText, terms)
  }
}
